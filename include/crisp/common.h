/* crisp/common.h - error codes and the export macro shared by every crisp header. */
#ifndef CRISP_COMMON_H
#define CRISP_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CRISP_API __attribute__((visibility("default")))
#define CRISP_ALIGNED(n) __attribute__((aligned(n)))
#else
#define CRISP_API
#define CRISP_ALIGNED(n)
#endif

/* Stack: each header states the most stack its functions use below the
 * caller's frame (test/test_stack.c measures it at every implementation,
 * built by gcc and clang at -O2, -O3 and -Os on x86-64, and by gcc on
 * arm64).
 * On other targets the stack wipe after a call is portable C, whose own
 * frames take up to 2 KiB more. */

/* Every function that can fail returns one of these; all failures are negative. */
enum {
  CRISP_OK = 0,
  CRISP_E_INVALID = -1,     /* a NULL pointer, a zero length, an even modulus, an overlap */
  CRISP_E_RANGE = -2,       /* a value or size outside what the function accepts */
  CRISP_E_UNSUPPORTED = -3, /* this CPU cannot run what was asked for */
  CRISP_E_MISMATCH = -4,    /* a tag did not verify, or a result failed its check */
  CRISP_E_NOMEM = -5        /* scratch memory could not be allocated */
};

/* A short English description of an error code; never NULL. */
CRISP_API const char *crisp_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
