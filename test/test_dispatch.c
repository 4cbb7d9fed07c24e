/* test/test_dispatch.c - implementation selection: crisp_force for every
 * level name, pins, introspection, and CRYPTO_FORCE / CRYPTO_OPTIONS with
 * their stderr lines. The environment is read once per process, so each
 * environment case runs in a forked child that sets the variables and
 * captures fd 2 before its first crisp call; forking (not exec) keeps the
 * child on the same emulated CPU when the suite runs under qemu-user. The
 * parent makes no crisp call until every child has run. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <strings.h>
#include <unistd.h>

#include "common.h"

/* Exit codes of an environment child besides 0 (passed) and 1 (failed). */
enum { CHILD_NO_SUCH_LEVEL = 77, CHILD_NOT_APPLICABLE = 78 };

static const char *const feature_names[] = {"sse2",     "bmi1",     "bmi2",       "adx",
                                            "avx",      "avx2",     "avx512f",    "avx512vl",
                                            "avx512bw", "avx512dq", "avx512ifma", "asimd"};

/* JDK switch names and the kernels each sends to generic. */
static const struct {
  const char *name;
  uint32_t kernels;
} switches[] = {
    {"UseMD5Intrinsics", 1u << CRISP_KERNEL_MD5 | 1u << CRISP_KERNEL_MD5_MANY},
    {"UsePoly1305Intrinsics", 1u << CRISP_KERNEL_POLY1305},
    {"UseMultiplyToLenIntrinsic", 1u << CRISP_KERNEL_BN_MUL},
    {"UseSquareToLenIntrinsic", 1u << CRISP_KERNEL_BN_SQR},
    {"UseMulAddIntrinsic", 1u << CRISP_KERNEL_BN_MUL_ADD},
    {"UseMontgomeryMultiplyIntrinsic", 1u << CRISP_KERNEL_BN_MONT_MUL | 1u << CRISP_KERNEL_BN_MOD_EXP2},
    {"UseMontgomerySquareIntrinsic", 1u << CRISP_KERNEL_BN_MONT_SQR},
    {"UseChaCha20Intrinsics", 1u << CRISP_KERNEL_CHACHA20},
};
enum { SWITCH_COUNT = sizeof switches / sizeof switches[0] };
_Static_assert(CRISP_KERNEL_COUNT <= 32, "kernel sets are 32-bit masks here");

/* ---- helpers over the public API -------------------------------------- */

/* The index-th word of a space-separated list into out; 0 past the end. */
static int nth_word(const char *list, size_t index, char *out, size_t size) {
  for (size_t i = 0;; i++) {
    list += strspn(list, " ");
    const size_t len = strcspn(list, " ");
    if (len == 0) return 0;
    if (i == index) {
      snprintf(out, size, "%.*s", (int)len, list);
      return 1;
    }
    list += len;
  }
}

static int word_in_list(const char *list, const char *word, size_t word_len) {
  for (;;) {
    list += strspn(list, " ");
    const size_t len = strcspn(list, " ");
    if (len == 0) return 0;
    if (len == word_len && memcmp(list, word, len) == 0) return 1;
    list += len;
  }
}

/* Rank of a level name in crisp_levels(), or -1. */
static int level_rank(const char *level, size_t len) {
  char word[32];
  for (size_t i = 0; nth_word(crisp_levels(), i, word, sizeof word); i++)
    if (strlen(word) == len && memcmp(word, level, len) == 0) return (int)i;
  return -1;
}

/* Rank of the level an implementation name starts with ("x86_64-adx"). */
static int impl_rank(const char *impl) {
  return level_rank(impl, strcspn(impl, "-"));
}

/* The implementation selection should give kernel under a level cap: the
 * first entry of the table the CPU supports whose level is at or below. */
static const char *expected_impl(crisp_kernel kernel, int cap_rank) {
  for (size_t i = 0; i < crisp_impl_count(kernel); i++) {
    const char *name = crisp_impl_name_at(kernel, i);
    if (crisp_impl_supported_at(kernel, i) && impl_rank(name) <= cap_rank) return name;
  }
  return NULL;
}

/* The highest level crisp_force accepts; leaves the default restored. */
static int best_rank(void) {
  char word[32];
  int best = -1;
  for (size_t i = 0; nth_word(crisp_levels(), i, word, sizeof word); i++)
    if (crisp_force(word) == CRISP_OK) best = (int)i;
  crisp_force(NULL);
  return best;
}

/* Known answers through whatever was selected: MD5 (RFC 1321), MD5 many,
 * Poly1305 (RFC 8439 2.5.2). Returns 0 when all are right. */
static int known_answers_wrong(void) {
  static const uint8_t abc_md5[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                      0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
  static const uint8_t empty_md5[16] = {0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
                                        0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e};
  static const uint8_t key[32] = {0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52,
                                  0xfe, 0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d,
                                  0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};
  static const uint8_t tag_expected[16] = {0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6,
                                           0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9};
  static const char message[] = "Cryptographic Forum Research Group";
  uint8_t digest[16], digests[3][16], tag[16];
  int wrong = 0;
  crisp_md5("abc", 3, digest);
  wrong |= memcmp(digest, abc_md5, 16) != 0;
  const void *data[3] = {"abc", "", "abc"};
  const size_t len[3] = {3, 0, 3};
  crisp_md5_many(data, len, 3, digests);
  wrong |= (memcmp(digests[0], abc_md5, 16) | memcmp(digests[1], empty_md5, 16) |
            memcmp(digests[2], abc_md5, 16)) != 0;
  crisp_poly1305(tag, message, strlen(message), key);
  wrong |= memcmp(tag, tag_expected, 16) != 0;
  return wrong;
}

/* ---- environment cases, each in a child ------------------------------- */

/* FORCE_EMPTY sets CRYPTO_FORCE= (empty), which must act as unset. */
typedef enum force_kind { FORCE_UNSET, FORCE_EMPTY, FORCE_LEVEL, FORCE_NOT_A_LEVEL } force_kind;

typedef struct scenario {
  const char *label;
  force_kind force;
  const char *force_value;     /* FORCE_NOT_A_LEVEL: the text */
  size_t level_index;          /* FORCE_LEVEL: index into crisp_levels() */
  int only_missing;            /* FORCE_LEVEL: exit CHILD_NOT_APPLICABLE when the CPU has the level */
  int upper_case;              /* FORCE_LEVEL: spell the level in capitals */
  const char *options;         /* NULL: CRYPTO_OPTIONS unset */
  uint32_t generic_kernels;    /* kernels CRYPTO_OPTIONS should send to generic */
  int option_lines;            /* stderr lines CRYPTO_OPTIONS should cause */
  const char *option_line_has; /* text the first options line must contain */
} scenario;

static int child_failures;

#define CHILD_CHECK(cond, ...)                                    \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stderr, "  [%s] check failed: %s: ", label, #cond); \
      fprintf(stderr, __VA_ARGS__);                               \
      fputc('\n', stderr);                                        \
      child_failures++;                                           \
    }                                                             \
  } while (0)

/* Lines of captured stderr, qemu's own warnings left out. */
typedef struct captured {
  char text[65536];
  char *lines[64];
  size_t count;
} captured;

static void split_lines(captured *c, size_t len) {
  c->text[len] = '\0';
  c->count = 0;
  for (char *p = c->text; *p && c->count < 64;) {
    char *end = strchr(p, '\n');
    if (end) *end = '\0';
    if (strncmp(p, "qemu-", 5) != 0) c->lines[c->count++] = p;
    if (!end) break;
    p = end + 1;
  }
}

static int printable_ascii(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f) return 0;
  return 1;
}

/* The line names a CPU feature this CPU lacks. */
static int names_missing_feature(const char *line) {
  const char *features = crisp_cpu_features();
  for (size_t f = 0; f < sizeof feature_names / sizeof feature_names[0]; f++) {
    const size_t len = strlen(feature_names[f]);
    for (const char *p = strstr(line, feature_names[f]); p; p = strstr(p + 1, feature_names[f])) {
      const int starts =
          p == line || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9'));
      const char after = p[len];
      const int ends = !(after == '_' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9'));
      if (starts && ends && !word_in_list(features, feature_names[f], len)) return 1;
    }
  }
  return 0;
}

static void run_child(const scenario *s) {
  const char *label = s->label;
  char forced[32] = "";
  /* Which level to force comes from crisp_levels(), which neither probes
   * the CPU nor reads the environment. */
  if (s->force == FORCE_LEVEL && !nth_word(crisp_levels(), s->level_index, forced, sizeof forced))
    _exit(CHILD_NO_SUCH_LEVEL);
  if (s->force == FORCE_UNSET) unsetenv("CRYPTO_FORCE");
  if (s->force == FORCE_EMPTY) setenv("CRYPTO_FORCE", "", 1);
  if (s->force == FORCE_LEVEL) {
    char spelled[32];
    snprintf(spelled, sizeof spelled, "%s", forced);
    for (char *c = spelled; s->upper_case && *c; c++) *c = (char)toupper((unsigned char)*c);
    setenv("CRYPTO_FORCE", spelled, 1);
  }
  if (s->force == FORCE_NOT_A_LEVEL) setenv("CRYPTO_FORCE", s->force_value, 1);
  if (s->options)
    setenv("CRYPTO_OPTIONS", s->options, 1);
  else
    unsetenv("CRYPTO_OPTIONS");
  unsetenv("CRYPTO_IMPL"); /* pins are test_uarch.c's */

  /* Capture fd 2 across the first crisp call. */
  static captured err;
  FILE *capture = tmpfile();
  if (!capture) _exit(2);
  fflush(stderr);
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  const char *level_seen = crisp_level();
  char level[32];
  snprintf(level, sizeof level, "%s", level_seen ? level_seen : "(null)");
  const int status = crisp_env_status();
  char reason[256];
  snprintf(reason, sizeof reason, "%s", crisp_dispatch_reason() ? crisp_dispatch_reason() : "(null)");
  const char *impls[CRISP_KERNEL_COUNT];
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) impls[k] = crisp_impl_name((crisp_kernel)k);
  const int answers_wrong = known_answers_wrong();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  const ssize_t got = pread(fileno(capture), err.text, sizeof err.text - 1, 0);
  split_lines(&err, got > 0 ? (size_t)got : 0);

  /* What should have happened. */
  const int forced_rank = s->force == FORCE_LEVEL ? level_rank(forced, strlen(forced)) : -1;
  const int forced_ok = s->force == FORCE_LEVEL && crisp_force(forced) == CRISP_OK;
  crisp_force(NULL);
  if (s->force == FORCE_LEVEL && s->only_missing && forced_ok) _exit(CHILD_NOT_APPLICABLE);
  const int best = best_rank();
  const int cap = forced_ok ? forced_rank : best;
  const int force_lines = s->force == FORCE_NOT_A_LEVEL || (s->force == FORCE_LEVEL && !forced_ok);
  const int expected_status = s->force == FORCE_NOT_A_LEVEL || s->option_lines ? CRISP_E_INVALID
                              : s->force == FORCE_LEVEL && !forced_ok          ? CRISP_E_UNSUPPORTED
                                                                               : CRISP_OK;
  char cap_name[32] = "?";
  nth_word(crisp_levels(), cap >= 0 ? (size_t)cap : 0, cap_name, sizeof cap_name);

  CHILD_CHECK(strcmp(level, cap_name) == 0, "crisp_level() is %s, expected %s", level, cap_name);
  CHILD_CHECK(status == expected_status, "crisp_env_status() is %d, expected %d", status, expected_status);
  CHILD_CHECK(!answers_wrong, "known answers wrong");
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const int to_generic = s->generic_kernels >> k & 1;
    const char *want = to_generic ? "generic" : expected_impl((crisp_kernel)k, cap);
    CHILD_CHECK(impls[k] && want && strcmp(impls[k], want) == 0, "kernel %s runs %s, expected %s",
                crisp_kernel_name((crisp_kernel)k), impls[k] ? impls[k] : "(null)", want ? want : "(null)");
  }
  CHILD_CHECK((int)err.count == force_lines + s->option_lines, "%zu stderr lines, expected %d", err.count,
              force_lines + s->option_lines);
  for (size_t i = 0; i < err.count; i++) {
    CHILD_CHECK(strncmp(err.lines[i], "crisp", 5) == 0, "line %zu does not start with crisp: %.200s", i,
                err.lines[i]);
    CHILD_CHECK(strlen(err.lines[i]) < 600, "line %zu is %zu bytes long", i, strlen(err.lines[i]));
    CHILD_CHECK(printable_ascii(err.lines[i]), "line %zu has control or non-ASCII bytes", i);
  }
  if (force_lines && err.count >= 1) {
    const char *line = err.lines[0];
    if (s->force == FORCE_NOT_A_LEVEL) {
      char word[32];
      for (size_t i = 0; nth_word(crisp_levels(), i, word, sizeof word); i++)
        CHILD_CHECK(strstr(line, word) != NULL, "line does not list level %s: %s", word, line);
    } else {
      CHILD_CHECK(strstr(line, forced) != NULL, "line does not name the level %s: %s", forced, line);
      CHILD_CHECK(names_missing_feature(line), "line names no feature this CPU lacks (%s): %s",
                  crisp_cpu_features(), line);
    }
  }
  if (s->option_lines && s->option_line_has && err.count > (size_t)force_lines)
    CHILD_CHECK(strstr(err.lines[force_lines], s->option_line_has) != NULL, "options line lacks '%s': %s",
                s->option_line_has, err.lines[force_lines]);
  if (s->force == FORCE_LEVEL && forced_ok)
    CHILD_CHECK(strstr(reason, "CRYPTO_FORCE") != NULL, "reason does not mention CRYPTO_FORCE: %s", reason);
  if ((s->force == FORCE_UNSET || s->force == FORCE_EMPTY) && !s->options)
    CHILD_CHECK(strstr(reason, "default") != NULL, "reason: %s", reason);
  /* crisp_force(NULL) returned to what the environment chose. */
  CHILD_CHECK(strcmp(crisp_level(), level) == 0, "after crisp_force(NULL) level is %s, not %s", crisp_level(),
              level);
  if (child_failures) {
    fprintf(stderr, "  [%s] captured stderr:\n", label);
    for (size_t i = 0; i < err.count; i++) fprintf(stderr, "    | %s\n", err.lines[i]);
  }
  _exit(child_failures ? 1 : 0);
}

/* Runs s in a child; returns its exit code. */
static int run_scenario(const scenario *s) {
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) run_child(s);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) assert_int_equal(errno, EINTR);
  if (!WIFEXITED(status)) {
    print_error("[%s] child died (status 0x%x)\n", s->label, status);
    return -1;
  }
  return WEXITSTATUS(status);
}

static void expect_pass(const scenario *s) {
  const int code = run_scenario(s);
  if (code != 0) print_error("[%s] failed (exit %d)\n", s->label, code);
  assert_int_equal(code, 0);
}

static void test_env_unset(void **state) {
  (void)state;
  const scenario s = {.label = "no CRYPTO_FORCE, no CRYPTO_OPTIONS"};
  expect_pass(&s);
}

/* CRYPTO_FORCE=LEVEL for every level name: honoured when the CPU has it,
 * else one line naming a missing feature and the best level used. */
static void test_env_force_each_level(void **state) {
  (void)state;
  size_t levels = 0;
  for (size_t i = 0; i < 16; i++) {
    char label[64];
    snprintf(label, sizeof label, "CRYPTO_FORCE=<level %zu>", i);
    const scenario s = {.label = label, .force = FORCE_LEVEL, .level_index = i};
    const int code = run_scenario(&s);
    if (code == CHILD_NO_SUCH_LEVEL) break;
    if (code != 0) print_error("[%s] failed (exit %d)\n", label, code);
    assert_int_equal(code, 0);
    /* Level names are case-insensitive: the same level in capitals. */
    snprintf(label, sizeof label, "CRYPTO_FORCE=<level %zu in capitals>", i);
    const scenario upper = {.label = label, .force = FORCE_LEVEL, .level_index = i, .upper_case = 1};
    assert_int_equal(run_scenario(&upper), 0);
    levels++;
  }
  assert_true(levels >= 1);
}

static void test_env_force_missing_level(void **state) {
  (void)state;
  size_t missing = 0;
  for (size_t i = 0; i < 16; i++) {
    char label[64];
    snprintf(label, sizeof label, "CRYPTO_FORCE=<level %zu>, CRYPTO_OPTIONS=-UseMD5Intrinsics", i);
    const scenario s = {.label = label,
                        .force = FORCE_LEVEL,
                        .level_index = i,
                        .only_missing = 1,
                        .options = "-UseMD5Intrinsics",
                        .generic_kernels = switches[0].kernels};
    const int code = run_scenario(&s);
    if (code == CHILD_NO_SUCH_LEVEL) break;
    if (code == CHILD_NOT_APPLICABLE) continue;
    if (code != 0) print_error("[%s] failed (exit %d)\n", label, code);
    assert_int_equal(code, 0);
    missing++;
  }
  if (missing == 0) {
    printf(
        "# this CPU has every level; run under e.g. qemu-x86_64 -cpu Haswell to test the missing-level "
        "line\n");
    skip();
  }
}

static void test_env_force_not_a_level(void **state) {
  (void)state;
  static char very_long[5001];
  memset(very_long, 'a', sizeof very_long - 1);
  const char *values[] = {"bogus",    "avx3",  "generic,avx2", " generic",
                          "generic ", "avx2x", "avx",          "\xc3\xa9t\xc3\xa9\xff\x1b[31m\x07",
                          very_long};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    char label[64];
    snprintf(label, sizeof label, "CRYPTO_FORCE=<not a level #%zu>", i);
    const scenario s = {.label = label, .force = FORCE_NOT_A_LEVEL, .force_value = values[i]};
    expect_pass(&s);
  }
  const scenario empty = {.label = "CRYPTO_FORCE= (empty, as unset)", .force = FORCE_EMPTY};
  expect_pass(&empty);
}

/* Each -Use... switch sends its kernels to generic, the others stay; each
 * +Use... keeps the default. */
static void test_env_options_each_switch(void **state) {
  (void)state;
  for (size_t i = 0; i < SWITCH_COUNT; i++) {
    char options[64], label[96];
    for (int plus = 0; plus < 2; plus++) {
      snprintf(options, sizeof options, "%c%s", plus ? '+' : '-', switches[i].name);
      snprintf(label, sizeof label, "CRYPTO_OPTIONS=%s", options);
      const scenario s = {
          .label = label, .options = options, .generic_kernels = plus ? 0 : switches[i].kernels};
      expect_pass(&s);
    }
  }
}

static void test_env_options_lists(void **state) {
  (void)state;
  static char many_valid[20 * 500 + 1];
  many_valid[0] = '\0';
  for (int i = 0; i < 500; i++) strcat(many_valid, "-UseMD5Intrinsics,");
  uint32_t all = 0;
  char every[512] = "";
  for (size_t i = 0; i < SWITCH_COUNT; i++) {
    all |= switches[i].kernels;
    strcat(every, i % 2 ? ", -" : " \t-");
    strcat(every, switches[i].name);
  }
  const scenario cases[] = {
      {.label = "comma and space separated",
       .options = "-UseMD5Intrinsics, -UsePoly1305Intrinsics\t-UseMulAddIntrinsic",
       .generic_kernels = switches[0].kernels | switches[1].kernels | switches[4].kernels},
      {.label = "every switch off", .options = every, .generic_kernels = all},
      {.label = "minus then plus", .options = "-UseMD5Intrinsics,+UseMD5Intrinsics"},
      {.label = "500 copies of a switch", .options = many_valid, .generic_kernels = switches[0].kernels},
      {.label = "empty options", .options = ""},
      {.label = "only separators", .options = " ,, \t,"},
      {.label = "newline separated",
       .options = "-UseMD5Intrinsics\n-UsePoly1305Intrinsics\r\n",
       .generic_kernels = switches[0].kernels | switches[1].kernels},
      {.label = "switch names are case-insensitive",
       .options = "-usemd5intrinsics,-USEPOLY1305INTRINSICS",
       .generic_kernels = switches[0].kernels | switches[1].kernels},
      {.label = "CRYPTO_FORCE=generic with +UsePoly1305Intrinsics",
       .force = FORCE_LEVEL,
       .level_index = 0,
       .options = "+UsePoly1305Intrinsics"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_pass(&cases[i]);
}

static void test_env_options_garbage(void **state) {
  (void)state;
  static char very_long[5001];
  memset(very_long, 'x', sizeof very_long - 1);
  static char many_unknown[20000 * 3];
  for (size_t i = 0; i < 20000; i++) memcpy(many_unknown + 3 * i, "-x,", 3);
  many_unknown[sizeof many_unknown - 1] = '\0';
  const scenario cases[] = {
      {.label = "unknown switch",
       .options = "-UseBogusIntrinsics",
       .option_lines = 1,
       .option_line_has = "UseBogusIntrinsics"},
      {.label = "unknown switch among known ones",
       .options = "-UseMD5Intrinsics,-UseBogusIntrinsics",
       .generic_kernels = switches[0].kernels,
       .option_lines = 1,
       .option_line_has = "UseBogusIntrinsics"},
      {.label = "switch without a sign", .options = "UseMD5Intrinsics", .option_lines = 1},
      {.label = "switch with a suffix",
       .options = "-UseMD5IntrinsicsXYZ",
       .option_lines = 1,
       .option_line_has = "UseMD5IntrinsicsXYZ"},
      {.label = "switch cut short", .options = "-UseMD5Intrinsic", .option_lines = 1},
      {.label = "switch with two signs", .options = "--UseMD5Intrinsics", .option_lines = 1},
      {.label = "sign alone", .options = "-", .option_lines = 1},
      {.label = "20000 unknown switches, one line",
       .options = many_unknown,
       .option_lines = 1,
       .option_line_has = "19997 more"},
      {.label = "three unknown switches named",
       .options = "-A,-B,+C",
       .option_lines = 1,
       .option_line_has = "'-A', '-B', '+C' ignored"},
      {.label = "very long token", .options = very_long, .option_lines = 1},
      {.label = "non-ASCII", .options = "\xff\xfe-Use\xc3\xa9\x1b[2J", .option_lines = 1},
      {.label = "CRYPTO_FORCE not a level and an unknown switch",
       .force = FORCE_NOT_A_LEVEL,
       .force_value = "max",
       .options = "+UseEverything",
       .option_lines = 1,
       .option_line_has = "UseEverything"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_pass(&cases[i]);
}

/* ---- in-process tests (after every child has run) ---------------------- */

static char initial_level[32];
static const char *initial_impls[CRISP_KERNEL_COUNT];
static int env_pinned[CRISP_KERNEL_COUNT]; /* CRYPTO_IMPL pins the kernel: the cap does not move it */

/* Options from the environment this suite runs in may send kernels to
 * generic; then generic is also an acceptable selection. */
static int options_in_env(void) {
  const char *options = getenv("CRYPTO_OPTIONS");
  return options && *options;
}

static void check_selection_under(int cap, const char *what) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const char *impl = crisp_impl_name((crisp_kernel)k);
    const char *want = expected_impl((crisp_kernel)k, cap);
    assert_non_null(impl);
    assert_non_null(want);
    /* A CRYPTO_IMPL pin from the environment holds whatever the cap. */
    if (strncmp(crisp_impl_reason((crisp_kernel)k), "CRYPTO_IMPL=", 12) == 0) continue;
    if (strcmp(impl, want) != 0 && !(options_in_env() && strcmp(impl, "generic") == 0)) {
      print_error("%s: kernel %s runs %s, expected %s\n", what, crisp_kernel_name((crisp_kernel)k), impl,
                  want);
      fail();
    }
    assert_true(impl_rank(impl) >= 0 && impl_rank(impl) <= cap);
  }
}

/* Every kernel the enum counts has a name scripts can use (lowercase
 * letters, digits, '_'), no two alike; past the end there is none. The list
 * itself comes from the API, so a new kernel needs no line here; the names
 * dispatch.h documents are pinned. */
static void test_kernel_names(void **state) {
  (void)state;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const char *name = crisp_kernel_name((crisp_kernel)k);
    assert_non_null(name);
    assert_true(name[0] >= 'a' && name[0] <= 'z');
    assert_int_equal(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_"), strlen(name));
    for (int other = 0; other < k; other++)
      assert_string_not_equal(crisp_kernel_name((crisp_kernel)other), name);
  }
  assert_string_equal(crisp_kernel_name(CRISP_KERNEL_MD5), "md5");
  assert_string_equal(crisp_kernel_name(CRISP_KERNEL_MD5_MANY), "md5_many");
  assert_string_equal(crisp_kernel_name(CRISP_KERNEL_POLY1305), "poly1305");
  assert_string_equal(crisp_kernel_name(CRISP_KERNEL_BN_MUL), "bn_mul");
  assert_null(crisp_kernel_name(CRISP_KERNEL_COUNT));
  assert_null(crisp_kernel_name((crisp_kernel)-1));
}

/* Every table: names start with a level, are unique, generic is present
 * and supported, entries past the end are NULL / unsupported. */
static void test_tables(void **state) {
  (void)state;
  char first[32];
  assert_true(nth_word(crisp_levels(), 0, first, sizeof first));
  assert_string_equal(first, "generic");
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const crisp_kernel kernel = (crisp_kernel)k;
    const size_t count = crisp_impl_count(kernel);
    int generic_seen = 0;
    assert_true(count >= 1);
    for (size_t i = 0; i < count; i++) {
      const char *name = crisp_impl_name_at(kernel, i);
      assert_non_null(name);
      const size_t level_len = strcspn(name, "-");
      if (level_rank(name, level_len) < 0 || (name[level_len] == '-' && name[level_len + 1] == '\0')) {
        print_error("kernel %s: implementation name '%s' does not start with a level\n",
                    crisp_kernel_name(kernel), name);
        fail();
      }
      for (size_t j = 0; j < i; j++) assert_string_not_equal(crisp_impl_name_at(kernel, j), name);
      const int supported = crisp_impl_supported_at(kernel, i);
      assert_true(supported == 0 || supported == 1);
      if (strcmp(name, "generic") == 0) {
        generic_seen = 1;
        assert_int_equal(supported, 1);
      }
      /* The pin agrees with the support flag. */
      assert_int_equal(crisp_use_impl(kernel, name), supported ? CRISP_OK : CRISP_E_UNSUPPORTED);
      assert_string_equal(crisp_impl_name(kernel), supported ? name : initial_impls[k]);
      assert_int_equal(crisp_use_impl(kernel, NULL), CRISP_OK);
    }
    assert_true(generic_seen);
    assert_null(crisp_impl_name_at(kernel, count));
    assert_int_equal(crisp_impl_supported_at(kernel, count), 0);
    assert_int_equal(crisp_impl_supported_at(kernel, (size_t)-1), 0);
  }
}

/* crisp_force for every level name; unsupported levels change nothing;
 * levels are cumulative, so once one is unsupported all above are too. */
static void test_force_each_level(void **state) {
  (void)state;
  char level[32];
  int unsupported_seen = 0;
  for (size_t i = 0; nth_word(crisp_levels(), i, level, sizeof level); i++) {
    const char *before = crisp_level();
    const int rc = crisp_force(level);
    if (rc == CRISP_OK) {
      assert_false(unsupported_seen);
      assert_string_equal(crisp_level(), level);
      check_selection_under((int)i, level);
      assert_non_null(strstr(crisp_dispatch_reason(), level));
    } else {
      assert_int_equal(rc, CRISP_E_UNSUPPORTED);
      assert_true(i >= 2); /* generic and the architecture baseline always run */
      unsupported_seen = 1;
      assert_string_equal(crisp_level(), before);
    }
  }
  assert_int_equal(crisp_force(NULL), CRISP_OK);
  assert_string_equal(crisp_level(), initial_level);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    assert_string_equal(crisp_impl_name((crisp_kernel)k), initial_impls[k]);
}

static void test_force_bad_names(void **state) {
  (void)state;
  const char *bad[] = {"",       "bogus",          "generic ", " generic", "avx",
                       "x86-64", "avx512ifma-adx", "neon2",    "\xff"};
  assert_int_equal(crisp_force("generic"), CRISP_OK);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(crisp_force(bad[i]), CRISP_E_INVALID);
    assert_string_equal(crisp_level(), "generic");
  }
  assert_int_equal(crisp_force(NULL), CRISP_OK);
  assert_string_equal(crisp_level(), initial_level);
}

/* Level and implementation names are case-insensitive (docs/dispatch.md),
 * and a near
 * miss of either (a prefix, an extension, a stray space) is refused: the
 * public-API side of what the CRYPTO_FORCE children check. */
static void test_names_case_and_near_misses(void **state) {
  (void)state;
  char level[32];
  for (size_t i = 0; nth_word(crisp_levels(), i, level, sizeof level); i++) {
    const int expected = crisp_force(level);
    char variant[40];
    snprintf(variant, sizeof variant, "%s", level);
    for (char *c = variant; *c; c++) *c = (char)toupper((unsigned char)*c);
    assert_int_equal(crisp_force(variant), expected);
    if (expected == CRISP_OK) assert_string_equal(crisp_level(), level);
    variant[0] = (char)tolower((unsigned char)variant[0]); /* mixed case */
    assert_int_equal(crisp_force(variant), expected);
    const size_t len = strlen(level);
    snprintf(variant, sizeof variant, "%.*s", (int)(len - 1), level); /* a prefix */
    if (level_rank(variant, strlen(variant)) < 0) assert_int_equal(crisp_force(variant), CRISP_E_INVALID);
    snprintf(variant, sizeof variant, "%sx", level);
    assert_int_equal(crisp_force(variant), CRISP_E_INVALID);
    snprintf(variant, sizeof variant, "%s ", level);
    assert_int_equal(crisp_force(variant), CRISP_E_INVALID);
  }
  assert_int_equal(crisp_force(NULL), CRISP_OK);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const crisp_kernel kernel = (crisp_kernel)k;
    const char *names[16];
    const size_t n = test_supported_impls(kernel, names, 16);
    for (size_t i = 0; i < n; i++) {
      char variant[48];
      snprintf(variant, sizeof variant, "%s", names[i]);
      for (char *c = variant; *c; c++) *c = (char)toupper((unsigned char)*c);
      assert_int_equal(crisp_use_impl(kernel, variant), CRISP_OK);
      assert_string_equal(crisp_impl_name(kernel), names[i]);
      snprintf(variant, sizeof variant, "%sx", names[i]);
      assert_int_equal(crisp_use_impl(kernel, variant), CRISP_E_INVALID);
      snprintf(variant, sizeof variant, "%s ", names[i]);
      assert_int_equal(crisp_use_impl(kernel, variant), CRISP_E_INVALID);
      snprintf(variant, sizeof variant, "%.*s", (int)strlen(names[i]) - 1, names[i]);
      int is_a_name = 0;
      for (size_t j = 0; j < crisp_impl_count(kernel); j++)
        is_a_name |= strcasecmp(crisp_impl_name_at(kernel, j), variant) == 0;
      if (!is_a_name) assert_int_equal(crisp_use_impl(kernel, variant), CRISP_E_INVALID);
      assert_string_equal(crisp_impl_name(kernel), names[i]); /* refusals changed nothing */
    }
    assert_int_equal(crisp_use_impl(kernel, NULL), CRISP_OK);
  }
}

/* A pin beats the level cap; unpinning returns to the cap's choice. */
static void test_pins(void **state) {
  (void)state;
  assert_int_equal(crisp_force("generic"), CRISP_OK);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const crisp_kernel kernel = (crisp_kernel)k;
    const char *names[16];
    const size_t n = test_supported_impls(kernel, names, 16);
    for (size_t i = 0; i < n; i++) {
      test_pin(kernel, names[i]);
      assert_string_equal(crisp_level(), "generic");
      /* Other kernels stay where the cap puts them. */
      for (int other = 0; other < CRISP_KERNEL_COUNT; other++)
        if (other != k && !env_pinned[other])
          assert_string_equal(crisp_impl_name((crisp_kernel)other), "generic");
    }
    assert_int_equal(crisp_use_impl(kernel, "no-such-impl"), CRISP_E_INVALID);
    assert_int_equal(crisp_use_impl(kernel, ""), CRISP_E_INVALID);
    assert_string_equal(crisp_impl_name(kernel), names[n - 1]); /* a failed pin changes nothing */
    assert_int_equal(crisp_use_impl(kernel, NULL), CRISP_OK);
    if (!env_pinned[k]) assert_string_equal(crisp_impl_name(kernel), "generic");
  }
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_COUNT, "generic"), CRISP_E_INVALID);
  assert_int_equal(crisp_use_impl((crisp_kernel)-1, NULL), CRISP_E_INVALID);
  assert_int_equal(crisp_force(NULL), CRISP_OK);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    assert_string_equal(crisp_impl_name((crisp_kernel)k), initial_impls[k]);
}

static void test_cpu_description(void **state) {
  (void)state;
  const char *features = crisp_cpu_features();
  assert_non_null(features);
  char word[32];
  for (size_t i = 0; nth_word(features, i, word, sizeof word); i++) {
    int known = 0;
    for (size_t f = 0; f < sizeof feature_names / sizeof feature_names[0]; f++)
      known |= strcmp(word, feature_names[f]) == 0;
    if (!known) print_error("unknown feature name '%s' in '%s'\n", word, features);
    assert_true(known);
  }
#if defined(__x86_64__)
  assert_true(word_in_list(features, "sse2", 4));
#endif
  assert_non_null(crisp_cpu_brand());
  assert_true(crisp_cpu_brand()[0] != '\0');
  assert_non_null(crisp_dispatch_reason());
  const int status = crisp_env_status();
  assert_true(status == CRISP_OK || status == CRISP_E_INVALID || status == CRISP_E_UNSUPPORTED);
  printf("# level %s, features: %s\n", crisp_level(), features);
}

static int record_initial(void **state) {
  (void)state;
  snprintf(initial_level, sizeof initial_level, "%s", crisp_level());
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    initial_impls[k] = crisp_impl_name((crisp_kernel)k);
    env_pinned[k] = strncmp(crisp_impl_reason((crisp_kernel)k), "CRYPTO_IMPL=", 12) == 0;
  }
  return 0;
}

int main(void) {
  /* Expectations here are feature order; the microarchitecture table, which
   * may reorder on a known core, has its own test (test_uarch.c). */
  setenv("CRISP_CPU_UARCH", "unknown", 1);
  /* Children first: the parent must not have probed the CPU yet. */
  const struct CMUnitTest environment[] = {
      cmocka_unit_test(test_env_unset),
      cmocka_unit_test(test_env_force_each_level),
      cmocka_unit_test(test_env_force_missing_level),
      cmocka_unit_test(test_env_force_not_a_level),
      cmocka_unit_test(test_env_options_each_switch),
      cmocka_unit_test(test_env_options_lists),
      cmocka_unit_test(test_env_options_garbage),
  };
  const struct CMUnitTest in_process[] = {
      cmocka_unit_test_teardown(test_kernel_names, test_teardown_unpin),
      cmocka_unit_test_teardown(test_tables, test_teardown_unpin),
      cmocka_unit_test_teardown(test_force_each_level, test_teardown_unpin),
      cmocka_unit_test_teardown(test_force_bad_names, test_teardown_unpin),
      cmocka_unit_test_teardown(test_names_case_and_near_misses, test_teardown_unpin),
      cmocka_unit_test_teardown(test_pins, test_teardown_unpin),
      cmocka_unit_test_teardown(test_cpu_description, test_teardown_unpin),
  };
  int failed = cmocka_run_group_tests_name("environment", environment, NULL, NULL);
  failed += cmocka_run_group_tests_name("in_process", in_process, record_initial, NULL);
  return failed;
}
