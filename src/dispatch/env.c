/* src/dispatch/env.c - parses CRYPTO_FORCE=LEVEL, the JDK-style
 * CRYPTO_OPTIONS switches and CRYPTO_IMPL=kernel:impl pins. One stderr line
 * for a bad CRYPTO_FORCE, one for all bad switches together and one for all
 * refused pins together are all the library ever prints. Level, switch,
 * kernel and implementation names are case-insensitive. */
#include "env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crisp/common.h"
#include "cpu.h"
#include "levels.h"
#include "registry.h"

/* The JDK switches, generated from the kernel list: switch_names[k] is the
 * CRYPTO_OPTIONS name that sends kernel k to generic (kernels may share one). */
static const char *const switch_names[CRISP_KERNEL_COUNT] = {
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) [CRISP_KERNEL_##ENUM] = jdk_switch,
    CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL
};

/* Unknown switches named in the one warning line; the rest are counted. */
#define SHOWN_UNKNOWN 3

/* Prints one warning line: formatted here, then written whole. fprintf to
 * the unbuffered stderr formats through a BUFSIZ buffer on the stack
 * (glibc: 8 KiB), which would double a first call's stack use; quote()
 * and the shown lists bound every line well below this one's size. */
#if defined(__GNUC__) || defined(__clang__)
static void warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
#endif
static void warn(const char *format, ...) {
  char line[1024];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(line, sizeof line, format, arguments);
  va_end(arguments);
  fputs(line, stderr);
}

/* Copies at most 48 characters of untrusted text, printable ASCII only, so a
 * hostile variable cannot flood or garble the one line we print. */
static void quote(const char *text, char *out, size_t size) {
  size_t n = 0;
  for (; *text && n + 4 < size && n < 48; text++) out[n++] = (*text >= 0x20 && *text < 0x7f) ? *text : '?';
  if (*text) out[n++] = '.', out[n++] = '.', out[n++] = '.';
  out[n] = '\0';
}

static void read_force(const char *value, uint32_t cpu_features, crisp_env_choice *choice) {
  char shown[64];
  quote(value, shown, sizeof shown);
  const crisp_level_id best = crisp_level_best(cpu_features);
  const int wanted = crisp_level_parse(value);
  if (wanted < 0) {
    warn("crisp: CRYPTO_FORCE=%s is not a level (valid: %s); using the default, %s\n", shown,
         crisp_level_list(), crisp_level_name(best));
    choice->status = CRISP_E_INVALID;
    /* No parentheses: crisp info prints the reason inside a pair. */
    snprintf(choice->reason, sizeof choice->reason, "default: CRYPTO_FORCE=%s is not a level", shown);
    return;
  }
  const uint32_t missing = crisp_level_features((crisp_level_id)wanted) & ~cpu_features;
  if (missing) {
    char names[128];
    crisp_cpu_feature_names(missing, names, sizeof names);
    warn("crisp: CRYPTO_FORCE=%s: this CPU lacks %s; using %s\n", shown, names, crisp_level_name(best));
    choice->status = CRISP_E_UNSUPPORTED;
    choice->cap = best;
    snprintf(choice->reason, sizeof choice->reason, "CRYPTO_FORCE=%s, but this CPU lacks %s", shown, names);
    return;
  }
  choice->cap = (crisp_level_id)wanted;
  snprintf(choice->reason, sizeof choice->reason, "CRYPTO_FORCE=%s", crisp_level_name(choice->cap));
}

/* The kernels a switch name (case-insensitive) controls; 0 when unknown. */
static uint32_t switch_kernels(const char *name) {
  uint32_t kernels = 0;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if (strcasecmp(name, switch_names[k]) == 0) kernels |= 1u << k;
  return kernels;
}

/* "UseMD5Intrinsics, UsePoly1305Intrinsics, ...": each switch once. */
static void list_switches(char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    if (switch_kernels(switch_names[k]) & ((1u << k) - 1)) continue; /* listed with an earlier kernel */
    const int n = snprintf(out + used, size - used, "%s%s", used ? ", " : "", switch_names[k]);
    if (n < 0 || (size_t)n >= size - used) break;
    used += (size_t)n;
  }
}

/* Unknown switches seen so far: the first few quoted, the rest counted. */
typedef struct unknown_switches {
  size_t count;
  char shown[SHOWN_UNKNOWN][64];
} unknown_switches;

/* One switch: "-Name" sends Name's kernels to generic, "+Name" keeps them. */
static void read_switch(const char *token, crisp_env_choice *choice, unknown_switches *unknown) {
  const char sign = token[0];
  const uint32_t kernels = (sign == '-' || sign == '+') ? switch_kernels(token + 1) : 0;
  if (kernels) {
    if (sign == '-')
      choice->generic_kernels |= kernels;
    else
      choice->generic_kernels &= ~kernels;
    return;
  }
  if (unknown->count < SHOWN_UNKNOWN) quote(token, unknown->shown[unknown->count], sizeof unknown->shown[0]);
  unknown->count++;
}

/* The one line for every unknown switch together. */
static void report_unknown(const unknown_switches *unknown) {
  char known[256], names[3 * SHOWN_UNKNOWN * 64];
  list_switches(known, sizeof known);
  size_t used = 0;
  names[0] = '\0';
  for (size_t i = 0; i < unknown->count && i < SHOWN_UNKNOWN; i++)
    used += (size_t)snprintf(names + used, sizeof names - used, "%s'%s'", i ? ", " : "", unknown->shown[i]);
  char more[48] = "";
  if (unknown->count > SHOWN_UNKNOWN)
    snprintf(more, sizeof more, " and %zu more", unknown->count - SHOWN_UNKNOWN);
  warn("crisp: CRYPTO_OPTIONS: unknown switch%s %s%s ignored (known: -/+ with %s)\n",
       unknown->count > 1 ? "es" : "", names, more, known);
}

/* Switches are separated by commas, spaces, tabs or newlines. */
#define SEPARATORS ", \t\r\n"

#define TOKEN_MAX 64

/* Copies the next token of *p into token and moves *p past it; 0 at the end.
 * An over-long token cannot be a name; a prefix ending in '?' is kept to
 * report it. */
static int next_token(const char **p, char token[TOKEN_MAX]) {
  *p += strspn(*p, SEPARATORS);
  const size_t len = strcspn(*p, SEPARATORS);
  if (len == 0) return 0;
  const size_t keep = len < TOKEN_MAX - 1 ? len : TOKEN_MAX - 1;
  memcpy(token, *p, keep);
  token[keep] = '\0';
  if (len >= TOKEN_MAX) token[keep - 1] = '?';
  *p += len;
  return 1;
}

static void read_options(const char *value, crisp_env_choice *choice) {
  unknown_switches unknown = {0};
  char token[TOKEN_MAX];
  while (next_token(&value, token)) read_switch(token, choice, &unknown);
  if (unknown.count) {
    report_unknown(&unknown);
    choice->status = CRISP_E_INVALID;
  }
  if (choice->generic_kernels) {
    size_t used = strlen(choice->reason);
    snprintf(choice->reason + used, sizeof choice->reason - used,
             "; CRYPTO_OPTIONS sends some kernels to generic");
  }
}

/* Kernel names, generated from the kernel list. */
static const char *const kernel_names[CRISP_KERNEL_COUNT] = {
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) [CRISP_KERNEL_##ENUM] = #name,
    CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL
};

/* Refused CRYPTO_IMPL entries: the first few quoted with why, the rest counted. */
typedef struct refused_pins {
  size_t count;
  int status;
  char shown[SHOWN_UNKNOWN][200];
} refused_pins;

static void refuse_pin(refused_pins *refused, const char *token, const char *why, int status) {
  if (refused->count < SHOWN_UNKNOWN) {
    char quoted[64];
    quote(token, quoted, sizeof quoted);
    snprintf(refused->shown[refused->count], sizeof refused->shown[0], "'%s' (%s)", quoted, why);
  }
  refused->count++;
  if (refused->status != CRISP_E_INVALID) refused->status = status;
}

/* One "kernel:implementation" entry. */
static void read_pin(const char *token, uint32_t cpu_features, crisp_env_choice *choice,
                     refused_pins *refused) {
  const char *colon = strchr(token, ':');
  if (!colon) {
    refuse_pin(refused, token, "not kernel:implementation", CRISP_E_INVALID);
    return;
  }
  const size_t kernel_len = (size_t)(colon - token);
  int kernel = -1;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if (strlen(kernel_names[k]) == kernel_len && strncasecmp(token, kernel_names[k], kernel_len) == 0)
      kernel = k;
  if (kernel < 0) {
    refuse_pin(refused, token, "no such kernel; crisp info --kernels lists them", CRISP_E_INVALID);
    return;
  }
  const crisp_impl_info *impl = crisp_registry_find((crisp_kernel)kernel, colon + 1);
  if (!impl) {
    char names[96] = "";
    size_t used = 0;
    for (size_t i = 0; crisp_registry_at((crisp_kernel)kernel, i); i++) {
      const int n = snprintf(names + used, sizeof names - used, "%s%s", i ? " " : "",
                             crisp_registry_at((crisp_kernel)kernel, i)->name);
      if (n < 0 || (size_t)n >= sizeof names - used) break;
      used += (size_t)n;
    }
    char why[128];
    snprintf(why, sizeof why, "%s has %s", kernel_names[kernel], names);
    refuse_pin(refused, token, why, CRISP_E_INVALID);
    return;
  }
  const uint32_t missing = impl->features & ~cpu_features;
  if (missing) {
    char names[96], why[128];
    crisp_cpu_feature_names(missing, names, sizeof names);
    snprintf(why, sizeof why, "this CPU lacks %s", names);
    refuse_pin(refused, token, why, CRISP_E_UNSUPPORTED);
    return;
  }
  choice->impls[kernel] = impl;
}

static void read_pins(const char *value, uint32_t cpu_features, crisp_env_choice *choice) {
  refused_pins refused = {0};
  char token[TOKEN_MAX];
  while (next_token(&value, token)) read_pin(token, cpu_features, choice, &refused);
  if (!refused.count) return;
  char more[48] = "";
  if (refused.count > SHOWN_UNKNOWN)
    snprintf(more, sizeof more, " and %zu more", refused.count - SHOWN_UNKNOWN);
  /* Not "the kernel keeps its default": an earlier entry may have pinned it. */
  warn("crisp: CRYPTO_IMPL: refused %s%s%s%s%s%s; %s ignored\n", refused.shown[0],
       refused.count > 1 ? ", " : "", refused.count > 1 ? refused.shown[1] : "",
       refused.count > 2 ? ", " : "", refused.count > 2 ? refused.shown[2] : "", more,
       refused.count > 1 ? "those entries are" : "that entry is");
  if (choice->status != CRISP_E_INVALID) choice->status = refused.status;
}

crisp_env_choice crisp_env_read(uint32_t cpu_features) {
  crisp_env_choice choice = {.cap = crisp_level_best(cpu_features), .status = CRISP_OK};
  snprintf(choice.reason, sizeof choice.reason, "default");
  /* An empty CRYPTO_FORCE= is how shells unset a variable for one command. */
  const char *force = getenv("CRYPTO_FORCE");
  if (force && *force) read_force(force, cpu_features, &choice);
  const char *options = getenv("CRYPTO_OPTIONS");
  if (options) read_options(options, &choice);
  const char *pins = getenv("CRYPTO_IMPL");
  if (pins) read_pins(pins, cpu_features, &choice);
  return choice;
}
