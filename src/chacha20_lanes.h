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
 * V_ROTL16/12/8/7, V_LANE_INDEX (the vector 0, 1, .., LANES-1) and
 * V_XOR_STORE(out, in, x) for LANES * 64 bytes, x the 16 word vectors. */

#define CHACHA20_QUARTER_ROUND(a, b, c, d)                                                          \
  do {                                                                                             \
    a = V_ADD(a, b), d = V_ROTL16(V_XOR(d, a));                                                    \
    c = V_ADD(c, d), b = V_ROTL12(V_XOR(b, c));                                                    \
    a = V_ADD(a, b), d = V_ROTL8(V_XOR(d, a));                                                     \
    c = V_ADD(c, d), b = V_ROTL7(V_XOR(b, c));                                                     \
  } while (0)

/* LANES blocks of keystream XORed into in, from the counter in state[12]
 * (the caller advances it). */
static inline void chacha20_lanes_group(uint8_t *out, const uint8_t *in, const uint32_t state[16]) {
  const VECTOR counter = V_ADD(V_SET1(state[12]), V_LANE_INDEX);
  VECTOR x0 = V_SET1(state[0]), x1 = V_SET1(state[1]), x2 = V_SET1(state[2]), x3 = V_SET1(state[3]);
  VECTOR x4 = V_SET1(state[4]), x5 = V_SET1(state[5]), x6 = V_SET1(state[6]), x7 = V_SET1(state[7]);
  VECTOR x8 = V_SET1(state[8]), x9 = V_SET1(state[9]), x10 = V_SET1(state[10]), x11 = V_SET1(state[11]);
  VECTOR x12 = counter, x13 = V_SET1(state[13]), x14 = V_SET1(state[14]), x15 = V_SET1(state[15]);
  for (int i = 0; i < 10; i++) {
    CHACHA20_QUARTER_ROUND(x0, x4, x8, x12);
    CHACHA20_QUARTER_ROUND(x1, x5, x9, x13);
    CHACHA20_QUARTER_ROUND(x2, x6, x10, x14);
    CHACHA20_QUARTER_ROUND(x3, x7, x11, x15);
    CHACHA20_QUARTER_ROUND(x0, x5, x10, x15);
    CHACHA20_QUARTER_ROUND(x1, x6, x11, x12);
    CHACHA20_QUARTER_ROUND(x2, x7, x8, x13);
    CHACHA20_QUARTER_ROUND(x3, x4, x9, x14);
  }
  VECTOR x[16] = {
      V_ADD(x0, V_SET1(state[0])),   V_ADD(x1, V_SET1(state[1])),   V_ADD(x2, V_SET1(state[2])),
      V_ADD(x3, V_SET1(state[3])),   V_ADD(x4, V_SET1(state[4])),   V_ADD(x5, V_SET1(state[5])),
      V_ADD(x6, V_SET1(state[6])),   V_ADD(x7, V_SET1(state[7])),   V_ADD(x8, V_SET1(state[8])),
      V_ADD(x9, V_SET1(state[9])),   V_ADD(x10, V_SET1(state[10])), V_ADD(x11, V_SET1(state[11])),
      V_ADD(x12, counter),           V_ADD(x13, V_SET1(state[13])), V_ADD(x14, V_SET1(state[14])),
      V_ADD(x15, V_SET1(state[15])),
  };
  V_XOR_STORE(out, in, x);
}

/* Whole groups of LANES blocks, then the remainder: a final partial group
 * goes through a stack buffer when it is at least TAIL_MIN_BLOCKS long,
 * anything shorter to `narrower` (the next narrower implementation). */
static inline void chacha20_lanes_xor(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16],
                                      size_t tail_min_blocks,
                                      void (*narrower)(uint8_t *, const uint8_t *, size_t, const uint32_t *)) {
  uint32_t s[16];
  memcpy(s, state, sizeof s);
  while (len >= LANES * 64) {
    chacha20_lanes_group(out, in, s);
    s[12] += LANES;
    out += LANES * 64, in += LANES * 64, len -= LANES * 64;
  }
  if (len && (len + 63) / 64 >= tail_min_blocks) {
    uint8_t buffer[LANES * 64];
    memcpy(buffer, in, len);
    memset(buffer + len, 0, sizeof buffer - len);
    chacha20_lanes_group(buffer, buffer, s);
    memcpy(out, buffer, len);
    crisp_wipe(buffer, sizeof buffer);
  } else if (len) {
    narrower(out, in, len, s);
  }
  crisp_wipe(s, sizeof s);
}
