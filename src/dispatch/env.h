/* src/dispatch/env.h - CRYPTO_FORCE and CRYPTO_OPTIONS, read once. */
#ifndef CRISP_SRC_DISPATCH_ENV_H
#define CRISP_SRC_DISPATCH_ENV_H

#include "impl.h"

typedef struct crisp_env_choice {
  crisp_level_id cap;        /* the level cap to start with */
  uint32_t generic_kernels;  /* bit k set: kernel k sent to generic */
  int status;                /* CRISP_OK, or why a request was not honoured */
  char reason[256];          /* "default", "CRYPTO_FORCE=avx2", ... */
} crisp_env_choice;

/* Reads both variables and prints one line on stderr for each request that
 * cannot be honoured as written; a bad request falls back to a safe default. */
crisp_env_choice crisp_env_read(uint32_t cpu_features);

#endif
