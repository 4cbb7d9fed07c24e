/* tools/messages.c - error messages of the crisp command on stderr, with
 * file names quoted the way coreutils quotes them, and hex conversion. */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "quote.h"

const char *cli_program = "crisp";

/* stdout is flushed first so that, when both streams go to one file, what
 * was printed before the message comes before it (as glibc's error() does
 * for coreutils). */
static void vmessage(const char *format, va_list args) {
  fflush(stdout);
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

void cli_usage_hint(void) {
  fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
}

int cli_usage_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vmessage(format, args);
  va_end(args);
  cli_usage_hint();
  return EXIT_USAGE;
}

/* Two buffers in turn, so one message can quote two names. */
static const char *quote(const char *name, int always) {
  static char *buffers[2];
  static size_t sizes[2];
  static int turn;
  static int locale_ready;
  if (!locale_ready) {
    /* Which bytes are printable characters depends on the user's locale. */
    setlocale(LC_CTYPE, "");
    locale_ready = 1;
  }
  turn ^= 1;
  const size_t needed = quote_shell_escape(NULL, 0, name, always) + 1;
  if (needed > sizes[turn]) {
    char *grown = realloc(buffers[turn], needed);
    if (!grown) return "(name too long to quote)";
    buffers[turn] = grown, sizes[turn] = needed;
  }
  quote_shell_escape(buffers[turn], sizes[turn], name, always);
  return buffers[turn];
}

const char *cli_quote(const char *name) {
  return quote(name, 0);
}

const char *cli_quote_argument(const char *argument) {
  return quote(argument, 1);
}

void cli_put_quoted(const char *name) {
  fputs(cli_quote(name), stderr);
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
