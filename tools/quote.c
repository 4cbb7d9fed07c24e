/* tools/quote.c - coreutils' quoting of file names in diagnostics.
 *
 * A name made only of characters a shell leaves alone is printed bare.
 * Otherwise it goes in single quotes, with control characters and bytes
 * that are not printable characters as $'\n' or $'\351' pieces between the
 * quoted runs and an apostrophe as '\''. A name whose only special
 * characters are apostrophes and harmless ones (blanks, a leading '#', ...)
 * goes in double quotes instead: "it's". Same rules as gnulib's quotearg
 * in shell_escape_quoting_style with the colon quoted, which coreutils'
 * quotef() uses; written from its documented behaviour and checked against
 * coreutils by test/test_md5sum_diff.py. */
#include "quote.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* How one piece of a name (a byte or a whole multibyte character) is written. */
enum piece_kind { PIECE_PLAIN, PIECE_NAMED_ESCAPE, PIECE_OCTAL, PIECE_APOSTROPHE };

struct piece {
  enum piece_kind kind;
  size_t length;       /* bytes of the name it covers */
  char letter;         /* PIECE_NAMED_ESCAPE: n, r, t, a, b, f, v */
  int forces_quotes;   /* the name cannot go out bare */
  int double_quotable; /* allowed inside the "..." form */
};

struct output {
  char *out;
  size_t size, length;
};

static void put(struct output *o, char c) {
  if (o->length + 1 < o->size) o->out[o->length] = c;
  o->length++;
}

static void put_string(struct output *o, const char *s) {
  while (*s) put(o, *s++);
}

static char named_escape(unsigned char c) {
  switch (c) {
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    case '\a':
      return 'a';
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    case '\v':
      return 'v';
    default:
      return 0;
  }
}

/* Classifies the piece starting at name[i]; length is strlen(name). */
static struct piece classify(const char *name, size_t i, size_t length, int unibyte) {
  const unsigned char c = (unsigned char)name[i];
  struct piece piece = {.kind = PIECE_PLAIN, .length = 1};
  const char letter = named_escape(c);
  if (letter) {
    piece.kind = PIECE_NAMED_ESCAPE, piece.letter = letter, piece.forces_quotes = 1;
    return piece;
  }
  if (c == '\'') {
    piece.kind = PIECE_APOSTROPHE, piece.forces_quotes = 1, piece.double_quotable = 1;
    return piece;
  }
  if (c == '{' || c == '}') {
    piece.forces_quotes = piece.double_quotable = length == 1;
    return piece;
  }
  if (c == '#' || c == '~') {
    piece.forces_quotes = piece.double_quotable = i == 0;
    return piece;
  }
  if (c == ' ' || c == ':') {
    piece.forces_quotes = piece.double_quotable = 1;
    return piece;
  }
  if (c < 0x80 && strchr("\\!\"$&()*;<=>[^`|?", c)) {
    piece.forces_quotes = 1;
    return piece;
  }
  if (c < 0x80 && (isalnum(c) || strchr("%+,-./]_", c))) {
    piece.double_quotable = 1;
    return piece;
  }
  /* Anything else: a printable character stays as it is, the rest is
   * written byte by byte in octal. */
  int printable;
  if (unibyte) {
    printable = isprint(c) != 0;
  } else {
    mbstate_t state;
    memset(&state, 0, sizeof state);
    wchar_t wide;
    const size_t got = mbrtowc(&wide, name + i, length - i, &state);
    if (got == (size_t)-1) {
      printable = 0; /* one invalid byte */
    } else if (got == (size_t)-2) {
      printable = 0, piece.length = length - i; /* cut short: the rest */
    } else {
      printable = iswprint((wint_t)wide) != 0;
      piece.length = got ? got : 1;
    }
  }
  if (!printable) piece.kind = PIECE_OCTAL, piece.forces_quotes = 1;
  piece.double_quotable = printable;
  return piece;
}

/* The inside of the single-quoted form. Escapes open a $'...' run that the
 * next plain piece closes with '' (which also reopens the plain quotes).
 * Starts in the given escape state; returns the state it ends in. */
static int put_single_quoted(struct output *o, const char *name, size_t length, int unibyte, int in_escape) {
  for (size_t i = 0; i < length;) {
    const struct piece piece = classify(name, i, length, unibyte);
    switch (piece.kind) {
      case PIECE_NAMED_ESCAPE:
      case PIECE_OCTAL:
        for (size_t k = 0; k < piece.length; k++) {
          if (!in_escape) put_string(o, "'$'"), in_escape = 1;
          put(o, '\\');
          if (piece.kind == PIECE_NAMED_ESCAPE) {
            put(o, piece.letter);
          } else {
            const unsigned char byte = (unsigned char)name[i + k];
            put(o, (char)('0' + (byte >> 6))), put(o, (char)('0' + ((byte >> 3) & 7)));
            put(o, (char)('0' + (byte & 7)));
          }
        }
        break;
      case PIECE_APOSTROPHE:
        put_string(o, "'\\''");
        in_escape = 0;
        break;
      case PIECE_PLAIN:
        if (in_escape) put_string(o, "''"), in_escape = 0;
        for (size_t k = 0; k < piece.length; k++) put(o, name[i + k]);
        break;
    }
    i += piece.length;
  }
  return in_escape;
}

size_t quote_shell_escape(char *out, size_t size, const char *name, int always) {
  struct output o = {out, size, 0};
  const size_t length = strlen(name);
  const int unibyte = MB_CUR_MAX == 1;
  int forced = always || length == 0, apostrophe = 0, double_quotable = 1;
  for (size_t i = 0; i < length;) {
    const struct piece piece = classify(name, i, length, unibyte);
    forced |= piece.forces_quotes;
    apostrophe |= piece.kind == PIECE_APOSTROPHE;
    double_quotable &= piece.double_quotable;
    i += piece.length;
  }
  if (!forced) {
    put_string(&o, name);
  } else if (apostrophe && double_quotable) {
    put(&o, '"');
    put_string(&o, name);
    put(&o, '"');
  } else {
    put(&o, '\'');
    int in_escape = 0;
    /* gnulib scans a name with an apostrophe once more before writing it,
     * and its second pass starts in the escape state the first one ended
     * in: an extra '' where the first plain piece closes that run. */
    if (apostrophe) {
      struct output scan = {NULL, 0, 0};
      in_escape = put_single_quoted(&scan, name, length, unibyte, 0);
    }
    put_single_quoted(&o, name, length, unibyte, in_escape);
    put(&o, '\'');
  }
  if (size) o.out[o.length < size ? o.length : size - 1] = '\0';
  return o.length;
}
