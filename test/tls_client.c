/* test/tls_client.c - a TLS client on libssl whose library context loads
 * the crisp provider beside the default one and prefers it
 * ("?provider=crisp"), for test_provider_tls.py: it fetches one path from
 * an `openssl s_server -WWW`, writes the response body to a file, and
 * checks through the provider's "crisp.calls.chacha20-poly1305" counter
 * that crisp sealed and opened the records.
 * Usage: tls_client PROVIDER_DIR|- PORT tls1.2|tls1.3 PATH OUTPUT [PROPERTIES]
 * PROPERTIES replaces "?provider=crisp": "?provider=default" leaves crisp
 * loaded but unused, and PROVIDER_DIR "-" loads the default provider
 * alone; either run must fail (the test's proof that the check can fail).
 * Exit 0 when the transfer completed with ChaCha20-Poly1305 at the asked
 * version and the counter grew by at least one per record received. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

#include "tls_loopback.h"

enum { RECORD_MAX = TLS_LOOPBACK_CHUNK, TIMEOUT_SECONDS = 20 };

static int fail(const char *what) {
  fprintf(stderr, "tls_client: %s\n", what);
  ERR_print_errors_fp(stderr);
  return 0;
}

/* The counter of the crisp provider's ChaCha20-Poly1305 calls. */
static int read_counter(OSSL_PROVIDER *crisp, uint64_t *calls) {
  if (!crisp) return fail("the crisp provider is not loaded: its counter cannot be read");
  if (!tls_loopback_counter(crisp, "crisp.calls.chacha20-poly1305", calls))
    return fail("crisp.calls.chacha20-poly1305 not reported");
  return 1;
}

/* Writes what follows the response's header to `out`; returns the body's
 * length, or -1. */
static long long receive_body(SSL *ssl, FILE *out) {
  static char buffer[RECORD_MAX];
  static const char end_of_header[] = "\r\n\r\n";
  size_t matched = 0;
  int in_body = 0;
  long long body = 0;
  for (;;) {
    const int n = SSL_read(ssl, buffer, sizeof buffer);
    if (n <= 0) {
      const int error = SSL_get_error(ssl, n);
      if (error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)) break;
      fail("SSL_read");
      return -1;
    }
    int start = 0;
    for (; !in_body && start < n; start++) {
      const char c = buffer[start];
      matched = c == end_of_header[matched] ? matched + 1 : c == '\r';
      in_body = matched == sizeof end_of_header - 1;
    }
    if (in_body && n > start) {
      if (fwrite(buffer + start, 1, (size_t)(n - start), out) != (size_t)(n - start)) return -1;
      body += n - start;
    }
  }
  return in_body ? body : -1;
}

static int run(const char *provider_dir, int port, const char *version, const char *path, const char *output,
               const char *properties) {
  OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *crisp = NULL, *base = NULL;
  SSL_CTX *context = NULL;
  SSL *ssl = NULL;
  FILE *out = NULL;
  int fd = -1, ok = 0;
  uint64_t before = 0, after = 0;
  const int tls13 = strcmp(version, "tls1.3") == 0;
  if (!libctx) return fail("OSSL_LIB_CTX_new");
  if (strcmp(provider_dir, "-") != 0) {
    if (!OSSL_PROVIDER_set_default_search_path(libctx, provider_dir) ||
        !(crisp = OSSL_PROVIDER_load(libctx, "crisp")) || !EVP_set_default_properties(libctx, properties)) {
      fail("loading crisp");
      goto done;
    }
  }
  if (!(base = OSSL_PROVIDER_load(libctx, "default"))) {
    fail("loading the default provider");
    goto done;
  }
  if (!(context = SSL_CTX_new_ex(libctx, NULL, TLS_client_method()))) {
    fail("SSL_CTX_new_ex");
    goto done;
  }
  if (!tls_loopback_configure(context, tls13)) {
    fail("setting the version and cipher");
    goto done;
  }
  if (!(out = fopen(output, "wb"))) {
    fail("opening the output file");
    goto done;
  }
  if ((fd = tls_loopback_connect(port, TIMEOUT_SECONDS)) < 0) {
    fail("connecting");
    goto done;
  }
  if (!(ssl = SSL_new(context)) || !SSL_set_fd(ssl, fd)) {
    fail("SSL_new");
    goto done;
  }
  const int have_counter = read_counter(crisp, &before);
  if (SSL_connect(ssl) != 1) {
    fail("handshake");
    goto done;
  }
  char request[512];
  const int length = snprintf(request, sizeof request, "GET /%s HTTP/1.0\r\n\r\n", path);
  if (length <= 0 || (size_t)length >= sizeof request || SSL_write(ssl, request, length) != length) {
    fail("sending the request");
    goto done;
  }
  const long long body = receive_body(ssl, out);
  if (body < 0 || fclose(out) != 0) {
    out = NULL;
    fail("receiving the body");
    goto done;
  }
  out = NULL;
  const char *cipher = SSL_get_cipher_name(ssl);
  printf("%s %s, %lld bytes", SSL_get_version(ssl), cipher, body);
  if (strcmp(SSL_get_version(ssl), tls13 ? "TLSv1.3" : "TLSv1.2") != 0 ||
      strcmp(cipher, tls_loopback_cipher(tls13)) != 0) {
    printf("\n");
    fail("not the asked version and cipher");
    goto done;
  }
  if (!have_counter || !read_counter(crisp, &after)) {
    printf("\n");
    goto done;
  }
  /* Each record received was opened by one call at least (TLS 1.2's one
   * shot, TLS 1.3's update and final), and a record carries 16 KiB at most. */
  const uint64_t records = (uint64_t)body / RECORD_MAX;
  printf(", crisp.calls.chacha20-poly1305 %llu -> %llu (at least %llu records)\n", (unsigned long long)before,
         (unsigned long long)after, (unsigned long long)records);
  if (after - before < records || after == before) {
    fail("crisp's ChaCha20-Poly1305 did not open the records");
    goto done;
  }
  ok = 1;
done:
  if (ssl) SSL_free(ssl);
  if (fd >= 0) close(fd);
  if (out) fclose(out);
  SSL_CTX_free(context);
  OSSL_PROVIDER_unload(crisp);
  OSSL_PROVIDER_unload(base);
  OSSL_LIB_CTX_free(libctx);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 6 && argc != 7) {
    fprintf(stderr, "usage: tls_client PROVIDER_DIR|- PORT tls1.2|tls1.3 PATH OUTPUT [PROPERTIES]\n");
    return 2;
  }
  const int port = atoi(argv[2]);
  if (port <= 0 || port > 65535 || (strcmp(argv[3], "tls1.2") != 0 && strcmp(argv[3], "tls1.3") != 0)) {
    fprintf(stderr, "tls_client: bad port or version\n");
    return 2;
  }
  return run(argv[1], port, argv[3], argv[4], argv[5], argc == 7 ? argv[6] : "?provider=crisp") ? 0 : 1;
}
