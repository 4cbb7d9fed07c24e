/* tools/quote.h - file names quoted for a shell, as coreutils quotes them in
 * its diagnostics (gnulib's shell-escape style with ':' quoted too). */
#ifndef CRISP_TOOLS_QUOTE_H
#define CRISP_TOOLS_QUOTE_H

#include <stddef.h>

/* Writes the quoted form of name into out (at most size - 1 characters and
 * a terminator when size > 0) and returns its full length. Bytes are judged
 * printable in the current LC_CTYPE locale. always: quotes even a name that
 * a shell would leave alone (for an argument inside a sentence). */
size_t quote_shell_escape(char *out, size_t size, const char *name, int always);

#endif
