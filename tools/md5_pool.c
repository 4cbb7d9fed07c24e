/* tools/md5_pool.c - the many-file MD5 engine behind crisp md5sum.
 *
 * Two workers, the calling thread and one more, each keep up to POOL_FILES
 * files open, read one chunk of every open file into their own buffers and
 * hash the chunks with one crisp_md5_update_many call, so the files run in
 * SIMD lanes side by side. Both workers read because reading is the cost: on
 * the 2-core Zen 4 this was written on, open, read (the kernel's copy) and
 * close take several times the CPU time of the 16-lane AVX-512 hashing, so a
 * reader thread feeding a hashing thread left one core mostly idle. Workers
 * take files in argument order under one lock; finished files wait in a ring
 * until every file asked for before them is reported, by the calling thread,
 * so output keeps the order of the arguments. Without a second thread the
 * calling thread does it all. */
#include "md5_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <crisp/md5.h>

/* The calling thread and one helper: one per core of the 2-core machine
 * this is tuned for. */
#define WORKERS 2
/* 16 files fill the 16 lanes of the AVX-512 kernel (two groups of the AVX2
 * kernel's 8); 32 measured no faster. */
#define POOL_FILES 16
/* One read per 64 KiB file; a multiple of the MD5 block so full chunks leave
 * no partial block behind. */
#define READ_SIZE (64 * 1024)
/* All buffers fit one 2 MiB huge page: on the VM this was tuned on a first
 * touch of a 4 KiB page costs ~15 us, and 512 of them were a quarter of the
 * time for 1,000 files of 64 KiB. */
#define HUGE_PAGE (2u << 20)
#define BUFFERS_SIZE ((size_t)WORKERS * POOL_FILES * READ_SIZE)
/* Files asked for but not yet reported (finished ones wait behind a slow one). */
#define RING_SIZE 4096

/* One file asked for. name and token are set when it is claimed; the worker
 * that claimed it writes error, opened and digest, then sets finished under
 * the lock, after which only the reporting thread touches it. */
struct entry {
  const char *name;
  void *token;
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
  uint64_t known_size; /* st_size of a regular file, else 0 (read until EOF) */
  uint64_t total;      /* bytes read so far */
  size_t entry;        /* ring position of this file */
  uint8_t *buffer;
};

struct worker {
  struct pool *pool;
  int reports; /* the calling thread: it alone calls done */
  struct slot slots[POOL_FILES];
  crisp_md5_ctx contexts[POOL_FILES];
  size_t active;
  /* Claimed under the lock, opened after it. */
  size_t claimed[POOL_FILES];
  size_t claimed_count;
  /* Ended since the lock was last held: published as finished next time. */
  size_t ended[POOL_FILES];
  size_t ended_count;
  int stdin_ended;
};

struct pool {
  md5_pool_next next;
  md5_pool_done done;
  void *user;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  /* Under the lock. */
  size_t head, tail; /* ring: [head, tail) claimed, not yet reported */
  int more, held, stdin_busy, helpers;
  const char *held_name;
  void *held_token;
  struct entry ring[RING_SIZE];
  struct worker workers[WORKERS];
};

/* Under the lock: takes files in argument order for the worker's free slots
 * while the ring has room; standard input is read by one slot at a time. */
static void claim(struct pool *pool, struct worker *worker) {
  worker->claimed_count = 0;
  while (worker->active + worker->claimed_count < POOL_FILES && pool->tail - pool->head < RING_SIZE) {
    if (!pool->held &&
        !(pool->more = pool->more && pool->next(pool->user, &pool->held_name, &pool->held_token)))
      return;
    pool->held = 1;
    const int is_stdin = !strcmp(pool->held_name, "-");
    if (is_stdin && pool->stdin_busy) return;
    pool->stdin_busy |= is_stdin;
    pool->ring[pool->tail % RING_SIZE] = (struct entry){.name = pool->held_name, .token = pool->held_token};
    worker->claimed[worker->claimed_count++] = pool->tail++;
    pool->held = 0;
  }
}

/* Opens a claimed file into a free slot, or records why it cannot be opened. */
static void slot_open(struct worker *worker, size_t index) {
  struct entry *entry = &worker->pool->ring[index % RING_SIZE];
  const int is_stdin = !strcmp(entry->name, "-");
  const int fd = is_stdin ? STDIN_FILENO : open(entry->name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    entry->error = errno;
    worker->ended[worker->ended_count++] = index;
    return;
  }
  size_t i = 0;
  while (worker->slots[i].in_use) i++;
  struct slot *slot = &worker->slots[i];
  struct stat info;
  slot->known_size = 0;
  if (!is_stdin && fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) slot->known_size = (uint64_t)info.st_size;
  slot->in_use = 1, slot->fd = fd, slot->is_stdin = is_stdin, slot->total = 0, slot->entry = index;
  crisp_md5_init(&worker->contexts[i]);
  worker->active++;
}

/* Reads the slot's next chunk; returns its length, *ended set at the end of
 * the file or on an error. A regular file whose known size has been read
 * counts as ended without one more read() returning 0; a file reporting size
 * 0 (like /proc files) is read until EOF. */
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
    slot->total += (uint64_t)got;
    if (slot->known_size && slot->total >= slot->known_size) *ended = 1;
  }
  return length;
}

/* Reads one chunk of every open file, hashes them in one many-lanes update,
 * then finalises and closes the files that ended. */
static void read_and_hash(struct worker *worker) {
  crisp_md5_ctx *contexts[POOL_FILES];
  const void *data[POOL_FILES];
  size_t lengths[POOL_FILES], ended_slots[POOL_FILES];
  size_t count = 0, ended_count = 0;
  for (size_t i = 0; i < POOL_FILES; i++) {
    struct slot *slot = &worker->slots[i];
    if (!slot->in_use) continue;
    int ended;
    const size_t length = slot_read(slot, &worker->pool->ring[slot->entry % RING_SIZE], &ended);
    if (ended) ended_slots[ended_count++] = i;
    if (!length) continue;
    contexts[count] = &worker->contexts[i], data[count] = slot->buffer, lengths[count] = length;
    count++;
  }
  if (count) crisp_md5_update_many(contexts, data, lengths, count);
  for (size_t k = 0; k < ended_count; k++) {
    struct slot *slot = &worker->slots[ended_slots[k]];
    struct entry *entry = &worker->pool->ring[slot->entry % RING_SIZE];
    if (!entry->error) crisp_md5_final(&worker->contexts[ended_slots[k]], entry->digest);
    entry->opened = 1;
    if (slot->is_stdin)
      worker->stdin_ended = 1;
    else
      close(slot->fd);
    slot->in_use = 0;
    worker->active--;
    worker->ended[worker->ended_count++] = slot->entry;
  }
}

/* Under the lock: marks the worker's ended files finished. */
static void publish(struct pool *pool, struct worker *worker) {
  for (size_t k = 0; k < worker->ended_count; k++) pool->ring[worker->ended[k] % RING_SIZE].finished = 1;
  if (worker->stdin_ended) pool->stdin_busy = 0;
  if (worker->ended_count) pthread_cond_broadcast(&pool->changed);
  worker->ended_count = 0, worker->stdin_ended = 0;
}

/* Under the lock: how many finished files from the head can be reported. */
static size_t reportable(const struct pool *pool) {
  size_t count = 0;
  while (pool->head + count != pool->tail && pool->ring[(pool->head + count) % RING_SIZE].finished) count++;
  return count;
}

static void report(struct pool *pool, size_t count) {
  for (size_t k = 0; k < count; k++) {
    const struct entry *entry = &pool->ring[(pool->head + k) % RING_SIZE];
    pool->done(pool->user, entry->token, entry->name, entry->error ? NULL : entry->digest, entry->error,
               entry->opened);
  }
}

/* One worker's loop. The reporting worker also hands finished files to done
 * outside the lock (their entries stay put until head moves past them) and
 * returns only when every file is reported and the helper has stopped. */
static void work(struct worker *worker) {
  struct pool *pool = worker->pool;
  size_t reported = 0;
  for (;;) {
    pthread_mutex_lock(&pool->lock);
    publish(pool, worker);
    if (reported) pool->head += reported, pthread_cond_broadcast(&pool->changed);
    claim(pool, worker);
    const size_t ready = worker->reports ? reportable(pool) : 0;
    const int idle = !worker->active && !worker->claimed_count && !ready;
    const int no_more_files = !pool->more && !pool->held;
    if (idle && no_more_files && (!worker->reports || (!pool->helpers && pool->head == pool->tail))) {
      pool->helpers -= !worker->reports;
      pthread_cond_broadcast(&pool->changed);
      pthread_mutex_unlock(&pool->lock);
      return;
    }
    if (idle) pthread_cond_wait(&pool->changed, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    for (size_t k = 0; k < worker->claimed_count; k++) slot_open(worker, worker->claimed[k]);
    worker->claimed_count = 0;
    report(pool, ready);
    reported = ready;
    if (worker->active) read_and_hash(worker);
  }
}

static void *helper(void *opaque) {
  work(opaque);
  return NULL;
}

int md5_pool_run(md5_pool_next next, md5_pool_done done, void *user) {
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
  pool->next = next, pool->done = done, pool->user = user, pool->more = 1;
  for (size_t w = 0; w < WORKERS; w++) {
    pool->workers[w].pool = pool;
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
