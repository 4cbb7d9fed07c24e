/* test/tls_server_check.c - the server side of the provider's TLS proof,
 * for test_provider_tls.py: a libssl server thread and a libssl client in
 * one process, each on a library context of its own with the crisp
 * provider loaded beside the default one (so each side has its own crisp
 * instance and counters). The server sends 1 MiB over TLS 1.3
 * TLS_CHACHA20_POLY1305_SHA256 or TLS 1.2 ECDHE-RSA-CHACHA20-POLY1305 with
 * an RSA certificate; the client compares every byte. The server's
 * counters prove crisp sealed its records ("crisp.calls.chacha20-poly1305"
 * at least once per record) and made the handshake's one RSA signature
 * (TLS 1.3 CertificateVerify, TLS 1.2 ServerKeyExchange:
 * "crisp.calls.rsa-sign" up by exactly one); the client's prove crisp
 * opened the records and verified that signature.
 * Usage: tls_server_check PROVIDER_DIR|- tls1.2|tls1.3 CERT KEY [PROPERTIES]
 * PROPERTIES replaces the server's "?provider=crisp": "?provider=default"
 * leaves crisp loaded but unused, and PROVIDER_DIR "-" loads the default
 * provider alone on both sides; either run must fail (the proof can fail).
 * Exit 0 when the transfer completed and every counter check held. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "tls_loopback.h"

enum { TRANSFER_BYTES = 1 << 20, RECORDS = TRANSFER_BYTES / TLS_LOOPBACK_CHUNK, TIMEOUT_SECONDS = 30 };

/* One side's library context and its crisp provider (NULL without). */
typedef struct side {
  OSSL_LIB_CTX *libctx;
  OSSL_PROVIDER *crisp, *base;
  uint64_t records_before, records_after, rsa_before, rsa_after;
} side;

static int fail(const char *what) {
  fprintf(stderr, "tls_server_check: %s\n", what);
  ERR_print_errors_fp(stderr);
  return 0;
}

static int load(side *s, const char *provider_dir, const char *properties) {
  if (!(s->libctx = OSSL_LIB_CTX_new())) return fail("OSSL_LIB_CTX_new");
  if (strcmp(provider_dir, "-") != 0 && (!OSSL_PROVIDER_set_default_search_path(s->libctx, provider_dir) ||
                                         !(s->crisp = OSSL_PROVIDER_load(s->libctx, "crisp")) ||
                                         !EVP_set_default_properties(s->libctx, properties)))
    return fail("loading crisp");
  if (!(s->base = OSSL_PROVIDER_load(s->libctx, "default"))) return fail("loading the default provider");
  return 1;
}

static void unload(side *s) {
  OSSL_PROVIDER_unload(s->crisp);
  OSSL_PROVIDER_unload(s->base);
  OSSL_LIB_CTX_free(s->libctx);
}

/* Reads the side's record counter and its RSA counter (`rsa`: sign or
 * verify) into the before or after fields; 0 when crisp cannot tell. */
static int read_counters(side *s, const char *rsa, int after) {
  return tls_loopback_counter(s->crisp, "crisp.calls.chacha20-poly1305",
                              after ? &s->records_after : &s->records_before) &&
         tls_loopback_counter(s->crisp, rsa, after ? &s->rsa_after : &s->rsa_before);
}

/* Reads TRANSFER_BYTES from ssl, each byte compared with the server's
 * repeated chunk; 1 when all arrived and matched. */
static int receive(SSL *ssl, const unsigned char *chunk) {
  static unsigned char buffer[TLS_LOOPBACK_CHUNK];
  long long received = 0;
  for (int n; received < TRANSFER_BYTES && (n = SSL_read(ssl, buffer, sizeof buffer)) > 0; received += n)
    for (int i = 0; i < n; i++)
      if (buffer[i] != chunk[(received + i) % TLS_LOOPBACK_CHUNK]) return fail("a received byte differs");
  if (received != TRANSFER_BYTES) return fail("the transfer ended early");
  return 1;
}

/* The handshake and transfer; 1 when they succeeded at the asked version
 * and cipher. */
static int transfer(side *server_side, side *client_side, int tls13, const char *cert, const char *key) {
  unsigned char chunk[TLS_LOOPBACK_CHUNK];
  tls_loopback_server server = {.listener = -1, .chunk = chunk, .bytes = TRANSFER_BYTES};
  SSL_CTX *client = NULL;
  SSL *ssl = NULL;
  int fd = -1, started = 0, ok = 0;
  struct sockaddr_in address;
  if (RAND_bytes(chunk, sizeof chunk) != 1) return fail("RAND_bytes");
  if (!(server.context = tls_loopback_server_context(server_side->libctx, tls13, cert, key)) ||
      !(client = SSL_CTX_new_ex(client_side->libctx, NULL, TLS_client_method())) ||
      !tls_loopback_configure(client, tls13)) {
    fail("setting up the server and client contexts");
    goto done;
  }
  if ((server.listener = tls_loopback_listen(&address)) < 0 ||
      !(started = tls_loopback_server_start(&server))) {
    fail("starting the server");
    goto done;
  }
  if ((fd = tls_loopback_connect(ntohs(address.sin_port), TIMEOUT_SECONDS)) < 0 || !(ssl = SSL_new(client)) ||
      !SSL_set_fd(ssl, fd) || SSL_connect(ssl) != 1) {
    fail("handshake");
    goto done;
  }
  int signature_nid = NID_undef;
  SSL_get_peer_signature_type_nid(ssl, &signature_nid);
  printf("%s %s, server signature %s, ", SSL_get_version(ssl), SSL_get_cipher_name(ssl),
         OBJ_nid2sn(signature_nid));
  if (!receive(ssl, chunk)) goto done;
  printf("%d bytes equal\n", TRANSFER_BYTES);
  if (strcmp(SSL_get_version(ssl), tls13 ? "TLSv1.3" : "TLSv1.2") != 0 ||
      strcmp(SSL_get_cipher_name(ssl), tls_loopback_cipher(tls13)) != 0) {
    fail("not the asked version and cipher");
    goto done;
  }
  ok = 1;
done:
  if (ssl) SSL_free(ssl);
  if (fd >= 0) close(fd);
  if (started && !tls_loopback_server_join(&server, !ok)) ok = ok && fail("the server thread failed");
  if (server.listener >= 0) close(server.listener);
  SSL_CTX_free(server.context);
  SSL_CTX_free(client);
  return ok;
}

/* The counter checks, each reported on its own; 1 when all held. */
static int check_counters(const side *server, const side *client) {
  int ok = 1;
  printf(
      "server: crisp.calls.chacha20-poly1305 %llu -> %llu (at least %d records), crisp.calls.rsa-sign "
      "%llu -> %llu\n",
      (unsigned long long)server->records_before, (unsigned long long)server->records_after, RECORDS,
      (unsigned long long)server->rsa_before, (unsigned long long)server->rsa_after);
  printf("client: crisp.calls.chacha20-poly1305 %llu -> %llu, crisp.calls.rsa-verify %llu -> %llu\n",
         (unsigned long long)client->records_before, (unsigned long long)client->records_after,
         (unsigned long long)client->rsa_before, (unsigned long long)client->rsa_after);
  if (server->records_after - server->records_before < RECORDS)
    ok = fail("the server's records were not sealed by crisp's ChaCha20-Poly1305");
  if (server->rsa_after - server->rsa_before != 1)
    ok = fail("the server's handshake signature was not made by crisp's RSA (one signature expected)");
  if (client->records_after - client->records_before < RECORDS)
    ok = fail("the client's records were not opened by crisp's ChaCha20-Poly1305");
  if (client->rsa_after == client->rsa_before)
    ok = fail("the client did not verify the server's signature with crisp's RSA");
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6) {
    fprintf(stderr, "usage: tls_server_check PROVIDER_DIR|- tls1.2|tls1.3 CERT KEY [PROPERTIES]\n");
    return 2;
  }
  if (strcmp(argv[2], "tls1.2") != 0 && strcmp(argv[2], "tls1.3") != 0) {
    fprintf(stderr, "tls_server_check: bad version\n");
    return 2;
  }
  side server = {0}, client = {0};
  int ok = load(&server, argv[1], argc == 6 ? argv[5] : "?provider=crisp") &&
           load(&client, argv[1], "?provider=crisp");
  if (ok) {
    const int counted = read_counters(&server, "crisp.calls.rsa-sign", 0) &&
                        read_counters(&client, "crisp.calls.rsa-verify", 0);
    ok = transfer(&server, &client, strcmp(argv[2], "tls1.3") == 0, argv[3], argv[4]);
    if (!counted)
      ok = fail(server.crisp && client.crisp
                    ? "crisp does not report its RSA or ChaCha20-Poly1305 counters"
                    : "the crisp provider is not loaded: its counters cannot be read");
    else if (ok)
      ok = read_counters(&server, "crisp.calls.rsa-sign", 1) &&
           read_counters(&client, "crisp.calls.rsa-verify", 1) && check_counters(&server, &client);
  }
  unload(&server);
  unload(&client);
  return ok ? 0 : 1;
}
