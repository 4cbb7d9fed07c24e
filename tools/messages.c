/* tools/messages.c - error messages, shell-style quoting of file names on
 * stderr, and hex conversion for the crisp command. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *cli_program = "crisp";

static void vmessage(const char *format, va_list args) {
  fprintf(stderr, "%s: ", cli_program);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
}

void cli_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vmessage(format, args);
  va_end(args);
}

int cli_usage_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vmessage(format, args);
  va_end(args);
  fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
  return EXIT_USAGE;
}

/* Characters a shell leaves alone, so a name made only of them is printed bare. */
static int shell_safe(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80 ||
         strchr("%+,-./:=@_^", c) != NULL;
}

static int control(unsigned char c) { return c < 0x20 || c == 0x7f; }

/* Control characters go out as $'\n' pieces between single-quoted runs. */
static void put_control(unsigned char c) {
  switch (c) {
    case '\n': fputs("$'\\n'", stderr); break;
    case '\r': fputs("$'\\r'", stderr); break;
    case '\t': fputs("$'\\t'", stderr); break;
    default: fprintf(stderr, "$'\\%03o'", c); break;
  }
}

void cli_put_quoted(const char *name) {
  const unsigned char *p = (const unsigned char *)name;
  if (!*p) {
    fputs("''", stderr);
    return;
  }
  int safe = 1;
  for (const unsigned char *q = p; *q; q++) safe &= shell_safe(*q);
  if (safe) {
    fputs(name, stderr);
    return;
  }
  int open = 0; /* inside a '...' run */
  for (; *p; p++) {
    if (control(*p) || *p == '\'') {
      if (open) fputc('\'', stderr), open = 0;
      if (*p == '\'') fputs("\\'", stderr);
      else put_control(*p);
      continue;
    }
    if (!open) fputc('\'', stderr), open = 1;
    fputc(*p, stderr);
  }
  if (open) fputc('\'', stderr);
}

void cli_hex(char *out, const uint8_t *bytes, size_t len) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < len; i++) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  out[2 * len] = '\0';
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int cli_unhex(uint8_t *bytes, size_t len, const char *hex) {
  if (strlen(hex) != 2 * len) return -1;
  for (size_t i = 0; i < len; i++) {
    const int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
    if (high < 0 || low < 0) return -1;
    bytes[i] = (uint8_t)(high << 4 | low);
  }
  return 0;
}
