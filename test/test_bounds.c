/* test/test_bounds.c - every implementation stays inside its buffers, seen
 * natively: inputs and outputs are placed against inaccessible guard pages
 * (mmap, then mprotect PROT_NONE), so a read or write one byte past the end
 * (or before the start) crashes the test instead of waiting for ASan or
 * valgrind. And operands that merely touch - adjacent pieces of one
 * allocation - are accepted and give the same answers as apart. */
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "rsa_keys.h"

/* ---- guarded buffers -------------------------------------------------- */

/* [guard page][room][guard page]: at_end(len) ends at the second guard,
 * at_start(len) begins right after the first. */
typedef struct guarded {
  uint8_t *base;
  size_t room, total;
} guarded;

static size_t page_size(void) {
  return (size_t)sysconf(_SC_PAGESIZE);
}

static guarded guarded_new(size_t room) {
  const size_t page = page_size();
  guarded g;
  g.room = (room + page - 1) / page * page;
  g.total = g.room + 2 * page;
  void *p = mmap(NULL, g.total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(p != MAP_FAILED);
  g.base = p;
  assert_int_equal(mprotect(g.base, page, PROT_NONE), 0);
  assert_int_equal(mprotect(g.base + page + g.room, page, PROT_NONE), 0);
  return g;
}

static void guarded_free(guarded *g) {
  munmap(g->base, g->total);
}

static uint8_t *at_end(const guarded *g, size_t len) {
  assert_true(len <= g->room);
  return g->base + page_size() + g->room - len;
}

static uint8_t *at_start(const guarded *g) {
  return g->base + page_size();
}

/* ---- MD5 and Poly1305 ------------------------------------------------- */

enum { MAX_TEXT = 4200 };

/* Lengths: every one to 300, then around the vector kernels' block groups. */
static size_t text_length(size_t i) {
  static const size_t long_lengths[] = {511,  512,  513,  1023, 1024, 1025,    2047,
                                        2048, 2049, 4095, 4096, 4111, MAX_TEXT};
  return i <= 300 ? i : long_lengths[i - 301];
}
enum { TEXT_LENGTHS = 301 + 13 };

static void test_md5_guarded(void **state) {
  (void)state;
  guarded in = guarded_new(MAX_TEXT), out = guarded_new(16);
  uint8_t *source = test_alloc(MAX_TEXT);
  test_fill_random(source, MAX_TEXT);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t i = 0; i < TEXT_LENGTHS; i++) {
      const size_t len = text_length(i);
      uint8_t expected[16];
      crisp_md5(source, len, expected);
      uint8_t *digest = at_end(&out, 16);
      /* at the end, then at the start of the readable room */
      memcpy(at_end(&in, len), source, len);
      crisp_md5(at_end(&in, len), len, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: len %zu against the guard after\n", name, len);
      memcpy(at_start(&in), source, len);
      crisp_md5(at_start(&in), len, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: len %zu against the guard before\n", name, len);
      /* streamed in two pieces, each against the guard */
      crisp_md5_ctx ctx;
      const size_t first = len / 3;
      crisp_md5_init(&ctx);
      memcpy(at_end(&in, first), source, first);
      crisp_md5_update(&ctx, at_end(&in, first), first);
      memcpy(at_end(&in, len - first), source + first, len - first);
      crisp_md5_update(&ctx, at_end(&in, len - first), len - first);
      crisp_md5_final(&ctx, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: len %zu streamed against the guard\n", name, len);
    }
  }
  free(source);
  guarded_free(&in);
  guarded_free(&out);
}

/* Many messages, each in its own guarded buffer ending at its guard, with
 * lengths that leave lanes idle at different points. */
static void test_md5_many_guarded(void **state) {
  (void)state;
  enum { LANES = 40, MAX_MESSAGE = 1100 };
  guarded in[LANES], out = guarded_new(LANES * 16);
  for (size_t i = 0; i < LANES; i++) in[i] = guarded_new(MAX_MESSAGE);
  uint8_t *source = test_alloc(MAX_MESSAGE);
  test_fill_random(source, MAX_MESSAGE);
  const size_t trials = test_scaled(40);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t t = 0; t < trials; t++) {
      const size_t count = 1 + test_rand_below(LANES);
      const void *data[LANES];
      size_t lengths[LANES];
      uint8_t expected[LANES][16];
      for (size_t i = 0; i < count; i++) {
        lengths[i] = t % 3 == 0 ? test_rand_below(MAX_MESSAGE + 1) : test_rand_below(200);
        if (t % 5 == 1 && i % 2) lengths[i] = 0;
        uint8_t *at = (t & 1) ? at_start(&in[i]) : at_end(&in[i], lengths[i]);
        memcpy(at, source, lengths[i]);
        data[i] = at;
        crisp_md5(source, lengths[i], expected[i]);
      }
      uint8_t(*digests)[16] = (uint8_t(*)[16])at_end(&out, count * 16);
      crisp_md5_many(data, lengths, count, digests);
      for (size_t i = 0; i < count; i++)
        assert_bytes_equal(digests[i], expected[i], 16,
                           "md5_many %s: trial %zu message %zu of %zu, len %zu\n", name, t, i, count,
                           lengths[i]);
    }
  }
  free(source);
  for (size_t i = 0; i < LANES; i++) guarded_free(&in[i]);
  guarded_free(&out);
}

static void test_poly1305_guarded(void **state) {
  (void)state;
  guarded in = guarded_new(MAX_TEXT), out = guarded_new(16), keys = guarded_new(32);
  uint8_t *source = test_alloc(MAX_TEXT);
  test_fill_random(source, MAX_TEXT);
  uint8_t key_bytes[32];
  test_fill_random(key_bytes, 32);
  uint8_t *key = at_end(&keys, 32);
  memcpy(key, key_bytes, 32);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t i = 0; i < TEXT_LENGTHS; i++) {
      const size_t len = text_length(i);
      uint8_t expected[16];
      crisp_poly1305(expected, source, len, key_bytes);
      uint8_t *tag = at_end(&out, 16);
      memcpy(at_end(&in, len), source, len);
      crisp_poly1305(tag, at_end(&in, len), len, key);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s: len %zu against the guard after\n", name, len);
      memcpy(at_start(&in), source, len);
      crisp_poly1305(tag, at_start(&in), len, key);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s: len %zu against the guard before\n", name, len);
      crisp_poly1305_ctx ctx;
      const size_t first = len / 3;
      crisp_poly1305_init(&ctx, key);
      memcpy(at_end(&in, first), source, first);
      crisp_poly1305_update(&ctx, at_end(&in, first), first);
      memcpy(at_end(&in, len - first), source + first, len - first);
      crisp_poly1305_update(&ctx, at_end(&in, len - first), len - first);
      crisp_poly1305_final(&ctx, tag);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s: len %zu streamed against the guard\n", name, len);
      memcpy(at_end(&in, len), source, len);
      assert_int_equal(crisp_poly1305_verify(tag, at_end(&in, len), len, key), CRISP_OK);
    }
  }
  free(source);
  guarded_free(&in);
  guarded_free(&out);
  guarded_free(&keys);
}

/* ---- bignum ------------------------------------------------------------ */

enum { MAX_LIMBS = 64 };
#define LIMB sizeof(crisp_limb)

static const size_t limb_counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 20, 24, 31, 32, 33, 40, 48, 63, 64};
enum { LIMB_COUNTS = sizeof limb_counts / sizeof limb_counts[0] };

static void random_modulus(crisp_limb *m, size_t n) {
  test_fill_random(m, n * LIMB);
  m[0] |= 1;
  m[n - 1] |= (crisp_limb)1 << 63;
}

static void random_below(crisp_limb *a, const crisp_limb *m, size_t n) {
  test_fill_random(a, n * LIMB);
  a[n - 1] %= m[n - 1];
}

/* Copies n limbs to the end of a guarded buffer. */
static crisp_limb *place(const guarded *g, const crisp_limb *value, size_t n) {
  crisp_limb *p = (crisp_limb *)at_end(g, n * LIMB);
  memcpy(p, value, n * LIMB);
  return p;
}

/* ChaCha20 and the AEAD: input and output each against the guard after or
 * before them, in every combination (the AVX-512 tail loads and stores
 * under byte masks, and takes the last block through the stack when the
 * mask would reach the next page for the input, the output or both), in
 * place and apart, every implementation against generic. */
static void test_chacha20_guarded(void **state) {
  (void)state;
  guarded in = guarded_new(MAX_TEXT), out = guarded_new(MAX_TEXT), tags = guarded_new(16);
  uint8_t *source = test_alloc(MAX_TEXT), *want = test_alloc(MAX_TEXT);
  uint8_t key[32], nonce[12] = {7}, want_tag[16];
  test_fill_random(source, MAX_TEXT);
  test_fill_random(key, sizeof key);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, name) {
    for (size_t i = 0; i < TEXT_LENGTHS; i++) {
      const size_t len = text_length(i);
      uint8_t *tag = at_end(&tags, 16);
      test_pin(CRISP_KERNEL_CHACHA20, "generic");
      assert_int_equal(crisp_chacha20_poly1305_seal(want, want_tag, source, len, NULL, 0, nonce, key),
                       CRISP_OK);
      test_pin(CRISP_KERNEL_CHACHA20, name);
      for (int where = 0; where < 4; where++) {
        /* bit 0: the input against the guard before it, else after; bit 1: the output */
        uint8_t *src = where & 1 ? at_start(&in) : at_end(&in, len);
        uint8_t *dst = where & 2 ? at_start(&out) : at_end(&out, len);
        memcpy(src, source, len);
        assert_int_equal(crisp_chacha20_poly1305_seal(dst, tag, src, len, NULL, 0, nonce, key), CRISP_OK);
        assert_bytes_equal(dst, want, len, "seal %s: len %zu, guards %s (in) %s (out)\n", name, len,
                           where & 1 ? "before" : "after", where & 2 ? "before" : "after");
        assert_bytes_equal(tag, want_tag, 16, "tag %s: len %zu\n", name, len);
        assert_int_equal(crisp_chacha20_poly1305_open(dst, dst, len, tag, NULL, 0, nonce, key), CRISP_OK);
        assert_bytes_equal(dst, source, len, "open %s in place: len %zu\n", name, len);
        assert_int_equal(crisp_chacha20(src, src, len, key, nonce, 1), CRISP_OK);
        assert_bytes_equal(src, want, len, "chacha20 %s in place: len %zu\n", name, len);
      }
    }
  }
  free(source), free(want);
  guarded_free(&in), guarded_free(&out), guarded_free(&tags);
}

/* The AEADs' other arguments against the guards too: the AD, key, nonce
 * and tag, ct and pt apart, through the one-shots, XChaCha20 and the
 * stream (whose AD up to 64 bytes waits in its context for the first
 * update), and HChaCha20's key and input; every ChaCha20 implementation
 * beside every Poly1305 one, all against the guard after them, then all
 * against the guard before. */
static void aead_guarded_case(const guarded *g, size_t len, size_t ad_len, int before, const char *chacha,
                              const char *poly) {
  static const uint8_t key_bytes[32] = {3, 1, 4, 1, 5, 9, 2, 6}, nonce_bytes[24] = {2, 7, 1, 8, 2, 8};
  uint8_t *pt_ref = test_alloc(len + 1), *ct_ref = test_alloc(len + 1), *ad_ref = test_alloc(ad_len + 1);
  uint8_t tag_ref[16], xct_ref_tag[16], subkey_ref[32];
  for (size_t i = 0; i < len; i++) pt_ref[i] = (uint8_t)(i * 7 + 1);
  for (size_t i = 0; i < ad_len; i++) ad_ref[i] = (uint8_t)(i * 5 + 3);
  uint8_t *xct_ref = test_alloc(len + 1);
  test_unpin_all();
  assert_int_equal(
      crisp_chacha20_poly1305_seal(ct_ref, tag_ref, pt_ref, len, ad_ref, ad_len, nonce_bytes, key_bytes),
      CRISP_OK);
  assert_int_equal(crisp_xchacha20_poly1305_seal(xct_ref, xct_ref_tag, pt_ref, len, ad_ref, ad_len,
                                                 nonce_bytes, key_bytes),
                   CRISP_OK);
  assert_int_equal(crisp_hchacha20(subkey_ref, key_bytes, nonce_bytes), CRISP_OK);
  test_pin(CRISP_KERNEL_CHACHA20, chacha);
  test_pin(CRISP_KERNEL_POLY1305, poly);
  /* g[0..6]: pt, ct, ad, key, nonce, tag, out; each at its buffer's end or start */
#define PLACE(i, n) (before ? at_start(&g[i]) : at_end(&g[i], (n)))
  uint8_t *pt = PLACE(0, len), *ct = PLACE(1, len), *ad = PLACE(2, ad_len), *key = PLACE(3, 32);
  uint8_t *nonce12 = PLACE(4, 12), *tag = PLACE(5, 16), *out = PLACE(6, len);
  memcpy(pt, pt_ref, len), memcpy(ad, ad_ref, ad_len), memcpy(key, key_bytes, 32),
      memcpy(nonce12, nonce_bytes, 12);
  const uint8_t *ad_arg = ad_len ? ad : NULL;
  assert_int_equal(crisp_chacha20_poly1305_seal(ct, tag, pt, len, ad_arg, ad_len, nonce12, key), CRISP_OK);
  assert_bytes_equal(ct, ct_ref, len, "aead seal %s/%s: len %zu ad %zu guards %s\n", chacha, poly, len,
                     ad_len, before ? "before" : "after");
  assert_bytes_equal(tag, tag_ref, 16, "aead tag %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  assert_int_equal(crisp_chacha20_poly1305_open(out, ct, len, tag, ad_arg, ad_len, nonce12, key), CRISP_OK);
  assert_bytes_equal(out, pt_ref, len, "aead open %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  crisp_chacha20_poly1305_ctx ctx;
  const size_t half = len / 2;
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce12, key, ad_arg, ad_len),
                   CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, ct, pt, half), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, ct + half, pt + half, len - half), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
  assert_bytes_equal(ct, ct_ref, len, "stream seal %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  assert_bytes_equal(tag, tag_ref, 16, "stream tag %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce12, key, ad_arg, ad_len),
                   CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, out, ct, len), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), CRISP_OK);
  uint8_t *nonce24 = PLACE(4, 24);
  memcpy(nonce24, nonce_bytes, 24);
  assert_int_equal(crisp_xchacha20_poly1305_seal(ct, tag, pt, len, ad_arg, ad_len, nonce24, key), CRISP_OK);
  assert_bytes_equal(ct, xct_ref, len, "xchacha seal %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  assert_bytes_equal(tag, xct_ref_tag, 16, "xchacha tag %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  assert_int_equal(crisp_xchacha20_poly1305_open(out, ct, len, tag, ad_arg, ad_len, nonce24, key), CRISP_OK);
  assert_bytes_equal(out, pt_ref, len, "xchacha open %s/%s: len %zu ad %zu\n", chacha, poly, len, ad_len);
  assert_int_equal(crisp_xchacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce24, key, ad_arg, ad_len),
                   CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, out, ct, len), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), CRISP_OK);
  uint8_t *subkey = PLACE(6, 32), *input = PLACE(4, 16);
  memcpy(input, nonce_bytes, 16);
  assert_int_equal(crisp_hchacha20(subkey, key, input), CRISP_OK);
  assert_bytes_equal(subkey, subkey_ref, 32, "hchacha20 %s\n", chacha);
#undef PLACE
  free(pt_ref), free(ct_ref), free(ad_ref), free(xct_ref);
}

static void test_aead_arguments_guarded(void **state) {
  (void)state;
  enum { MAX = 2100 };
  static const size_t lengths[] = {0,   1,   15,  16,  17,  63,   64,   65,  127,
                                   128, 129, 255, 256, 257, 1023, 1025, 2049};
  static const size_t ad_lengths[] = {0, 1, 12, 13, 16, 17, 63, 64, 65, 255, 256, 257, 2049};
  static const size_t few_ads[] = {0, 13, 64, 65}, few_lengths[] = {0, 64, 257};
  guarded g[7];
  for (int i = 0; i < 7; i++) g[i] = guarded_new(MAX);
  const char *chachas[16], *polys[16];
  const size_t nc = test_supported_impls(CRISP_KERNEL_CHACHA20, chachas, 16);
  const size_t np = test_supported_impls(CRISP_KERNEL_POLY1305, polys, 16);
  for (size_t c = 0; c < nc; c++)
    for (size_t p = 0; p < np; p++)
      for (int before = 0; before < 2; before++) {
        for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
          for (size_t j = 0; j < sizeof few_ads / sizeof few_ads[0]; j++)
            aead_guarded_case(g, lengths[i], few_ads[j], before, chachas[c], polys[p]);
        for (size_t j = 0; j < sizeof ad_lengths / sizeof ad_lengths[0]; j++)
          for (size_t i = 0; i < sizeof few_lengths / sizeof few_lengths[0]; i++)
            aead_guarded_case(g, few_lengths[i], ad_lengths[j], before, chachas[c], polys[p]);
      }
  for (int i = 0; i < 7; i++) guarded_free(&g[i]);
}

static void test_bn_products_guarded(void **state) {
  (void)state;
  guarded gx = guarded_new(MAX_LIMBS * LIMB), gy = guarded_new(MAX_LIMBS * LIMB),
          gz = guarded_new(2 * MAX_LIMBS * LIMB);
  crisp_limb x[MAX_LIMBS], y[MAX_LIMBS], expected[2 * MAX_LIMBS];
  const char *name;
  for (size_t c = 0; c < LIMB_COUNTS; c++) {
    const size_t n = limb_counts[c], yn = 1 + test_rand_below(n);
    test_fill_random(x, n * LIMB);
    test_fill_random(y, yn * LIMB);
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL, name) {
      assert_int_equal(crisp_bn_mul(expected, x, n, y, yn), CRISP_OK);
      crisp_limb *z = (crisp_limb *)at_end(&gz, (n + yn) * LIMB);
      assert_int_equal(crisp_bn_mul(z, place(&gx, x, n), n, place(&gy, y, yn), yn), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(z), (const uint8_t *)(expected), (n + yn) * LIMB,
                         "bn_mul %s: %zu x %zu limbs guarded\n", name, n, yn);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_SQR, name) {
      assert_int_equal(crisp_bn_sqr(expected, x, n), CRISP_OK);
      crisp_limb *z = (crisp_limb *)at_end(&gz, 2 * n * LIMB);
      assert_int_equal(crisp_bn_sqr(z, place(&gx, x, n), n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(z), (const uint8_t *)(expected), 2 * n * LIMB,
                         "bn_sqr %s: %zu limbs guarded\n", name, n);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL_ADD, name) {
      crisp_limb carry_expected, *carry = (crisp_limb *)at_end(&gy, LIMB);
      test_fill_random(expected, n * LIMB);
      crisp_limb *z = place(&gz, expected, n);
      assert_int_equal(crisp_bn_mul_add(expected, x, n, y[0], &carry_expected), CRISP_OK);
      assert_int_equal(crisp_bn_mul_add(z, place(&gx, x, n), n, y[0], carry), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(z), (const uint8_t *)(expected), n * LIMB,
                         "bn_mul_add %s: %zu limbs guarded\n", name, n);
      assert_true(*carry == carry_expected);
    }
  }
  guarded_free(&gx);
  guarded_free(&gy);
  guarded_free(&gz);
}

static void test_bn_montgomery_guarded(void **state) {
  (void)state;
  guarded ga = guarded_new(MAX_LIMBS * LIMB), gb = guarded_new(MAX_LIMBS * LIMB),
          gm = guarded_new(MAX_LIMBS * LIMB), gr = guarded_new(MAX_LIMBS * LIMB);
  crisp_limb a[MAX_LIMBS], b[MAX_LIMBS], m[MAX_LIMBS], exp[3], expected[MAX_LIMBS];
  const char *name;
  for (size_t c = 0; c < LIMB_COUNTS; c++) {
    const size_t n = limb_counts[c], en = 1 + c % 3;
    test_fill_random(exp, sizeof exp);
    random_modulus(m, n);
    random_below(a, m, n);
    random_below(b, m, n);
    const crisp_limb minv = crisp_bn_mont_inv(m[0]);
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
      crisp_limb *r = (crisp_limb *)at_end(&gr, n * LIMB);
      assert_int_equal(crisp_bn_mont_mul(expected, a, b, m, n, minv), CRISP_OK);
      assert_int_equal(crisp_bn_mont_mul(r, place(&ga, a, n), place(&gb, b, n), place(&gm, m, n), n, minv),
                       CRISP_OK);
      assert_bytes_equal((const uint8_t *)(r), (const uint8_t *)(expected), n * LIMB,
                         "bn_mont_mul %s: %zu limbs guarded\n", name, n);
      /* mod_exp through this mont_mul (and its own mod_exp, if it has one) */
      if (crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK)
        assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
      assert_int_equal(crisp_bn_mod_exp(expected, a, exp, en, m, n), CRISP_OK);
      assert_int_equal(crisp_bn_mod_exp(r, place(&ga, a, n), place(&gb, exp, en), en, place(&gm, m, n), n),
                       CRISP_OK);
      assert_bytes_equal((const uint8_t *)(r), (const uint8_t *)(expected), n * LIMB,
                         "bn_mod_exp %s: %zu limbs, %zu exponent limbs guarded\n", name, n, en);
      assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_SQR, name) {
      crisp_limb *r = (crisp_limb *)at_end(&gr, n * LIMB);
      assert_int_equal(crisp_bn_mont_sqr(expected, a, m, n, minv), CRISP_OK);
      assert_int_equal(crisp_bn_mont_sqr(r, place(&ga, a, n), place(&gm, m, n), n, minv), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(r), (const uint8_t *)(expected), n * LIMB,
                         "bn_mont_sqr %s: %zu limbs guarded\n", name, n);
      assert_int_equal(crisp_bn_mont_r2(expected, m, n), CRISP_OK);
      assert_int_equal(crisp_bn_mont_r2(r, place(&gm, m, n), n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(r), (const uint8_t *)(expected), n * LIMB,
                         "bn_mont_r2 with %s: %zu limbs guarded\n", name, n);
    }
  }
  guarded_free(&ga);
  guarded_free(&gb);
  guarded_free(&gm);
  guarded_free(&gr);
}

/* ---- adjacency: operands that touch but do not overlap ------------------ */

/* Every order of output and inputs laid end to end in one allocation. */
static void test_bn_adjacent(void **state) {
  (void)state;
  crisp_limb one[6 * MAX_LIMBS], x[MAX_LIMBS], y[MAX_LIMBS], m[MAX_LIMBS], expected[2 * MAX_LIMBS];
  const char *name;
  for (size_t c = 0; c < LIMB_COUNTS; c++) {
    const size_t n = limb_counts[c];
    random_modulus(m, n);
    random_below(x, m, n);
    random_below(y, m, n);
    const crisp_limb minv = crisp_bn_mont_inv(m[0]);
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL, name) {
      assert_int_equal(crisp_bn_mul(expected, x, n, y, n), CRISP_OK);
      /* x z y, z x y, x y z */
      static const size_t layouts[3][3] = {
          {0, 1, 3}, {2, 0, 3}, {0, 2, 1}}; /* offsets of x, z, y in units of n */
      for (int l = 0; l < 3; l++) {
        crisp_limb *px = one + layouts[l][0] * n, *pz = one + layouts[l][1] * n,
                   *py = one + layouts[l][2] * n;
        memcpy(px, x, n * LIMB);
        memcpy(py, y, n * LIMB);
        assert_int_equal(crisp_bn_mul(pz, px, n, py, n), CRISP_OK);
        assert_bytes_equal((const uint8_t *)(pz), (const uint8_t *)(expected), 2 * n * LIMB,
                           "bn_mul %s: %zu limbs, adjacent layout %d\n", name, n, l);
      }
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_SQR, name) {
      assert_int_equal(crisp_bn_sqr(expected, x, n), CRISP_OK);
      memcpy(one, x, n * LIMB); /* x then z */
      assert_int_equal(crisp_bn_sqr(one + n, one, n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one + n), (const uint8_t *)(expected), 2 * n * LIMB,
                         "bn_sqr %s: %zu limbs, z after x\n", name, n);
      memcpy(one + 2 * n, x, n * LIMB); /* z then x */
      assert_int_equal(crisp_bn_sqr(one, one + 2 * n, n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one), (const uint8_t *)(expected), 2 * n * LIMB,
                         "bn_sqr %s: %zu limbs, z before x\n", name, n);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL_ADD, name) {
      crisp_limb carry_expected;
      memcpy(expected, y, n * LIMB);
      assert_int_equal(crisp_bn_mul_add(expected, x, n, m[0], &carry_expected), CRISP_OK);
      /* z x carry, then carry x z */
      memcpy(one, y, n * LIMB), memcpy(one + n, x, n * LIMB);
      assert_int_equal(crisp_bn_mul_add(one, one + n, n, m[0], one + 2 * n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one), (const uint8_t *)(expected), n * LIMB,
                         "bn_mul_add %s: %zu limbs, z x carry\n", name, n);
      assert_true(one[2 * n] == carry_expected);
      memcpy(one + 1, x, n * LIMB), memcpy(one + 1 + n, y, n * LIMB);
      assert_int_equal(crisp_bn_mul_add(one + 1 + n, one + 1, n, m[0], one), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one + 1 + n), (const uint8_t *)(expected), n * LIMB,
                         "bn_mul_add %s: %zu limbs, carry x z\n", name, n);
      assert_true(one[0] == carry_expected);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
      assert_int_equal(crisp_bn_mont_mul(expected, x, y, m, n, minv), CRISP_OK);
      /* a b m r, r a b m, a r m b: r touches each of the others */
      static const size_t layouts[3][4] = {{0, 1, 2, 3}, {1, 2, 3, 0}, {0, 3, 2, 1}}; /* a, b, m, r */
      for (int l = 0; l < 3; l++) {
        crisp_limb *pa = one + layouts[l][0] * n, *pb = one + layouts[l][1] * n,
                   *pm = one + layouts[l][2] * n, *pr = one + layouts[l][3] * n;
        memcpy(pa, x, n * LIMB), memcpy(pb, y, n * LIMB), memcpy(pm, m, n * LIMB);
        assert_int_equal(crisp_bn_mont_mul(pr, pa, pb, pm, n, minv), CRISP_OK);
        assert_bytes_equal((const uint8_t *)(pr), (const uint8_t *)(expected), n * LIMB,
                           "bn_mont_mul %s: %zu limbs, adjacent layout %d\n", name, n, l);
      }
      if (crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK)
        assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
      assert_int_equal(crisp_bn_mod_exp(expected, x, y, 1, m, n), CRISP_OK);
      /* base exp m r, then r base m exp */
      memcpy(one, x, n * LIMB), one[n] = y[0], memcpy(one + n + 1, m, n * LIMB);
      assert_int_equal(crisp_bn_mod_exp(one + 2 * n + 1, one, one + n, 1, one + n + 1, n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one + 2 * n + 1), (const uint8_t *)(expected), n * LIMB,
                         "bn_mod_exp %s: %zu limbs, r after m\n", name, n);
      memcpy(one + n, x, n * LIMB), memcpy(one + 2 * n, m, n * LIMB), one[3 * n] = y[0];
      assert_int_equal(crisp_bn_mod_exp(one, one + n, one + 3 * n, 1, one + 2 * n, n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one), (const uint8_t *)(expected), n * LIMB,
                         "bn_mod_exp %s: %zu limbs, r before base\n", name, n);
      assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_SQR, name) {
      assert_int_equal(crisp_bn_mont_sqr(expected, x, m, n, minv), CRISP_OK);
      memcpy(one, x, n * LIMB), memcpy(one + n, m, n * LIMB); /* a m r */
      assert_int_equal(crisp_bn_mont_sqr(one + 2 * n, one, one + n, n, minv), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one + 2 * n), (const uint8_t *)(expected), n * LIMB,
                         "bn_mont_sqr %s: %zu limbs, a m r\n", name, n);
      memcpy(one + n, m, n * LIMB), memcpy(one + 2 * n, x, n * LIMB); /* r m a */
      assert_int_equal(crisp_bn_mont_sqr(one, one + 2 * n, one + n, n, minv), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one), (const uint8_t *)(expected), n * LIMB,
                         "bn_mont_sqr %s: %zu limbs, r m a\n", name, n);
      assert_int_equal(crisp_bn_mont_r2(expected, m, n), CRISP_OK);
      memcpy(one, m, n * LIMB); /* m r2 */
      assert_int_equal(crisp_bn_mont_r2(one + n, one, n), CRISP_OK);
      assert_bytes_equal((const uint8_t *)(one + n), (const uint8_t *)(expected), n * LIMB,
                         "bn_mont_r2 with %s: %zu limbs, r2 after m\n", name, n);
    }
  }
}

/* crisp_md5_update_many: each context's next piece in its own guarded
 * buffer, against the guard after it or before it, in pieces that leave
 * lanes idle at different points; the digests against crisp_md5. */
static void test_md5_update_many_guarded(void **state) {
  (void)state;
  enum { LANES = 20, MAX_PIECE = 700, PIECES = 3 };
  guarded in[LANES];
  for (size_t i = 0; i < LANES; i++) in[i] = guarded_new(MAX_PIECE);
  uint8_t *source = test_alloc(PIECES * MAX_PIECE);
  test_fill_random(source, PIECES * MAX_PIECE);
  const size_t trials = test_scaled(12);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t t = 0; t < trials; t++) {
      const size_t count = 1 + test_rand_below(LANES);
      crisp_md5_ctx contexts[LANES], *ctx[LANES];
      size_t done[LANES] = {0};
      for (size_t i = 0; i < count; i++) crisp_md5_init(&contexts[i]), ctx[i] = &contexts[i];
      for (size_t piece = 0; piece < PIECES; piece++) {
        const void *data[LANES];
        size_t lengths[LANES];
        for (size_t i = 0; i < count; i++) {
          lengths[i] = (t + i + piece) % 4 == 0 ? 0 : test_rand_below(MAX_PIECE + 1);
          uint8_t *at = (t + piece) & 1 ? at_start(&in[i]) : at_end(&in[i], lengths[i]);
          memcpy(at, source + done[i], lengths[i]);
          data[i] = at;
          done[i] += lengths[i];
        }
        crisp_md5_update_many(ctx, data, lengths, count);
      }
      for (size_t i = 0; i < count; i++) {
        uint8_t digest[16], expected[16];
        crisp_md5_final(ctx[i], digest);
        crisp_md5(source, done[i], expected);
        assert_bytes_equal(digest, expected, 16,
                           "md5_update_many %s: trial %zu context %zu of %zu, %zu bytes\n", name, t, i, count,
                           done[i]);
      }
    }
  }
  free(source);
  for (size_t i = 0; i < LANES; i++) guarded_free(&in[i]);
}

/* crisp_bn_mod_exp2 and crisp_bn_mod_exp_crt with every operand and
 * result in its own guarded buffer, against the guard after it, then
 * before it, on the bench's fixed RSA keys (the two-lane kernels' sizes),
 * every bn_mod_exp2 implementation; the answers as from ordinary buffers.
 * The prepared key too: crisp_bn_crt_key_new from the guarded key,
 * crisp_bn_crt_key_exp with r and c guarded, apart and r == c. */
static void test_bn_exponentiations_guarded(void **state) {
  (void)state;
  enum { OPERANDS = 9 };
  guarded g[OPERANDS];
  for (int i = 0; i < OPERANDS; i++) g[i] = guarded_new(64 * LIMB);
  /* emulated runs take the 2048-bit key only */
  const size_t keys = test_scaled(4) < 4 ? 1 : bench_rsa_key_count;
  for (size_t k = 0; k < keys; k++) {
    const bench_rsa_key *key = &bench_rsa_keys[k];
    const size_t half = key->half, n = 2 * half;
    crisp_limb c[64], b1[32], want0[32], want1[32], want[64], e = BENCH_RSA_E;
    for (size_t i = 0; i < n; i++) c[i] = test_rand64();
    c[n - 1] = key->n[n - 1] - 1; /* below n */
    for (size_t i = 0; i < half; i++) b1[i] = c[i + half];
    b1[half - 1] = key->q[half - 1] - 1; /* below q */
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
      c[half - 1] = key->p[half - 1] - 1; /* c's low half below p, as b0 */
      assert_int_equal(crisp_bn_mod_exp2(want0, want1, c, b1, key->dp, key->dq, half, key->p, key->q, half),
                       CRISP_OK);
      assert_int_equal(
          crisp_bn_mod_exp_crt(want, c, key->p, key->q, key->dp, key->dq, key->qinv, half, &e, 1), CRISP_OK);
      for (int before = 0; before < 2; before++) {
#define PLACE(i, value, limbs) \
  (before ? (crisp_limb *)memcpy(at_start(&g[i]), (value), (limbs)*LIMB) : place(&g[i], (value), (limbs)))
        crisp_limb *b0p = PLACE(0, c, half), *b1p = PLACE(1, b1, half), *e0p = PLACE(2, key->dp, half),
                   *e1p = PLACE(3, key->dq, half), *m0p = PLACE(4, key->p, half),
                   *m1p = PLACE(5, key->q, half);
        crisp_limb *r0 = before ? (crisp_limb *)at_start(&g[6]) : (crisp_limb *)at_end(&g[6], half * LIMB);
        crisp_limb *r1 = before ? (crisp_limb *)at_start(&g[7]) : (crisp_limb *)at_end(&g[7], half * LIMB);
        assert_int_equal(crisp_bn_mod_exp2(r0, r1, b0p, b1p, e0p, e1p, half, m0p, m1p, half), CRISP_OK);
        assert_bytes_equal((const uint8_t *)r0, (const uint8_t *)want0, half * LIMB,
                           "bn_mod_exp2 %s: %zu-bit key, guards %s\n", name, key->bits,
                           before ? "before" : "after");
        assert_bytes_equal((const uint8_t *)r1, (const uint8_t *)want1, half * LIMB,
                           "bn_mod_exp2 %s: %zu-bit key, second lane\n", name, key->bits);
        crisp_limb *cp = PLACE(0, c, n), *qinv = PLACE(6, key->qinv, half), *ep = PLACE(7, &e, 1);
        crisp_limb *r = before ? (crisp_limb *)at_start(&g[8]) : (crisp_limb *)at_end(&g[8], n * LIMB);
        assert_int_equal(crisp_bn_mod_exp_crt(r, cp, m0p, m1p, e0p, e1p, qinv, half, ep, 1), CRISP_OK);
        assert_bytes_equal((const uint8_t *)r, (const uint8_t *)want, n * LIMB,
                           "bn_mod_exp_crt over %s: %zu-bit key, guards %s\n", name, key->bits,
                           before ? "before" : "after");
        crisp_bn_crt_key *prepared = NULL;
        assert_int_equal(crisp_bn_crt_key_new(&prepared, m0p, m1p, e0p, e1p, qinv, half, ep, 1), CRISP_OK);
        memset(r, 0, n * LIMB);
        assert_int_equal(crisp_bn_crt_key_exp(r, cp, prepared), CRISP_OK);
        assert_bytes_equal((const uint8_t *)r, (const uint8_t *)want, n * LIMB,
                           "crt_key_exp over %s: %zu-bit key, guards %s\n", name, key->bits,
                           before ? "before" : "after");
        memcpy(r, c, n * LIMB);
        assert_int_equal(crisp_bn_crt_key_exp(r, r, prepared), CRISP_OK);
        assert_bytes_equal((const uint8_t *)r, (const uint8_t *)want, n * LIMB,
                           "crt_key_exp over %s in place: %zu-bit key, guards %s\n", name, key->bits,
                           before ? "before" : "after");
        crisp_bn_crt_key_free(prepared);
#undef PLACE
      }
    }
  }
  for (int i = 0; i < OPERANDS; i++) guarded_free(&g[i]);
}

int main(void) {
  test_seed(0x626f756e64ull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_md5_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_many_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_update_many_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_chacha20_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_aead_arguments_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_products_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_montgomery_guarded, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_adjacent, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_exponentiations_guarded, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
