/* test/ct_msan_copies.h - forced into every C file of the MemorySanitizer
 * constant-time build (stage ct-msan, `-include`): memcpy, memmove, memset
 * and memcmp check that their addresses and length are public before they
 * run. MemorySanitizer reports a load or store through a poisoned pointer,
 * but it turns these calls into its own runtime copies, which move the
 * shadow of the bytes and never look at the shadow of the pointers: a
 * source chosen by a secret bit (a cmov of two pointers feeding memcpy)
 * would pass unseen. Each check is inlined into its caller, so a report
 * names the library line that made the call. */
#ifndef CRISP_TEST_CT_MSAN_COPIES_H
#define CRISP_TEST_CT_MSAN_COPIES_H
/* the build's c_args also reach the .S files, which take no C */
#ifndef __ASSEMBLER__

#include <sanitizer/msan_interface.h>
#include <string.h>

/* Reports (and with halt_on_error stops) when any bit of dst, src or n is
 * secret: the value of the pointer or length, not the bytes they reach. */
static inline __attribute__((always_inline)) void ct_check_public_range(const void *dst, const void *src,
                                                                        size_t n) {
  __msan_check_mem_is_initialized(&dst, sizeof dst);
  __msan_check_mem_is_initialized(&src, sizeof src);
  __msan_check_mem_is_initialized(&n, sizeof n);
}

static inline __attribute__((always_inline)) void *ct_checked_memcpy(void *dst, const void *src, size_t n) {
  ct_check_public_range(dst, src, n);
  return __builtin_memcpy(dst, src, n);
}

static inline __attribute__((always_inline)) void *ct_checked_memmove(void *dst, const void *src, size_t n) {
  ct_check_public_range(dst, src, n);
  return __builtin_memmove(dst, src, n);
}

static inline __attribute__((always_inline)) void *ct_checked_memset(void *dst, int value, size_t n) {
  ct_check_public_range(dst, dst, n);
  return __builtin_memset(dst, value, n);
}

static inline __attribute__((always_inline)) int ct_checked_memcmp(const void *a, const void *b, size_t n) {
  ct_check_public_range(a, b, n);
  return __builtin_memcmp(a, b, n);
}

#define memcpy(dst, src, n) ct_checked_memcpy(dst, src, n)
#define memmove(dst, src, n) ct_checked_memmove(dst, src, n)
#define memset(dst, value, n) ct_checked_memset(dst, value, n)
#define memcmp(a, b, n) ct_checked_memcmp(a, b, n)

#endif
#endif
