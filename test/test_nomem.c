/* test/test_nomem.c - allocation failure on every path that allocates: this
 * program defines malloc and its relatives (so the library, linked in
 * statically, calls them), and while a call is armed the k-th allocation
 * inside it fails. For k = 1, 2, ... until a call runs with no failure, it
 * checks that a failed call returns CRISP_E_NOMEM and leaves its output as
 * it was, and that the call that runs clean gives the right answer. Every
 * crisp_bn_mod_exp implementation (each mont_mul, whose mod_exp may be its
 * own) is driven this way, at sizes each one handles. */
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
  return allocation_fails() ? NULL : __libc_malloc(size);
}
void *calloc(size_t count, size_t size) {
  return allocation_fails() ? NULL : __libc_calloc(count, size);
}
void *realloc(void *old, size_t size) {
  return allocation_fails() ? NULL : __libc_realloc(old, size);
}
void free(void *pointer) {
  __libc_free(pointer);
}
void *aligned_alloc(size_t alignment, size_t size) {
  return allocation_fails() ? NULL : __libc_memalign(alignment, size);
}
void *memalign(size_t alignment, size_t size) {
  return allocation_fails() ? NULL : __libc_memalign(alignment, size);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  if (allocation_fails()) return 12; /* ENOMEM */
  void *p = __libc_memalign(alignment, size);
  if (!p) return 12;
  *out = p;
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

#define MAX_LIMBS 64
#define POISON 0xa5a5a5a5a5a5a5a5ull

/* Sizes where the kernels differ (the IFMA code takes some, not others). */
static const size_t sizes[] = {1, 2, 8, 16, 17, 24, 32, 40, 48, 64};

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
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
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
      cmocka_unit_test(test_no_allocation_elsewhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
