/* test/test_uarch.c - the microarchitecture table: identification of known
 * cores, the table's own consistency, the choice it makes for every core,
 * level cap and feature set (never an implementation the CPU lacks; unknown
 * cores keep feature order), and, through the public API in forked
 * children, CRISP_CPU_UARCH, the per-kernel reasons and what wins over the
 * table: a pin, CRYPTO_IMPL, CRYPTO_OPTIONS, CRYPTO_FORCE. CRYPTO_IMPL's
 * refusals (unknown names, an implementation the CPU lacks, garbage) print
 * one bounded stderr line and keep the default. Linked with the static
 * library to reach the internal functions. */
#include <ctype.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "dispatch/levels.h"
#include "dispatch/registry.h"
#include "dispatch/uarch.h"
#include "dispatch/uarch_table.h"

static void test_identify_x86(void **state) {
  (void)state;
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x19, 0x01), CRISP_UARCH_ZEN3);
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x19, 0x21), CRISP_UARCH_ZEN3);
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x19, 0x11), CRISP_UARCH_ZEN4);
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x19, 0x61), CRISP_UARCH_ZEN4);
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x1a, 0x02), CRISP_UARCH_ZEN5);
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x17, 0x31), CRISP_UARCH_UNKNOWN); /* Zen 2 */
  assert_int_equal(crisp_uarch_x86("AuthenticAMD", 0x1a, 0xf0), CRISP_UARCH_UNKNOWN);
  assert_int_equal(crisp_uarch_x86("HygonGenuine", 0x18, 0x01), CRISP_UARCH_UNKNOWN);
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 6, 0x55), CRISP_UARCH_SKYLAKE_X);
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 6, 0x6a), CRISP_UARCH_ICE_LAKE);
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 6, 0x7e), CRISP_UARCH_ICE_LAKE);
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 6, 0x8f), CRISP_UARCH_SAPPHIRE_RAPIDS);
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 6, 0xcf), CRISP_UARCH_SAPPHIRE_RAPIDS);
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 6, 0x3c),
                   CRISP_UARCH_UNKNOWN); /* Haswell, as QEMU shows it */
  assert_int_equal(crisp_uarch_x86("GenuineIntel", 15, 0x55), CRISP_UARCH_UNKNOWN);
  assert_int_equal(crisp_uarch_x86("", 0, 0), CRISP_UARCH_UNKNOWN);
  assert_int_equal(crisp_uarch_x86(NULL, 0x19, 0x11), CRISP_UARCH_UNKNOWN);
}

static void test_identify_arm64(void **state) {
  (void)state;
  assert_int_equal(crisp_uarch_arm64(0x41, 0xd0c), CRISP_UARCH_NEOVERSE_N1);
  assert_int_equal(crisp_uarch_arm64(0x41, 0xd40), CRISP_UARCH_NEOVERSE_V1);
  assert_int_equal(crisp_uarch_arm64(0x41, 0xd4f), CRISP_UARCH_NEOVERSE_V2);
  assert_int_equal(crisp_uarch_arm64(0x61, 0x022), CRISP_UARCH_APPLE);
  assert_int_equal(crisp_uarch_arm64(0x41, 0xd03), CRISP_UARCH_UNKNOWN); /* Cortex-A53 */
  assert_int_equal(crisp_uarch_arm64(0, 0), CRISP_UARCH_UNKNOWN);
}

static void test_names(void **state) {
  (void)state;
  for (int u = 0; u < CRISP_UARCH_COUNT; u++) {
    const char *name = crisp_uarch_name((crisp_uarch_id)u);
    assert_int_equal(crisp_uarch_parse(name), u);
    char upper[32];
    snprintf(upper, sizeof upper, "%s", name);
    for (char *p = upper; *p; p++) *p = (char)toupper((unsigned char)*p);
    assert_int_equal(crisp_uarch_parse(upper), u);
  }
  assert_int_equal(crisp_uarch_parse("zen"), -1);
  assert_int_equal(crisp_uarch_parse("zen4 "), -1);
  assert_string_equal(crisp_uarch_name(CRISP_UARCH_COUNT), "unknown");
}

/* Every rule names a level-prefixed implementation, never vetoes generic,
 * carries a bounded one-line evidence that says what kind it is, and no
 * implementation is both preferred and vetoed on one core. */
static void test_table_consistent(void **state) {
  (void)state;
  for (size_t i = 0; i < crisp_uarch_rule_count; i++) {
    const crisp_uarch_rule *rule = &crisp_uarch_rules[i];
    if (rule->uarch == CRISP_UARCH_COUNT) continue; /* the placeholder */
    assert_true(rule->uarch > CRISP_UARCH_UNKNOWN && rule->uarch < CRISP_UARCH_COUNT);
    assert_true((unsigned)rule->kernel < CRISP_KERNEL_COUNT);
    char level[32];
    snprintf(level, sizeof level, "%.*s", (int)strcspn(rule->impl, "-"), rule->impl);
    assert_true(crisp_level_parse(level) >= 0);
    assert_true(rule->action == CRISP_RULE_PREFER || strcasecmp(rule->impl, "generic") != 0);
    assert_true(strncmp(rule->evidence, "measured: ", 10) == 0 ||
                strncmp(rule->evidence, "cycle model: ", 13) == 0);
    assert_true(strlen(rule->evidence) < 240 && !strchr(rule->evidence, '\n'));
    for (size_t j = 0; j < crisp_uarch_rule_count; j++)
      assert_false(j != i && crisp_uarch_rules[j].uarch == rule->uarch &&
                   crisp_uarch_rules[j].kernel == rule->kernel &&
                   strcasecmp(crisp_uarch_rules[j].impl, rule->impl) == 0);
  }
  for (size_t i = 0; i < crisp_uarch_setting_count; i++) {
    const crisp_uarch_setting *setting = &crisp_uarch_settings[i];
    if (setting->uarch == CRISP_UARCH_COUNT) continue; /* the placeholder */
    assert_true(setting->uarch > CRISP_UARCH_UNKNOWN && setting->parameter < CRISP_TUNING_COUNT);
    assert_true(setting->evidence && strlen(setting->evidence) < 240);
  }
}

static int allowed(const crisp_impl_info *impl, crisp_level_id cap, uint32_t features) {
  return impl && impl->level <= cap && (impl->features & ~features) == 0;
}

/* For every core, kernel, cap and a spread of feature sets: the choice is
 * one the CPU runs under the cap; unknown cores get feature order; a
 * preferred implementation wins whenever it is allowed. */
static void test_choice_always_allowed(void **state) {
  (void)state;
  for (uint32_t mask = 0; mask < 4096; mask += 7) {
    const uint32_t features = mask & ((1u << CRISP_FEATURE_COUNT) - 1);
    for (int u = 0; u < CRISP_UARCH_COUNT; u++)
      for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
        for (int cap = 0; cap < CRISP_LEVEL_COUNT; cap++) {
          const crisp_uarch_rule *rule;
          const crisp_impl_info *impl =
              crisp_uarch_choose((crisp_kernel)k, (crisp_uarch_id)u, (crisp_level_id)cap, features, &rule);
          assert_true(allowed(impl, (crisp_level_id)cap, features));
          if (u == CRISP_UARCH_UNKNOWN) {
            assert_ptr_equal(impl, crisp_registry_best((crisp_kernel)k, (crisp_level_id)cap, features));
            assert_null(rule);
          }
          for (size_t i = 0; i < crisp_uarch_rule_count; i++) {
            const crisp_uarch_rule *r = &crisp_uarch_rules[i];
            if ((int)r->uarch != u || (int)r->kernel != k || r->action != CRISP_RULE_PREFER) continue;
            const crisp_impl_info *preferred = crisp_registry_find((crisp_kernel)k, r->impl);
            if (allowed(preferred, (crisp_level_id)cap, features)) {
              assert_ptr_equal(impl, preferred);
              assert_ptr_equal(rule, r);
            }
            break;
          }
        }
  }
}

/* Vetoes through a made-up table: feature order skips the vetoed, the rule
 * is reported, and with everything vetoed generic still runs. */
static void test_veto(void **state) {
  (void)state;
  const crisp_kernel k = CRISP_KERNEL_BN_MUL;
  const crisp_impl_info *first = crisp_registry_at(k, 0), *second = crisp_registry_at(k, 1);
  const crisp_level_id top = (crisp_level_id)(CRISP_LEVEL_COUNT - 1);
  const uint32_t all = ~0u;
  crisp_uarch_rule rules[16];
  size_t n = 0;
  rules[n++] = (crisp_uarch_rule){CRISP_UARCH_ZEN3, k, first->name, CRISP_RULE_VETO, "cycle model: test"};
  const crisp_uarch_rule *rule;
  const crisp_impl_info *impl = crisp_uarch_choose_from(rules, n, k, CRISP_UARCH_ZEN3, top, all, &rule);
  if (second) {
    assert_ptr_equal(impl, second);
    assert_ptr_equal(rule, &rules[0]);
  }
  impl = crisp_uarch_choose_from(rules, n, k, CRISP_UARCH_ZEN4, top, all, &rule);
  assert_ptr_equal(impl, first);
  assert_null(rule);
  for (size_t i = 0; crisp_registry_at(k, i) && n < 16; i++)
    rules[n++] = (crisp_uarch_rule){CRISP_UARCH_ZEN3, k, crisp_registry_at(k, i)->name, CRISP_RULE_VETO, "x"};
  impl = crisp_uarch_choose_from(rules, n, k, CRISP_UARCH_ZEN3, top, all, &rule);
  assert_ptr_equal(impl, crisp_registry_best(k, top, all));
  assert_null(rule);
}

/* ---- through the public API, in forked children ----------------------- */

static int child_failures;
#define CHILD_CHECK(cond, ...)                        \
  do {                                                \
    if (!(cond)) {                                    \
      fprintf(stdout, "  check failed: %s: ", #cond); \
      fprintf(stdout, __VA_ARGS__);                   \
      fputc('\n', stdout);                            \
      child_failures++;                               \
    }                                                 \
  } while (0)

/* The stderr a child captured: its 'crisp:' lines (qemu's own left out). */
typedef struct captured {
  char text[8192];
  size_t lines;
  size_t longest;
} captured;

static void read_captured(int fd, captured *c) {
  lseek(fd, 0, SEEK_SET);
  const ssize_t n = read(fd, c->text, sizeof c->text - 1);
  c->text[n > 0 ? n : 0] = '\0';
  c->lines = c->longest = 0;
  for (char *p = c->text; *p;) {
    const size_t len = strcspn(p, "\n");
    if (strncmp(p, "crisp:", 6) == 0) {
      c->lines++;
      if (len > c->longest) c->longest = len;
    }
    p += len + (p[len] == '\n');
  }
}

/* Runs body in a child with the environment given as NAME=VALUE strings
 * (NULL-terminated), stderr captured; fails when the child reports one. */
static void in_child(const char *label, const char *const env[], void (*body)(const captured *)) {
  fflush(stdout);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    unsetenv("CRYPTO_FORCE"), unsetenv("CRYPTO_OPTIONS"), unsetenv("CRYPTO_IMPL");
    unsetenv("CRISP_CPU_UARCH"), unsetenv("CRISP_CPU_DISABLE");
    for (size_t i = 0; env[i]; i++) {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)strcspn(env[i], "="), env[i]);
      setenv(name, strchr(env[i], '=') + 1, 1);
    }
    char path[] = "/tmp/crisp_uarch_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) _exit(2);
    unlink(path);
    dup2(fd, 2);
    static captured c;
    crisp_impl_name(CRISP_KERNEL_MD5); /* first use: the environment is read now */
    read_captured(fd, &c);
    body(&c);
    if (child_failures) printf("  [%s] failed\n", label);
    fflush(stdout);
    _exit(child_failures ? 1 : 0);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("child '%s' failed", label);
}

/* The index of an implementation of kernel by name, or -1. */
static int impl_index(crisp_kernel kernel, const char *name) {
  for (size_t i = 0; i < crisp_impl_count(kernel); i++)
    if (strcmp(crisp_impl_name_at(kernel, i), name) == 0) return (int)i;
  return -1;
}

static int md5_avx512_runs(void) {
  const int i = impl_index(CRISP_KERNEL_MD5, "avx512");
  return i >= 0 && crisp_impl_supported_at(CRISP_KERNEL_MD5, (size_t)i);
}

static int starts(const char *text, const char *prefix) {
  return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

/* Ice Lake: the table prefers the vector MD5 (a cycle argument). */
static void icelake_default(const captured *c) {
  CHILD_CHECK(c->lines == 0, "stderr: %s", c->text);
  CHILD_CHECK(starts(crisp_cpu_uarch(), "icelake (CRISP_CPU_UARCH"), "%s", crisp_cpu_uarch());
  const char *why = crisp_impl_reason(CRISP_KERNEL_MD5);
  if (md5_avx512_runs()) {
    CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "avx512") == 0, "md5 %s",
                crisp_impl_name(CRISP_KERNEL_MD5));
    CHILD_CHECK(starts(why, "table, icelake prefers avx512: cycle model: "), "%s", why);
    /* A pin wins over the table; unpinning returns to it. */
    CHILD_CHECK(crisp_use_impl(CRISP_KERNEL_MD5, "generic") == CRISP_OK, "pin");
    CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "generic") == 0, "pinned md5");
    CHILD_CHECK(starts(crisp_impl_reason(CRISP_KERNEL_MD5), "crisp_use_impl()"), "%s",
                crisp_impl_reason(CRISP_KERNEL_MD5));
    CHILD_CHECK(crisp_use_impl(CRISP_KERNEL_MD5, NULL) == CRISP_OK, "unpin");
    CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "avx512") == 0, "unpinned md5");
    /* crisp_force below the level: feature order under the cap. */
    CHILD_CHECK(crisp_force("x86_64") == CRISP_OK, "force");
    CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "avx512") != 0, "forced md5");
    CHILD_CHECK(starts(crisp_impl_reason(CRISP_KERNEL_MD5), "feature order"), "%s",
                crisp_impl_reason(CRISP_KERNEL_MD5));
    crisp_force(NULL);
  } else {
    CHILD_CHECK(starts(why, "feature order"), "%s", why);
  }
  uint8_t digest[16];
  crisp_md5("abc", 3, digest);
  CHILD_CHECK(digest[0] == 0x90 && digest[15] == 0x72, "md5 of abc");
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    CHILD_CHECK(crisp_impl_reason((crisp_kernel)k) != NULL, "reason %d", k);
  CHILD_CHECK(crisp_impl_reason(CRISP_KERNEL_COUNT) == NULL, "reason of no kernel");
}

static void not_avx512(const captured *c) {
  CHILD_CHECK(c->lines == 0, "stderr: %s", c->text);
  CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "avx512") != 0, "md5 %s",
              crisp_impl_name(CRISP_KERNEL_MD5));
  CHILD_CHECK(starts(crisp_impl_reason(CRISP_KERNEL_MD5), "feature order"), "%s",
              crisp_impl_reason(CRISP_KERNEL_MD5));
}

static void md5_generic_by_options(const captured *c) {
  CHILD_CHECK(c->lines == 0, "stderr: %s", c->text);
  CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "generic") == 0, "md5 %s",
              crisp_impl_name(CRISP_KERNEL_MD5));
  CHILD_CHECK(strcmp(crisp_impl_reason(CRISP_KERNEL_MD5), "CRYPTO_OPTIONS=-UseMD5Intrinsics") == 0, "%s",
              crisp_impl_reason(CRISP_KERNEL_MD5));
}

static void test_table_through_api(void **state) {
  (void)state;
  in_child("icelake", (const char *const[]){"CRISP_CPU_UARCH=icelake", NULL}, icelake_default);
  in_child("ICELAKE in capitals", (const char *const[]){"CRISP_CPU_UARCH=ICELAKE", NULL}, icelake_default);
  in_child("zen4", (const char *const[]){"CRISP_CPU_UARCH=zen4", NULL}, not_avx512);
  in_child("zen5", (const char *const[]){"CRISP_CPU_UARCH=zen5", NULL}, not_avx512);
  in_child("unknown", (const char *const[]){"CRISP_CPU_UARCH=unknown", NULL}, not_avx512);
#if defined(__x86_64__)
  in_child("icelake, CRYPTO_FORCE=x86_64",
           (const char *const[]){"CRISP_CPU_UARCH=icelake", "CRYPTO_FORCE=x86_64", NULL}, not_avx512);
#endif
  in_child("icelake, CRYPTO_FORCE=generic",
           (const char *const[]){"CRISP_CPU_UARCH=icelake", "CRYPTO_FORCE=generic", NULL}, not_avx512);
  in_child("icelake, no avx512f",
           (const char *const[]){"CRISP_CPU_UARCH=icelake", "CRISP_CPU_DISABLE=avx512f", NULL}, not_avx512);
  in_child("icelake, CRYPTO_OPTIONS",
           (const char *const[]){"CRISP_CPU_UARCH=icelake", "CRYPTO_OPTIONS=-UseMD5Intrinsics", NULL},
           md5_generic_by_options);
}

/* ---- CRYPTO_IMPL ------------------------------------------------------- */

static void pins_honoured(const captured *c) {
  CHILD_CHECK(c->lines == 0, "stderr: %s", c->text);
  CHILD_CHECK(crisp_env_status() == CRISP_OK, "status %d", crisp_env_status());
  CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "generic") == 0, "md5 %s",
              crisp_impl_name(CRISP_KERNEL_MD5));
  CHILD_CHECK(strcmp(crisp_impl_reason(CRISP_KERNEL_MD5), "CRYPTO_IMPL=md5:generic") == 0, "%s",
              crisp_impl_reason(CRISP_KERNEL_MD5));
  CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_BN_MUL), "generic") == 0, "bn_mul %s",
              crisp_impl_name(CRISP_KERNEL_BN_MUL));
  /* crisp_force does not undo an environment pin; a crisp_use_impl pin wins. */
  crisp_force("generic");
  crisp_force(NULL);
  CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "generic") == 0, "after force");
  const char *best = crisp_impl_name_at(CRISP_KERNEL_MD5, 0);
  if (crisp_impl_supported_at(CRISP_KERNEL_MD5, 0)) {
    crisp_use_impl(CRISP_KERNEL_MD5, best);
    CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), best) == 0, "pin over CRYPTO_IMPL");
    crisp_use_impl(CRISP_KERNEL_MD5, NULL);
    CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_MD5), "generic") == 0, "unpinned: CRYPTO_IMPL again");
  }
}

/* The kernels' defaults with nothing set, from a child of their own. */
static char default_impls[CRISP_KERNEL_COUNT][32];

static void defaults_kept(const captured *c, int status, const char *line_has) {
  CHILD_CHECK(c->lines == 1, "%zu crisp: lines: %s", c->lines, c->text);
  CHILD_CHECK(c->longest < 1024, "line of %zu characters", c->longest);
  CHILD_CHECK(strstr(c->text, "CRYPTO_IMPL") != NULL, "%s", c->text);
  CHILD_CHECK(!line_has || strstr(c->text, line_has), "'%s' not in %s", line_has, c->text);
  for (const char *p = c->text; *p; p++)
    CHILD_CHECK((*p >= 0x20 && *p < 0x7f) || *p == '\n', "raw byte 0x%02x", *p & 0xff);
  CHILD_CHECK(crisp_env_status() == status, "status %d", crisp_env_status());
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if (k != CRISP_KERNEL_BN_SQR)
      CHILD_CHECK(strcmp(crisp_impl_name((crisp_kernel)k), default_impls[k]) == 0, "%s: %s, default %s",
                  crisp_kernel_name((crisp_kernel)k), crisp_impl_name((crisp_kernel)k), default_impls[k]);
}

static void unknown_kernel(const captured *c) {
  defaults_kept(c, CRISP_E_INVALID, "no such kernel");
}
static void unknown_impl(const captured *c) {
  defaults_kept(c, CRISP_E_INVALID, "md5 has");
}
static void garbage(const captured *c) {
  defaults_kept(c, CRISP_E_INVALID, NULL);
}
static void one_good_one_bad(const captured *c) {
  defaults_kept(c, CRISP_E_INVALID, "nosuch");
  CHILD_CHECK(strcmp(crisp_impl_name(CRISP_KERNEL_BN_SQR), "generic") == 0, "bn_sqr %s",
              crisp_impl_name(CRISP_KERNEL_BN_SQR));
}

static void record_defaults(const captured *c) {
  (void)c;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    printf("%s %s\n", crisp_kernel_name((crisp_kernel)k), crisp_impl_name((crisp_kernel)k));
}

/* A kernel's implementation that needs a feature, for the refusal case. */
static char needy_pin[64];
static crisp_kernel needy_kernel;

static void lacking(const captured *c) {
  CHILD_CHECK(c->lines == 1 && strstr(c->text, "lacks"), "%s", c->text);
  CHILD_CHECK(crisp_env_status() == CRISP_E_UNSUPPORTED, "status %d", crisp_env_status());
  CHILD_CHECK(strcmp(needy_pin + strlen("CRYPTO_IMPL=") + strlen(crisp_kernel_name(needy_kernel)) + 1,
                     crisp_impl_name(needy_kernel)) != 0,
              "%s runs", crisp_impl_name(needy_kernel));
  CHILD_CHECK(starts(crisp_impl_reason(needy_kernel), "feature order"), "%s",
              crisp_impl_reason(needy_kernel));
}

static void test_crypto_impl(void **state) {
  (void)state;
  /* Record the defaults in a child: this process must stay unprobed. */
  int out[2];
  assert_int_equal(pipe(out), 0);
  fflush(stdout);
  const int saved = dup(1);
  dup2(out[1], 1);
  in_child("defaults", (const char *const[]){"CRISP_CPU_UARCH=unknown", NULL}, record_defaults);
  fflush(stdout);
  dup2(saved, 1);
  close(out[1]);
  char listing[4096];
  const ssize_t n = read(out[0], listing, sizeof listing - 1);
  close(out[0]);
  listing[n > 0 ? n : 0] = '\0';
  for (char *line = strtok(listing, "\n"); line; line = strtok(NULL, "\n")) {
    char kernel[32], impl[32];
    if (sscanf(line, "%31s %31s", kernel, impl) != 2) continue;
    for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
      if (strcmp(crisp_kernel_name((crisp_kernel)k), kernel) == 0) snprintf(default_impls[k], 32, "%s", impl);
  }
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) assert_true(default_impls[k][0]);

  in_child("pins",
           (const char *const[]){"CRISP_CPU_UARCH=unknown", "CRYPTO_IMPL=md5:generic, BN_MUL:GENERIC", NULL},
           pins_honoured);
  in_child("unknown kernel",
           (const char *const[]){"CRISP_CPU_UARCH=unknown", "CRYPTO_IMPL=md6:generic", NULL}, unknown_kernel);
  in_child("unknown impl", (const char *const[]){"CRISP_CPU_UARCH=unknown", "CRYPTO_IMPL=md5:avx9", NULL},
           unknown_impl);
  in_child("near miss", (const char *const[]){"CRISP_CPU_UARCH=unknown", "CRYPTO_IMPL=md5:generi", NULL},
           unknown_impl);
  in_child("good and bad",
           (const char *const[]){"CRISP_CPU_UARCH=unknown", "CRYPTO_IMPL=bn_sqr:generic,nosuch", NULL},
           one_good_one_bad);
  static char long_value[6000];
  for (size_t i = 0; i + 1 < sizeof long_value; i++) long_value[i] = i % 7 == 6 ? ',' : 'x';
  static char long_env[6100];
  snprintf(long_env, sizeof long_env, "CRYPTO_IMPL=%s", long_value);
  in_child("5000 characters", (const char *const[]){"CRISP_CPU_UARCH=unknown", long_env, NULL}, garbage);
  in_child("non-ASCII",
           (const char *const[]){"CRISP_CPU_UARCH=unknown", "CRYPTO_IMPL=md5:\xff\xfe\x1b[2J", NULL},
           garbage);
  /* An implementation that needs a feature, with every feature hidden. */
  for (int k = 0; k < CRISP_KERNEL_COUNT && !needy_pin[0]; k++)
    for (size_t i = 0; i < crisp_impl_count((crisp_kernel)k); i++) {
      const char *name = crisp_impl_name_at((crisp_kernel)k, i);
      if (strcmp(name, "generic") == 0 || strncmp(name, "x86_64", 6) == 0 || strncmp(name, "arm64", 5) == 0)
        continue;
      snprintf(needy_pin, sizeof needy_pin, "CRYPTO_IMPL=%s:%s", crisp_kernel_name((crisp_kernel)k), name);
      needy_kernel = (crisp_kernel)k;
      break;
    }
  if (needy_pin[0])
    in_child("lacking",
             (const char *const[]){"CRISP_CPU_UARCH=unknown", needy_pin,
                                   "CRISP_CPU_DISABLE=sse2 bmi1 bmi2 adx avx avx2 avx512f avx512vl avx512bw "
                                   "avx512dq avx512ifma asimd",
                                   NULL},
             lacking);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identify_x86),
      cmocka_unit_test(test_identify_arm64),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_table_consistent),
      cmocka_unit_test(test_choice_always_allowed),
      cmocka_unit_test(test_veto),
      cmocka_unit_test(test_table_through_api),
      cmocka_unit_test(test_crypto_impl),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
