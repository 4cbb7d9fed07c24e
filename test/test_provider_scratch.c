/* test/test_provider_scratch.c - the kernels linked into crisp.so wipe the
 * heap scratch they allocate. crisp's bignum code takes its scratch from
 * the C library (not OpenSSL's allocator, which test_provider_wipe.c
 * watches), so this program defines malloc, calloc, the aligned
 * allocations, realloc and free: crisp.so's calls reach them, each block
 * allocated from crisp.so's code is remembered, and one that is not all
 * zeros when freed fails. realloc from crisp.so fails at once: the block it
 * moves away from is freed where no wipe can reach it. RSA signatures through the provider run the
 * kernels that allocate: on the CRT path the key prepared at import
 * (crisp_bn_crt_key_new, whose block lives as long as the key) and
 * crisp_bn_crt_key_exp, and crisp_bn_mod_exp on the d path (a key without
 * its CRT components), at the implementation CRYPTO_FORCE selects. Each
 * path must check at least one block, and no block of crisp.so's may be
 * left allocated once the key is freed. Not built with sanitizers (they define malloc too); skipped
 * (77) where malloc is not this program's, as under valgrind.
 * Usage: test_provider_scratch PROVIDER_DIR */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "provider_test_key.h"

/* ---- the allocator -------------------------------------------------------- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);

enum { MAX_BLOCKS = 64 };

/* crisp.so's code, once it is loaded; empty before. */
static uintptr_t crisp_code_start, crisp_code_end, crisp_base;
static struct {
  void *pointer;
  size_t size;
  uintptr_t caller;
} blocks[MAX_BLOCKS];
static int block_count;
static unsigned checked, unwiped, untracked, reallocated;
static int malloc_is_ours;

static int from_crisp(uintptr_t caller) {
  return caller >= crisp_code_start && caller < crisp_code_end;
}

/* Remembers a block crisp.so's code allocated; returns it. */
static void *remember(void *pointer, size_t size, uintptr_t caller) {
  if (pointer && from_crisp(caller)) {
    if (block_count < MAX_BLOCKS) {
      blocks[block_count].pointer = pointer;
      blocks[block_count].size = size;
      blocks[block_count++].caller = caller;
    } else {
      untracked++;
    }
  }
  return pointer;
}

#define CALLER ((uintptr_t)__builtin_return_address(0))

void *malloc(size_t size) {
  malloc_is_ours = 1;
  return remember(__libc_malloc(size), size, CALLER);
}

void *calloc(size_t count, size_t size) {
  /* __libc_calloc refuses a product that overflows */
  return remember(__libc_calloc(count, size), count * size, CALLER);
}

void *aligned_alloc(size_t alignment, size_t size) {
  return remember(__libc_memalign(alignment, size), size, CALLER);
}

void *memalign(size_t alignment, size_t size) {
  return remember(__libc_memalign(alignment, size), size, CALLER);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1))) return 22; /* EINVAL */
  void *pointer = remember(__libc_memalign(alignment, size), size, CALLER);
  if (!pointer) return 12; /* ENOMEM */
  *out = pointer;
  return 0;
}

void *realloc(void *pointer, size_t size) {
  if (from_crisp(CALLER)) {
    reallocated++;
    printf("FAIL: crisp.so called realloc at crisp.so+0x%lx: the block it leaves is freed unwiped\n",
           (unsigned long)(CALLER - crisp_base));
  }
  return __libc_realloc(pointer, size);
}

void free(void *pointer) {
  for (int i = 0; pointer && i < block_count; i++) {
    if (blocks[i].pointer != pointer) continue;
    const size_t size = blocks[i].size;
    const uintptr_t caller = blocks[i].caller;
    blocks[i] = blocks[--block_count];
    const unsigned char *bytes = pointer;
    size_t offset = 0;
    while (offset < size && bytes[offset] == 0) offset++;
    checked++;
    if (offset < size) {
      unwiped++;
      /* the offset is for addr2line -f -e crisp.so */
      printf(
          "FAIL: a %zu-byte block crisp.so allocated at crisp.so+0x%lx freed without a wipe (byte %zu is "
          "0x%02x)\n",
          size, (unsigned long)(caller - crisp_base), offset, bytes[offset]);
    }
    break;
  }
  __libc_free(pointer);
}

/* Finds crisp.so's executable segment among the loaded objects. */
static int find_crisp_code(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
  if (!name || strcmp(name, "/crisp.so") != 0) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    crisp_base = info->dlpi_addr;
    crisp_code_start = info->dlpi_addr + segment->p_vaddr;
    crisp_code_end = crisp_code_start + segment->p_memsz;
    return 1;
  }
  return 0;
}

/* ---- signing ---------------------------------------------------------------- */

static OSSL_LIB_CTX *libctx;
static int failures;

static void fail(const char *what) {
  printf("FAIL: %s\n", what);
  ERR_print_errors_fp(stdout);
  failures++;
}

/* One of the test keys (provider_test_key.h), or a key of its n, e and d
 * only made from it. */
static EVP_PKEY *load_key(const char *pem, int d_only) {
  BIO *bio = BIO_new_mem_buf(pem, -1);
  EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, libctx, "provider=default") : NULL;
  BIO_free(bio);
  if (!key || !d_only) return key;
  static const char *const names[] = {OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D};
  BIGNUM *parts[3] = {NULL};
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  int ok = builder != NULL;
  for (int i = 0; i < 3; i++)
    ok = ok && EVP_PKEY_get_bn_param(key, names[i], &parts[i]) &&
         OSSL_PARAM_BLD_push_BN(builder, names[i], parts[i]);
  OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(builder) : NULL;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(libctx, "RSA", "provider=default");
  EVP_PKEY *d_key = NULL;
  if (!params || !context || EVP_PKEY_fromdata_init(context) <= 0 ||
      EVP_PKEY_fromdata(context, &d_key, EVP_PKEY_KEYPAIR, params) <= 0)
    d_key = NULL;
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  for (int i = 0; i < 3; i++) BN_clear_free(parts[i]);
  EVP_PKEY_free(key);
  return d_key;
}

/* Signs with crisp (the key is exported to crisp's key manager) and
 * reports the kernel blocks the signature checked. */
static void sign_with(const char *path, const char *pem, int d_only) {
  unsigned char hash[32] = {1, 2, 3}, signature[512];
  size_t length = sizeof signature;
  EVP_PKEY *key = load_key(pem, d_only);
  EVP_PKEY_CTX *context = key ? EVP_PKEY_CTX_new_from_pkey(libctx, key, "provider=crisp") : NULL;
  const unsigned checked_before = checked, unwiped_before = unwiped;
  const int live_before = block_count;
  if (!context || EVP_PKEY_sign_init(context) <= 0 ||
      EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) <= 0 ||
      EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) <= 0 ||
      EVP_PKEY_sign(context, signature, &length, hash, sizeof hash) <= 0)
    fail(path);
  EVP_PKEY_CTX_free(context);
  EVP_PKEY_free(key);
  if (block_count != live_before) {
    printf("FAIL %s: %d blocks of crisp.so's left allocated after the key was freed\n", path,
           block_count - live_before);
    failures++;
  }
  const unsigned path_checked = checked - checked_before, path_unwiped = unwiped - unwiped_before;
  if (path_checked == 0) {
    printf("FAIL %s: no block of crisp.so's kernels was checked at free\n", path);
    failures++;
  }
  failures += (int)path_unwiped;
  printf("%s %s: %u kernel scratch blocks checked at free, %u not wiped\n",
         path_checked && !path_unwiped ? "ok" : "FAIL", path, path_checked, path_unwiped);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PROVIDER_DIR\n", argv[0]);
    return 2;
  }
  void *(*volatile allocate)(size_t) = malloc;
  __libc_free(allocate(16));
  if (!malloc_is_ours) {
    printf("SKIP: malloc here is not this program's (valgrind?): crisp.so's scratch cannot be watched\n");
    return 77;
  }
  libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *default_provider = libctx ? OSSL_PROVIDER_load(libctx, "default") : NULL;
  OSSL_PROVIDER *crisp_provider = NULL;
  if (!default_provider || !OSSL_PROVIDER_set_default_search_path(libctx, argv[1]) ||
      !(crisp_provider = OSSL_PROVIDER_load(libctx, "crisp"))) {
    ERR_print_errors_fp(stdout);
    printf("FAIL: cannot load the providers from %s\n", argv[1]);
    return 1;
  }
  if (!dl_iterate_phdr(find_crisp_code, NULL)) {
    printf("FAIL: crisp.so's code not found among the loaded objects\n");
    return 1;
  }
  /* The 1024-bit key's halves are 8 limbs; the 2048-bit key's 16 reach the
   * IFMA pair exponentiation. */
  sign_with("CRT path (a prepared key)", provider_test_key_pem, 0);
  sign_with("d path (crisp_bn_mod_exp)", provider_test_key_pem, 1);
  sign_with("CRT path, 2048-bit key", provider_test_key_2048_pem, 0);
  sign_with("d path, 2048-bit key", provider_test_key_2048_pem, 1);
  failures += (int)reallocated;
  if (untracked) {
    printf("FAIL: %u blocks of crisp.so's beyond the %d this test can follow\n", untracked, MAX_BLOCKS);
    failures++;
  }
  OSSL_PROVIDER_unload(crisp_provider);
  OSSL_PROVIDER_unload(default_provider);
  OSSL_LIB_CTX_free(libctx);
  printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
