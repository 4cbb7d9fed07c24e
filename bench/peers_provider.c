/* bench/peers_provider.c - crisp bench's EVP rows: the crisp provider
 * (crisp.so) against OpenSSL's default provider through the same EVP calls
 * (bench/evp_work.c) on two library contexts, measured interleaved with the
 * case's other rows. Finds and loads the module, and says in one line why
 * there are no EVP rows when it cannot. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/provider.h>

#include "bench.h"
#include "evp_work.h"
#include "openssl_keys.h"

#ifndef CRISP_PROVIDER_INSTALL_DIR
#define CRISP_PROVIDER_INSTALL_DIR "/usr/local/lib/ossl-modules"
#endif
#define MODULE_FILE "crisp.so"
#define ENVIRONMENT_PATH "CRISP_PROVIDER_PATH"

/* Under the label of crisp's own rows for the same work, at the sizes given. */
typedef struct evp_row {
  const char *label;
  const char *name; /* shown after the source */
  const evp_work *work;
  size_t sizes[4]; /* 0 ends the list */
} evp_row;

static const evp_row evp_rows[] = {
    {"md5", "EVP_Digest MD5", &evp_work_md5, {64, 1024, 16384}},
    {"poly1305", "EVP_MAC POLY1305", &evp_work_poly1305, {64, 1024, 16384}},
    {"chacha20poly1305_seal", "EVP chacha20-poly1305 TLS record", &evp_work_aead_seal, {64, 1024, 16384}},
    {"rsa_private", "EVP_PKEY_sign PKCS#1 v1.5 SHA-256", &evp_work_rsa_sign, {2048}},
};
enum { EVP_ROW_COUNT = sizeof evp_rows / sizeof evp_rows[0] };

/* Each context's source is also the property query of its every fetch:
 * "provider=crisp" fails rather than let the default provider answer. */
enum { CRISP_CONTEXT, DEFAULT_CONTEXT, CONTEXT_COUNT };
static const char *const sources[CONTEXT_COUNT] = {BENCH_SOURCE_CRISP_PROVIDER,
                                                   BENCH_SOURCE_DEFAULT_PROVIDER};
static OSSL_LIB_CTX *contexts[CONTEXT_COUNT];
/* crisp and default in the crisp context, default in the other: each load
 * holds a reference its unload gives back. */
enum { PROVIDER_COUNT = 3 };
static OSSL_PROVIDER *providers[PROVIDER_COUNT];
static bench_routine routines[CONTEXT_COUNT][EVP_ROW_COUNT];
static int failed[CONTEXT_COUNT][EVP_ROW_COUNT]; /* an EVP call failed in the case being measured */
static char folder[PATH_MAX];
static int loaded;

/* "crisp bench: " and the message, then the first reason OpenSSL queued
 * (the cause; later entries say which calls gave up) with its detail, such
 * as dlopen's message; empties the queue. */
static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...) {
  const char *data = NULL, *reason = NULL, *detail = NULL;
  unsigned long error;
  int flags;
  while (!reason && (error = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0)
    if ((reason = ERR_reason_error_string(error)) != NULL)
      detail = data && *data && (flags & ERR_TXT_STRING) ? data : NULL;
  va_list args;
  va_start(args, format);
  fputs("crisp bench: ", stderr);
  vfprintf(stderr, format, args);
  va_end(args);
  if (reason) fprintf(stderr, ": %s", reason);
  if (detail) fprintf(stderr, " (%s)", detail);
  fputc('\n', stderr);
  ERR_clear_error();
}

/* The build tree's provider folder into folder when this program is
 * bench/crisp-bench of a build tree that made crisp.so; 0 on success. */
static int build_tree_folder(void) {
  char program[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
  if (length <= 0) return -1;
  program[length] = '\0';
  char *slash = strrchr(program, '/');
  if (!slash) return -1;
  *slash = '\0';
  const size_t length_left = strlen(program), suffix = strlen("/bench");
  if (length_left < suffix || strcmp(program + length_left - suffix, "/bench")) return -1;
  program[length_left - suffix] = '\0';
  char module[PATH_MAX];
  if (snprintf(folder, sizeof folder, "%s/provider", program) >= (int)sizeof folder ||
      snprintf(module, sizeof module, "%s/" MODULE_FILE, folder) >= (int)sizeof module)
    return -1;
  return access(module, F_OK);
}

/* The folder to load crisp.so from, into folder; returns what chose it, or
 * NULL when the path is too long. */
static const char *choose_folder(const char *path) {
  const char *environment = getenv(ENVIRONMENT_PATH);
  const char *chosen = path ? path : environment && *environment ? environment : NULL;
  if (chosen) {
    if (snprintf(folder, sizeof folder, "%s", chosen) >= (int)sizeof folder) return NULL;
    return path ? "--provider-path" : ENVIRONMENT_PATH;
  }
  if (build_tree_folder() == 0) return "the build tree";
  snprintf(folder, sizeof folder, "%s", CRISP_PROVIDER_INSTALL_DIR);
  return "the installed modules folder";
}

static int load_contexts(void) {
  for (int i = 0; i < CONTEXT_COUNT; i++)
    if (!(contexts[i] = OSSL_LIB_CTX_new())) return 0;
  /* The crisp context keeps the default provider too, as a program that
   * loads crisp beside it does: the RSA signature fetches SHA-256 there. */
  return OSSL_PROVIDER_set_default_search_path(contexts[CRISP_CONTEXT], folder) &&
         (providers[0] = OSSL_PROVIDER_load(contexts[CRISP_CONTEXT], "crisp")) != NULL &&
         (providers[1] = OSSL_PROVIDER_load(contexts[CRISP_CONTEXT], "default")) != NULL &&
         (providers[2] = OSSL_PROVIDER_load(contexts[DEFAULT_CONTEXT], "default")) != NULL;
}

static void free_contexts(void) {
  for (int i = 0; i < PROVIDER_COUNT; i++) {
    if (providers[i]) OSSL_PROVIDER_unload(providers[i]);
    providers[i] = NULL;
  }
  for (int i = 0; i < CONTEXT_COUNT; i++) OSSL_LIB_CTX_free(contexts[i]), contexts[i] = NULL;
  loaded = 0;
}

static void *setup_crisp(const bench_case *c);
static void *setup_default(const bench_case *c);
static void run_row(void *opaque, const bench_case *c, size_t iterations);
static void teardown_row(void *opaque);

void bench_provider_init(const char *path) {
  const char *chosen_by = choose_folder(path);
  if (!chosen_by) {
    say("no EVP rows: the provider path is too long");
    return;
  }
  if (!load_contexts()) {
    say("no EVP rows: cannot load " MODULE_FILE " from %s (%s)", folder, chosen_by);
    free_contexts();
    return;
  }
  for (int context = 0; context < CONTEXT_COUNT; context++)
    for (int r = 0; r < EVP_ROW_COUNT; r++)
      routines[context][r] = (bench_routine){
          .kernel = evp_rows[r].label,
          .source = sources[context],
          .name = evp_rows[r].name,
          .setup = context == CRISP_CONTEXT ? setup_crisp : setup_default,
          .run = run_row,
          .teardown = teardown_row,
      };
  loaded = 1;
}

void bench_provider_finish(void) {
  free_contexts();
}

const char *bench_provider_openssl_version(void) {
  return loaded ? OpenSSL_version(OPENSSL_VERSION) : NULL;
}

const char *bench_provider_folder(void) {
  return loaded ? folder : NULL;
}

static const evp_row *row_for(const char *label) {
  for (int r = 0; r < EVP_ROW_COUNT; r++)
    if (!strcmp(evp_rows[r].label, label)) return &evp_rows[r];
  return NULL;
}

size_t bench_provider_rows(const char *label, size_t size, bench_row *rows, size_t capacity) {
  const evp_row *row = loaded ? row_for(label) : NULL;
  if (!row || capacity < CONTEXT_COUNT) return 0;
  for (size_t s = 0; s < sizeof row->sizes / sizeof row->sizes[0] && row->sizes[s]; s++) {
    if (row->sizes[s] != size) continue;
    for (int context = 0; context < CONTEXT_COUNT; context++)
      rows[context] = (bench_row){&routines[context][row - evp_rows], NULL, NULL, 0, 0, 0};
    return CONTEXT_COUNT;
  }
  return 0;
}

/* A row whose EVP calls failed has no figures to show. */
void bench_provider_drop_failed(bench_row *rows, size_t count) {
  for (size_t r = 0; r < count; r++)
    for (int context = 0; context < CONTEXT_COUNT; context++)
      for (int index = 0; index < EVP_ROW_COUNT; index++) {
        if (rows[r].routine != &routines[context][index] || !failed[context][index]) continue;
        failed[context][index] = 0;
        rows[r].ns_per_op = NAN;
      }
}

struct row_state {
  int context, index;
  const evp_work *work;
  void *work_state;
  EVP_PKEY *key;
  int failed;
};

/* The work is set up and run once: a provider's first call may do its own
 * set-up (crisp's dispatch probes the CPU on first use, milliseconds),
 * which calibration would otherwise take for the cost of one call. */
static void *setup_in(const bench_case *c, int context) {
  const evp_row *row = row_for(c->kernel);
  struct row_state *state = row ? calloc(1, sizeof *state) : NULL;
  if (!state) return NULL;
  state->context = context, state->index = (int)(row - evp_rows), state->work = row->work;
  if (c->rsa) state->key = bench_rsa_pkey(contexts[context], sources[context], c->rsa);
  const evp_work_input input = {contexts[context], sources[context], c->data, c->size, c->key, state->key};
  if ((!c->rsa || state->key) && (state->work_state = row->work->setup(&input)) &&
      row->work->run(state->work_state, 1))
    return state;
  char size[48];
  bench_size_label(size, sizeof size, c);
  say("%s %s at %s: cannot set up, row left out", sources[context], row->name, size);
  if (state->work_state) row->work->teardown(state->work_state);
  EVP_PKEY_free(state->key);
  free(state);
  return NULL;
}

static void *setup_crisp(const bench_case *c) {
  return setup_in(c, CRISP_CONTEXT);
}

static void *setup_default(const bench_case *c) {
  return setup_in(c, DEFAULT_CONTEXT);
}

/* After a failed call the row stops working: its figures are dropped. */
static void run_row(void *opaque, const bench_case *c, size_t iterations) {
  struct row_state *state = opaque;
  (void)c;
  if (!state->failed && !state->work->run(state->work_state, iterations)) state->failed = 1;
}

static void teardown_row(void *opaque) {
  struct row_state *state = opaque;
  if (state->failed) {
    failed[state->context][state->index] = 1;
    say("%s %s failed, row left out", sources[state->context], evp_rows[state->index].name);
  }
  state->work->teardown(state->work_state);
  EVP_PKEY_free(state->key);
  free(state);
}
