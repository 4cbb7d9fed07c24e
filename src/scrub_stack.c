/* src/scrub_stack.c - crisp_scrub_below, the one stack scrub: every
 * public entry that handles a secret overwrites the stack with it once
 * its work has returned (src/util.h states what it guarantees). Assembly
 * on x86-64 and AArch64, portable C elsewhere. */
#include "crisp/bn.h"
#include "util.h"

#include <stdatomic.h>

#define CRISP_SCRUB_STRING_OF(x) #x
#define CRISP_SCRUB_STRING(x) CRISP_SCRUB_STRING_OF(x)

#if defined(CRISP_SCRUB_ASSEMBLY) && defined(__x86_64__)
/* x86-64: the stack pointer moved down by the depth, then stores of zero
 * from the top of that area down, then the stack pointer back. The area is
 * one piece right below this function's return address, so no word in it
 * is left unwritten (a frame of C code may keep padding it never stores
 * to) and none below it is touched (a caller's thread stack may be small).
 * Aligned vector stores rather than memset: rep stos's start-up costs
 * more than the stores at these depths (the shallowest is under a
 * kilobyte), and the widest store the active level allows
 * (crisp_scrub_width) halves or quarters their count.
 * Top-down, one page after the other, so that a guard page is hit rather
 * than stepped over. The area lies above the stack pointer while it is written, where
 * a signal handler does not put its frame. */
_Atomic int crisp_scrub_width;

void crisp_scrub_set_width(int width) {
#ifdef CRISP_NO_AVX512
  if (width > CRISP_SCRUB_WIDTH_AVX2) width = CRISP_SCRUB_WIDTH_AVX2;
#endif
  atomic_store_explicit(&crisp_scrub_width, width, memory_order_relaxed);
}

/* Each loop stores 64 bytes at a time at the 64-byte-aligned addresses
 * inside the area, from the top down (%rcx), then the area's unaligned
 * first and last 64 bytes. */
#define CRISP_SCRUB_LOOP(label, zero, aligned, unaligned) \
  "  " zero                                               \
  "\n"                                                    \
  "  cmp %rsp, %rcx\n"                                    \
  "  jb " label "9f\n" label "8:\n" aligned               \
  "  sub $64, %rcx\n"                                     \
  "  cmp %rsp, %rcx\n"                                    \
  "  jae " label "8b\n" label "9:\n" unaligned
#define CRISP_SCRUB_ZMM                                                              \
  CRISP_SCRUB_LOOP("3", "vpxord %zmm0, %zmm0, %zmm0", "  vmovdqa64 %zmm0, (%rcx)\n", \
                   "  vmovdqu64 %zmm0, (%rsp)\n  vmovdqu64 %zmm0, -64(%rdx)\n  vzeroupper\n  jmp 6f\n")
#define CRISP_SCRUB_YMM                                                                                      \
  CRISP_SCRUB_LOOP("4", "vpxor %xmm0, %xmm0, %xmm0", "  vmovdqa %ymm0, 32(%rcx)\n  vmovdqa %ymm0, (%rcx)\n", \
                   "  vmovdqu %ymm0, (%rsp)\n  vmovdqu %ymm0, 32(%rsp)\n"                                    \
                   "  vmovdqu %ymm0, -64(%rdx)\n  vmovdqu %ymm0, -32(%rdx)\n  vzeroupper\n"                  \
                   "  jmp 6f\n")
#define CRISP_SCRUB_XMM                                                     \
  CRISP_SCRUB_LOOP("5", "pxor %xmm0, %xmm0",                                \
                   "  movaps %xmm0, 48(%rcx)\n  movaps %xmm0, 32(%rcx)\n"   \
                   "  movaps %xmm0, 16(%rcx)\n  movaps %xmm0, (%rcx)\n",    \
                   "  movups %xmm0, (%rsp)\n  movups %xmm0, 16(%rsp)\n"     \
                   "  movups %xmm0, 32(%rsp)\n  movups %xmm0, 48(%rsp)\n"   \
                   "  movups %xmm0, -64(%rdx)\n  movups %xmm0, -48(%rdx)\n" \
                   "  movups %xmm0, -32(%rdx)\n  movups %xmm0, -16(%rdx)\n")
#ifdef CRISP_NO_AVX512
#define CRISP_SCRUB_WIDE CRISP_SCRUB_YMM
#else
#define CRISP_SCRUB_WIDE "  cmp $2, %eax\n  jne 2f\n" CRISP_SCRUB_ZMM "2:\n" CRISP_SCRUB_YMM
#endif
/* Registers: %rdi the depth, %rdx the area's top (this function's return
 * address), %rsp its bottom, %rcx the aligned store's address. */
__asm__(".pushsection .text\n"
        ".p2align 4\n"
        ".globl crisp_scrub_below\n"
        ".hidden crisp_scrub_below\n"
        ".type crisp_scrub_below, @function\n"
        "crisp_scrub_below:\n"
        "  mov $" CRISP_SCRUB_STRING(CRISP_SCRUB_DEEP_MAX) ", %eax\n"
        "  cmp %rax, %rdi\n"
        "  cmova %rax, %rdi\n"
        "  and $-64, %rdi\n"
        "  jz 7f\n"
        "  mov %rsp, %rdx\n"
        "  sub %rdi, %rsp\n"
        "  lea -64(%rdx), %rcx\n"
        "  and $-64, %rcx\n"
        "  mov crisp_scrub_width(%rip), %eax\n"
        "  test %eax, %eax\n"
        "  jz 1f\n"
        CRISP_SCRUB_WIDE
        "1:\n"
        CRISP_SCRUB_XMM
        "6:\n"
        "  add %rdi, %rsp\n"
        "7:\n"
        "  ret\n"
        ".size crisp_scrub_below, .-crisp_scrub_below\n"
        ".popsection\n");
#elif defined(CRISP_SCRUB_ASSEMBLY) && defined(__aarch64__)
/* AArch64: as on x86-64, one area right below the caller's stack pointer
 * (the return address stays in x30), the stack pointer moved down over
 * it while 64 bytes of zero pairs are stored from the top down. The depth
 * is a multiple of 64, so the stack pointer stays 16-byte aligned. */
void crisp_scrub_set_width(int width) {
  (void)width;
}

__asm__(".pushsection .text\n"
        ".p2align 4\n"
        ".globl crisp_scrub_below\n"
        ".hidden crisp_scrub_below\n"
        ".type crisp_scrub_below, %function\n"
        "crisp_scrub_below:\n"
        "  mov x9, #" CRISP_SCRUB_STRING(CRISP_SCRUB_DEEP_MAX) "\n"
        "  cmp x0, x9\n"
        "  csel x0, x9, x0, hi\n"
        "  and x0, x0, #-64\n"
        "  cbz x0, 2f\n"
        "  mov x10, sp\n"
        "  sub sp, sp, x0\n"
        "  mov x11, sp\n"
        "1:\n"
        "  stp xzr, xzr, [x10, #-16]!\n"
        "  stp xzr, xzr, [x10, #-16]!\n"
        "  stp xzr, xzr, [x10, #-16]!\n"
        "  stp xzr, xzr, [x10, #-16]!\n"
        "  cmp x10, x11\n"
        "  b.hi 1b\n"
        "  add sp, sp, x0\n"
        "2:\n"
        "  ret\n"
        ".size crisp_scrub_below, .-crisp_scrub_below\n"
        ".popsection\n");
#else
/* The portable scrub: other targets, and x86-64 or AArch64 built with
 * -DCRISP_SCRUB_PORTABLE (TEST ONLY: the wipe-builds stage checks this
 * code with test_wipe on a clang build).
 * One piece of a scrub, then the pieces below it: each frame lies
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

void crisp_scrub_below(size_t bytes) {
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

void crisp_scrub_set_width(int width) {
  (void)width;
}
#endif
