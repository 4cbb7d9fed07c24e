/* tools/md5sum.h - what the parts of crisp md5sum share: the options, and
 * how names are written on stdout. md5sum.c parses the command line and
 * calls md5sum_compute (md5sum_compute.c) or md5sum_check (md5sum_check.c);
 * both write names through md5sum_output.c. */
#ifndef CRISP_TOOLS_MD5SUM_H
#define CRISP_TOOLS_MD5SUM_H

#include <stdio.h>

struct md5sum_options {
  int binary;         /* -b: mark lines with '*' */
  int tag;            /* --tag: BSD "MD5 (name) = hex" lines */
  int zero;           /* -z: end lines with NUL, no escaping */
  int quiet;          /* --quiet: no OK lines */
  int status;         /* --status: no output at all */
  int warn;           /* -w: name improperly formatted lines */
  int strict;         /* --strict: improperly formatted lines fail */
  int ignore_missing; /* --ignore-missing: missing files are skipped */
};

/* Writes name to out, with \\, \n and \r escaped when escape is set. */
void md5sum_put_name(FILE *out, const char *name, int escape);

/* Prints the sums of the files ("-" or none: standard input); returns the
 * exit status. *read_stdin is set when standard input was read. */
int md5sum_compute(char **files, int count, const struct md5sum_options *options, int *read_stdin);

/* Checks the sums listed in each file ("-" or none: standard input);
 * returns the exit status. *read_stdin is set when standard input was read. */
int md5sum_check(char **files, int count, const struct md5sum_options *options, int *read_stdin);

#endif
