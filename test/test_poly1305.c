/* test/test_poly1305.c - Poly1305 known answers (RFC 8439 2.5.2 and A.3),
 * accumulators that land next to 2^130-5 with exactly known tags, and
 * differential tests of every implementation against the generic one:
 * every length 0..4096, unaligned buffers, split patterns, long runs of
 * 0xff blocks under extreme keys, verify, wiping, streams that keep
 * their implementation, and streams cut where a vector kernel's stream
 * state changes, short messages that keep to the state's head, and the
 * AEAD's MAC in one call (tag_pieces). With
 * libsodium present, generic is also checked against
 * crypto_onetimeauth_poly1305. */
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "dispatch/select.h"   /* the implementation a pin selects, to run it on a bare state */
#include "poly1305_internal.h" /* its vector_from */
#include "tuning.h"            /* the IFMA kernel's warm crossover, as the library reads it */

#ifdef CRISP_TEST_WITH_SODIUM
#include <sodium.h>
#endif

static const char ietf_text[] =
    "Any submission to the IETF intended by the Contributor for publication as all or part of an IETF "
    "Internet-Draft or RFC and any statement made within the context of an IETF activity is considered an "
    "\"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written and "
    "electronic communications made at any time or place, which are addressed to";

static const char jabberwocky[] =
    "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\nAll mimsy were the borogoves,\n"
    "And the mome raths outgrabe.";

/* RFC 8439 2.5.2, then A.3 test vectors #1..#11. A message is given either
 * as text or as hex. */
static const struct {
  const char *key;
  const char *text;
  const char *hex;
  const char *tag;
} vectors[] = {
    {"85d6be7857556d337f4452fe42d506a8 0103808afb0db2fd4abff6af4149f51b",
     "Cryptographic Forum Research Group", NULL, "a8061dc1305136c6c22b8baf0c0127a9"},
    {"00000000000000000000000000000000 00000000000000000000000000000000", NULL,
     "00000000000000000000000000000000 00000000000000000000000000000000"
     "00000000000000000000000000000000 00000000000000000000000000000000",
     "00000000000000000000000000000000"},
    {"00000000000000000000000000000000 36e5f6b5c5e06070f0efca96227a863e", ietf_text, NULL,
     "36e5f6b5c5e06070f0efca96227a863e"},
    {"36e5f6b5c5e06070f0efca96227a863e 00000000000000000000000000000000", ietf_text, NULL,
     "f3477e7cd95417af89a6b8794c310cf0"},
    {"1c9240a5eb55d38af333888604f6b5f0 473917c1402b80099dca5cbc207075c0", jabberwocky, NULL,
     "4541669a7eaaee61e708dc7cbcc5eb62"},
    {"02000000000000000000000000000000 00000000000000000000000000000000", NULL,
     "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000"},
    {"02000000000000000000000000000000 ffffffffffffffffffffffffffffffff", NULL,
     "02000000000000000000000000000000", "03000000000000000000000000000000"},
    {"01000000000000000000000000000000 00000000000000000000000000000000", NULL,
     "ffffffffffffffffffffffffffffffff f0ffffffffffffffffffffffffffffff 11000000000000000000000000000000",
     "05000000000000000000000000000000"},
    {"01000000000000000000000000000000 00000000000000000000000000000000", NULL,
     "ffffffffffffffffffffffffffffffff fbfefefefefefefefefefefefefefefe 01010101010101010101010101010101",
     "00000000000000000000000000000000"},
    {"02000000000000000000000000000000 00000000000000000000000000000000", NULL,
     "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff"},
    {"01000000000000000400000000000000 00000000000000000000000000000000", NULL,
     "e33594d7505e43b90000000000000000 3394d7505e4379cd0100000000000000"
     "00000000000000000000000000000000 01000000000000000000000000000000",
     "14000000000000005500000000000000"},
    {"01000000000000000400000000000000 00000000000000000000000000000000", NULL,
     "e33594d7505e43b90000000000000000 3394d7505e4379cd0100000000000000 00000000000000000000000000000000",
     "13000000000000000000000000000000"},
};
enum { VECTOR_COUNT = sizeof vectors / sizeof vectors[0] };

/* Tags of the bytes (uint8_t)(7 * i + 3), i = 0..len-1, under the key bytes
 * (uint8_t)(0xf0 - 3 * i), computed once with libsodium's
 * crypto_onetimeauth_poly1305 (so the front-end's buffering and padding
 * are checked by something other than crisp itself). */
static const struct {
  size_t len;
  const char *tag;
} length_answers[] = {
    {0, "c0bdbab7b4b1aeaba8a5a29f9c999693"},     {1, "907769ba683b2dae3cfff0a110c3b465"},
    {15, "59e133205822755afc45d1e72b2d853d"},    {16, "96883c0d3a6f7f098438dd5859c53694"},
    {17, "7876c786caedbb8c8dea432fad43f9e3"},    {31, "779d13823d38bd4ea2be988e72e83c25"},
    {32, "d2be7023a86845241cfe4b98fb36ff7d"},    {33, "57d03f91947f39808cf0abc81477d708"},
    {55, "e72a23d004873221a18d7d4b7e35e4ac"},    {56, "7cd2092bd86a55f852b37503fa24d646"},
    {57, "9c38269ceca3443cbae60733eecddd8b"},    {63, "3642b6b8ca29cebc88a9ab0b3df0bd52"},
    {64, "66aed6b8e9867bd098f7e5323e2fe9aa"},    {65, "4c3d5b8333cef947b6eff29b29e381d9"},
    {119, "a84c0b0ef11e6e42c49291fe71aeb78a"},   {120, "6c1100a4b4e36218fafc8eb474e5b121"},
    {127, "8e7a3c125aecbb1238626a2c35d432d0"},   {128, "5e7ce3cfe1a2b3a274cdb28e26f42f27"},
    {129, "af3f28c5fb82e061a4a4da05a8b89f28"},   {255, "20f75cfbf2247f70f63a8da968f75a38"},
    {256, "a6cdf63da928e207da6bb9957955b491"},   {257, "933f117e8f31823e0c38246de1d460d0"},
    {1000, "383614e6cba264e5aa5bd04992bbd364"},  {4095, "1f5966bfd134e20d5e3d50adf7ee637b"},
    {4096, "aa2f0002883845a5416e7c99084dbdd4"},  {4097, "5cf7633947c33ef91d03c3a982e41919"},
    {10000, "f43ecc789f64e5ce30b5f45bf1315142"},
};
enum { LENGTH_ANSWER_COUNT = sizeof length_answers / sizeof length_answers[0] };
#define LENGTH_ANSWER_MAX 10000

/* The tag by the generic implementation; the caller's pin is restored. */
static void generic_tag(uint8_t tag[16], const void *data, size_t len, const uint8_t key[32]) {
  const char *previous = crisp_impl_name(CRISP_KERNEL_POLY1305);
  test_pin(CRISP_KERNEL_POLY1305, "generic");
  crisp_poly1305(tag, data, len, key);
  test_pin(CRISP_KERNEL_POLY1305, previous);
}

/* ---- split patterns --------------------------------------------------- */

enum { PATTERN_COUNT = 14 };

/* The size of update call number index of a pattern, before clipping to
 * what is left. Pattern 0 is one call; the others cut at the block size,
 * off it, at the 176+32 split that broke other AVX2 code, at random, and in
 * 128- and 136-byte updates (a stream of short updates that turns to the
 * vector loop once it has absorbed enough blocks). */
static size_t pattern_piece(int pattern, size_t index, size_t left) {
  static const size_t fixed[][4] = {
      [2] = {176, 32, 0}, [3] = {32, 176, 0}, [6] = {1, 0}, [7] = {17, 255, 1, 0}, [11] = {15, 1, 0},
  };
  switch (pattern) {
    case 0:
      return left;
    case 1:
      return index < 4 ? test_rand_below(left + 1) : left;
    case 4:
      return 16;
    case 5:
      return 15 + 2 * (index & 1); /* 15, 17, 15, 17, ... */
    case 8:
      return test_rand_below(601);
    case 9:
      return (size_t)64 << (index < 10 ? index : 10);
    case 10:
      return index & 1 ? 3 : 1000;
    case 12:
      return 128;
    case 13:
      return 136;
    default:
      return index < 4 && fixed[pattern][index] ? fixed[pattern][index] : left;
  }
}

static void tag_with_pattern(uint8_t tag[16], const uint8_t *data, size_t len, const uint8_t key[32],
                             int pattern) {
  crisp_poly1305_ctx ctx;
  crisp_poly1305_init(&ctx, key);
  size_t done = 0;
  for (size_t index = 0; done < len; index++) {
    size_t piece = pattern_piece(pattern, index, len - done);
    if (piece > len - done) piece = len - done;
    crisp_poly1305_update(&ctx, data + done, piece);
    done += piece;
  }
  crisp_poly1305_final(&ctx, tag);
}

/* ---- known answers ---------------------------------------------------- */

typedef struct vector_bytes {
  uint8_t key[32], tag[16], message[400];
  size_t len;
} vector_bytes;

static void load_vector(size_t v, vector_bytes *out) {
  assert_int_equal(test_unhex(vectors[v].key, out->key, 32), 32);
  assert_int_equal(test_unhex(vectors[v].tag, out->tag, 16), 16);
  if (vectors[v].text) {
    out->len = strlen(vectors[v].text);
    assert_true(out->len <= sizeof out->message);
    memcpy(out->message, vectors[v].text, out->len);
  } else {
    out->len = test_unhex(vectors[v].hex, out->message, sizeof out->message);
  }
}

static void test_rfc8439_vectors(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t v = 0; v < VECTOR_COUNT; v++) {
      vector_bytes vb;
      uint8_t tag[16];
      load_vector(v, &vb);
      crisp_poly1305(tag, vb.message, vb.len, vb.key);
      assert_bytes_equal(tag, vb.tag, 16, "poly1305 %s: RFC 8439 vector %zu one-shot\n", name, v);
      for (int pattern = 1; pattern < PATTERN_COUNT; pattern++) {
        memset(tag, 0, 16);
        tag_with_pattern(tag, vb.message, vb.len, vb.key, pattern);
        assert_bytes_equal(tag, vb.tag, 16, "poly1305 %s: RFC 8439 vector %zu split pattern %d\n", name, v,
                           pattern);
      }
      assert_int_equal(crisp_poly1305_verify(vb.tag, vb.message, vb.len, vb.key), CRISP_OK);
    }
  }
}

static void test_length_answers(void **state) {
  (void)state;
  uint8_t key[32], *data = test_alloc(LENGTH_ANSWER_MAX + 16);
  for (size_t i = 0; i < 32; i++) key[i] = (uint8_t)(0xf0 - 3 * i);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t v = 0; v < LENGTH_ANSWER_COUNT; v++) {
      const size_t len = length_answers[v].len, offset = v % 16;
      uint8_t expected[16], tag[16];
      test_unhex(length_answers[v].tag, expected, 16);
      for (size_t i = 0; i < len; i++) data[offset + i] = (uint8_t)(7 * i + 3);
      for (int pattern = 0; pattern < PATTERN_COUNT; pattern++) {
        tag_with_pattern(tag, data + offset, len, key, pattern);
        assert_bytes_equal(tag, expected, 16, "poly1305 %s: known answer for length %zu, pattern %d\n", name,
                           len, pattern);
      }
      assert_int_equal(crisp_poly1305_verify(expected, data + offset, len, key), CRISP_OK);
    }
  }
  free(data);
}

/* ---- accumulators next to p = 2^130 - 5, tags known exactly ------------ */

/* Unsigned numbers of three 64-bit words, little-endian: enough for the
 * sums of a few thousand blocks below. */
typedef struct wide {
  uint64_t w[3];
} wide;

static wide wide_add(wide a, wide b) {
  wide r;
  uint64_t carry = 0;
  for (int i = 0; i < 3; i++) {
    const uint64_t s = a.w[i] + b.w[i];
    const uint64_t c1 = s < a.w[i];
    r.w[i] = s + carry;
    carry = c1 | (r.w[i] < s);
  }
  return r;
}

static wide wide_sub(wide a, wide b) { /* a >= b */
  wide r;
  uint64_t borrow = 0;
  for (int i = 0; i < 3; i++) {
    const uint64_t d = a.w[i] - b.w[i];
    const uint64_t b1 = a.w[i] < b.w[i];
    r.w[i] = d - borrow;
    borrow = b1 | (d < borrow);
  }
  return r;
}

static int wide_less(wide a, wide b) {
  for (int i = 2; i >= 0; i--)
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i];
  return 0;
}

static const wide prime = {{0xfffffffffffffffbull, 0xffffffffffffffffull, 3}};
static const wide two_128 = {{0, 0, 1}};
static const wide max_128 = {{~0ull, ~0ull, 0}};

static wide block_value(const uint8_t b[16]) {
  wide v = {{0, 0, 0}};
  for (int i = 0; i < 16; i++) v.w[i / 8] |= (uint64_t)b[i] << (8 * (i % 8));
  return v;
}

static void block_bytes(wide v, uint8_t b[16]) {
  for (int i = 0; i < 16; i++) b[i] = (uint8_t)(v.w[i / 8] >> (8 * (i % 8)));
}

/* With r = 1 the accumulator is the plain sum of the blocks (each plus
 * 2^128) mod p. Builds nblocks blocks whose sum is T = j*p + d for the
 * smallest such T above the fixed blocks' sum: the filler blocks are all
 * 0xff (or random), and four free blocks at random positions make up the
 * difference. Returns 0 when too few blocks leave no room for T. */
static int near_prime_message(uint8_t *message, size_t nblocks, int d, int random_filler, wide *h) {
  const size_t free_count = nblocks < 4 ? nblocks : 4;
  size_t free_at[4];
  for (size_t f = 0; f < free_count; f++) {
    size_t pos;
    int taken;
    do {
      pos = test_rand_below(nblocks);
      taken = 0;
      for (size_t g = 0; g < f; g++) taken |= free_at[g] == pos;
    } while (taken);
    free_at[f] = pos;
  }
  wide sum = {{0, 0, 0}};
  for (size_t i = 0; i < nblocks; i++) {
    uint8_t *block = message + 16 * i;
    int is_free = 0;
    for (size_t f = 0; f < free_count; f++) is_free |= free_at[f] == i;
    if (!is_free) {
      if (random_filler)
        test_fill_random(block, 16);
      else
        memset(block, 0xff, 16);
      sum = wide_add(sum, block_value(block));
    }
    sum = wide_add(sum, two_128);
  }
  /* Smallest T = j*p + d >= sum with j >= 1. */
  wide target = prime;
  const wide magnitude = {{(uint64_t)(d < 0 ? -d : d), 0, 0}};
  target = d < 0 ? wide_sub(target, magnitude) : wide_add(target, magnitude);
  while (wide_less(target, sum)) target = wide_add(target, prime);
  wide need = wide_sub(target, sum);
  for (size_t f = 0; f < free_count; f++) {
    const wide piece = wide_less(need, max_128) ? need : max_128;
    block_bytes(piece, message + 16 * free_at[f]);
    need = wide_sub(need, piece);
  }
  if (need.w[0] | need.w[1] | need.w[2]) return 0;
  *h = d < 0 ? wide_sub(prime, magnitude) : magnitude;
  return 1;
}

static void test_near_prime(void **state) {
  (void)state;
  static const size_t block_counts[] = {1,  2,  3,  4,  5,  7,  8,   9,   15,  16,
                                        17, 31, 32, 33, 64, 65, 100, 256, 257, 1024};
  enum { MAX_BLOCKS = 1024 };
  uint8_t *message = test_alloc(16 * MAX_BLOCKS);
  const size_t trials = test_scaled(1);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t trial = 0; trial < trials; trial++) {
      for (size_t c = 0; c < sizeof block_counts / sizeof block_counts[0]; c++) {
        for (int d = -6; d <= 6; d++) {
          for (int random_filler = 0; random_filler < 2; random_filler++) {
            const size_t nblocks = block_counts[c];
            wide h;
            if (!near_prime_message(message, nblocks, d, random_filler, &h)) continue;
            uint8_t key[32] = {1}, expected[16], tag[16];
            test_fill_random(key + 16, 16);
            if (d & 1) memset(key + 16, 0xff, 16); /* s = 2^128 - 1 */
            block_bytes(wide_add(h, block_value(key + 16)), expected);
            const int pattern = (int)((nblocks + (size_t)d + 6) % PATTERN_COUNT);
            tag_with_pattern(tag, message, 16 * nblocks, key, pattern);
            assert_bytes_equal(tag, expected, 16,
                               "poly1305 %s: r=1, %zu blocks (%s filler) summing to j*p%+d, pattern %d\n",
                               name, nblocks, random_filler ? "random" : "0xff", d, pattern);
          }
        }
      }
    }
  }
  free(message);
}

/* ---- differential against generic ------------------------------------- */

#define MAX_LEN 4096

/* Every length 0..4096 with its own random key, at a random offset
 * 0..15, one-shot and with a split pattern that rotates with the length. */
static void test_all_lengths(void **state) {
  (void)state;
  uint8_t *source = test_alloc(MAX_LEN);
  uint8_t *shifted = test_alloc(MAX_LEN + 16);
  uint8_t(*keys)[32] = malloc((MAX_LEN + 1) * 32);
  uint8_t(*reference)[16] = malloc((MAX_LEN + 1) * 16);
  assert_non_null(keys);
  assert_non_null(reference);
  test_fill_random(source, MAX_LEN);
  test_fill_random(keys, (MAX_LEN + 1) * 32);
  test_pin(CRISP_KERNEL_POLY1305, "generic");
  for (size_t len = 0; len <= MAX_LEN; len++) crisp_poly1305(reference[len], source, len, keys[len]);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t len = 0; len <= MAX_LEN; len++) {
      const size_t offset = test_rand_below(16);
      memcpy(shifted + offset, source, len);
      uint8_t tag[16];
      crisp_poly1305(tag, shifted + offset, len, keys[len]);
      assert_bytes_equal(tag, reference[len], 16, "poly1305 %s: one-shot len %zu offset %zu\n", name, len,
                         offset);
      const int pattern = 1 + (int)(len % (PATTERN_COUNT - 1));
      tag_with_pattern(tag, shifted + offset, len, keys[len], pattern);
      assert_bytes_equal(tag, reference[len], 16, "poly1305 %s: len %zu offset %zu split pattern %d\n", name,
                         len, offset, pattern);
    }
  }
  free(reference);
  free(keys);
  free(shifted);
  free(source);
}

/* Keys at the edges: r with every bit the clamp allows (and a key of all
 * 0xff, which the clamp must cut down to that), s = 2^128 - 1, r = 0, 1. */
static void edge_key(int which, uint8_t key[32]) {
  static const uint8_t r_max[16] = {0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
                                    0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f};
  test_fill_random(key, 32);
  switch (which) {
    case 0:
      memcpy(key, r_max, 16), memset(key + 16, 0xff, 16);
      break;
    case 1:
      memset(key, 0xff, 32);
      break;
    case 2:
      memcpy(key, r_max, 16), memset(key + 16, 0, 16);
      break;
    case 3:
      memset(key + 16, 0xff, 16);
      break; /* random r */
    case 4:
      memset(key, 0, 16);
      break; /* r = 0 */
    case 5:
      memset(key, 0, 16), key[0] = 1;
      break;
    default:
      break; /* random key */
  }
}
enum { EDGE_KEY_COUNT = 7 };

/* Data of all 0xff (and other fills) through every key above, at the
 * lengths where vector loops start, end and switch, and long runs so a
 * carry a parallel lane drops shows up. */
static void test_edge_keys_and_data(void **state) {
  (void)state;
  static const size_t long_lengths[] = {511,  512,  513,  1023, 1024, 1040, 2047,  2048,  2049,
                                        4095, 4096, 4111, 8191, 8192, 8208, 16384, 16399, 32768};
  enum { MAX_EDGE = 32768 };
  uint8_t *data = test_alloc(MAX_EDGE);
  for (int fill = 0; fill < 3; fill++) {
    /* 0xff everywhere; 0xff blocks with a zero every 64th byte; random. */
    for (size_t i = 0; i < MAX_EDGE; i++) data[i] = fill == 1 && i % 64 == 63 ? 0 : 0xff;
    if (fill == 2) test_fill_random(data, MAX_EDGE);
    for (int which = 0; which < EDGE_KEY_COUNT; which++) {
      uint8_t key[32];
      edge_key(which, key);
      uint8_t expected_short[301][16], expected_long[sizeof long_lengths / sizeof long_lengths[0]][16];
      for (size_t len = 0; len <= 300; len++) generic_tag(expected_short[len], data, len, key);
      for (size_t i = 0; i < sizeof long_lengths / sizeof long_lengths[0]; i++)
        generic_tag(expected_long[i], data, long_lengths[i], key);
      const char *name;
      FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
        uint8_t tag[16];
        for (size_t len = 0; len <= 300; len++) {
          tag_with_pattern(tag, data, len, key, (int)(len % 3) * 2); /* one-shot, 176+32, 1+rest */
          assert_bytes_equal(tag, expected_short[len], 16, "poly1305 %s: edge key %d fill %d len %zu\n", name,
                             which, fill, len);
        }
        for (size_t i = 0; i < sizeof long_lengths / sizeof long_lengths[0]; i++) {
          for (int pattern = 0; pattern < PATTERN_COUNT; pattern += 3) {
            tag_with_pattern(tag, data, long_lengths[i], key, pattern);
            assert_bytes_equal(tag, expected_long[i], 16,
                               "poly1305 %s: edge key %d fill %d len %zu pattern %d\n", name, which, fill,
                               long_lengths[i], pattern);
          }
        }
      }
    }
  }
  free(data);
}

/* ---- verify, wipe, streams that keep their implementation ------------- */

static void test_verify(void **state) {
  (void)state;
  uint8_t key[32], data[100], tag[16];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t len = 0; len <= sizeof data; len += 33) {
      test_fill_random(key, 32);
      test_fill_random(data, sizeof data);
      generic_tag(tag, data, len, key);
      assert_int_equal(crisp_poly1305_verify(tag, data, len, key), CRISP_OK);
      for (int bit = 0; bit < 128; bit++) {
        tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        const int rc = crisp_poly1305_verify(tag, data, len, key);
        if (rc != CRISP_E_MISMATCH)
          print_error("poly1305 %s: verify with bit %d flipped gave %d\n", name, bit, rc);
        assert_int_equal(rc, CRISP_E_MISMATCH);
        tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      }
      if (len) {
        data[len - 1] ^= 0x80;
        assert_int_equal(crisp_poly1305_verify(tag, data, len, key), CRISP_E_MISMATCH);
        data[len - 1] ^= 0x80;
      }
      assert_int_equal(crisp_poly1305_verify(tag, data, len, key), CRISP_OK);
    }
  }
}

/* data[from..to) into ctx in updates of at most piece bytes; returns to. */
static size_t update_in_pieces(crisp_poly1305_ctx *ctx, const uint8_t *data, size_t from, size_t to,
                               size_t piece) {
  for (size_t n; from < to; from += n) {
    n = to - from < piece ? to - from : piece;
    crisp_poly1305_update(ctx, data + from, n);
  }
  return to;
}

static void test_final_wipes(void **state) {
  (void)state;
  uint8_t key[32], data[2100], tag[16], zero[sizeof(crisp_poly1305_ctx)];
  memset(zero, 0, sizeof zero);
  test_fill_random(key, 32);
  test_fill_random(data, sizeof data);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t len = 0; len <= sizeof data; len += 131) {
      /* Start from zeros: every byte that init or update wrote must be
       * zero again after final (bytes never written need no wiping). */
      for (int streamed = 0; streamed < 2; streamed++) {
        /* one update, then 64-byte updates (blocks left waiting for a vector step) */
        crisp_poly1305_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        crisp_poly1305_init(&ctx, key);
        update_in_pieces(&ctx, data, 0, len, streamed ? 64 : SIZE_MAX);
        crisp_poly1305_final(&ctx, tag);
        if (memcmp(&ctx, zero, sizeof ctx) != 0) {
          size_t at = 0;
          while (((uint8_t *)&ctx)[at] == 0) at++;
          print_error("poly1305 %s: context not wiped after final (len %zu, %s, byte %zu)\n", name, len,
                      streamed ? "64-byte updates" : "one update", at);
          fail();
        }
      }
    }
  }
}

/* For every pair (a, b) of supported implementations: a stream initialised
 * pinned to a takes data up to lead_end in updates of lead_piece, pinned to
 * b up to middle_end in updates of middle_piece, under
 * crisp_force("generic") the rest in updates of tail_piece, and finishes
 * pinned to yet another. The context keeps the implementation it was
 * initialised with, so the tag is the generic one-shot's. */
static void check_stream_across_pins(const uint8_t *data, size_t len, const uint8_t key[32], size_t lead_end,
                                     size_t lead_piece, size_t middle_end, size_t middle_piece,
                                     size_t tail_piece) {
  uint8_t expected[16], tag[16];
  generic_tag(expected, data, len, key);
  const char *names[16];
  const size_t n = test_supported_impls(CRISP_KERNEL_POLY1305, names, 16);
  for (size_t a = 0; a < n; a++) {
    for (size_t b = 0; b < n; b++) {
      crisp_poly1305_ctx ctx;
      test_pin(CRISP_KERNEL_POLY1305, names[a]);
      crisp_poly1305_init(&ctx, key);
      size_t done = update_in_pieces(&ctx, data, 0, lead_end, lead_piece);
      test_pin(CRISP_KERNEL_POLY1305, names[b]);
      done = update_in_pieces(&ctx, data, done, middle_end, middle_piece);
      assert_int_equal(crisp_force("generic"), CRISP_OK);
      update_in_pieces(&ctx, data, done, len, tail_piece);
      assert_int_equal(crisp_force(NULL), CRISP_OK);
      test_pin(CRISP_KERNEL_POLY1305, names[(a + 1) % n]);
      crisp_poly1305_final(&ctx, tag);
      assert_bytes_equal(tag, expected, 16, "poly1305: init with %s (updates of %zu), continued with %s\n",
                         names[a], lead_piece, names[b]);
    }
  }
  test_unpin_all();
}

static void test_stream_keeps_impl(void **state) {
  (void)state;
  enum { LEN = 1500 };
  uint8_t key[32], data[LEN], expected[16], tag[16];
  test_fill_random(key, 32);
  test_fill_random(data, LEN);
  generic_tag(expected, data, LEN, key);
  check_stream_across_pins(data, LEN, key, 177, SIZE_MAX, 777, SIZE_MAX, SIZE_MAX);
  /* Through the level cap alone: every level this CPU has, mid-stream. */
  char levels[128];
  snprintf(levels, sizeof levels, "%s", crisp_levels());
  for (char *level = strtok(levels, " "); level; level = strtok(NULL, " ")) {
    crisp_poly1305_ctx ctx;
    crisp_poly1305_init(&ctx, key);
    crisp_poly1305_update(&ctx, data, 1000);
    const int rc = crisp_force(level);
    assert_true(rc == CRISP_OK || rc == CRISP_E_UNSUPPORTED);
    crisp_poly1305_update(&ctx, data + 1000, LEN - 1000);
    assert_int_equal(crisp_force(NULL), CRISP_OK);
    crisp_poly1305_final(&ctx, tag);
    assert_bytes_equal(tag, expected, 16, "poly1305: crisp_force(%s) mid-stream\n", level);
  }
}

/* ---- streams cut where a vector kernel's state changes ---------------- */

/* A stream: lead bytes in 64-byte updates, then count updates of piece
 * bytes, then the tail in one update. */
static void tag_lead_pieces(uint8_t tag[16], const uint8_t *data, size_t lead, size_t piece, size_t count,
                            size_t tail, const uint8_t key[32]) {
  crisp_poly1305_ctx ctx;
  crisp_poly1305_init(&ctx, key);
  update_in_pieces(&ctx, data, 0, lead, 64);
  for (size_t i = 0; i < count; i++) crisp_poly1305_update(&ctx, data + lead + i * piece, piece);
  crisp_poly1305_update(&ctx, data + lead + count * piece, tail);
  crisp_poly1305_final(&ctx, tag);
}

/* Streams cut at the edges of the vector kernels' stream state (the IFMA
 * kernel keeps its lanes and up to 7 waiting blocks between calls): a lead
 * of 64-byte updates ending before, at and after the IFMA kernel's warm
 * crossover (the value its code reads, so the leads follow the parameter
 * wherever it is set), then updates one block short of, exactly, and one
 * block past a lane step (8 blocks) and a loop step (16 blocks), and of a
 * few bytes, then a tail; every tag against the generic one-shot tag of
 * the same bytes, which is itself checked against libsodium where
 * present. */
static void test_stream_boundaries(void **state) {
  (void)state;
  (void)crisp_level(); /* probing the CPU sets the parameters */
  const size_t warm_bytes = (size_t)crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_WARM) * 16;
  assert_true(warm_bytes >= 128); /* the parameter's minimum, 8 blocks: leads stay in order */
  const size_t w = warm_bytes;
  const size_t leads[] = {0, 64, w - 64, w - 16, w, w + 16, w + 64, w + 128};
  static const size_t pieces[] = {1, 15, 16, 17, 64, 112, 128, 144, 240, 256, 272};
  static const size_t counts[] = {1, 2, 3, 7};
  static const size_t tails[] = {0, 1, 15, 16, 17, 112, 128, 129, 255};
  const size_t max = leads[7] + pieces[10] * counts[3] + tails[8]; /* each list ascending */
  uint8_t *data = test_alloc(max);
  uint8_t(*reference)[16] = malloc((max + 1) * 16);
  assert_non_null(reference);
  uint8_t key[32], tag[16];
  test_fill_random(data, max);
  test_fill_random(key, 32);
  for (size_t len = 0; len <= max; len++) {
    generic_tag(reference[len], data, len, key);
#ifdef CRISP_TEST_WITH_SODIUM
    uint8_t sodium_tag[16];
    crypto_onetimeauth_poly1305(sodium_tag, data, len, key);
    assert_bytes_equal(reference[len], sodium_tag, 16, "poly1305 generic vs libsodium: len %zu\n", len);
#endif
  }
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t l = 0; l < sizeof leads / sizeof leads[0]; l++)
      for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
          for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
            const size_t len = leads[l] + pieces[p] * counts[c] + tails[t];
            tag_lead_pieces(tag, data, leads[l], pieces[p], counts[c], tails[t], key);
            assert_bytes_equal(tag, reference[len], 16,
                               "poly1305 %s: lead %zu, %zu updates of %zu, tail %zu\n", name, leads[l],
                               counts[c], pieces[p], tails[t]);
          }
  }
  free(reference);
  free(data);
}

/* Many-way splits of long messages: pieces of random sizes (mostly short,
 * some long) against the one-shot tag of the same implementation and the
 * generic one-shot tag (and libsodium's own stream, split another way,
 * where present). */
static void test_many_way_splits(void **state) {
  (void)state;
  enum { MAX = 1 << 17 };
  uint8_t *data = test_alloc(MAX);
  uint8_t key[32], tag[16], expected[16], oneshot[16];
  const size_t trials = test_scaled(24);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t trial = 0; trial < trials; trial++) {
      const size_t len = trial < 4 ? (size_t)MAX >> trial : test_rand_below(MAX + 1);
      const size_t short_max = trial % 3 == 0 ? 16 : trial % 3 == 1 ? 80 : 300;
      test_fill_random(data, len);
      test_fill_random(key, 32);
      generic_tag(expected, data, len, key);
      crisp_poly1305(oneshot, data, len, key);
      assert_bytes_equal(oneshot, expected, 16, "poly1305 %s: one-shot len %zu\n", name, len);
      crisp_poly1305_ctx ctx;
      crisp_poly1305_init(&ctx, key);
      for (size_t done = 0; done < len;) {
        size_t piece = test_rand_below(8) ? 1 + test_rand_below(short_max) : test_rand_below(5000);
        if (piece > len - done) piece = len - done;
        crisp_poly1305_update(&ctx, data + done, piece);
        done += piece;
      }
      crisp_poly1305_final(&ctx, tag);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s: len %zu in random pieces up to %zu\n", name, len,
                         short_max);
#ifdef CRISP_TEST_WITH_SODIUM
      crypto_onetimeauth_poly1305_state sodium;
      crypto_onetimeauth_poly1305_init(&sodium, key);
      for (size_t done = 0; done < len;) {
        size_t piece = 1 + test_rand_below(2 * short_max);
        if (piece > len - done) piece = len - done;
        crypto_onetimeauth_poly1305_update(&sodium, data + done, piece);
        done += piece;
      }
      uint8_t sodium_tag[16];
      crypto_onetimeauth_poly1305_final(&sodium, sodium_tag);
      assert_bytes_equal(tag, sodium_tag, 16, "poly1305 %s vs libsodium's stream: len %zu\n", name, len);
#endif
    }
  }
  free(data);
}

/* A stream in 64-byte updates that changes pin and level while a vector
 * kernel holds blocks in its stream state: 704 bytes are 44 blocks, which
 * with the IFMA kernel's defaults are 32 in the scalar code, one step of
 * the lanes and 4 blocks waiting. The context keeps the implementation it
 * was initialised with. */
static void test_short_updates_keep_impl(void **state) {
  (void)state;
  enum { LEN = 3000 };
  uint8_t key[32], data[LEN];
  test_fill_random(key, 32);
  test_fill_random(data, LEN);
  check_stream_across_pins(data, LEN, key, 704, 64, 1488, 48, 100);
}

/* Below its vector path a state is read and written only in its head
 * (src/impl.h, CRISP_POLY1305_SHORT_STATE_SIZE), so the one-shot calls
 * give a short message a head-sized state on their stack. Every
 * implementation runs every length whose blocks stay below its vector_from
 * (the AEAD's short messages, 2 KiB, for a scalar one) on a head that ends
 * at an inaccessible page: in one call and a padded tail, as crisp_poly1305
 * does, and in calls of 1 to 5 blocks, as the AEAD and a stream do. A
 * read or write past the head faults; the tags must match the public
 * call's. */
static void test_short_messages_keep_to_the_head(void **state) {
  (void)state;
  enum { MAX = 2048 + 64, BLOCK = 16 };
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uint8_t *const pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(pages != MAP_FAILED);
  assert_int_equal(mprotect(pages + page, page, PROT_NONE), 0);
  unsigned char *const head = pages + page - CRISP_POLY1305_SHORT_STATE_SIZE;
  uint8_t key[32], data[MAX];
  test_fill_random(key, sizeof key);
  test_fill_random(data, sizeof data);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    const crisp_poly1305_impl *impl = crisp_active_poly1305();
    assert_string_equal(impl->info.name, name);
    const size_t vector_from = crisp_poly1305_vector_from(impl);
    size_t lengths = 0;
    for (size_t len = 0; len <= MAX && (len + BLOCK - 1) / BLOCK * BLOCK < vector_from; len++, lengths++) {
      uint8_t expected[16], tag[16];
      crisp_poly1305(expected, data, len, key);
      impl->init(head, key);
      if (len / BLOCK) impl->blocks(head, data, len / BLOCK, 1);
      if (len % BLOCK) {
        uint8_t last[BLOCK] = {0};
        memcpy(last, data + len / BLOCK * BLOCK, len % BLOCK);
        last[len % BLOCK] = 1;
        impl->blocks(head, last, 1, 0);
      }
      impl->finish(head, tag);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s on the head: len %zu\n", name, len);
      if (len % BLOCK) continue;
      impl->init(head, key);
      for (size_t done = 0, piece = 1; done < len / BLOCK; done += piece, piece = piece % 5 + 1) {
        const size_t left = len / BLOCK - done;
        impl->blocks(head, data + done * BLOCK, piece < left ? piece : left, 1);
      }
      impl->finish(head, tag);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s on the head: len %zu in pieces\n", name, len);
    }
    /* every implementation keeps at least a block or two to its head */
    assert_true(lengths >= 64);
  }
  munmap(pages, 2 * page);
}

/* An implementation's tag_pieces (the AEAD's MAC in one call) against the
 * generic tag of the pieces' blocks laid end to end, a message of whole
 * blocks: every shape of 0-3 blocks a piece, then longer random shapes
 * below the implementation's vector crossover, with random data and keys
 * and with 0xff data under the edge keys; pieces at odd addresses. */
static void test_tag_pieces(void **state) {
  (void)state;
  enum { BLOCK = 16, MAX_PIECE = 40 };
  uint8_t *const data = test_alloc(4 * MAX_PIECE * BLOCK + 4);
  uint8_t *const whole = test_alloc(4 * MAX_PIECE * BLOCK);
  uint8_t key[32], tag[16], expected[16];
  size_t implementations = 0;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    const crisp_poly1305_impl *impl = crisp_active_poly1305();
    if (!impl->tag_pieces) continue;
    implementations++;
    const size_t below = crisp_poly1305_vector_from(impl) / BLOCK; /* blocks the head path takes */
    const size_t shapes = 256 + test_scaled(200);
    for (size_t shape = 0; shape < shapes; shape++) {
      size_t blocks[4], total = 0;
      for (int p = 0; p < 4; p++) {
        blocks[p] = shape < 256 ? (shape >> (2 * p)) & 3 : test_rand_below(MAX_PIECE + 1);
        if (total + blocks[p] >= below) blocks[p] = 0;
        total += blocks[p];
      }
      const int which = (int)(shape % (EDGE_KEY_COUNT + 1));
      edge_key(which, key);
      crisp_poly1305_pieces pieces;
      size_t at = 0;
      for (int p = 0; p < 4; p++) {
        uint8_t *const piece = data + at + (size_t)p; /* each at its own odd offset */
        if (which == EDGE_KEY_COUNT)
          test_fill_random(piece, blocks[p] * BLOCK);
        else
          memset(piece, 0xff, blocks[p] * BLOCK);
        pieces.data[p] = piece, pieces.blocks[p] = blocks[p];
        at += blocks[p] * BLOCK;
      }
      for (int p = 0, end = 0; p < 4; p++) {
        memcpy(whole + end, pieces.data[p], blocks[p] * BLOCK);
        end += (int)(blocks[p] * BLOCK);
      }
      generic_tag(expected, whole, total * BLOCK, key);
      impl->tag_pieces(tag, key, &pieces);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s tag_pieces: blocks %zu %zu %zu %zu, key %d\n", name,
                         blocks[0], blocks[1], blocks[2], blocks[3], which);
    }
  }
  assert_true(implementations >= 1); /* generic's at least */
  free(data);
  free(whole);
}

#ifdef CRISP_TEST_WITH_SODIUM
/* An outside reference: every implementation against libsodium on random
 * lengths and keys, and on the edge keys with 0xff data. */
static void test_against_libsodium(void **state) {
  (void)state;
  enum { LEN = 9000 };
  uint8_t *data = test_alloc(LEN);
  uint8_t key[32], tag[16], expected[16];
  const size_t trials = test_scaled(200);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (size_t t = 0; t < trials; t++) {
      const int which = (int)(t % (EDGE_KEY_COUNT + 1));
      edge_key(which, key);
      const size_t len = t < 20 ? t * 16 : test_rand_below(LEN + 1);
      if (which == EDGE_KEY_COUNT)
        test_fill_random(data, len);
      else
        memset(data, 0xff, len);
      crypto_onetimeauth_poly1305(expected, data, len, key);
      crisp_poly1305(tag, data, len, key);
      assert_bytes_equal(tag, expected, 16, "poly1305 %s vs libsodium: key %d len %zu\n", name, which, len);
    }
  }
  free(data);
}
#endif

int main(void) {
  test_seed(0x706f6c79);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_rfc8439_vectors, test_teardown_unpin),
      cmocka_unit_test_teardown(test_length_answers, test_teardown_unpin),
      cmocka_unit_test_teardown(test_near_prime, test_teardown_unpin),
      cmocka_unit_test_teardown(test_all_lengths, test_teardown_unpin),
      cmocka_unit_test_teardown(test_edge_keys_and_data, test_teardown_unpin),
      cmocka_unit_test_teardown(test_verify, test_teardown_unpin),
      cmocka_unit_test_teardown(test_final_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_keeps_impl, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_boundaries, test_teardown_unpin),
      cmocka_unit_test_teardown(test_many_way_splits, test_teardown_unpin),
      cmocka_unit_test_teardown(test_short_updates_keep_impl, test_teardown_unpin),
      cmocka_unit_test_teardown(test_short_messages_keep_to_the_head, test_teardown_unpin),
      cmocka_unit_test_teardown(test_tag_pieces, test_teardown_unpin),
#ifdef CRISP_TEST_WITH_SODIUM
      cmocka_unit_test_teardown(test_against_libsodium, test_teardown_unpin),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
