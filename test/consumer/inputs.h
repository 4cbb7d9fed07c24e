/* test/consumer/inputs.h - the fixed inputs the consumer and its reference
 * both compute on, and how both print results, so their outputs compare
 * line by line. */
#ifndef CRISP_CONSUMER_INPUTS_H
#define CRISP_CONSUMER_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Long enough for the vector Poly1305 paths; not a multiple of the block size. */
#define MESSAGE_SIZE 100013
/* A 2048-bit modulus, base and exponent, as 64-bit limbs least significant first. */
#define MODULUS_LIMBS 32

static void fill_message(uint8_t message[MESSAGE_SIZE]) {
  for (size_t i = 0; i < MESSAGE_SIZE; i++) message[i] = (uint8_t)(i * 31 + 7);
}

static void fill_key(uint8_t key[32]) {
  for (size_t i = 0; i < 32; i++) key[i] = (uint8_t)(i * 7 + 3);
}

/* An odd modulus with its top bit set, a base below it, a full-size exponent. */
static void fill_numbers(uint64_t modulus[MODULUS_LIMBS], uint64_t base[MODULUS_LIMBS],
                         uint64_t exponent[MODULUS_LIMBS]) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < MODULUS_LIMBS; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    modulus[i] = state;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    base[i] = state;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    exponent[i] = state;
  }
  modulus[0] |= 1;
  modulus[MODULUS_LIMBS - 1] |= 1ull << 63;
  base[MODULUS_LIMBS - 1] >>= 1;
}

static void print_bytes(const char *label, const uint8_t *bytes, size_t len) {
  printf("%s ", label);
  for (size_t i = 0; i < len; i++) printf("%02x", bytes[i]);
  printf("\n");
}

/* Most significant limb first, every limb zero-padded. */
static void print_limbs(const char *label, const uint64_t *limbs, size_t n) {
  printf("%s ", label);
  for (size_t i = n; i-- > 0;) printf("%016llx", (unsigned long long)limbs[i]);
  printf("\n");
}

#endif
