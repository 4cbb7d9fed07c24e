/* test/test_aead_stream_state.c - what the streaming AEAD promises about
 * its context, checked on the context's bytes, at every ChaCha20 and
 * Poly1305 implementation pair this CPU has, for ChaCha20-Poly1305 and
 * XChaCha20-Poly1305:
 *  - every final wipes the whole context: a sealing one, an opening one
 *    whose tag is right or wrong, and one refused because the context is
 *    not in its direction; so does a failed init, whatever stream the
 *    context held (include/crisp/chacha20poly1305.h);
 *  - an update that would take the message past
 *    CRISP_CHACHA20_POLY1305_MAX_LEN is refused with CRISP_E_RANGE,
 *    writes nothing, and the stream goes on as if it had not been made.
 * Streams are set close to the limit with the internal
 * crisp_chacha20_poly1305_stream_set_length, so the static library is
 * linked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "chacha20poly1305_internal.h"
#include "common.h"

enum { MAX_MESSAGE = 2200 };

typedef enum final_kind { SEAL_FINAL, OPEN_FINAL_RIGHT, OPEN_FINAL_WRONG, FINAL_WRONG_DIRECTION } final_kind;

static const char *const final_names[] = {"seal final", "open final (right tag)", "open final (wrong tag)",
                                          "final of the other direction"};

static int init_stream(crisp_chacha20_poly1305_ctx *ctx, int x, crisp_aead_direction direction,
                       const uint8_t nonce[24], const uint8_t key[32], const uint8_t *ad, size_t ad_len) {
  return x ? crisp_xchacha20_poly1305_stream_init(ctx, direction, nonce, key, ad, ad_len)
           : crisp_chacha20_poly1305_stream_init(ctx, direction, nonce, key, ad, ad_len);
}

/* Fails, naming the first byte of ctx that is not zero. */
static void expect_wiped(const crisp_chacha20_poly1305_ctx *ctx, const char *what, const char *chacha,
                         const char *poly, int x, size_t len, size_t piece) {
  const uint8_t *bytes = ctx->opaque;
  for (size_t at = 0; at < sizeof ctx->opaque; at++)
    if (bytes[at]) {
      print_error("%s%s on %s with %s, %zu bytes in pieces of %zu: context byte %zu is %02x, not wiped\n",
                  x ? "xchacha20-poly1305 " : "chacha20-poly1305 ", what, chacha, poly, len, piece, at,
                  bytes[at]);
      fail();
    }
}

/* Feeds in[0..len) through the stream in pieces of piece bytes. */
static void update_in_pieces(crisp_chacha20_poly1305_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len,
                             size_t piece) {
  for (size_t done = 0; done < len; done += piece) {
    const size_t n = len - done < piece ? len - done : piece;
    assert_int_equal(crisp_chacha20_poly1305_stream_update(ctx, out + done, in + done, n), CRISP_OK);
  }
}

/* Every way a stream ends, from a context that was all zeros: each byte
 * init or an update wrote must be zero again. Lengths around the held
 * associated data, the pending key block, a block, the short frames and
 * past the keyed prefix (2048 bytes). */
static void test_finals_wipe(void **state) {
  (void)state;
  static const size_t lengths[] = {0, 1, 15, 63, 64, 65, 200, 1023, 1025, 2049, MAX_MESSAGE};
  static const size_t pieces[] = {1, 13, 64, SIZE_MAX};
  static const size_t ad_lengths[] = {0, 17, 64, 100};
  static uint8_t pt[MAX_MESSAGE], ct[MAX_MESSAGE], out[MAX_MESSAGE];
  uint8_t key[32], nonce[24], ad[100], tag[16], seal_tag[16];
  test_fill_random(ad, sizeof ad);
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
      for (int x = 0; x < 2; x++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
          for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            const size_t len = lengths[l], piece = pieces[p];
            if (piece == 1 && len > 256) continue; /* byte by byte only where the blocks are few */
            const size_t ad_len = ad_lengths[(l + p) % 4];
            test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
            test_fill_random(pt, len);
            crisp_chacha20_poly1305_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            assert_int_equal(init_stream(&ctx, x, CRISP_AEAD_SEAL, nonce, key, ad, ad_len), CRISP_OK);
            update_in_pieces(&ctx, ct, pt, len, piece);
            assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, seal_tag), CRISP_OK);
            expect_wiped(&ctx, final_names[SEAL_FINAL], chacha, poly, x, len, piece);
            for (final_kind kind = OPEN_FINAL_RIGHT; kind <= FINAL_WRONG_DIRECTION; kind++) {
              memset(&ctx, 0, sizeof ctx);
              const crisp_aead_direction direction =
                  kind == FINAL_WRONG_DIRECTION ? CRISP_AEAD_SEAL : CRISP_AEAD_OPEN;
              assert_int_equal(init_stream(&ctx, x, direction, nonce, key, ad, ad_len), CRISP_OK);
              update_in_pieces(&ctx, out, direction == CRISP_AEAD_OPEN ? ct : pt, len, piece);
              memcpy(tag, seal_tag, sizeof tag);
              if (kind == OPEN_FINAL_WRONG) tag[len % 16] ^= 0x40;
              const int want = kind == OPEN_FINAL_RIGHT   ? CRISP_OK
                               : kind == OPEN_FINAL_WRONG ? CRISP_E_MISMATCH
                                                          : CRISP_E_INVALID;
              assert_int_equal(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), want);
              expect_wiped(&ctx, final_names[kind], chacha, poly, x, len, piece);
            }
          }
    }
  }
}

/* A failed init wipes the context whatever stream it held: one in the
 * middle of a message (its key block, keystream, held AD and MAC state
 * all written), refused for an unknown direction or a NULL key. */
static void test_failed_init_wipes(void **state) {
  (void)state;
  static const size_t lengths[] = {0, 5, 64, 300, 1500};
  static uint8_t pt[1500], ct[1500];
  uint8_t key[32], nonce[24], ad[40];
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
      for (int x = 0; x < 2; x++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
          for (int refused = 0; refused < 2; refused++) {
            const size_t len = lengths[l];
            test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
            test_fill_random(ad, sizeof ad), test_fill_random(pt, len);
            crisp_chacha20_poly1305_ctx ctx;
            memset(&ctx, 0x5c, sizeof ctx); /* a context that never was zero */
            assert_int_equal(init_stream(&ctx, x, CRISP_AEAD_SEAL, nonce, key, ad, sizeof ad), CRISP_OK);
            update_in_pieces(&ctx, ct, pt, len, 64);
            assert_int_equal(refused
                                 ? init_stream(&ctx, x, CRISP_AEAD_OPEN, nonce, NULL, ad, sizeof ad)
                                 : init_stream(&ctx, x, (crisp_aead_direction)3, nonce, key, ad, sizeof ad),
                             CRISP_E_INVALID);
            expect_wiped(&ctx, refused ? "init with a NULL key" : "init with an unknown direction", chacha,
                         poly, x, len, 64);
          }
    }
  }
}

/* One stream set to have counted before bytes, then an update of len
 * bytes; returns its status. */
static int update_after(crisp_chacha20_poly1305_ctx *ctx, uint64_t before, uint8_t *out, const uint8_t *in,
                        size_t len, const uint8_t key[32], const uint8_t nonce[12]) {
  assert_int_equal(crisp_chacha20_poly1305_stream_init(ctx, CRISP_AEAD_SEAL, nonce, key, NULL, 0), CRISP_OK);
  crisp_chacha20_poly1305_stream_set_length(ctx, before);
  return crisp_chacha20_poly1305_stream_update(ctx, out, in, len);
}

/* The limit counts the whole message, not the update alone: with room
 * bytes left, room is accepted and room + 1 refused, untouched output
 * and all; the refused update leaves the stream as it was, so its tag
 * is the one of the same stream without it. */
static void test_running_limit(void **state) {
  (void)state;
  static const uint64_t rooms[] = {0, 1, 10, 63, 64, 65, 1000};
  uint8_t key[32], nonce[12], in[1100], out[1100], untouched[1100], want_out[1100], tag[16], want_tag[16];
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
      for (size_t r = 0; r < sizeof rooms / sizeof rooms[0]; r++) {
        const uint64_t room = rooms[r], before = CRISP_CHACHA20_POLY1305_MAX_LEN - room;
        test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce),
            test_fill_random(in, sizeof in);
        crisp_chacha20_poly1305_ctx ctx, want_ctx;
        /* The stream without the refused update. */
        assert_int_equal(update_after(&want_ctx, before, want_out, in, (size_t)room, key, nonce), CRISP_OK);
        assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&want_ctx, want_tag), CRISP_OK);
        /* The refused one first: nothing written, the stream goes on. */
        test_fill_random(untouched, sizeof untouched);
        memcpy(out, untouched, sizeof out);
        if (update_after(&ctx, before, out, in, (size_t)room + 1, key, nonce) != CRISP_E_RANGE) {
          print_error("%s with %s: an update of %llu bytes with %llu left was not refused\n", chacha, poly,
                      (unsigned long long)room + 1, (unsigned long long)room);
          fail();
        }
        assert_memory_equal(out, untouched, sizeof out);
        assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, out, in, (size_t)room), CRISP_OK);
        assert_int_equal(crisp_chacha20_poly1305_stream_update(&ctx, out + room, in, 1), CRISP_E_RANGE);
        assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag), CRISP_OK);
        assert_memory_equal(out, want_out, (size_t)room);
        assert_memory_equal(out + room, untouched + room, sizeof out - room);
        assert_memory_equal(tag, want_tag, sizeof tag);
      }
    }
  }
}

int main(void) {
  test_seed(0x61656164);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_finals_wipe, test_teardown_unpin),
      cmocka_unit_test_teardown(test_failed_init_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_running_limit, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
