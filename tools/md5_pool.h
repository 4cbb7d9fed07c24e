/* tools/md5_pool.h - hashes many files at once: a bounded pool of open files
 * whose buffers go through crisp_md5_update_many side by side (one SIMD lane
 * each), with results handed back in the order the files were asked for. */
#ifndef CRISP_TOOLS_MD5_POOL_H
#define CRISP_TOOLS_MD5_POOL_H

#include <stdint.h>

/* Gives the next file to hash ("-" is standard input): returns 1 and sets
 * *name and *token, or 0 when there are no more. *name must stay valid until
 * the matching done call. Runs on either of the pool's threads, one call at
 * a time, concurrently with done: the two must not share unsynchronised state. */
typedef int (*md5_pool_next)(void *user, const char **name, void **token);

/* Called once per file on the calling thread, in the order next gave them: error is 0 and digest
 * is set, or error is the errno of the failed open or read (digest NULL);
 * opened is 0 when the failure was in open(). */
typedef void (*md5_pool_done)(void *user, void *token, const char *name, const uint8_t *digest, int error,
                              int opened);

/* Runs until next returns 0 and every file is done. Returns 0, or -1 if
 * memory ran out (errno set). */
int md5_pool_run(md5_pool_next next, md5_pool_done done, void *user);

#endif
