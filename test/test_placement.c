/* test/test_placement.c - every public type at every placement a caller can
 * give it: Poly1305, ChaCha20-Poly1305 and MD5 contexts and limb arrays at each offset from a
 * 64-byte boundary of a malloc'd buffer, a context moved to another
 * alignment mid-stream, and byte buffers (message, key, tag, digest) at
 * every byte offset; each implementation this CPU supports against generic.
 * The types need only their natural alignment (8 bytes), so the offsets
 * step by 8 for them and by 1 for the byte buffers. */
#include "common.h"

#include <stdalign.h>

enum { ALIGNMENT = 8, SPAN = 64, MESSAGE = 4200 };

/* A heap buffer with room for a SPAN-aligned base plus an offset below SPAN. */
typedef struct heap_block {
  unsigned char *allocation;
  unsigned char *base; /* SPAN-aligned */
} heap_block;

static heap_block heap_block_new(size_t size) {
  heap_block block;
  block.allocation = malloc(size + 2 * SPAN);
  assert_non_null(block.allocation);
  block.base = (unsigned char *)(((uintptr_t)block.allocation + SPAN - 1) & ~(uintptr_t)(SPAN - 1));
  return block;
}

static void generic_poly1305(uint8_t tag[16], const uint8_t *data, size_t len, const uint8_t key[32]) {
  const char *previous = crisp_impl_name(CRISP_KERNEL_POLY1305);
  test_pin(CRISP_KERNEL_POLY1305, "generic");
  crisp_poly1305(tag, data, len, key);
  test_pin(CRISP_KERNEL_POLY1305, previous);
}

static void test_alignment_needed(void **state) {
  (void)state;
  /* What a malloc'd or new'd struct member is always given. */
  assert_true(alignof(crisp_poly1305_ctx) <= ALIGNMENT);
  assert_true(alignof(crisp_md5_ctx) <= ALIGNMENT);
  assert_true(alignof(crisp_chacha20_poly1305_ctx) <= ALIGNMENT);
  assert_true(alignof(crisp_limb) <= ALIGNMENT);
}

/* Lengths around every kernel's crossovers (in 16-byte blocks: 4, 8, 16,
 * 32, 48, 72) and a long one; the first update ends mid-block. */
static const size_t poly1305_lengths[] = {0, 15, 64, 129, 513, 777, 1152, 2100, MESSAGE};

static void test_poly1305_context_offsets(void **state) {
  (void)state;
  heap_block block = heap_block_new(sizeof(crisp_poly1305_ctx));
  uint8_t *data = test_alloc(MESSAGE);
  uint8_t key[32], tag[16], expected[16];
  test_fill_random(data, MESSAGE);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t offset = 0; offset < SPAN; offset += ALIGNMENT) {
      for (size_t i = 0; i < sizeof poly1305_lengths / sizeof poly1305_lengths[0]; i++) {
        const size_t len = poly1305_lengths[i], first = len / 3;
        test_fill_random(key, 32);
        generic_poly1305(expected, data, len, key);
        crisp_poly1305_ctx *ctx = (crisp_poly1305_ctx *)(block.base + offset);
        crisp_poly1305_init(ctx, key);
        crisp_poly1305_update(ctx, data, first);
        crisp_poly1305_update(ctx, data + first, len - first);
        crisp_poly1305_final(ctx, tag);
        assert_bytes_equal(tag, expected, 16, "poly1305 %s: context at offset %zu, len %zu\n", name, offset,
                           len);
        /* 64-byte updates: a vector kernel's lanes and waiting blocks live in the context */
        crisp_poly1305_init(ctx, key);
        for (size_t done = 0; done < len; done += 64)
          crisp_poly1305_update(ctx, data + done, len - done < 64 ? len - done : 64);
        crisp_poly1305_final(ctx, tag);
        assert_bytes_equal(tag, expected, 16,
                           "poly1305 %s: context at offset %zu, len %zu in 64-byte updates\n", name, offset,
                           len);
      }
    }
  }
  free(data);
  free(block.allocation);
}

/* A context copied byte-wise to a differently aligned address between two
 * long updates, as a C++ container does when it grows: the cached powers of
 * r move with it. */
static void test_poly1305_context_moved(void **state) {
  (void)state;
  heap_block source = heap_block_new(sizeof(crisp_poly1305_ctx)),
             target = heap_block_new(sizeof(crisp_poly1305_ctx));
  uint8_t *data = test_alloc(MESSAGE);
  uint8_t key[32], tag[16], expected[16];
  test_fill_random(data, MESSAGE);
  test_fill_random(key, 32);
  generic_poly1305(expected, data, MESSAGE, key);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t from = 0; from < SPAN; from += ALIGNMENT) {
      const size_t to = (from + 24) % SPAN;
      crisp_poly1305_ctx *a = (crisp_poly1305_ctx *)(source.base + from);
      crisp_poly1305_ctx *b = (crisp_poly1305_ctx *)(target.base + to);
      crisp_poly1305_init(a, key);
      crisp_poly1305_update(a, data, 1001);
      memcpy(b, a, sizeof *b);
      memset(a, 0x5a, sizeof *a);
      crisp_poly1305_update(b, data + 1001, MESSAGE - 1001);
      crisp_poly1305_final(b, tag);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s: context moved from offset %zu to %zu\n", name, from,
                         to);
    }
  }
  free(data);
  free(source.allocation), free(target.allocation);
}

/* The streaming AEAD's context at every 8-byte offset, copied to another
 * alignment mid-stream (both Poly1305's cached powers and the partial
 * keystream block move with it); the AEAD's buffers at odd byte offsets. */
static void test_chacha20_poly1305_placement(void **state) {
  (void)state;
  heap_block source = heap_block_new(sizeof(crisp_chacha20_poly1305_ctx)),
             target = heap_block_new(sizeof(crisp_chacha20_poly1305_ctx));
  uint8_t *data = test_alloc(MESSAGE), *ct = test_alloc(MESSAGE + SPAN), *want = test_alloc(MESSAGE);
  uint8_t key[32], nonce[12] = {3}, tag[16], expected[16];
  test_fill_random(data, MESSAGE);
  test_fill_random(key, 32);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, name) {
    assert_int_equal(crisp_chacha20_poly1305_seal(want, expected, data, MESSAGE, NULL, 0, nonce, key),
                     CRISP_OK);
    for (size_t from = 0; from < SPAN; from += ALIGNMENT) {
      const size_t to = (from + 24) % SPAN;
      crisp_chacha20_poly1305_ctx *a = (crisp_chacha20_poly1305_ctx *)(source.base + from);
      crisp_chacha20_poly1305_ctx *b = (crisp_chacha20_poly1305_ctx *)(target.base + to);
      uint8_t *out = ct + from + 1;
      assert_int_equal(crisp_chacha20_poly1305_stream_init(a, CRISP_AEAD_SEAL, nonce, key, NULL, 0),
                       CRISP_OK);
      assert_int_equal(crisp_chacha20_poly1305_stream_update(a, out, data, 1001), CRISP_OK);
      memcpy(b, a, sizeof *b);
      memset(a, 0x5a, sizeof *a);
      assert_int_equal(crisp_chacha20_poly1305_stream_update(b, out + 1001, data + 1001, MESSAGE - 1001),
                       CRISP_OK);
      assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(b, tag), CRISP_OK);
      assert_bytes_equal(out, want, MESSAGE, "chacha20poly1305 %s: context moved from %zu to %zu\n", name,
                         from, to);
      assert_bytes_equal(tag, expected, 16, "chacha20poly1305 %s: tag, context moved from %zu to %zu\n", name,
                         from, to);
    }
  }
  free(data), free(ct), free(want);
  free(source.allocation), free(target.allocation);
}

/* One-shot and verify: message, key and tag each at every byte offset. */
static void test_poly1305_byte_offsets(void **state) {
  (void)state;
  heap_block message = heap_block_new(MESSAGE), keys = heap_block_new(32), tags = heap_block_new(16);
  uint8_t expected[16];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t offset = 0; offset < SPAN; offset++) {
      uint8_t *data = message.base + offset, *key = keys.base + (offset * 7) % SPAN,
              *tag = tags.base + (offset * 13) % SPAN;
      const size_t len = offset < 32 ? 16 * offset + offset % 5 : MESSAGE - offset;
      test_fill_random(data, len);
      test_fill_random(key, 32);
      generic_poly1305(expected, data, len, key);
      crisp_poly1305(tag, data, len, key);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s: one-shot, data at offset %zu, len %zu\n", name,
                         offset, len);
      assert_int_equal(crisp_poly1305_verify(tag, data, len, key), CRISP_OK);
    }
  }
  free(message.allocation), free(keys.allocation), free(tags.allocation);
}

static void generic_md5(uint8_t digest[16], const uint8_t *data, size_t len) {
  const char *previous = crisp_impl_name(CRISP_KERNEL_MD5);
  test_pin(CRISP_KERNEL_MD5, "generic");
  crisp_md5(data, len, digest);
  test_pin(CRISP_KERNEL_MD5, previous);
}

/* Streams, with the context at each offset and the data at each byte offset. */
static void test_md5_offsets(void **state) {
  (void)state;
  heap_block block = heap_block_new(sizeof(crisp_md5_ctx)), message = heap_block_new(MESSAGE),
             digests = heap_block_new(16);
  uint8_t expected[16];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t offset = 0; offset < SPAN; offset++) {
      crisp_md5_ctx *ctx = (crisp_md5_ctx *)(block.base + offset / ALIGNMENT * ALIGNMENT);
      uint8_t *data = message.base + offset, *digest = digests.base + (offset * 5) % SPAN;
      const size_t len = 65 * offset + 3, first = len / 2 + 1;
      test_fill_random(data, len);
      generic_md5(expected, data, len);
      crisp_md5_init(ctx);
      crisp_md5_update(ctx, data, first);
      crisp_md5_update(ctx, data + first, len - first);
      crisp_md5_final(ctx, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: context at %zu, data at %zu\n", name,
                         offset / ALIGNMENT * ALIGNMENT, offset);
    }
  }
  free(block.allocation), free(message.allocation), free(digests.allocation);
}

/* crisp_md5_update_many and crisp_md5_many: contexts packed at 8-byte steps
 * from a boundary, each message at its own byte offset. */
static void test_md5_many_offsets(void **state) {
  (void)state;
  enum { STREAMS = 40, LEN = 300 };
  heap_block contexts = heap_block_new(STREAMS * (sizeof(crisp_md5_ctx) + ALIGNMENT));
  heap_block message = heap_block_new(STREAMS * (LEN + SPAN));
  crisp_md5_ctx *ctx[STREAMS];
  const void *data[STREAMS];
  size_t len[STREAMS];
  uint8_t digest[STREAMS][16], expected[STREAMS][16];
  for (size_t i = 0; i < STREAMS; i++) {
    ctx[i] = (crisp_md5_ctx *)(contexts.base + i * (sizeof(crisp_md5_ctx) + ALIGNMENT));
    uint8_t *bytes = message.base + i * (LEN + SPAN) + i % SPAN;
    len[i] = LEN - 7 * (i % 9);
    test_fill_random(bytes, len[i]);
    data[i] = bytes;
    generic_md5(expected[i], bytes, len[i]);
  }
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t i = 0; i < STREAMS; i++) crisp_md5_init(ctx[i]);
    crisp_md5_update_many(ctx, data, len, STREAMS);
    for (size_t i = 0; i < STREAMS; i++) {
      crisp_md5_final(ctx[i], digest[i]);
      assert_bytes_equal(digest[i], expected[i], 16, "md5_many %s: update_many stream %zu\n", name, i);
    }
    crisp_md5_many(data, len, STREAMS, digest);
    for (size_t i = 0; i < STREAMS; i++)
      assert_bytes_equal(digest[i], expected[i], 16, "md5_many %s: md5_many message %zu\n", name, i);
  }
  free(contexts.allocation), free(message.allocation);
}

/* ---- limb arrays ------------------------------------------------------ */

/* Sizes the vector and unrolled kernels take (4-, 8- and 16-limb blocks,
 * IFMA's 52-bit digit groups) and a few odd ones. */
static const size_t limb_counts[] = {1, 3, 4, 7, 8, 12, 16, 17, 20, 32, 33, 40};
enum { LIMB_COUNT_KINDS = sizeof limb_counts / sizeof limb_counts[0], MAX_LIMBS = 40 };

/* Each array of an operation at its own offset from a boundary. */
typedef struct limb_arrays {
  heap_block block[5];
  crisp_limb *array[5];
} limb_arrays;

static limb_arrays limb_arrays_new(void) {
  limb_arrays arrays;
  for (int i = 0; i < 5; i++) arrays.block[i] = heap_block_new(2 * MAX_LIMBS * sizeof(crisp_limb));
  return arrays;
}

static void limb_arrays_place(limb_arrays *arrays, size_t offset) {
  for (size_t i = 0; i < 5; i++)
    arrays->array[i] = (crisp_limb *)(arrays->block[i].base + (offset + 8 * i) % SPAN);
}

static void limb_arrays_free(limb_arrays *arrays) {
  for (int i = 0; i < 5; i++) free(arrays->block[i].allocation);
}

/* A random odd modulus of n limbs with the top limb nonzero, and a, b below it. */
static void random_operands(crisp_limb *m, crisp_limb *a, crisp_limb *b, size_t n) {
  test_fill_random(m, n * sizeof *m);
  m[0] |= 1, m[n - 1] |= 1ull << 63;
  test_fill_random(a, n * sizeof *a);
  test_fill_random(b, n * sizeof *b);
  a[n - 1] >>= 1, b[n - 1] >>= 1;
}

#define LIMBS_EQUAL(got, want, n, ...)                          \
  do {                                                          \
    if (memcmp((got), (want), (n) * sizeof(crisp_limb)) != 0) { \
      print_error(__VA_ARGS__);                                 \
      fail();                                                   \
    }                                                           \
  } while (0)

static void test_bn_product_offsets(void **state) {
  (void)state;
  limb_arrays arrays = limb_arrays_new();
  crisp_limb want[2 * MAX_LIMBS], x[MAX_LIMBS], y[MAX_LIMBS];
  const crisp_kernel kernels[] = {CRISP_KERNEL_BN_MUL, CRISP_KERNEL_BN_SQR, CRISP_KERNEL_BN_MUL_ADD};
  for (size_t k = 0; k < 3; k++) {
    const char *name;
    FOR_EACH_IMPL(kernels[k], name) {
      for (size_t offset = 0; offset < SPAN; offset += ALIGNMENT) {
        limb_arrays_place(&arrays, offset);
        crisp_limb *z = arrays.array[0], *px = arrays.array[1], *py = arrays.array[2];
        for (size_t c = 0; c < LIMB_COUNT_KINDS; c++) {
          const size_t n = limb_counts[c];
          test_fill_random(x, sizeof x), test_fill_random(y, sizeof y), test_fill_random(z, n * 8);
          memcpy(px, x, n * 8), memcpy(py, y, n * 8), memcpy(want, z, n * 8);
          const crisp_limb factor = y[0];
          crisp_limb carry = 0, want_carry = 0;
          test_pin(kernels[k], "generic");
          if (k == 0) crisp_bn_mul(want, x, n, y, n);
          if (k == 1) crisp_bn_sqr(want, x, n);
          if (k == 2) assert_int_equal(crisp_bn_mul_add(want, x, n, factor, &want_carry), CRISP_OK);
          test_pin(kernels[k], name);
          if (k == 0) assert_int_equal(crisp_bn_mul(z, px, n, py, n), CRISP_OK);
          if (k == 1) assert_int_equal(crisp_bn_sqr(z, px, n), CRISP_OK);
          if (k == 2) assert_int_equal(crisp_bn_mul_add(z, px, n, factor, &carry), CRISP_OK);
          LIMBS_EQUAL(z, want, k == 2 ? n : 2 * n, "%s %s: %zu limbs at offset %zu\n",
                      crisp_kernel_name(kernels[k]), name, n, offset);
          assert_true(carry == want_carry);
        }
      }
    }
  }
  limb_arrays_free(&arrays);
}

/* Montgomery multiplication and squaring, and mod_exp (through the
 * mont_mul implementation it belongs to), r, a, b, m and exp each placed. */
static void test_bn_montgomery_offsets(void **state) {
  (void)state;
  limb_arrays arrays = limb_arrays_new();
  crisp_limb want[MAX_LIMBS], m[MAX_LIMBS], a[MAX_LIMBS], b[MAX_LIMBS];
  const crisp_kernel kernels[] = {CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_BN_MONT_SQR};
  for (size_t k = 0; k < 2; k++) {
    const char *name;
    FOR_EACH_IMPL(kernels[k], name) {
      for (size_t offset = 0; offset < SPAN; offset += ALIGNMENT) {
        limb_arrays_place(&arrays, offset);
        crisp_limb *r = arrays.array[0], *pa = arrays.array[1], *pb = arrays.array[2], *pm = arrays.array[3],
                   *exponent = arrays.array[4];
        for (size_t c = 0; c < LIMB_COUNT_KINDS; c++) {
          const size_t n = limb_counts[c];
          random_operands(m, a, b, n);
          memcpy(pa, a, n * 8), memcpy(pb, b, n * 8), memcpy(pm, m, n * 8);
          const crisp_limb minv = crisp_bn_mont_inv(m[0]);
          test_pin(kernels[k], "generic");
          if (k == 0) assert_int_equal(crisp_bn_mont_mul(want, a, b, m, n, minv), CRISP_OK);
          if (k == 1) assert_int_equal(crisp_bn_mont_sqr(want, a, m, n, minv), CRISP_OK);
          test_pin(kernels[k], name);
          if (k == 0) assert_int_equal(crisp_bn_mont_mul(r, pa, pb, pm, n, minv), CRISP_OK);
          if (k == 1) assert_int_equal(crisp_bn_mont_sqr(r, pa, pm, n, minv), CRISP_OK);
          LIMBS_EQUAL(r, want, n, "%s %s: %zu limbs at offset %zu\n", crisp_kernel_name(kernels[k]), name, n,
                      offset);
          if (k == 1 || c % 3 != 0) continue; /* mod_exp is slow: a few sizes */
          const size_t exponent_limbs = 2;
          test_fill_random(exponent, exponent_limbs * 8);
          test_pin(kernels[k], "generic");
          assert_int_equal(crisp_bn_mod_exp(want, a, exponent, exponent_limbs, m, n), CRISP_OK);
          test_pin(kernels[k], name);
          assert_int_equal(crisp_bn_mod_exp(r, pa, exponent, exponent_limbs, pm, n), CRISP_OK);
          LIMBS_EQUAL(r, want, n, "bn_mod_exp %s: %zu limbs at offset %zu\n", name, n, offset);
        }
      }
    }
  }
  limb_arrays_free(&arrays);
}

int main(void) {
  test_seed(0x706c6163656d656eull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_alignment_needed, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_context_offsets, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_context_moved, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_byte_offsets, test_teardown_unpin),
      cmocka_unit_test_teardown(test_chacha20_poly1305_placement, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_offsets, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_many_offsets, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_product_offsets, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_montgomery_offsets, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
