/* tools/md5sum.h - what the two halves of crisp md5sum (computing sums and
 * checking them) share: the options and the coreutils file name escaping. */
#ifndef CRISP_TOOLS_MD5SUM_H
#define CRISP_TOOLS_MD5SUM_H

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

/* Writes name to stdout, with \\, \n and \r escaped when escape is set. */
void md5sum_put_name(const char *name, int escape);

/* crisp md5sum -c over each check file ("-" or none: standard input);
 * returns the exit status. */
int md5sum_check(char **files, int count, const struct md5sum_options *options);

#endif
