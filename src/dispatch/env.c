/* src/dispatch/env.c - parses CRYPTO_FORCE=LEVEL and the JDK-style
 * CRYPTO_OPTIONS switches. These two stderr lines (and nothing else) are what
 * the library ever prints. */
#include "env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crisp/common.h"
#include "cpu.h"
#include "levels.h"

/* JDK flag names, each sending its kernels to generic when given as -Name. */
static const struct {
  const char *name;
  uint32_t kernels;
} switches[] = {
    {"UseMD5Intrinsics", 1u << CRISP_KERNEL_MD5 | 1u << CRISP_KERNEL_MD5_MANY},
    {"UsePoly1305Intrinsics", 1u << CRISP_KERNEL_POLY1305},
    {"UseMultiplyToLenIntrinsic", 1u << CRISP_KERNEL_BN_MUL},
    {"UseSquareToLenIntrinsic", 1u << CRISP_KERNEL_BN_SQR},
    {"UseMulAddIntrinsic", 1u << CRISP_KERNEL_BN_MUL_ADD},
    {"UseMontgomeryMultiplyIntrinsic", 1u << CRISP_KERNEL_BN_MONT_MUL},
    {"UseMontgomerySquareIntrinsic", 1u << CRISP_KERNEL_BN_MONT_SQR},
};

/* Copies at most 48 characters of untrusted text, printable ASCII only, so a
 * hostile variable cannot flood or garble the one line we print. */
static void quote(const char *text, char *out, size_t size) {
  size_t n = 0;
  for (; *text && n + 4 < size && n < 48; text++)
    out[n++] = (*text >= 0x20 && *text < 0x7f) ? *text : '?';
  if (*text) out[n++] = '.', out[n++] = '.', out[n++] = '.';
  out[n] = '\0';
}

static void read_force(const char *value, uint32_t cpu_features, crisp_env_choice *choice) {
  char shown[64];
  quote(value, shown, sizeof shown);
  const crisp_level_id best = crisp_level_best(cpu_features);
  const int wanted = crisp_level_parse(value);
  if (wanted < 0) {
    fprintf(stderr, "crisp: CRYPTO_FORCE=%s is not a level (valid: %s); using the default, %s\n", shown,
            crisp_level_list(), crisp_level_name(best));
    choice->status = CRISP_E_INVALID;
    snprintf(choice->reason, sizeof choice->reason, "default (CRYPTO_FORCE=%s is not a level)", shown);
    return;
  }
  const uint32_t missing = crisp_level_features((crisp_level_id)wanted) & ~cpu_features;
  if (missing) {
    char names[128];
    crisp_cpu_feature_names(missing, names, sizeof names);
    fprintf(stderr, "crisp: CRYPTO_FORCE=%s: this CPU lacks %s; using %s\n", shown, names,
            crisp_level_name(best));
    choice->status = CRISP_E_UNSUPPORTED;
    choice->cap = best;
    snprintf(choice->reason, sizeof choice->reason, "CRYPTO_FORCE=%s, but this CPU lacks %s", shown, names);
    return;
  }
  choice->cap = (crisp_level_id)wanted;
  snprintf(choice->reason, sizeof choice->reason, "CRYPTO_FORCE=%s", crisp_level_name(choice->cap));
}

/* One switch: "-Name" sends Name's kernels to generic, "+Name" keeps them. */
static void read_switch(const char *token, crisp_env_choice *choice) {
  const char sign = token[0];
  for (size_t i = 0; (sign == '-' || sign == '+') && i < sizeof switches / sizeof switches[0]; i++) {
    if (strcmp(token + 1, switches[i].name) != 0) continue;
    if (sign == '-')
      choice->generic_kernels |= switches[i].kernels;
    else
      choice->generic_kernels &= ~switches[i].kernels;
    return;
  }
  char shown[64];
  quote(token, shown, sizeof shown);
  fprintf(stderr, "crisp: CRYPTO_OPTIONS: unknown switch '%s' ignored (known: -/+UseMD5Intrinsics, "
                  "UsePoly1305Intrinsics, UseMultiplyToLenIntrinsic, UseSquareToLenIntrinsic, "
                  "UseMulAddIntrinsic, UseMontgomeryMultiplyIntrinsic, UseMontgomerySquareIntrinsic)\n",
          shown);
  choice->status = CRISP_E_INVALID;
}

static void read_options(const char *value, crisp_env_choice *choice) {
  char token[64];
  const char *p = value;
  while (*p) {
    p += strspn(p, ", \t");
    size_t len = strcspn(p, ", \t");
    if (len == 0) break;
    /* An over-long token cannot be a switch; keep a prefix to report it. */
    size_t keep = len < sizeof token - 1 ? len : sizeof token - 1;
    memcpy(token, p, keep);
    token[keep] = '\0';
    if (len >= sizeof token) token[keep - 1] = '?';
    read_switch(token, choice);
    p += len;
  }
  if (choice->generic_kernels) {
    size_t used = strlen(choice->reason);
    snprintf(choice->reason + used, sizeof choice->reason - used, "; CRYPTO_OPTIONS sends some kernels to generic");
  }
}

crisp_env_choice crisp_env_read(uint32_t cpu_features) {
  crisp_env_choice choice = {.cap = crisp_level_best(cpu_features), .status = CRISP_OK};
  snprintf(choice.reason, sizeof choice.reason, "default");
  const char *force = getenv("CRYPTO_FORCE");
  if (force) read_force(force, cpu_features, &choice);
  const char *options = getenv("CRYPTO_OPTIONS");
  if (options) read_options(options, &choice);
  return choice;
}
