/* tools/poly1305.c - crisp poly1305: the Poly1305 tag of one file (or
 * standard input) under a 32-byte key given in hex on the command line or,
 * kept out of ps, in a file or on standard input; streamed in chunks. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <crisp/poly1305.h>

#include "cli.h"

#define CHUNK_SIZE (256 * 1024)
#define KEY_HEX_DIGITS (2 * CRISP_POLY1305_KEY_SIZE)
/* A key file holds the hex digits and perhaps a newline and blanks; more
 * than this is not a key file. */
#define KEY_FILE_LIMIT 1024

enum { OPT_KEY_FILE = 256 };

static const struct option long_options[] = {
    {"key", required_argument, NULL, 'k'},
    {"key-file", required_argument, NULL, OPT_KEY_FILE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static void help(void) {
  printf(
      "Usage: crisp poly1305 -k HEXKEY [--] [FILE|-]\n"
      "  or:  crisp poly1305 --key-file KEYFILE|- [--] [FILE|-]\n"
      "Prints the Poly1305 tag (RFC 8439) of FILE, or of standard input when FILE is\n"
      "- or missing, in lowercase hex.\n"
      "  -k, --key HEXKEY      the one-time key: 64 hex digits (r, then s); visible to\n"
      "                        other users in the process list\n"
      "      --key-file FILE   read the 64 hex digits from FILE (- for standard input);\n"
      "                        blanks and newlines around them are ignored\n"
      "Exit status: 0 success, 1 a file could not be read, 2 usage error or bad key.\n");
}

static int read_fd(int fd, const char *name, uint8_t *buffer, size_t size, size_t *length) {
  *length = 0;
  for (;;) {
    const ssize_t got = read(fd, buffer + *length, size - *length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error = errno; /* cli_quote may change errno; arguments go in any order */
      cli_error("%s: %s", cli_quote(name), strerror(error));
      return -1;
    }
    if (got == 0 || (*length += (size_t)got) == size) return 0;
  }
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Reads the key's hex digits from a file or standard input; returns 0, 1
 * (the file could not be read) or EXIT_USAGE (it does not hold a key). */
static int read_key_file(const char *name, uint8_t key[CRISP_POLY1305_KEY_SIZE]) {
  const int is_stdin = !strcmp(name, "-");
  int fd = is_stdin ? STDIN_FILENO : -1;
  if (!is_stdin) {
    if (cli_names_closed_descriptor(name))
      errno = ENOENT;
    else
      fd = open(name, O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) {
    const int error = errno; /* as in read_fd */
    cli_error("%s: %s", cli_quote(name), strerror(error));
    return 1;
  }
  char text[KEY_FILE_LIMIT + 1];
  size_t length;
  const int status = read_fd(fd, is_stdin ? "-" : name, (uint8_t *)text, KEY_FILE_LIMIT + 1, &length);
  if (!is_stdin) close(fd);
  if (status) return 1;
  size_t start = 0;
  while (start < length && is_blank(text[start])) start++;
  while (length > start && is_blank(text[length - 1])) length--;
  text[length] = '\0';
  int valid = length <= KEY_FILE_LIMIT && length - start == KEY_HEX_DIGITS &&
              cli_unhex(key, CRISP_POLY1305_KEY_SIZE, text + start) == 0;
  /* The text is the key: leave no copy behind. */
  memset(text, 0, sizeof text);
  __asm__ __volatile__("" : : "r"(text) : "memory");
  if (!valid) {
    cli_error("%s: the key file must hold exactly 64 hex digits (32 bytes)", cli_quote(name));
    return EXIT_USAGE;
  }
  return 0;
}

static int tag_file(const char *name, const uint8_t key[CRISP_POLY1305_KEY_SIZE]) {
  const int is_stdin = !strcmp(name, "-");
  int fd = is_stdin ? STDIN_FILENO : -1;
  if (!is_stdin) {
    if (cli_names_closed_descriptor(name))
      errno = ENOENT;
    else
      fd = open(name, O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) {
    const int error = errno; /* as in read_fd */
    cli_error("%s: %s", cli_quote(name), strerror(error));
    return 1;
  }
  uint8_t *buffer = malloc(CHUNK_SIZE);
  if (!buffer) {
    cli_error("%s", strerror(ENOMEM));
    if (!is_stdin) close(fd);
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
    cli_error("%s: %s", cli_quote(name), strerror(error));
    return 1;
  }
  char hex[2 * CRISP_POLY1305_TAG_SIZE + 1];
  cli_hex(hex, tag, sizeof tag);
  puts(hex); /* a write error is reported by main */
  return 0;
}

int cli_poly1305(int argc, char **argv) {
  const char *key_hex = NULL, *key_file = NULL;
  int option, keys_given = 0;
  /* getopt prefixes its messages with argv[0]: make that the program name. */
  char *const command_name = argv[0];
  argv[0] = (char *)cli_program;
  opterr = 1;
  optind = 1;
  while ((option = getopt_long(argc, argv, "k:h", long_options, NULL)) != -1) {
    switch (option) {
      case 'k':
        key_hex = optarg;
        keys_given++;
        break;
      case OPT_KEY_FILE:
        key_file = optarg;
        keys_given++;
        break;
      case 'h':
        help();
        return 0;
      default:
        argv[0] = command_name;
        cli_usage_hint();
        return EXIT_USAGE;
    }
  }
  argv[0] = command_name;
  if (argc - optind > 1)
    return cli_usage_error("one file at most (%s is extra)", cli_quote_argument(argv[optind + 1]));
  const char *file = optind < argc ? argv[optind] : "-";
  /* a second key is refused, not taken in place of the first: which of
   * two one-time keys a tag is under must not be a guess */
  if (keys_given > 1) return cli_usage_error("give the key once: one -k or --key-file");
  if (!key_hex && !key_file) return cli_usage_error("a key is required: -k HEXKEY or --key-file FILE");
  if (key_file && !strcmp(key_file, "-") && !strcmp(file, "-"))
    return cli_usage_error("the key and the message cannot both come from standard input");
  uint8_t key[CRISP_POLY1305_KEY_SIZE];
  if (key_file) {
    const int status = read_key_file(key_file, key);
    if (status) return status;
  } else if (cli_unhex(key, sizeof key, key_hex) != 0) {
    return cli_usage_error("the key must be exactly 64 hex digits (32 bytes)");
  }
  const int status = tag_file(file, key);
  memset(key, 0, sizeof key);
  __asm__ __volatile__("" : : "r"(key) : "memory");
  return status;
}
