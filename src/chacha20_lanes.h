/* src/chacha20_lanes.h - ChaCha20 on LANES blocks at once, written once and
 * compiled per instruction set (the SIMD files include it).
 *
 * Layout: one vector per state word, block j of the group in lane j, so a
 * quarter-round is the same 12 element-wise operations for every block and
 * no shuffles are needed inside the rounds; the group is transposed back to
 * blocks once, in V_XOR_STORE, when the keystream meets the data.
 * The rounds are a chain of dependent adds, xors and rotates, so a narrow
 * group waits on the vector latency; wider groups fill the units.
 *
 * The including file defines: VECTOR, LANES, V_SET1(uint32_t), V_ADD, V_XOR,
 * V_ROTL16/12/8/7, V_LANE_INDEX (the vector 0, 1, .., LANES-1), and
 * V_XOR_STORE(out, in, x) for LANES * 64 bytes (x: the 16 word vectors).
 * The group calls leave key words and keystream in their frames; the
 * public entries' stack scrub (src/scrub_depths.h) overwrites them, so
 * none is wiped here. Optionally CHACHA20_TWO_GROUPS, and
 * V_XOR_STORE_PARTIAL(out, in, x, len)
 * for fewer bytes (masked loads and stores; without it a partial group goes
 * through a stack buffer). Optionally CHACHA20_KEYED, for
 * chacha20_lanes_keyed (the AEAD's key block beside a message's groups)
 * and a lone block after whole groups computed beside the last of them;
 * and CHACHA20_OPEN_MAC with CHACHA20_MAC_STEP, for
 * chacha20_lanes_open_mac (the AEAD's fused short open). */

/* Declares p[16] = the rounds' words p0..p15 plus the block function's
 * input `state`, with `counter` (the lanes' block counters) for word 12:
 * the final addition of every block function. */
#define CHACHA20_FEED_FORWARD(p, counter)                                                               \
  VECTOR p[16] = {                                                                                      \
      V_ADD(p##0, V_SET1(state[0])),  V_ADD(p##1, V_SET1(state[1])),   V_ADD(p##2, V_SET1(state[2])),   \
      V_ADD(p##3, V_SET1(state[3])),  V_ADD(p##4, V_SET1(state[4])),   V_ADD(p##5, V_SET1(state[5])),   \
      V_ADD(p##6, V_SET1(state[6])),  V_ADD(p##7, V_SET1(state[7])),   V_ADD(p##8, V_SET1(state[8])),   \
      V_ADD(p##9, V_SET1(state[9])),  V_ADD(p##10, V_SET1(state[10])), V_ADD(p##11, V_SET1(state[11])), \
      V_ADD(p##12, counter),          V_ADD(p##13, V_SET1(state[13])), V_ADD(p##14, V_SET1(state[14])), \
      V_ADD(p##15, V_SET1(state[15]))}

#define CHACHA20_QUARTER_ROUND(a, b, c, d)      \
  do {                                          \
    a = V_ADD(a, b), d = V_ROTL16(V_XOR(d, a)); \
    c = V_ADD(c, d), b = V_ROTL12(V_XOR(b, c)); \
    a = V_ADD(a, b), d = V_ROTL8(V_XOR(d, a));  \
    c = V_ADD(c, d), b = V_ROTL7(V_XOR(b, c));  \
  } while (0)

/* len bytes (at most LANES * 64) of a group's keystream x XORed into in. */
static inline __attribute__((always_inline)) void chacha20_lanes_store(uint8_t *out, const uint8_t *in,
                                                                       VECTOR x[16], size_t len) {
  if (len == 0) return; /* a keyed call with only its key block; in and out may be NULL */
  if (len == LANES * 64) {
    V_XOR_STORE(out, in, x);
    return;
  }
#ifdef V_XOR_STORE_PARTIAL
  V_XOR_STORE_PARTIAL(out, in, x, len);
#else
  uint8_t buffer[LANES * 64];
  memcpy(buffer, in, len);
  memset(buffer + len, 0, sizeof buffer - len);
  V_XOR_STORE(buffer, buffer, x);
  memcpy(out, buffer, len);
  crisp_wipe(buffer, sizeof buffer);
#endif
}

static inline uint32_t chacha20_rotl32(uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

/* The key block: one more block (the AEAD's Poly1305 key block at
 * state[12], or a lone block after the groups) on the general-purpose
 * registers, its quarter-rounds placed among the vector ones. The vector
 * rounds wait on their latency and the integer units are idle meanwhile,
 * so the extra block costs next to nothing, where a block after the group
 * would cost a pass of its own. Written only when with_key (a constant in
 * each caller, so the other callers compile without it). */

#define CHACHA20_KEY_QUARTER_ROUND(with_key, a, b, c, d) \
  do {                                                   \
    if (with_key) {                                      \
      a += b, d = chacha20_rotl32(d ^ a, 16);            \
      c += d, b = chacha20_rotl32(b ^ c, 12);            \
      a += b, d = chacha20_rotl32(d ^ a, 8);             \
      c += d, b = chacha20_rotl32(b ^ c, 7);             \
    }                                                    \
  } while (0)

/* A double round of the group x0..x15, each quarter-round followed by the
 * key block's same quarter-round on k0..k15 (with_key). */
#define CHACHA20_VECTOR_ROUNDS_AND_KEY(with_key)            \
  do {                                                      \
    CHACHA20_QUARTER_ROUND(x0, x4, x8, x12);                \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k0, k4, k8, k12);  \
    CHACHA20_QUARTER_ROUND(x1, x5, x9, x13);                \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k1, k5, k9, k13);  \
    CHACHA20_QUARTER_ROUND(x2, x6, x10, x14);               \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k2, k6, k10, k14); \
    CHACHA20_QUARTER_ROUND(x3, x7, x11, x15);               \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k3, k7, k11, k15); \
    CHACHA20_QUARTER_ROUND(x0, x5, x10, x15);               \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k0, k5, k10, k15); \
    CHACHA20_QUARTER_ROUND(x1, x6, x11, x12);               \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k1, k6, k11, k12); \
    CHACHA20_QUARTER_ROUND(x2, x7, x8, x13);                \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k2, k7, k8, k13);  \
    CHACHA20_QUARTER_ROUND(x3, x4, x9, x14);                \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k3, k4, k9, k14);  \
  } while (0)

/* The key block's column round and diagonal round (with_key), and a
 * double round of it alone. */
#define CHACHA20_KEY_COLUMNS(with_key)                      \
  do {                                                      \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k0, k4, k8, k12);  \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k1, k5, k9, k13);  \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k2, k6, k10, k14); \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k3, k7, k11, k15); \
  } while (0)
#define CHACHA20_KEY_DIAGONALS(with_key)                    \
  do {                                                      \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k0, k5, k10, k15); \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k1, k6, k11, k12); \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k2, k7, k8, k13);  \
    CHACHA20_KEY_QUARTER_ROUND(with_key, k3, k4, k9, k14);  \
  } while (0)
#define CHACHA20_KEY_DOUBLE_ROUND() \
  do {                              \
    CHACHA20_KEY_COLUMNS(1);        \
    CHACHA20_KEY_DIAGONALS(1);      \
  } while (0)

#define CHACHA20_KEY_START(k, counter)                                                                    \
  uint32_t k##0 = state[0], k##1 = state[1], k##2 = state[2], k##3 = state[3], k##4 = state[4];           \
  uint32_t k##5 = state[5], k##6 = state[6], k##7 = state[7], k##8 = state[8], k##9 = state[9];           \
  uint32_t k##10 = state[10], k##11 = state[11], k##12 = (counter), k##13 = state[13], k##14 = state[14]; \
  uint32_t k##15 = state[15]

#define CHACHA20_KEY_STORE(with_key, key_block, k, counter)                                 \
  do {                                                                                      \
    if (with_key) {                                                                         \
      const uint32_t words[16] = {k##0, k##1, k##2,  k##3,  k##4,  k##5,  k##6,  k##7,      \
                                  k##8, k##9, k##10, k##11, k##12, k##13, k##14, k##15};    \
      for (int w = 0; w < 16; w++)                                                          \
        crisp_store32_le((key_block) + 4 * w, words[w] + (w == 12 ? (counter) : state[w])); \
    }                                                                                       \
  } while (0)

/* len bytes (at most LANES blocks) of keystream XORed into in, from the
 * counter in state[12] (the caller advances it); with_key, one more block
 * to key_block: with key_first the block at state[12] and the group from
 * the counter after it, else the block after the group's LANES. */
static inline __attribute__((always_inline)) void chacha20_lanes_group_body(uint8_t *key_block, uint8_t *out,
                                                                            const uint8_t *in, size_t len,
                                                                            const uint32_t state[16],
                                                                            const int with_key,
                                                                            int key_first) {
  const uint32_t key_counter = key_first ? state[12] : state[12] + LANES;
  const VECTOR counter = V_ADD(V_SET1(state[12] + (with_key && key_first ? 1 : 0)), V_LANE_INDEX);
  VECTOR x0 = V_SET1(state[0]), x1 = V_SET1(state[1]), x2 = V_SET1(state[2]), x3 = V_SET1(state[3]);
  VECTOR x4 = V_SET1(state[4]), x5 = V_SET1(state[5]), x6 = V_SET1(state[6]), x7 = V_SET1(state[7]);
  VECTOR x8 = V_SET1(state[8]), x9 = V_SET1(state[9]), x10 = V_SET1(state[10]), x11 = V_SET1(state[11]);
  VECTOR x12 = counter, x13 = V_SET1(state[13]), x14 = V_SET1(state[14]), x15 = V_SET1(state[15]);
  CHACHA20_KEY_START(k, key_counter);
  for (int i = 0; i < 10; i++) CHACHA20_VECTOR_ROUNDS_AND_KEY(with_key);
  CHACHA20_KEY_STORE(with_key, key_block, k, key_counter);
  CHACHA20_FEED_FORWARD(x, counter);
  chacha20_lanes_store(out, in, x, len);
}

static __attribute__((noinline)) void chacha20_lanes_group(uint8_t *out, const uint8_t *in, size_t len,
                                                           const uint32_t state[16]) {
  chacha20_lanes_group_body(NULL, out, in, len, state, 0, 0);
}

#ifdef CHACHA20_TWO_GROUPS
/* Two independent groups, 2 * LANES blocks, their rounds interleaved step
 * by step: while one group's add waits on the latency of the other's, the
 * units have work. Needs 32 vector registers for the two states (AVX-512);
 * the input words come back from memory for the final addition. */
#define CHACHA20_QUARTER_ROUND2(a, b, c, d, e, f, g, h)                 \
  do {                                                                  \
    a = V_ADD(a, b), e = V_ADD(e, f), d = V_XOR(d, a), h = V_XOR(h, e); \
    d = V_ROTL16(d), h = V_ROTL16(h), c = V_ADD(c, d), g = V_ADD(g, h); \
    b = V_XOR(b, c), f = V_XOR(f, g), b = V_ROTL12(b), f = V_ROTL12(f); \
    a = V_ADD(a, b), e = V_ADD(e, f), d = V_XOR(d, a), h = V_XOR(h, e); \
    d = V_ROTL8(d), h = V_ROTL8(h), c = V_ADD(c, d), g = V_ADD(g, h);   \
    b = V_XOR(b, c), f = V_XOR(f, g), b = V_ROTL7(b), f = V_ROTL7(f);   \
  } while (0)

/* len bytes, more than one group and at most two; with_key as in
 * chacha20_lanes_group_body (without key_first, the block after both
 * groups). */
static inline __attribute__((always_inline)) void chacha20_lanes_two_groups_body(
    uint8_t *key_block, uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16],
    const int with_key, int key_first) {
  const uint32_t key_counter = key_first ? state[12] : state[12] + 2 * LANES;
  const VECTOR counter = V_ADD(V_SET1(state[12] + (with_key && key_first ? 1 : 0)), V_LANE_INDEX);
  const VECTOR counter2 = V_ADD(counter, V_SET1(LANES));
  VECTOR x0 = V_SET1(state[0]), x1 = V_SET1(state[1]), x2 = V_SET1(state[2]), x3 = V_SET1(state[3]);
  VECTOR x4 = V_SET1(state[4]), x5 = V_SET1(state[5]), x6 = V_SET1(state[6]), x7 = V_SET1(state[7]);
  VECTOR x8 = V_SET1(state[8]), x9 = V_SET1(state[9]), x10 = V_SET1(state[10]), x11 = V_SET1(state[11]);
  VECTOR x12 = counter, x13 = V_SET1(state[13]), x14 = V_SET1(state[14]), x15 = V_SET1(state[15]);
  VECTOR y0 = x0, y1 = x1, y2 = x2, y3 = x3, y4 = x4, y5 = x5, y6 = x6, y7 = x7;
  VECTOR y8 = x8, y9 = x9, y10 = x10, y11 = x11, y12 = counter2, y13 = x13, y14 = x14, y15 = x15;
  CHACHA20_KEY_START(k, key_counter);
  for (int i = 0; i < 10; i++) {
    CHACHA20_QUARTER_ROUND2(x0, x4, x8, x12, y0, y4, y8, y12);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k0, k4, k8, k12);
    CHACHA20_QUARTER_ROUND2(x1, x5, x9, x13, y1, y5, y9, y13);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k1, k5, k9, k13);
    CHACHA20_QUARTER_ROUND2(x2, x6, x10, x14, y2, y6, y10, y14);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k2, k6, k10, k14);
    CHACHA20_QUARTER_ROUND2(x3, x7, x11, x15, y3, y7, y11, y15);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k3, k7, k11, k15);
    CHACHA20_QUARTER_ROUND2(x0, x5, x10, x15, y0, y5, y10, y15);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k0, k5, k10, k15);
    CHACHA20_QUARTER_ROUND2(x1, x6, x11, x12, y1, y6, y11, y12);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k1, k6, k11, k12);
    CHACHA20_QUARTER_ROUND2(x2, x7, x8, x13, y2, y7, y8, y13);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k2, k7, k8, k13);
    CHACHA20_QUARTER_ROUND2(x3, x4, x9, x14, y3, y4, y9, y14);
    CHACHA20_KEY_QUARTER_ROUND(with_key, k3, k4, k9, k14);
  }
  CHACHA20_KEY_STORE(with_key, key_block, k, key_counter);
  CHACHA20_FEED_FORWARD(x, counter);
  V_XOR_STORE(out, in, x);
  CHACHA20_FEED_FORWARD(y, counter2);
  chacha20_lanes_store(out + LANES * 64, in + LANES * 64, y, len - LANES * 64);
}

static __attribute__((noinline)) void chacha20_lanes_two_groups(uint8_t *out, const uint8_t *in, size_t len,
                                                                const uint32_t state[16]) {
  chacha20_lanes_two_groups_body(NULL, out, in, len, state, 0, 0);
}
#endif

#ifdef CHACHA20_KEYED
/* One group, or two, with one more block on the general-purpose registers
 * (chacha20_lanes_group_body): the AEAD's key block before them
 * (key_first), or a lone block after them that would otherwise take a
 * scalar pass of its own. */
static __attribute__((noinline)) void chacha20_lanes_group_and_key(uint8_t key_block[64], uint8_t *out,
                                                                   const uint8_t *in, size_t len,
                                                                   const uint32_t state[16], int key_first) {
  chacha20_lanes_group_body(key_block, out, in, len, state, 1, key_first);
}

#ifdef CHACHA20_TWO_GROUPS
static __attribute__((noinline)) void chacha20_lanes_two_groups_and_key(uint8_t key_block[64], uint8_t *out,
                                                                        const uint8_t *in, size_t len,
                                                                        const uint32_t state[16],
                                                                        int key_first) {
  chacha20_lanes_two_groups_body(key_block, out, in, len, state, 1, key_first);
}
#define CHACHA20_KEYED_MAX (2 * LANES * 64)
#else
#define CHACHA20_KEYED_MAX (LANES * 64)
#endif

/* The last rest bytes (at most one block) XORed with the block computed
 * beside the groups before them; the block is wiped. */
static inline void chacha20_lanes_xor_lone(uint8_t *out, const uint8_t *in, size_t rest, uint8_t block[64]) {
  for (size_t i = 0; i < rest; i++) out[i] = in[i] ^ block[i];
  crisp_wipe(block, 64);
}
#endif

/* Whole groups of LANES blocks (two at a time where the registers allow),
 * then the remainder: at least TAIL_MIN_BLOCKS take one more (partial)
 * group; a single block after whole groups comes beside the last of them
 * where the kernel has the integer-register block (CHACHA20_KEYED);
 * anything else shorter goes to `narrower` (the next narrower
 * implementation). */
static inline void chacha20_lanes_xor(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16],
                                      size_t tail_min_blocks,
                                      void (*narrower)(uint8_t *, const uint8_t *, size_t,
                                                       const uint32_t *)) {
  uint32_t s[16];
  memcpy(s, state, sizeof s);
#ifdef CHACHA20_KEYED
  /* The rest after a call of n bytes goes beside it: one block, which
   * would otherwise go to the narrower path. */
#define CHACHA20_LONE_AFTER(n) (len - (n) > 0 && len - (n) <= 64 && tail_min_blocks > 1)
  uint8_t lone[64];
#endif
#ifdef CHACHA20_TWO_GROUPS
  /* Two groups when the second has at least tail_min_blocks; a shorter
   * remainder is cheaper as one group and the narrower path. */
  while (len > LANES * 64 && (len - LANES * 64 + 63) / 64 >= tail_min_blocks) {
    const size_t n = len < 2 * LANES * 64 ? len : 2 * LANES * 64;
#ifdef CHACHA20_KEYED
    if (CHACHA20_LONE_AFTER(n)) {
      chacha20_lanes_two_groups_and_key(lone, out, in, n, s, 0);
      chacha20_lanes_xor_lone(out + n, in + n, len - n, lone);
      len = 0;
      break;
    }
#endif
    chacha20_lanes_two_groups(out, in, n, s);
    s[12] += 2 * LANES;
    out += n, in += n, len -= n;
  }
#endif
  while (len >= LANES * 64) {
#ifdef CHACHA20_KEYED
    if (CHACHA20_LONE_AFTER(LANES * 64)) {
      chacha20_lanes_group_and_key(lone, out, in, LANES * 64, s, 0);
      chacha20_lanes_xor_lone(out + LANES * 64, in + LANES * 64, len - LANES * 64, lone);
      len = 0;
      break;
    }
#endif
    chacha20_lanes_group(out, in, LANES * 64, s);
    s[12] += LANES;
    out += LANES * 64, in += LANES * 64, len -= LANES * 64;
  }
#ifdef CHACHA20_KEYED
#undef CHACHA20_LONE_AFTER
#endif
  if (len && (len + 63) / 64 >= tail_min_blocks) {
    chacha20_lanes_group(out, in, len, s);
  } else if (len) {
    narrower(out, in, len, s);
  }
  crisp_wipe(s, sizeof s);
}

#ifdef CHACHA20_KEYED
/* The AEAD's key block and up to CHACHA20_KEYED_MAX bytes of message in
 * one pass: the keystream block at state[12] (the Poly1305 key block) to
 * key_block, and len bytes of in XORed with the blocks after it. */
static inline void chacha20_lanes_keyed(uint8_t key_block[64], uint8_t *out, const uint8_t *in, size_t len,
                                        const uint32_t state[16]) {
#ifdef CHACHA20_TWO_GROUPS
  if (len > LANES * 64) {
    chacha20_lanes_two_groups_and_key(key_block, out, in, len, state, 1);
    return;
  }
#endif
  chacha20_lanes_group_and_key(key_block, out, in, len, state, 1);
}
#endif

#ifdef CHACHA20_OPEN_MAC
/* The fused open's Poly1305, which runs beside vector rounds (the group
 * below, or the AVX-512 kernel's rows): keyed from the first eight words
 * of the key block once its rounds are done, then over the blocks of the
 * MAC's pieces in `parts` parts, one beside each stretch of the rounds
 * left. The including file defines CHACHA20_MAC_STEP(h, block, r0, r1,
 * r1_fold), one block of radix 2^64 Poly1305 with the 2^128 bit set. */
typedef struct chacha20_mac_pass {
  uint64_t r[2], s[2], h[3], r1_fold;
  const crisp_poly1305_pieces *pieces;
  const uint8_t *block;
  size_t piece, left, done, blocks, per_part;
} chacha20_mac_pass;

static inline __attribute__((always_inline)) void chacha20_mac_begin(chacha20_mac_pass *p,
                                                                     const uint32_t key_words[8],
                                                                     const uint32_t state[16],
                                                                     const crisp_poly1305_pieces *pieces,
                                                                     size_t parts) {
  uint8_t key[32];
  for (int w = 0; w < 8; w++) crisp_store32_le(key + 4 * w, key_words[w] + state[w]);
  poly1305_radix64_key(p->r, p->s, key);
  p->r1_fold = p->r[1] + (p->r[1] >> 2);
  p->h[0] = p->h[1] = p->h[2] = 0;
  p->pieces = pieces;
  p->blocks = pieces->blocks[0] + pieces->blocks[1] + pieces->blocks[2] + pieces->blocks[3];
  p->per_part = (p->blocks + parts - 1) / parts;
  p->block = pieces->data[0], p->piece = 0, p->left = pieces->blocks[0], p->done = 0;
}

/* The blocks of part `part` (0 to parts - 1). */
static inline __attribute__((always_inline)) void chacha20_mac_part(chacha20_mac_pass *p, size_t part) {
  const size_t end = p->blocks < p->per_part * (part + 1) ? p->blocks : p->per_part * (part + 1);
  for (; p->done < end; p->done++, p->left--, p->block += 16) {
    while (!p->left) p->piece++, p->block = p->pieces->data[p->piece], p->left = p->pieces->blocks[p->piece];
    CHACHA20_MAC_STEP(p->h, p->block, p->r[0], p->r[1], p->r1_fold);
  }
}

/* The AEAD's short open in one pass. The Poly1305 key block at state[12]
 * runs on the general-purpose registers, two of its double rounds beside
 * each of the group's first five, so its key is ready halfway; Poly1305
 * then reads the MAC's pieces (the ciphertext is there before its
 * keystream) beside the group's last five, a fifth of the blocks each;
 * last, len bytes of in XORed with the group, the blocks after the key
 * block. The vector rounds wait on their latency, and both scalar chains
 * fit in it. */
static inline __attribute__((always_inline)) void chacha20_lanes_open_mac(uint8_t tag[16], uint8_t *out,
                                                                          const uint8_t *in, size_t len,
                                                                          const uint32_t state[16],
                                                                          const crisp_poly1305_pieces *mac) {
  const VECTOR counter = V_ADD(V_SET1(state[12] + 1), V_LANE_INDEX);
  VECTOR x0 = V_SET1(state[0]), x1 = V_SET1(state[1]), x2 = V_SET1(state[2]), x3 = V_SET1(state[3]);
  VECTOR x4 = V_SET1(state[4]), x5 = V_SET1(state[5]), x6 = V_SET1(state[6]), x7 = V_SET1(state[7]);
  VECTOR x8 = V_SET1(state[8]), x9 = V_SET1(state[9]), x10 = V_SET1(state[10]), x11 = V_SET1(state[11]);
  VECTOR x12 = counter, x13 = V_SET1(state[13]), x14 = V_SET1(state[14]), x15 = V_SET1(state[15]);
  CHACHA20_KEY_START(k, state[12]);
  for (int i = 0; i < 5; i++) {
    CHACHA20_VECTOR_ROUNDS_AND_KEY(1);
    CHACHA20_KEY_DOUBLE_ROUND();
  }
  const uint32_t key_words[8] = {k0, k1, k2, k3, k4, k5, k6, k7};
  chacha20_mac_pass pass;
  chacha20_mac_begin(&pass, key_words, state, mac, 5);
  for (int i = 0; i < 5; i++) {
    CHACHA20_VECTOR_ROUNDS_AND_KEY(0);
    chacha20_mac_part(&pass, (size_t)i);
  }
  poly1305_radix64_tag(pass.h, pass.s, tag);
  CHACHA20_FEED_FORWARD(x, counter);
  chacha20_lanes_store(out, in, x, len);
}
#endif
