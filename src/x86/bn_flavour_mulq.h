/* src/x86/bn_flavour_mulq.h - binds the shared bignum algorithms to the
 * baseline MULQ rows of bn_rows_scalar.S; included by the bn_*_scalar.c files. */
#ifndef CRISP_SRC_X86_BN_FLAVOUR_MULQ_H
#define CRISP_SRC_X86_BN_FLAVOUR_MULQ_H

#define CRISP_ROW_MUL crisp_bn_mul_row_x86_64
#define CRISP_ROW_MUL_BASECASE crisp_bn_mul_basecase_x86_64
#define CRISP_ROW_SQR_TRIANGLE crisp_bn_sqr_triangle_x86_64
#define CRISP_ROW_REDC crisp_bn_redc_rows_x86_64
/* the MULQ diagonal is slower, so Karatsuba squaring pays from 32 limbs */
#define CRISP_KARATSUBA_SQR_MIN 32
#include "x86/bn_algorithms_x86.h"
#include "x86/bn_kernels_x86.h"

#endif
