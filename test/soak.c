/* test/soak.c - long differential run of every implementation against
 * OpenSSL, libsodium and GMP with edge-biased inputs: all-ones and sparse
 * limbs, moduli just above 2^(64n-1) and just below 2^(64n), operands m-1,
 * Poly1305 keys with every clamp bit set and accumulators that land next to
 * 2^130-5. Run by `bash scripts/test.sh soak`, not by the default suite.
 *
 *   crisp_soak [--cases N] [--seed S] [--kernel K[,K...]] [--impl NAME] [--case I]
 *
 * N cases per kernel and implementation (default CRISP_SOAK_CASES, else
 * 1000000); S the seed (default CRISP_TEST_SEED, else from the clock),
 * printed first. Case I of a kernel draws its inputs from (S, kernel, I)
 * only, so every implementation sees the same inputs and a mismatch is
 * replayed alone with --kernel K --impl NAME --case I. */
#include <gmp.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crisp/crisp.h"

/* ---- random numbers, edge-biased --------------------------------------- */

typedef struct rng {
  uint64_t state;
} rng;

static uint64_t next(rng *g) {
  uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static size_t below(rng *g, size_t bound) {
  return (size_t)(next(g) % bound);
}

static rng case_rng(uint64_t seed, unsigned kernel, uint64_t index) {
  rng g = {seed ^ (0xd1b54a32d192ed03ull * (kernel + 1))};
  g.state ^= next(&g) + index * 0xa0761d6478bd642full;
  next(&g);
  return g;
}

/* One limb: uniform half the time, else a value carries and masks trip on. */
static uint64_t edge_limb(rng *g) {
  const uint64_t r = next(g);
  switch (below(g, 16)) {
    case 0:
      return 0;
    case 1:
      return ~0ull;
    case 2:
      return 1;
    case 3:
      return 1ull << 63;
    case 4:
      return ~0ull - 1;
    case 5:
      return (1ull << 63) - 1;
    case 6:
      return r & next(g) & next(g); /* sparse */
    case 7:
      return r | next(g) | next(g); /* dense */
    default:
      return r;
  }
}

/* n limbs: all ones, all zero, a single bit, or edge limbs one by one. */
static void edge_limbs(rng *g, crisp_limb *x, size_t n) {
  switch (below(g, 10)) {
    case 0:
      for (size_t i = 0; i < n; i++) x[i] = ~0ull;
      break;
    case 1:
      memset(x, 0, n * sizeof *x);
      break;
    case 2:
      memset(x, 0, n * sizeof *x);
      x[below(g, n)] = 1ull << below(g, 64);
      break;
    default:
      for (size_t i = 0; i < n; i++) x[i] = edge_limb(g);
  }
}

/* Mostly small sizes (cheap, and where the unrolled cases live), then the
 * Karatsuba and IFMA sizes, now and then the largest. */
static size_t edge_size(rng *g, size_t max) {
  static const size_t special[] = {8, 16, 20, 24, 32, 33, 40, 47, 48, 49, 64, 96, 128};
  size_t n;
  switch (below(g, 8)) {
    case 0:
    case 1:
    case 2:
      n = 1 + below(g, 8);
      break;
    case 3:
    case 4:
      n = 1 + below(g, 40);
      break;
    case 5:
      n = special[below(g, sizeof special / sizeof special[0])];
      break;
    case 6:
      n = 1 + below(g, 130);
      break;
    default:
      n = 1 + below(g, max);
      break;
  }
  return n < max ? n : max;
}

/* An odd modulus of n limbs with m[n-1] != 0: random, just above 2^(64n-1)
 * (top bit alone plus a small odd tail), just below 2^(64n), all ones, or
 * a tiny top limb. */
static void edge_modulus(rng *g, crisp_limb *m, size_t n) {
  switch (below(g, 6)) {
    case 0:
      memset(m, 0, n * sizeof *m);
      m[n - 1] = 1ull << 63;
      m[0] |= 1 + 2 * below(g, 1000);
      break;
    case 1:
      for (size_t i = 0; i < n; i++) m[i] = ~0ull;
      m[0] -= 2 * below(g, 1000);
      break;
    case 2:
      for (size_t i = 0; i < n; i++) m[i] = ~0ull;
      break;
    case 3:
      edge_limbs(g, m, n);
      m[n - 1] = 1 + below(g, 3);
      break;
    default:
      for (size_t i = 0; i < n; i++) m[i] = next(g);
      break;
  }
  m[0] |= 1;
  if (!m[n - 1]) m[n - 1] = 1;
}

/* x < m: edge values (0, 1, m-1, m-2) or edge limbs reduced by GMP. */
static void edge_below(rng *g, crisp_limb *x, const crisp_limb *m, size_t n) {
  switch (below(g, 8)) {
    case 0:
      memset(x, 0, n * sizeof *x);
      return;
    case 1:
      memset(x, 0, n * sizeof *x), x[0] = n > 1 || m[0] > 1;
      return;
    case 2:
    case 3: {
      memcpy(x, m, n * sizeof *x);
      const crisp_limb step = below(g, 2) + 1; /* m - 1 or m - 2 (m odd, so m - 2 >= 0 unless m == 1) */
      if (n == 1 && x[0] <= step) return (void)(x[0] = 0);
      mpn_sub_1((mp_limb_t *)x, (const mp_limb_t *)x, (mp_size_t)n, step);
      return;
    }
    default: {
      crisp_limb q[CRISP_BN_MONT_MAX_LIMBS + 1];
      edge_limbs(g, x, n);
      mpn_tdiv_qr((mp_limb_t *)q, (mp_limb_t *)x, 0, (const mp_limb_t *)x, (mp_size_t)n, (const mp_limb_t *)m,
                  (mp_size_t)n);
    }
  }
}

/* ---- reporting ---------------------------------------------------------- */

static uint64_t soak_seed;
static int verbose;

static void print_limbs(const char *label, const crisp_limb *x, size_t n) {
  printf("    %s =", label);
  for (size_t i = n; i-- > 0;) printf(" %016llx", (unsigned long long)x[i]);
  printf("\n");
}

static void print_bytes(const char *label, const uint8_t *x, size_t n) {
  printf("    %s = ", label);
  for (size_t i = 0; i < n && i < 64; i++) printf("%02x", x[i]);
  printf(n > 64 ? "... (%zu bytes)\n" : "\n", n);
}

/* ---- Poly1305 against libsodium (every case) and OpenSSL (every 4th) ---- */

static EVP_MAC *openssl_poly1305;

static int openssl_poly1305_tag(uint8_t tag[16], const uint8_t *data, size_t len, const uint8_t key[32]) {
  EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(openssl_poly1305);
  size_t out = 0;
  const int ok = ctx && EVP_MAC_init(ctx, key, 32, NULL) && EVP_MAC_update(ctx, data, len) &&
                 EVP_MAC_final(ctx, tag, &out, 16) && out == 16;
  EVP_MAC_CTX_free(ctx);
  return ok;
}

enum { POLY1305_MAX = 4200 };

/* A key with every clamp bit of r set (the rest of r's bytes clamp away),
 * r small (1, 4 or a power of two), s all ones or zero, or random. */
static void edge_key(rng *g, uint8_t key[32]) {
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)next(g);
  switch (below(g, 6)) {
    case 0:
      memset(key, 0xff, 16);
      break;
    case 1:
      memset(key, 0, 16), key[0] = (uint8_t)(1u << below(g, 3));
      break;
    case 2:
      memset(key, 0xff, 32);
      break;
    case 3:
      memset(key + 16, below(g, 2) ? 0xff : 0, 16);
      break;
    default:
      break;
  }
}

/* With r = 1 the accumulator is the sum of the blocks: 2^128 - 1 and
 * 2^128 - 4 + k (each plus 2^128) sum to p + k, p = 2^130 - 5, for k from
 * -8 to 3, so the final reduction sees h just below, at and just above p. */
static size_t near_prime_message(rng *g, uint8_t key[32], uint8_t *data) {
  memset(key, 0, 16);
  key[0] = 1;
  const int k = (int)below(g, 12) - 8;
  const uint64_t second_low = ~0ull - (uint64_t)(3 - k), high = ~0ull;
  memset(data, 0xff, 16);
  memcpy(data + 16, &second_low, 8), memcpy(data + 24, &high, 8);
  return 32;
}

static size_t edge_message(rng *g, uint8_t key[32], uint8_t *data) {
  static const size_t lengths[] = {0,    1,    15,   16,   17,   31,   32,   63,  64,  65,
                                   127,  128,  129,  255,  256,  511,  512,  513, 767, 768,
                                   1023, 1024, 1151, 1152, 1153, 2048, 4095, 4096};
  if (below(g, 16) == 0) return near_prime_message(g, key, data);
  size_t len;
  switch (below(g, 4)) {
    case 0:
      len = lengths[below(g, sizeof lengths / sizeof lengths[0])];
      break;
    case 1:
      len = below(g, 129);
      break;
    default:
      len = below(g, POLY1305_MAX + 1);
      break;
  }
  switch (below(g, 4)) {
    case 0:
      memset(data, 0xff, len);
      break; /* drives the accumulator high */
    case 1:
      memset(data, 0, len);
      break;
    default:
      for (size_t i = 0; i < len; i += 8) {
        const uint64_t v = edge_limb(g);
        memcpy(data + i, &v, len - i < 8 ? len - i : 8);
      }
  }
  return len;
}

static int poly1305_case(rng *g, uint64_t index) {
  static uint8_t data[POLY1305_MAX + 16];
  static unsigned char context_space[sizeof(crisp_poly1305_ctx) + 64];
  uint8_t key[32], tag[16], stream[16], sodium_tag[16], openssl_tag[16];
  edge_key(g, key);
  const size_t len = edge_message(g, key, data);
  crypto_onetimeauth_poly1305(sodium_tag, data, len, key);
  crisp_poly1305(tag, data, len, key);
  /* the stream in random pieces, its context at a random 8-byte offset */
  crisp_poly1305_ctx *ctx = (crisp_poly1305_ctx *)(context_space + 8 * below(g, 8));
  crisp_poly1305_init(ctx, key);
  for (size_t done = 0; done < len;) {
    size_t piece = below(g, 3) ? below(g, 300) : len - done;
    if (piece > len - done) piece = len - done;
    crisp_poly1305_update(ctx, data + done, piece);
    done += piece;
  }
  crisp_poly1305_final(ctx, stream);
  int bad = memcmp(tag, sodium_tag, 16) != 0 || memcmp(stream, sodium_tag, 16) != 0;
  if (index % 4 == 0)
    bad |= !openssl_poly1305_tag(openssl_tag, data, len, key) || memcmp(tag, openssl_tag, 16);
  if (verbose) {
    print_bytes("key", key, 32);
    print_bytes("message", data, len);
    print_bytes("crisp one-shot", tag, 16);
    print_bytes("crisp stream", stream, 16);
    print_bytes("libsodium", sodium_tag, 16);
    if (index % 4 == 0) print_bytes("OpenSSL", openssl_tag, 16);
  }
  return bad;
}

/* ---- MD5 against OpenSSL ------------------------------------------------- */

enum { MD5_MAX = 4200, MD5_STREAMS = 40 };

/* Lengths around the 56-byte padding boundary and the block size, or any. */
static size_t md5_message(rng *g, uint8_t *data) {
  static const size_t lengths[] = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096};
  const size_t len =
      below(g, 3) ? below(g, MD5_MAX + 1) : lengths[below(g, sizeof lengths / sizeof lengths[0])];
  switch (below(g, 3)) {
    case 0:
      memset(data, 0xff, len);
      break;
    case 1:
      memset(data, 0, len);
      break;
    default:
      for (size_t i = 0; i < len; i += 8) {
        const uint64_t v = next(g);
        memcpy(data + i, &v, len - i < 8 ? len - i : 8);
      }
  }
  return len;
}

static int md5_case(rng *g, uint64_t index) {
  (void)index;
  static uint8_t data[MD5_MAX];
  uint8_t digest[16], stream[16], want[16];
  const size_t len = md5_message(g, data);
  crisp_md5(data, len, digest);
  crisp_md5_ctx ctx;
  crisp_md5_init(&ctx);
  for (size_t done = 0; done < len;) {
    size_t piece = below(g, 2) ? below(g, 200) : len - done;
    if (piece > len - done) piece = len - done;
    crisp_md5_update(&ctx, data + done, piece);
    done += piece;
  }
  crisp_md5_final(&ctx, stream);
  const int ok = EVP_Digest(data, len, want, NULL, EVP_md5(), NULL);
  const int bad = !ok || memcmp(digest, want, 16) != 0 || memcmp(stream, want, 16) != 0;
  if (verbose) {
    print_bytes("message", data, len);
    print_bytes("crisp one-shot", digest, 16), print_bytes("crisp stream", stream, 16);
    print_bytes("OpenSSL", want, 16);
  }
  return bad;
}

/* Up to MD5_STREAMS messages of uneven lengths side by side. */
static int md5_many_case(rng *g, uint64_t index) {
  (void)index;
  static uint8_t data[MD5_STREAMS][MD5_MAX];
  const void *pointers[MD5_STREAMS];
  size_t lengths[MD5_STREAMS];
  uint8_t digests[MD5_STREAMS][16], want[16];
  const size_t n = 1 + below(g, below(g, 4) ? 17 : MD5_STREAMS);
  for (size_t i = 0; i < n; i++) {
    lengths[i] = md5_message(g, data[i]);
    if (below(g, 4)) lengths[i] /= 1 + below(g, 16); /* mostly short: lanes finish at different times */
    pointers[i] = data[i];
  }
  crisp_md5_many(pointers, lengths, n, digests);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    const int differs =
        !EVP_Digest(data[i], lengths[i], want, NULL, EVP_md5(), NULL) || memcmp(digests[i], want, 16);
    if (verbose && differs) {
      printf("    message %zu of %zu:\n", i, n);
      print_bytes("message", data[i], lengths[i]), print_bytes("crisp", digests[i], 16),
          print_bytes("OpenSSL", want, 16);
    }
    bad |= differs;
  }
  return bad;
}

/* ---- products against GMP's mpn ------------------------------------------ */

enum { PRODUCT_MAX = 256 };

static int bn_mul_case(rng *g, uint64_t index) {
  (void)index;
  crisp_limb x[PRODUCT_MAX], y[PRODUCT_MAX], z[2 * PRODUCT_MAX], want[2 * PRODUCT_MAX];
  const size_t xn = edge_size(g, PRODUCT_MAX), yn = below(g, 4) ? xn : edge_size(g, PRODUCT_MAX);
  edge_limbs(g, x, xn), edge_limbs(g, y, yn);
  const int status = crisp_bn_mul(z, x, xn, y, yn);
  if (xn >= yn)
    mpn_mul((mp_limb_t *)want, (const mp_limb_t *)x, (mp_size_t)xn, (const mp_limb_t *)y, (mp_size_t)yn);
  else
    mpn_mul((mp_limb_t *)want, (const mp_limb_t *)y, (mp_size_t)yn, (const mp_limb_t *)x, (mp_size_t)xn);
  const int bad = status != CRISP_OK || memcmp(z, want, (xn + yn) * sizeof *z) != 0;
  if (verbose) {
    print_limbs("x", x, xn), print_limbs("y", y, yn);
    print_limbs("crisp", z, xn + yn), print_limbs("GMP", want, xn + yn);
  }
  return bad;
}

static int bn_sqr_case(rng *g, uint64_t index) {
  (void)index;
  crisp_limb x[PRODUCT_MAX], z[2 * PRODUCT_MAX], want[2 * PRODUCT_MAX];
  const size_t n = edge_size(g, PRODUCT_MAX);
  edge_limbs(g, x, n);
  const int status = crisp_bn_sqr(z, x, n);
  mpn_sqr((mp_limb_t *)want, (const mp_limb_t *)x, (mp_size_t)n);
  const int bad = status != CRISP_OK || memcmp(z, want, 2 * n * sizeof *z) != 0;
  if (verbose) print_limbs("x", x, n), print_limbs("crisp", z, 2 * n), print_limbs("GMP", want, 2 * n);
  return bad;
}

static int bn_mul_add_case(rng *g, uint64_t index) {
  (void)index;
  crisp_limb x[PRODUCT_MAX], z[PRODUCT_MAX], want[PRODUCT_MAX];
  const size_t n = edge_size(g, PRODUCT_MAX);
  const crisp_limb k = edge_limb(g);
  edge_limbs(g, x, n), edge_limbs(g, z, n);
  memcpy(want, z, n * sizeof *z);
  crisp_limb carry = 0;
  const int status = crisp_bn_mul_add(z, x, n, k, &carry);
  const crisp_limb want_carry = mpn_addmul_1((mp_limb_t *)want, (const mp_limb_t *)x, (mp_size_t)n, k);
  const int bad = status != CRISP_OK || carry != want_carry || memcmp(z, want, n * sizeof *z) != 0;
  if (verbose) {
    print_limbs("x", x, n), printf("    k = %016llx\n", (unsigned long long)k);
    print_limbs("crisp", z, n), print_limbs("GMP", want, n);
    printf("    carry crisp %016llx, GMP %016llx\n", (unsigned long long)carry,
           (unsigned long long)want_carry);
  }
  return bad;
}

/* ---- Montgomery and mod_exp against GMP's mpz (and OpenSSL's BN) --------- */

enum { MONT_MAX = 64 };

/* r == a b R^-1 mod m, checked as r < m and r R == a b (mod m). */
static int montgomery_holds(const crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                            const crisp_limb *m, size_t n) {
  mpz_t zr, za, zb, zm, left, right;
  mpz_roinit_n(zr, (const mp_limb_t *)r, (mp_size_t)n), mpz_roinit_n(za, (const mp_limb_t *)a, (mp_size_t)n);
  mpz_roinit_n(zb, (const mp_limb_t *)b, (mp_size_t)n), mpz_roinit_n(zm, (const mp_limb_t *)m, (mp_size_t)n);
  mpz_inits(left, right, NULL);
  mpz_mul_2exp(left, zr, 64 * n), mpz_mod(left, left, zm);
  mpz_mul(right, za, zb), mpz_mod(right, right, zm);
  const int ok = mpz_cmp(zr, zm) < 0 && mpz_cmp(left, right) == 0;
  mpz_clears(left, right, NULL);
  return ok;
}

static BIGNUM *to_bignum(const crisp_limb *x, size_t n) {
  return BN_lebin2bn((const unsigned char *)x, (int)(n * sizeof *x),
                     NULL); /* x86-64 and arm64: little-endian limbs */
}

/* OpenSSL's Montgomery product, R = 2^(64n) as crisp's (BN_MONT_CTX
 * takes R from the modulus' word count, which is n here as m[n-1] != 0). */
static int openssl_montgomery(crisp_limb *out, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                              size_t n) {
  BN_CTX *bn = BN_CTX_new();
  BN_MONT_CTX *mont = BN_MONT_CTX_new();
  BIGNUM *ba = to_bignum(a, n), *bb = to_bignum(b, n), *bm = to_bignum(m, n), *br = BN_new();
  const int ok = bn && mont && ba && bb && bm && br && BN_MONT_CTX_set(mont, bm, bn) &&
                 BN_mod_mul_montgomery(br, ba, bb, mont, bn) &&
                 BN_bn2lebinpad(br, (unsigned char *)out, (int)(n * sizeof *out)) > 0;
  BN_free(ba), BN_free(bb), BN_free(bm), BN_free(br), BN_MONT_CTX_free(mont), BN_CTX_free(bn);
  return ok;
}

static int montgomery_case(rng *g, uint64_t index, int square) {
  crisp_limb m[MONT_MAX], a[MONT_MAX], b[MONT_MAX], r[MONT_MAX], peer[MONT_MAX];
  const size_t n = edge_size(g, MONT_MAX);
  edge_modulus(g, m, n);
  edge_below(g, a, m, n);
  if (square)
    memcpy(b, a, n * sizeof *a);
  else
    edge_below(g, b, m, n);
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);
  const int status = square ? crisp_bn_mont_sqr(r, a, m, n, minv) : crisp_bn_mont_mul(r, a, b, m, n, minv);
  int bad = status != CRISP_OK || !montgomery_holds(r, a, b, m, n);
  if (!bad && index % 16 == 0 && n > 1)
    bad = !openssl_montgomery(peer, a, b, m, n) || memcmp(peer, r, n * sizeof *r) != 0;
  if (verbose) {
    print_limbs("m", m, n), print_limbs("a", a, n);
    if (!square) print_limbs("b", b, n);
    print_limbs("crisp", r, n);
    if (index % 16 == 0 && n > 1) print_limbs("OpenSSL", peer, n);
  }
  return bad;
}

static int bn_mont_mul_case(rng *g, uint64_t index) {
  return montgomery_case(g, index, 0);
}
static int bn_mont_sqr_case(rng *g, uint64_t index) {
  return montgomery_case(g, index, 1);
}

/* Sizes mostly small (a case costs a whole exponentiation); the IFMA
 * exponentiation sizes (16, 24, 32 limbs) now and then with short exponents. */
static int mod_exp_case(rng *g, uint64_t index) {
  crisp_limb m[MONT_MAX], base[MONT_MAX], exponent[MONT_MAX], r[MONT_MAX], want[MONT_MAX];
  static const size_t ifma_sizes[] = {16, 24, 32};
  const size_t n = below(g, 64) == 0 ? ifma_sizes[below(g, 3)] : 1 + below(g, 6);
  const size_t en = n > 8 ? below(g, 2) : below(g, 4);
  edge_modulus(g, m, n);
  edge_below(g, base, m, n);
  edge_limbs(g, exponent, en ? en : 1);
  const int status = crisp_bn_mod_exp(r, base, exponent, en, m, n);
  mpz_t zb, ze, zm, zr;
  mpz_roinit_n(zb, (const mp_limb_t *)base, (mp_size_t)n),
      mpz_roinit_n(zm, (const mp_limb_t *)m, (mp_size_t)n);
  mpz_roinit_n(ze, (const mp_limb_t *)exponent, (mp_size_t)(en ? en : 1));
  if (!en) mpz_roinit_n(ze, NULL, 0);
  mpz_init(zr);
  mpz_powm(zr, zb, ze, zm);
  memset(want, 0, sizeof want);
  mpz_export(want, NULL, -1, sizeof *want, 0, 0, zr);
  mpz_clear(zr);
  int bad = status != CRISP_OK || memcmp(r, want, n * sizeof *r) != 0;
  if (!bad && index % 16 == 0 && en && (n > 1 || m[0] > 1)) {
    BN_CTX *bn = BN_CTX_new();
    BIGNUM *bb = to_bignum(base, n), *be = to_bignum(exponent, en), *bm = to_bignum(m, n), *br = BN_new();
    crisp_limb peer[MONT_MAX] = {0};
    const int ok = bn && bb && be && bm && br && BN_mod_exp_mont_consttime(br, bb, be, bm, bn, NULL) &&
                   BN_bn2lebinpad(br, (unsigned char *)peer, (int)(n * sizeof *peer)) > 0;
    bad = !ok || memcmp(peer, r, n * sizeof *r) != 0;
    BN_free(bb), BN_free(be), BN_free(bm), BN_free(br), BN_CTX_free(bn);
  }
  if (verbose) {
    print_limbs("m", m, n), print_limbs("base", base, n), print_limbs("exponent", exponent, en);
    print_limbs("crisp", r, n), print_limbs("GMP", want, n);
  }
  return bad;
}

/* ---- driver -------------------------------------------------------------- */

typedef struct soak_kernel {
  const char *name;
  crisp_kernel kernel; /* whose implementations are run */
  int (*run)(rng *g, uint64_t index);
  const char *peers;
} soak_kernel;

static const soak_kernel kernels[] = {
    {"md5", CRISP_KERNEL_MD5, md5_case, "OpenSSL EVP md5"},
    {"md5_many", CRISP_KERNEL_MD5_MANY, md5_many_case, "OpenSSL EVP md5, per message"},
    {"poly1305", CRISP_KERNEL_POLY1305, poly1305_case, "libsodium; OpenSSL every 4th"},
    {"bn_mul", CRISP_KERNEL_BN_MUL, bn_mul_case, "GMP mpn_mul"},
    {"bn_sqr", CRISP_KERNEL_BN_SQR, bn_sqr_case, "GMP mpn_sqr"},
    {"bn_mul_add", CRISP_KERNEL_BN_MUL_ADD, bn_mul_add_case, "GMP mpn_addmul_1"},
    {"bn_mont_mul", CRISP_KERNEL_BN_MONT_MUL, bn_mont_mul_case, "GMP mpz; OpenSSL every 16th"},
    {"bn_mont_sqr", CRISP_KERNEL_BN_MONT_SQR, bn_mont_sqr_case, "GMP mpz; OpenSSL every 16th"},
    {"mod_exp", CRISP_KERNEL_BN_MONT_MUL, mod_exp_case, "GMP mpz_powm; OpenSSL every 16th"},
};
enum { KERNEL_COUNT = sizeof kernels / sizeof kernels[0] };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int listed(const char *list, const char *name) {
  if (!list) return 1;
  const size_t len = strlen(name);
  for (const char *p = list; *p;) {
    const size_t item = strcspn(p, ",");
    if (item == len && !strncmp(p, name, len)) return 1;
    p += item + (p[item] == ',');
  }
  return 0;
}

/* Pins the implementation (mod_exp: mont_mul and mont_sqr together). */
static void pin(const soak_kernel *k, const char *impl) {
  crisp_use_impl(k->kernel, impl);
  if (k->run == mod_exp_case && crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, impl) != CRISP_OK)
    crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL);
}

int main(int argc, char **argv) {
  const char *env_cases = getenv("CRISP_SOAK_CASES"), *env_seed = getenv("CRISP_TEST_SEED");
  uint64_t cases = env_cases && *env_cases ? strtoull(env_cases, NULL, 0) : 1000000;
  soak_seed =
      env_seed && *env_seed ? strtoull(env_seed, NULL, 0) : (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
  const char *only_kernels = NULL, *only_impl = NULL;
  long long single = -1;
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--cases") && value)
      cases = strtoull(value, NULL, 0), i++;
    else if (!strcmp(argv[i], "--seed") && value)
      soak_seed = strtoull(value, NULL, 0), i++;
    else if (!strcmp(argv[i], "--kernel") && value)
      only_kernels = value, i++;
    else if (!strcmp(argv[i], "--impl") && value)
      only_impl = value, i++;
    else if (!strcmp(argv[i], "--case") && value)
      single = strtoll(value, NULL, 0), i++;
    else {
      fprintf(stderr, "usage: %s [--cases N] [--seed S] [--kernel K[,K...]] [--impl NAME] [--case I]\n",
              argv[0]);
      return 2;
    }
  }
  if (sodium_init() < 0 || !(openssl_poly1305 = EVP_MAC_fetch(NULL, "POLY1305", NULL))) {
    fprintf(stderr, "soak: libsodium or OpenSSL's Poly1305 is not available\n");
    return 2;
  }
  verbose = single >= 0; /* one case: print its inputs and outputs */
  printf(
      "# soak seed 0x%016llx (replay: CRISP_TEST_SEED=0x%016llx or --seed), %llu cases per kernel and "
      "implementation\n",
      (unsigned long long)soak_seed, (unsigned long long)soak_seed, (unsigned long long)cases);
  unsigned long long mismatches = 0, total = 0;
  const double start = now();
  for (unsigned k = 0; k < KERNEL_COUNT; k++) {
    const soak_kernel *kernel = &kernels[k];
    if (!listed(only_kernels, kernel->name)) continue;
    for (size_t i = 0; i < crisp_impl_count(kernel->kernel); i++) {
      const char *impl = crisp_impl_name_at(kernel->kernel, i);
      if (!crisp_impl_supported_at(kernel->kernel, i) || (only_impl && strcmp(impl, only_impl))) continue;
      pin(kernel, impl);
      const uint64_t first = single >= 0 ? (uint64_t)single : 0, end = single >= 0 ? first + 1 : cases;
      unsigned long long bad = 0;
      const double began = now();
      for (uint64_t c = first; c < end; c++) {
        rng g = case_rng(soak_seed, k, c);
        if (verbose) printf("  %s %s case %llu:\n", kernel->name, impl, (unsigned long long)c);
        if (kernel->run(&g, c)) {
          if (bad < 5 && !verbose) {
            printf(
                "MISMATCH %s %s case %llu: replay with --seed 0x%016llx --kernel %s --impl %s --case %llu\n",
                kernel->name, impl, (unsigned long long)c, (unsigned long long)soak_seed, kernel->name, impl,
                (unsigned long long)c);
            /* the case again, from the same inputs, printing them */
            rng again = case_rng(soak_seed, k, c);
            verbose = 1;
            kernel->run(&again, c);
            verbose = 0;
          }
          bad++;
        }
      }
      const double seconds = now() - began;
      printf("%-12s %-12s %10llu cases %6llu mismatches %8.1f s %10.0f cases/s  (vs %s)\n", kernel->name,
             impl, (unsigned long long)(end - first), bad, seconds,
             (double)(end - first) / (seconds > 0 ? seconds : 1e-9), kernel->peers);
      fflush(stdout);
      mismatches += bad, total += end - first;
    }
    crisp_use_impl(kernel->kernel, NULL);
    crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL);
  }
  EVP_MAC_free(openssl_poly1305);
  printf("soak: %llu cases, %llu mismatches, %.1f s\n", total, mismatches, now() - start);
  return mismatches ? 1 : 0;
}
