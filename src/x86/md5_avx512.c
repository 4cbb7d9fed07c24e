/* src/x86/md5_avx512.c - MD5 compression, one stream, in the low lane of
 * xmm registers, so that every step's function is one VPTERNLOGD and its
 * rotate one VPROLD.
 *
 * Layout: a, b, c, d each in lane 0 of an xmm register (the other lanes are
 * don't-care); per block, x[k] + K[i] of all 64 steps is made with four
 * 512-bit permutes and adds and kept on the stack, off the dependency chain.
 * ISA: AVX-512F + AVX-512VL (built with the avx512 flag set, so the compiler
 * may also use BW/DQ/AVX2 encodings: the descriptor lists them).
 * Critical path per step: b -> ternlog -> add -> rotate -> add (4 vector
 * operations); x[k] + K[i] is added to the old a beforehand, straight from
 * memory, and the chain never leaves the vector registers. The scalar
 * assembly's steps take 4.5 cycles on average, so this wins only where
 * simple vector operations take one cycle (4 a step); where they take two
 * (8 a step) it loses by almost half. The microarchitecture table (src/dispatch/uarch_table.c)
 * chooses it for such cores; feature order, which comes after the scalar
 * code in src/implementations.def, never does.
 * Meant for: single messages of any length. */
#include <immintrin.h>

#include "impl.h"

/* floor(2^32 |sin(i)|) for i = 1..64 (RFC 1321 3.4), in step order. */
static const uint32_t step_constants[64] __attribute__((aligned(64))) = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* Message word of each step of rounds 2, 3, 4: k = 1 + 5j, 5 + 3j, 7j
 * (mod 16) for step j of the round (RFC 1321 3.4); round 1 takes k = j. */
static const uint32_t round_word_index[3][16] __attribute__((aligned(64))) = {
    {1, 6, 11, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12},
    {5, 8, 11, 14, 1, 4, 7, 10, 13, 0, 3, 6, 9, 12, 15, 2},
    {0, 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2, 9},
};

/* VPTERNLOGD truth tables of the round functions of (b, c, d):
 * F = b ? c : d, G = d ? b : c, H = b ^ c ^ d, I = c ^ (b | ~d).
 * VPTERNLOGD overwrites its first operand; b, the value just made, goes
 * there, through a register copy that renaming eliminates, because the
 * destination is the operand the instruction can take last (with c there
 * and b as a source, each step is a cycle longer). */
enum { FUNCTION_F = 0xca, FUNCTION_G = 0xe4, FUNCTION_H = 0x96, FUNCTION_I = 0x39 };

/* a = b + ((a + f(b, c, d) + x[k] + K[i]) <<< s); x[k] + K[i] is added
 * first, as a is old and b is the value just made, by a VPADDD that
 * broadcasts it from the stack (the load folded into the add). */
#define STEP(function, a, b, c, d, i, shift)                        \
  a = _mm_add_epi32(a, _mm_set1_epi32((int)words[i]));              \
  __asm__("" : "+v"(a)); /* no reassociating x + K into the path */ \
  a = _mm_add_epi32(a, _mm_ternarylogic_epi32(b, c, d, function));  \
  a = _mm_add_epi32(_mm_rol_epi32(a, shift), b)

#define STEP4(function, i, s0, s1, s2, s3) \
  STEP(function, a, b, c, d, (i), s0);     \
  STEP(function, d, a, b, c, (i) + 1, s1); \
  STEP(function, c, d, a, b, (i) + 2, s2); \
  STEP(function, b, c, d, a, (i) + 3, s3)

#define ROUND(function, base, s0, s1, s2, s3)  \
  STEP4(function, (base), s0, s1, s2, s3);     \
  STEP4(function, (base) + 4, s0, s1, s2, s3); \
  STEP4(function, (base) + 8, s0, s1, s2, s3); \
  STEP4(function, (base) + 12, s0, s1, s2, s3)

void crisp_md5_avx512(uint32_t state[4], const uint8_t *data, size_t nblocks) {
  uint32_t words[64] __attribute__((aligned(64)));
  const __m512i index2 = _mm512_load_si512(round_word_index[0]);
  const __m512i index3 = _mm512_load_si512(round_word_index[1]);
  const __m512i index4 = _mm512_load_si512(round_word_index[2]);
  __m128i a = _mm_loadu_si32(&state[0]), b = _mm_loadu_si32(&state[1]);
  __m128i c = _mm_loadu_si32(&state[2]), d = _mm_loadu_si32(&state[3]);
  for (; nblocks; nblocks--, data += 64) {
    const __m512i x = _mm512_loadu_si512(data);
    _mm512_store_si512(words, _mm512_add_epi32(x, _mm512_load_si512(step_constants)));
    _mm512_store_si512(words + 16, _mm512_add_epi32(_mm512_permutexvar_epi32(index2, x),
                                                    _mm512_load_si512(step_constants + 16)));
    _mm512_store_si512(words + 32, _mm512_add_epi32(_mm512_permutexvar_epi32(index3, x),
                                                    _mm512_load_si512(step_constants + 32)));
    _mm512_store_si512(words + 48, _mm512_add_epi32(_mm512_permutexvar_epi32(index4, x),
                                                    _mm512_load_si512(step_constants + 48)));
    /* Read the words back from memory, not out of the vectors with shuffles. */
    __asm__("" : "+m"(words));
    const __m128i a0 = a, b0 = b, c0 = c, d0 = d;
    /* Shifts per round from RFC 1321 3.4. */
    ROUND(FUNCTION_F, 0, 7, 12, 17, 22);
    ROUND(FUNCTION_G, 16, 5, 9, 14, 20);
    ROUND(FUNCTION_H, 32, 4, 11, 16, 23);
    ROUND(FUNCTION_I, 48, 6, 10, 15, 21);
    a = _mm_add_epi32(a, a0), b = _mm_add_epi32(b, b0);
    c = _mm_add_epi32(c, c0), d = _mm_add_epi32(d, d0);
  }
  _mm_storeu_si32(&state[0], a), _mm_storeu_si32(&state[1], b);
  _mm_storeu_si32(&state[2], c), _mm_storeu_si32(&state[3], d);
  /* The message schedule on the stack is public data (MD5 has no key). */
}

const crisp_md5_impl crisp_md5_avx512_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_avx512_impl),
    .blocks = crisp_md5_avx512,
};
