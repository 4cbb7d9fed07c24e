/* test/tls_loopback.h - libssl over loopback TCP, shared by the provider's
 * TLS test programs and bench/provider_tls_bulk.c: contexts fixed to one
 * ChaCha20-Poly1305 suite, a listening socket, a server thread that sends
 * a chunk over and over, and reading the crisp provider's call counters. */
#ifndef CRISP_TEST_TLS_LOOPBACK_H
#define CRISP_TEST_TLS_LOOPBACK_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>

#include <openssl/provider.h>
#include <openssl/ssl.h>

/* The most plaintext one TLS record carries, and the server's write size. */
enum { TLS_LOOPBACK_CHUNK = 16384 };

/* Fixes `context` to TLS 1.3 with TLS_CHACHA20_POLY1305_SHA256 (tls13)
 * or TLS 1.2 with ECDHE-RSA-CHACHA20-POLY1305; 1 on success. */
int tls_loopback_configure(SSL_CTX *context, int tls13);

/* The cipher name tls_loopback_configure asks for. */
const char *tls_loopback_cipher(int tls13);

/* A server context on libctx with the PEM certificate and key, configured
 * as above; NULL on a failure (OpenSSL's error queue says why). */
SSL_CTX *tls_loopback_server_context(OSSL_LIB_CTX *libctx, int tls13, const char *cert, const char *key);

/* A socket listening on 127.0.0.1 at a free port, written to *address;
 * -1 on a failure. */
int tls_loopback_listen(struct sockaddr_in *address);

/* A socket connected to 127.0.0.1:port with send and receive timeouts of
 * timeout_seconds (0: none); -1 on a failure. */
int tls_loopback_connect(int port, int timeout_seconds);

/* A server thread: accepts one connection on `listener`, completes the
 * handshake on `context` and writes `bytes` bytes, chunk after chunk of
 * TLS_LOOPBACK_CHUNK bytes from `chunk`, then shuts the connection down. */
typedef struct tls_loopback_server {
  SSL_CTX *context;
  int listener;
  const unsigned char *chunk;
  long long bytes;
  int ok; /* after the join: the handshake and every write succeeded */
  pthread_t thread;
} tls_loopback_server;

/* Starts the thread; 1 on success. */
int tls_loopback_server_start(tls_loopback_server *server);

/* Waits for the thread; `abandon` first shuts the listener down, for a
 * client that never connected. Returns server->ok. */
int tls_loopback_server_join(tls_loopback_server *server, int abandon);

/* *value = the crisp provider's uint64 parameter `name` (a
 * "crisp.calls.*" counter); 0 when crisp is NULL or does not report it. */
int tls_loopback_counter(OSSL_PROVIDER *crisp, const char *name, uint64_t *value);

#endif
