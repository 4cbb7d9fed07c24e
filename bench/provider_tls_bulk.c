/* bench/provider_tls_bulk.c - TLS bulk throughput over loopback TCP with
 * the crisp provider preferred against the default provider alone: a
 * server thread and a client thread in one process, both on libssl with
 * one library context, the server sending MiB of data in 16 KiB writes,
 * the client reading it all. TLS 1.3 TLS_CHACHA20_POLY1305_SHA256 and
 * TLS 1.2 ECDHE-RSA-CHACHA20-POLY1305; the two contexts measured in turn,
 * best of the rounds, by the wall clock and by the process's CPU time (user
 * and system, both threads: what a shared machine's other load does not
 * change). Unlike openssl s_server -WWW (whose own file and
 * socket handling bounds a transfer well below the cipher), the time here
 * is the record layer's: sealing, opening and the socket.
 * Usage: provider_tls_bulk PROVIDER_DIR CERT KEY [MIB [ROUNDS]] */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

enum { CHUNK = 16384 };

typedef struct transfer {
  SSL_CTX *server_context;
  int listener;
  long long bytes;
  int ok;
} transfer;

static double seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *serve(void *argument) {
  transfer *t = argument;
  static unsigned char data[CHUNK];
  const int fd = accept(t->listener, NULL, NULL);
  SSL *ssl = fd >= 0 ? SSL_new(t->server_context) : NULL;
  t->ok = ssl && SSL_set_fd(ssl, fd) && SSL_accept(ssl) == 1;
  for (long long sent = 0; t->ok && sent < t->bytes; sent += CHUNK)
    t->ok = SSL_write(ssl, data, CHUNK) == CHUNK;
  if (ssl) SSL_shutdown(ssl), SSL_free(ssl);
  if (fd >= 0) close(fd);
  return NULL;
}

/* MB/s of one transfer on `libctx` by the wall clock, or 0 on a failure;
 * *per_cpu: MB per CPU second. */
static double one_transfer(OSSL_LIB_CTX *libctx, int tls13, const char *cert, const char *key,
                           long long bytes, double *per_cpu) {
  SSL_CTX *server = SSL_CTX_new_ex(libctx, NULL, TLS_server_method());
  SSL_CTX *client = SSL_CTX_new_ex(libctx, NULL, TLS_client_method());
  const int version = tls13 ? TLS1_3_VERSION : TLS1_2_VERSION;
  double rate = 0;
  SSL *ssl = NULL;
  int fd = -1, listener = -1, joined = 1;
  pthread_t thread;
  transfer t = {server, -1, bytes, 0};
  if (!server || !client || SSL_CTX_use_certificate_file(server, cert, SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_use_PrivateKey_file(server, key, SSL_FILETYPE_PEM) != 1)
    goto done;
  for (SSL_CTX **c = (SSL_CTX *[]){server, client, NULL}; *c; c++)
    if (!SSL_CTX_set_min_proto_version(*c, version) || !SSL_CTX_set_max_proto_version(*c, version) ||
        !(tls13 ? SSL_CTX_set_ciphersuites(*c, "TLS_CHACHA20_POLY1305_SHA256")
                : SSL_CTX_set_cipher_list(*c, "ECDHE-RSA-CHACHA20-POLY1305")))
      goto done;
  struct sockaddr_in address = {.sin_family = AF_INET};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if ((listener = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
      bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0 ||
      getsockname(listener, (struct sockaddr *)&address, &length) != 0)
    goto done;
  t.listener = listener;
  if (pthread_create(&thread, NULL, serve, &t) != 0) goto done;
  joined = 0;
  if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0 || connect(fd, (struct sockaddr *)&address, length) != 0 ||
      !(ssl = SSL_new(client)) || !SSL_set_fd(ssl, fd) || SSL_connect(ssl) != 1)
    goto done;
  static unsigned char buffer[CHUNK];
  long long received = 0;
  const double start = seconds(CLOCK_MONOTONIC), cpu_start = seconds(CLOCK_PROCESS_CPUTIME_ID);
  for (int n; received < bytes && (n = SSL_read(ssl, buffer, sizeof buffer)) > 0;) received += n;
  const double elapsed = seconds(CLOCK_MONOTONIC) - start,
               cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
  if (received == bytes) rate = (double)bytes / elapsed / 1e6, *per_cpu = (double)bytes / cpu / 1e6;
done:
  if (ssl) SSL_free(ssl);
  if (fd >= 0) close(fd);
  if (!joined) {
    if (rate == 0) shutdown(listener, SHUT_RDWR);
    pthread_join(thread, NULL);
    if (!t.ok) rate = 0;
  }
  if (listener >= 0) close(listener);
  SSL_CTX_free(server);
  SSL_CTX_free(client);
  if (rate == 0) ERR_print_errors_fp(stderr);
  return rate;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 6) {
    fprintf(stderr, "usage: provider_tls_bulk PROVIDER_DIR CERT KEY [MIB [ROUNDS]]\n");
    return 2;
  }
  const long long bytes = (argc > 4 ? atoll(argv[4]) : 256) << 20;
  const int rounds = argc > 5 ? atoi(argv[5]) : 3;
  OSSL_LIB_CTX *plain = OSSL_LIB_CTX_new(), *preferred = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *crisp = NULL;
  if (!plain || !preferred || !OSSL_PROVIDER_load(plain, "default") ||
      !OSSL_PROVIDER_set_default_search_path(preferred, argv[1]) ||
      !(crisp = OSSL_PROVIDER_load(preferred, "crisp")) || !OSSL_PROVIDER_load(preferred, "default") ||
      !EVP_set_default_properties(preferred, "?provider=crisp") || bytes <= 0 || rounds < 1) {
    ERR_print_errors_fp(stderr);
    fprintf(stderr, "provider_tls_bulk: cannot set up the library contexts\n");
    return 1;
  }
  printf("%lld MiB per transfer, best of %d interleaved\n%-8s %12s %11s %6s %16s %15s %6s\n", bytes >> 20,
         rounds, "version", "default MB/s", "crisp MB/s", "ratio", "default MB/cpu-s", "crisp MB/cpu-s",
         "ratio");
  for (int tls13 = 1; tls13 >= 0; tls13--) {
    double best_plain = 0, best_crisp = 0, cpu_plain = 0, cpu_crisp = 0;
    for (int round = 0; round < rounds; round++) {
      double p_cpu = 0, c_cpu = 0;
      const double p = one_transfer(plain, tls13, argv[2], argv[3], bytes, &p_cpu);
      const double c = one_transfer(preferred, tls13, argv[2], argv[3], bytes, &c_cpu);
      if (p == 0 || c == 0) {
        fprintf(stderr, "provider_tls_bulk: a transfer failed\n");
        return 1;
      }
      best_plain = p > best_plain ? p : best_plain;
      best_crisp = c > best_crisp ? c : best_crisp;
      cpu_plain = p_cpu > cpu_plain ? p_cpu : cpu_plain;
      cpu_crisp = c_cpu > cpu_crisp ? c_cpu : cpu_crisp;
    }
    printf("%-8s %12.0f %11.0f %5.2fx %16.0f %15.0f %5.2fx\n", tls13 ? "TLS 1.3" : "TLS 1.2", best_plain,
           best_crisp, best_crisp / best_plain, cpu_plain, cpu_crisp, cpu_crisp / cpu_plain);
    fflush(stdout);
  }
  uint64_t calls = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_uint64("crisp.calls.chacha20-poly1305", &calls), OSSL_PARAM_END};
  if (!OSSL_PROVIDER_get_params(crisp, params) || calls < (uint64_t)(bytes / CHUNK)) {
    fprintf(stderr, "provider_tls_bulk: crisp's ChaCha20-Poly1305 counter did not move\n");
    return 1;
  }
  OSSL_LIB_CTX_free(plain);
  OSSL_LIB_CTX_free(preferred);
  return 0;
}
