/* tools/md5_pool.h - hashes many files at once: a bounded pool of open files
 * whose buffers go through crisp_md5_update_many side by side (one SIMD lane
 * each), with results handed back in the order the files were asked for. */
#ifndef CRISP_TOOLS_MD5_POOL_H
#define CRISP_TOOLS_MD5_POOL_H

#include <stdint.h>

/* What a next callback returns. */
enum {
  MD5_POOL_END = 0,      /* no more files */
  MD5_POOL_ITEM = 1,     /* *name and *token are set */
  MD5_POOL_NOT_YET = -1, /* the next item is not available without waiting */
};

/* Gives the next file to hash ("-" is standard input) and returns
 * MD5_POOL_ITEM, MD5_POOL_END, or MD5_POOL_NOT_YET when may_wait is 0 and the
 * next item would have to be waited for. may_wait is 1 when every earlier
 * file has been reported, so blocking delays no result. *name NULL asks for
 * nothing to be hashed: the token just comes back to done in its turn (a
 * line to warn about, say). *name must stay valid until the matching done
 * call. Runs on either of the pool's threads, one call at a time,
 * concurrently with done: the two must not share unsynchronised state. */
typedef int (*md5_pool_next)(void *user, const char **name, void **token, int may_wait);

/* Called once per item on the calling thread, in the order next gave them:
 * error is 0 and digest is set, or error is the errno of the failed open or
 * read (digest NULL); opened is 0 when the failure was in open(). An item
 * without a name comes back with digest NULL and error 0. */
typedef void (*md5_pool_done)(void *user, void *token, const char *name, const uint8_t *digest, int error,
                              int opened);

/* Called on the calling thread after each run of done calls, so that their
 * output can go out in one write; NULL when not needed. */
typedef void (*md5_pool_batch_end)(void *user);

/* Runs until next returns MD5_POOL_END and every item is done. Anything but
 * a regular file (standard input, pipes, FIFOs, devices, sockets) is read
 * from start to finish before the next such file is opened, in the order
 * given, as a one-file-at-a-time reader would see it.
 * Out of descriptors (EMFILE, ENFILE), the pool keeps fewer files open at
 * once, down to one; only a file that cannot be opened even then fails.
 * Returns 0, or -1 if memory ran out (errno set). */
int md5_pool_run(md5_pool_next next, md5_pool_done done, md5_pool_batch_end batch_end, void *user);

#endif
