/* src/x86/bn_sqr_x86_64_adx.c - z = x^2 on 64-bit limbs, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64. Its own routine, not a product: every cross product
 * x[i] x[j] (i < j) once in adx rows, the sum doubled by shifting, the
 * squares x[i]^2 added on the diagonal; Karatsuba squaring (three half-size
 * squares) from CRISP_KARATSUBA_SQR_MIN to CRISP_KARATSUBA_MAX limbs.
 * Meant for 512- to 16384-bit operands.
 * The rows of the triangle run in one assembly loop, and the doubling and
 * the diagonal in one pass with two carry chains.
 * Measured on AMD Zen 5 (Turin, virtualised), best of 60 interleaved runs:
 * 1024-bit 176, 2048-bit 572, 4096-bit 1899 TSC ticks (GMP 6.2.1 mpn_sqr:
 * 162, 605, 1951 -> 0.92x, 1.06x, 1.03x, run to run 0.92-1.02x at 1024;
 * before the fused rows and diagonal: 216, 882, 3112 -> 0.70x, 0.67x, 0.60x). */
#define CRISP_ROW_ADDMUL crisp_row_addmul_adx
#define CRISP_ROW_MUL crisp_row_mul_adx
#define CRISP_ROW_SQR_DIAGONAL crisp_row_sqr_diagonal_adx
#define CRISP_ROW_ADD3 crisp_row_add3_adx
#define CRISP_ROW_MUL_BASECASE crisp_row_mul_basecase_adx
#define CRISP_ROW_SQR_TRIANGLE crisp_row_sqr_triangle_adx
#include "x86/bn_algorithms_x86_64.h"
#include "x86/bn_x86_64.h"

void crisp_bn_sqr_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n) { crisp_bn_sqr_any(z, x, n); }

const crisp_bn_sqr_impl crisp_bn_sqr_x86_64_adx_impl = {
    {CRISP_KERNEL_BN_SQR, "x86_64-adx", CRISP_LEVEL_X86_64, CRISP_CPU_BMI2 | CRISP_CPU_ADX},
    crisp_bn_sqr_x86_64_adx,
};
