/* src/poly1305_radix64.h - the parts of radix 2^64 Poly1305 that do not
 * depend on the instruction set, written once for the x86-64 and arm64
 * scalar kernels: clamping the key, folding the bits above 2^130, and the
 * final reduction and tag. Their block loops differ (inline assembly on
 * x86-64, MUL/UMULH through C on arm64) and stay in their own files.
 *
 * h = h[0] + h[1] 2^64 + h[2] 2^128 is kept partly reduced; r is clamped, so
 * r[0], r[1] < 2^60 and 4 divides r[1]. Nothing here branches on or indexes
 * by key, accumulator or message. */
#ifndef CRISP_SRC_POLY1305_RADIX64_H
#define CRISP_SRC_POLY1305_RADIX64_H

#include <stdint.h>

#include "util.h"

/* RFC 8439 2.5: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff; s is the second half. */
static inline void poly1305_radix64_key(uint64_t r[2], uint64_t s[2], const uint8_t key[32]) {
  r[0] = crisp_load64_le(key) & 0x0ffffffc0fffffffull;
  r[1] = crisp_load64_le(key + 8) & 0x0ffffffc0ffffffcull;
  s[0] = crisp_load64_le(key + 16);
  s[1] = crisp_load64_le(key + 24);
}

/* h = h mod 2^130 + 5 (h >> 130), since 2^130 = 5 mod p: leaves h[2] at most
 * 4 for any h[2] below 2^62. */
static inline void poly1305_radix64_fold(uint64_t h[3]) {
  const uint64_t over = (h[2] >> 2) * 5;
  h[2] &= 3;
  unsigned __int128 t = (unsigned __int128)h[0] + over;
  h[0] = (uint64_t)t;
  t = (unsigned __int128)h[1] + (uint64_t)(t >> 64);
  h[1] = (uint64_t)t;
  h[2] += (uint64_t)(t >> 64);
}

/* tag = (h mod p + s) mod 2^128 for h[2] below 2^62: after the fold h < 2p,
 * and g = h + 5 reaches 2^130 exactly when h >= p, when g's low 130 bits are
 * h - p; a mask, not a branch, picks g or h. */
static inline void poly1305_radix64_tag(const uint64_t accumulator[3], const uint64_t s[2], uint8_t tag[16]) {
  uint64_t h[3] = {accumulator[0], accumulator[1], accumulator[2]};
  poly1305_radix64_fold(h);
  unsigned __int128 t = (unsigned __int128)h[0] + 5;
  const uint64_t g0 = (uint64_t)t;
  t = (unsigned __int128)h[1] + (uint64_t)(t >> 64);
  const uint64_t g1 = (uint64_t)t;
  const uint64_t take_g = crisp_value_barrier(0 - ((h[2] + (uint64_t)(t >> 64)) >> 2));
  const uint64_t f0 = h[0] ^ ((h[0] ^ g0) & take_g), f1 = h[1] ^ ((h[1] ^ g1) & take_g);
  t = (unsigned __int128)f0 + s[0];
  crisp_store64_le(tag, (uint64_t)t);
  crisp_store64_le(tag + 8, f1 + s[1] + (uint64_t)(t >> 64));
}

#endif
