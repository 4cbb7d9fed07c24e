/* crisp/dispatch.h - which implementation runs each kernel, why, and how to change it. */
#ifndef CRISP_DISPATCH_H
#define CRISP_DISPATCH_H

#include <stddef.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stack: at most 2 KiB for each function here, crisp_strerror and
 * crisp_version. A process's first crisp call (of any function) also
 * probes the CPU and reads the environment (printing its stderr line for
 * a malformed variable), in at most 8 KiB, before its own work
 * (test/test_stack.c measures both). */
typedef enum crisp_kernel {
  CRISP_KERNEL_MD5,
  CRISP_KERNEL_MD5_MANY,
  CRISP_KERNEL_POLY1305,
  CRISP_KERNEL_BN_MUL,
  CRISP_KERNEL_BN_SQR,
  CRISP_KERNEL_BN_MUL_ADD,
  CRISP_KERNEL_BN_MONT_MUL,
  CRISP_KERNEL_BN_MONT_SQR,
  CRISP_KERNEL_BN_MOD_EXP2,
  CRISP_KERNEL_CHACHA20,
  CRISP_KERNEL_COUNT
} crisp_kernel;

/* "md5", "md5_many", "poly1305", "bn_mul", ...; NULL for an unknown kernel. */
CRISP_API const char *crisp_kernel_name(crisp_kernel kernel);

/* The implementation in use for a kernel, e.g. "generic", "x86_64-adx",
 * "avx512ifma": its level, then optionally '-' and a qualifier. NULL for an
 * unknown kernel. */
CRISP_API const char *crisp_impl_name(crisp_kernel kernel);

/* The level cap in force ("generic", "x86_64", "avx2", "avx512", "avx512ifma"
 * on x86-64; "generic", "arm64", "neon" on arm64). */
CRISP_API const char *crisp_level(void);

/* Space-separated names of the CPU features crisp uses that this CPU has. */
CRISP_API const char *crisp_cpu_features(void);

/* The CPU's brand string, or "unknown". */
CRISP_API const char *crisp_cpu_brand(void);

/* The microarchitecture crisp identified, then how in parentheses, e.g.
 * "zen5 (AuthenticAMD family 0x1a model 0x02)"; "unknown (...)" for a core
 * crisp does not identify, which then keeps feature order. Under
 * CRISP_CPU_UARCH=NAME (a name crisp knows; any other value is ignored):
 * "NAME (CRISP_CPU_UARCH; the CPU is AuthenticAMD family 0x1a model 0x02)". */
CRISP_API const char *crisp_cpu_uarch(void);

/* Why a kernel runs the implementation it does, one line: "crisp_use_impl()
 * pins it", "CRYPTO_IMPL=md5:avx512", "CRYPTO_OPTIONS=-UseMD5Intrinsics",
 * "table, icelake prefers avx512: EVIDENCE", "feature order: the first this CPU
 * runs at or below avx512ifma". NULL for an unknown kernel. */
CRISP_API const char *crisp_impl_reason(crisp_kernel kernel);

/* Space-separated level names of this architecture, lowest first. */
CRISP_API const char *crisp_levels(void);

/* Sets the level cap: CRISP_OK; CRISP_E_INVALID for an unknown name;
 * CRISP_E_UNSUPPORTED when this CPU lacks that level (nothing changes then).
 * NULL returns to the default (the CRYPTO_FORCE cap if it was honoured, else
 * the best level). CRYPTO_OPTIONS switches stay in force. Contexts already
 * initialised keep their implementation. */
CRISP_API int crisp_force(const char *level);

/* Why the current selection is what it is, one line, e.g. "default",
 * "CRYPTO_FORCE=avx2", "CRYPTO_FORCE=avx512, but this CPU lacks avx512f",
 * "default: CRYPTO_FORCE=avx3 is not a level", "crisp_force(generic)". */
CRISP_API const char *crisp_dispatch_reason(void);

/* CRISP_OK when every CRYPTO_FORCE / CRYPTO_OPTIONS / CRYPTO_IMPL request
 * was honoured as written; CRISP_E_INVALID (unknown name or switch) or
 * CRISP_E_UNSUPPORTED (a level or implementation this CPU lacks) when a safe
 * default was used instead. With both kinds, CRISP_E_INVALID, in any order
 * within a variable or across them. */
CRISP_API int crisp_env_status(void);

/* Introspection, best implementation first. crisp_impl_count() counts every
 * implementation built in for a kernel (0 for an unknown kernel);
 * crisp_impl_name_at() names entry i (NULL past the end or for an unknown
 * kernel); crisp_impl_supported_at() is 1 when this CPU can run
 * entry i, else 0. */
CRISP_API size_t crisp_impl_count(crisp_kernel kernel);
CRISP_API const char *crisp_impl_name_at(crisp_kernel kernel, size_t i);
CRISP_API int crisp_impl_supported_at(crisp_kernel kernel, size_t i);

/* Pins one kernel to a named implementation, regardless of the level cap:
 * CRISP_OK; CRISP_E_INVALID for an unknown kernel or name; CRISP_E_UNSUPPORTED
 * when this CPU cannot run it (nothing changes then). NULL unpins. Meant for
 * tests and benchmarks that compare implementations. */
CRISP_API int crisp_use_impl(crisp_kernel kernel, const char *name);

#ifdef __cplusplus
}
#endif

#endif
