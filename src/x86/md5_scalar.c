/* src/x86/md5_scalar.c - descriptors of the x86-64 assembly MD5 kernels in
 * md5_scalar.S (baseline, and ANDN with BMI1). */
#include "x86/md5_scalar.h"

const crisp_md5_impl crisp_md5_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_x86_64_impl),
    .blocks = crisp_md5_x86_64,
};

const crisp_md5_impl crisp_md5_x86_64_bmi1_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_x86_64_bmi1_impl),
    .blocks = crisp_md5_x86_64_bmi1,
};
