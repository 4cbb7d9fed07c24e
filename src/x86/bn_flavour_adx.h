/* src/x86/bn_flavour_adx.h - binds the shared bignum algorithms to the
 * MULX + ADCX/ADOX rows (BMI2, ADX); included by the *_x86_64_adx.c files,
 * which are built with the bmi2_adx flag set. */
#ifndef CRISP_SRC_X86_BN_FLAVOUR_ADX_H
#define CRISP_SRC_X86_BN_FLAVOUR_ADX_H

#define CRISP_ROW_ADDMUL crisp_row_addmul_adx
#define CRISP_ROW_MUL crisp_row_mul_adx
#define CRISP_ROW_SQR_DIAGONAL crisp_row_sqr_diagonal_adx
#define CRISP_ROW_ADD3 crisp_row_add3_adx
#define CRISP_ROW_MUL_BASECASE crisp_row_mul_basecase_adx
#define CRISP_ROW_SQR_TRIANGLE crisp_row_sqr_triangle_adx
#define CRISP_ROW_SQR_TRIANGLE8 crisp_row_sqr_triangle8_adx
#define CRISP_ROW_SQR_TRIANGLE16 crisp_row_sqr_triangle16_adx
#include "x86/bn_algorithms_x86_64.h"
#include "x86/bn_x86_64.h"

#endif
