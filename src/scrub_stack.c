/* src/scrub_stack.c - crisp_scrub_stack and crisp_scrub_stack_deep, out of
 * line so that their arrays are frames of their own, at the depth of the
 * frames they overwrite. */
#include "crisp/bn.h"
#include "util.h"

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void crisp_scrub_stack(void) {
  unsigned char area[512];
  /* 64 bytes at a time, each kept by crisp_wipe's barrier: one memset of
   * the whole array becomes rep stos, whose start-up costs more than the
   * stores. */
  for (size_t i = 0; i < sizeof area; i += 64) crisp_wipe(area + i, 64);
}

/* One piece of a deep scrub, then the pieces below it: each frame lies
 * right below the one before, so the stack is overwritten from the
 * caller's frame down, and no deeper than the pieces reach. Between two
 * pieces lie this function's own return address and saved registers, and
 * any padding the compiler leaves, which no piece writes. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void
scrub_pieces(size_t bytes) {
  unsigned char area[CRISP_SCRUB_PIECE];
  crisp_wipe(area, sizeof area);
  if (bytes > sizeof area) scrub_pieces(bytes - sizeof area);
    /* area stays live across the call: no tail call, so the next piece's
     * frame lies below this one */
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" : : "r"(area) : "memory");
#endif
}

/* The pieces again, from a frame lower: the words between the first
 * pass's pieces now lie inside the second pass's arrays. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void
scrub_pieces_shifted(size_t bytes) {
  unsigned char shift[64];
  crisp_wipe(shift, sizeof shift);
  scrub_pieces(bytes);
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" : : "r"(shift) : "memory");
#endif
}

void crisp_scrub_stack_deep(size_t bytes) {
  if (bytes > CRISP_SCRUB_DEEP_MAX) bytes = CRISP_SCRUB_DEEP_MAX;
  if (!bytes) return;
  scrub_pieces(bytes);
  scrub_pieces_shifted(bytes);
}
