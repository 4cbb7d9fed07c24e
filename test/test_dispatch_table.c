/* test/test_dispatch_table.c - what crisp reports about its dispatch
 * (implementation and reason per kernel, level and reason, env status,
 * each stderr line, the --all listing, the uarch line) for every pretended
 * microarchitecture, CRYPTO_FORCE level, CRYPTO_OPTIONS switch, CRYPTO_IMPL
 * pin (valid, malformed, unsupported, in both orders), crisp_force and
 * crisp_use_impl call, and seeded combinations, against expectations
 * computed here from the documented model (crisp(3) Dispatch, crisp(1)
 * ENVIRONMENT) in dispatch_model.h, not from the library: the features
 * from its own CPUID probe, the levels, implementations, table rows and
 * switches from its tables. Only the microarchitecture crisp identifies
 * when nothing is pretended is taken from crisp (test_uarch.c tests it).
 * Each case is checked through the API in a forked child (the environment
 * is read once per process) and through `crisp info --all`, run under
 * CRISP_TEST_WRAPPER (or MESON_EXE_WRAPPER) when set, so that an emulated
 * CPU is the same for both. Usage: test_dispatch_table CRISP [--current];
 * --current checks only the environment it was started with (env-sweep). */
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crisp/crisp.h"

#include "dispatch_model.h"

extern char **environ;

/* ---- what one environment must give ------------------------------------ */

typedef struct environment {
  const char *force, *options, *impl, *disable, *uarch; /* NULL: unset */
  /* Calls after the first one (API only): crisp_force(call_force), then
   * crisp_use_impl(kernel, impl) for call_pin "kernel:impl"; NULL: none. */
  const char *call_force, *call_pin;
} environment;

typedef struct report {
  int force_returned, pin_returned; /* crisp_force, crisp_use_impl; 0 when not called */
  int status;                       /* crisp_env_status(); for crisp info, from its exit and last line */
  int force_lines, options_lines, impl_lines, other_lines; /* stderr lines by kind */
  /* got: the line of each kind (CRYPTO_FORCE, _OPTIONS, _IMPL); want: what
   * each must say somewhere in it. */
  char line[3][1024];
  int fragment_count[3];
  char fragment[3][5][200];
  char features[256], uarch[256], levels[128], level[32], level_reason[320];
  char impl[KERNELS][32], reason[KERNELS][400];
  int listed[KERNELS];
  char list_name[KERNELS][IMPLS_MAX + 1][32];
  int list_supported[KERNELS][IMPLS_MAX + 1];
  int list_in_use[KERNELS][IMPLS_MAX + 1]; /* -1: the API has no such mark */
} report;

/* The CPU as probed here, and the microarchitecture crisp identified
 * without CRISP_CPU_UARCH (its identification has its own test). */
static feature_set cpu_features;
static char cpu_identity[128], identified_uarch[32], identified_line[256];

static int allowed(const impl_row *impl, int cap, feature_set have) {
  return impl_level(impl->name) <= cap && (impl->needs & ~have) == 0;
}

static const char *effective_uarch(const environment *env) {
  if (env->uarch)
    for (int u = 0; u < UARCH_COUNT; u++)
      if (strcasecmp(env->uarch, uarch_names[u]) == 0) return uarch_names[u];
  return identified_uarch;
}

/* The table's choice for kernel k, or feature order; *why gets the reason. */
static const impl_row *table_choice(int k, const char *uarch, int cap, feature_set have, char *why,
                                    size_t size) {
  for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
    if (!rules[r].prefer || strcmp(rules[r].uarch, uarch) || strcmp(rules[r].kernel, kernels[k].name))
      continue;
    const impl_row *impl = find_impl(k, rules[r].impl);
    if (impl && allowed(impl, cap, have)) {
      snprintf(why, size, "table, %s prefers %s: ", uarch, impl->name);
      return impl;
    }
  }
  const char *skipped = NULL;
  for (int i = 0; impl_at(k, i); i++) {
    const impl_row *impl = impl_at(k, i);
    if (!allowed(impl, cap, have)) continue;
    int vetoed = 0;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
      vetoed |= !rules[r].prefer && !strcmp(rules[r].uarch, uarch) &&
                !strcmp(rules[r].kernel, kernels[k].name) && !strcmp(rules[r].impl, impl->name);
    if (vetoed && strcmp(impl->name, "generic") != 0) {
      if (!skipped) skipped = impl->name;
      continue;
    }
    if (skipped)
      snprintf(why, size, "table, %s vetoes, so feature order skips %s: ", uarch, skipped);
    else
      snprintf(why, size, "feature order: the first this CPU runs at or below %s", levels[cap].name);
    return impl;
  }
  return find_impl(k, "generic");
}

/* Tokens of a variable: separated by commas, spaces or newlines. */
static int next_token(const char **p, char *token, size_t size) {
  *p += strspn(*p, ", \t\r\n");
  const size_t len = strcspn(*p, ", \t\r\n");
  if (!len) return 0;
  snprintf(token, size, "%.*s", (int)(len < size - 1 ? len : size - 1), *p);
  *p += len;
  return 1;
}

/* A variable's value as crisp's lines show it: printable ASCII, anything
 * else as '?', at most 48 characters and then "...". */
static void shown(const char *value, char *out, size_t size) {
  size_t n = 0;
  for (; *value && n + 4 < size && n < 48; value++)
    out[n++] = (*value >= 0x20 && *value < 0x7f) ? *value : '?';
  if (*value) out[n++] = '.', out[n++] = '.', out[n++] = '.';
  out[n] = '\0';
}

static void must_say(report *want, int kind, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void must_say(report *want, int kind, const char *format, ...) {
  if (want->fragment_count[kind] >= 5) return;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(want->fragment[kind][want->fragment_count[kind]++], sizeof want->fragment[kind][0], format,
            arguments);
  va_end(arguments);
}

/* What the requests decided so far, while expect() works through them. */
typedef struct decision {
  feature_set have;                                      /* the CPU's features less CRISP_CPU_DISABLE's */
  int best, cap;                                         /* levels */
  int invalid, unsupported;                              /* a malformed request; one this CPU lacks */
  int generic[KERNELS];                                  /* sent to generic by CRYPTO_OPTIONS */
  const impl_row *pinned[KERNELS], *called_pin[KERNELS]; /* CRYPTO_IMPL; crisp_use_impl */
} decision;

/* CRYPTO_FORCE (empty means unset): the cap, the level reason, its line. */
static void expect_force(const char *value, decision *d, report *want) {
  snprintf(want->level_reason, sizeof want->level_reason, "default");
  if (!value || !*value) return;
  const int forced = level_of(value, 1);
  char force[64], missing[160], valid[128] = "";
  shown(value, force, sizeof force);
  if (forced >= 0 && !(level_needs(forced) & ~d->have)) {
    d->cap = forced;
    snprintf(want->level_reason, sizeof want->level_reason, "CRYPTO_FORCE=%s", levels[forced].name);
    return;
  }
  want->force_lines = 1;
  if (forced < 0) {
    d->invalid = 1;
    for (int i = 0; i < LEVEL_COUNT; i++)
      snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", i ? " " : "", levels[i].name);
    must_say(want, 0, "=%s ", force);
    must_say(want, 0, "%s", valid);
    snprintf(want->level_reason, sizeof want->level_reason, "default: CRYPTO_FORCE=%s is not a level", force);
  } else {
    d->unsupported = 1;
    feature_list(level_needs(forced) & ~d->have, missing, sizeof missing);
    must_say(want, 0, "=%s:", force);
    must_say(want, 0, "lacks %s;", missing);
    snprintf(want->level_reason, sizeof want->level_reason, "CRYPTO_FORCE=%s, but this CPU lacks %s", force,
             missing);
  }
  must_say(want, 0, " %s\n", levels[d->best].name);
}

/* CRYPTO_OPTIONS: in order, the last switch for a kernel wins; unknown
 * ones together on one line, the first three quoted. */
static void expect_options(const char *value, decision *d, report *want) {
  char token[128], quoted[64];
  int unknown = 0, any_generic = 0;
  for (const char *p = value ? value : ""; next_token(&p, token, sizeof token);) {
    int known = 0;
    for (int k = 0; k < KERNELS; k++)
      if ((token[0] == '-' || token[0] == '+') && strcasecmp(token + 1, kernels[k].option) == 0)
        d->generic[k] = token[0] == '-', known = 1;
    if (known) continue;
    d->invalid = 1, want->options_lines = 1;
    shown(token, quoted, sizeof quoted);
    if (unknown++ < 3) must_say(want, 1, "'%s'", quoted);
  }
  if (unknown > 3) must_say(want, 1, " and %d more ", unknown - 3);
  for (int k = 0; k < KERNELS; k++) any_generic |= d->generic[k];
  if (any_generic)
    strncat(want->level_reason, "; CRYPTO_OPTIONS sends some kernels to generic",
            sizeof want->level_reason - strlen(want->level_reason) - 1);
}

/* CRYPTO_IMPL: each entry alone; a refused one changes nothing and is
 * named, with why, on the one line (the first three). */
static void expect_pins(const char *value, decision *d, report *want) {
  char token[128], quoted[64];
  int refused = 0;
  for (const char *p = value ? value : ""; next_token(&p, token, sizeof token);) {
    const char *colon = strchr(token, ':');
    const int k = colon ? find_kernel(token, (size_t)(colon - token)) : -1;
    const impl_row *impl = k >= 0 ? find_impl(k, colon + 1) : NULL;
    if (impl && !(impl->needs & ~d->have)) {
      d->pinned[k] = impl;
      continue;
    }
    want->impl_lines = 1;
    shown(token, quoted, sizeof quoted);
    char why[160] = "";
    if (!impl) {
      d->invalid = 1;
      if (k >= 0) {
        snprintf(why, sizeof why, "%s has", kernels[k].name);
        for (int i = 0; impl_at(k, i); i++)
          snprintf(why + strlen(why), sizeof why - strlen(why), " %s", impl_at(k, i)->name);
      }
    } else {
      d->unsupported = 1;
      snprintf(why, sizeof why, "this CPU lacks ");
      feature_list(impl->needs & ~d->have, why + strlen(why), sizeof why - strlen(why));
    }
    if (refused++ < 3) must_say(want, 2, "'%s' (%s", quoted, why);
  }
  if (refused > 3) must_say(want, 2, " and %d more;", refused - 3);
  /* Not "keep the default": a kernel pinned by an earlier entry keeps that. */
  if (refused)
    must_say(want, 2, "; %s\n", refused > 1 ? "those entries are ignored" : "that entry is ignored");
}

/* crisp_force, then crisp_use_impl: a name crisp does not know is invalid
 * and what this CPU lacks unsupported, both changing nothing; the
 * environment's switches and pins stay, a crisp_use_impl pin wins over all. */
static void expect_calls(const environment *env, decision *d, report *want) {
  if (env->call_force) {
    const int level = level_of(env->call_force, 1);
    want->force_returned = level < 0                         ? CRISP_E_INVALID
                           : (level_needs(level) & ~d->have) ? CRISP_E_UNSUPPORTED
                                                             : CRISP_OK;
    if (want->force_returned == CRISP_OK) {
      d->cap = level;
      snprintf(want->level_reason, sizeof want->level_reason, "crisp_force(%s)", levels[level].name);
    }
  }
  if (env->call_pin) {
    const char *colon = strchr(env->call_pin, ':');
    const int k = colon ? find_kernel(env->call_pin, (size_t)(colon - env->call_pin)) : -1;
    const impl_row *impl = k >= 0 ? find_impl(k, colon + 1) : NULL;
    want->pin_returned = !impl ? CRISP_E_INVALID : (impl->needs & ~d->have) ? CRISP_E_UNSUPPORTED : CRISP_OK;
    if (want->pin_returned == CRISP_OK) d->called_pin[k] = impl;
  }
}

/* Per kernel the first that applies: crisp_use_impl, CRYPTO_IMPL,
 * CRYPTO_OPTIONS, the table within the cap, feature order; and the
 * --all listing. */
static void expect_choices(const decision *d, const char *uarch, report *want) {
  for (int k = 0; k < KERNELS; k++) {
    const impl_row *impl;
    if (d->called_pin[k]) {
      impl = d->called_pin[k];
      snprintf(want->reason[k], sizeof want->reason[k], "crisp_use_impl() pins it");
    } else if (d->pinned[k]) {
      impl = d->pinned[k];
      snprintf(want->reason[k], sizeof want->reason[k], "CRYPTO_IMPL=%s:%s", kernels[k].name, impl->name);
    } else if (d->generic[k]) {
      impl = find_impl(k, "generic");
      snprintf(want->reason[k], sizeof want->reason[k], "CRYPTO_OPTIONS=-%s", kernels[k].option);
    } else {
      impl = table_choice(k, uarch, d->cap, d->have, want->reason[k], sizeof want->reason[k]);
    }
    snprintf(want->impl[k], sizeof want->impl[k], "%s", impl->name);
    for (int i = 0; impl_at(k, i); i++) {
      snprintf(want->list_name[k][i], sizeof want->list_name[k][i], "%s", impl_at(k, i)->name);
      want->list_supported[k][i] = !(impl_at(k, i)->needs & ~d->have);
      want->list_in_use[k][i] = impl_at(k, i) == impl;
      want->listed[k] = i + 1;
    }
  }
}

static void expect(const environment *env, report *want) {
  memset(want, 0, sizeof *want);
  decision d = {.have = cpu_features & ~parse_disabled(env->disable)};
  for (int i = 0; i < LEVEL_COUNT; i++)
    if (!(level_needs(i) & ~d.have)) d.best = i;
  d.cap = d.best;
  feature_list(d.have, want->features, sizeof want->features);
  for (int i = 0; i < LEVEL_COUNT; i++)
    snprintf(want->levels + strlen(want->levels), sizeof want->levels - strlen(want->levels), "%s%s",
             i ? " " : "", levels[i].name);
  expect_force(env->force, &d, want);
  expect_options(env->options, &d, want);
  expect_pins(env->impl, &d, want);
  /* A malformed request wins over an unsupported one, whatever the order. */
  want->status = d.invalid ? CRISP_E_INVALID : d.unsupported ? CRISP_E_UNSUPPORTED : CRISP_OK;
  expect_calls(env, &d, want);
  snprintf(want->level, sizeof want->level, "%s", levels[d.cap].name);
  const char *uarch = effective_uarch(env);
  if (uarch != identified_uarch)
    snprintf(want->uarch, sizeof want->uarch, "%s (CRISP_CPU_UARCH; the CPU is %s)", uarch, cpu_identity);
  else
    snprintf(want->uarch, sizeof want->uarch, "%s", identified_line);
  expect_choices(&d, uarch, want);
}

/* ---- what crisp says ---------------------------------------------------- */

static void set_or_unset(const char *name, const char *value) {
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

static void apply(const environment *env) {
  set_or_unset("CRYPTO_FORCE", env->force);
  set_or_unset("CRYPTO_OPTIONS", env->options);
  set_or_unset("CRYPTO_IMPL", env->impl);
  set_or_unset("CRISP_CPU_DISABLE", env->disable);
  set_or_unset("CRISP_CPU_UARCH", env->uarch);
}

/* Sorts one stderr line; lines from an emulator are not ours. */
static void count_line(const char *line, report *got, int from_info) {
  if (!strncmp(line, "qemu-", 5) || !*line) return;
  if (!strncmp(line, "crisp: CRYPTO_FORCE=", 20))
    snprintf(got->line[0], sizeof got->line[0], "%s\n", line), got->force_lines++;
  else if (!strncmp(line, "crisp: CRYPTO_OPTIONS:", 22))
    snprintf(got->line[1], sizeof got->line[1], "%s\n", line), got->options_lines++;
  else if (!strncmp(line, "crisp: CRYPTO_IMPL:", 19))
    snprintf(got->line[2], sizeof got->line[2], "%s\n", line), got->impl_lines++;
  else if (from_info &&
           !strncmp(line, "crisp info: the environment's dispatch request was not honoured", 63)) {
    const char *colon = strrchr(line, ':');
    got->status = !strcmp(colon + 2, crisp_strerror(CRISP_E_INVALID))       ? CRISP_E_INVALID
                  : !strcmp(colon + 2, crisp_strerror(CRISP_E_UNSUPPORTED)) ? CRISP_E_UNSUPPORTED
                                                                            : 99;
  } else
    got->other_lines++;
}

static void count_lines(char *text, report *got, int from_info) {
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) count_line(line, got, from_info);
}

static size_t read_all(int fd, char *buf, size_t size) {
  size_t used = 0;
  for (;;) {
    const ssize_t n = read(fd, buf + used, size - 1 - used);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    used += (size_t)n;
    if (used == size - 1) break;
  }
  buf[used] = '\0';
  return used;
}

/* The API in a forked child, sent back through a pipe. */
static int report_from_api(const environment *env, report *got) {
  int channel[2];
  if (pipe(channel)) return 0;
  fflush(stdout), fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(channel[0]);
    apply(env);
    static report r;
    memset(&r, 0, sizeof r);
    FILE *capture = tmpfile();
    const int saved = dup(2);
    if (!capture || saved < 0) _exit(2);
    dup2(fileno(capture), 2);
    r.status = crisp_env_status(); /* the first call: the environment is read now */
    dup2(saved, 2);
    char err[8192];
    const ssize_t n = pread(fileno(capture), err, sizeof err - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    count_lines(err, &r, 0);
    if (env->call_force) r.force_returned = crisp_force(env->call_force);
    if (env->call_pin) {
      const char *colon = strchr(env->call_pin, ':');
      const int k = colon ? find_kernel(env->call_pin, (size_t)(colon - env->call_pin)) : -1;
      /* A kernel the model does not know goes in as one past the last. */
      r.pin_returned = crisp_use_impl(k >= 0 ? (crisp_kernel)k : CRISP_KERNEL_COUNT, colon ? colon + 1 : "");
    }
    snprintf(r.features, sizeof r.features, "%s", crisp_cpu_features());
    snprintf(r.uarch, sizeof r.uarch, "%s", crisp_cpu_uarch());
    snprintf(r.levels, sizeof r.levels, "%s", crisp_levels());
    snprintf(r.level, sizeof r.level, "%s", crisp_level());
    snprintf(r.level_reason, sizeof r.level_reason, "%s", crisp_dispatch_reason());
    for (int k = 0; k < KERNELS; k++) {
      snprintf(r.impl[k], sizeof r.impl[k], "%s", crisp_impl_name((crisp_kernel)k));
      snprintf(r.reason[k], sizeof r.reason[k], "%s", crisp_impl_reason((crisp_kernel)k));
      r.listed[k] = (int)crisp_impl_count((crisp_kernel)k);
      for (int i = 0; i < r.listed[k] && i <= IMPLS_MAX; i++) {
        snprintf(r.list_name[k][i], sizeof r.list_name[k][i], "%s",
                 crisp_impl_name_at((crisp_kernel)k, (size_t)i));
        r.list_supported[k][i] = crisp_impl_supported_at((crisp_kernel)k, (size_t)i);
        r.list_in_use[k][i] = -1;
      }
    }
    const char *bytes = (const char *)&r;
    for (size_t done = 0; done < sizeof r;) {
      const ssize_t n2 = write(channel[1], bytes + done, sizeof r - done);
      if (n2 <= 0) _exit(3);
      done += (size_t)n2;
    }
    _exit(0);
  }
  close(channel[1]);
  if (pid < 0) return close(channel[0]), 0;
  size_t done = 0;
  char *bytes = (char *)got;
  for (;;) {
    const ssize_t n = read(channel[0], bytes + done, sizeof *got - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  close(channel[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return done == sizeof *got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static const char *crisp_program;

/* `crisp info --all` under the wrapper, stdout and stderr into files. */
static int report_from_info(const environment *env, report *got) {
  memset(got, 0, sizeof *got);
  char *argv[16];
  int argc = 0;
  char wrapper[256] = "";
  const char *w = getenv("CRISP_TEST_WRAPPER");
  if (!w || !*w) w = getenv("MESON_EXE_WRAPPER");
  snprintf(wrapper, sizeof wrapper, "%s", w ? w : "");
  for (char *word = strtok(wrapper, " "); word && argc < 10; word = strtok(NULL, " ")) argv[argc++] = word;
  argv[argc++] = (char *)crisp_program;
  argv[argc++] = "info";
  argv[argc++] = "--all";
  argv[argc] = NULL;
  FILE *out = tmpfile(), *err = tmpfile();
  if (!out || !err) return 0;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fileno(out), 1);
  posix_spawn_file_actions_adddup2(&actions, fileno(err), 2);
  apply(env);
  pid_t pid;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
  apply(&(environment){0});
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return fclose(out), fclose(err), 0;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  static char text[65536];
  lseek(fileno(err), 0, SEEK_SET);
  read_all(fileno(err), text, sizeof text);
  count_lines(text, got, 1);
  lseek(fileno(out), 0, SEEK_SET);
  read_all(fileno(out), text, sizeof text);
  fclose(out), fclose(err);
  const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  if (exit_status == 0)
    got->status = got->status ? 98 : CRISP_OK;
  else if (exit_status != 2 || !got->status)
    got->status = 97; /* exit 2 comes with its line */
  int k = -1;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char name[64], rest[400] = "";
    if (sscanf(line, "cpu: %399[^\n]", rest) == 1) continue;
    if (sscanf(line, "uarch: %255[^\n]", got->uarch) == 1) continue;
    if (!strncmp(line, "features:", 9)) {
      snprintf(got->features, sizeof got->features, "%s", line[9] ? line + 10 : "");
      continue;
    }
    if (sscanf(line, "levels: %127[^\n]", got->levels) == 1) continue;
    if (sscanf(line, "level: %31s (%319[^\n]", got->level, got->level_reason) == 2) {
      size_t len = strlen(got->level_reason);
      if (len && got->level_reason[len - 1] == ')') got->level_reason[len - 1] = '\0';
      continue;
    }
    if (sscanf(line, "    why: %399[^\n]", rest) == 1 && k >= 0) {
      snprintf(got->reason[k], sizeof got->reason[k], "%s", rest);
      continue;
    }
    if (!strncmp(line, "  ", 2) && k >= 0 && got->listed[k] <= IMPLS_MAX) {
      char impl[32], mark[64] = "";
      if (sscanf(line, " %31s %63[^\n]", impl, mark) < 1) continue;
      const int i = got->listed[k]++;
      snprintf(got->list_name[k][i], sizeof got->list_name[k][i], "%s", impl);
      got->list_supported[k][i] = !strncmp(mark, "supported", 9);
      got->list_in_use[k][i] = strstr(mark, ", in use") != NULL;
      continue;
    }
    if (sscanf(line, "%63[a-z0-9_]: %399[^\n]", name, rest) == 2) {
      k = find_kernel(name, strlen(name));
      if (k >= 0) snprintf(got->impl[k], sizeof got->impl[k], "%.31s", rest);
    }
  }
  return 1;
}

/* ---- comparing ---------------------------------------------------------- */

static int failures, checks;

static void describe(const environment *env, char *out, size_t size) {
  snprintf(
      out, size,
      "%s%.40s%s%.60s CRYPTO_FORCE=%.40s CRYPTO_OPTIONS=%.80s CRYPTO_IMPL=%.80s CRISP_CPU_DISABLE=%.100s "
      "CRISP_CPU_UARCH=%.40s",
      env->call_force ? "crisp_force " : "", env->call_force ? env->call_force : "",
      env->call_pin ? " crisp_use_impl " : "", env->call_pin ? env->call_pin : "",
      env->force ? env->force : "(unset)", env->options ? env->options : "(unset)",
      env->impl ? env->impl : "(unset)", env->disable ? env->disable : "(unset)",
      env->uarch ? env->uarch : "(unset)");
}

#define SAME_TEXT(field, what)                                                         \
  do {                                                                                 \
    if (strcmp(got->field, want->field)) {                                             \
      printf("  %s: %s '%s', expected '%s'\n", source, what, got->field, want->field); \
      bad++;                                                                           \
    }                                                                                  \
  } while (0)
#define SAME_INT(field, what)                                                      \
  do {                                                                             \
    if (got->field != want->field) {                                               \
      printf("  %s: %s %d, expected %d\n", source, what, got->field, want->field); \
      bad++;                                                                       \
    }                                                                              \
  } while (0)

static int compare(const char *source, const report *got, const report *want) {
  int bad = 0;
  SAME_INT(force_returned, "crisp_force returned");
  SAME_INT(pin_returned, "crisp_use_impl returned");
  SAME_INT(status, "status");
  SAME_INT(force_lines, "CRYPTO_FORCE stderr lines");
  SAME_INT(options_lines, "CRYPTO_OPTIONS stderr lines");
  SAME_INT(impl_lines, "CRYPTO_IMPL stderr lines");
  SAME_INT(other_lines, "other stderr lines");
  for (int kind = 0; kind < 3; kind++)
    for (int i = 0; got->line[kind][0] && i < want->fragment_count[kind]; i++)
      if (!strstr(got->line[kind], want->fragment[kind][i])) {
        printf("  %s: the line '%.300s' does not say '%s'\n", source, got->line[kind],
               want->fragment[kind][i]);
        bad++;
      }
  SAME_TEXT(features, "features");
  SAME_TEXT(uarch, "uarch");
  SAME_TEXT(levels, "levels");
  SAME_TEXT(level, "level");
  SAME_TEXT(level_reason, "level reason");
  for (int k = 0; k < KERNELS; k++) {
    char what[96];
    snprintf(what, sizeof what, "%s implementation", kernels[k].name);
    SAME_TEXT(impl[k], what);
    /* A table reason ends with its evidence, which is not part of the model. */
    const size_t len =
        strncmp(want->reason[k], "table, ", 7) ? strlen(want->reason[k]) + 1 : strlen(want->reason[k]);
    if (strncmp(got->reason[k], want->reason[k], len)) {
      printf("  %s: %s why '%.160s', expected '%s'%s\n", source, kernels[k].name, got->reason[k],
             want->reason[k], len > strlen(want->reason[k]) ? "" : "...");
      bad++;
    }
    snprintf(what, sizeof what, "%s implementation count", kernels[k].name);
    SAME_INT(listed[k], what);
    for (int i = 0; i < want->listed[k] && i < got->listed[k]; i++) {
      snprintf(what, sizeof what, "%s implementation %d", kernels[k].name, i);
      SAME_TEXT(list_name[k][i], what);
      snprintf(what, sizeof what, "%s %s supported", kernels[k].name, want->list_name[k][i]);
      SAME_INT(list_supported[k][i], what);
      if (got->list_in_use[k][i] >= 0) {
        snprintf(what, sizeof what, "%s %s in use", kernels[k].name, want->list_name[k][i]);
        SAME_INT(list_in_use[k][i], what);
      }
    }
  }
  return bad;
}

/* Set under CRISP_TEST_SCALE < 1 (emulated runs): fewer variants of each
 * kind, and crisp info for one case in eight (each starts an emulator);
 * every kind of case still runs through the API. */
static int thin;

static void check(const environment *env) {
  static report want, got;
  char label[640];
  describe(env, label, sizeof label);
  expect(env, &want);
  int bad = 0;
  if (!report_from_api(env, &got)) {
    printf("  api: the child failed\n");
    bad++;
  } else {
    bad += compare("api", &got, &want);
  }
  if (env->call_force || env->call_pin) {
    /* crisp info cannot make these calls. */
  } else if (thin && checks % 8) {
    /* Emulated: a new emulator per crisp info is the cost; the API saw it. */
  } else if (!report_from_info(env, &got)) {
    printf("  crisp info: could not run %s\n", crisp_program);
    bad++;
  } else {
    bad += compare("crisp info", &got, &want);
  }
  checks++;
  if (bad) {
    printf("FAIL with %s (%d differences above)\n", label, bad);
    failures++;
  }
}

/* ---- the cases ---------------------------------------------------------- */

/* A deterministic generator for the combinations. */
static uint64_t seed = 0x2400d15a7c4ull;
static unsigned pick(unsigned n) {
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (unsigned)(seed % n);
}

static const char *const garbage_uarch[] = {"",          "zen",          "zen4 ",   "ZEN9",
                                            "skylake_x", "unknown,zen4", "\xff\xfe"};
static const char *const bad_levels[] = {"avx3", "avx2 ", "generic,avx2", "x86-64", "\x1b[2J"};
static const char *const malformed_pins[] = {
    "md5",          "md5:",         ":generic",       "nosuch:generic",     "md5:nosuch",
    "md5 :generic", "md5:generic:", "poly1305:avx2x", "md5_many:x86_64-adx"};

/* An implementation of some kernel that the CPU (with disable applied)
 * cannot run, as "kernel:impl" in out; 0 when it runs all. */
static int unsupported_pin(feature_set have, unsigned which, char *out, size_t size) {
  unsigned seen = 0;
  for (int k = 0; k < KERNELS; k++)
    for (int i = 0; impl_at(k, i); i++)
      if ((impl_at(k, i)->needs & ~have) && seen++ == which) {
        snprintf(out, size, "%s:%s", kernels[k].name, impl_at(k, i)->name);
        return 1;
      }
  return 0;
}

static void upper(char *s) {
  for (; *s; s++)
    if (*s >= 'a' && *s <= 'z') *s = (char)(*s - 32);
}

/* Every feature hidden: only the portable levels are left, so above them
 * everything is unsupported on any CPU. */
static char hide_all[256];

static void sweep(void) {
  static char buf[64][256];
  int b = 0;
  /* Microarchitectures, pretended or garbage, alone and upper-cased. */
  check(&(environment){0});
  for (int u = 0; u < UARCH_COUNT; u++) {
    check(&(environment){.uarch = uarch_names[u]});
    if (thin) continue;
    snprintf(buf[b], sizeof buf[b], "%s", uarch_names[u]), upper(buf[b]);
    check(&(environment){.uarch = buf[b++]});
  }
  for (size_t g = 0; g < sizeof garbage_uarch / sizeof garbage_uarch[0]; g++)
    check(&(environment){.uarch = garbage_uarch[g]});
  /* Every level, bad level names and the empty value, with and without a
   * core whose table prefers a vector implementation, and on a CPU with
   * every feature hidden (the levels it lacks). */
  for (int l = 0; l < LEVEL_COUNT; l++) {
    check(&(environment){.force = levels[l].name});
    check(&(environment){.force = levels[l].name, .uarch = "icelake"});
    check(&(environment){.force = levels[l].name, .uarch = "unknown", .disable = hide_all});
    snprintf(buf[b], sizeof buf[b], "%s", levels[l].name), upper(buf[b]);
    check(&(environment){.force = buf[b++], .uarch = "zen4"});
  }
  check(&(environment){.force = ""});
  for (size_t i = 0; i < sizeof bad_levels / sizeof bad_levels[0]; i++)
    check(&(environment){.force = bad_levels[i], .uarch = i & 1 ? "sapphirerapids" : NULL});
  /* Every switch off, on, off then on, on then off, lower-cased, and with
   * the table's core, which a switch overrides. */
  for (int k = 0; k < KERNELS; k++) {
    int shared = 0; /* a switch named with an earlier kernel */
    for (int j = 0; j < k; j++) shared |= !strcmp(kernels[k].option, kernels[j].option);
    if (shared) continue;
    char *minus = buf[b++], *mixed = buf[b++];
    snprintf(minus, 256, "-%s", kernels[k].option);
    check(&(environment){.options = minus});
    check(&(environment){.options = minus, .uarch = "icelake"});
    check(&(environment){.options = minus + 1}); /* no sign: unknown */
    snprintf(mixed, 256, "-%s,+%s", kernels[k].option, kernels[k].option);
    check(&(environment){.options = mixed});
    snprintf(mixed = buf[b++], 256, "+%s -%s", kernels[k].option, kernels[k].option);
    upper(mixed + 1);
    check(&(environment){.options = mixed});
  }
  check(&(environment){.options = ""});
  check(&(environment){.options = "-UseMD5Intrinsics,-UseNoSuchIntrinsic,+UsePoly1305Intrinsics"});
  check(&(environment){.options = "-UseMD5IntrinsicsX"});
  /* Pins: every implementation of every kernel (those this CPU lacks are
   * refused as unsupported), and with every feature hidden. */
  for (int k = 0; k < KERNELS; k++)
    for (int i = 0; impl_at(k, i); i++) {
      char pin[80];
      snprintf(pin, sizeof pin, "%s:%s", kernels[k].name, impl_at(k, i)->name);
      char *copy = buf[b % 64];
      b++;
      snprintf(copy, 256, "%s", pin);
      check(&(environment){.impl = copy});
      if (!thin) check(&(environment){.impl = copy, .disable = hide_all, .force = "generic"});
      if (i == 0) {
        upper(copy);
        check(&(environment){.impl = copy, .uarch = "icelake"});
      }
    }
  b = b % 64;
  for (size_t m = 0; m < sizeof malformed_pins / sizeof malformed_pins[0]; m++)
    check(&(environment){.impl = malformed_pins[m]});
  /* Malformed and unsupported together, both orders, in one variable and
   * across variables: the malformed one decides the status. */
  char unsupported[80];
  for (unsigned which = 0;
       unsupported_pin(cpu_features & ~parse_disabled(hide_all), which, unsupported, sizeof unsupported) &&
       which < 3;
       which++) {
    for (size_t m = 0; m < 3; m++) {
      char *forward = buf[b++ % 64], *backward = buf[b++ % 64];
      snprintf(forward, 256, "%s,%s", malformed_pins[m * 3 + 1], unsupported);
      snprintf(backward, 256, "%s %s", unsupported, malformed_pins[m * 3 + 1]);
      check(&(environment){.impl = forward, .disable = hide_all});
      check(&(environment){.impl = backward, .disable = hide_all});
    }
    char *pin = buf[b++ % 64];
    snprintf(pin, 256, "%s", unsupported);
    check(&(environment){.impl = pin, .disable = hide_all, .force = "avx3"});
    check(&(environment){.impl = pin, .disable = hide_all, .options = "-UseNothing"});
    check(&(environment){.impl = "md5:nosuch", .disable = hide_all, .force = levels[LEVEL_COUNT - 1].name});
    check(&(environment){.impl = pin, .disable = hide_all, .force = levels[LEVEL_COUNT - 1].name});
  }
  /* A pin wins over a switch and the cap; the last accepted pin of a kernel
   * holds, a refused one after it changes nothing. */
  check(&(environment){.impl = "md5:generic,md5:nosuch", .options = "+UseMD5Intrinsics"});
  check(&(environment){.impl = "md5:nosuch md5:generic"});
  check(&(environment){.impl = "poly1305:generic poly1305:x86_64", .force = "generic"});
}

/* crisp_force at every level and bad names, and crisp_use_impl of every
 * implementation, over the environment's own requests. */
static void calls(void) {
  static char pins[128][80];
  int p = 0;
  const char *const bad[] = {"avx3", "", "AVX2", "generic "};
  for (int l = 0; l < LEVEL_COUNT + 4; l++) {
    const char *level = l < LEVEL_COUNT ? levels[l].name : bad[l - LEVEL_COUNT];
    check(&(environment){.call_force = level});
    check(&(environment){.call_force = level, .uarch = "icelake", .options = "-UseChaCha20Intrinsics"});
    check(&(environment){.call_force = level, .disable = hide_all, .force = "avx3"});
    check(&(environment){.call_force = level, .impl = "poly1305:generic", .force = "generic"});
  }
  for (int k = 0; k < KERNELS && p < 128; k++)
    for (int i = 0; impl_at(k, i) && p < 128; i++, p++) {
      snprintf(pins[p], sizeof pins[p], "%s:%s", kernels[k].name, impl_at(k, i)->name);
      check(&(environment){.call_pin = pins[p], .force = "generic", .impl = "md5:generic,poly1305:generic"});
      if (!thin) check(&(environment){.call_pin = pins[p], .disable = hide_all, .call_force = "generic"});
    }
  check(&(environment){.call_pin = "md5:nosuch"});
  check(&(environment){.call_pin = "md5:"});
  check(&(environment){.call_pin = "nosuch:generic"});
}

/* Random combinations of every dimension (fixed seed). */
static void combinations(int count) {
  static char options[64][256], pins[64][256];
  for (int c = 0; c < count; c++) {
    environment env = {0};
    if (pick(3)) env.uarch = pick(5) ? uarch_names[pick(UARCH_COUNT)] : garbage_uarch[pick(7)];
    if (pick(2)) env.force = pick(5) ? levels[pick(LEVEL_COUNT)].name : bad_levels[pick(5)];
    if (pick(3) == 0) env.disable = pick(2) ? hide_all : feature_names[pick(FEATURE_COUNT)];
    char *o = options[c % 64], *p = pins[c % 64];
    o[0] = p[0] = '\0';
    for (int n = (int)pick(4); n > 0; n--) {
      const char *sign = pick(8) ? (pick(2) ? "-" : "+") : "";
      snprintf(o + strlen(o), 256 - strlen(o), "%s%s%s", *o ? "," : "", sign, kernels[pick(KERNELS)].option);
    }
    if (*o || pick(2)) env.options = o;
    for (int n = (int)pick(4); n > 0; n--) {
      const int k = (int)pick(KERNELS);
      int count_impls = 0;
      while (impl_at(k, count_impls)) count_impls++;
      if (pick(6) == 0)
        snprintf(p + strlen(p), 256 - strlen(p), "%s%s", *p ? " " : "", malformed_pins[pick(9)]);
      else
        snprintf(p + strlen(p), 256 - strlen(p), "%s%s:%s", *p ? "," : "", kernels[k].name,
                 impl_at(k, (int)pick((unsigned)count_impls))->name);
    }
    if (*p) env.impl = p;
    check(&env);
  }
}

/* The identified microarchitecture: crisp's own line without the variable. */
static int identify(void) {
  static report got;
  if (!report_from_api(&(environment){0}, &got)) return 0;
  snprintf(identified_line, sizeof identified_line, "%s", got.uarch);
  snprintf(identified_uarch, sizeof identified_uarch, "%.*s", (int)strcspn(got.uarch, " "), got.uarch);
  for (int u = 0; u < UARCH_COUNT; u++)
    if (!strcmp(identified_uarch, uarch_names[u])) return 1;
  printf("crisp identified '%s', not a documented name\n", got.uarch);
  return 0;
}

/* The data file follows the documented rules: a name is its level, then
 * optionally '-' and a qualifier; every kernel is documented and ends with
 * its generic implementation; an implementation executes what its level
 * adds. */
static int data_follows_the_docs(void) {
  int bad = 0;
  for (int j = 0; j < IMPL_ROWS; j++) {
    const impl_row *row = &impl_rows[j];
    const int k = find_kernel(row->kernel, strlen(row->kernel));
    int last = 1;
    for (int later = j + 1; later < IMPL_ROWS; later++)
      last &= strcmp(impl_rows[later].kernel, row->kernel) != 0;
    if (k < 0) printf("implementations.def: %s is no documented kernel\n", row->kernel), bad++;
    if (impl_level(row->name) != row->level)
      printf("implementations.def: %s/%s is at level %s, its name says %d\n", row->kernel, row->name,
             levels[row->level].name, impl_level(row->name)),
          bad++;
    if (last != !strcmp(row->name, "generic"))
      printf("implementations.def: %s/%s: generic comes last, once\n", row->kernel, row->name), bad++;
    if (levels[row->level].needs & ~row->needs)
      printf("implementations.def: %s/%s lacks its level's features\n", row->kernel, row->name), bad++;
  }
  for (int k = 0; k < KERNELS; k++) {
    if (!impl_at(k, 0)) printf("implementations.def: %s has no implementation\n", kernels[k].name), bad++;
    if (impl_at(k, IMPLS_MAX + 1))
      printf("implementations.def: %s has too many for this test\n", kernels[k].name), bad++;
  }
  return bad == 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_dispatch_table CRISP [--current]\n");
    return 2;
  }
  crisp_program = argv[1];
  const int current = argc > 2 && !strcmp(argv[2], "--current");
  /* The environment of this process, kept for --current before any case
   * changes it. */
  environment started = {.force = getenv("CRYPTO_FORCE"),
                         .options = getenv("CRYPTO_OPTIONS"),
                         .impl = getenv("CRYPTO_IMPL"),
                         .disable = getenv("CRISP_CPU_DISABLE"),
                         .uarch = getenv("CRISP_CPU_UARCH")};
  static char saved[5][8192];
  const char **fields[5] = {&started.force, &started.options, &started.impl, &started.disable,
                            &started.uarch};
  for (int i = 0; i < 5; i++)
    if (*fields[i]) snprintf(saved[i], sizeof saved[i], "%s", *fields[i]), *fields[i] = saved[i];
  cpu_features = probe_independently();
  probe_identity(cpu_identity, sizeof cpu_identity);
  for (int i = 0, used = 0; i < FEATURE_COUNT; i++)
    used += snprintf(hide_all + used, sizeof hide_all - (size_t)used, "%s%s", i ? "," : "", feature_names[i]);
  if (!data_follows_the_docs()) return 1;
  apply(&(environment){0});
  if (!identify()) return 1;
  if (!strcmp(cpu_identity, "?")) /* no independent probe here: the parenthesised part crisp printed */
    snprintf(cpu_identity, sizeof cpu_identity, "%.*s",
             (int)(strlen(identified_line) - strlen(identified_uarch) - 3),
             identified_line + strlen(identified_uarch) + 2);
  char have[256];
  feature_list(cpu_features, have, sizeof have);
  printf("# this CPU, probed by the test: %s (%s); crisp identified %s\n", have, cpu_identity,
         identified_uarch);
  if (current) {
    check(&started);
  } else {
    const char *scale = getenv("CRISP_TEST_SCALE");
    const double factor = scale && *scale ? atof(scale) : 1.0;
    thin = factor > 0 && factor < 1;
    sweep();
    calls();
    combinations((int)(200 * (factor > 0 ? factor : 1.0)));
  }
  printf("%d environments, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
