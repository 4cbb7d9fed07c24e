/* tools/poly1305.c - crisp poly1305: the Poly1305 tag of one file (or
 * standard input) under a 32-byte key given in hex, streamed in chunks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <crisp/poly1305.h>

#include "cli.h"

#define CHUNK_SIZE (256 * 1024)

static void help(void) {
  printf("Usage: crisp poly1305 -k HEXKEY [FILE|-]\n"
         "Prints the Poly1305 tag (RFC 8439) of FILE, or of standard input when FILE is\n"
         "- or missing, in lowercase hex.\n"
         "  -k, --key HEXKEY   the one-time key: 64 hex digits (r, then s)\n"
         "Exit status: 0 success, 1 the file could not be read, 2 usage error.\n");
}

static int tag_file(const char *name, const uint8_t key[CRISP_POLY1305_KEY_SIZE]) {
  const int is_stdin = !strcmp(name, "-");
  const int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    cli_error("%s: %s", name, strerror(errno));
    return 1;
  }
  uint8_t *buffer = malloc(CHUNK_SIZE);
  if (!buffer) {
    cli_error("%s", strerror(ENOMEM));
    return 1;
  }
  crisp_poly1305_ctx ctx;
  crisp_poly1305_init(&ctx, key);
  int error = 0;
  for (;;) {
    const ssize_t got = read(fd, buffer, CHUNK_SIZE);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) error = errno;
    if (got <= 0) break;
    crisp_poly1305_update(&ctx, buffer, (size_t)got);
  }
  uint8_t tag[CRISP_POLY1305_TAG_SIZE];
  crisp_poly1305_final(&ctx, tag);
  free(buffer);
  if (!is_stdin) close(fd);
  if (error) {
    cli_error("%s: %s", name, strerror(error));
    return 1;
  }
  char hex[2 * CRISP_POLY1305_TAG_SIZE + 1];
  cli_hex(hex, tag, sizeof tag);
  puts(hex);
  return fflush(stdout) != 0;
}

int cli_poly1305(int argc, char **argv) {
  const char *key_hex = NULL, *file = NULL;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      help();
      return 0;
    }
    if (!strcmp(arg, "-k") || !strcmp(arg, "--key")) {
      if (++i == argc) return cli_usage_error("option '%s' needs a key", arg);
      key_hex = argv[i];
    } else if (!strncmp(arg, "--key=", 6)) {
      key_hex = arg + 6;
    } else if (!strncmp(arg, "-k", 2)) {
      key_hex = arg + 2;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("unknown option '%s'", arg);
    } else if (file) {
      return cli_usage_error("one file at most ('%s' is extra)", arg);
    } else {
      file = arg;
    }
  }
  if (!key_hex) return cli_usage_error("a key is required: -k HEXKEY (64 hex digits)");
  uint8_t key[CRISP_POLY1305_KEY_SIZE];
  if (cli_unhex(key, sizeof key, key_hex) != 0)
    return cli_usage_error("the key must be exactly 64 hex digits (32 bytes)");
  return tag_file(file ? file : "-", key);
}
