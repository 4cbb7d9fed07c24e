/* test/test_cpu_mask.c - dispatch on a smaller CPU, natively: CRISP_CPU_DISABLE
 * hides features, and what crisp then reports and selects is checked against
 * expectations computed here, not through the library: the features come from
 * the tests' own CPUID/XGETBV (or auxv) probe, the levels from the documented
 * model (dispatch_model.h), and what each implementation needs from them and
 * the qualifiers below. Each case runs in a forked
 * child, because the environment is read once per process. */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#include "dispatch_model.h" /* the features, the levels and the CPUID/auxv probe */

/* ---- the independent model -------------------------------------------- */

enum { MAX_FEATURES = 16 };

/* Features an implementation needs at least, besides its level's: its name's
 * qualifier (x86_64-adx multiplies with MULX and adds with ADCX/ADOX). */
static const struct {
  const char *qualifier;
  const char *needs;
} qualifiers[] = {{"bmi1", "bmi1"}, {"adx", "bmi2 adx"}};

static int level_index(const char *name, size_t len) {
  for (int i = 0; i < LEVEL_COUNT; i++)
    if (strlen(levels[i].name) == len && strncmp(levels[i].name, name, len) == 0) return i;
  return -1;
}

static int best_level(feature_set have) {
  int best = 0;
  for (int i = 0; i < LEVEL_COUNT; i++)
    if ((level_needs(i) & ~have) == 0) best = i;
  return best;
}

/* The least an implementation needs, from its name: "LEVEL[-QUALIFIER]":
 * what its level adds, and its qualifier's features. (The levels below are
 * the cap's business: selection never goes above the cap.) */
static feature_set impl_needs(const char *impl) {
  const size_t level_len = strcspn(impl, "-");
  const int level = level_index(impl, level_len);
  feature_set set = level >= 0 ? levels[level].needs : 0;
  if (impl[level_len] == '-')
    for (size_t q = 0; q < sizeof qualifiers / sizeof qualifiers[0]; q++)
      if (strcmp(impl + level_len + 1, qualifiers[q].qualifier) == 0)
        set |= parse_features(qualifiers[q].needs);
  return set;
}

/* ---- one case in a child ---------------------------------------------- */

static int failures;

#define CHILD_CHECK(cond, ...)                                    \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stdout, "  [%s] check failed: %s: ", label, #cond); \
      fprintf(stdout, __VA_ARGS__);                               \
      fputc('\n', stdout);                                        \
      failures++;                                                 \
    }                                                             \
  } while (0)

/* Masks disable; force (or NULL) is CRYPTO_FORCE. */
static void run_child(const char *label, const char *disable, const char *force, feature_set hidden) {
  setenv("CRISP_CPU_DISABLE", disable, 1);
  unsetenv("CRYPTO_OPTIONS");
  unsetenv("CRYPTO_IMPL");
  if (force)
    setenv("CRYPTO_FORCE", force, 1);
  else
    unsetenv("CRYPTO_FORCE");
  /* Count the library's stderr lines through a pipe-free temporary file. */
  FILE *capture = tmpfile();
  if (!capture) _exit(2);
  fflush(stderr);
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  const char *features = crisp_cpu_features();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char err[4096] = "";
  const ssize_t got = pread(fileno(capture), err, sizeof err - 1, 0);
  err[got > 0 ? got : 0] = '\0';
  int lines = 0;
  for (char *p = err; (p = strstr(p, "crisp: ")) != NULL; p++) lines++;

  const feature_set have = probe_independently() & ~hidden;
  char want_features[256];
  feature_list(have, want_features, sizeof want_features);
  CHILD_CHECK(strcmp(features, want_features) == 0, "features '%s', expected '%s'", features, want_features);

  const int best = best_level(have);
  int cap = best, force_fails = 0;
  if (force) {
    const int forced = level_index(force, strlen(force));
    force_fails = forced < 0 || (level_needs(forced) & ~have) != 0;
    if (!force_fails) cap = forced;
  }
  CHILD_CHECK(strcmp(crisp_level(), levels[cap].name) == 0, "level %s, expected %s", crisp_level(),
              levels[cap].name);
  CHILD_CHECK(crisp_env_status() == (force_fails ? CRISP_E_UNSUPPORTED : CRISP_OK), "env status %d",
              crisp_env_status());
  CHILD_CHECK(lines == force_fails, "%d 'crisp: ' lines on stderr, expected %d: %s", lines, force_fails, err);
  if (force_fails && lines == 1) {
    /* The line names a feature the level needs and this (masked) CPU lacks. */
    const feature_set missing = level_needs(level_index(force, strlen(force))) & ~have;
    int names_missing = 0;
    for (int i = 0; i < FEATURE_COUNT; i++) {
      char word[32];
      snprintf(word, sizeof word, " %s", feature_names[i]);
      if ((missing >> i & 1) && strstr(err, word)) names_missing = 1;
    }
    CHILD_CHECK(names_missing, "the line names no missing feature the level needs: %s", err);
  }

  /* Every implementation: supported only when it can run; each kernel runs
   * the first one (best first) that can run at or below the cap. */
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const char *first = NULL;
    for (size_t i = 0; i < crisp_impl_count((crisp_kernel)k); i++) {
      const char *impl = crisp_impl_name_at((crisp_kernel)k, i);
      const int level = level_index(impl, strcspn(impl, "-"));
      const int supported = crisp_impl_supported_at((crisp_kernel)k, i);
      CHILD_CHECK(level >= 0, "%s/%s names no level", crisp_kernel_name((crisp_kernel)k), impl);
      if (impl_needs(impl) & ~have)
        CHILD_CHECK(!supported, "%s/%s supported without all of its features",
                    crisp_kernel_name((crisp_kernel)k), impl);
      if (!first && supported && level >= 0 && level <= cap && !(impl_needs(impl) & ~have)) first = impl;
    }
    const char *in_use = crisp_impl_name((crisp_kernel)k);
    CHILD_CHECK(first && strcmp(in_use, first) == 0, "%s runs %s, expected %s",
                crisp_kernel_name((crisp_kernel)k), in_use, first ? first : "(none)");
  }

  /* crisp_force and crisp_use_impl refuse what the (masked) CPU lacks and
   * take the rest; crisp_force(NULL) returns to the environment's cap. */
  for (int level = 0; level < LEVEL_COUNT; level++) {
    const int lacking = (level_needs(level) & ~have) != 0;
    const int status = crisp_force(levels[level].name);
    CHILD_CHECK(status == (lacking ? CRISP_E_UNSUPPORTED : CRISP_OK), "crisp_force(%s) = %d",
                levels[level].name, status);
    CHILD_CHECK(strcmp(crisp_level(), levels[lacking ? cap : level].name) == 0,
                "after crisp_force(%s) level %s", levels[level].name, crisp_level());
    if (!lacking) crisp_force(NULL);
  }
  CHILD_CHECK(strcmp(crisp_level(), levels[cap].name) == 0, "after crisp_force(NULL) level %s",
              crisp_level());
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    for (size_t i = 0; i < crisp_impl_count((crisp_kernel)k); i++) {
      const char *impl = crisp_impl_name_at((crisp_kernel)k, i);
      if (!(impl_needs(impl) & ~have)) continue;
      const int status = crisp_use_impl((crisp_kernel)k, impl);
      CHILD_CHECK(status == CRISP_E_UNSUPPORTED, "crisp_use_impl(%s, %s) = %d on a CPU without its features",
                  crisp_kernel_name((crisp_kernel)k), impl, status);
    }
    crisp_use_impl((crisp_kernel)k, NULL);
  }

  /* What was selected computes: MD5 of "abc" (RFC 1321) and a Poly1305 tag
   * (RFC 8439 2.5.2). */
  static const uint8_t abc_md5[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                      0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
  static const uint8_t key[32] = {0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52,
                                  0xfe, 0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d,
                                  0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};
  static const uint8_t tag_expected[16] = {0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6,
                                           0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9};
  uint8_t digest[16], tag[16];
  crisp_md5("abc", 3, digest);
  CHILD_CHECK(memcmp(digest, abc_md5, 16) == 0, "md5 wrong");
  const char message[] = "Cryptographic Forum Research Group";
  crisp_poly1305(tag, message, strlen(message), key);
  CHILD_CHECK(memcmp(tag, tag_expected, 16) == 0, "poly1305 wrong");
  fflush(stdout);
  _exit(failures ? 1 : 0);
}

static void run_case(const char *label, const char *disable, const char *force, feature_set hidden) {
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) run_child(label, disable, force, hidden);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) assert_int_equal(errno, EINTR);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    print_error("[%s] failed (status 0x%x)\n", label, status);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- cases ------------------------------------------------------------ */

/* Nothing hidden, and unknown names (near misses too) hide nothing. */
static void test_nothing_hidden(void **state) {
  (void)state;
  run_case("CRISP_CPU_DISABLE empty", "", NULL, 0);
  run_case("CRISP_CPU_DISABLE unknown names", "avx3 avx2x vx2 sse", NULL, 0);
}

/* Each feature this CPU has, hidden alone (in capitals every other time),
 * with each level forced. */
static void test_each_feature_hidden(void **state) {
  (void)state;
  const feature_set have = probe_independently();
  for (int f = 0; f < FEATURE_COUNT; f++) {
    if (!(have >> f & 1)) continue;
    char disable[64], label[160];
    snprintf(disable, sizeof disable, "%s", feature_names[f]);
    for (char *c = disable; (f & 1) && *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    snprintf(label, sizeof label, "CRISP_CPU_DISABLE=%s", disable);
    run_case(label, disable, NULL, 1u << f);
    for (int level = 0; level < LEVEL_COUNT; level++) {
      snprintf(label, sizeof label, "CRISP_CPU_DISABLE=%s CRYPTO_FORCE=%s", disable, levels[level].name);
      run_case(label, disable, levels[level].name, 1u << f);
    }
  }
}

/* Everything hidden at once, separated by commas and spaces: the portable
 * levels remain. */
static void test_all_hidden(void **state) {
  (void)state;
  char disable[512] = "";
  size_t used = 0;
  for (int f = 0; f < FEATURE_COUNT; f++)
    used += (size_t)snprintf(disable + used, sizeof disable - used, "%s%s", f ? (f & 1 ? ", " : " ") : "",
                             feature_names[f]);
  run_case("every feature hidden", disable, NULL, (1u << FEATURE_COUNT) - 1);
  for (int level = 0; level < LEVEL_COUNT; level++) {
    char label[600];
    snprintf(label, sizeof label, "every feature hidden, CRYPTO_FORCE=%s", levels[level].name);
    run_case(label, disable, levels[level].name, (1u << FEATURE_COUNT) - 1);
  }
}

int main(void) {
  /* Expectations here are feature order; the microarchitecture table, which
   * may reorder on a known core, has its own test (test_uarch.c). */
  setenv("CRISP_CPU_UARCH", "unknown", 1);
  char have[256];
  feature_list(probe_independently(), have, sizeof have);
  printf("# this CPU, probed by the test: %s\n", have);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nothing_hidden),
      cmocka_unit_test(test_each_feature_hidden),
      cmocka_unit_test(test_all_hidden),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
