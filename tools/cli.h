/* tools/cli.h - what the crisp command's subcommands share: their entry
 * points, message helpers and hex conversion. Only the public API is used. */
#ifndef CRISP_TOOLS_CLI_H
#define CRISP_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

/* Exit codes shared by every subcommand. A program crisp runs (crisp
 * bench's crisp-bench) that cannot be run gives the shell's codes, as
 * env(1) and xargs(1) do: 127 not found, 126 found but not runnable. */
enum { EXIT_USAGE = 2, EXIT_CANNOT_RUN = 126, EXIT_NOT_FOUND = 127 };

/* Each subcommand gets argv starting at its own name ("md5sum", ...). */
int cli_info(int argc, char **argv);
int cli_md5sum(int argc, char **argv);
int cli_poly1305(int argc, char **argv);
int cli_bench(int argc, char **argv); /* runs the crisp-bench program */
int cli_tune(int argc, char **argv);  /* runs crisp-bench --tune */

/* "crisp md5sum: " style prefix for messages on stderr; set by main. */
extern const char *cli_program;

/* Flushes stdout, then prints "PROGRAM: message\n" on stderr. */
void cli_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Prints the message and a hint to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Prints "Try 'PROGRAM --help' for more information." on stderr. */
void cli_usage_hint(void);

/* name quoted like a shell would need it, as coreutils quotes names in its
 * messages; valid until the second call after this one. */
const char *cli_quote(const char *name);
/* The same, but always in quotes: for an argument inside a sentence. */
const char *cli_quote_argument(const char *argument);
/* Writes cli_quote(name) to stderr. */
void cli_put_quoted(const char *name);

/* Puts /dev/null on whichever of descriptors 0, 1, 2 is closed, opened so
 * that using it still fails with EBADF, so no file lands there. */
void cli_reserve_standard_descriptors(void);
/* Whether descriptor fd (0, 1 or 2) was closed when
 * cli_reserve_standard_descriptors ran. */
int cli_descriptor_was_closed(int fd);
/* Whether name leads to one of those descriptors (/dev/stdin, /dev/fd/1,
 * ...), which is to fail with ENOENT as it would with the descriptor closed. */
int cli_names_closed_descriptor(const char *name);

/* Lowercase hex of bytes into out (2 * len + 1 chars with the terminator). */
void cli_hex(char *out, const uint8_t *bytes, size_t len);
/* Parses exactly 2 * len hex digits; returns 0 on success, -1 otherwise. */
int cli_unhex(uint8_t *bytes, size_t len, const char *hex);

#endif
