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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

#include "tls_loopback.h"

enum { CHUNK = TLS_LOOPBACK_CHUNK };

static double seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* MB/s of one transfer on `libctx` by the wall clock, or 0 on a failure;
 * *per_cpu: MB per CPU second. */
static double one_transfer(OSSL_LIB_CTX *libctx, int tls13, const char *cert, const char *key,
                           long long bytes, double *per_cpu) {
  static const unsigned char zeros[CHUNK];
  SSL_CTX *client = SSL_CTX_new_ex(libctx, NULL, TLS_client_method());
  tls_loopback_server server = {.context = tls_loopback_server_context(libctx, tls13, cert, key),
                                .listener = -1,
                                .chunk = zeros,
                                .bytes = bytes};
  double rate = 0;
  SSL *ssl = NULL;
  int fd = -1, started = 0;
  struct sockaddr_in address;
  if (!server.context || !client || !tls_loopback_configure(client, tls13) ||
      (server.listener = tls_loopback_listen(&address)) < 0 ||
      !(started = tls_loopback_server_start(&server)))
    goto done;
  if ((fd = tls_loopback_connect(ntohs(address.sin_port), 0)) < 0 || !(ssl = SSL_new(client)) ||
      !SSL_set_fd(ssl, fd) || SSL_connect(ssl) != 1)
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
  if (started && !tls_loopback_server_join(&server, rate == 0)) rate = 0;
  if (server.listener >= 0) close(server.listener);
  SSL_CTX_free(server.context);
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
  if (!tls_loopback_counter(crisp, "crisp.calls.chacha20-poly1305", &calls) ||
      calls < (uint64_t)(bytes / CHUNK)) {
    fprintf(stderr, "provider_tls_bulk: crisp's ChaCha20-Poly1305 counter did not move\n");
    return 1;
  }
  OSSL_LIB_CTX_free(plain);
  OSSL_LIB_CTX_free(preferred);
  return 0;
}
