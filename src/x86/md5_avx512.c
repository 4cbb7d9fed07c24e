/* src/x86/md5_avx512.c - MD5 compression, one stream, in the low lane of
 * xmm registers, so that every step's function is one VPTERNLOGD and its
 * rotate one VPROLD.
 *
 * Layout: a, b, c, d each in lane 0 of an xmm register (the other lanes are
 * don't-care); per block, x[k] + K[i] of all 64 steps is made with four
 * 512-bit permutes and adds and kept on the stack.
 * ISA: AVX-512F + AVX-512VL (built with the avx512 flag set, so the compiler
 * may also use BW/DQ/AVX2 encodings: the descriptor lists them).
 * Critical path per step: ternlog, add, rotate, add = 4 ops, against 5 for
 * the F and I steps of the best general-register code.
 * Speed on AMD EPYC family 1Ah (Zen 5): 4.9 TSC cycles/byte at 16 KiB, 0.59x
 * OpenSSL 3.0 MD5(), because every vector integer op there has 2-cycle
 * latency (8 cycles a step, against 4.5 for md5_x86_64.S). It is listed in
 * src/dispatch/impl_list.h after the general-register code, so it is built,
 * tested and benchmarked (crisp bench --impl all) but never chosen by level
 * here; it is for cores with 1-cycle vector latency (Zen 4, Ice Lake and
 * later), where it should win, once dispatch can tell those cores apart.
 * Meant for: single messages of any length. */
#include <immintrin.h>

#include "x86/md5_x86_64.h"

/* Message word of each step of rounds 2, 3, 4: k = 1 + 5j, 5 + 3j, 7j
 * (mod 16) for step j of the round (RFC 1321 3.4); round 1 takes k = j. */
static const uint32_t round_word_index[3][16] __attribute__((aligned(64))) = {
    {1, 6, 11, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12},
    {5, 8, 11, 14, 1, 4, 7, 10, 13, 0, 3, 6, 9, 12, 15, 2},
    {0, 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2, 9},
};

/* VPTERNLOGD truth tables of the round functions of (b, c, d):
 * F = b ? c : d, G = d ? b : c, H = b ^ c ^ d, I = c ^ (b | ~d). */
enum { FUNCTION_F = 0xca, FUNCTION_G = 0xe4, FUNCTION_H = 0x96, FUNCTION_I = 0x39 };

/* a = b + ((a + f(b, c, d) + x[k] + K[i]) <<< s); x[k] + K[i] is added
 * first, as a is old and b is the value just made. */
#define STEP(function, a, b, c, d, i, shift)                                  \
  a = _mm_add_epi32(a, _mm_cvtsi32_si128((int)words[i]));                    \
  __asm__("" : "+v"(a)); /* no reassociating x + K into the path */          \
  a = _mm_add_epi32(a, _mm_ternarylogic_epi32(b, c, d, function));           \
  a = _mm_add_epi32(_mm_rol_epi32(a, shift), b)

#define STEP4(function, i, s0, s1, s2, s3)  \
  STEP(function, a, b, c, d, (i), s0);      \
  STEP(function, d, a, b, c, (i) + 1, s1);  \
  STEP(function, c, d, a, b, (i) + 2, s2);  \
  STEP(function, b, c, d, a, (i) + 3, s3)

#define ROUND(function, base, s0, s1, s2, s3)    \
  STEP4(function, (base), s0, s1, s2, s3);       \
  STEP4(function, (base) + 4, s0, s1, s2, s3);   \
  STEP4(function, (base) + 8, s0, s1, s2, s3);   \
  STEP4(function, (base) + 12, s0, s1, s2, s3)

void crisp_md5_avx512(uint32_t state[4], const uint8_t *data, size_t nblocks) {
  uint32_t words[64] __attribute__((aligned(64)));
  const __m512i *constants = (const __m512i *)crisp_md5_step_constants;
  const __m512i index2 = _mm512_load_si512(round_word_index[0]);
  const __m512i index3 = _mm512_load_si512(round_word_index[1]);
  const __m512i index4 = _mm512_load_si512(round_word_index[2]);
  __m128i a = _mm_cvtsi32_si128((int)state[0]), b = _mm_cvtsi32_si128((int)state[1]);
  __m128i c = _mm_cvtsi32_si128((int)state[2]), d = _mm_cvtsi32_si128((int)state[3]);
  for (; nblocks; nblocks--, data += 64) {
    const __m512i x = _mm512_loadu_si512(data);
    _mm512_store_si512(words, _mm512_add_epi32(x, _mm512_load_si512(constants)));
    _mm512_store_si512(words + 16, _mm512_add_epi32(_mm512_permutexvar_epi32(index2, x), _mm512_load_si512(constants + 1)));
    _mm512_store_si512(words + 32, _mm512_add_epi32(_mm512_permutexvar_epi32(index3, x), _mm512_load_si512(constants + 2)));
    _mm512_store_si512(words + 48, _mm512_add_epi32(_mm512_permutexvar_epi32(index4, x), _mm512_load_si512(constants + 3)));
    const __m128i a0 = a, b0 = b, c0 = c, d0 = d;
    /* Shifts per round from RFC 1321 3.4. */
    ROUND(FUNCTION_F, 0, 7, 12, 17, 22);
    ROUND(FUNCTION_G, 16, 5, 9, 14, 20);
    ROUND(FUNCTION_H, 32, 4, 11, 16, 23);
    ROUND(FUNCTION_I, 48, 6, 10, 15, 21);
    a = _mm_add_epi32(a, a0), b = _mm_add_epi32(b, b0);
    c = _mm_add_epi32(c, c0), d = _mm_add_epi32(d, d0);
  }
  state[0] = (uint32_t)_mm_cvtsi128_si32(a), state[1] = (uint32_t)_mm_cvtsi128_si32(b);
  state[2] = (uint32_t)_mm_cvtsi128_si32(c), state[3] = (uint32_t)_mm_cvtsi128_si32(d);
}

const crisp_md5_impl crisp_md5_avx512_impl = {
    .info = {CRISP_KERNEL_MD5, "avx512", CRISP_LEVEL_AVX512,
             CRISP_CPU_AVX | CRISP_CPU_AVX2 | CRISP_CPU_AVX512F | CRISP_CPU_AVX512VL | CRISP_CPU_AVX512BW |
                 CRISP_CPU_AVX512DQ},
    .blocks = crisp_md5_avx512,
};
