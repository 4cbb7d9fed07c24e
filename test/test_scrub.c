/* test/test_scrub.c - crisp_scrub_below keeps its promise (src/util.h): it
 * zeroes every word of the `bytes` right below its caller's frame, rounded
 * down to 64 and at most CRISP_SCRUB_DEEP_MAX, and writes nothing below
 * them, at every store width this CPU has. The scrub is built into this
 * program from its source, beside the library's hidden one.
 *
 * How: a callee paints the stack below the caller with a pattern, then the
 * caller scrubs and finds the lowest word that is no longer the pattern.
 * From there up the scrub's area must be zeros, and every call, whatever
 * its depth, must end its area at the same word right below the caller's
 * frame. Where the scrub is portable C (frames one below the other, which
 * may reach a piece deeper) that exact area is not promised, and the test
 * is skipped; so it is under valgrind, which forbids the reads. */
#include "common.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#include "scrub_stack.c"

#if defined(__x86_64__) && defined(__ELF__) && defined(__LP64__) && !defined(CRISP_SCRUB_MEASURE)
#define SCRUB_IN_ASSEMBLY 1
#elif defined(__aarch64__) && defined(__ELF__) && defined(__LP64__) && !defined(CRISP_SCRUB_MEASURE)
#define SCRUB_IN_ASSEMBLY 1
#endif

/* Reads and writes of dead frames are the point: AddressSanitizer's
 * redzones would move them. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize_address)
#define DEAD_FRAMES __attribute__((noinline, no_sanitize_address))
#endif
#endif
#ifndef DEAD_FRAMES
#define DEAD_FRAMES __attribute__((noinline))
#endif

enum { PAINTED_WORDS = (CRISP_SCRUB_DEEP_MAX + 8192) / 8 };
static const uint64_t paint_word = 0x5c2b5c2b5c2b5c2bull;
static uintptr_t painted_low;

/* The pattern from well below the deepest scrub up to this frame's top,
 * which lies right below the caller's: the array, then any padding above it
 * up to the frame address (on x86-64 the saved frame pointer, a word the
 * scrub must zero too; elsewhere the frame record may lie below the array). */
static DEAD_FRAMES void paint(void) {
  volatile uint64_t area[PAINTED_WORDS];
  for (size_t i = 0; i < PAINTED_WORDS; i++) area[i] = paint_word;
  volatile uint64_t *const frame = __builtin_frame_address(0);
  for (volatile uint64_t *word = area + PAINTED_WORDS; word < frame; word++) *word = paint_word;
  painted_low = (uintptr_t)area;
}

typedef struct area {
  uintptr_t bottom, top; /* the scrubbed words: [bottom, top) */
  size_t nonzero;        /* words in it that are not zero */
  uintptr_t frame;       /* the caller's frame address */
} area;

/* One scrub below this frame, and what it wrote: the lowest word changed
 * is its area's bottom, bytes above it its top. Nothing is called between
 * the scrub and the reads. */
static DEAD_FRAMES area scrub_once(size_t bytes, size_t expected) {
  area seen;
  seen.frame = (uintptr_t)__builtin_frame_address(0);
  paint();
  crisp_scrub_below(bytes);
  const volatile uint64_t *word = (const volatile uint64_t *)painted_low;
  while (*word == paint_word) word++;
  seen.bottom = (uintptr_t)word;
  seen.top = seen.bottom + expected;
  seen.nonzero = 0;
  for (size_t i = 0; i < expected / 8; i++) seen.nonzero += word[i] != 0;
  return seen;
}

/* The same from a frame lower by 16 * shift bytes: the area's top then
 * lies at another offset from a 64-byte line. */
static DEAD_FRAMES area scrub_shifted(size_t shift, size_t bytes, size_t expected) {
  volatile unsigned char pad[16 * shift + 1];
  pad[0] = 0;
  const area seen = scrub_once(bytes, expected);
  (void)pad[0]; /* kept until after the call */
  return seen;
}

static void test_exact_area(void **state) {
  (void)state;
#ifndef SCRUB_IN_ASSEMBLY
  skip();
#else
  if (RUNNING_ON_VALGRIND) skip(); /* memcheck reports reads below the stack pointer */
  /* the request, and the bytes the scrub must zero */
  static const size_t cases[][2] = {
      {512, 512},
      {600, 576},
      {4096, 4096},
      {4160, 4160},
      {CRISP_SCRUB_DEEP_MAX, CRISP_SCRUB_DEEP_MAX},
      {64, 64},
      {100, 64},
      {CRISP_SCRUB_DEEP_MAX + 4096, CRISP_SCRUB_DEEP_MAX},
  };
  int widths[3] = {CRISP_SCRUB_WIDTH_SSE2, -1, -1};
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) widths[1] = CRISP_SCRUB_WIDTH_AVX2;
  if (__builtin_cpu_supports("avx512f")) widths[2] = CRISP_SCRUB_WIDTH_AVX512;
#endif
  for (size_t w = 0; w < 3; w++) {
    if (widths[w] < 0) continue;
    crisp_scrub_set_width(widths[w]);
    for (size_t shift = 0; shift < 4; shift++) {
      const area first = scrub_shifted(shift, cases[0][0], cases[0][1]);
      /* the area ends right below the caller's frame: above the caller's
       * stack pointer there is only its frame (a few words here) */
      assert_true(first.top <= first.frame && first.frame - first.top <= 256);
      for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const area seen = scrub_shifted(shift, cases[c][0], cases[c][1]);
        if (seen.top != first.top || seen.nonzero)
          fail_msg(
              "width %d, shift %zu, crisp_scrub_below(%zu): lowest word written %zu bytes below the caller's "
              "frame (expected %zu), %zu of the %zu words from there up not zero",
              widths[w], shift, cases[c][0], (size_t)(seen.frame - seen.bottom),
              (size_t)(first.frame - first.top + cases[c][1]), seen.nonzero, cases[c][1] / 8);
      }
      printf("# width %d, shift %zu: every area ends %zu bytes below the caller's frame, at %zu mod 64\n",
             widths[w], shift, (size_t)(first.frame - first.top), (size_t)(first.top % 64));
    }
  }
  crisp_scrub_set_width(CRISP_SCRUB_WIDTH_SSE2);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact_area),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
