/* src/x86/bn_flavour_mulq.h - binds the shared bignum algorithms to the
 * baseline MULQ rows; included by the *_x86_64.c files. */
#ifndef CRISP_SRC_X86_BN_FLAVOUR_MULQ_H
#define CRISP_SRC_X86_BN_FLAVOUR_MULQ_H

#define CRISP_ROW_ADDMUL crisp_row_addmul_mulq
#define CRISP_ROW_MUL crisp_row_mul_mulq
/* the MULQ diagonal is slower, so Karatsuba squaring pays from 32 limbs */
#define CRISP_KARATSUBA_SQR_MIN 32
#include "x86/bn_algorithms_x86_64.h"
#include "x86/bn_x86_64.h"

#endif
