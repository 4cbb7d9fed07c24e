/* bench/peer_library.c - opens the peer libcrypto files named by --peer-lib
 * NAME=PATH and CRISP_BENCH_PEER_LIBS, looks up the calls their rows need in
 * each one's own symbol table, and reads the version each reports. Peers
 * export the same names as the OpenSSL crisp-bench links (and each other):
 * RTLD_LOCAL keeps a peer's names out of the global scope, RTLD_DEEPBIND
 * makes the peer's calls into itself bind to itself, and dlsym on the
 * handle finds the peer's own functions. */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/cli.h"
#include "peer_library.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CRISP_BENCH_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CRISP_BENCH_SANITIZED 1
#endif

/* The sanitizers' runtimes refuse RTLD_DEEPBIND (it would bypass their
 * interceptors), and outside glibc there is none: then a peer's calls into
 * itself may bind to a library loaded earlier under the same names. */
#if defined(CRISP_BENCH_SANITIZED) || !defined(RTLD_DEEPBIND)
#define PEER_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#else
#define PEER_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#endif

#define MAX_PEER_LIBRARIES 4
#define ENVIRONMENT_VARIABLE "CRISP_BENCH_PEER_LIBS"

static peer_library libraries[MAX_PEER_LIBRARIES];
static size_t library_count;

struct symbol {
  const char *name;
  size_t offset;
};

#define SYMBOL(field) \
  { #field, offsetof(peer_library, field) }
static const struct symbol symbols[] = {
    SYMBOL(OpenSSL_version),
    SYMBOL(awslc_version_string),
    SYMBOL(MD5),
    SYMBOL(EVP_aead_chacha20_poly1305),
    SYMBOL(EVP_AEAD_CTX_new),
    SYMBOL(EVP_AEAD_CTX_free),
    SYMBOL(EVP_AEAD_CTX_seal),
    SYMBOL(EVP_AEAD_CTX_open),
    SYMBOL(EVP_chacha20_poly1305),
    SYMBOL(EVP_CIPHER_CTX_new),
    SYMBOL(EVP_CIPHER_CTX_free),
    SYMBOL(EVP_CipherInit_ex),
    SYMBOL(EVP_CipherUpdate),
    SYMBOL(EVP_CipherFinal_ex),
    SYMBOL(EVP_CIPHER_CTX_ctrl),
    SYMBOL(BN_bin2bn),
    SYMBOL(BN_free),
    SYMBOL(RSA_new),
    SYMBOL(RSA_free),
    SYMBOL(RSA_set0_key),
    SYMBOL(RSA_set0_factors),
    SYMBOL(RSA_set0_crt_params),
    SYMBOL(EVP_PKEY_new),
    SYMBOL(EVP_PKEY_assign),
    SYMBOL(EVP_PKEY_free),
    SYMBOL(EVP_PKEY_CTX_new),
    SYMBOL(EVP_PKEY_CTX_free),
    SYMBOL(EVP_PKEY_decrypt_init),
    SYMBOL(EVP_PKEY_CTX_set_rsa_padding),
    SYMBOL(EVP_PKEY_decrypt),
};
#undef SYMBOL

/* "AWS-LC 5.5.0" from AWS-LC; from OpenSSL the first two words of
 * OpenSSL_version(OPENSSL_VERSION), "OpenSSL 4.1.0-dev", without the date. */
static void read_version(peer_library *library) {
  const char *text = library->awslc_version_string ? library->awslc_version_string()
                     : library->OpenSSL_version    ? library->OpenSSL_version(0)
                                                   : library->name;
  snprintf(library->version, sizeof library->version, "%s", text);
  snprintf(library->full_version, sizeof library->full_version, "%s", text);
  for (size_t end = strlen(library->full_version); end > 0 && library->full_version[end - 1] == ' ';)
    library->full_version[--end] = '\0';
  char *space = strchr(library->version, ' ');
  if (!library->awslc_version_string && space && (space = strchr(space + 1, ' '))) *space = '\0';
}

static void load(const char *spec, size_t name_length) {
  const char *path = spec + name_length + 1;
  if (library_count == MAX_PEER_LIBRARIES) {
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)name_length, spec);
    fprintf(stderr, "crisp bench: peer library %s not loaded: at most %d peer libraries\n",
            cli_quote_argument(name), MAX_PEER_LIBRARIES);
    return;
  }
  peer_library *library = &libraries[library_count];
  memset(library, 0, sizeof *library);
  snprintf(library->name, sizeof library->name, "%.*s", (int)name_length, spec);
  snprintf(library->path, sizeof library->path, "%s", path);
  library->handle = dlopen(path, PEER_DLOPEN_FLAGS);
  if (!library->handle) {
    fprintf(stderr, "crisp bench: peer library %s not loaded, no rows: %s\n",
            cli_quote_argument(library->name), cli_quote_argument(dlerror()));
    return;
  }
  for (size_t s = 0; s < sizeof symbols / sizeof symbols[0]; s++) {
    void *address = dlsym(library->handle, symbols[s].name);
    /* POSIX lets a data pointer from dlsym hold a function's address. */
    memcpy((char *)library + symbols[s].offset, &address, sizeof address);
  }
  read_version(library);
  library_count++;
}

/* One NAME=PATH entry of length length; anything else is reported. */
static void load_entry(const char *entry, size_t length) {
  char spec[4096];
  const char *equals = memchr(entry, '=', length);
  if (!equals || equals == entry || equals + 1 == entry + length || length >= sizeof spec) {
    char shown[4096];
    snprintf(shown, sizeof shown, "%.*s", (int)length, entry);
    fprintf(stderr, "crisp bench: peer library %s not loaded: NAME=PATH expected\n",
            cli_quote_argument(shown));
    return;
  }
  memcpy(spec, entry, length), spec[length] = '\0';
  load(spec, (size_t)(equals - entry));
}

void bench_peer_libraries_load(const char *const *specs, size_t count) {
  for (size_t i = 0; i < count; i++) load_entry(specs[i], strlen(specs[i]));
  const char *list = getenv(ENVIRONMENT_VARIABLE);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ':');
    const size_t length = end ? (size_t)(end - p) : strlen(p);
    if (length) load_entry(p, length);
    p += length + (end != NULL);
  }
}

size_t bench_peer_library_count(void) {
  return library_count;
}

const peer_library *bench_peer_library_at(size_t i) {
  return i < library_count ? &libraries[i] : NULL;
}
