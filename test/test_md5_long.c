/* test/test_md5_long.c - MD5 of messages past 2^32 and 2^35 bits: the
 * length enters the padding in bits modulo 2^64 (RFC 1321, 3.2), at every
 * MD5 and MD5_MANY implementation.
 *
 * Streams are set to long lengths with the internal crisp_md5_set_length
 * (so the static library is linked) and checked against known answers
 * everywhere and, with libcrypto, against OpenSSL's MD5_CTX whose bit count
 * (Nl, Nh) is set the same way. Messages that really are that long are
 * hashed natively: past 2^32 bits at the default implementations in every
 * full-scale run, and past 2^32 and 2^35 bits at every implementation with
 * CRISP_TEST_LONG=1 (the md5-long stage of scripts/test.sh). */
#define _GNU_SOURCE                 /* memfd_create */
#define OPENSSL_SUPPRESS_DEPRECATED /* MD5_CTX: its bit count can be set */

#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

#include "md5_internal.h"

#if CRISP_TEST_OPENSSL
#include <openssl/md5.h>
#endif

/* ---- known answers ------------------------------------------------------ */

/* Message lengths before the test's bytes: where a 32-bit bit count, a
 * signed or unsigned 32-bit byte count, or a 64-bit bit count wraps. */
static const uint64_t lengths_before[] = {
    (1ull << 29) - 64, /* the bit count reaches 2^32 inside the test's bytes */
    1ull << 29,        /* 2^32 bits */
    (1ull << 31) - 64, /* a signed 32-bit byte count overflows */
    1ull << 31,        /**/
    (1ull << 32) - 64, /* the byte count reaches 2^32 (2^35 bits) */
    1ull << 32,        /**/
    (1ull << 32) + (1ull << 29),
    0x0123456789abcdc0ull, /* every byte of the count differs */
    (1ull << 61) - 64,     /* the bit count wraps past 2^64 */
    1ull << 61,            /* 2^64 bits count as 0 */
    UINT64_MAX - 63,       /* the byte count itself wraps */
};
enum { BEFORE_COUNT = sizeof lengths_before / sizeof lengths_before[0] };

/* MD5 of lengths_before[i] bytes of message compressed to the initial
 * chaining values, then the first len bytes of known_message(): from
 * OpenSSL with MD5_CTX Nl/Nh set, and the same from a model written from
 * RFC 1321 alone (the 2^61 rows equal the plain MD5 of those bytes). */
static const struct {
  uint64_t before;
  size_t len;
  const char *digest;
} known_answers[] = {
    {0x000000001fffffc0ull, 3, "54e893ab497f24ce98d6832634f046dc"},
    {0x000000001fffffc0ull, 121, "2f00c2bd9d01044f26ddf93ee468acdc"},
    {0x0000000020000000ull, 3, "0cdaa4bbdc238185b94613f271083a7a"},
    {0x0000000020000000ull, 121, "4b2c51b38e1c879764a125b5dfce56ab"},
    {0x000000007fffffc0ull, 3, "6843419ea85f3066776b865b370ceb99"},
    {0x000000007fffffc0ull, 121, "a7310ed2477b8061f475f3669c569231"},
    {0x0000000080000000ull, 3, "198af24d00ac6187388fc57cfd02ec68"},
    {0x0000000080000000ull, 121, "94784a9aec60d746692128a0413ae093"},
    {0x00000000ffffffc0ull, 3, "acd8ec793c9013a5205d4421c50b0650"},
    {0x00000000ffffffc0ull, 121, "e343c2260c15bd4f7df5cbd536f34e95"},
    {0x0000000100000000ull, 3, "6da1e79eaddc04a175817c7e9f1434a7"},
    {0x0000000100000000ull, 121, "1164fad032fb544e051a3df609dd9e19"},
    {0x0000000120000000ull, 3, "83d779b52dad3374fdf9dd7cca164596"},
    {0x0000000120000000ull, 121, "1ba44779be20b7fae505ae9c33dcdbd3"},
    {0x0123456789abcdc0ull, 3, "3a8499b7090ae98aadb9d962bd78db90"},
    {0x0123456789abcdc0ull, 121, "590c8b2b9cee94dc54451588d8ceb39e"},
    {0x1fffffffffffffc0ull, 3, "af208992ca774f190a0b610a18ffc697"},
    {0x1fffffffffffffc0ull, 121, "26623a1654a41a4786b1fc7792697355"},
    {0x2000000000000000ull, 3, "3b704fb2660febf62921a0caaa8de56b"},
    {0x2000000000000000ull, 121, "10aac7fe9e1def45870b0aa1c3a2faf0"},
    {0xffffffffffffffc0ull, 3, "af208992ca774f190a0b610a18ffc697"},
    {0xffffffffffffffc0ull, 121, "26623a1654a41a4786b1fc7792697355"},
};
enum { KNOWN_COUNT = sizeof known_answers / sizeof known_answers[0], KNOWN_MESSAGE = 121 };

/* Byte i is 31 i + 7: 121 bytes pad into two blocks, 3 into one. */
static const uint8_t *known_message(void) {
  static uint8_t message[KNOWN_MESSAGE];
  for (size_t i = 0; i < KNOWN_MESSAGE; i++) message[i] = (uint8_t)(i * 31 + 7);
  return message;
}

/* A stream that has counted before bytes (a multiple of the block size). */
static void start_at(crisp_md5_ctx *ctx, uint64_t before) {
  crisp_md5_init(ctx);
  crisp_md5_set_length(ctx, before);
}

static void test_long_lengths_known_answers(void **state) {
  (void)state;
  /* Every count of the table, each with a one- and a two-block padding. */
  for (size_t b = 0; b < BEFORE_COUNT; b++) {
    size_t rows = 0;
    for (size_t i = 0; i < KNOWN_COUNT; i++) rows += known_answers[i].before == lengths_before[b];
    assert_int_equal(rows, 2);
  }
  const uint8_t *message = known_message();
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t i = 0; i < KNOWN_COUNT; i++) {
      uint8_t digest[16], expected[16];
      test_unhex(known_answers[i].digest, expected, sizeof expected);
      crisp_md5_ctx ctx;
      start_at(&ctx, known_answers[i].before);
      crisp_md5_update(&ctx, message, known_answers[i].len);
      crisp_md5_final(&ctx, digest);
      assert_bytes_equal(digest, expected, 16, "md5 %s: %zu bytes after 0x%llx\n", name, known_answers[i].len,
                         (unsigned long long)known_answers[i].before);
    }
  }
  /* Every row at once in lanes: more lanes busy than any kernel leaves to
   * its scalar code. */
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    crisp_md5_ctx contexts[KNOWN_COUNT];
    crisp_md5_ctx *pointers[KNOWN_COUNT];
    const void *data[KNOWN_COUNT];
    size_t lengths[KNOWN_COUNT];
    for (size_t i = 0; i < KNOWN_COUNT; i++) {
      start_at(&contexts[i], known_answers[i].before);
      pointers[i] = &contexts[i], data[i] = message, lengths[i] = known_answers[i].len;
    }
    crisp_md5_update_many(pointers, data, lengths, KNOWN_COUNT);
    for (size_t i = 0; i < KNOWN_COUNT; i++) {
      uint8_t digest[16], expected[16];
      test_unhex(known_answers[i].digest, expected, sizeof expected);
      crisp_md5_final(&contexts[i], digest);
      assert_bytes_equal(digest, expected, 16, "md5_many %s: update_many, %zu bytes after 0x%llx\n", name,
                         known_answers[i].len, (unsigned long long)known_answers[i].before);
    }
  }
}

/* ---- against OpenSSL ------------------------------------------------------ */

#if CRISP_TEST_OPENSSL

/* OpenSSL's stream with its bit count set to before bytes (mod 2^64 bits). */
static void openssl_start_at(MD5_CTX *ctx, uint64_t before) {
  assert_int_equal(MD5_Init(ctx), 1);
  ctx->Nl = (MD5_LONG)(before << 3);
  ctx->Nh = (MD5_LONG)(before >> 29);
}

/* A length before the test's bytes: a row of the table, or a random
 * multiple of the block size near one. */
static uint64_t random_before(void) {
  const uint64_t base = lengths_before[test_rand_below(BEFORE_COUNT)];
  return test_rand64() % 2 ? base : base + 64 * (test_rand64() % 5) - 128;
}

/* The message's lengths after a long start that cut the padding into one
 * or two blocks, and one that takes the whole-block path. */
static size_t random_after(void) {
  static const size_t edges[] = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129};
  return test_rand64() % 4 ? edges[test_rand_below(sizeof edges / sizeof edges[0])] : test_rand_below(2000);
}

enum { MAX_AFTER = 2000, MANY = 40 };

/* Random starts and pieces, every implementation: the stream's bytes go in
 * as a buffered head (before the counter is set), then random pieces, so
 * the front-end's buffering carries the long count across blocks. */
static void test_long_lengths_stream_vs_openssl(void **state) {
  (void)state;
  uint8_t message[MAX_AFTER];
  test_fill_random(message, sizeof message);
  const size_t trials = test_scaled(300);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t t = 0; t < trials; t++) {
      const uint64_t before = t < BEFORE_COUNT ? lengths_before[t] : random_before();
      const size_t len = random_after(), head = test_rand_below(len < 64 ? len + 1 : 64);
      crisp_md5_ctx ctx;
      MD5_CTX reference;
      crisp_md5_init(&ctx);
      crisp_md5_update(&ctx, message, head);
      crisp_md5_set_length(&ctx, before + head);
      assert_int_equal(MD5_Init(&reference), 1);
      assert_int_equal(MD5_Update(&reference, message, head), 1);
      reference.Nl = (MD5_LONG)((before + head) << 3), reference.Nh = (MD5_LONG)((before + head) >> 29);
      for (size_t done = head; done < len;) {
        const size_t piece = 1 + test_rand_below(len - done);
        crisp_md5_update(&ctx, message + done, piece);
        assert_int_equal(MD5_Update(&reference, message + done, piece), 1);
        done += piece;
      }
      uint8_t digest[16], expected[16];
      crisp_md5_final(&ctx, digest);
      assert_int_equal(MD5_Final(expected, &reference), 1);
      assert_bytes_equal(digest, expected, 16, "md5 %s vs OpenSSL: %zu bytes (head %zu) after 0x%llx\n", name,
                         len, head, (unsigned long long)before);
    }
  }
}

/* Up to MANY streams at random long starts, updated together in one to
 * three crisp_md5_update_many calls, every MD5_MANY implementation. */
static void test_long_lengths_update_many_vs_openssl(void **state) {
  (void)state;
  uint8_t *message = test_alloc(MANY * MAX_AFTER);
  test_fill_random(message, MANY * MAX_AFTER);
  const size_t trials = test_scaled(40);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t t = 0; t < trials; t++) {
      const size_t n = 1 + test_rand_below(MANY), rounds = 1 + test_rand_below(3);
      crisp_md5_ctx contexts[MANY], *pointers[MANY];
      MD5_CTX references[MANY];
      uint64_t before[MANY];
      size_t done[MANY] = {0};
      for (size_t i = 0; i < n; i++) {
        before[i] = random_before();
        start_at(&contexts[i], before[i]);
        openssl_start_at(&references[i], before[i]);
        pointers[i] = &contexts[i];
      }
      for (size_t r = 0; r < rounds; r++) {
        const void *data[MANY];
        size_t lengths[MANY];
        for (size_t i = 0; i < n; i++) {
          lengths[i] = test_rand_below(MAX_AFTER / 3 + 1);
          data[i] = message + i * MAX_AFTER + done[i];
          assert_int_equal(MD5_Update(&references[i], data[i], lengths[i]), 1);
          done[i] += lengths[i];
        }
        crisp_md5_update_many(pointers, data, lengths, n);
      }
      for (size_t i = 0; i < n; i++) {
        uint8_t digest[16], expected[16];
        crisp_md5_final(&contexts[i], digest);
        assert_int_equal(MD5_Final(expected, &references[i]), 1);
        assert_bytes_equal(digest, expected, 16,
                           "md5_many %s vs OpenSSL: update_many stream %zu of %zu, %zu bytes after 0x%llx\n",
                           name, i, n, done[i], (unsigned long long)before[i]);
      }
    }
  }
  free(message);
}

/* ---- messages that are that long -------------------------------------------- */

/* A message of len bytes that costs little memory: one random segment of
 * SEGMENT bytes mapped again and again, then the bytes from the last
 * segment boundary on, random too, in pages of their own. Those differ
 * from the segment's start, so a kernel that reads past 2^32 bytes from a
 * wrapped offset changes the digest, as does one that drops blocks. */
typedef struct long_message {
  uint8_t *bytes;
  size_t mapped;
} long_message;

enum { SEGMENT = 64 << 20, PAGE = 4096 };

static long_message long_message_make(size_t len) {
  const size_t repeated = len / SEGMENT * SEGMENT;
  long_message m = {NULL, repeated + ((len - repeated + PAGE) & ~(size_t)(PAGE - 1))};
  void *base = mmap(NULL, m.mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  assert_true(base != MAP_FAILED);
  m.bytes = base;
  const int fd = memfd_create("md5-long-segment", 0);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, SEGMENT), 0);
  for (size_t offset = 0; offset < repeated; offset += SEGMENT) {
    /* MAP_POPULATE: the page tables filled at once, not fault by fault. */
    const int populate = offset ? MAP_POPULATE : 0;
    void *p =
        mmap(m.bytes + offset, SEGMENT, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | populate, fd, 0);
    assert_true(p == m.bytes + offset);
    if (!offset) test_fill_random(p, SEGMENT);
  }
  close(fd);
  uint8_t *rest = mmap(m.bytes + repeated, m.mapped - repeated, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  assert_true(rest == m.bytes + repeated);
  test_fill_random(rest, m.mapped - repeated);
  return m;
}

static void long_message_free(long_message m) {
  munmap(m.bytes, m.mapped);
}

/* Past 2^32 bits with a two-block padding; past 2^35 bits with one, and
 * whole blocks past the first 2^32 bytes. */
#define PAST_32_BITS (((size_t)1 << 29) + 61)
#define PAST_35_BITS (((size_t)1 << 32) + 4096 + 3)

/* One digest of the long message, computed on a worker thread: by OpenSSL,
 * or through one crisp entry point. A stream job's context was initialised
 * under its implementation's pin (a stream keeps it), so streams of every
 * implementation run side by side; the other entry points use what is in
 * force while the workers run. */
typedef enum { JOB_OPENSSL, JOB_ONE_SHOT, JOB_MANY, JOB_STREAM, JOB_UPDATE_MANY } job_kind;
static const char *const job_entry[] = {"MD5_Update", "crisp_md5", "crisp_md5_many", "crisp_md5_update",
                                        "crisp_md5_update_many"};

typedef struct long_job {
  job_kind kind;
  const char *what;
  crisp_md5_ctx ctx;
  uint8_t digest[16];
} long_job;

typedef struct long_jobs {
  const uint8_t *bytes;
  size_t len;
  long_job *job;
  size_t count;
  _Atomic size_t next;
} long_jobs;

static void run_job(const long_jobs *jobs, long_job *job) {
  const uint8_t *bytes = jobs->bytes;
  size_t len = jobs->len;
  switch (job->kind) {
    case JOB_OPENSSL: {
      MD5_CTX ctx;
      if (MD5_Init(&ctx) != 1 || MD5_Update(&ctx, bytes, len) != 1 || MD5_Final(job->digest, &ctx) != 1)
        memset(job->digest, 0, 16);
      break;
    }
    case JOB_ONE_SHOT:
      crisp_md5(bytes, len, job->digest);
      break;
    case JOB_MANY: {
      /* A short lane beside the long one: the lanes start, the long one
       * finishes alone. */
      const void *data[2] = {bytes, bytes};
      const size_t lengths[2] = {len, 1000};
      uint8_t digests[2][16];
      crisp_md5_many(data, lengths, 2, digests);
      memcpy(job->digest, digests[0], 16);
      break;
    }
    case JOB_STREAM:
      /* A buffered head first, then one update of the rest. */
      crisp_md5_update(&job->ctx, bytes, 5);
      crisp_md5_update(&job->ctx, bytes + 5, len - 5);
      crisp_md5_final(&job->ctx, job->digest);
      break;
    case JOB_UPDATE_MANY: {
      crisp_md5_ctx *pointer = &job->ctx;
      const void *data = bytes;
      crisp_md5_update_many(&pointer, &data, &len, 1);
      crisp_md5_final(&job->ctx, job->digest);
      break;
    }
  }
}

static void *job_worker(void *argument) {
  long_jobs *jobs = argument;
  for (size_t i; (i = atomic_fetch_add(&jobs->next, 1)) < jobs->count;) run_job(jobs, &jobs->job[i]);
  return NULL;
}

enum { WORKERS = 2, MAX_JOBS = 16 };

/* Runs the jobs on WORKERS threads, then checks every digest against the
 * first job's, which is OpenSSL's. Pins stay as they are. */
static void run_and_check(long_jobs *jobs) {
  assert_int_equal(jobs->job[0].kind, JOB_OPENSSL);
  pthread_t threads[WORKERS];
  for (int t = 0; t < WORKERS; t++) assert_int_equal(pthread_create(&threads[t], NULL, job_worker, jobs), 0);
  for (int t = 0; t < WORKERS; t++) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (size_t i = 1; i < jobs->count; i++)
    assert_bytes_equal(jobs->job[i].digest, jobs->job[0].digest, 16, "%s %s vs OpenSSL: %zu bytes\n",
                       job_entry[jobs->job[i].kind], jobs->job[i].what, jobs->len);
}

static void add_job(long_jobs *jobs, job_kind kind, const char *what) {
  assert_true(jobs->count < MAX_JOBS);
  long_job *job = &jobs->job[jobs->count++];
  job->kind = kind, job->what = what;
  if (kind == JOB_STREAM || kind == JOB_UPDATE_MANY) crisp_md5_init(&job->ctx);
}

static int long_runs_enabled(void) {
  const char *env = getenv("CRISP_TEST_LONG");
  return env && *env && strcmp(env, "0") != 0;
}

/* Past 2^32 bits through the one-shot entry points, which count no length
 * a test could set, at the default implementations: natively about a
 * second. Skipped when the trials are scaled down (the emulated and
 * valgrind runs) and when the md5-long stage runs it all. */
static void test_long_message_default(void **state) {
  (void)state;
  if (test_scale() < 1 || long_runs_enabled()) skip();
  long_message m = long_message_make(PAST_32_BITS);
  long_job job[MAX_JOBS];
  long_jobs jobs = {m.bytes, PAST_32_BITS, job, 0, 0};
  add_job(&jobs, JOB_OPENSSL, "OpenSSL");
  add_job(&jobs, JOB_ONE_SHOT, "default");
  add_job(&jobs, JOB_MANY, "default");
  run_and_check(&jobs);
  long_message_free(m);
}

/* Lanes that all carry the long message, so that the lane kernels run it
 * themselves rather than finish it in scalar code. */
static void check_busy_lanes(const long_message *m, size_t len, const uint8_t expected[16],
                             const char *name) {
  enum { LANES = 4 };
  const void *data[LANES] = {m->bytes, m->bytes, m->bytes, m->bytes};
  const size_t lengths[LANES] = {len, len, len, len};
  uint8_t digests[LANES][16];
  crisp_md5_many(data, lengths, LANES, digests);
  for (size_t i = 0; i < LANES; i++)
    assert_bytes_equal(digests[i], expected, 16, "crisp_md5_many %s vs OpenSSL: lane %zu, %zu bytes\n", name,
                       i, len);
}

/* CRISP_TEST_LONG=1: past 2^32 and 2^35 bits, every MD5 implementation
 * (the last one through crisp_md5, pinned while the workers run, the
 * others through streams), crisp_md5_many and crisp_md5_update_many at
 * the default; past 2^32 bits also busy lanes at every MD5_MANY
 * implementation. */
static void test_long_message_every_impl(void **state) {
  (void)state;
  if (!long_runs_enabled()) skip();
  static const size_t lengths[] = {PAST_32_BITS, PAST_35_BITS};
  for (size_t l = 0; l < 2; l++) {
    long_message m = long_message_make(lengths[l]);
    long_job job[MAX_JOBS];
    long_jobs jobs = {m.bytes, lengths[l], job, 0, 0};
    add_job(&jobs, JOB_OPENSSL, "OpenSSL");
    const char *names[MAX_JOBS];
    const size_t count = test_supported_impls(CRISP_KERNEL_MD5, names, MAX_JOBS);
    assert_true(count >= 1);
    for (size_t i = 0; i + 1 < count; i++) {
      test_pin(CRISP_KERNEL_MD5, names[i]);
      add_job(&jobs, JOB_STREAM, names[i]);
    }
    test_unpin_all();
    add_job(&jobs, JOB_MANY, "default");
    add_job(&jobs, JOB_UPDATE_MANY, "default");
    test_pin(CRISP_KERNEL_MD5, names[count - 1]);
    add_job(&jobs, JOB_ONE_SHOT, names[count - 1]);
    run_and_check(&jobs);
    test_unpin_all();
    if (l == 0) {
      const char *name;
      FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) check_busy_lanes(&m, lengths[l], job[0].digest, name);
    }
    long_message_free(m);
  }
}

#endif /* CRISP_TEST_OPENSSL */

int main(void) {
  test_seed(0x6d64356c6f6e67ull);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_teardown(test_long_lengths_known_answers, test_teardown_unpin),
#if CRISP_TEST_OPENSSL
    cmocka_unit_test_teardown(test_long_lengths_stream_vs_openssl, test_teardown_unpin),
    cmocka_unit_test_teardown(test_long_lengths_update_many_vs_openssl, test_teardown_unpin),
    cmocka_unit_test_teardown(test_long_message_default, test_teardown_unpin),
    cmocka_unit_test_teardown(test_long_message_every_impl, test_teardown_unpin),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
