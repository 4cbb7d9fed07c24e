/* test/test_chacha20poly1305.c - ChaCha20, ChaCha20-Poly1305 and
 * XChaCha20-Poly1305: published answers on every implementation, every
 * length 0..4096 and random longer ones against OpenSSL and libsodium
 * (unaligned, in place and apart, random AD), streaming at every split,
 * forgeries, the counter limit, and argument errors. */
#include "common.h"

#include "chacha20poly1305_vectors.h"

#ifdef CRISP_TEST_WITH_PEERS
#include <sodium.h>

#include "openssl_aead.h"
#endif

#define MAX_TEXT 1024

/* ---- published answers ---------------------------------------------------- */

static void check_vectors(const char *impl) {
  uint8_t key[32], nonce[24], text[MAX_TEXT], want[MAX_TEXT], got[MAX_TEXT], ad[64], tag[16], want_tag[16];
  for (size_t v = 0; v < sizeof chacha20_vectors / sizeof chacha20_vectors[0]; v++) {
    test_unhex(chacha20_vectors[v].key, key, sizeof key);
    test_unhex(chacha20_vectors[v].nonce, nonce, sizeof nonce);
    const size_t len = test_unhex(chacha20_vectors[v].out, want, sizeof want);
    if (chacha20_vectors[v].text) {
      assert_int_equal(strlen(chacha20_vectors[v].text), len);
      memcpy(text, chacha20_vectors[v].text, len);
    } else {
      memset(text, 0, len);
    }
    assert_int_equal(crisp_chacha20(got, text, len, key, nonce, chacha20_vectors[v].counter), CRISP_OK);
    assert_bytes_equal(got, want, len, "chacha20 %s on %s", chacha20_vectors[v].where, impl);
    assert_int_equal(crisp_chacha20(text, text, len, key, nonce, chacha20_vectors[v].counter), CRISP_OK);
    assert_bytes_equal(text, want, len, "chacha20 %s in place on %s", chacha20_vectors[v].where, impl);
  }
  for (size_t v = 0; v < sizeof aead_vectors / sizeof aead_vectors[0]; v++) {
    test_unhex(aead_vectors[v].key, key, sizeof key);
    const size_t nonce_len = test_unhex(aead_vectors[v].nonce, nonce, sizeof nonce);
    const size_t ad_len = test_unhex(aead_vectors[v].ad, ad, sizeof ad);
    const size_t len = test_unhex(aead_vectors[v].ct, want, sizeof want);
    test_unhex(aead_vectors[v].tag, want_tag, sizeof want_tag);
    assert_int_equal(strlen(aead_vectors[v].text), len);
    memcpy(text, aead_vectors[v].text, len);
    const int x = nonce_len == 24;
    assert_int_equal(x ? crisp_xchacha20_poly1305_seal(got, tag, text, len, ad, ad_len, nonce, key)
                       : crisp_chacha20_poly1305_seal(got, tag, text, len, ad, ad_len, nonce, key),
                     CRISP_OK);
    assert_bytes_equal(got, want, len, "seal %s on %s", aead_vectors[v].where, impl);
    assert_bytes_equal(tag, want_tag, 16, "tag %s on %s", aead_vectors[v].where, impl);
    memset(got, 0, len);
    assert_int_equal(x ? crisp_xchacha20_poly1305_open(got, want, len, want_tag, ad, ad_len, nonce, key)
                       : crisp_chacha20_poly1305_open(got, want, len, want_tag, ad, ad_len, nonce, key),
                     CRISP_OK);
    assert_bytes_equal(got, text, len, "open %s on %s", aead_vectors[v].where, impl);
  }
  uint8_t subkey[32], want_subkey[32], input[16];
  test_unhex(KEY_00_1F, key, sizeof key);
  test_unhex(hchacha20_input, input, sizeof input);
  test_unhex(hchacha20_subkey, want_subkey, sizeof want_subkey);
  assert_int_equal(crisp_hchacha20(subkey, key, input), CRISP_OK);
  assert_bytes_equal(subkey, want_subkey, 32, "hchacha20 2.2.1");
}

static void test_vectors(void **state) {
  (void)state;
  /* RFC 8439 2.5.2, the Poly1305 the AEAD builds on. */
  uint8_t key[32], tag[16], want[16];
  test_unhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b", key, sizeof key);
  test_unhex("a8061dc1305136c6c22b8baf0c0127a9", want, sizeof want);
  crisp_poly1305(tag, "Cryptographic Forum Research Group", 34, key);
  assert_bytes_equal(tag, want, 16, "poly1305 2.5.2");
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) check_vectors(chacha);
  }
}

/* ---- against OpenSSL and libsodium ------------------------------------------ */

#ifdef CRISP_TEST_WITH_PEERS
#define PEER_MAX (4096 + 16 * 1024)
#define PEER_OUT (PEER_MAX + 64)

static void openssl_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[32],
                             const uint8_t nonce[12], uint32_t counter) {
  uint8_t iv[16];
  iv[0] = (uint8_t)counter, iv[1] = (uint8_t)(counter >> 8), iv[2] = (uint8_t)(counter >> 16),
  iv[3] = (uint8_t)(counter >> 24);
  memcpy(iv + 4, nonce, 12);
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0;
  assert_non_null(c);
  assert_int_equal(EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv), 1);
  if (len) assert_int_equal(EVP_EncryptUpdate(c, out, &n, in, (int)len), 1);
  EVP_CIPHER_CTX_free(c);
}

/* One case: message of len bytes at random offsets, in place or apart,
 * checked against the peers in every direction. */
static void differential_case(const char *impl, size_t len, uint8_t *a, uint8_t *b, uint8_t *c) {
  uint8_t key[32], nonce[24], ad[301], tag[16], peer_tag[16];
  unsigned long long tag_len = 0;
  test_fill_random(key, sizeof key);
  test_fill_random(nonce, sizeof nonce);
  const size_t ad_len = test_rand_below(sizeof ad + 1);
  test_fill_random(ad, ad_len);
  /* c holds the peer's input, then from PEER_OUT its output. */
  uint8_t *pt = a + test_rand_below(16), *peer = c + test_rand_below(16), *ref = c + PEER_OUT;
  const int in_place = (int)(test_rand64() & 1);
  uint8_t *ct = in_place ? pt : b + test_rand_below(16);
  test_fill_random(pt, len);
  memcpy(peer, pt, len);
  ct[len] = 0x5a;

  /* ChaCha20 from a random counter with room for len. */
  const uint32_t counter = (uint32_t)test_rand64() % (0xffffffffu - (uint32_t)(len / 64) - 1);
  openssl_chacha20(ref, peer, len, key, nonce, counter);
  assert_int_equal(crisp_chacha20(ct, pt, len, key, nonce, counter), CRISP_OK);
  assert_bytes_equal(ct, ref, len, "chacha20 len %zu counter %u on %s", len, counter, impl);
  assert_int_equal(ct[len], 0x5a);
  memcpy(pt, peer, len);

  /* ChaCha20-Poly1305 against OpenSSL, then open, then libsodium. */
  openssl_seal(ref, peer_tag, peer, len, ad, ad_len, nonce, key);
  assert_int_equal(crisp_chacha20_poly1305_seal(ct, tag, pt, len, ad, ad_len, nonce, key), CRISP_OK);
  assert_bytes_equal(ct, ref, len, "seal len %zu ad %zu on %s", len, ad_len, impl);
  assert_bytes_equal(tag, peer_tag, 16, "tag len %zu ad %zu on %s", len, ad_len, impl);
  assert_int_equal(ct[len], 0x5a);
  assert_int_equal(
      crypto_aead_chacha20poly1305_ietf_decrypt_detached(ref, NULL, ct, len, tag, ad, ad_len, nonce, key), 0);
  assert_bytes_equal(ref, peer, len, "libsodium opens crisp's seal, len %zu", len);
  uint8_t *opened = in_place ? ct : pt;
  assert_int_equal(crisp_chacha20_poly1305_open(opened, ct, len, tag, ad, ad_len, nonce, key), CRISP_OK);
  assert_bytes_equal(opened, peer, len, "open len %zu ad %zu on %s", len, ad_len, impl);

  /* XChaCha20-Poly1305 against libsodium, both ways. */
  crypto_aead_xchacha20poly1305_ietf_encrypt_detached(ref, peer_tag, &tag_len, peer, len, ad, ad_len, NULL,
                                                      nonce, key);
  assert_int_equal(crisp_xchacha20_poly1305_seal(ct, tag, opened, len, ad, ad_len, nonce, key), CRISP_OK);
  assert_bytes_equal(ct, ref, len, "xseal len %zu ad %zu on %s", len, ad_len, impl);
  assert_bytes_equal(tag, peer_tag, 16, "xtag len %zu ad %zu on %s", len, ad_len, impl);
  opened = in_place ? ct : pt;
  assert_int_equal(crisp_xchacha20_poly1305_open(opened, ct, len, tag, ad, ad_len, nonce, key), CRISP_OK);
  assert_bytes_equal(opened, peer, len, "xopen len %zu on %s", len, impl);
  assert_int_equal(ct[len], 0x5a);
}

static void test_against_peers(void **state) {
  (void)state;
  assert_true(sodium_init() >= 0);
  const size_t max = 4096 + 16 * 1024;
  uint8_t *a = test_alloc(max), *b = test_alloc(max), *c = test_alloc(2 * max + 4200);
  const char *impl;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, impl) {
    for (size_t len = 0; len <= 4096; len++) differential_case(impl, len, a, b, c);
    for (size_t i = 0; i < test_scaled(20); i++)
      differential_case(impl, 4097 + test_rand_below(16 * 1024 - 128), a, b, c);
  }
  free(a), free(b), free(c);
}
#endif

/* Every implementation against generic at every length 0..4096, so builds
 * without the peers (the arm64 cross build) still cover every tail. */
static void test_against_generic(void **state) {
  (void)state;
  enum { MAX = 4096 };
  uint8_t *pt = test_alloc(MAX), *want = test_alloc(MAX), *got = test_alloc(MAX);
  uint8_t key[32], nonce[12], ad[20], want_tag[16], tag[16];
  const char *impl;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, impl) {
    for (size_t len = 0; len <= MAX; len++) {
      test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce), test_fill_random(pt, len);
      test_fill_random(ad, sizeof ad);
      const uint32_t counter = (uint32_t)test_rand64() % 0xfffff000u;
      test_pin(CRISP_KERNEL_CHACHA20, "generic");
      assert_int_equal(crisp_chacha20(want, pt, len, key, nonce, counter), CRISP_OK);
      test_pin(CRISP_KERNEL_CHACHA20, impl);
      assert_int_equal(crisp_chacha20(got, pt, len, key, nonce, counter), CRISP_OK);
      assert_bytes_equal(got, want, len, "chacha20 len %zu on %s against generic", len, impl);
      test_pin(CRISP_KERNEL_CHACHA20, "generic");
      assert_int_equal(crisp_chacha20_poly1305_seal(want, want_tag, pt, len, ad, len % 21, nonce, key),
                       CRISP_OK);
      test_pin(CRISP_KERNEL_CHACHA20, impl);
      assert_int_equal(crisp_chacha20_poly1305_seal(got, tag, pt, len, ad, len % 21, nonce, key), CRISP_OK);
      assert_bytes_equal(got, want, len, "seal len %zu on %s against generic", len, impl);
      assert_bytes_equal(tag, want_tag, 16, "tag len %zu on %s against generic", len, impl);
    }
  }
  free(pt), free(want), free(got);
}

/* ---- streaming ------------------------------------------------------------- */

static void stream_seal(int x, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                        uint8_t *ct, const uint8_t *pt, size_t len, const size_t *cuts, size_t ncuts,
                        uint8_t tag[16]) {
  crisp_chacha20_poly1305_ctx ctx;
  assert_int_equal(x ? crisp_xchacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, ad_len)
                     : crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, ad_len),
                   CRISP_OK);
  size_t at = 0;
  for (size_t i = 0; i <= ncuts; i++) {
    const size_t end = i < ncuts ? cuts[i] : len;
    assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, ct + at, pt + at, end - at), CRISP_OK);
    at = end;
  }
  assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
}

static int stream_open(int x, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                       uint8_t *pt, const uint8_t *ct, size_t len, const size_t *cuts, size_t ncuts,
                       const uint8_t tag[16]) {
  crisp_chacha20_poly1305_ctx ctx;
  assert_int_equal(x ? crisp_xchacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, ad_len)
                     : crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, ad_len),
                   CRISP_OK);
  size_t at = 0;
  for (size_t i = 0; i <= ncuts; i++) {
    const size_t end = i < ncuts ? cuts[i] : len;
    assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, pt + at, ct + at, end - at), CRISP_OK);
    at = end;
  }
  return crisp_chacha20_poly1305_stream_open_final(&ctx, tag);
}

static void stream_case(const char *impl, size_t len, const size_t *cuts, size_t ncuts, const uint8_t *pt,
                        uint8_t *ct, uint8_t *back, const uint8_t *key, const uint8_t *nonce,
                        const uint8_t *ad, size_t ad_len, const uint8_t *want, const uint8_t *want_tag,
                        int x) {
  uint8_t tag[16];
  stream_seal(x, key, nonce, ad, ad_len, ct, pt, len, cuts, ncuts, tag);
  assert_bytes_equal(ct, want, len, "stream seal len %zu cuts %zu on %s", len, ncuts, impl);
  assert_bytes_equal(tag, want_tag, 16, "stream tag len %zu on %s", len, impl);
  assert_int_equal(stream_open(x, key, nonce, ad, ad_len, back, ct, len, cuts, ncuts, tag), CRISP_OK);
  assert_bytes_equal(back, pt, len, "stream open len %zu on %s", len, impl);
  /* In place, both ways: an open in place takes its key block another way
   * than one into another buffer. */
  if (len) memcpy(back, pt, len);
  stream_seal(x, key, nonce, ad, ad_len, back, back, len, cuts, ncuts, tag);
  assert_bytes_equal(back, want, len, "stream seal in place len %zu cuts %zu on %s", len, ncuts, impl);
  assert_bytes_equal(tag, want_tag, 16, "stream tag in place len %zu on %s", len, impl);
  assert_int_equal(stream_open(x, key, nonce, ad, ad_len, back, back, len, cuts, ncuts, tag), CRISP_OK);
  assert_bytes_equal(back, pt, len, "stream open in place len %zu on %s", len, impl);
}

static void test_stream_splits(void **state) {
  (void)state;
  enum { MAX = 40000 };
  uint8_t *pt = test_alloc(MAX), *ct = test_alloc(MAX), *back = test_alloc(MAX), *want = test_alloc(MAX);
  uint8_t key[32], nonce[24], ad[80], want_tag[16]; /* AD on both sides of the stream's held 64 */
  const char *impl;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, impl) {
    for (int x = 0; x < 2; x++) {
      /* Every two-way split of every length up to 160. */
      for (size_t len = 0; len <= 160; len++) {
        test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce), test_fill_random(pt, len);
        const size_t ad_len = test_rand_below(sizeof ad + 1);
        test_fill_random(ad, ad_len);
        assert_int_equal(x ? crisp_xchacha20_poly1305_seal(want, want_tag, pt, len, ad, ad_len, nonce, key)
                           : crisp_chacha20_poly1305_seal(want, want_tag, pt, len, ad, ad_len, nonce, key),
                         CRISP_OK);
        for (size_t cut = 0; cut <= len; cut++)
          stream_case(impl, len, &cut, 1, pt, ct, back, key, nonce, ad, ad_len, want, want_tag, x);
      }
      /* Random many-way splits of longer messages. */
      for (size_t i = 0; i < test_scaled(100); i++) {
        /* Mostly short; every tenth past the front-end's 16 KiB chunks. */
        const size_t len = i % 10 == 9 ? 16384 + test_rand_below(MAX - 16384) : test_rand_below(4500);
        size_t cuts[12];
        const size_t ncuts = test_rand_below(13);
        for (size_t k = 0; k < ncuts; k++) cuts[k] = test_rand_below(len + 1);
        for (size_t k = 1; k < ncuts; k++)
          for (size_t j = k; j > 0 && cuts[j - 1] > cuts[j]; j--) {
            const size_t t = cuts[j];
            cuts[j] = cuts[j - 1], cuts[j - 1] = t;
          }
        test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce), test_fill_random(pt, len);
        const size_t ad_len = test_rand_below(sizeof ad + 1);
        test_fill_random(ad, ad_len);
        assert_int_equal(x ? crisp_xchacha20_poly1305_seal(want, want_tag, pt, len, ad, ad_len, nonce, key)
                           : crisp_chacha20_poly1305_seal(want, want_tag, pt, len, ad, ad_len, nonce, key),
                         CRISP_OK);
        stream_case(impl, len, cuts, ncuts, pt, ct, back, key, nonce, ad, ad_len, want, want_tag, x);
      }
    }
  }
  free(pt), free(ct), free(back), free(want);
}

/* A stream keeps the ChaCha20 implementation it started with. */
static void test_stream_keeps_impl(void **state) {
  (void)state;
  const char *names[16];
  const size_t n = test_supported_impls(CRISP_KERNEL_CHACHA20, names, 16);
  uint8_t key[32] = {1}, nonce[12] = {2}, pt[300], ct[300], want[300], tag[16], want_tag[16];
  test_fill_random(pt, sizeof pt);
  assert_int_equal(crisp_chacha20_poly1305_seal(want, want_tag, pt, sizeof pt, NULL, 0, nonce, key),
                   CRISP_OK);
  for (size_t i = 0; i < n; i++) {
    test_pin(CRISP_KERNEL_CHACHA20, names[i]);
    crisp_chacha20_poly1305_ctx ctx;
    assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, NULL, 0),
                     CRISP_OK);
    assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, ct, pt, 100), CRISP_OK);
    test_pin(CRISP_KERNEL_CHACHA20, names[n - 1 - i]);
    assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, ct + 100, pt + 100, 200), CRISP_OK);
    assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
    assert_memory_equal(ct, want, sizeof ct);
    assert_memory_equal(tag, want_tag, 16);
  }
}

/* The Poly1305 key block may wait for the stream's first update (an AD of
 * at most 64 bytes beside a ChaCha20 implementation with a keyed entry);
 * the stream still keeps both implementations of its start. For every
 * pair of ChaCha20 implementations and every pair of Poly1305 ones, the
 * pins change between the init and the first update: the ciphertext and
 * tag are the one-shot's (a keyed entry looked up anew would be missing
 * after avx512 -> generic), and the MAC's context holds the Poly1305
 * implementation a context initialised under the first pin holds (its
 * first word; the stream context holds its MAC's context from byte 256,
 * src/chacha20poly1305.c). */
static void test_stream_keeps_impls_until_keyed(void **state) {
  (void)state;
  enum { MAC_AT = 256 };
  const char *chachas[16], *polys[16];
  const size_t nc = test_supported_impls(CRISP_KERNEL_CHACHA20, chachas, 16);
  const size_t np = test_supported_impls(CRISP_KERNEL_POLY1305, polys, 16);
  uint8_t key[32], nonce[12], ad[40], pt[300], ct[300], want[300], tag[16], want_tag[16];
  test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
  test_fill_random(ad, sizeof ad), test_fill_random(pt, sizeof pt);
  for (size_t ad_len = 0; ad_len <= sizeof ad; ad_len += sizeof ad) {
    test_unpin_all();
    assert_int_equal(crisp_chacha20_poly1305_seal(want, want_tag, pt, sizeof pt, ad, ad_len, nonce, key),
                     CRISP_OK);
    for (size_t a = 0; a < nc * nc; a++) {
      for (size_t p = 0; p < np * np; p++) {
        test_pin(CRISP_KERNEL_CHACHA20, chachas[a / nc]);
        test_pin(CRISP_KERNEL_POLY1305, polys[p / np]);
        crisp_poly1305_ctx reference;
        crisp_poly1305_init(&reference, key);
        crisp_chacha20_poly1305_ctx ctx;
        assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, ad_len),
                         CRISP_OK);
        test_pin(CRISP_KERNEL_CHACHA20, chachas[a % nc]);
        test_pin(CRISP_KERNEL_POLY1305, polys[p % np]);
        const size_t first = p % 2 ? 0 : 128; /* keyed alone, or beside the first blocks */
        assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, ct, pt, first), CRISP_OK);
        uint8_t kept[sizeof(void *)], initialised[sizeof(void *)];
        memcpy(kept, ctx.opaque + MAC_AT, sizeof kept);
        memcpy(initialised, reference.opaque, sizeof initialised);
        assert_bytes_equal(kept, initialised, sizeof kept,
                           "stream started with poly1305 %s, keyed after a pin to %s (ad %zu)\n",
                           polys[p / np], polys[p % np], ad_len);
        crisp_poly1305_final(&reference, tag);
        assert_int_equal(
            crisp_chacha20_poly1305_stream_update(&ctx, ct + first, pt + first, sizeof pt - first), CRISP_OK);
        assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
        assert_bytes_equal(ct, want, sizeof ct, "chacha20 %s then %s, poly1305 %s then %s (ad %zu)\n",
                           chachas[a / nc], chachas[a % nc], polys[p / np], polys[p % np], ad_len);
        assert_bytes_equal(tag, want_tag, 16, "tag: chacha20 %s then %s, poly1305 %s then %s (ad %zu)\n",
                           chachas[a / nc], chachas[a % nc], polys[p / np], polys[p % np], ad_len);
      }
    }
  }
}

/* ---- forgeries ------------------------------------------------------------- */

static void test_forgery(void **state) {
  (void)state;
  enum { LEN = 67, AD = 13 };
  uint8_t key[32], nonce[24], pt[LEN], ct[LEN], out[LEN], ad[AD], tag[16];
  test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
  test_fill_random(pt, sizeof pt), test_fill_random(ad, sizeof ad);
  const char *impl;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, impl) {
    for (int x = 0; x < 2; x++) {
      int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                  const uint8_t *) = x ? crisp_xchacha20_poly1305_seal : crisp_chacha20_poly1305_seal;
      int (*open)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, size_t,
                  const uint8_t *, const uint8_t *) =
          x ? crisp_xchacha20_poly1305_open : crisp_chacha20_poly1305_open;
      assert_int_equal(seal(ct, tag, pt, LEN, ad, AD, nonce, key), CRISP_OK);
      uint8_t *fields[3] = {ct, ad, tag};
      const size_t sizes[3] = {LEN, AD, 16};
      for (int f = 0; f < 3; f++) {
        for (size_t bit = 0; bit < 8 * sizes[f]; bit++) {
          fields[f][bit / 8] ^= (uint8_t)(1u << (bit % 8));
          memset(out, 0xa5, sizeof out);
          assert_int_equal(open(out, ct, LEN, tag, ad, AD, nonce, key), CRISP_E_MISMATCH);
          for (size_t i = 0; i < LEN; i++) assert_int_equal(out[i], 0xa5);
          /* The stream reports the same forgery at its final. */
          crisp_chacha20_poly1305_ctx ctx;
          assert_int_equal(x ? crisp_xchacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, AD)
                             : crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, AD),
                           CRISP_OK);
          assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, out, ct, LEN), CRISP_OK);
          assert_int_equal(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), CRISP_E_MISMATCH);
          fields[f][bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
      }
      /* In place, a forgery leaves the ciphertext as it was. */
      memcpy(out, ct, LEN);
      tag[0] ^= 1;
      assert_int_equal(open(out, out, LEN, tag, ad, AD, nonce, key), CRISP_E_MISMATCH);
      assert_memory_equal(out, ct, LEN);
      tag[0] ^= 1;
      assert_int_equal(open(out, ct, LEN, tag, ad, AD, nonce, key), CRISP_OK);
      assert_memory_equal(out, pt, LEN);
    }
  }
}

/* A forgery (ct, tag, ad) opened apart into out, then in place in out:
 * CRISP_E_MISMATCH both times and out as it was (in place: the
 * ciphertext). what names the case in a failure. */
static void check_forgery_refused(uint8_t *out, const uint8_t *ct, size_t len, const uint8_t tag[16],
                                  const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                                  const uint8_t key[32], const char *what) {
  memset(out, 0xa5, len);
  assert_int_equal(crisp_chacha20_poly1305_open(out, ct, len, tag, ad, ad_len, nonce, key), CRISP_E_MISMATCH);
  for (size_t i = 0; i < len; i++)
    if (out[i] != 0xa5) fail_msg("forged open %s: byte %zu written", what, i);
  memcpy(out, ct, len);
  assert_int_equal(crisp_chacha20_poly1305_open(out, out, len, tag, ad, ad_len, nonce, key),
                   CRISP_E_MISMATCH);
  for (size_t i = 0; i < len; i++)
    if (out[i] != ct[i]) fail_msg("forged open in place %s: byte %zu written", what, i);
}

/* One open path per length: the key block joined to the message (67), on a
 * kernel with a keyed entry beside one group (960, 1024) or two (1025,
 * 2048, the most it takes), whole kernel groups with the key block alone
 * (1024 without a keyed entry), the two passes of a longer message (2049,
 * 5000). A flipped bit in the tag, the AD or the ciphertext must leave the
 * output as it was, apart and in place. */
static void test_forgery_every_path(void **state) {
  (void)state;
  enum { MAX = 5000, AD = 5 };
  static const size_t lengths[] = {67, 960, 1024, 1025, 2048, 2049, MAX};
  static uint8_t pt[MAX], ct[MAX], out[MAX];
  uint8_t key[32], nonce[12], ad[AD], tag[16];
  test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
  test_fill_random(pt, sizeof pt), test_fill_random(ad, sizeof ad);
  const char *impl;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, impl) {
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      const size_t len = lengths[l];
      assert_int_equal(crisp_chacha20_poly1305_seal(ct, tag, pt, len, ad, AD, nonce, key), CRISP_OK);
      uint8_t *fields[3] = {tag, ad, ct};
      const size_t flip[3] = {3, 2, len - 1};
      for (int f = 0; f < 3; f++) {
        fields[f][flip[f]] ^= 0x10;
        char what[64];
        snprintf(what, sizeof what, "%s, len %zu, field %d", impl, len, f);
        check_forgery_refused(out, ct, len, tag, ad, AD, nonce, key, what);
        fields[f][flip[f]] ^= 0x10;
      }
      assert_int_equal(crisp_chacha20_poly1305_open(out, ct, len, tag, ad, AD, nonce, key), CRISP_OK);
      assert_memory_equal(out, pt, len);
    }
  }
}

/* Every ChaCha20 implementation with every Poly1305 one (the AEAD runs the
 * two dispatched kernels side by side), at the lengths where the one-shot
 * paths meet: the key block in the message's last group, beside one or two
 * groups (the keyed entries: up to 8, 16 and 32 blocks), beside a long
 * message's first blocks, alone; whole groups of 4, 8 and 16 blocks, 31, 32
 * and 33 blocks, the front-end's 16 KiB chunks. Seal against OpenSSL's,
 * apart and in place, open apart and in place, and a forged open that
 * writes nothing. */
/* The seal every pair is held to: OpenSSL's where the build has the peers,
 * else the generic pair's (builds without peers, as the arm64 cross build,
 * still compare every pair with it). */
static void reference_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *ad,
                           size_t ad_len, const uint8_t nonce[12], const uint8_t key[32]) {
#ifdef CRISP_TEST_WITH_PEERS
  openssl_seal(ct, tag, pt, len, ad, ad_len, nonce, key);
#else
  test_pin(CRISP_KERNEL_CHACHA20, "generic"), test_pin(CRISP_KERNEL_POLY1305, "generic");
  assert_int_equal(crisp_chacha20_poly1305_seal(ct, tag, pt, len, ad, ad_len, nonce, key), CRISP_OK);
#endif
}

static void test_every_impl_pair(void **state) {
  (void)state;
  enum { MAX = 33000 };
  static const size_t lengths[] = {0,    1,    63,   64,   65,   255,   256,   257,   511,   512,  513,
                                   959,  960,  961,  1023, 1024, 1025,  1087,  1088,  1089,  1983, 1984,
                                   1985, 2047, 2048, 2049, 2112, 16383, 16384, 16385, 16447, 32832};
  static uint8_t pt[MAX], want[MAX], got[MAX], out[MAX];
  uint8_t key[32], nonce[12], ad[33], want_tag[16], tag[16];
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
      for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        const size_t len = lengths[l], ad_len = l % 3 == 0 ? 0 : l % 3 == 1 ? 16 : sizeof ad;
        test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
        test_fill_random(pt, len), test_fill_random(ad, ad_len);
        reference_seal(want, want_tag, pt, len, ad, ad_len, nonce, key);
        test_pin(CRISP_KERNEL_CHACHA20, chacha), test_pin(CRISP_KERNEL_POLY1305, poly);
        got[len] = 0x5a;
        assert_int_equal(crisp_chacha20_poly1305_seal(got, tag, pt, len, ad, ad_len, nonce, key), CRISP_OK);
        assert_bytes_equal(got, want, len, "seal len %zu on %s with %s", len, chacha, poly);
        assert_bytes_equal(tag, want_tag, 16, "tag len %zu on %s with %s", len, chacha, poly);
        assert_int_equal(got[len], 0x5a);
        memcpy(out, pt, len);
        assert_int_equal(crisp_chacha20_poly1305_seal(out, tag, out, len, ad, ad_len, nonce, key), CRISP_OK);
        assert_bytes_equal(out, want, len, "seal in place len %zu on %s with %s", len, chacha, poly);
        assert_bytes_equal(tag, want_tag, 16, "tag in place len %zu on %s with %s", len, chacha, poly);
        out[len] = 0x5a;
        assert_int_equal(crisp_chacha20_poly1305_open(out, want, len, want_tag, ad, ad_len, nonce, key),
                         CRISP_OK);
        assert_bytes_equal(out, pt, len, "open len %zu on %s with %s", len, chacha, poly);
        assert_int_equal(out[len], 0x5a);
        memcpy(got, want, len);
        assert_int_equal(crisp_chacha20_poly1305_open(got, got, len, want_tag, ad, ad_len, nonce, key),
                         CRISP_OK);
        assert_bytes_equal(got, pt, len, "open in place len %zu on %s with %s", len, chacha, poly);
        want_tag[l % 16] ^= 1;
        char what[96];
        snprintf(what, sizeof what, "len %zu on %s with %s", len, chacha, poly);
        check_forgery_refused(out, want, len, want_tag, ad, ad_len, nonce, key, what);
      }
    }
  }
}

/* Short opens, every length up to 1040 bytes with ad of 0, 13, 16, 32 or
 * 33 bytes, for every ChaCha20 implementation with every Poly1305 one:
 * where the ChaCha20 kernel runs Poly1305 beside its rounds (open_mac, up
 * to 1024 bytes), ad and ct end at every offset in a block, and the
 * Poly1305 blocks split over its rounds in every remainder of five. Each
 * open is checked against the reference seal, then refused with the tag's
 * last byte changed and with the ciphertext's. */
static void test_short_opens_every_pair(void **state) {
  (void)state;
  enum { MAX = 1040 };
  static uint8_t pt[MAX], ct[MAX], out[MAX + 1];
  uint8_t key[32], nonce[12], ad[33], tag[16];
  static const size_t ad_lengths[] = {0, 13, 16, 32, 33};
  const char *chacha, *poly;
  for (size_t len = 0; len <= MAX; len++) {
    const size_t ad_len = ad_lengths[len % 5];
    test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
    test_fill_random(pt, len), test_fill_random(ad, ad_len);
    reference_seal(ct, tag, pt, len, ad, ad_len, nonce, key);
    FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
      FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
        test_pin(CRISP_KERNEL_CHACHA20, chacha), test_pin(CRISP_KERNEL_POLY1305, poly);
        out[len] = 0x5a;
        assert_int_equal(crisp_chacha20_poly1305_open(out, ct, len, tag, ad, ad_len, nonce, key), CRISP_OK);
        assert_bytes_equal(out, pt, len, "open len %zu ad %zu on %s with %s", len, ad_len, chacha, poly);
        assert_int_equal(out[len], 0x5a);
        char what[96];
        snprintf(what, sizeof what, "len %zu ad %zu on %s with %s", len, ad_len, chacha, poly);
        tag[15] ^= 0x80;
        check_forgery_refused(out, ct, len, tag, ad, ad_len, nonce, key, what);
        tag[15] ^= 0x80;
        if (len) {
          ct[len - 1] ^= 1;
          check_forgery_refused(out, ct, len, tag, ad, ad_len, nonce, key, what);
          ct[len - 1] ^= 1;
        }
      }
    }
  }
}

/* ---- counter limit and arguments ---------------------------------------------- */

static void test_counter_limit(void **state) {
  (void)state;
  uint8_t key[32] = {7}, nonce[12] = {9}, buf[1100] = {0}, want[1100];
  const char *impl;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, impl) {
    /* The last block, 2^32 - 1, is allowed; one byte more is not. */
    assert_int_equal(crisp_chacha20(buf, buf, 64, key, nonce, 0xffffffffu), CRISP_OK);
    memset(want, 0x33, sizeof want);
    memcpy(buf, want, sizeof buf);
    assert_int_equal(crisp_chacha20(buf, buf, 65, key, nonce, 0xffffffffu), CRISP_E_RANGE);
    assert_int_equal(crisp_chacha20(buf, buf, 1024 + 1, key, nonce, 0xffffffffu - 15), CRISP_E_RANGE);
    assert_memory_equal(buf, want, sizeof buf);
    assert_int_equal(crisp_chacha20(buf, buf, 1024, key, nonce, 0xffffffffu - 15), CRISP_OK);
    assert_int_equal(crisp_chacha20(buf, buf, 0, key, nonce, 0xffffffffu), CRISP_OK);
    /* The blocks next to the limit match generic's one-block answers. */
    uint8_t one[64];
    for (int i = 0; i < 16; i++) {
      memset(one, 0x33, sizeof one);
      crisp_use_impl(CRISP_KERNEL_CHACHA20, "generic");
      assert_int_equal(crisp_chacha20(one, one, 64, key, nonce, 0xffffffffu - 15 + (uint32_t)i), CRISP_OK);
      test_pin(CRISP_KERNEL_CHACHA20, impl);
      assert_bytes_equal(buf + 64 * i, one, 64, "block %d below the limit on %s", i, impl);
    }
  }
  /* The AEADs refuse what would pass the counter limit, touching nothing. */
  uint8_t tag[16] = {0};
  const size_t too_long = (size_t)CRISP_CHACHA20_POLY1305_MAX_LEN + 1;
  if (too_long > CRISP_CHACHA20_POLY1305_MAX_LEN) {
    assert_int_equal(crisp_chacha20_poly1305_seal(buf, tag, buf, too_long, NULL, 0, nonce, key),
                     CRISP_E_RANGE);
    assert_int_equal(crisp_chacha20_poly1305_open(buf, buf, too_long, tag, NULL, 0, nonce, key),
                     CRISP_E_RANGE);
    crisp_chacha20_poly1305_ctx ctx;
    assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, NULL, 0),
                     CRISP_OK);
    assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, buf, buf, too_long), CRISP_E_RANGE);
    assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
  }
}

static void test_bad_arguments(void **state) {
  (void)state;
  uint8_t key[32] = {1}, nonce[24] = {2}, buf[256], copy[256], tag[16] = {3}, ad[8] = {4};
  test_fill_random(buf, sizeof buf);
  memcpy(copy, buf, sizeof buf);
  assert_int_equal(crisp_chacha20(buf, buf, 16, NULL, nonce, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20(buf, buf, 16, key, NULL, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20(NULL, buf, 16, key, nonce, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20(buf, NULL, 16, key, nonce, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20(NULL, NULL, 0, key, nonce, 0), CRISP_OK);
  assert_int_equal(crisp_chacha20(buf + 1, buf, 16, key, nonce, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20(buf, buf + 15, 16, key, nonce, 0), CRISP_E_INVALID);
  assert_memory_equal(buf, copy, sizeof buf);

  for (int x = 0; x < 2; x++) {
    int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                const uint8_t *) = x ? crisp_xchacha20_poly1305_seal : crisp_chacha20_poly1305_seal;
    int (*open)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, size_t, const uint8_t *,
                const uint8_t *) = x ? crisp_xchacha20_poly1305_open : crisp_chacha20_poly1305_open;
    assert_int_equal(seal(buf, tag, buf + 64, 32, ad, 8, nonce, NULL), CRISP_E_INVALID);
    assert_int_equal(seal(buf, tag, buf + 64, 32, ad, 8, NULL, key), CRISP_E_INVALID);
    assert_int_equal(seal(buf, NULL, buf + 64, 32, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(seal(NULL, tag, buf + 64, 32, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(seal(buf, tag, NULL, 32, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(seal(buf, tag, buf + 64, 32, NULL, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(seal(buf + 1, tag, buf, 32, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(seal(buf, buf + 20, buf + 64, 32, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(seal(buf, buf + 70, buf + 64, 32, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(open(buf, buf + 64, 32, tag, ad, 8, nonce, NULL), CRISP_E_INVALID);
    assert_int_equal(open(buf, buf + 64, 32, NULL, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(open(buf, buf + 1, 32, tag, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(open(buf, buf + 64, 32, buf + 10, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_int_equal(open(NULL, buf + 64, 32, tag, ad, 8, nonce, key), CRISP_E_INVALID);
    assert_memory_equal(buf, copy, sizeof buf);
    /* Empty messages need no buffers, on every ChaCha20 kernel (a keyed
     * entry then computes only the key block). */
    const char *chacha;
    FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
      assert_int_equal(seal(NULL, tag, NULL, 0, NULL, 0, nonce, key), CRISP_OK);
      assert_int_equal(open(NULL, NULL, 0, tag, NULL, 0, nonce, key), CRISP_OK);
    }
  }

  crisp_chacha20_poly1305_ctx ctx;
  assert_int_equal(crisp_chacha20_poly1305_stream_init(NULL, CRISP_AEAD_SEAL, nonce, key, NULL, 0),
                   CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, (crisp_aead_direction)3, nonce, key, NULL, 0),
                   CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, buf, buf, 16), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, NULL, key, NULL, 0),
                   CRISP_E_INVALID);
  assert_int_equal(crisp_xchacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, NULL, NULL, 0),
                   CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, NULL, 3),
                   CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, 8), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(NULL, buf, buf, 16), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, NULL, buf, 16), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, buf + 1, buf, 16), CRISP_E_INVALID);
  assert_memory_equal(buf, copy, sizeof buf);
  assert_int_equal(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, buf, buf, 16), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, 8), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(NULL, tag), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_open_final(NULL, tag), CRISP_E_INVALID);
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, 8), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, NULL), CRISP_E_INVALID);
  assert_int_equal(crisp_hchacha20(NULL, key, nonce), CRISP_E_INVALID);
  assert_int_equal(crisp_hchacha20(buf, NULL, nonce), CRISP_E_INVALID);
  assert_int_equal(crisp_hchacha20(buf, key, NULL), CRISP_E_INVALID);
  assert_memory_equal(buf, copy, sizeof buf);
}

int main(void) {
  test_seed(0x63686163);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_vectors, test_teardown_unpin),
#ifdef CRISP_TEST_WITH_PEERS
      cmocka_unit_test_teardown(test_against_peers, test_teardown_unpin),
#endif
      cmocka_unit_test_teardown(test_against_generic, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_splits, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_keeps_impl, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_keeps_impls_until_keyed, test_teardown_unpin),
      cmocka_unit_test_teardown(test_forgery, test_teardown_unpin),
      cmocka_unit_test_teardown(test_forgery_every_path, test_teardown_unpin),
      cmocka_unit_test_teardown(test_every_impl_pair, test_teardown_unpin),
      cmocka_unit_test_teardown(test_short_opens_every_pair, test_teardown_unpin),
      cmocka_unit_test_teardown(test_counter_limit, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bad_arguments, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
