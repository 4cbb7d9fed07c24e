/* test/test_chacha20_ct.c - constant-time check of ChaCha20 and the AEADs
 * for every implementation this CPU supports: key and plaintext are marked
 * undefined for valgrind memcheck, which then reports any branch or memory
 * address computed from them (meson runs this binary under
 * `valgrind --error-exitcode=1`). Outputs are marked defined again before
 * they are compared with the generic implementation's. The opens (one-shot
 * ChaCha20-Poly1305 and XChaCha20-Poly1305, and the streamed open with its
 * tag comparison in open_final), apart and in place, genuine and forged,
 * are checked on every length: the one-shot opens branch once on the
 * verdict, which is public (the caller learns it from the return value), at
 * the one site test/chacha20_ct.supp names.
 * AVX-512 implementations are skipped under valgrind, which cannot execute
 * them (the ct-msan stage covers them). */
#include <valgrind/memcheck.h>

#include "common.h"
#include "ct_common.h"

#define MAX_MESSAGE 2200

/* Block and group boundaries (4, 8, 16 and 32 blocks with or without the
 * key block), the open's buffer limit (1984) and the keyed entry's (2048),
 * then past both. */
static const size_t lengths[] = {0,    1,    15,   16,   63,   64,   65,   127,  128, 129,
                                 255,  256,  257,  511,  512,  513,  959,  960,  961, 1024,
                                 1025, 1983, 1984, 1985, 2047, 2048, 2049, 2100, 2176};

static int skipped_under_valgrind(const char *name) {
  if (RUNNING_ON_VALGRIND && strncmp(name, "avx512", 6) == 0) {
    printf("# %s skipped: valgrind does not emulate AVX-512\n", name);
    return 1;
  }
  return 0;
}

typedef struct outputs {
  uint8_t stream[MAX_MESSAGE], sealed[MAX_MESSAGE], tag[16], xsealed[MAX_MESSAGE], xtag[16],
      streamed[MAX_MESSAGE], stag[16], opened[MAX_MESSAGE];
  int open_status;
} outputs;

static const uint8_t nonce[24] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                  13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
static const uint8_t ad[13] = {0xad};

/* The streams' updates: 1 + (done * 7 + 5) % 100 bytes after done bytes,
 * cut to the message's end; the cuts depend on lengths alone (public). */
static size_t next_piece(size_t done, size_t len) {
  const size_t piece = 1 + (done * 7 + 5) % 100;
  return piece < len - done ? piece : len - done;
}

/* Every entry point on one (key, message); key and message are secret when
 * running under valgrind. */
static void run_all(outputs *o, const uint8_t *key, const uint8_t *message, size_t len) {
  assert_int_equal(crisp_chacha20(o->stream, message, len, key, nonce, 7), CRISP_OK);
  assert_int_equal(crisp_chacha20_poly1305_seal(o->sealed, o->tag, message, len, ad, sizeof ad, nonce, key),
                   CRISP_OK);
  assert_int_equal(
      crisp_xchacha20_poly1305_seal(o->xsealed, o->xtag, message, len, ad, sizeof ad, nonce, key), CRISP_OK);
  crisp_chacha20_poly1305_ctx ctx;
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, sizeof ad),
                   CRISP_OK);
  for (size_t done = 0, piece; done < len; done += piece) {
    piece = next_piece(done, len);
    assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, o->streamed + done, message + done, piece),
                     CRISP_OK);
  }
  assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, o->stag), CRISP_OK);
}

static void declassify(outputs *o) {
  VALGRIND_MAKE_MEM_DEFINED(o, sizeof *o);
}

static void test_seal_ct(void **state) {
  (void)state;
  static uint8_t message[MAX_MESSAGE], secret_message[MAX_MESSAGE];
  static outputs want, got;
  for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
    const size_t len = lengths[c];
    uint8_t key[32], secret_key[32];
    test_fill_random(key, sizeof key);
    test_fill_random(message, len);
    memset(&want, 0, sizeof want);
    test_pin(CRISP_KERNEL_CHACHA20, "generic");
    run_all(&want, key, message, len);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, name) {
      if (skipped_under_valgrind(name)) continue;
      memset(&got, 0, sizeof got);
      memcpy(secret_key, key, 32);
      memcpy(secret_message, message, len);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_key, 32);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_message, len);
      run_all(&got, secret_key, secret_message, len);
      declassify(&got);
      if (memcmp(&got, &want, sizeof got) != 0)
        fail_msg("chacha20 %s: len=%zu differs from generic", name, len);
      if (c == 0) printf("# chacha20 %s: key and plaintext secret\n", name);
    }
  }
}

/* The opens: one-shot ChaCha20-Poly1305 and XChaCha20-Poly1305, and the
 * streamed ChaCha20-Poly1305 open cut at public points. */
enum { OPEN_ONE_SHOT, OPEN_X_ONE_SHOT, OPEN_STREAMED, OPEN_KINDS };
static const char *const open_names[OPEN_KINDS] = {"open", "xchacha20 open", "streamed open"};

/* The streamed open: updates as next_piece cuts them, then open_final's
 * tag comparison. */
static int open_streamed(uint8_t *out, const uint8_t *in, size_t len, const uint8_t tag[16],
                         const uint8_t key[32]) {
  crisp_chacha20_poly1305_ctx ctx;
  assert_int_equal(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, sizeof ad),
                   CRISP_OK);
  for (size_t done = 0, piece; done < len; done += piece) {
    piece = next_piece(done, len);
    const int status = crisp_chacha20_poly1305_stream_update(&ctx, out + done, in + done, piece);
    VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
    assert_int_equal(status, CRISP_OK);
  }
  return crisp_chacha20_poly1305_stream_open_final(&ctx, tag);
}

/* open with a secret key, apart and in place: the tag check runs without
 * a branch on secrets, and the one branch on its verdict in the one-shot
 * opens is the site test/chacha20_ct.supp names (the verdict is public: it
 * is the return value); only the status and the output are defined after.
 * A one-shot open of a forgery leaves the output as it was; the streamed
 * open has handed out the plaintext before its tag is compared. */
static void open_case(int kind, const char *name, const uint8_t *message, const uint8_t *sealed,
                      uint8_t tag[16], size_t len, const uint8_t key[32], int in_place) {
  static uint8_t opened[MAX_MESSAGE];
  uint8_t secret_key[32];
  for (int bad = 0; bad < 2; bad++) {
    memcpy(secret_key, key, 32);
    VALGRIND_MAKE_MEM_UNDEFINED(secret_key, 32);
    if (in_place) memcpy(opened, sealed, len);
    if (!in_place) memset(opened, 0xa5, len);
    tag[5] ^= (uint8_t)bad;
    const uint8_t *in = in_place ? opened : sealed;
    int status = kind == OPEN_ONE_SHOT
                     ? crisp_chacha20_poly1305_open(opened, in, len, tag, ad, sizeof ad, nonce, secret_key)
                 : kind == OPEN_X_ONE_SHOT
                     ? crisp_xchacha20_poly1305_open(opened, in, len, tag, ad, sizeof ad, nonce, secret_key)
                     : open_streamed(opened, in, len, tag, secret_key);
    tag[5] ^= (uint8_t)bad;
    VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
    VALGRIND_MAKE_MEM_DEFINED(opened, len);
    const char *how = in_place ? "in place" : "apart";
    if (status != (bad ? CRISP_E_MISMATCH : CRISP_OK))
      fail_msg("%s %s %s: len=%zu gave %d", open_names[kind], name, how, len, status);
    for (size_t i = 0; i < len; i++) {
      const uint8_t want = !bad || kind == OPEN_STREAMED ? message[i] : in_place ? sealed[i] : 0xa5;
      if (opened[i] != want)
        fail_msg("%s %s %s: len=%zu byte %zu wrong", open_names[kind], name, how, len, i);
    }
  }
}

static void test_open_ct(void **state) {
  (void)state;
  static uint8_t message[MAX_MESSAGE], sealed[MAX_MESSAGE];
  for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
    const size_t len = lengths[c];
    for (int kind = 0; kind < OPEN_KINDS; kind++) {
      uint8_t key[32], tag[16];
      test_fill_random(key, sizeof key);
      test_fill_random(message, len);
      test_pin(CRISP_KERNEL_CHACHA20, "generic");
      if (kind == OPEN_X_ONE_SHOT)
        assert_int_equal(crisp_xchacha20_poly1305_seal(sealed, tag, message, len, ad, sizeof ad, nonce, key),
                         CRISP_OK);
      else
        assert_int_equal(crisp_chacha20_poly1305_seal(sealed, tag, message, len, ad, sizeof ad, nonce, key),
                         CRISP_OK);
      const char *name;
      FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, name) {
        if (skipped_under_valgrind(name)) continue;
        open_case(kind, name, message, sealed, tag, len, key, 0);
        open_case(kind, name, message, sealed, tag, len, key, 1);
      }
    }
  }
}

int main(void) {
  test_seed(0x63686374ull);
  if (RUNNING_ON_VALGRIND) printf("# running under valgrind: secrets are marked undefined\n");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_seal_ct, test_teardown_unpin),
      cmocka_unit_test_teardown(test_open_ct, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
