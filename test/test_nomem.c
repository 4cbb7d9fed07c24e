/* test/test_nomem.c - allocation failure on every path that allocates: this
 * program defines malloc and its relatives (so the library, linked in
 * statically, calls them), and while a call is armed the k-th allocation
 * inside it fails. For k = 1, 2, ... until a call runs with no failure, it
 * checks that a failed call returns CRISP_E_NOMEM and leaves its output as
 * it was, and that the call that runs clean gives the right answer. Every
 * crisp_bn_mod_exp implementation (each mont_mul, whose mod_exp may be its
 * own) is driven this way, at sizes each one handles, and so are
 * crisp_bn_mod_exp2, crisp_bn_mod_exp_crt and the prepared CRT key on every
 * bn_mod_exp2 implementation. The blocks allocated while a call is armed
 * are followed to their free: a call leaves none behind, and the prepared
 * key and the scratch are zeros when freed. */
#include <stdint.h>
#include <stdlib.h>

#include "common.h"

/* ---- the allocator ----------------------------------------------------- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *old, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static int armed;             /* count allocations only between arm() and disarm() */
static unsigned long seen;    /* allocations while armed */
static unsigned long fail_at; /* which one fails (1-based); 0: none */
static int failed;            /* one did */

/* The blocks allocated while armed and not yet freed; those freed with a
 * nonzero byte are counted (a block freed holding secrets was not wiped). */
enum { TRACKED = 64 };
static struct {
  void *pointer;
  size_t size;
} tracked[TRACKED];
static size_t live, untracked, freed_unwiped;

static void *track(void *pointer, size_t size) {
  if (!armed || !pointer) return pointer;
  if (live == TRACKED) {
    untracked++;
    return pointer;
  }
  tracked[live].pointer = pointer, tracked[live++].size = size;
  return pointer;
}

static void untrack(void *pointer, int check) {
  for (size_t i = 0; i < live; i++) {
    if (tracked[i].pointer != pointer) continue;
    const unsigned char *bytes = pointer;
    unsigned char any = 0;
    for (size_t j = 0; j < tracked[i].size; j++) any |= bytes[j];
    freed_unwiped += check && any != 0;
    tracked[i] = tracked[--live];
    return;
  }
}

/* 1 when this allocation is to fail. */
static int allocation_fails(void) {
  if (!armed) return 0;
  seen++;
  if (seen == fail_at) {
    failed = 1;
    return 1;
  }
  return 0;
}

void *malloc(size_t size) {
  return allocation_fails() ? NULL : track(__libc_malloc(size), size);
}
void *calloc(size_t count, size_t size) {
  return allocation_fails() ? NULL : track(__libc_calloc(count, size), count * size);
}
void *realloc(void *old, size_t size) {
  if (allocation_fails()) return NULL;
  if (old) untrack(old, 0); /* moved away from: not checked */
  return track(__libc_realloc(old, size), size);
}
void free(void *pointer) {
  if (pointer) untrack(pointer, 1);
  __libc_free(pointer);
}
void *aligned_alloc(size_t alignment, size_t size) {
  return allocation_fails() ? NULL : track(__libc_memalign(alignment, size), size);
}
void *memalign(size_t alignment, size_t size) {
  return allocation_fails() ? NULL : track(__libc_memalign(alignment, size), size);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  if (allocation_fails()) return 12; /* ENOMEM */
  void *p = __libc_memalign(alignment, size);
  if (!p) return 12;
  *out = track(p, size);
  return 0;
}

static void arm(unsigned long which) {
  seen = 0, fail_at = which, failed = 0;
  armed = 1;
}

static void disarm(void) {
  armed = 0;
}

/* ---- the checks -------------------------------------------------------- */

#define MAX_LIMBS 128
#define POISON 0xa5a5a5a5a5a5a5a5ull

/* Sizes where the kernels differ (the IFMA code takes some, not others),
 * and past 64 limbs, where only the generic ladder's table is allocated;
 * emulated runs (test_scaled below 1) stop at 64. */
static const size_t sizes[] = {1, 2, 8, 16, 17, 24, 32, 40, 48, 64, 65, 128};
static size_t sizes_run(void) {
  return test_scaled(4) < 4 ? sizeof sizes / sizeof sizes[0] - 2 : sizeof sizes / sizeof sizes[0];
}

static void make_operands(crisp_limb *m, crisp_limb *base, crisp_limb *exp, size_t n, size_t en) {
  test_fill_random(m, n * sizeof(crisp_limb));
  m[0] |= 1;
  m[n - 1] |= (crisp_limb)1 << 63;
  test_fill_random(base, n * sizeof(crisp_limb));
  base[n - 1] %= m[n - 1];
  test_fill_random(exp, en * sizeof(crisp_limb));
  exp[en - 1] |= 1;
}

/* 1 when the malloc calls reach this file's (valgrind, for one, replaces
 * malloc in the program too). */
static int allocator_is_ours(void) {
  void *(*volatile allocate)(size_t) = malloc;
  arm(1);
  void *p = allocate(16);
  disarm();
  __libc_free(p);
  return p == NULL;
}

static void test_mod_exp_nomem(void **state) {
  (void)state;
  if (!allocator_is_ours()) {
    printf("# malloc here is not this program's (valgrind?): allocation failures cannot be injected\n");
    skip();
  }
  size_t paths_failed = 0;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
    if (crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK)
      assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    for (size_t s = 0; s < sizes_run(); s++) {
      for (size_t en = 1; en <= 3; en += 2) {
        const size_t n = sizes[s];
        crisp_limb m[MAX_LIMBS], base[MAX_LIMBS], exp[MAX_LIMBS], expected[MAX_LIMBS], r[MAX_LIMBS];
        make_operands(m, base, exp, n, en);
        /* The answer, computed with no failure armed. */
        assert_int_equal(crisp_bn_mod_exp(expected, base, exp, en, m, n), CRISP_OK);
        for (unsigned long k = 1;; k++) {
          for (size_t i = 0; i < MAX_LIMBS; i++) r[i] = POISON;
          arm(k);
          const int status = crisp_bn_mod_exp(r, base, exp, en, m, n);
          disarm();
          if (!failed) {
            assert_int_equal(status, CRISP_OK);
            if (memcmp(r, expected, n * sizeof(crisp_limb)) != 0)
              fail_msg("mod_exp %s n=%zu en=%zu: wrong after %lu allocations", name, n, en, seen);
            break;
          }
          paths_failed++;
          if (status != CRISP_E_NOMEM)
            fail_msg("mod_exp %s n=%zu en=%zu: allocation %lu failed, status %d (%s), expected CRISP_E_NOMEM",
                     name, n, en, k, status, crisp_strerror(status));
          for (size_t i = 0; i < MAX_LIMBS; i++)
            if (r[i] != POISON)
              fail_msg("mod_exp %s n=%zu en=%zu: allocation %lu failed, but r[%zu] was written", name, n, en,
                       k, i);
          assert_true(k < 100);
        }
      }
    }
  }
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
  /* Every implementation's mod_exp allocates; had none, nothing was tested. */
  printf("# %zu failed allocations injected\n", paths_failed);
  assert_true(paths_failed > 0);
}

/* Arms failure k = 1, 2, ... around call() until it runs clean: a failed
 * call returns CRISP_E_NOMEM with out (count limbs) untouched, the clean
 * one matches expected and frees its blocks wiped, and neither leaves a
 * block allocated. Returns the number of failures injected. */
static size_t drive(int (*call)(crisp_limb *out, const void *context), const void *context, crisp_limb *out,
                    size_t count, const crisp_limb *expected, const char *what) {
  size_t injected = 0;
  for (unsigned long k = 1;; k++) {
    for (size_t i = 0; i < count; i++) out[i] = POISON;
    const size_t unwiped = freed_unwiped, allocated = live;
    arm(k);
    const int status = call(out, context);
    disarm();
    if (live != allocated)
      fail_msg("%s: allocation %lu failing: %zu blocks left allocated", what, k, live - allocated);
    if (!failed) {
      assert_int_equal(status, CRISP_OK);
      if (memcmp(out, expected, count * sizeof(crisp_limb)) != 0) fail_msg("%s: wrong with no failure", what);
      /* a block a failed call frees may hold the allocator's own words */
      if (freed_unwiped != unwiped) fail_msg("%s: a block was freed without a wipe", what);
      return injected;
    }
    injected++;
    if (status != CRISP_E_NOMEM)
      fail_msg("%s: allocation %lu failed, status %d, expected CRISP_E_NOMEM", what, k, status);
    for (size_t i = 0; i < count; i++)
      if (out[i] != POISON)
        fail_msg("%s: allocation %lu failed, but output limb %zu was written", what, k, i);
    assert_true(k < 100);
  }
}

typedef struct exp2_case {
  const crisp_limb *m0, *m1, *b0, *b1, *e0, *e1;
  size_t n, en;
} exp2_case;

/* r0 and r1 side by side in out (2n limbs). */
static int call_mod_exp2(crisp_limb *out, const void *context) {
  const exp2_case *c = context;
  return crisp_bn_mod_exp2(out, out + c->n, c->b0, c->b1, c->e0, c->e1, c->en, c->m0, c->m1, c->n);
}

typedef struct crt_case {
  const crisp_limb *c, *p, *q, *dp, *dq, *qinv, *e;
  size_t half;
} crt_case;

/* A "key" of a random odd p and its partner q = p - 2 (not primes),
 * without e: the result is still fixed. */
static int call_crt(crisp_limb *out, const void *context) {
  const crt_case *k = context;
  return crisp_bn_mod_exp_crt(out, k->c, k->p, k->q, k->dp, k->dq, k->qinv, k->half, NULL, 0);
}

/* With the fault check: dp = dq = e = 1, so that r = c passes it and the
 * check's own allocations run. */
static int call_crt_with_check(crisp_limb *out, const void *context) {
  const crt_case *k = context;
  return crisp_bn_mod_exp_crt(out, k->c, k->p, k->q, k->dp, k->dq, k->qinv, k->half, k->e, 1);
}

/* The prepared key's operation on k's key and c (e as k has it). */
typedef struct key_case {
  const crisp_bn_crt_key *key;
  const crisp_limb *c;
} key_case;

static int call_key_exp(crisp_limb *out, const void *context) {
  const key_case *k = context;
  return crisp_bn_crt_key_exp(out, k->c, k->key);
}

/* crisp_bn_crt_key_new on k's key (e as k has it) with allocation 1, 2, ...
 * failing until it runs clean: CRISP_E_NOMEM, *key NULL and no block left
 * allocated, at least for the key's block and the scratch's; then the key,
 * its block the one left and the scratch freed wiped. */
static crisp_bn_crt_key *drive_key_new(const crt_case *k, size_t *injected, const char *what) {
  for (unsigned long which = 1;; which++) {
    crisp_bn_crt_key *key = (crisp_bn_crt_key *)&key; /* not NULL before */
    const size_t unwiped = freed_unwiped, allocated = live;
    arm(which);
    const int status =
        crisp_bn_crt_key_new(&key, k->p, k->q, k->dp, k->dq, k->qinv, k->half, k->e, k->e ? 1 : 0);
    disarm();
    if (!failed) {
      assert_int_equal(status, CRISP_OK);
      if (!key || live != allocated + 1)
        fail_msg("%s: key_new gave %p with %zu blocks allocated", what, (void *)key, live - allocated);
      if (which < 3)
        fail_msg("%s: key_new made %lu allocations, not the key's and the scratch's", what, which - 1);
      if (freed_unwiped != unwiped) fail_msg("%s: key_new freed a block without a wipe", what);
      return key;
    }
    ++*injected;
    if (status != CRISP_E_NOMEM || key)
      fail_msg("%s: key_new, allocation %lu failing: status %d, *key %p", what, which, status, (void *)key);
    if (live != allocated)
      fail_msg("%s: key_new, allocation %lu failing: %zu blocks left allocated", what, which,
               live - allocated);
    assert_true(which < 100);
  }
}

/* The key's operation allocates as the one-call form does (its scratch,
 * then the implementation's), each allocation failing in turn (drive);
 * then crisp_bn_crt_key_free wipes the key's block. Returns the failures
 * injected. */
static size_t drive_key(const crt_case *k, size_t crt_failures, crisp_limb *out, const crisp_limb *expected,
                        const char *what) {
  size_t injected = 0;
  crisp_bn_crt_key *key = drive_key_new(k, &injected, what);
  const key_case prepared = {key, k->c};
  const size_t exp_failures = drive(call_key_exp, &prepared, out, 2 * k->half, expected, what);
  if (exp_failures != crt_failures)
    fail_msg("%s: key_exp met %zu allocation failures, the one-call form %zu", what, exp_failures,
             crt_failures);
  const size_t unwiped = freed_unwiped, allocated = live;
  crisp_bn_crt_key_free(key);
  if (live != allocated - 1) fail_msg("%s: the key's block was not followed to its free", what);
  if (freed_unwiped != unwiped) fail_msg("%s: key_free freed the key without a wipe", what);
  return injected + exp_failures;
}

/* A key prepared under another bn_mod_exp2 implementation than the one
 * pinned: its operation must allocate as the pinned one's one-call form
 * does (bn.h: each call runs on the implementations active when it is
 * made, not those of the key's making; the implementations allocate
 * differently). Returns the failures injected. */
static size_t drive_key_elsewhere(const crt_case *k, size_t crt_failures, crisp_limb *out,
                                  const crisp_limb *expected, const char *pinned, const char *what) {
  const char *names[8], *other = NULL;
  const size_t count = test_supported_impls(CRISP_KERNEL_BN_MOD_EXP2, names, 8);
  for (size_t i = 0; i < count && !other; i++)
    if (strcmp(names[i], pinned)) other = names[i];
  if (!other) return 0;
  crisp_bn_crt_key *key = NULL;
  test_pin(CRISP_KERNEL_BN_MOD_EXP2, other);
  assert_int_equal(crisp_bn_crt_key_new(&key, k->p, k->q, k->dp, k->dq, k->qinv, k->half, k->e, k->e ? 1 : 0),
                   CRISP_OK);
  test_pin(CRISP_KERNEL_BN_MOD_EXP2, pinned);
  const key_case prepared = {key, k->c};
  const size_t failures = drive(call_key_exp, &prepared, out, 2 * k->half, expected, what);
  if (failures != crt_failures)
    fail_msg("%s: a key prepared under %s met %zu allocation failures, the one-call form %zu", what, other,
             failures, crt_failures);
  crisp_bn_crt_key_free(key);
  return failures;
}

/* crisp_bn_mod_exp2, crisp_bn_mod_exp_crt and the prepared key on every
 * bn_mod_exp2 implementation (the IFMA one allocates its own tables,
 * generic through the single exponentiations). */
static void test_mod_exp2_crt_nomem(void **state) {
  (void)state;
  if (!allocator_is_ours()) skip();
  size_t injected = 0;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    static const size_t exp2_sizes[] = {2, 16, 24, 32};
    for (size_t s = 0; s < sizeof exp2_sizes / sizeof exp2_sizes[0]; s++) {
      const size_t n = exp2_sizes[s];
      crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_LIMBS], e1[MAX_LIMBS];
      crisp_limb expected[2 * MAX_LIMBS], out[2 * MAX_LIMBS];
      make_operands(m0, b0, e0, n, 2);
      make_operands(m1, b1, e1, n, 2);
      const exp2_case c = {m0, m1, b0, b1, e0, e1, n, 2};
      assert_int_equal(call_mod_exp2(expected, &c), CRISP_OK);
      char what[64];
      snprintf(what, sizeof what, "mod_exp2 %s n=%zu", name, n);
      injected += drive(call_mod_exp2, &c, out, 2 * n, expected, what);
    }
    /* the two-lane kernels' halves (16, 24, 32 limbs), emulated runs the
     * smaller two only */
    static const size_t halves[] = {2, 16, 24, 32};
    const size_t halves_run = test_scaled(4) < 4 ? 2 : sizeof halves / sizeof halves[0];
    for (size_t s = 0; s < halves_run; s++) {
      const size_t h = halves[s];
      crisp_limb p[MAX_LIMBS], q[MAX_LIMBS], dp[MAX_LIMBS], dq[MAX_LIMBS], qinv[MAX_LIMBS], c[2 * MAX_LIMBS];
      crisp_limb expected[2 * MAX_LIMBS], out[2 * MAX_LIMBS];
      make_operands(p, c, dp, h, h);
      make_operands(q, c, dq, h, h);
      test_crt_partner(q, qinv, p, h);
      test_fill_random(c, 2 * h * sizeof(crisp_limb));
      c[2 * h - 1] >>= 2; /* below p q, whose top bits are set */
      const crt_case k = {c, p, q, dp, dq, qinv, NULL, h};
      assert_int_equal(call_crt(expected, &k), CRISP_OK);
      char what[64];
      snprintf(what, sizeof what, "mod_exp_crt %s half=%zu", name, h);
      size_t failures = drive(call_crt, &k, out, 2 * h, expected, what);
      snprintf(what, sizeof what, "crt key %s half=%zu", name, h);
      injected += failures + drive_key(&k, failures, out, expected, what);
      injected += drive_key_elsewhere(&k, failures, out, expected, name, what);
      crisp_limb one[MAX_LIMBS] = {1};
      memset(c + h - 1, 0, (h + 1) * sizeof(crisp_limb)); /* below p q, so r = c */
      const crt_case checked = {c, p, q, one, one, qinv, one, h};
      assert_int_equal(call_crt_with_check(expected, &checked), CRISP_OK);
      assert_memory_equal(expected, c, 2 * h * sizeof(crisp_limb));
      snprintf(what, sizeof what, "mod_exp_crt checked %s half=%zu", name, h);
      failures = drive(call_crt_with_check, &checked, out, 2 * h, expected, what);
      snprintf(what, sizeof what, "crt key checked %s half=%zu", name, h);
      injected += failures + drive_key(&checked, failures, out, expected, what);
      injected += drive_key_elsewhere(&checked, failures, out, expected, name, what);
    }
  }
  printf("# %zu failed allocations injected\n", injected);
  assert_true(injected > 0);
  assert_int_equal(untracked, 0); /* every block was followed */
}

/* bn.h's order for the CRT: scratch memory comes before the checks of the
 * key's values, which run in it. A bad key (an even p, c >= p q, a wrong
 * qinv) gives CRISP_E_NOMEM when an allocation fails, r untouched, and its
 * own status when none does; every bn_mod_exp2 implementation. So for the
 * prepared key: crisp_bn_crt_key_new for a bad key (and its second
 * allocation, the scratch, fails too), crisp_bn_crt_key_exp for c. */
static void test_crt_nomem_before_key_checks(void **state) {
  (void)state;
  if (!allocator_is_ours()) skip();
  enum { H = 16 };
  crisp_limb p[H], q[H], dp[H], dq[H], qinv[H], c[2 * H], out[2 * H];
  make_operands(p, c, dp, H, H);
  make_operands(q, c, dq, H, H);
  test_crt_partner(q, qinv, p, H);
  test_fill_random(c, sizeof c);
  c[2 * H - 1] >>= 2; /* below p q, whose top bits are set */
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    for (int bad = 0; bad < 3; bad++) {
      crisp_limb even_p[H], high_c[2 * H], wrong_qinv[H];
      memcpy(even_p, p, sizeof p), memcpy(high_c, c, sizeof c), memcpy(wrong_qinv, qinv, sizeof qinv);
      even_p[0] &= ~(crisp_limb)1;
      memset(high_c, 0xff, sizeof high_c);
      wrong_qinv[0] ^= 2;
      const crt_case k = {
          bad == 1 ? high_c : c, bad == 0 ? even_p : p, q, dp, dq, bad == 2 ? wrong_qinv : qinv, NULL, H};
      const int own = bad == 1 ? CRISP_E_RANGE : CRISP_E_INVALID;
      for (unsigned long which = 0; which <= 2; which++) {
        for (size_t i = 0; i < 2 * H; i++) out[i] = POISON;
        arm(which);
        const int status = call_crt(out, &k);
        disarm();
        if (which == 1 && !failed) fail_msg("mod_exp_crt %s allocates nothing for a bad key", name);
        const int expected = failed ? CRISP_E_NOMEM : own;
        if (status != expected)
          fail_msg("mod_exp_crt %s, bad key %d, allocation %lu failing: status %d, expected %d", name, bad,
                   which, status, expected);
        for (size_t i = 0; i < 2 * H; i++)
          if (out[i] != POISON) fail_msg("mod_exp_crt %s, bad key %d: output limb %zu written", name, bad, i);
        /* the prepared key: its block and its scratch both come before the
         * key's checks, the scratch before c's */
        crisp_bn_crt_key *key = NULL;
        for (size_t i = 0; i < 2 * H; i++) out[i] = POISON;
        if (bad == 1) {
          assert_int_equal(crisp_bn_crt_key_new(&key, p, q, dp, dq, qinv, H, NULL, 0), CRISP_OK);
          arm(which);
          const int exp_status = crisp_bn_crt_key_exp(out, high_c, key);
          disarm();
          crisp_bn_crt_key_free(key);
          if (exp_status != (failed ? CRISP_E_NOMEM : own))
            fail_msg("crt key %s, c too high, allocation %lu failing: status %d", name, which, exp_status);
          for (size_t i = 0; i < 2 * H; i++)
            if (out[i] != POISON) fail_msg("crt key %s, c too high: output limb %zu written", name, i);
          continue;
        }
        key = (crisp_bn_crt_key *)&key;
        const size_t allocated = live;
        arm(which);
        const int new_status = crisp_bn_crt_key_new(&key, k.p, q, dp, dq, k.qinv, H, NULL, 0);
        disarm();
        if (new_status != (failed ? CRISP_E_NOMEM : own) || key || live != allocated)
          fail_msg("crt_key_new %s, bad key %d, allocation %lu failing: status %d, *key %p, %zu blocks left",
                   name, bad, which, new_status, (void *)key, live - allocated);
      }
    }
  }
}

/* The calls that promise not to allocate do not. */
static void test_no_allocation_elsewhere(void **state) {
  (void)state;
  if (!allocator_is_ours()) skip();
  uint8_t data[1000], digest[16], tag[16], key[32] = {1}, digests[4][16];
  test_fill_random(data, sizeof data);
  crisp_limb a[MAX_LIMBS], b[MAX_LIMBS], m[MAX_LIMBS], r[2 * MAX_LIMBS], exp[1];
  make_operands(m, a, exp, 32, 1);
  make_operands(m, b, exp, 32, 1);
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);
  const void *messages[4] = {data, data + 1, data + 2, data + 3};
  const size_t lengths[4] = {999, 500, 64, 0};
  arm(1);
  crisp_md5(data, sizeof data, digest);
  crisp_md5_many(messages, lengths, 4, digests);
  crisp_poly1305(tag, data, sizeof data, key);
  crisp_bn_mul(r, a, 32, b, 32);
  crisp_bn_sqr(r, a, 32);
  crisp_bn_mont_mul(r, a, b, m, 32, minv);
  crisp_bn_mont_sqr(r, a, m, 32, minv);
  crisp_bn_mont_r2(r, m, 32);
  disarm();
  assert_int_equal(seen, 0);
}

int main(void) {
  test_seed(0x6e6f6d656dull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_mod_exp_nomem, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_crt_nomem, test_teardown_unpin),
      cmocka_unit_test_teardown(test_crt_nomem_before_key_checks, test_teardown_unpin),
      cmocka_unit_test(test_no_allocation_elsewhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
