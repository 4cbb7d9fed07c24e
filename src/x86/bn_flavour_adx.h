/* src/x86/bn_flavour_adx.h - binds the shared bignum algorithms to the
 * MULX + ADCX/ADOX rows of bn_rows_adx.S (BMI2, ADX); included by
 * the bn_*_adx.c files. */
#ifndef CRISP_SRC_X86_BN_FLAVOUR_ADX_H
#define CRISP_SRC_X86_BN_FLAVOUR_ADX_H

#define CRISP_ROW_MUL crisp_bn_mul_row_x86_64_adx
#define CRISP_ROW_MUL_BASECASE crisp_bn_mul_basecase_x86_64_adx
#define CRISP_ROW_MUL_WINDOW crisp_bn_mul_window_x86_64_adx
#define CRISP_ROW_SQR_TRIANGLE_WINDOW crisp_bn_sqr_triangle_window_x86_64_adx
#define CRISP_ROW_SQR_TRIANGLE crisp_bn_sqr_triangle_x86_64_adx
#define CRISP_ROW_REDC crisp_bn_redc_rows_x86_64_adx
#define CRISP_ROW_SQR_DIAGONAL crisp_bn_sqr_diagonal_x86_64_adx
#define CRISP_ROW_SQR8 crisp_bn_sqr8_x86_64_adx
#define CRISP_ROW_SQR_TRIANGLE16 crisp_bn_sqr_triangle16_x86_64_adx
#define CRISP_ROW_ADD3 crisp_bn_add3_x86_64_adx
#define CRISP_ROW_ADD2_NOT crisp_bn_add2_not_x86_64_adx
#define CRISP_ROW_KARATSUBA_FOLD crisp_bn_karatsuba_fold_x86_64_adx
#define CRISP_ROW_KARATSUBA_FOLD_SQUARE crisp_bn_karatsuba_fold_square_x86_64_adx
#define CRISP_ROW_NEGATE_IF crisp_bn_negate_if_x86_64_adx
#include "x86/bn_algorithms_x86.h"
#include "x86/bn_kernels_x86.h"

#endif
