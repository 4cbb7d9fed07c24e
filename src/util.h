/* src/util.h - little helpers the front-ends and kernels share. */
#ifndef CRISP_SRC_UTIL_H
#define CRISP_SRC_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Zeroes memory in a way the compiler may not remove as a dead store: the
 * empty asm claims to read the buffer, so the memset must happen first. A
 * volatile byte loop would do too but costs ~20x more on a 1 KiB context. */
static inline void crisp_wipe(void *p, size_t n) {
  memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  volatile unsigned char *v = (volatile unsigned char *)p;
  while (n--) *v++ = 0;
#endif
}

/* Zeroes whole 64-byte lines from p, enough to cover bytes (the caller's
 * buffer has room up to the next multiple of 64): crisp_wipe for buffers
 * of a few hundred bytes on short paths, such as a pad or the vector
 * kernels' states. A constant 64-byte crisp_wipe is one to four vector
 * stores inline, where a longer memset is a call (meson.build). */
static inline void crisp_wipe_lines(void *p, size_t bytes) {
  unsigned char *line = p;
  for (size_t done = 0; done < bytes; done += 64) crisp_wipe(line + done, 64);
}

/* Hides a value from the optimiser: a compiler that can tell a mask is 0
 * or all ones (made from a carry, a borrow or a sign bit) may turn
 * `value & mask` or a masked select back into a branch on it, so a mask
 * made from a secret passes through this once formed. */
static inline uint64_t crisp_value_barrier(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(x));
#endif
  return x;
}

/* Overwrites the `bytes` of stack right below the caller's frame (below
 * this call's return address), at most CRISP_SCRUB_DEEP_MAX: where the
 * functions the caller called kept their frames, register spills and
 * saved registers, which C cannot name to wipe. The one stack scrub: a
 * public entry calls it once its work has returned, with a depth that
 * covers every frame below the entry (src/scrub_depths.h), and the
 * dispatcher after the CPU probe. As the
 * caller's last statement it may become a tail call, whose area starts
 * above the caller's frame, not below it: a caller that needs the whole
 * depth below its own frame calls it earlier. On x86-64 and AArch64 one
 * area, rounded down to 64 bytes, and nothing below it (a caller's thread
 * stack may be small); elsewhere frames of CRISP_SCRUB_PIECE bytes one
 * below the other, twice, which may reach up to a piece deeper. */
#define CRISP_SCRUB_DEEP_MAX 24576
#define CRISP_SCRUB_PIECE 2048
/* Defined where crisp_scrub_below is the one area of assembly: x86-64 and
 * AArch64 ELF, unless -DCRISP_SCRUB_MEASURE or -DCRISP_SCRUB_PORTABLE. */
#if (defined(__x86_64__) || defined(__aarch64__)) && defined(__ELF__) && defined(__LP64__) && \
    !defined(CRISP_SCRUB_MEASURE) && !defined(CRISP_SCRUB_PORTABLE)
#define CRISP_SCRUB_ASSEMBLY 1
#endif
void crisp_scrub_below(size_t bytes);
/* The widest vector store crisp_scrub_below may use, set by the dispatcher
 * from the active level: 16 bytes (SSE2, every x86-64), 32 (AVX2 level)
 * or 64 (AVX-512 level). Elsewhere ignored. */
enum { CRISP_SCRUB_WIDTH_SSE2 = 0, CRISP_SCRUB_WIDTH_AVX2 = 1, CRISP_SCRUB_WIDTH_AVX512 = 2 };
void crisp_scrub_set_width(int width);

/* What a whole exponentiation (crisp_bn_mod_exp, crisp_bn_mod_exp2, the
 * CRT) may leave below the public function that ran it, by the limbs of
 * its Montgomery kernels (the CRT's halves): the ladder's and the kernels'
 * frames, spills and saved registers included. On x86-64 the kernels'
 * frames are sized by class of n (schoolbook, up to 64, up to 128, up to
 * 256 limbs), and so is the scrub; the portable and arm64 kernels' frames
 * do not grow with n. Each depth is above the deepest use measured in its
 * class (test_stack prints it, CRISP_TEST_VERBOSE per call), with room for
 * other compilers' layouts. test_stack fails when a call's use passes the
 * bound bn.h states, which is this depth and 1 KiB for the public
 * function's own frames; test_wipe fails when a secret is left. The public
 * function calls the work as a function of its own, then
 * crisp_scrub_below(CRISP_SCRUB_EXP_BYTES(n)). */
#if defined(__x86_64__)
#define CRISP_SCRUB_EXP_BYTES(n) \
  ((n) <= 31 ? (size_t)10240 : (n) <= 64 ? (size_t)12288 : (n) <= 128 ? (size_t)16384 : (size_t)22528)
#else
#define CRISP_SCRUB_EXP_BYTES(n) ((size_t)10240 + 0 * (n))
#endif

/* Little-endian loads and stores. On little-endian targets a memcpy is one
 * move; gcc 12 does not always merge the portable byte form (it turned a
 * 16-byte tag store into ~80 byte shifts). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CRISP_LITTLE_ENDIAN 1
#endif

static inline uint32_t crisp_load32_le(const uint8_t *p) {
#ifdef CRISP_LITTLE_ENDIAN
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
#else
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static inline void crisp_store32_le(uint8_t *p, uint32_t v) {
#ifdef CRISP_LITTLE_ENDIAN
  memcpy(p, &v, sizeof v);
#else
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
#endif
}

static inline uint64_t crisp_load64_le(const uint8_t *p) {
#ifdef CRISP_LITTLE_ENDIAN
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
#else
  return (uint64_t)crisp_load32_le(p) | (uint64_t)crisp_load32_le(p + 4) << 32;
#endif
}

static inline void crisp_store64_le(uint8_t *p, uint64_t v) {
#ifdef CRISP_LITTLE_ENDIAN
  memcpy(p, &v, sizeof v);
#else
  crisp_store32_le(p, (uint32_t)v);
  crisp_store32_le(p + 4, (uint32_t)(v >> 32));
#endif
}

/* Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share memory. */
static inline int crisp_overlaps(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
  const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

#endif
