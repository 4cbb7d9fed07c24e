/* src/dispatch/env.h - CRYPTO_FORCE, CRYPTO_OPTIONS and CRYPTO_IMPL, read once. */
#ifndef CRISP_SRC_DISPATCH_ENV_H
#define CRISP_SRC_DISPATCH_ENV_H

#include "impl.h"

typedef struct crisp_env_choice {
  crisp_level_id cap;                               /* the level cap to start with */
  uint32_t generic_kernels;                         /* bit k set: kernel k sent to generic */
  const crisp_impl_info *impls[CRISP_KERNEL_COUNT]; /* CRYPTO_IMPL's choice per kernel, or NULL */
  int status;                                       /* CRISP_OK, or why a request was not honoured */
  char reason[256];                                 /* "default", "CRYPTO_FORCE=avx2", ... */
} crisp_env_choice;

/* Reads the variables and prints one line on stderr for each request that
 * cannot be honoured as written; a bad request falls back to a safe default. */
crisp_env_choice crisp_env_read(uint32_t cpu_features);

#endif
