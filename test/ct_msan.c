/* test/ct_msan.c - constant-time check of Poly1305, ChaCha20 and its
 * AEADs, and the bignum kernels under MemorySanitizer, for every
 * implementation this CPU supports, AVX-512 and IFMA included (stage
 * ct-msan). Secret inputs are poisoned
 * (ct_secret): MemorySanitizer then reports, and stops the program at, any
 * conditional branch or memory address computed from them, in C and in
 * intrinsics alike, and (test/ct_msan_copies.h) at any memcpy, memmove,
 * memset or memcmp given a secret address or length. Products of secrets
 * stay secret, so every result is declassified (ct_declassify) before it is
 * compared with the generic implementation's on the same, unpoisoned,
 * inputs. Inline assembly is
 * opaque to MemorySanitizer: test/ct_msan_ignore.txt lists the asm functions,
 * whose results come out declassified, and docs/hardening.md
 * ("Constant-time evidence") says which kernels that leaves to the timing
 * test and memcheck. */
#include <sanitizer/msan_interface.h>

#include "ct_common.h"
#include "ct_rsa_keys.h"

/* Marks len bytes at p secret: MemorySanitizer treats them as uninitialised. */
static void ct_secret(const void *p, size_t len) {
  __msan_poison(p, len);
}

/* Marks a result public again, once it is meant to be (a tag, a product). */
static void ct_declassify(const void *p, size_t len) {
  __msan_unpoison(p, len);
}

#define MAX_IMPLS 8
#define MAX_MESSAGE 4200

/* Block boundaries, the 4-, 8- and 16-block widths of the vector kernels,
 * their cold and warm crossovers (512 B, 768 B, 1152 B), the AEAD open's
 * buffer and keyed-entry limits (1984 B, 2048 B), long messages. */
static const size_t lengths[] = {0,    1,    15,   16,   17,   63,   64,   65,   127, 128,
                                 129,  255,  256,  257,  511,  512,  513,  767,  768, 1000,
                                 1031, 1152, 1153, 1984, 1985, 2047, 2048, 4096, 4111};

static unsigned long checks;

static void generic_tag(uint8_t tag[16], const uint8_t *message, size_t len, const uint8_t key[32]) {
  ct_pin(CRISP_KERNEL_POLY1305, "generic");
  crisp_poly1305(tag, message, len, key);
  ct_pin(CRISP_KERNEL_POLY1305, NULL);
}

static void check_tag(const uint8_t tag[16], const uint8_t expected[16], const char *how, const char *name,
                      size_t len) {
  if (memcmp(tag, expected, 16) != 0) ct_fail("poly1305 %s %s: len=%zu differs from generic", how, name, len);
  checks++;
}

static void poly1305_case(const char *name, const uint8_t *message, size_t len, const uint8_t key[32]) {
  static uint8_t secret_message[MAX_MESSAGE];
  uint8_t secret_key[32], expected[16], tag[16], wrong[16];
  generic_tag(expected, message, len, key);
  ct_pin(CRISP_KERNEL_POLY1305, name);

  memcpy(secret_key, key, 32);
  memcpy(secret_message, message, len);
  ct_secret(secret_key, 32);
  ct_secret(secret_message, len);
  crisp_poly1305(tag, secret_message, len, secret_key);
  ct_declassify(tag, 16);
  check_tag(tag, expected, "one-shot", name, len);

  /* a stream cut at public points: short pieces through the front-end's
   * buffer, then long ones that reach the vector loops warm */
  memcpy(secret_key, key, 32);
  ct_secret(secret_key, 32);
  crisp_poly1305_ctx ctx;
  crisp_poly1305_init(&ctx, secret_key);
  for (size_t done = 0, piece = 1; done < len; done += piece, piece = piece * 3 + 7) {
    if (piece > len - done) piece = len - done;
    crisp_poly1305_update(&ctx, secret_message + done, piece);
  }
  crisp_poly1305_final(&ctx, tag);
  ct_declassify(tag, 16);
  check_tag(tag, expected, "stream", name, len);

  /* 64-byte updates: past the warm crossover every block goes through a
   * vector kernel's stream state (blocks waiting, single steps) */
  memcpy(secret_key, key, 32);
  ct_secret(secret_key, 32);
  crisp_poly1305_init(&ctx, secret_key);
  for (size_t done = 0; done < len; done += 64)
    crisp_poly1305_update(&ctx, secret_message + done, len - done < 64 ? len - done : 64);
  crisp_poly1305_final(&ctx, tag);
  ct_declassify(tag, 16);
  check_tag(tag, expected, "64-byte updates", name, len);

  /* verify: only its public answer is declassified */
  memcpy(wrong, expected, 16);
  wrong[len % 16] ^= 0x10;
  for (int bad = 0; bad < 2; bad++) {
    memcpy(secret_key, key, 32);
    ct_secret(secret_key, 32);
    int status = crisp_poly1305_verify(bad ? wrong : expected, secret_message, len, secret_key);
    ct_declassify(&status, sizeof status);
    if (status != (bad ? CRISP_E_MISMATCH : CRISP_OK))
      ct_fail("poly1305_verify %s: len=%zu %s tag gave %d", name, len, bad ? "wrong" : "right", status);
    checks++;
  }
  ct_declassify(secret_message, len);
  ct_pin(CRISP_KERNEL_POLY1305, NULL);
}

static void test_poly1305(void) {
  static uint8_t message[MAX_MESSAGE];
  const char *names[MAX_IMPLS];
  const size_t count = ct_supported(CRISP_KERNEL_POLY1305, names, MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    const unsigned long before = checks;
    for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
      uint8_t key[32];
      /* every third case all ones: the longest carries, every clamp bit set */
      if (c % 3 == 2) {
        memset(key, 0xff, 32);
        memset(message, 0xff, lengths[c]);
      } else {
        test_fill_random(key, 32);
        test_fill_random(message, lengths[c]);
      }
      poly1305_case(names[i], message, lengths[c], key);
    }
    printf("# poly1305 %-12s key and message secret: %lu checks\n", names[i], checks - before);
  }
}

/* ChaCha20 and the AEADs with key and plaintext secret, every ChaCha20
 * implementation (the AEAD's Poly1305 is the dispatched one). The opens
 * (one-shot, XChaCha one-shot, streamed with open_final's tag comparison),
 * apart and in place, right and wrong tag, on every length: the one-shot
 * opens branch once on the verdict, which the caller learns anyway, in
 * release_verified (test/ct_msan_ignore.txt). */
static void chacha20_case(const char *name, const uint8_t *message, size_t len, const uint8_t key[32]) {
  static uint8_t secret_message[MAX_MESSAGE], want[MAX_MESSAGE], got[MAX_MESSAGE], opened[MAX_MESSAGE];
  static const uint8_t nonce[24] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
  static const uint8_t ad[13] = {0xad};
  uint8_t secret_key[32], want_tag[16], tag[16];
  for (int x = 0; x < 3; x++) {
    ct_pin(CRISP_KERNEL_CHACHA20, "generic");
    if (x == 0) crisp_chacha20(want, message, len, key, nonce, 3);
    if (x == 1) crisp_chacha20_poly1305_seal(want, want_tag, message, len, ad, sizeof ad, nonce, key);
    if (x == 2) crisp_xchacha20_poly1305_seal(want, want_tag, message, len, ad, sizeof ad, nonce, key);
    ct_pin(CRISP_KERNEL_CHACHA20, name);
    memcpy(secret_key, key, 32);
    memcpy(secret_message, message, len);
    ct_secret(secret_key, 32);
    ct_secret(secret_message, len);
    int status =
        x == 0 ? crisp_chacha20(got, secret_message, len, secret_key, nonce, 3)
        : x == 1
            ? crisp_chacha20_poly1305_seal(got, tag, secret_message, len, ad, sizeof ad, nonce, secret_key)
            : crisp_xchacha20_poly1305_seal(got, tag, secret_message, len, ad, sizeof ad, nonce, secret_key);
    ct_declassify(&status, sizeof status);
    ct_declassify(got, len);
    ct_declassify(tag, 16);
    if (status != CRISP_OK || memcmp(got, want, len) != 0 || (x && memcmp(tag, want_tag, 16) != 0))
      ct_fail("chacha20 %s: call %d len=%zu differs from generic", name, x, len);
    checks++;
  }
  /* streaming seal at public cuts, against generic's one-shot seal */
  ct_pin(CRISP_KERNEL_CHACHA20, "generic");
  crisp_chacha20_poly1305_seal(want, want_tag, message, len, ad, sizeof ad, nonce, key);
  ct_pin(CRISP_KERNEL_CHACHA20, name);
  memcpy(secret_key, key, 32);
  ct_secret(secret_key, 32);
  crisp_chacha20_poly1305_ctx ctx;
  crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, secret_key, ad, sizeof ad);
  for (size_t done = 0, piece = 1; done < len; done += piece, piece = piece * 3 + 7) {
    if (piece > len - done) piece = len - done;
    crisp_chacha20_poly1305_stream_update(&ctx, got + done, secret_message + done, piece);
  }
  crisp_chacha20_poly1305_stream_seal_final(&ctx, tag);
  ct_declassify(got, len);
  ct_declassify(tag, 16);
  if (memcmp(got, want, len) != 0 || memcmp(tag, want_tag, 16) != 0)
    ct_fail("chacha20 %s: stream len=%zu differs from generic", name, len);
  checks++;
  /* the opens: one-shot (kind 0), XChaCha one-shot (1), streamed at public
   * cuts with open_final's tag comparison (2) */
  static uint8_t xwant[MAX_MESSAGE];
  uint8_t xwant_tag[16];
  ct_pin(CRISP_KERNEL_CHACHA20, "generic");
  crisp_xchacha20_poly1305_seal(xwant, xwant_tag, message, len, ad, sizeof ad, nonce, key);
  ct_pin(CRISP_KERNEL_CHACHA20, name);
  static const char *const kinds[3] = {"chacha20_poly1305_open", "xchacha20_poly1305_open",
                                       "chacha20_poly1305 streamed open"};
  for (int kind = 0; kind < 3; kind++) {
    const uint8_t *sealed = kind == 1 ? xwant : want;
    uint8_t *sealed_tag = kind == 1 ? xwant_tag : want_tag;
    for (int in_place = 0; in_place < 2; in_place++) {
      for (int bad = 0; bad < 2; bad++) {
        memcpy(secret_key, key, 32);
        ct_secret(secret_key, 32);
        if (in_place) memcpy(opened, sealed, len);
        if (!in_place) memset(opened, 0xa5, len);
        sealed_tag[len % 16] ^= (uint8_t)bad;
        const uint8_t *in = in_place ? opened : sealed;
        int status;
        if (kind == 0)
          status =
              crisp_chacha20_poly1305_open(opened, in, len, sealed_tag, ad, sizeof ad, nonce, secret_key);
        else if (kind == 1)
          status =
              crisp_xchacha20_poly1305_open(opened, in, len, sealed_tag, ad, sizeof ad, nonce, secret_key);
        else {
          crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, secret_key, ad, sizeof ad);
          for (size_t done = 0, piece = 1; done < len; done += piece, piece = piece * 3 + 7) {
            if (piece > len - done) piece = len - done;
            crisp_chacha20_poly1305_stream_update(&ctx, opened + done, in + done, piece);
          }
          status = crisp_chacha20_poly1305_stream_open_final(&ctx, sealed_tag);
        }
        sealed_tag[len % 16] ^= (uint8_t)bad;
        ct_declassify(&status, sizeof status);
        ct_declassify(opened, len);
        /* a one-shot open of a forgery leaves the output as it was; the
         * streamed open has handed out the plaintext before its tag */
        int wrong = 0;
        for (size_t i = 0; i < len; i++)
          wrong |= opened[i] != (!bad || kind == 2 ? message[i] : in_place ? sealed[i] : 0xa5);
        if (status != (bad ? CRISP_E_MISMATCH : CRISP_OK) || wrong)
          ct_fail("%s %s %s: len=%zu %s tag gave %d", kinds[kind], name, in_place ? "in place" : "apart", len,
                  bad ? "wrong" : "right", status);
        checks++;
      }
    }
  }
  ct_declassify(secret_message, len);
  ct_pin(CRISP_KERNEL_CHACHA20, NULL);
}

static void test_chacha20(void) {
  static uint8_t message[MAX_MESSAGE];
  const char *names[MAX_IMPLS];
  const size_t count = ct_supported(CRISP_KERNEL_CHACHA20, names, MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    const unsigned long before = checks;
    for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
      uint8_t key[32];
      test_fill_random(key, 32);
      test_fill_random(message, lengths[c]);
      chacha20_case(names[i], message, lengths[c], key);
    }
    printf("# chacha20 %-12s key and plaintext secret: %lu checks\n", names[i], checks - before);
  }
}

/* Kernel-special sizes (8 and 16 unrolled, 16/24/32/48/64 IFMA, 32 and 48
 * Karatsuba), odd sizes around them, tiny ones. */
static const size_t sizes[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64};

/* The front-ends' products of secret operands: the results are declassified. */
static void test_products(void) {
  const char *names[MAX_IMPLS];
  const crisp_kernel kernels[] = {CRISP_KERNEL_BN_MUL, CRISP_KERNEL_BN_SQR, CRISP_KERNEL_BN_MUL_ADD};
  for (size_t kk = 0; kk < 3; kk++) {
    const crisp_kernel kernel = kernels[kk];
    const size_t count = ct_supported(kernel, names, MAX_IMPLS);
    for (size_t i = 0; i < count; i++) {
      const unsigned long before = checks;
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s], xn = n + n / 3; /* unequal lengths too */
        if (n < ct_min_limbs()) continue;
        crisp_limb x[2 * CT_MAX_LIMBS], y[CT_MAX_LIMBS], expected[4 * CT_MAX_LIMBS], z[4 * CT_MAX_LIMBS];
        test_fill_random(x, sizeof x);
        test_fill_random(y, sizeof y);
        crisp_limb k = y[0], carry_expected = 0, carry = 0;
        ct_pin(kernel, "generic");
        if (kernel == CRISP_KERNEL_BN_MUL) crisp_bn_mul(expected, x, xn, y, n);
        if (kernel == CRISP_KERNEL_BN_SQR) crisp_bn_sqr(expected, x, n);
        if (kernel == CRISP_KERNEL_BN_MUL_ADD) {
          memcpy(expected, x + n, n * sizeof(crisp_limb));
          crisp_bn_mul_add(expected, x, n, k, &carry_expected);
        }
        ct_pin(kernel, names[i]);
        ct_secret(x, sizeof x);
        ct_secret(y, sizeof y);
        ct_secret(&k, sizeof k);
        size_t out = 2 * n;
        if (kernel == CRISP_KERNEL_BN_MUL) crisp_bn_mul(z, x, xn, y, n), out = xn + n;
        if (kernel == CRISP_KERNEL_BN_SQR) crisp_bn_sqr(z, x, n);
        if (kernel == CRISP_KERNEL_BN_MUL_ADD) {
          memcpy(z, x + n, n * sizeof(crisp_limb));
          crisp_bn_mul_add(z, x, n, k, &carry), out = n;
        }
        ct_declassify(z, out * sizeof(crisp_limb));
        ct_declassify(&carry, sizeof carry);
        if (memcmp(z, expected, out * sizeof(crisp_limb)) != 0 || carry != carry_expected)
          ct_fail("%s %s: n=%zu differs from generic", crisp_kernel_name(kernel), names[i], n);
        checks++;
        ct_pin(kernel, NULL);
      }
      printf("# %-11s %-12s operands secret: %lu checks\n", crisp_kernel_name(kernel), names[i],
             checks - before);
    }
  }
}

static void test_montgomery(void) {
  const char *names[MAX_IMPLS];
  for (int square = 0; square < 2; square++) {
    const crisp_kernel kernel = square ? CRISP_KERNEL_BN_MONT_SQR : CRISP_KERNEL_BN_MONT_MUL;
    const size_t count = ct_supported(kernel, names, MAX_IMPLS);
    for (size_t i = 0; i < count; i++) {
      const unsigned long before = checks;
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s];
        if (n < ct_min_limbs()) continue;
        crisp_limb m[CT_MAX_LIMBS], a[CT_MAX_LIMBS], b[CT_MAX_LIMBS], expected[CT_MAX_LIMBS], r[CT_MAX_LIMBS];
        ct_make_modulus(m, n);
        ct_make_below(a, m, n);
        ct_make_below(b, m, n);
        const crisp_limb minv = crisp_bn_mont_inv(m[0]);
        ct_pin(kernel, "generic");
        int status = square ? crisp_bn_mont_sqr(expected, a, m, n, minv)
                            : crisp_bn_mont_mul(expected, a, b, m, n, minv);
        if (status != CRISP_OK) ct_fail("generic mont: %d", status);
        ct_pin(kernel, names[i]);
        ct_secret(a, sizeof a);
        ct_secret(b, sizeof b);
        status = square ? crisp_bn_mont_sqr(r, a, m, n, minv) : crisp_bn_mont_mul(r, a, b, m, n, minv);
        ct_declassify(&status, sizeof status);
        ct_declassify(r, n * sizeof(crisp_limb));
        if (status != CRISP_OK || memcmp(r, expected, n * sizeof(crisp_limb)) != 0)
          ct_fail("%s %s: n=%zu differs from generic (status %d)", crisp_kernel_name(kernel), names[i], n,
                  status);
        checks++;
        ct_pin(kernel, NULL);
      }
      printf("# %-11s %-12s operands secret: %lu checks\n", crisp_kernel_name(kernel), names[i],
             checks - before);
    }
  }
}

/* Exponent lengths: the 3-, 4- and 5-bit windows, a partial top window. */
static const size_t exponent_limbs[] = {1, 3, 9};

static void test_mod_exp(void) {
  const char *names[MAX_IMPLS];
  const size_t count = ct_supported(CRISP_KERNEL_BN_MONT_MUL, names, MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    const unsigned long before = checks;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const size_t n = sizes[s];
      if (n < ct_min_limbs()) continue;
      for (size_t e = 0; e < sizeof exponent_limbs / sizeof exponent_limbs[0]; e++) {
        const size_t en = exponent_limbs[e];
        if (n > 16 && en > 3 && n % 8 != 0) continue; /* the long ladders only where kernels differ */
        crisp_limb m[CT_MAX_LIMBS], base[CT_MAX_LIMBS], exp[16], expected[CT_MAX_LIMBS], r[CT_MAX_LIMBS];
        ct_make_modulus(m, n);
        ct_make_below(base, m, n);
        test_fill_random(exp, sizeof exp);
        ct_pin_montgomery("generic");
        if (crisp_bn_mod_exp(expected, base, exp, en, m, n) != CRISP_OK) ct_fail("generic mod_exp");
        ct_pin_montgomery(names[i]);
        ct_secret(base, sizeof base);
        ct_secret(exp, sizeof exp);
        int status = crisp_bn_mod_exp(r, base, exp, en, m, n);
        ct_declassify(&status, sizeof status);
        ct_declassify(r, n * sizeof(crisp_limb));
        if (status != CRISP_OK || memcmp(r, expected, n * sizeof(crisp_limb)) != 0)
          ct_fail("bn_mod_exp %s: n=%zu en=%zu differs from generic (status %d)", names[i], n, en, status);
        checks++;
      }
    }
    ct_pin(CRISP_KERNEL_BN_MONT_MUL, NULL);
    ct_pin(CRISP_KERNEL_BN_MONT_SQR, NULL);
    printf("# bn_mod_exp  %-12s base and exponent secret: %lu checks\n", names[i], checks - before);
  }
}

/* Two exponentiations at once: both bases and both exponents secret. */
static void test_mod_exp2(void) {
  const char *names[MAX_IMPLS];
  const size_t count = ct_supported(CRISP_KERNEL_BN_MOD_EXP2, names, MAX_IMPLS);
  static const size_t mod_exp2_sizes[] = {2, 16, 17, 24, 32};
  for (size_t i = 0; i < count; i++) {
    const unsigned long before = checks;
    for (size_t s = 0; s < sizeof mod_exp2_sizes / sizeof mod_exp2_sizes[0]; s++) {
      const size_t n = mod_exp2_sizes[s], en = 3;
      if (n < ct_min_limbs()) continue;
      crisp_limb m0[CT_MAX_LIMBS], m1[CT_MAX_LIMBS], b0[CT_MAX_LIMBS], b1[CT_MAX_LIMBS], e0[4], e1[4];
      crisp_limb want0[CT_MAX_LIMBS], want1[CT_MAX_LIMBS], r0[CT_MAX_LIMBS], r1[CT_MAX_LIMBS];
      ct_make_modulus(m0, n);
      ct_make_modulus(m1, n);
      ct_make_below(b0, m0, n);
      ct_make_below(b1, m1, n);
      test_fill_random(e0, sizeof e0);
      test_fill_random(e1, sizeof e1);
      ct_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
      ct_pin_montgomery("generic");
      if (crisp_bn_mod_exp2(want0, want1, b0, b1, e0, e1, en, m0, m1, n) != CRISP_OK)
        ct_fail("generic mod_exp2");
      ct_pin(CRISP_KERNEL_BN_MONT_MUL, NULL);
      ct_pin(CRISP_KERNEL_BN_MONT_SQR, NULL);
      ct_pin(CRISP_KERNEL_BN_MOD_EXP2, names[i]);
      ct_secret(b0, sizeof b0);
      ct_secret(b1, sizeof b1);
      ct_secret(e0, sizeof e0);
      ct_secret(e1, sizeof e1);
      int status = crisp_bn_mod_exp2(r0, r1, b0, b1, e0, e1, en, m0, m1, n);
      ct_declassify(&status, sizeof status);
      ct_declassify(r0, n * sizeof(crisp_limb));
      ct_declassify(r1, n * sizeof(crisp_limb));
      if (status != CRISP_OK || memcmp(r0, want0, n * sizeof *r0) || memcmp(r1, want1, n * sizeof *r1))
        ct_fail("bn_mod_exp2 %s: n=%zu differs from generic (status %d)", names[i], n, status);
      checks++;
    }
    ct_pin(CRISP_KERNEL_BN_MOD_EXP2, NULL);
    printf("# bn_mod_exp2 %-12s bases and exponents secret: %lu checks\n", names[i], checks - before);
  }
}

/* The RSA private operation: c, p, q, dp, dq and qinv secret, all but the
 * lowest byte of p and q (their parity, public for any prime but 2, which
 * crisp_bn_mont_inv tests). The key is random (odd "primes" with their top
 * bit set): the status is then CRISP_E_INVALID (qinv is not q^-1 mod p),
 * after the same work. */
static void test_crt(void) {
  const char *names[MAX_IMPLS];
  const size_t count = ct_supported(CRISP_KERNEL_BN_MOD_EXP2, names, MAX_IMPLS);
  static const size_t halves[] = {2, 16, 24};
  for (size_t i = 0; i < count; i++) {
    const unsigned long before = checks;
    for (size_t s = 0; s < sizeof halves / sizeof halves[0]; s++) {
      const size_t h = halves[s];
      if (h < ct_min_limbs()) continue;
      crisp_limb p[CT_MAX_LIMBS], q[CT_MAX_LIMBS], dp[CT_MAX_LIMBS], dq[CT_MAX_LIMBS], qinv[CT_MAX_LIMBS];
      crisp_limb c[2 * CT_MAX_LIMBS], want[2 * CT_MAX_LIMBS], r[2 * CT_MAX_LIMBS];
      const crisp_limb e[1] = {65537};
      ct_make_modulus(p, h);
      ct_make_modulus(q, h);
      test_fill_random(dp, h * sizeof *dp);
      test_fill_random(dq, h * sizeof *dq);
      ct_make_below(qinv, p, h);
      test_fill_random(c, 2 * h * sizeof *c);
      c[2 * h - 1] >>= 2;
      memset(want, 0, sizeof want);
      memset(r, 0, sizeof r);
      ct_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
      ct_pin_montgomery("generic");
      const int want_status = crisp_bn_mod_exp_crt(want, c, p, q, dp, dq, qinv, h, e, 1);
      ct_pin(CRISP_KERNEL_BN_MONT_MUL, NULL);
      ct_pin(CRISP_KERNEL_BN_MONT_SQR, NULL);
      ct_pin(CRISP_KERNEL_BN_MOD_EXP2, names[i]);
      ct_secret(c, 2 * h * sizeof *c);
      ct_secret(p, h * sizeof *p);
      ct_secret(q, h * sizeof *q);
      ct_declassify(p, 1);
      ct_declassify(q, 1);
      ct_secret(dp, h * sizeof *dp);
      ct_secret(dq, h * sizeof *dq);
      ct_secret(qinv, h * sizeof *qinv);
      int status = crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qinv, h, e, 1);
      ct_declassify(&status, sizeof status);
      ct_declassify(r, 2 * h * sizeof *r);
      if (status != want_status || memcmp(r, want, 2 * h * sizeof *r))
        ct_fail("crisp_bn_mod_exp_crt %s: half=%zu differs from generic (status %d)", names[i], h, status);
      checks++;
    }
    ct_pin(CRISP_KERNEL_BN_MOD_EXP2, NULL);
    printf("# rsa crt     %-12s c and the key secret: %lu checks\n", names[i], checks - before);
  }
}

/* The prepared key (crisp_bn_crt_key_new, crisp_bn_crt_key_exp): key_new
 * with p, q, dp, dq and qinv secret as in test_crt, then key_exp with c
 * secret on that key, whose copies and what key_new derived from them (p q,
 * R^2 mod p and mod q) stay poisoned. Real keys (ct_rsa_keys.h), so key_exp
 * returns the generic one-call result; a key with a random qinv must be
 * refused with the one-call status, and c = 2^(128 half) - 1 (secret)
 * must give CRISP_E_RANGE with r untouched. key_new's one branch on its
 * own status (to free a refused key) is test/ct_msan_ignore.txt's
 * crisp_bn_crt_key_new. */
static void test_crt_key(void) {
  const char *names[MAX_IMPLS];
  const size_t count = ct_supported(CRISP_KERNEL_BN_MOD_EXP2, names, MAX_IMPLS);
  static const size_t halves[] = {2, 16, 24};
  enum { SIZES = sizeof halves / sizeof halves[0] };
  static ct_rsa_key keys[SIZES];
  static crisp_limb bad_qinv[SIZES][CT_MAX_LIMBS / 2], cipher[SIZES][CT_MAX_LIMBS], want[SIZES][CT_MAX_LIMBS];
  static int refused_status[SIZES];
  const crisp_limb e[1] = {CT_RSA_E};
  for (size_t s = 0; s < SIZES; s++) {
    const size_t h = halves[s];
    if (h < ct_min_limbs()) continue;
    ct_rsa_key_make(&keys[s], h);
    ct_make_below(bad_qinv[s], keys[s].p, h);
    test_fill_random(cipher[s], 2 * h * sizeof(crisp_limb));
    cipher[s][2 * h - 1] >>= 2;
    ct_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
    ct_pin_montgomery("generic");
    const ct_rsa_key *k = &keys[s];
    if (crisp_bn_mod_exp_crt(want[s], cipher[s], k->p, k->q, k->dp, k->dq, k->qinv, h, e, 1) != CRISP_OK)
      ct_fail("generic crisp_bn_mod_exp_crt on a real key, half=%zu", h);
    /* public inputs, but the asm rows (ct_msan_ignore.txt) leave the
     * malloc'd scratch's poison on the product they write, which r takes */
    ct_declassify(want[s], 2 * h * sizeof(crisp_limb));
    crisp_limb refused[CT_MAX_LIMBS];
    refused_status[s] =
        crisp_bn_mod_exp_crt(refused, cipher[s], k->p, k->q, k->dp, k->dq, bad_qinv[s], h, e, 1);
    ct_pin(CRISP_KERNEL_BN_MONT_MUL, NULL);
    ct_pin(CRISP_KERNEL_BN_MONT_SQR, NULL);
  }
  for (size_t i = 0; i < count; i++) {
    const unsigned long before = checks;
    ct_pin(CRISP_KERNEL_BN_MOD_EXP2, names[i]);
    for (size_t s = 0; s < SIZES; s++) {
      const size_t h = halves[s], wide = 2 * h * sizeof(crisp_limb);
      if (h < ct_min_limbs()) continue;
      ct_rsa_key key;
      crisp_limb qinv[CT_MAX_LIMBS / 2], c[CT_MAX_LIMBS], above[CT_MAX_LIMBS], r[CT_MAX_LIMBS];
      crisp_bn_crt_key *prepared = NULL;
      for (int good = 0; good < 2; good++) {
        memcpy(&key, &keys[s], sizeof key);
        memcpy(qinv, good ? keys[s].qinv : bad_qinv[s], sizeof qinv);
        ct_secret(key.p, h * sizeof(crisp_limb));
        ct_secret(key.q, h * sizeof(crisp_limb));
        ct_declassify(key.p, 1);
        ct_declassify(key.q, 1);
        ct_secret(key.dp, h * sizeof(crisp_limb));
        ct_secret(key.dq, h * sizeof(crisp_limb));
        ct_secret(qinv, h * sizeof(crisp_limb));
        int status = crisp_bn_crt_key_new(&prepared, key.p, key.q, key.dp, key.dq, qinv, h, e, 1);
        ct_declassify(&status, sizeof status);
        if (status != (good ? CRISP_OK : refused_status[s]) || (prepared != NULL) != good)
          ct_fail("crisp_bn_crt_key_new %s: half=%zu, %s key: status %d", names[i], h,
                  good ? "real" : "refused", status);
        checks++;
      }
      /* only the prepared key holds the values now */
      memset(&key, 0, sizeof key);
      memcpy(c, cipher[s], wide);
      ct_secret(c, wide);
      memset(r, 0, sizeof r);
      int status = crisp_bn_crt_key_exp(r, c, prepared);
      ct_declassify(&status, sizeof status);
      ct_declassify(r, wide);
      if (status != CRISP_OK || memcmp(r, want[s], wide))
        ct_fail("crisp_bn_crt_key_exp %s: half=%zu differs from generic (status %d)", names[i], h, status);
      checks++;
      memset(above, 0xff, wide);
      ct_secret(above, wide);
      memset(r, 0xa5, sizeof r);
      status = crisp_bn_crt_key_exp(r, above, prepared);
      ct_declassify(&status, sizeof status);
      ct_declassify(r, wide);
      int untouched = 1;
      for (size_t j = 0; j < wide; j++) untouched &= ((const uint8_t *)r)[j] == 0xa5;
      if (status != CRISP_E_RANGE || !untouched)
        ct_fail("crisp_bn_crt_key_exp %s: half=%zu, c >= p q: status %d, r %s", names[i], h, status,
                untouched ? "untouched" : "written");
      checks++;
      crisp_bn_crt_key_free(prepared);
    }
    ct_pin(CRISP_KERNEL_BN_MOD_EXP2, NULL);
    printf("# rsa crt key %-12s c and the key secret: %lu checks\n", names[i], checks - before);
  }
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* a report ends the program with _exit */
  test_seed(0x6d73616e63ull);
  /* The check itself: a poisoned byte must read as poisoned. */
  uint8_t probe = 1;
  ct_secret(&probe, 1);
  if (__msan_test_shadow(&probe, 1) != 0)
    ct_fail("ct_secret did not poison: is this a MemorySanitizer build?");
#ifndef CRISP_TEST_CT_MSAN_COPIES_H
  ct_fail(
      "memcpy and its kin are unchecked: build with -include test/ct_msan_copies.h (scripts/hardening.sh)");
#endif
  printf("# level %s on %s\n", crisp_level(), crisp_cpu_brand());
  test_poly1305();
  test_chacha20();
  test_products();
  test_montgomery();
  test_mod_exp();
  test_mod_exp2();
  test_crt();
  test_crt_key();
  printf("ct-msan: %lu checks, no secret-dependent branch or address\n", checks);
  return 0;
}
