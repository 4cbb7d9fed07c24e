/* src/scrub_stack.c - crisp_scrub_stack and crisp_scrub_stack_deep, out of
 * line so that their arrays are frames of their own, at the depth of the
 * frames they overwrite. */
#include "crisp/bn.h"
#include "util.h"

#define CRISP_SCRUB_STRING_OF(x) #x
#define CRISP_SCRUB_STRING(x) CRISP_SCRUB_STRING_OF(x)

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

#if defined(__x86_64__) && defined(__ELF__) && defined(__LP64__) && !defined(CRISP_SCRUB_MEASURE)
/* x86-64: the stack pointer moved down by the depth, then 16-byte stores
 * of zero from the top of that area down, then the stack pointer back. The
 * area is one piece right below this function's return address, so no
 * word in it is left unwritten (a frame of C code may keep padding it
 * never stores to) and none below it is touched (a caller's thread stack
 * may be small). Stores rather than memset: rep stos's start-up costs
 * more than the stores at these depths. Top-down, one page after the
 * other, so that a guard page is hit rather than stepped over. The area
 * lies above the stack pointer while it is written, where a signal
 * handler does not put its frame. */
__asm__(".pushsection .text\n"
        ".p2align 4\n"
        ".globl crisp_scrub_stack_deep\n"
        ".hidden crisp_scrub_stack_deep\n"
        ".type crisp_scrub_stack_deep, @function\n"
        "crisp_scrub_stack_deep:\n"
        "  mov $" CRISP_SCRUB_STRING(CRISP_SCRUB_DEEP_MAX) ", %eax\n"
        "  cmp %rax, %rdi\n"
        "  cmova %rax, %rdi\n"
        "  and $-64, %rdi\n"
        "  jz 2f\n"
        "  mov %rdi, %rcx\n"
        "  sub %rdi, %rsp\n"
        "  pxor %xmm0, %xmm0\n"
        "1:\n"
        "  sub $64, %rcx\n"
        "  movups %xmm0, 48(%rsp,%rcx)\n"
        "  movups %xmm0, 32(%rsp,%rcx)\n"
        "  movups %xmm0, 16(%rsp,%rcx)\n"
        "  movups %xmm0, (%rsp,%rcx)\n"
        "  jnz 1b\n"
        "  add %rdi, %rsp\n"
        "2:\n"
        "  ret\n"
        ".size crisp_scrub_stack_deep, .-crisp_scrub_stack_deep\n"
        ".popsection\n");
#else
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
#ifdef CRISP_SCRUB_MEASURE
  /* TEST ONLY: no scrub, so that test_wipe and test_stack show how deep
   * each entry's work reaches (src/scrub_depths.h says how to use it). */
  (void)bytes;
  return;
#endif
  if (bytes > CRISP_SCRUB_DEEP_MAX) bytes = CRISP_SCRUB_DEEP_MAX;
  if (!bytes) return;
  scrub_pieces(bytes);
  scrub_pieces_shifted(bytes);
}
#endif
