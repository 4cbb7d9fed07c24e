/* test/test_md5.c - MD5 known answers (RFC 1321 A.5) and differential tests of
 * every MD5 and MD5_MANY implementation against the generic one: every length
 * 0..2048, unaligned buffers, random update splits, many messages per call. */
#include "common.h"

/* RFC 1321, A.5 "Test suite". */
static const struct {
  const char *message;
  const char *digest;
} rfc1321[] = {
    {"", "d41d8cd98f00b204e9800998ecf8427e"},
    {"a", "0cc175b9c0f1b6a831c399e269772661"},
    {"abc", "900150983cd24fb0d6963f7d28e17f72"},
    {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
    {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
    {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
     "57edf4a22be3c955ac49da2e2107b67a"},
};
enum { RFC_COUNT = sizeof rfc1321 / sizeof rfc1321[0] };

/* Digests of the bytes (uint8_t)(7 * i + 3), i = 0..len-1, at the lengths
 * where padding changes shape, computed once with OpenSSL's EVP_md5 and
 * Python's hashlib (so the front-end's padding is checked by something
 * other than crisp itself). */
static const struct {
  size_t len;
  const char *digest;
} padding_answers[] = {
    {0, "d41d8cd98f00b204e9800998ecf8427e"},     {1, "8666683506aacd900bbd5a74ac4edf68"},
    {15, "a102af85951589c6397769d540865d4a"},    {16, "93498065c90c7511629efc2a676cf256"},
    {17, "4e208ba7eda62e0fa7ce53387b02236d"},    {31, "92d60eb7b58a4d66ad90b7935bfb33d5"},
    {32, "37e883d2c833cc697211727308d724e7"},    {33, "559f842ab304a042cfcd6fad8713c61a"},
    {55, "52c0e574e1198de5fe3f8f11440dcb1b"},    {56, "46c9907fc908ee68b1e7b8e71286a518"},
    {57, "1c805dd236c35cab25fcb1bc73802c51"},    {63, "a62f6d59e837867693f042f5b8f5a236"},
    {64, "7160b8fb5e9e4023d549c3971fbaeead"},    {65, "70bd662e7aefbda85a0f7244167b7897"},
    {119, "e84905d4214f4d1ca56c2cdcc152b143"},   {120, "e3eb5a6c8669ea01a8c185b8abc8a5dc"},
    {127, "acce2474d6cc8302120d09c818d17ef7"},   {128, "10b2da1a82f16d99a81a7203fe9f02cb"},
    {129, "03fefbbcebe2959cf2270241aafe0250"},   {255, "63bada79fee9101a5abc3841d5de0b11"},
    {256, "d436d767fed83db89eacc70ed6cbd839"},   {257, "8e2134d5d1b01a551538448c7f25e37e"},
    {1000, "10046f077f2082ac19676b8079f1cb1a"},  {4095, "53de317667ca40d9642e2d859bfbfd16"},
    {4096, "d105289f5617c241f52a191c6b2fc809"},  {4097, "c7cfb8a6d3d4929f9035e0918250b62d"},
    {10000, "941546d1c333e2f0d9efd902e5cb94b7"},
};
enum { PADDING_ANSWER_COUNT = sizeof padding_answers / sizeof padding_answers[0] };
#define PADDING_MAX 10000

static void fill_pattern(uint8_t *out, size_t len) {
  for (size_t i = 0; i < len; i++) out[i] = (uint8_t)(7 * i + 3);
}

#define MAX_LEN 2048

/* The digest of data[0..len) by the generic implementation, whatever is
 * pinned for the caller; the caller's pin is restored. */
static void generic_md5(const void *data, size_t len, uint8_t digest[16]) {
  const char *previous = crisp_impl_name(CRISP_KERNEL_MD5);
  test_pin(CRISP_KERNEL_MD5, "generic");
  crisp_md5(data, len, digest);
  test_pin(CRISP_KERNEL_MD5, previous);
}

/* Hashes data through update calls cut at random points (0 to 4 cuts,
 * empty pieces included). */
static void md5_split(const uint8_t *data, size_t len, uint8_t digest[16]) {
  crisp_md5_ctx ctx;
  crisp_md5_init(&ctx);
  size_t done = 0;
  const size_t cuts = test_rand_below(5);
  for (size_t c = 0; c < cuts && done < len; c++) {
    const size_t piece = test_rand_below(len - done + 1);
    crisp_md5_update(&ctx, data + done, piece);
    done += piece;
  }
  crisp_md5_update(&ctx, data + done, len - done);
  crisp_md5_final(&ctx, digest);
}

static void test_rfc1321_single(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t v = 0; v < RFC_COUNT; v++) {
      uint8_t expected[16], digest[16];
      test_unhex(rfc1321[v].digest, expected, sizeof expected);
      const size_t len = strlen(rfc1321[v].message);
      crisp_md5(rfc1321[v].message, len, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: RFC 1321 vector %zu one-shot\n", name, v);
      /* One byte per update call. */
      crisp_md5_ctx ctx;
      crisp_md5_init(&ctx);
      for (size_t i = 0; i < len; i++) crisp_md5_update(&ctx, rfc1321[v].message + i, 1);
      crisp_md5_final(&ctx, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: RFC 1321 vector %zu byte by byte\n", name, v);
    }
  }
}

static void test_rfc1321_many(void **state) {
  (void)state;
  /* Every vector nine times over in one call (63 messages), so that wide
   * lane kernels see them in every lane position. */
  enum { REPEAT = 9, N = RFC_COUNT * REPEAT };
  const void *data[N];
  size_t len[N];
  uint8_t expected[RFC_COUNT][16], digests[N][16];
  for (size_t v = 0; v < RFC_COUNT; v++) test_unhex(rfc1321[v].digest, expected[v], 16);
  for (size_t i = 0; i < N; i++) {
    data[i] = rfc1321[(i * 5) % RFC_COUNT].message;
    len[i] = strlen(data[i]);
  }
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t n = 1; n <= N; n += (n < 8 ? 1 : 11)) {
      memset(digests, 0xaa, sizeof digests);
      crisp_md5_many(data, len, n, digests);
      for (size_t i = 0; i < n; i++)
        assert_bytes_equal(digests[i], expected[(i * 5) % RFC_COUNT], 16,
                           "md5_many %s: n=%zu message %zu (RFC vector %zu)\n", name, n, i,
                           (i * 5) % RFC_COUNT);
    }
  }
}

static void test_padding_answers_single(void **state) {
  (void)state;
  uint8_t *data = test_alloc(PADDING_MAX);
  fill_pattern(data, PADDING_MAX);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t v = 0; v < PADDING_ANSWER_COUNT; v++) {
      uint8_t expected[16], digest[16];
      test_unhex(padding_answers[v].digest, expected, 16);
      crisp_md5(data, padding_answers[v].len, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: known answer for length %zu\n", name,
                         padding_answers[v].len);
      md5_split(data, padding_answers[v].len, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: known answer for length %zu, split\n", name,
                         padding_answers[v].len);
    }
  }
  free(data);
}

static void test_padding_answers_many(void **state) {
  (void)state;
  uint8_t *data = test_alloc(PADDING_MAX + 8);
  fill_pattern(data, PADDING_MAX);
  enum { N = 2 * PADDING_ANSWER_COUNT };
  const void *messages[N];
  size_t len[N];
  uint8_t expected[N][16], digests[N][16];
  for (size_t i = 0; i < N; i++) {
    /* Each answer twice, the second copy at an unaligned address. */
    const size_t v = i % PADDING_ANSWER_COUNT;
    uint8_t *copy = i < PADDING_ANSWER_COUNT ? data : test_alloc(PADDING_MAX);
    if (copy != data) fill_pattern(copy + 1 + v % 7, padding_answers[v].len);
    messages[i] = copy == data ? data : copy + 1 + v % 7;
    len[i] = padding_answers[v].len;
    test_unhex(padding_answers[v].digest, expected[i], 16);
  }
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    crisp_md5_many(messages, len, N, digests);
    for (size_t i = 0; i < N; i++)
      assert_bytes_equal(digests[i], expected[i], 16,
                         "md5_many %s: known answer for length %zu (message %zu)\n", name, len[i], i);
    /* Through update_many on fresh contexts, then final. */
    crisp_md5_ctx contexts[N];
    crisp_md5_ctx *ctx[N];
    for (size_t i = 0; i < N; i++) ctx[i] = &contexts[i], crisp_md5_init(ctx[i]);
    crisp_md5_update_many(ctx, messages, len, N);
    for (size_t i = 0; i < N; i++) {
      crisp_md5_final(ctx[i], digests[i]);
      assert_bytes_equal(digests[i], expected[i], 16,
                         "md5 update_many %s: known answer for length %zu (message %zu)\n", name, len[i], i);
    }
  }
  for (size_t i = PADDING_ANSWER_COUNT; i < N; i++)
    free((uint8_t *)messages[i] - 1 - (i % PADDING_ANSWER_COUNT) % 7);
  free(data);
}

/* Every length 0..MAX_LEN, at a random offset 0..7, hashed one-shot and
 * with random splits, against the generic one-shot digest of the same
 * bytes at an aligned address. */
static void test_all_lengths(void **state) {
  (void)state;
  uint8_t *source = test_alloc(MAX_LEN);
  uint8_t *shifted = test_alloc(MAX_LEN);
  uint8_t(*reference)[16] = malloc((MAX_LEN + 1) * 16);
  assert_non_null(reference);
  test_fill_random(source, MAX_LEN);
  test_pin(CRISP_KERNEL_MD5, "generic");
  for (size_t len = 0; len <= MAX_LEN; len++) crisp_md5(source, len, reference[len]);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t len = 0; len <= MAX_LEN; len++) {
      const size_t offset = test_rand_below(8);
      memcpy(shifted + offset, source, len);
      uint8_t digest[16];
      crisp_md5(shifted + offset, len, digest);
      assert_bytes_equal(digest, reference[len], 16, "md5 %s: one-shot len %zu offset %zu\n", name, len,
                         offset);
      md5_split(shifted + offset, len, digest);
      assert_bytes_equal(digest, reference[len], 16, "md5 %s: split len %zu offset %zu\n", name, len, offset);
    }
  }
  free(reference);
  free(shifted);
  free(source);
}

/* Split patterns around the block size for a few lengths, every pair of
 * first-piece and second-piece sizes, so a buffered tail meets every
 * alignment of the following update. */
static void test_split_grid(void **state) {
  (void)state;
  enum { LEN = 200 };
  uint8_t data[LEN], expected[16];
  test_fill_random(data, LEN);
  generic_md5(data, LEN, expected);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t first = 0; first <= 130; first++) {
      for (size_t second = 0; first + second <= LEN && second <= 70; second += 1 + (second >= 8) * 6) {
        crisp_md5_ctx ctx;
        uint8_t digest[16];
        crisp_md5_init(&ctx);
        crisp_md5_update(&ctx, data, first);
        crisp_md5_update(&ctx, data + first, second);
        crisp_md5_update(&ctx, data + first + second, LEN - first - second);
        crisp_md5_final(&ctx, digest);
        assert_bytes_equal(digest, expected, 16, "md5 %s: split %zu+%zu+%zu\n", name, first, second,
                           (size_t)LEN - first - second);
      }
    }
  }
}

/* A context keeps the implementation of its init: switching the pin or the
 * level cap mid-stream does not change the digest. */
static void test_ctx_keeps_impl(void **state) {
  (void)state;
  enum { LEN = 1000 };
  uint8_t data[LEN], expected[16];
  test_fill_random(data, LEN);
  generic_md5(data, LEN, expected);
  const char *names[16];
  const size_t n = test_supported_impls(CRISP_KERNEL_MD5, names, 16);
  for (size_t a = 0; a < n; a++) {
    for (size_t b = 0; b < n; b++) {
      crisp_md5_ctx ctx;
      uint8_t digest[16];
      test_pin(CRISP_KERNEL_MD5, names[a]);
      crisp_md5_init(&ctx);
      crisp_md5_update(&ctx, data, 333);
      test_pin(CRISP_KERNEL_MD5, names[b]);
      crisp_md5_update(&ctx, data + 333, 300);
      assert_int_equal(crisp_force("generic"), CRISP_OK);
      crisp_md5_update(&ctx, data + 633, LEN - 633);
      assert_int_equal(crisp_force(NULL), CRISP_OK);
      crisp_md5_final(&ctx, digest);
      assert_bytes_equal(digest, expected, 16, "md5: init with %s, continued with %s\n", names[a], names[b]);
    }
  }
  test_unpin_all();
  /* The same through the level cap alone. */
  crisp_md5_ctx ctx;
  uint8_t digest[16];
  crisp_md5_init(&ctx);
  crisp_md5_update(&ctx, data, 100);
  assert_int_equal(crisp_force("generic"), CRISP_OK);
  crisp_md5_update(&ctx, data + 100, LEN - 100);
  assert_int_equal(crisp_force(NULL), CRISP_OK);
  crisp_md5_final(&ctx, digest);
  assert_bytes_equal(digest, expected, 16, "md5: crisp_force mid-stream\n");
}

/* ---- many messages ---------------------------------------------------- */

#define POOL 8192
#define MANY_MAX 160

/* Picks a length: a third short (0..80), a third around a few blocks, a
 * third up to about 5 KiB; one in eight is empty. */
static size_t random_length(void) {
  switch (test_rand_below(8)) {
    case 0:
      return 0;
    case 1:
    case 2:
      return test_rand_below(81);
    case 3:
    case 4:
      return 56 + test_rand_below(200);
    default:
      return test_rand_below(5200);
  }
}

/* n messages from pool: random offsets (so unaligned), random lengths, and
 * about one in six a duplicate of an earlier message's pointer and length. */
static void random_messages(const uint8_t *pool, size_t n, const void **data, size_t *len) {
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && test_rand_below(6) == 0) {
      const size_t j = test_rand_below(i);
      data[i] = data[j], len[i] = len[j];
      continue;
    }
    len[i] = random_length();
    data[i] = len[i] == 0 && test_rand_below(2) ? NULL : pool + test_rand_below(POOL - len[i] + 1);
  }
}

static void test_many_vs_single(void **state) {
  (void)state;
  uint8_t *pool = test_alloc(POOL);
  test_fill_random(pool, POOL);
  const void *data[MANY_MAX];
  size_t len[MANY_MAX];
  uint8_t expected[MANY_MAX][16], digests[MANY_MAX + 1][16];
  const size_t rounds = test_scaled(2);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t round = 0; round < rounds; round++) {
      /* 1..64 messages, then a few counts past one internal chunk. */
      for (size_t n = 1; n <= MANY_MAX; n = n < 64 ? n + 1 : n + 31) {
        random_messages(pool, n, data, len);
        for (size_t i = 0; i < n; i++) generic_md5(data[i], len[i], expected[i]);
        memset(digests, 0xaa, sizeof digests);
        crisp_md5_many(data, len, n, digests);
        for (size_t i = 0; i < n; i++)
          assert_bytes_equal(digests[i], expected[i], 16, "md5_many %s: n=%zu message %zu len %zu\n", name, n,
                             i, len[i]);
        /* Nothing written past digests[n - 1]. */
        uint8_t untouched[16];
        memset(untouched, 0xaa, 16);
        assert_bytes_equal(digests[n], untouched, 16, "md5_many %s: n=%zu wrote past the last digest\n", name,
                           n);
      }
    }
  }
  free(pool);
}

/* Equal lengths in every lane (the case lane kernels like best), for each
 * length 0..300, and every lane count up to 20. */
static void test_many_equal_lengths(void **state) {
  (void)state;
  enum { N = 20, LEN = 300 };
  uint8_t *pool = test_alloc(N * LEN + 8); /* lane i starts at i * LEN + (i & 7) */
  test_fill_random(pool, N * LEN + 8);
  const void *data[N];
  size_t len[N];
  uint8_t expected[N][16], digests[N][16];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t l = 0; l <= LEN; l += 1 + (l > 140) * 6) {
      const size_t n = 1 + l % N;
      for (size_t i = 0; i < n; i++) {
        data[i] = pool + i * LEN + (i & 7), len[i] = l;
        generic_md5(data[i], len[i], expected[i]);
      }
      crisp_md5_many(data, len, n, digests);
      for (size_t i = 0; i < n; i++)
        assert_bytes_equal(digests[i], expected[i], 16, "md5_many %s: %zu lanes of %zu bytes, lane %zu\n",
                           name, n, l, i);
    }
  }
  free(pool);
}

/* update_many called several times on contexts that already hold partial
 * blocks (from single updates and from earlier update_many calls), with
 * some lanes given nothing; each final digest equals the one-shot digest of
 * the concatenation. */
static void test_update_many_streams(void **state) {
  (void)state;
  enum { N = 70, CALLS = 5 };
  uint8_t *pool = test_alloc(POOL);
  test_fill_random(pool, POOL);
  uint8_t *message[N];
  size_t total[N];
  crisp_md5_ctx contexts[N];
  crisp_md5_ctx *ctx[N];
  const void *data[N];
  size_t len[N];
  for (size_t i = 0; i < N; i++) message[i] = test_alloc(CALLS * 1400 + 200);
  test_pin(CRISP_KERNEL_MD5, "generic");
  const size_t rounds = test_scaled(3);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t round = 0; round < rounds; round++) {
      const size_t n = round == 0 ? N : 1 + test_rand_below(N);
      for (size_t i = 0; i < n; i++) {
        ctx[i] = &contexts[i];
        crisp_md5_init(ctx[i]);
        /* Start some streams with a buffered partial block. */
        total[i] = test_rand_below(3) == 0 ? test_rand_below(150) : 0;
        memcpy(message[i], pool + i, total[i]);
        crisp_md5_update(ctx[i], message[i], total[i]);
      }
      for (size_t call = 0; call < CALLS; call++) {
        for (size_t i = 0; i < n; i++) {
          const size_t r = test_rand_below(10);
          len[i] = r < 2   ? 0
                   : r < 5 ? test_rand_below(64)
                   : r < 8 ? test_rand_below(300)
                           : test_rand_below(1400);
          const uint8_t *src = pool + test_rand_below(POOL - len[i] + 1);
          data[i] = len[i] == 0 && r == 0 ? NULL : src;
          memcpy(message[i] + total[i], src, len[i]);
          total[i] += len[i];
        }
        crisp_md5_update_many(ctx, data, len, n);
      }
      for (size_t i = 0; i < n; i++) {
        uint8_t digest[16], expected[16];
        crisp_md5_final(ctx[i], digest);
        crisp_md5(message[i], total[i], expected);
        assert_bytes_equal(digest, expected, 16, "md5 update_many %s: round %zu n=%zu stream %zu len %zu\n",
                           name, round, n, i, total[i]);
      }
    }
  }
  for (size_t i = 0; i < N; i++) free(message[i]);
  free(pool);
}

int main(void) {
  test_seed(0x6d6435);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_rfc1321_single, test_teardown_unpin),
      cmocka_unit_test_teardown(test_rfc1321_many, test_teardown_unpin),
      cmocka_unit_test_teardown(test_padding_answers_single, test_teardown_unpin),
      cmocka_unit_test_teardown(test_padding_answers_many, test_teardown_unpin),
      cmocka_unit_test_teardown(test_all_lengths, test_teardown_unpin),
      cmocka_unit_test_teardown(test_split_grid, test_teardown_unpin),
      cmocka_unit_test_teardown(test_ctx_keeps_impl, test_teardown_unpin),
      cmocka_unit_test_teardown(test_many_vs_single, test_teardown_unpin),
      cmocka_unit_test_teardown(test_many_equal_lengths, test_teardown_unpin),
      cmocka_unit_test_teardown(test_update_many_streams, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
