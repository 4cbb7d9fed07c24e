/* src/scrub_stack.c - crisp_scrub_stack, out of line so that its array is a
 * frame of its own, at the depth of the frame it overwrites. */
#include "crisp/bn.h"
#include "util.h"

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void crisp_scrub_stack(void) {
  unsigned char area[512];
  crisp_wipe(area, sizeof area);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void crisp_scrub_mont_frames(void) {
  unsigned char area[2 * CRISP_BN_MONT_MAX_LIMBS * sizeof(crisp_limb) + 512];
  crisp_wipe(area, sizeof area);
}
