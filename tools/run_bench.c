/* tools/run_bench.c - crisp bench: runs the crisp-bench program with the
 * same arguments; crisp tune runs it with --tune first. The benchmark lives in its own program so that the
 * crisp command links no peer library (OpenSSL, libsodium, GMP) and starts fast. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef CRISP_BINDIR
#define CRISP_BINDIR "/usr/local/bin"
#endif

#define BENCH_PROGRAM "crisp-bench"

/* Replaces this process with path; returns only when path cannot run. A
 * missing file lets the search go on; any other failure ends it. */
static int try_run(const char *path, char **argv) {
  argv[0] = (char *)path;
  execv(path, argv);
  if (errno == ENOENT || errno == ENOTDIR) return 0;
  cli_error("cannot run %s: %s", path, strerror(errno));
  return EXIT_CANNOT_RUN;
}

/* Folder of the running crisp into folder (no trailing '/'); 0 on success.
 * Installed, crisp-bench sits beside crisp; in a build tree crisp is
 * tools/crisp and crisp-bench is bench/crisp-bench. */
static int own_folder(char *folder, size_t capacity) {
  const ssize_t length = readlink("/proc/self/exe", folder, capacity - 1);
  if (length <= 0) return -1;
  folder[length] = '\0';
  char *slash = strrchr(folder, '/');
  if (!slash) return -1;
  *slash = '\0';
  return 0;
}

int cli_bench(int argc, char **argv) {
  (void)argc;
  char folder[PATH_MAX];
  char path[PATH_MAX + sizeof "/../bench/" BENCH_PROGRAM];
  int status;
  if (own_folder(folder, sizeof folder) == 0) {
    snprintf(path, sizeof path, "%s/" BENCH_PROGRAM, folder);
    if ((status = try_run(path, argv))) return status;
    snprintf(path, sizeof path, "%s/../bench/" BENCH_PROGRAM, folder);
    if ((status = try_run(path, argv))) return status;
  }
  if ((status = try_run(CRISP_BINDIR "/" BENCH_PROGRAM, argv))) return status;
  argv[0] = BENCH_PROGRAM;
  execvp(BENCH_PROGRAM, argv);
  if (errno == ENOENT) {
    cli_error("the " BENCH_PROGRAM " program is not installed (looked beside crisp, in " CRISP_BINDIR
              " and on PATH)");
    return EXIT_NOT_FOUND;
  }
  cli_error("cannot run " BENCH_PROGRAM ": %s", strerror(errno));
  return EXIT_CANNOT_RUN;
}

int cli_tune(int argc, char **argv) {
  /* crisp-bench --tune ARGS...: room for the extra argument and the NULL. */
  char **tune_argv = calloc((size_t)argc + 2, sizeof *tune_argv);
  if (!tune_argv) {
    cli_error("out of memory");
    return 1;
  }
  tune_argv[0] = argv[0];
  tune_argv[1] = "--tune";
  for (int i = 1; i < argc; i++) tune_argv[i + 1] = argv[i];
  return cli_bench(argc + 1, tune_argv);
}
