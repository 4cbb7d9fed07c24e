/* src/scrub_stack.c - crisp_scrub_stack, out of line so that its array is a
 * frame of its own, at the depth of the frame it overwrites. */
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

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void crisp_scrub_stack_deep(size_t bytes) {
  /* the array's top lies next to the caller's frame: wipe from there */
  unsigned char area[CRISP_SCRUB_DEEP_MAX];
  if (bytes > sizeof area) bytes = sizeof area;
  crisp_wipe(area + sizeof area - bytes, bytes);
}
