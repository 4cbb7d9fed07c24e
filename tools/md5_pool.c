/* tools/md5_pool.c - the many-file MD5 engine behind crisp md5sum.
 *
 * Two workers, the calling thread and one more, each keep up to POOL_FILES
 * files open, read one chunk of every open file into their own buffers and
 * hash the chunks with one crisp_md5_update_many call, so the files run in
 * SIMD lanes side by side. Both workers read because reading is the cost:
 * open, read (the kernel's copy) and close take several times the CPU time
 * of the many-lanes hashing, so a reader thread feeding a hashing thread
 * would leave a core mostly idle. Workers take files in argument order
 * under one lock; finished files wait in a ring until every file asked for
 * before them is reported, by the calling thread, so output keeps the order
 * of the arguments. Without a second thread the calling thread does it all.
 *
 * Only regular files are read side by side: their contents do not depend
 * on who reads them or when (a regular file reached through /dev/fd/N is
 * opened afresh, from its start). Anything else (standard input, a pipe, a
 * FIFO, a device, a socket) is opened only after the previous such file has
 * been read to its end, so each is read exactly as a one-file-at-a-time
 * reader would read it. Running out of descriptors shrinks the number of files a
 * worker keeps open; a worker that cannot open even one waits until the
 * other closes some, and only when none of the pool's files is open is the
 * failure the file's own. */
#include "md5_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <crisp/md5.h>

#include "cli.h"

/* The calling thread and one helper. */
#define WORKERS 2
/* 16 files fill the 16 lanes of the AVX-512 kernel (two groups of the AVX2
 * kernel's 8); more did not measure faster. */
#define POOL_FILES 16
/* One read per 64 KiB file; a multiple of the MD5 block so full chunks leave
 * no partial block behind. */
#define READ_SIZE (64 * 1024)
/* All buffers fit one 2 MiB huge page: first touches of hundreds of 4 KiB
 * pages cost a visible part of hashing a thousand small files. */
#define HUGE_PAGE (2u << 20)
#define BUFFERS_SIZE ((size_t)WORKERS * POOL_FILES * READ_SIZE)
/* Files asked for but not yet reported (finished ones wait behind a slow one). */
#define RING_SIZE 4096

/* One item asked for. name, token and sequential are set when it is
 * claimed; the worker that claimed it writes error, opened and digest, then
 * sets finished under the lock, after which only the reporting thread
 * touches it. */
struct entry {
  const char *name;
  void *token;
  int sequential; /* standard input or not a regular file: read alone, in turn */
  int finished;
  int error;
  int opened;
  uint8_t digest[CRISP_MD5_DIGEST_SIZE];
};

/* An open file of a worker. */
struct slot {
  int in_use;
  int fd;
  int is_stdin;
  size_t entry; /* ring position of this file */
  uint8_t *buffer;
};

struct worker {
  struct pool *pool;
  int reports; /* the calling thread: it alone calls done */
  struct slot slots[POOL_FILES];
  crisp_md5_ctx contexts[POOL_FILES];
  size_t active;   /* open slots */
  size_t capacity; /* most files open at once; shrinks when descriptors run out */
  /* Claimed under the lock, opened after it, in claim order. */
  size_t pending[POOL_FILES];
  size_t pending_count;
  /* Ended since the lock was last held: published as finished next time. */
  size_t ended[2 * POOL_FILES];
  size_t ended_count;
  int starving;        /* could not open one file while others were open */
  int starving_shared; /* the same, as last published under the lock */
};

struct pool {
  md5_pool_next next;
  md5_pool_done done;
  md5_pool_batch_end batch_end;
  void *user;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  /* Under the lock. */
  size_t head, tail; /* ring: [head, tail) claimed, not yet reported */
  int more, held, held_sequential, held_output, sequential_busy, helpers;
  const char *held_name;
  void *held_token;
  /* Standard output and error, where they are regular files: (device,
   * inode), or an inode of 0. */
  struct stat outputs[2];
  /* The pool's own descriptors, counted from just before open() to after
   * close(), so that "none of ours is open" is never claimed too early. */
  atomic_size_t open_files;
  struct entry ring[RING_SIZE];
  struct worker workers[WORKERS];
};

/* Whether name must be read alone and in turn, and (*output) whether it is
 * the file standard output or error writes to. A name that cannot be
 * examined goes the regular way: open() then fails with the same error. */
static int is_sequential(const struct pool *pool, const char *name, int *output) {
  *output = 0;
  if (!strcmp(name, "-")) return 1;
  struct stat info;
  if (stat(name, &info) != 0) return 0;
  for (int i = 0; i < 2; i++)
    *output |= pool->outputs[i].st_ino && info.st_dev == pool->outputs[i].st_dev &&
               info.st_ino == pool->outputs[i].st_ino;
  return !S_ISREG(info.st_mode);
}

/* Under the lock: whether another worker waits for descriptors, in which
 * case this one takes no new files until that one has opened its next. */
static int other_starving(const struct pool *pool, const struct worker *worker) {
  for (size_t w = 0; w < WORKERS; w++)
    if (&pool->workers[w] != worker && pool->workers[w].starving_shared) return 1;
  return 0;
}

/* Under the lock: takes items in order for the worker's free slots while
 * the ring has room. A sequential file waits until the previous one has
 * ended, and everything after it waits with it. A file that standard
 * output or error writes to waits until every item before it has been
 * reported (their lines written), as coreutils reads it only after
 * printing those: its sum is of what was written by then. */
static void claim(struct pool *pool, struct worker *worker) {
  if (other_starving(pool, worker)) return;
  int passed = 0;
  while (worker->active + worker->pending_count < worker->capacity && pool->tail - pool->head < RING_SIZE) {
    if (!pool->held) {
      if (!pool->more) break;
      const int got = pool->next(pool->user, &pool->held_name, &pool->held_token, pool->head == pool->tail);
      if (got == MD5_POOL_NOT_YET) break;
      if (got == MD5_POOL_END) {
        pool->more = 0;
        break;
      }
      pool->held = 1;
      pool->held_output = 0;
      pool->held_sequential = pool->held_name && is_sequential(pool, pool->held_name, &pool->held_output);
    }
    struct entry *entry = &pool->ring[pool->tail % RING_SIZE];
    if (!pool->held_name) {
      *entry = (struct entry){.token = pool->held_token, .finished = 1};
      pool->tail++, pool->held = 0, passed = 1;
      continue;
    }
    if (pool->held_sequential && pool->sequential_busy) break;
    if (pool->held_output && pool->head != pool->tail) break;
    pool->sequential_busy |= pool->held_sequential;
    *entry = (struct entry){
        .name = pool->held_name, .token = pool->held_token, .sequential = pool->held_sequential};
    worker->pending[worker->pending_count++] = pool->tail++;
    pool->held = 0;
  }
  if (passed) pthread_cond_broadcast(&pool->changed);
}

static void end_entry(struct worker *worker, size_t index) {
  worker->ended[worker->ended_count++] = index;
}

/* Opens a claimed file into a free slot, or records why it cannot be
 * opened. Returns 0, or EMFILE / ENFILE when descriptors ran out (nothing
 * recorded: the file is to be opened again later). */
static int slot_open(struct worker *worker, size_t index) {
  struct pool *pool = worker->pool;
  struct entry *entry = &pool->ring[index % RING_SIZE];
  const int is_stdin = !strcmp(entry->name, "-");
  int fd = STDIN_FILENO;
  if (!is_stdin && cli_names_closed_descriptor(entry->name)) {
    entry->error = ENOENT;
    end_entry(worker, index);
    return 0;
  }
  if (!is_stdin) {
    atomic_fetch_add(&pool->open_files, 1);
    fd = open(entry->name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      const int error = errno;
      atomic_fetch_sub(&pool->open_files, 1);
      if (error == EMFILE || error == ENFILE) return error;
      entry->error = error;
      end_entry(worker, index);
      return 0;
    }
  }
  size_t i = 0;
  while (worker->slots[i].in_use) i++;
  struct slot *slot = &worker->slots[i];
  slot->in_use = 1, slot->fd = fd, slot->is_stdin = is_stdin, slot->entry = index;
  crisp_md5_init(&worker->contexts[i]);
  worker->active++;
  return 0;
}

/* Opens pending files while the worker has room. Out of descriptors with
 * files of its own open, the worker keeps no more open than it has; with
 * none, it waits for the other worker's (starving); only when the pool has
 * no file open at all is the shortage reported as the file's error. */
static void open_pending(struct worker *worker) {
  struct pool *pool = worker->pool;
  size_t done = 0;
  while (done < worker->pending_count && worker->active < worker->capacity) {
    const size_t index = worker->pending[done];
    int shortage = slot_open(worker, index);
    /* The other worker may have closed a file since: one more try. */
    if (shortage && !worker->active && !atomic_load(&pool->open_files)) shortage = slot_open(worker, index);
    if (!shortage) {
      done++;
      worker->starving = 0;
      continue;
    }
    if (worker->active) {
      worker->capacity = worker->active;
      break;
    }
    if (atomic_load(&pool->open_files)) {
      worker->starving = 1;
      break;
    }
    pool->ring[index % RING_SIZE].error = shortage;
    end_entry(worker, index);
    done++;
  }
  worker->pending_count -= done;
  memmove(worker->pending, worker->pending + done, worker->pending_count * sizeof worker->pending[0]);
}

/* Reads the slot's next chunk; returns its length, *ended set at the end of
 * the file or on an error. Every file, regular or not, ends only when read()
 * returns 0: its size at open() is no limit, as a file may grow while it is
 * read (a log being written) and coreutils reads it to its end. */
static size_t slot_read(struct slot *slot, struct entry *entry, int *ended) {
  size_t length = 0;
  *ended = 0;
  while (length < READ_SIZE && !*ended) {
    const ssize_t got = read(slot->fd, slot->buffer + length, READ_SIZE - length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) entry->error = errno;
    if (got <= 0) {
      *ended = 1;
      break;
    }
    length += (size_t)got;
  }
  return length;
}

/* Reads one chunk of every open file, hashes them in one many-lanes update,
 * then finalises and closes the files that ended. */
static void read_and_hash(struct worker *worker) {
  struct pool *pool = worker->pool;
  crisp_md5_ctx *contexts[POOL_FILES];
  const void *data[POOL_FILES];
  size_t lengths[POOL_FILES], ended_slots[POOL_FILES];
  size_t count = 0, ended_count = 0;
  for (size_t i = 0; i < POOL_FILES; i++) {
    struct slot *slot = &worker->slots[i];
    if (!slot->in_use) continue;
    int ended;
    const size_t length = slot_read(slot, &pool->ring[slot->entry % RING_SIZE], &ended);
    if (ended) ended_slots[ended_count++] = i;
    if (!length) continue;
    contexts[count] = &worker->contexts[i], data[count] = slot->buffer, lengths[count] = length;
    count++;
  }
  if (count) crisp_md5_update_many(contexts, data, lengths, count);
  for (size_t k = 0; k < ended_count; k++) {
    struct slot *slot = &worker->slots[ended_slots[k]];
    struct entry *entry = &pool->ring[slot->entry % RING_SIZE];
    if (!entry->error) crisp_md5_final(&worker->contexts[ended_slots[k]], entry->digest);
    entry->opened = 1;
    if (!slot->is_stdin) {
      close(slot->fd);
      atomic_fetch_sub(&pool->open_files, 1);
    }
    slot->in_use = 0;
    worker->active--;
    end_entry(worker, slot->entry);
  }
}

/* Under the lock: marks the worker's ended files finished and shares its
 * starving state. */
static void publish(struct pool *pool, struct worker *worker) {
  for (size_t k = 0; k < worker->ended_count; k++) {
    struct entry *entry = &pool->ring[worker->ended[k] % RING_SIZE];
    entry->finished = 1;
    if (entry->sequential) pool->sequential_busy = 0;
  }
  if (worker->ended_count || worker->starving != worker->starving_shared)
    pthread_cond_broadcast(&pool->changed);
  worker->starving_shared = worker->starving;
  worker->ended_count = 0;
}

/* Under the lock: how many finished items from the head can be reported. */
static size_t reportable(const struct pool *pool) {
  size_t count = 0;
  while (pool->head + count != pool->tail && pool->ring[(pool->head + count) % RING_SIZE].finished) count++;
  return count;
}

static void report(struct pool *pool, size_t count) {
  for (size_t k = 0; k < count; k++) {
    const struct entry *entry = &pool->ring[(pool->head + k) % RING_SIZE];
    const int failed = entry->error || !entry->name;
    pool->done(pool->user, entry->token, entry->name, failed ? NULL : entry->digest, entry->error,
               entry->opened);
  }
  if (count && pool->batch_end) pool->batch_end(pool->user);
}

/* One worker's loop. The reporting worker also hands finished items to done
 * outside the lock (their entries stay put until head moves past them) and
 * returns only when every item is reported and the helper has stopped. A
 * worker waits when it has nothing to do, or when it starves while the
 * pool's other files are open (each close is followed by a broadcast). */
static void work(struct worker *worker) {
  struct pool *pool = worker->pool;
  size_t reported = 0;
  for (;;) {
    pthread_mutex_lock(&pool->lock);
    publish(pool, worker);
    if (reported) pool->head += reported, pthread_cond_broadcast(&pool->changed);
    claim(pool, worker);
    const size_t ready = worker->reports ? reportable(pool) : 0;
    const int idle = !worker->active && !worker->pending_count && !ready;
    const int no_more_items = !pool->more && !pool->held;
    if (idle && no_more_items && (!worker->reports || (!pool->helpers && pool->head == pool->tail))) {
      pool->helpers -= !worker->reports;
      pthread_cond_broadcast(&pool->changed);
      pthread_mutex_unlock(&pool->lock);
      return;
    }
    const int stalled = worker->starving && !worker->active && !ready && atomic_load(&pool->open_files);
    if (idle || stalled) pthread_cond_wait(&pool->changed, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    open_pending(worker);
    report(pool, ready);
    reported = ready;
    if (worker->active) read_and_hash(worker);
  }
}

static void *helper(void *opaque) {
  work(opaque);
  return NULL;
}

int md5_pool_run(md5_pool_next next, md5_pool_done done, md5_pool_batch_end batch_end, void *user) {
  struct pool *pool = calloc(1, sizeof *pool);
  /* Mapped with room to align the buffers to a huge page. */
  uint8_t *mapping = MAP_FAILED;
  if (pool)
    mapping =
        mmap(NULL, BUFFERS_SIZE + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    free(pool);
    errno = ENOMEM;
    return -1;
  }
  uint8_t *buffers = mapping + (-(uintptr_t)mapping & (HUGE_PAGE - 1));
  madvise(buffers, BUFFERS_SIZE, MADV_HUGEPAGE); /* only a hint: 4 KiB pages work too */
  pool->next = next, pool->done = done, pool->batch_end = batch_end, pool->user = user, pool->more = 1;
  for (int i = 0; i < 2; i++)
    if (fstat(i ? STDERR_FILENO : STDOUT_FILENO, &pool->outputs[i]) != 0 ||
        !S_ISREG(pool->outputs[i].st_mode))
      pool->outputs[i].st_ino = 0;
  atomic_init(&pool->open_files, 0);
  for (size_t w = 0; w < WORKERS; w++) {
    pool->workers[w].pool = pool;
    pool->workers[w].capacity = POOL_FILES;
    for (size_t i = 0; i < POOL_FILES; i++)
      pool->workers[w].slots[i].buffer = buffers + (w * POOL_FILES + i) * READ_SIZE;
  }
  pool->workers[0].reports = 1;
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->changed, NULL);
  /* The library picks its kernels on first use; doing that before the helper
   * starts lets helgrind see it happen before either thread hashes (it cannot
   * follow the library's C11 atomics). */
  crisp_md5_init(&pool->workers[0].contexts[0]);
  /* Counted before it starts, as it may finish before pthread_create returns. */
  pool->helpers = 1;
  pthread_t thread;
  const int started = pthread_create(&thread, NULL, helper, &pool->workers[1]) == 0;
  if (!started) pool->helpers = 0;
  work(&pool->workers[0]);
  if (started) pthread_join(thread, NULL);
  pthread_cond_destroy(&pool->changed);
  pthread_mutex_destroy(&pool->lock);
  munmap(mapping, BUFFERS_SIZE + HUGE_PAGE);
  free(pool);
  return 0;
}
