/* src/bn.c - the bignum front-ends: argument checks, copies where the caller
 * aliases what a kernel may not, and calls through the implementation
 * tables. crisp_bn_mod_exp lives in bn_mod_exp.c. */
#include "crisp/bn.h"

#include "bn_internal.h"
#include "dispatch/select.h"
#include "scrub_depths.h"
#include "util.h"

#define LIMB_BYTES sizeof(crisp_limb)
/* Longest array whose byte size still fits a size_t. */
#define MAX_LIMBS (SIZE_MAX / LIMB_BYTES / 2)

static int limbs_overlap(const crisp_limb *a, size_t an, const crisp_limb *b, size_t bn) {
  return crisp_overlaps(a, an * LIMB_BYTES, b, bn * LIMB_BYTES);
}

/* The work of crisp_bn_mul, crisp_bn_sqr and crisp_bn_mul_add, each also
 * writing *scrub, how much stack its public call overwrites after it
 * (src/scrub_depths.h): by the implementation that ran and the size, or
 * none where that implementation leaves nothing of the values on the
 * stack (clean_below) and was chosen before the call. The call that
 * chooses it runs the CPU probe with the arguments kept in its frames,
 * and scrubs. An error leaves the deepest depth of the size's class. */
static __attribute__((noinline)) int bn_mul(crisp_limb *z, const crisp_limb *x, size_t xn,
                                            const crisp_limb *y, size_t yn, size_t *scrub) {
  const size_t shorter = xn < yn ? xn : yn;
  *scrub = CRISP_SCRUB_BN_MUL_BYTES(shorter, 1);
  if (!z || !x || !y || !xn || !yn) return CRISP_E_INVALID;
  if (xn > MAX_LIMBS || yn > MAX_LIMBS) return CRISP_E_RANGE;
  if (limbs_overlap(z, xn + yn, x, xn) || limbs_overlap(z, xn + yn, y, yn)) return CRISP_E_INVALID;
  const crisp_impl_info *chosen = crisp_chosen(CRISP_KERNEL_BN_MUL);
  const crisp_bn_mul_impl *impl = chosen ? crisp_impl_as_bn_mul(chosen) : crisp_active_bn_mul();
  impl->mul(z, x, xn, y, yn);
  *scrub = chosen && shorter < impl->clean_below
               ? 0
               : CRISP_SCRUB_BN_MUL_BYTES(shorter, impl->info.level == CRISP_LEVEL_GENERIC);
  return CRISP_OK;
}

static __attribute__((noinline)) int bn_sqr(crisp_limb *z, const crisp_limb *x, size_t n, size_t *scrub) {
  *scrub = CRISP_SCRUB_BN_SQR_BYTES(n, 1);
  if (!z || !x || !n) return CRISP_E_INVALID;
  if (n > MAX_LIMBS) return CRISP_E_RANGE;
  if (limbs_overlap(z, 2 * n, x, n)) return CRISP_E_INVALID;
  const crisp_impl_info *chosen = crisp_chosen(CRISP_KERNEL_BN_SQR);
  const crisp_bn_sqr_impl *impl = chosen ? crisp_impl_as_bn_sqr(chosen) : crisp_active_bn_sqr();
  impl->sqr(z, x, n);
  *scrub = chosen && n < impl->clean_below
               ? 0
               : CRISP_SCRUB_BN_SQR_BYTES(n, impl->info.level == CRISP_LEVEL_GENERIC);
  return CRISP_OK;
}

/* The multiply-add on the call that chooses its implementation. */
static __attribute__((noinline)) crisp_limb mul_add_first(crisp_limb *z, const crisp_limb *x, size_t n,
                                                          crisp_limb k) {
  return crisp_active_bn_mul_add()->mul_add(z, x, n, k);
}

/* k, the multiplier, may be secret, and a compiler may keep a value in
 * the frame across a call (gcc -Os does): so once it is read, the only
 * call made is the kernel's, after which it is dead, and the first use is
 * a call of its own, whose frame the full scrub covers. */
static __attribute__((noinline)) int bn_mul_add(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                                crisp_limb *carry, size_t *scrub) {
  *scrub = CRISP_SCRUB_BN_MUL_ADD_BYTES;
  if (!z || !x || !n || !carry) return CRISP_E_INVALID;
  if (n > MAX_LIMBS) return CRISP_E_RANGE;
  /* x == z works limb by limb; a shifted overlap would read written limbs. */
  if (x != z && limbs_overlap(z, n, x, n)) return CRISP_E_INVALID;
  const crisp_impl_info *chosen = crisp_chosen(CRISP_KERNEL_BN_MUL_ADD);
  if (!chosen) {
    *carry = mul_add_first(z, x, n, k);
    return CRISP_OK;
  }
  const crisp_bn_mul_add_impl *impl = crisp_impl_as_bn_mul_add(chosen);
  *carry = impl->mul_add(z, x, n, k);
  *scrub = n < impl->clean_below ? 0 : CRISP_SCRUB_BN_MUL_ADD_BYTES;
  return CRISP_OK;
}

crisp_limb crisp_bn_mont_inv(crisp_limb m0) {
  if (!(m0 & 1)) return 0;
  /* Newton's iteration x <- x(2 - m0 x) doubles the correct low bits; an
   * odd m0 is its own inverse mod 8, so five steps reach 96 >= 64 bits. */
  crisp_limb x = m0;
  for (int i = 0; i < 5; i++) x *= 2 - m0 * x;
  return 0 - x;
}

/* Checks a modulus: CRISP_OK, or the error code for it. */
static int check_modulus(const crisp_limb *m, size_t n) {
  if (!m || !n) return CRISP_E_INVALID;
  if (n > CRISP_BN_MONT_MAX_LIMBS) return CRISP_E_RANGE;
  if (!(m[0] & 1) || !m[n - 1]) return CRISP_E_INVALID;
  return CRISP_OK;
}

void crisp_bn_mont_r2_unchecked(crisp_limb *r2, const crisp_limb *m, size_t n, crisp_limb minv,
                                const crisp_bn_mont_sqr_impl *sqr, crisp_limb *work) {
  crisp_limb *const x = work, *const t = work + n;
  /* Start below m: 2^(64(n-1)) for n > 1 (m exceeds it: m is odd and its top
   * limb nonzero), 1 mod m for n == 1. 80 doublings give 2^16 R mod m, the
   * Montgomery form of 2^16; then square, and multiply by 2^16 (16 more
   * doublings) where a bit is set, along the bits of 4n: that builds the
   * Montgomery form of 2^(16 * 4n), which is R^2 mod m. Starting at 2^16
   * rather than 2 costs 15 more doublings and saves four squares. */
  enum { START_BITS = 16 };
  memset(x, 0, n * LIMB_BYTES);
  if (n > 1)
    x[n - 1] = 1;
  else
    x[0] = m[0] != 1;
  for (int i = 0; i < 64 + START_BITS; i++) bn_double_mod(x, m, n, t);
  const size_t exponent = 64 / START_BITS * n;
  int bit = 0;
  while (exponent >> (bit + 1)) bit++;
  for (bit--; bit >= 0; bit--) {
    sqr->mont_sqr(t, x, m, n, minv);
    memcpy(x, t, n * LIMB_BYTES);
    if ((exponent >> bit) & 1)
      for (int i = 0; i < START_BITS; i++) bn_double_mod(x, m, n, t);
  }
  memcpy(r2, x, n * LIMB_BYTES);
}

static __attribute__((noinline)) int bn_mont_r2(crisp_limb *r2, const crisp_limb *m, size_t n) {
  const int status = check_modulus(m, n);
  if (status != CRISP_OK) return status;
  if (!r2) return CRISP_E_INVALID;
  if (limbs_overlap(r2, n, m, n)) return CRISP_E_INVALID;
  crisp_limb work[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_mont_r2_unchecked(r2, m, n, crisp_bn_mont_inv(m[0]), crisp_active_bn_mont_sqr(), work);
  crisp_wipe(work, 2 * n * LIMB_BYTES);
  return CRISP_OK;
}

/* The checks mont_mul and mont_sqr share, whether r overlaps an operand,
 * and minv back (in registers: the struct is returned in two). A call of
 * its own: the range check reads the secret operands, and inlined, a
 * compiler may keep a limb of them in a callee-saved register across the
 * kernel call, which the kernel then saves in its frame. minv, which comes
 * from a modulus that may be secret, goes through the call and back
 * instead of being kept across it: kept, a compiler puts it in a
 * callee-saved register, which the kernel saves in its frame too. So the
 * front-ends make no call between this one and the kernel's, but where
 * they choose the implementation (and scrub): the overlap test is here,
 * since gcc -Os calls it out of line. b may equal a. */
typedef struct mont_check {
  crisp_limb minv;
  int status;
  int aliased; /* r overlaps a or b: the kernel runs on copies */
} mont_check;

static __attribute__((noinline)) mont_check check_mont_operands(const crisp_limb *r, const crisp_limb *a,
                                                                const crisp_limb *b, const crisp_limb *m,
                                                                size_t n, crisp_limb minv) {
  mont_check verdict = {minv, check_modulus(m, n), 0};
  if (verdict.status != CRISP_OK) return verdict;
  verdict.status = CRISP_E_INVALID;
  if (!r || !a || !b) return verdict;
  if (m[0] * minv != ~(crisp_limb)0) return verdict;
  if (limbs_overlap(r, n, m, n)) return verdict;
  verdict.aliased = limbs_overlap(r, n, a, n) || limbs_overlap(r, n, b, n);
  /* Both comparisons always run, so the time does not tell which failed;
   * a square (b == a, public pointers) needs one. */
  const crisp_limb in_range = b == a ? bn_less_than(a, m, n) : bn_both_less_than(a, b, m, n);
  verdict.status = in_range ? CRISP_OK : CRISP_E_RANGE;
  return verdict;
}

/* The kernel on copies of the operands r overlaps (kernels want r apart
 * from their inputs). Out of line: only this path pays for the copies'
 * frame, which the public call's scrub then covers (CRISP_SCRUB_BN_ALIAS_BYTES). */
static __attribute__((noinline)) void mont_mul_copied(const crisp_bn_mont_mul_impl *impl, crisp_limb *r,
                                                      const crisp_limb *a, const crisp_limb *b,
                                                      const crisp_limb *m, size_t n, crisp_limb minv) {
  crisp_limb copy_a[CRISP_BN_MONT_MAX_LIMBS], copy_b[CRISP_BN_MONT_MAX_LIMBS];
  const int alias_a = limbs_overlap(r, n, a, n), alias_b = limbs_overlap(r, n, b, n);
  if (alias_a) memcpy(copy_a, a, n * LIMB_BYTES);
  if (alias_b) memcpy(copy_b, b, n * LIMB_BYTES);
  impl->mont_mul(r, alias_a ? copy_a : a, alias_b ? copy_b : b, m, n, minv);
  if (alias_a) crisp_wipe(copy_a, n * LIMB_BYTES);
  if (alias_b) crisp_wipe(copy_b, n * LIMB_BYTES);
}

static __attribute__((noinline)) void mont_sqr_copied(const crisp_bn_mont_sqr_impl *impl, crisp_limb *r,
                                                      const crisp_limb *a, const crisp_limb *m, size_t n,
                                                      crisp_limb minv) {
  crisp_limb copy_a[CRISP_BN_MONT_MAX_LIMBS];
  memcpy(copy_a, a, n * LIMB_BYTES);
  impl->mont_sqr(r, copy_a, m, n, minv);
  crisp_wipe(copy_a, n * LIMB_BYTES);
}

/* The depth a Montgomery call scrubs after its kernel: none where the
 * implementation that ran leaves the stack clean at n (clean_sizes), was
 * chosen before the call and the operands were not copied; the copies'
 * frame more where they were. */
static size_t mont_scrub_depth(const crisp_impl_info *chosen, const crisp_impl_info *ran,
                               uint64_t clean_sizes, size_t n, int aliased) {
  const size_t depth = CRISP_SCRUB_BN_MONT_BYTES(n, ran->level == CRISP_LEVEL_GENERIC);
  if (aliased) return depth + CRISP_SCRUB_BN_ALIAS_BYTES;
  return chosen && n < 64 && (clean_sizes >> n & 1) ? 0 : depth;
}

/* The Montgomery work functions write *scrub as the products' do
 * (mont_scrub_depth). minv may be secret (the modulus of a caller's CRT):
 * it comes back from the check and goes to the kernel with no call
 * between (check_mont_operands), and test_wipe, with secret moduli, sees
 * any copy a compiler leaves. */
static __attribute__((noinline)) int bn_mont_mul(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                                 const crisp_limb *m, size_t n, crisp_limb minv,
                                                 size_t *scrub) {
  *scrub = CRISP_SCRUB_BN_MONT_BYTES(n, 1) + CRISP_SCRUB_BN_ALIAS_BYTES;
  const mont_check checked = check_mont_operands(r, a, b, m, n, minv);
  if (checked.status != CRISP_OK) return checked.status;
  minv = checked.minv;
  const crisp_impl_info *chosen = crisp_chosen(CRISP_KERNEL_BN_MONT_MUL);
  const crisp_bn_mont_mul_impl *impl =
      chosen ? crisp_impl_as_bn_mont_mul(chosen) : crisp_active_bn_mont_mul();
  if (checked.aliased)
    mont_mul_copied(impl, r, a, b, m, n, minv);
  else
    impl->mont_mul(r, a, b, m, n, minv);
  *scrub = mont_scrub_depth(chosen, &impl->info, impl->clean_sizes, n, checked.aliased);
  return CRISP_OK;
}

static __attribute__((noinline)) int bn_mont_sqr(crisp_limb *r, const crisp_limb *a, const crisp_limb *m,
                                                 size_t n, crisp_limb minv, size_t *scrub) {
  *scrub = CRISP_SCRUB_BN_MONT_BYTES(n, 1) + CRISP_SCRUB_BN_ALIAS_BYTES;
  const mont_check checked = check_mont_operands(r, a, a, m, n, minv);
  if (checked.status != CRISP_OK) return checked.status;
  minv = checked.minv;
  const crisp_impl_info *chosen = crisp_chosen(CRISP_KERNEL_BN_MONT_SQR);
  const crisp_bn_mont_sqr_impl *impl =
      chosen ? crisp_impl_as_bn_mont_sqr(chosen) : crisp_active_bn_mont_sqr();
  if (checked.aliased)
    mont_sqr_copied(impl, r, a, m, n, minv);
  else
    impl->mont_sqr(r, a, m, n, minv);
  *scrub = mont_scrub_depth(chosen, &impl->info, impl->clean_sizes, n, checked.aliased);
  return CRISP_OK;
}

/* The public calls: the work above as a call of its own, then the stack it
 * used overwritten (src/scrub_depths.h). */
int crisp_bn_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  size_t scrub;
  const int status = bn_mul(z, x, xn, y, yn, &scrub);
  if (scrub) crisp_scrub_below(scrub);
  return status;
}

int crisp_bn_sqr(crisp_limb *z, const crisp_limb *x, size_t n) {
  size_t scrub;
  const int status = bn_sqr(z, x, n, &scrub);
  if (scrub) crisp_scrub_below(scrub);
  return status;
}

int crisp_bn_mul_add(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k, crisp_limb *carry) {
  size_t scrub;
  const int status = bn_mul_add(z, x, n, k, carry, &scrub);
  if (scrub) crisp_scrub_below(scrub);
  return status;
}

int crisp_bn_mont_r2(crisp_limb *r2, const crisp_limb *m, size_t n) {
  const int status = bn_mont_r2(r2, m, n);
  crisp_scrub_below(CRISP_SCRUB_BN_R2_BYTES(n));
  return status;
}

int crisp_bn_mont_mul(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m, size_t n,
                      crisp_limb minv) {
  size_t scrub;
  const int status = bn_mont_mul(r, a, b, m, n, minv, &scrub);
  if (scrub) crisp_scrub_below(scrub);
  return status;
}

int crisp_bn_mont_sqr(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n, crisp_limb minv) {
  size_t scrub;
  const int status = bn_mont_sqr(r, a, m, n, minv, &scrub);
  if (scrub) crisp_scrub_below(scrub);
  return status;
}
