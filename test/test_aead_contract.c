/* test/test_aead_contract.c - the AEAD promises a caller cannot see from
 * the bytes alone: a forged one-shot open writes nothing to pt (shown by a
 * pt mapped read-only, apart and in place, on every ChaCha20 and Poly1305
 * implementation at every length around their block and group sizes and
 * the front-end's limits); an ad that overlaps an output or the message is
 * refused by every call that takes one, outputs untouched; and the
 * streaming AEAD round-trips in place at any split, against OpenSSL's
 * EVP ChaCha20-Poly1305 where the build has it; the one-shot calls read
 * their key and nonce before they write, so both may lie in an output. */
#include "common.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef CRISP_TEST_WITH_PEERS
#include "openssl_aead.h"
#endif

typedef int (*seal_fn)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);
typedef int (*open_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);

/* ---- a forged open writes nothing ------------------------------------------ */

enum { MAX_LEN = 70000 };

/* Lengths around every place where the work is cut: 0..300 (single blocks,
 * Poly1305's 16-byte blocks and its 4- and 8-block vector steps, ChaCha20's
 * 4-block groups), and either side of ChaCha20's 8-, 16- and 32-block
 * groups, the AEAD's short-message limits (31 and 32 blocks), Poly1305's
 * crossovers, the 16 KiB chunks the seal and the stream work in, and a
 * message past 64 KiB. */
static size_t contract_lengths(size_t *out) {
  static const size_t edges[] = {512, 768, 1024, 1152, 1536, 1984, 2048, 4096, 16384, 32768, 65536};
  static const int steps[] = {-65, -64, -17, -16, -1, 0, 1, 15, 16, 17, 63, 64, 65};
  static const int long_steps[] = {-64, -1, 0, 1, 64};
  size_t n = 0;
  for (size_t len = 0; len <= 300; len++) out[n++] = len;
  for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
    const int *step = edges[e] > 4096 ? long_steps : steps;
    const size_t count = edges[e] > 4096 ? sizeof long_steps / sizeof *step : sizeof steps / sizeof *step;
    for (size_t s = 0; s < count; s++) out[n++] = (size_t)((long)edges[e] + step[s]);
  }
  out[n++] = MAX_LEN;
  return n;
}

static sigjmp_buf fault_jump;
static void on_fault(int signal_number) {
  siglongjmp(fault_jump, signal_number);
}

/* What open_catching_faults returns for a call that faulted: no status. */
enum { FAULTED = 1000 };

/* open(out, in, ...) with SIGSEGV and SIGBUS turned into a return of
 * FAULTED. */
static int open_catching_faults(open_fn open, uint8_t *out, const uint8_t *in, size_t len,
                                const uint8_t tag[16], const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                                const uint8_t *key) {
  struct sigaction action = {0}, old_segv, old_bus;
  action.sa_handler = on_fault;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &old_segv);
  sigaction(SIGBUS, &action, &old_bus);
  volatile int status = FAULTED;
  if (sigsetjmp(fault_jump, 1) == 0) status = open(out, in, len, tag, ad, ad_len, nonce, key);
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  return status;
}

typedef struct mapping {
  uint8_t *base;
  size_t size;
} mapping;

/* len bytes ending at the end of a fresh mapping (which writes would fault
 * past once it is read-only). */
static uint8_t *map_message(mapping *m, size_t len) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  m->size = (len + page - 1) / page * page + page;
  void *p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(p != MAP_FAILED);
  m->base = p;
  return m->base + m->size - len;
}

static void protect(mapping *m, int prot) {
  assert_int_equal(mprotect(m->base, m->size, prot), 0);
}

/* One length on the pinned implementations: a forged open apart into a
 * read-only pt, and in place over a read-only ciphertext, must return
 * CRISP_E_MISMATCH without writing; the genuine open then works. */
static void check_forged_open(const char *what, int x, size_t len, const uint8_t *message, const uint8_t *key,
                              const uint8_t *nonce) {
  seal_fn seal = x ? crisp_xchacha20_poly1305_seal : crisp_chacha20_poly1305_seal;
  open_fn open = x ? crisp_xchacha20_poly1305_open : crisp_chacha20_poly1305_open;
  static const uint8_t ad[21] = {7, 7, 7};
  uint8_t tag[16];
  mapping ct_map, pt_map;
  uint8_t *ct = map_message(&ct_map, len), *pt = map_message(&pt_map, len);
  assert_int_equal(seal(ct, tag, message, len, ad, sizeof ad, nonce, key), CRISP_OK);
  protect(&ct_map, PROT_READ);
  protect(&pt_map, PROT_READ);
  const int fields = len > 4096 ? 1 : 3; /* which field is forged matters to none of the long paths */
  for (int field = 0; field < fields; field++) {
    uint8_t forged_tag[16], forged_ad[sizeof ad];
    memcpy(forged_tag, tag, 16), memcpy(forged_ad, ad, sizeof ad);
    if (field == 0) forged_tag[len % 16] ^= 0x40;
    if (field == 1) forged_ad[len % sizeof ad] ^= 0x02;
    if (field == 2 && len == 0) continue;
    if (field == 2) {
      protect(&ct_map, PROT_READ | PROT_WRITE);
      ct[len / 2] ^= 0x80;
      protect(&ct_map, PROT_READ);
    }
    int status = open_catching_faults(open, pt, ct, len, forged_tag, forged_ad, sizeof ad, nonce, key);
    if (status != CRISP_E_MISMATCH)
      fail_msg("%s: forged open (field %d) of %zu bytes into a read-only pt gave %d (%d: it wrote to pt)",
               what, field, len, status, (int)FAULTED);
    status = open_catching_faults(open, ct, ct, len, forged_tag, forged_ad, sizeof ad, nonce, key);
    if (status != CRISP_E_MISMATCH)
      fail_msg(
          "%s: forged open (field %d) of %zu bytes in place over a read-only ciphertext gave %d (%d: it "
          "wrote to it)",
          what, field, len, status, (int)FAULTED);
    if (field == 2) {
      protect(&ct_map, PROT_READ | PROT_WRITE);
      ct[len / 2] ^= 0x80;
      protect(&ct_map, PROT_READ);
    }
  }
  protect(&pt_map, PROT_READ | PROT_WRITE);
  assert_int_equal(open(pt, ct, len, tag, ad, sizeof ad, nonce, key), CRISP_OK);
  assert_bytes_equal(pt, message, len, "%s: genuine open of %zu bytes", what, len);
  munmap(ct_map.base, ct_map.size);
  munmap(pt_map.base, pt_map.size);
}

static void test_forged_open_writes_nothing(void **state) {
  (void)state;
  static size_t lengths[512];
  const size_t count = contract_lengths(lengths);
  assert_true(count <= sizeof lengths / sizeof lengths[0]);
  static uint8_t message[MAX_LEN];
  uint8_t key[32], nonce[24];
  test_fill_random(message, sizeof message);
  test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
  /* Every ChaCha20 kernel (which picks the open's path) beside the default
   * Poly1305, then every Poly1305 kernel beside the default ChaCha20. */
  const char *chachas[8], *polys[8];
  const size_t chacha_count = test_supported_impls(CRISP_KERNEL_CHACHA20, chachas, 8);
  const size_t poly_count = test_supported_impls(CRISP_KERNEL_POLY1305, polys, 8);
  for (size_t pair = 0; pair < chacha_count + poly_count; pair++) {
    test_unpin_all();
    if (pair < chacha_count) test_pin(CRISP_KERNEL_CHACHA20, chachas[pair]);
    if (pair >= chacha_count) test_pin(CRISP_KERNEL_POLY1305, polys[pair - chacha_count]);
    const char *chacha = crisp_impl_name(CRISP_KERNEL_CHACHA20),
               *poly = crisp_impl_name(CRISP_KERNEL_POLY1305);
    for (size_t l = 0; l < count; l++) {
      char what[96];
      snprintf(what, sizeof what, "chacha20 %s, poly1305 %s, %s", chacha, poly, l % 2 ? "xchacha" : "chacha");
      /* Each length once, the nonce size alternating (the short lengths,
       * every one, cover both); from 2048 on both. */
      check_forged_open(what, (int)(l % 2), lengths[l], message, key, nonce);
      if (lengths[l] >= 2048) check_forged_open(what, (int)(1 - l % 2), lengths[l], message, key, nonce);
    }
  }
  test_unpin_all();
}

/* ---- ad overlapping an output or the message is refused --------------------- */

enum { ARENA = 512, LEN = 100, AD = 40 };
enum { PT_AT = 40, CT_AT = 200, TAG_AT = 360 };

/* One call with ad at arena + at; CRISP_E_INVALID and the arena untouched
 * when the ad shares a byte with [pt, pt + LEN), [ct, ct + LEN) or the
 * tag, CRISP_OK otherwise. in_place puts ct at pt. */
static void check_ad_at(int x, int opening, int in_place, size_t at) {
  static uint8_t arena[ARENA], before[ARENA];
  static const uint8_t key[32] = {1, 2, 3}, nonce[24] = {4, 5, 6};
  test_fill_random(arena, sizeof arena);
  uint8_t *pt = arena + PT_AT, *ct = in_place ? pt : arena + CT_AT, *tag = arena + TAG_AT, *ad = arena + at;
  if (opening) {
    /* Sealed from copies; where ad shares no byte with ct or the tag, its
     * bytes are still those it was sealed with. */
    seal_fn seal = x ? crisp_xchacha20_poly1305_seal : crisp_chacha20_poly1305_seal;
    static uint8_t message[LEN], sealed[LEN], ad_copy[AD], sealed_tag[16];
    memcpy(message, pt, LEN), memcpy(ad_copy, ad, AD);
    assert_int_equal(seal(sealed, sealed_tag, message, LEN, ad_copy, AD, nonce, key), CRISP_OK);
    memcpy(ct, sealed, LEN), memcpy(tag, sealed_tag, 16);
  }
  memcpy(before, arena, sizeof arena);
  const int shares = (at < PT_AT + LEN && at + AD > PT_AT) ||
                     (at < (size_t)(ct - arena) + LEN && at + AD > (size_t)(ct - arena)) ||
                     (at < TAG_AT + 16 && at + AD > TAG_AT);
  const int status = opening ? (x ? crisp_xchacha20_poly1305_open : crisp_chacha20_poly1305_open)(
                                   pt, ct, LEN, tag, ad, AD, nonce, key)
                             : (x ? crisp_xchacha20_poly1305_seal : crisp_chacha20_poly1305_seal)(
                                   ct, tag, pt, LEN, ad, AD, nonce, key);
  const char *call =
      opening ? (x ? "xchacha20 open" : "chacha20 open") : (x ? "xchacha20 seal" : "chacha20 seal");
  if (shares) {
    if (status != CRISP_E_INVALID)
      fail_msg("%s%s: ad at %zu (pt %d, ct %d, tag %d) gave %d, not CRISP_E_INVALID", call,
               in_place ? " in place" : "", at, PT_AT, (int)(ct - arena), TAG_AT, status);
    assert_bytes_equal(arena, before, sizeof arena, "%s: ad at %zu changed memory on refusal", call, at);
  } else if (status != CRISP_OK) {
    fail_msg("%s%s: ad at %zu, apart from every buffer, gave %d", call, in_place ? " in place" : "", at,
             status);
  }
}

static void test_ad_overlap_refused(void **state) {
  (void)state;
  for (int x = 0; x < 2; x++)
    for (int opening = 0; opening < 2; opening++)
      for (int in_place = 0; in_place < 2; in_place++)
        for (size_t at = 0; at + AD <= ARENA; at++) check_ad_at(x, opening, in_place, at);
}

/* stream_init's ad may not share a byte with the context it starts: the
 * context is rewritten before the ad is read. Every offset, both nonce
 * sizes and directions; a refused context is then unusable. */
static void test_stream_overlap_refused(void **state) {
  (void)state;
  static const uint8_t key[32] = {9}, nonce[24] = {8};
  static union {
    crisp_chacha20_poly1305_ctx ctx;
    uint8_t bytes[sizeof(crisp_chacha20_poly1305_ctx) + 2 * AD];
  } arena;
  crisp_chacha20_poly1305_ctx *ctx = (crisp_chacha20_poly1305_ctx *)(void *)(arena.bytes + AD);
  uint8_t out[16] = {0};
  for (int x = 0; x < 2; x++) {
    for (int direction = CRISP_AEAD_SEAL; direction <= CRISP_AEAD_OPEN; direction++) {
      for (size_t at = 0; at + AD <= sizeof arena.bytes; at++) {
        const uint8_t *ad = arena.bytes + at;
        const int shares = at + AD > AD && at < AD + sizeof *ctx;
        const int status =
            x ? crisp_xchacha20_poly1305_stream_init(ctx, (crisp_aead_direction)direction, nonce, key, ad, AD)
              : crisp_chacha20_poly1305_stream_init(ctx, (crisp_aead_direction)direction, nonce, key, ad, AD);
        if (status != (shares ? CRISP_E_INVALID : CRISP_OK))
          fail_msg("%s stream_init: ad at %zu (context at %d..%zu) gave %d", x ? "xchacha20" : "chacha20", at,
                   (int)AD, AD + sizeof *ctx, status);
        if (shares)
          assert_int_equal(crisp_chacha20_poly1305_stream_update(ctx, out, out, 16), CRISP_E_INVALID);
      }
    }
  }
  /* update's buffers and the finals' tag may not share a byte with the
   * context either: refused, and an update leaves the stream usable. */
  static uint8_t message[64], sealed[64], want[64], want_tag[16], tag[16];
  test_fill_random(message, sizeof message);
  assert_int_equal(crisp_chacha20_poly1305_seal(want, want_tag, message, 64, NULL, 0, nonce, key), CRISP_OK);
  for (size_t at = 1; at + 64 <= sizeof arena.bytes; at += 7) {
    uint8_t *inside = arena.bytes + at;
    const int shares = at + 64 > AD && at < AD + sizeof *ctx;
    if (!shares) continue;
    assert_int_equal(crisp_chacha20_poly1305_stream_init(ctx, CRISP_AEAD_SEAL, nonce, key, NULL, 0),
                     CRISP_OK);
    if (crisp_chacha20_poly1305_stream_update(ctx, inside, message, 64) != CRISP_E_INVALID ||
        crisp_chacha20_poly1305_stream_update(ctx, sealed, inside, 64) != CRISP_E_INVALID)
      fail_msg("stream_update with a buffer at %zu inside the context (at %d) was not refused", at, (int)AD);
    assert_int_equal(crisp_chacha20_poly1305_stream_update(ctx, sealed, message, 64), CRISP_OK);
    assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(ctx, tag), CRISP_OK);
    assert_memory_equal(sealed, want, 64);
    assert_memory_equal(tag, want_tag, 16);
    for (int direction = CRISP_AEAD_SEAL; direction <= CRISP_AEAD_OPEN; direction++) {
      assert_int_equal(
          crisp_chacha20_poly1305_stream_init(ctx, (crisp_aead_direction)direction, nonce, key, NULL, 0),
          CRISP_OK);
      if (at + 16 <= AD) continue; /* the tag's 16 bytes end before the context */
      const int status = direction == CRISP_AEAD_SEAL
                             ? crisp_chacha20_poly1305_stream_seal_final(ctx, inside)
                             : crisp_chacha20_poly1305_stream_open_final(ctx, inside);
      if (status != CRISP_E_INVALID)
        fail_msg("stream %s_final with the tag at %zu inside the context gave %d",
                 direction == CRISP_AEAD_SEAL ? "seal" : "open", at, status);
    }
  }
}

/* ---- the stream round-trips in place ------------------------------------------ */

/* The reference seal: OpenSSL's where the build has it, else crisp's
 * one-shot seal on the generic kernels. */
static void reference_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *ad,
                           size_t ad_len, const uint8_t nonce[12], const uint8_t key[32]) {
#ifdef CRISP_TEST_WITH_PEERS
  openssl_seal(ct, tag, pt, len, ad, ad_len, nonce, key);
#else
  const char *chacha = crisp_impl_name(CRISP_KERNEL_CHACHA20), *poly = crisp_impl_name(CRISP_KERNEL_POLY1305);
  test_pin(CRISP_KERNEL_CHACHA20, "generic"), test_pin(CRISP_KERNEL_POLY1305, "generic");
  assert_int_equal(crisp_chacha20_poly1305_seal(ct, tag, pt, len, ad, ad_len, nonce, key), CRISP_OK);
  test_pin(CRISP_KERNEL_CHACHA20, chacha), test_pin(CRISP_KERNEL_POLY1305, poly);
#endif
}

/* Streams buffer through in place, in pieces from the split rule. */
static void stream_in_place(crisp_chacha20_poly1305_ctx *ctx, uint8_t *buffer, size_t len, int split) {
  for (size_t done = 0, step = 0; done < len; step++) {
    size_t piece = split == 0   ? len
                   : split == 1 ? 1 + (done * 7 + 3) % 97
                   : split == 2 ? 64
                                : (size_t[]){1, 15, 63, 64, 65, 1000, 16384, 16385}[step % 8];
    if (piece > len - done) piece = len - done;
    assert_int_equal(crisp_chacha20_poly1305_stream_update(ctx, buffer + done, buffer + done, piece),
                     CRISP_OK);
    done += piece;
  }
}

static void test_stream_in_place_round_trip(void **state) {
  (void)state;
  enum { MAX = 40000 };
  static const size_t lengths[] = {0, 1, 63, 64, 65, 1000, 2048, 16385, MAX};
  static uint8_t message[MAX], want[MAX], buffer[MAX];
  uint8_t key[32], nonce[12], ad[19], want_tag[16], tag[16];
  const char *chacha;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      const size_t len = lengths[l];
      test_fill_random(message, len), test_fill_random(key, sizeof key);
      test_fill_random(nonce, sizeof nonce), test_fill_random(ad, sizeof ad);
      reference_seal(want, want_tag, message, len, ad, sizeof ad, nonce, key);
      for (int split = 0; split < 4; split++) {
        crisp_chacha20_poly1305_ctx ctx;
        memcpy(buffer, message, len);
        assert_int_equal(
            crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, sizeof ad), CRISP_OK);
        stream_in_place(&ctx, buffer, len, split);
        assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
        assert_bytes_equal(buffer, want, len, "stream seal in place, %zu bytes, split %d, %s", len, split,
                           chacha);
        assert_bytes_equal(tag, want_tag, 16, "stream tag in place, %zu bytes, split %d, %s", len, split,
                           chacha);
        assert_int_equal(
            crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, sizeof ad), CRISP_OK);
        stream_in_place(&ctx, buffer, len, 3 - split);
        assert_int_equal(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), CRISP_OK);
        assert_bytes_equal(buffer, message, len, "stream open in place, %zu bytes, split %d, %s", len,
                           3 - split, chacha);
      }
    }
  }
}

/* ---- key and nonce are read before anything is written -------------------- */

/* The one-shot calls may take their key and nonce from the bytes they
 * write: the key in the first 32 bytes of the output, the nonce after it
 * (or, for a 12-byte nonce sealing, in the tag). The answer must be the
 * one from separate copies. A seal in place reads its key from the
 * plaintext itself; an open's are in pt (apart: ct would depend on its own
 * key). At every ChaCha20 and Poly1305 implementation, around the block
 * groups, the short-message limit and the 16 KiB chunks. */
static void check_key_nonce_in_outputs(int x, size_t len, const char *chacha, const char *poly) {
  static uint8_t pt[16500], ct[16500], want[16500], buffer[16500];
  uint8_t key[32], nonce[24], ad[21], tag[16], want_tag[16];
  const size_t nonce_len = x ? 24 : 12;
  seal_fn seal = x ? crisp_xchacha20_poly1305_seal : crisp_chacha20_poly1305_seal;
  open_fn open = x ? crisp_xchacha20_poly1305_open : crisp_chacha20_poly1305_open;
  test_fill_random(pt, len), test_fill_random(ad, sizeof ad);
  for (int in_place = 0; in_place < 2; in_place++)
    for (int nonce_in_tag = 0; nonce_in_tag < 2 - x; nonce_in_tag++) {
      /* seal: key at out[0..32), nonce at out[32..) or in the tag */
      uint8_t *out = in_place ? buffer : ct;
      memcpy(buffer, pt, len);
      test_fill_random(out, 32), test_fill_random(out + 32, nonce_len);
      if (nonce_in_tag) test_fill_random(tag, nonce_len);
      memcpy(key, out, 32), memcpy(nonce, nonce_in_tag ? tag : out + 32, nonce_len);
      const uint8_t *message = in_place ? buffer : pt;
      uint8_t copy[16500];
      memcpy(copy, message, len);
      assert_int_equal(seal(want, want_tag, copy, len, ad, sizeof ad, nonce, key), CRISP_OK);
      assert_int_equal(seal(out, tag, message, len, ad, sizeof ad, nonce_in_tag ? tag : out + 32, out),
                       CRISP_OK);
      assert_bytes_equal(out, want, len, "%s seal%s, key and nonce in its outputs, %zu bytes on %s with %s",
                         x ? "xchacha20" : "chacha20", in_place ? " in place" : "", len, chacha, poly);
      assert_bytes_equal(tag, want_tag, 16,
                         "%s seal tag, key and nonce in its outputs, %zu bytes on %s with %s",
                         x ? "xchacha20" : "chacha20", len, chacha, poly);
    }
  /* open apart: key at pt[0..32), nonce at pt[32..) */
  test_fill_random(key, 32), test_fill_random(nonce, nonce_len);
  assert_int_equal(seal(want, want_tag, pt, len, ad, sizeof ad, nonce, key), CRISP_OK);
  memcpy(buffer, key, 32), memcpy(buffer + 32, nonce, nonce_len);
  assert_int_equal(open(buffer, want, len, want_tag, ad, sizeof ad, buffer + 32, buffer), CRISP_OK);
  assert_bytes_equal(buffer, pt, len, "%s open, key and nonce in pt, %zu bytes on %s with %s",
                     x ? "xchacha20" : "chacha20", len, chacha, poly);
}

static void test_key_nonce_in_outputs(void **state) {
  (void)state;
  static const size_t lengths[] = {56,   63,   64,   65,   255,   256,   1983,
                                   1984, 1985, 2048, 2049, 16384, 16385, 16448};
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
      for (int x = 0; x < 2; x++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
          check_key_nonce_in_outputs(x, lengths[l], chacha, poly);
    }
  }
}

int main(void) {
  test_seed(0x636f6e74);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_forged_open_writes_nothing, test_teardown_unpin),
      cmocka_unit_test_teardown(test_ad_overlap_refused, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_overlap_refused, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_in_place_round_trip, test_teardown_unpin),
      cmocka_unit_test_teardown(test_key_nonce_in_outputs, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
