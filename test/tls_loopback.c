/* test/tls_loopback.c - libssl over loopback TCP for the provider's TLS
 * tests and bench (see tls_loopback.h). */
#include "tls_loopback.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/params.h>

const char *tls_loopback_cipher(int tls13) {
  return tls13 ? "TLS_CHACHA20_POLY1305_SHA256" : "ECDHE-RSA-CHACHA20-POLY1305";
}

int tls_loopback_configure(SSL_CTX *context, int tls13) {
  const int version = tls13 ? TLS1_3_VERSION : TLS1_2_VERSION;
  return SSL_CTX_set_min_proto_version(context, version) && SSL_CTX_set_max_proto_version(context, version) &&
         (tls13 ? SSL_CTX_set_ciphersuites(context, tls_loopback_cipher(1))
                : SSL_CTX_set_cipher_list(context, tls_loopback_cipher(0)));
}

SSL_CTX *tls_loopback_server_context(OSSL_LIB_CTX *libctx, int tls13, const char *cert, const char *key) {
  SSL_CTX *context = SSL_CTX_new_ex(libctx, NULL, TLS_server_method());
  if (context && SSL_CTX_use_certificate_file(context, cert, SSL_FILETYPE_PEM) == 1 &&
      SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 &&
      tls_loopback_configure(context, tls13))
    return context;
  SSL_CTX_free(context);
  return NULL;
}

int tls_loopback_listen(struct sockaddr_in *address) {
  memset(address, 0, sizeof *address);
  address->sin_family = AF_INET;
  address->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof *address;
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  if (listener < 0) return -1;
  if (bind(listener, (struct sockaddr *)address, sizeof *address) != 0 || listen(listener, 1) != 0 ||
      getsockname(listener, (struct sockaddr *)address, &length) != 0) {
    close(listener);
    return -1;
  }
  return listener;
}

int tls_loopback_connect(int port, int timeout_seconds) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  const struct timeval timeout = {timeout_seconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static void *serve(void *argument) {
  tls_loopback_server *server = argument;
  const int fd = accept(server->listener, NULL, NULL);
  SSL *ssl = fd >= 0 ? SSL_new(server->context) : NULL;
  server->ok = ssl && SSL_set_fd(ssl, fd) && SSL_accept(ssl) == 1;
  for (long long sent = 0; server->ok && sent < server->bytes; sent += TLS_LOOPBACK_CHUNK)
    server->ok = SSL_write(ssl, server->chunk, TLS_LOOPBACK_CHUNK) == TLS_LOOPBACK_CHUNK;
  if (ssl) {
    SSL_shutdown(ssl);
    SSL_free(ssl);
  }
  if (fd >= 0) close(fd);
  return NULL;
}

int tls_loopback_server_start(tls_loopback_server *server) {
  server->ok = 0;
  return pthread_create(&server->thread, NULL, serve, server) == 0;
}

int tls_loopback_server_join(tls_loopback_server *server, int abandon) {
  if (abandon) shutdown(server->listener, SHUT_RDWR);
  pthread_join(server->thread, NULL);
  return server->ok;
}

int tls_loopback_counter(OSSL_PROVIDER *crisp, const char *name, uint64_t *value) {
  OSSL_PARAM params[] = {OSSL_PARAM_uint64(name, value), OSSL_PARAM_END};
  return crisp && OSSL_PROVIDER_get_params(crisp, params) && OSSL_PARAM_modified(params);
}
