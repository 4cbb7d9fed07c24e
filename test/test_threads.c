/* test/test_threads.c - concurrent first use: 16 threads make their first
 * crisp calls at the same instant (no crisp call happens before), each
 * starting with a different function, and must all see the same
 * implementations and correct results. A second test hashes,
 * exponentiates, seals and opens while other threads move the level cap
 * and the pins, so every front-end load races a store, and a one-shot
 * AEAD call whose path were chosen by one implementation and run by
 * another would write past a frame (ASan in the sanitize stage) or give a
 * wrong result. A third shares one prepared CRT key among threads. Built with -fsanitize=thread in the
 * test command's tsan stage, where any data race fails the run. */
#include <pthread.h>
#include <sched.h>

#include "common.h"

enum { THREADS = 16, FIRST_CALLS = 6 };

/* RFC 1321 A.5 "abc" and RFC 8439 2.5.2. */
static const uint8_t abc_md5[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                    0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
static const uint8_t rfc_key[32] = {0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52,
                                    0xfe, 0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d,
                                    0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};
static const char rfc_message[] = "Cryptographic Forum Research Group";
static const uint8_t rfc_tag[16] = {0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6,
                                    0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9};

#define LIMBS 8

/* Fixed operands: a modulus (odd, top limb set), values below it. */
static crisp_limb modulus[LIMBS], x[LIMBS], y[LIMBS], exponent[2];

static void make_operands(void) {
  test_fill_random(modulus, sizeof modulus);
  modulus[0] |= 1;
  modulus[LIMBS - 1] |= (crisp_limb)1 << 63;
  test_fill_random(x, sizeof x);
  test_fill_random(y, sizeof y);
  x[LIMBS - 1] >>= 1;
  y[LIMBS - 1] >>= 1;
  test_fill_random(exponent, sizeof exponent);
}

/* Everything one thread saw. */
typedef struct thread_result {
  const char *impl[CRISP_KERNEL_COUNT];
  const char *level;
  uint8_t md5[16], md5_many[3][16], tag[16];
  int verify;
  crisp_limb product[2 * LIMBS], square[2 * LIMBS], mul_add[LIMBS + 1], mont[LIMBS], power[LIMBS];
} thread_result;

typedef struct thread_job {
  pthread_barrier_t *barrier;
  int index;
  thread_result result;
} thread_job;

static void do_md5(thread_result *r) {
  crisp_md5("abc", 3, r->md5);
  const void *data[3] = {"abc", "", rfc_message};
  const size_t len[3] = {3, 0, sizeof rfc_message - 1};
  crisp_md5_many(data, len, 3, r->md5_many);
}

static void do_poly1305(thread_result *r) {
  crisp_poly1305_ctx ctx;
  crisp_poly1305_init(&ctx, rfc_key);
  crisp_poly1305_update(&ctx, rfc_message, 5);
  crisp_poly1305_update(&ctx, rfc_message + 5, sizeof rfc_message - 1 - 5);
  crisp_poly1305_final(&ctx, r->tag);
  r->verify = crisp_poly1305_verify(rfc_tag, rfc_message, sizeof rfc_message - 1, rfc_key);
}

static void do_products(thread_result *r) {
  crisp_bn_mul(r->product, x, LIMBS, y, LIMBS);
  crisp_bn_sqr(r->square, x, LIMBS);
  memcpy(r->mul_add, y, LIMBS * sizeof(crisp_limb));
  crisp_bn_mul_add(r->mul_add, x, LIMBS, 0xfedcba9876543210ull, &r->mul_add[LIMBS]);
}

static void do_montgomery(thread_result *r) {
  crisp_bn_mont_mul(r->mont, x, y, modulus, LIMBS, crisp_bn_mont_inv(modulus[0]));
  crisp_bn_mod_exp(r->power, x, exponent, 2, modulus, LIMBS);
}

static void do_names(thread_result *r) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) r->impl[k] = crisp_impl_name((crisp_kernel)k);
  r->level = crisp_level();
}

static void do_introspection(thread_result *r) {
  (void)r;
  (void)crisp_cpu_features();
  (void)crisp_dispatch_reason();
  (void)crisp_impl_supported_at(CRISP_KERNEL_POLY1305, 0);
}

typedef void (*step_fn)(thread_result *);
static const step_fn steps[FIRST_CALLS] = {do_md5,        do_poly1305, do_products,
                                           do_montgomery, do_names,    do_introspection};

static void *first_use_thread(void *arg) {
  thread_job *job = arg;
  pthread_barrier_wait(job->barrier);
  /* Thread i begins with step i mod 6, so every kind of first call races. */
  for (int s = 0; s < FIRST_CALLS; s++) steps[(job->index + s) % FIRST_CALLS](&job->result);
  return NULL;
}

/* The expected results, computed after the threads with generic pinned. */
static void expected_results(thread_result *e) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) test_pin((crisp_kernel)k, "generic");
  memset(e, 0, sizeof *e);
  do_md5(e);
  do_poly1305(e);
  do_products(e);
  do_montgomery(e);
  test_unpin_all();
}

static void test_concurrent_first_use(void **state) {
  (void)state;
  static thread_job jobs[THREADS];
  pthread_t threads[THREADS];
  pthread_barrier_t barrier;
  assert_int_equal(pthread_barrier_init(&barrier, NULL, THREADS), 0);
  for (int i = 0; i < THREADS; i++) {
    jobs[i].barrier = &barrier;
    jobs[i].index = i;
    assert_int_equal(pthread_create(&threads[i], NULL, first_use_thread, &jobs[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(threads[i], NULL), 0);
  pthread_barrier_destroy(&barrier);

  thread_result expected;
  expected_results(&expected);
  assert_memory_equal(expected.md5, abc_md5, 16);
  assert_memory_equal(expected.tag, rfc_tag, 16);
  for (int i = 0; i < THREADS; i++) {
    const thread_result *r = &jobs[i].result;
    for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
      assert_non_null(r->impl[k]);
      if (strcmp(r->impl[k], crisp_impl_name((crisp_kernel)k)) != 0)
        fail_msg("thread %d saw %s for %s, main sees %s", i, r->impl[k], crisp_kernel_name((crisp_kernel)k),
                 crisp_impl_name((crisp_kernel)k));
    }
    assert_string_equal(r->level, crisp_level());
    assert_bytes_equal(r->md5, expected.md5, 16, "thread %d md5\n", i);
    assert_bytes_equal(r->md5_many[0], expected.md5_many[0], sizeof r->md5_many, "thread %d md5_many\n", i);
    assert_bytes_equal(r->tag, expected.tag, 16, "thread %d poly1305\n", i);
    assert_int_equal(r->verify, CRISP_OK);
    assert_memory_equal(r->product, expected.product, sizeof r->product);
    assert_memory_equal(r->square, expected.square, sizeof r->square);
    assert_memory_equal(r->mul_add, expected.mul_add, sizeof r->mul_add);
    assert_memory_equal(r->mont, expected.mont, sizeof r->mont);
    assert_memory_equal(r->power, expected.power, sizeof r->power);
  }
}

/* ---- use while the selection changes --------------------------------- */

enum { WORKERS = 6, CHANGERS = 2, ROUNDS = 200 };

static thread_result reference;
static _Atomic int workers_done, changers_started;

/* The one-shot AEAD at lengths on both sides of the crossovers that choose
 * a call's path and frames: the fused open's limits, the Poly1305 vector
 * path's (which differs by implementation: a frame sized for one
 * implementation's MAC must not run another's), the keyed entry's and the
 * long path's; with 0, 20 or 40 bytes of AD. The reference is generic's. */
static const size_t aead_lengths[] = {0, 16, 64, 255, 256, 300, 600, 1024, 1100, 2048, 2100, 5000};
enum { AEAD_LENGTHS = sizeof aead_lengths / sizeof aead_lengths[0], AEAD_MAX = 5000, AEAD_AD = 40 };
static uint8_t aead_pt[AEAD_MAX], aead_ad[AEAD_AD], aead_key[32], aead_nonce[12];
static uint8_t aead_ct[AEAD_LENGTHS][AEAD_MAX], aead_tag[AEAD_LENGTHS][16];

static size_t aead_ad_len(size_t i) {
  return i % 3 * 20;
}

/* Seals and opens every length; the results that differ from the
 * reference. ct and pt are AEAD_MAX bytes. */
static int aead_failures(uint8_t *ct, uint8_t *pt) {
  int failures = 0;
  for (size_t i = 0; i < AEAD_LENGTHS; i++) {
    const size_t len = aead_lengths[i], ad_len = aead_ad_len(i);
    uint8_t tag[16];
    failures += crisp_chacha20_poly1305_seal(ct, tag, aead_pt, len, aead_ad, ad_len, aead_nonce, aead_key) !=
                    CRISP_OK ||
                memcmp(ct, aead_ct[i], len) != 0 || memcmp(tag, aead_tag[i], 16) != 0;
    failures += crisp_chacha20_poly1305_open(pt, aead_ct[i], len, aead_tag[i], aead_ad, ad_len, aead_nonce,
                                             aead_key) != CRISP_OK ||
                memcmp(pt, aead_pt, len) != 0;
  }
  return failures;
}

static void *worker_thread(void *arg) {
  int *failures = arg;
  uint8_t *const ct = malloc(AEAD_MAX), *const pt = malloc(AEAD_MAX);
  /* every round races the changes: none starts before both changers have
   * made theirs */
  while (changers_started < CHANGERS) sched_yield();
  for (int round = 0; round < ROUNDS; round++) {
    if (ct && pt) *failures += aead_failures(ct, pt);
    thread_result r;
    memset(&r, 0, sizeof r);
    do_md5(&r);
    do_poly1305(&r);
    do_products(&r);
    if (round % 8 == 0)
      do_montgomery(&r);
    else
      memcpy(r.mont, reference.mont, sizeof r.mont), memcpy(r.power, reference.power, sizeof r.power);
    *failures += memcmp(r.md5, reference.md5, 16) != 0;
    *failures += memcmp(r.md5_many, reference.md5_many, sizeof r.md5_many) != 0;
    *failures += memcmp(r.tag, reference.tag, 16) != 0 || r.verify != CRISP_OK;
    *failures += memcmp(r.product, reference.product, sizeof r.product) != 0;
    *failures += memcmp(r.square, reference.square, sizeof r.square) != 0;
    *failures += memcmp(r.mul_add, reference.mul_add, sizeof r.mul_add) != 0;
    *failures += memcmp(r.mont, reference.mont, sizeof r.mont) != 0;
    *failures += memcmp(r.power, reference.power, sizeof r.power) != 0;
  }
  *failures += !ct || !pt;
  free(ct);
  free(pt);
  workers_done++;
  return NULL;
}

/* Moves the level cap through every level this CPU has, or pins and
 * unpins each kernel in turn, until the workers finish. */
static void *changer_thread(void *arg) {
  const int pins = *(int *)arg;
  char levels[128];
  snprintf(levels, sizeof levels, "%s", crisp_levels());
  for (unsigned step = 0; workers_done < WORKERS; step++) {
    if (step == 1) changers_started++;
    if (pins) {
      const crisp_kernel kernel = (crisp_kernel)(step % CRISP_KERNEL_COUNT);
      crisp_use_impl(kernel, step / CRISP_KERNEL_COUNT % 2 ? NULL : "generic");
    } else {
      char *save = NULL, copy[128];
      memcpy(copy, levels, sizeof copy);
      for (char *level = strtok_r(copy, " ", &save); level; level = strtok_r(NULL, " ", &save))
        crisp_force(level); /* CRISP_E_UNSUPPORTED above this CPU: nothing changes */
      crisp_force(NULL);
    }
  }
  return NULL;
}

/* WORKERS threads of worker (each given its failures[i]) beside the two
 * changers, one moving the level cap and one the pins, joined. */
static void run_while_changing(void *(*worker)(void *), int failures[WORKERS]) {
  pthread_t workers[WORKERS], changers[CHANGERS];
  int kinds[CHANGERS] = {0, 1};
  workers_done = changers_started = 0;
  for (int i = 0; i < WORKERS; i++)
    assert_int_equal(pthread_create(&workers[i], NULL, worker, &failures[i]), 0);
  for (int i = 0; i < CHANGERS; i++)
    assert_int_equal(pthread_create(&changers[i], NULL, changer_thread, &kinds[i]), 0);
  for (int i = 0; i < WORKERS; i++) assert_int_equal(pthread_join(workers[i], NULL), 0);
  for (int i = 0; i < CHANGERS; i++) assert_int_equal(pthread_join(changers[i], NULL), 0);
}

static void test_use_while_changing(void **state) {
  (void)state;
  expected_results(&reference);
  test_fill_random(aead_pt, sizeof aead_pt);
  test_fill_random(aead_ad, sizeof aead_ad);
  test_fill_random(aead_key, sizeof aead_key);
  test_fill_random(aead_nonce, sizeof aead_nonce);
  test_pin(CRISP_KERNEL_CHACHA20, "generic");
  test_pin(CRISP_KERNEL_POLY1305, "generic");
  for (size_t i = 0; i < AEAD_LENGTHS; i++)
    assert_int_equal(crisp_chacha20_poly1305_seal(aead_ct[i], aead_tag[i], aead_pt, aead_lengths[i], aead_ad,
                                                  aead_ad_len(i), aead_nonce, aead_key),
                     CRISP_OK);
  test_unpin_all();
  int failures[WORKERS] = {0};
  run_while_changing(worker_thread, failures);
  for (int i = 0; i < WORKERS; i++)
    if (failures[i]) fail_msg("worker %d: %d wrong results while the selection changed", i, failures[i]);
}

/* One prepared CRT key shared by the workers while the changers move the
 * selection: the header promises the key is read-only after
 * crisp_bn_crt_key_new, so threads may share it (a data race fails the
 * tsan stage), and each call's result must be the one-call form's. The
 * key is no RSA key (q = p - 2, no e): the operation is defined for any
 * odd coprime halves. */
enum { CRT_INPUTS = 4, CRT_ROUNDS = 6 };
static crisp_bn_crt_key *shared_key;
static crisp_limb crt_c[CRT_INPUTS][2 * LIMBS], crt_want[CRT_INPUTS][2 * LIMBS];

static void *crt_key_thread(void *arg) {
  int *failures = arg;
  while (changers_started < CHANGERS) sched_yield();
  for (int round = 0; round < CRT_ROUNDS; round++)
    for (int i = 0; i < CRT_INPUTS; i++) {
      crisp_limb r[2 * LIMBS];
      *failures +=
          crisp_bn_crt_key_exp(r, crt_c[i], shared_key) != CRISP_OK || memcmp(r, crt_want[i], sizeof r) != 0;
    }
  workers_done++;
  return NULL;
}

static void test_shared_crt_key(void **state) {
  (void)state;
  crisp_limb q[LIMBS], qinv[LIMBS], dp[LIMBS], dq[LIMBS];
  test_crt_partner(q, qinv, modulus, LIMBS);
  test_fill_random(dp, sizeof dp);
  test_fill_random(dq, sizeof dq);
  test_fill_random(crt_c, sizeof crt_c);
  for (int i = 0; i < CRT_INPUTS; i++) {
    crt_c[i][2 * LIMBS - 1] >>= 2; /* below p q, whose top bit is set */
    assert_int_equal(crisp_bn_mod_exp_crt(crt_want[i], crt_c[i], modulus, q, dp, dq, qinv, LIMBS, NULL, 0),
                     CRISP_OK);
  }
  assert_int_equal(crisp_bn_crt_key_new(&shared_key, modulus, q, dp, dq, qinv, LIMBS, NULL, 0), CRISP_OK);
  int failures[WORKERS] = {0};
  run_while_changing(crt_key_thread, failures);
  crisp_bn_crt_key_free(shared_key);
  for (int i = 0; i < WORKERS; i++)
    if (failures[i]) fail_msg("worker %d: %d wrong results from the shared CRT key", i, failures[i]);
}

int main(void) {
  test_seed(0x746872656164ull);
  make_operands(); /* no crisp call before the first test's barrier */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_concurrent_first_use, test_teardown_unpin),
      cmocka_unit_test_teardown(test_use_while_changing, test_teardown_unpin),
      cmocka_unit_test_teardown(test_shared_crt_key, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
