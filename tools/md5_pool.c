/* tools/md5_pool.c - the many-file MD5 engine behind crisp md5sum.
 *
 * Up to POOL_FILES files are open at once. A reader thread fills one chunk
 * per open file into a batch while the calling thread hashes the previous
 * batch with one crisp_md5_update_many call, so the files run in SIMD lanes
 * side by side and the kernel's copying (read) overlaps the hashing: on the
 * 2-core Zen 4 this was written on, read() alone costs about as much CPU
 * time as the 16-lane AVX-512 hashing of the same bytes. Each slot has two
 * buffers, one per batch in flight. Finished files wait in a ring until
 * every file asked for before them is reported, so output keeps the order of
 * the arguments. Without a second thread the same steps run in turn. */
#include "md5_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <crisp/md5.h>

/* 16 files fill the 16 lanes of the AVX-512 kernel (two groups of the AVX2
 * kernel's 8); 32 measured no faster. */
#define POOL_FILES 16
/* One read per 64 KiB file; a multiple of the MD5 block so full chunks leave
 * no partial block behind. 128 KiB measured the same. */
#define READ_SIZE (64 * 1024)
/* Files asked for but not yet reported (finished ones wait behind a slow one). */
#define RING_SIZE 4096

struct entry {
  const char *name;
  void *token;
  int finished;
  int error;
  int opened;
  uint8_t digest[CRISP_MD5_DIGEST_SIZE];
};

/* Reader side of a slot: the open file. */
struct slot {
  int in_use;
  int fd;
  int is_stdin;
  int fresh;           /* no chunk sent yet: the hasher initialises the context */
  uint64_t known_size; /* st_size of a regular file, else 0 (read until EOF) */
  uint64_t total;      /* bytes read so far */
  size_t entry;        /* ring position of this file */
  uint8_t *buffers[2]; /* one per batch parity */
};

/* One file's chunk in a batch. */
struct lane {
  size_t slot, entry;
  const uint8_t *data;
  size_t length;
  int first, last, error;
};

struct batch {
  struct lane lanes[POOL_FILES];
  size_t lane_count;
  size_t tail; /* ring entries up to here are admitted */
  int end;     /* the last batch */
  int ready;   /* filled, not yet consumed */
};

struct pool {
  /* Reader side. */
  md5_pool_next next;
  void *user;
  struct slot slots[POOL_FILES];
  size_t active, tail, head_seen;
  int stdin_busy, more, held;
  const char *held_name;
  void *held_token;
  /* Hasher side. */
  md5_pool_done done;
  crisp_md5_ctx contexts[POOL_FILES];
  size_t head;
  /* Shared: ring entries are handed over with the batches. */
  struct entry ring[RING_SIZE];
  struct batch batches[2];
  pthread_mutex_t lock;
  pthread_cond_t changed;
  uint8_t *memory;
};

/* Opens a file into a free slot; returns 0, or the errno of open(). */
static int slot_open(struct pool *pool, const char *name, size_t entry) {
  struct slot *slot = NULL;
  for (size_t i = 0; i < POOL_FILES && !slot; i++)
    if (!pool->slots[i].in_use) slot = &pool->slots[i];
  const int is_stdin = !strcmp(name, "-");
  const int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat info;
  slot->known_size = 0;
  if (!is_stdin && fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) slot->known_size = (uint64_t)info.st_size;
  slot->in_use = 1, slot->fd = fd, slot->is_stdin = is_stdin, slot->fresh = 1;
  slot->total = 0, slot->entry = entry;
  pool->active++;
  if (is_stdin) pool->stdin_busy = 1;
  return 0;
}

/* Admits files in argument order while a slot and a ring entry are free;
 * standard input is read by one slot at a time. */
static void admit(struct pool *pool) {
  while (pool->active < POOL_FILES && pool->tail - pool->head_seen < RING_SIZE) {
    if (!pool->held && !(pool->more = pool->more && pool->next(pool->user, &pool->held_name, &pool->held_token)))
      return;
    pool->held = 1;
    if (pool->stdin_busy && !strcmp(pool->held_name, "-")) return;
    struct entry *entry = &pool->ring[pool->tail % RING_SIZE];
    *entry = (struct entry){.name = pool->held_name, .token = pool->held_token};
    const int error = slot_open(pool, pool->held_name, pool->tail);
    if (error) entry->finished = 1, entry->error = error;
    pool->tail++;
    pool->held = 0;
  }
}

/* Reads the slot's next chunk into a lane. A regular file whose known size
 * has been read counts as ended without one more read() returning 0; a file
 * reporting size 0 (like /proc files) is read until EOF. */
static void slot_read(struct pool *pool, struct slot *slot, struct lane *lane, int parity) {
  uint8_t *buffer = slot->buffers[parity];
  *lane = (struct lane){.slot = (size_t)(slot - pool->slots), .entry = slot->entry, .data = buffer, .first = slot->fresh};
  slot->fresh = 0;
  while (lane->length < READ_SIZE && !lane->last) {
    const ssize_t got = read(slot->fd, buffer + lane->length, READ_SIZE - lane->length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) lane->error = errno;
    if (got <= 0) {
      lane->last = 1;
      break;
    }
    lane->length += (size_t)got;
    slot->total += (uint64_t)got;
    if (slot->known_size && slot->total >= slot->known_size) lane->last = 1;
  }
  if (!lane->last) return;
  if (slot->is_stdin) pool->stdin_busy = 0;
  else close(slot->fd);
  slot->in_use = 0;
  pool->active--;
}

/* Reader: admits files and reads one chunk of every open file. */
static void fill(struct pool *pool, struct batch *batch, int parity) {
  admit(pool);
  batch->lane_count = 0;
  for (size_t i = 0; i < POOL_FILES; i++)
    if (pool->slots[i].in_use) slot_read(pool, &pool->slots[i], &batch->lanes[batch->lane_count++], parity);
  batch->tail = pool->tail;
  batch->end = !pool->active && !pool->held && !pool->more;
}

/* Hasher: one many-lanes update for the whole batch, then the files that
 * ended are finalised and everything finished in order is reported. */
static void consume(struct pool *pool, const struct batch *batch) {
  crisp_md5_ctx *contexts[POOL_FILES];
  const void *data[POOL_FILES];
  size_t lengths[POOL_FILES];
  size_t count = 0;
  for (size_t i = 0; i < batch->lane_count; i++) {
    const struct lane *lane = &batch->lanes[i];
    if (lane->first) crisp_md5_init(&pool->contexts[lane->slot]);
    if (lane->error || !lane->length) continue;
    contexts[count] = &pool->contexts[lane->slot], data[count] = lane->data, lengths[count] = lane->length;
    count++;
  }
  if (count) crisp_md5_update_many(contexts, data, lengths, count);
  for (size_t i = 0; i < batch->lane_count; i++) {
    const struct lane *lane = &batch->lanes[i];
    if (!lane->last) continue;
    struct entry *entry = &pool->ring[lane->entry % RING_SIZE];
    if (lane->error) entry->error = lane->error;
    else crisp_md5_final(&pool->contexts[lane->slot], entry->digest);
    entry->opened = 1;
    entry->finished = 1;
  }
  while (pool->head != batch->tail && pool->ring[pool->head % RING_SIZE].finished) {
    const struct entry *entry = &pool->ring[pool->head % RING_SIZE];
    pool->done(pool->user, entry->token, entry->name, entry->error ? NULL : entry->digest, entry->error,
               entry->opened);
    pool->head++;
  }
}

static void *reader(void *opaque) {
  struct pool *pool = opaque;
  for (size_t k = 0;; k++) {
    struct batch *batch = &pool->batches[k % 2];
    pthread_mutex_lock(&pool->lock);
    while (batch->ready) pthread_cond_wait(&pool->changed, &pool->lock);
    pool->head_seen = pool->head;
    pthread_mutex_unlock(&pool->lock);
    fill(pool, batch, (int)(k % 2));
    pthread_mutex_lock(&pool->lock);
    batch->ready = 1;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    if (batch->end) return NULL;
  }
}

static void hash_batches(struct pool *pool) {
  for (size_t k = 0;; k++) {
    struct batch *batch = &pool->batches[k % 2];
    pthread_mutex_lock(&pool->lock);
    while (!batch->ready) pthread_cond_wait(&pool->changed, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    consume(pool, batch);
    const int end = batch->end;
    pthread_mutex_lock(&pool->lock);
    batch->ready = 0;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    if (end) return;
  }
}

int md5_pool_run(md5_pool_next next, md5_pool_done done, void *user) {
  struct pool *pool = calloc(1, sizeof *pool);
  uint8_t *memory = pool ? aligned_alloc(64, (size_t)2 * POOL_FILES * READ_SIZE) : NULL;
  if (!memory) {
    free(pool);
    errno = ENOMEM;
    return -1;
  }
  pool->next = next, pool->done = done, pool->user = user, pool->more = 1, pool->memory = memory;
  for (size_t i = 0; i < POOL_FILES; i++)
    for (int parity = 0; parity < 2; parity++)
      pool->slots[i].buffers[parity] = memory + (2 * i + (size_t)parity) * READ_SIZE;
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->changed, NULL);
  pthread_t thread;
  if (pthread_create(&thread, NULL, reader, pool) == 0) {
    hash_batches(pool);
    pthread_join(thread, NULL);
  } else {
    /* No second thread: read, then hash, in turn. */
    for (int end = 0; !end;) {
      pool->head_seen = pool->head;
      fill(pool, &pool->batches[0], 0);
      consume(pool, &pool->batches[0]);
      end = pool->batches[0].end;
    }
  }
  pthread_cond_destroy(&pool->changed);
  pthread_mutex_destroy(&pool->lock);
  free(memory);
  free(pool);
  return 0;
}
