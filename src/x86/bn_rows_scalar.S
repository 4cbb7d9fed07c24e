/* src/x86/bn_rows_scalar.S - big-integer rows in baseline x86-64: additions
 * with ADC / SBB, and multiply rows with MULQ and one carry chain; the
 * schoolbook product, the square's cross products and the Montgomery
 * reduction run their loops over rows here too, so no row pays a call.
 *
 * Radix 2^64, limbs least significant first. SysV ABI; every function is
 * declared in bn_rows_x86.h, with its contract. Rows are unrolled 8 limbs
 * per block and entered part-way through the first block (see
 * bn_rows_x86.inc). The instructions run and the addresses touched
 * depend on the lengths only, never on limb values. */

#include "x86/bn_rows_x86.inc"

/* ---- Additions ----------------------------------------------------------- */

/* z = x \operation y with the carry (borrow) in CF from block to block: DEC
 * and LEA leave CF alone. rdi z, rsi x, rdx y, rcx n, r8b carry in; returns
 * the carry out. */
.macro ADD_ROW name, operation
	test	%rcx, %rcx
	jz	\name\()_empty
	ROW_SPLIT %rcx, %r9, %r10, %rdi, %rsi, %rdx
	ROW_TARGET \name, %r9, %r10
	bt	$0, %r8d		/* CF = carry in */
	jmp	*%r10
\name\()_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
\name\()_limb\limb:
	mov	8*\limb(%rsi), %rax
	\operation	8*\limb(%rdx), %rax
	mov	%rax, 8*\limb(%rdi)
	.endr
	lea	64(%rsi), %rsi
	lea	64(%rdx), %rdx
	lea	64(%rdi), %rdi
	dec	%rcx
	jnz	\name\()_block
	setc	%al
	movzbl	%al, %eax
	ret
\name\()_empty:
	movzbl	%r8b, %eax
	ret
	ROW_PADS \name
.endm

FUNCTION crisp_bn_add_n_x86_64
	ADD_ROW .Ladd_n, adc
END_FUNCTION crisp_bn_add_n_x86_64

FUNCTION crisp_bn_sub_n_x86_64
	ADD_ROW .Lsub_n, sbb
END_FUNCTION crisp_bn_sub_n_x86_64

/* z += carry through every limb, no early exit. rdi z, rsi n, dl carry. */
FUNCTION crisp_bn_add_carry_x86_64
	test	%rsi, %rsi
	jz	.Ladd_carry_empty
	mov	%rsi, %rcx
	ROW_SPLIT %rcx, %r9, %r10, %rdi
	ROW_TARGET .Ladd_carry, %r9, %r10
	bt	$0, %edx		/* CF = carry in */
	jmp	*%r10
.Ladd_carry_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
.Ladd_carry_limb\limb:
	adcq	$0, 8*\limb(%rdi)
	.endr
	lea	64(%rdi), %rdi
	dec	%rcx
	jnz	.Ladd_carry_block
	setc	%al
	movzbl	%al, %eax
	ret
.Ladd_carry_empty:
	movzbl	%dl, %eax
	ret
	ROW_PADS .Ladd_carry
END_FUNCTION crisp_bn_add_carry_x86_64

/* ---- Multiply rows --------------------------------------------------------- */

/* \count blocks of z = x * \multiplier + \carry (\accumulate 0) or
 * z += x * \multiplier + \carry (\accumulate 1), x in rsi, z in rdi, from the
 * limb the entry jump picked; \carry holds the carry out. Each limb folds
 * its carries into rdx at once, so the loop counter may change the flags.
 * Uses rax and rdx. */
.macro MULQ_BLOCKS name, accumulate, multiplier, carry, count
\name\()_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
\name\()_limb\limb:
	mov	8*\limb(%rsi), %rax
	mul	\multiplier
	add	\carry, %rax
	adc	$0, %rdx
	.if \accumulate
	add	%rax, 8*\limb(%rdi)
	adc	$0, %rdx
	.else
	mov	%rax, 8*\limb(%rdi)
	.endif
	mov	%rdx, \carry
	.endr
	lea	64(%rsi), %rsi
	lea	64(%rdi), %rdi
	dec	\count
	jnz	\name\()_block
.endm

/* One row: rdi z, rsi x, rdx n, rcx multiplier, r8 carry in; returns the
 * carry out. */
.macro MULQ_ROW name, accumulate
	test	%rdx, %rdx
	jz	\name\()_empty
	mov	%rdx, %r10
	ROW_SPLIT %r10, %r11, %r9, %rsi, %rdi
	ROW_TARGET \name, %r11, %r9
	jmp	*%r9
	MULQ_BLOCKS \name, \accumulate, %rcx, %r8, %r10
\name\()_empty:
	mov	%r8, %rax
	ret
	ROW_PADS \name
.endm

FUNCTION crisp_bn_mul_row_x86_64
	MULQ_ROW .Lmul_row, 0
END_FUNCTION crisp_bn_mul_row_x86_64

FUNCTION crisp_bn_mul_add_row_x86_64
	MULQ_ROW .Lmul_add_row, 1
END_FUNCTION crisp_bn_mul_add_row_x86_64

/* Schoolbook z = x * y: a multiply row for y[0], then a multiply-add row
 * per further limb of y, all entering the block at the same limb.
 * rdi z, rsi x, rdx xn, rcx y, r8 yn. Registers: rbp x, r12 the row of z,
 * r8 the limb of y, rbx rows left, r13 blocks per row, rcx the entry of the
 * multiply-add rows; in a row r9 multiplier, r10 carry, r11 count. */
FUNCTION crisp_bn_mul_basecase_x86_64
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	lea	-1(%r8), %rbx
	mov	%rcx, %r8
	mov	%rdx, %r13
	ROW_SPLIT %r13, %r11, %r10, %rsi, %rdi
	mov	%rsi, %rbp
	mov	%rdi, %r12
	mov	%r11, %r10
	ROW_TARGET .Lmul_basecase_first, %r10, %rax
	ROW_TARGET .Lmul_basecase_rows, %r11, %rcx
	mov	(%r8), %r9
	xor	%r10d, %r10d
	mov	%r13, %r11
	jmp	*%rax
	MULQ_BLOCKS .Lmul_basecase_first, 0, %r9, %r10, %r11
	mov	%r10, (%rdi)		/* z[xn] */
	test	%rbx, %rbx
	jz	.Lmul_basecase_done
.Lmul_basecase_row:
	lea	8(%r8), %r8
	mov	(%r8), %r9
	lea	8(%r12), %r12
	mov	%rbp, %rsi
	mov	%r12, %rdi
	xor	%r10d, %r10d
	mov	%r13, %r11
	jmp	*%rcx
	MULQ_BLOCKS .Lmul_basecase_rows, 1, %r9, %r10, %r11
	mov	%r10, (%rdi)		/* z[j + xn] */
	dec	%rbx
	jnz	.Lmul_basecase_row
.Lmul_basecase_done:
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret
	ROW_PADS .Lmul_basecase_first
	ROW_PADS .Lmul_basecase_rows
END_FUNCTION crisp_bn_mul_basecase_x86_64

/* The rows i = 1 .. n-2 of a square's cross products: z[2i+1 ..) +=
 * x[i+1 .. n) * x[i], the carry stored at z[n+i]. Each row's entry depends
 * on its length n-1-i alone. rdi z, rsi x, rdx n. Registers: r8 x + i + 1,
 * r9 z + 2i + 1, rbx the row's length; in a row rcx multiplier, r10 carry,
 * r11 count. */
FUNCTION crisp_bn_sqr_triangle_x86_64
	cmp	$3, %rdx
	jb	.Lsqr_triangle_return
	push	%rbx
	lea	16(%rsi), %r8
	lea	24(%rdi), %r9
	lea	-2(%rdx), %rbx
.Lsqr_triangle_row:
	mov	-8(%r8), %rcx
	mov	%rbx, %r11
	mov	%r8, %rsi
	mov	%r9, %rdi
	ROW_SPLIT %r11, %rax, %rdx, %rsi, %rdi
	ROW_TARGET .Lsqr_triangle, %rax, %rdx
	xor	%r10d, %r10d
	jmp	*%rdx
	MULQ_BLOCKS .Lsqr_triangle, 1, %rcx, %r10, %r11
	mov	%r10, (%rdi)		/* z[n + i] */
	lea	8(%r8), %r8
	lea	16(%r9), %r9
	dec	%rbx
	jnz	.Lsqr_triangle_row
	pop	%rbx
.Lsqr_triangle_return:
	ret
	ROW_PADS .Lsqr_triangle
END_FUNCTION crisp_bn_sqr_triangle_x86_64

/* The n rows of a Montgomery reduction: row i adds m * (t[i] minv mod 2^64)
 * at t + i, which clears t[i]; the row's carry is parked in t[i].
 * rdi t, rsi m, rdx n, rcx minv. Registers: r8 minv, rbx m, rbp t + i,
 * r12 8 skip, r13 rows left, r14 blocks per row, rcx the entry; in a row
 * r9 multiplier, r10 carry, r11 count. */
FUNCTION crisp_bn_redc_rows_x86_64
	test	%rdx, %rdx
	jz	.Lredc_rows_return
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	mov	%rcx, %r8
	mov	%rdx, %r13
	mov	%rdx, %r14
	mov	%rdi, %rbp
	ROW_SPLIT %r14, %rax, %r12, %rsi
	mov	%rsi, %rbx
	ROW_TARGET .Lredc_rows, %rax, %rcx
.Lredc_rows_row:
	mov	(%rbp), %r9
	imul	%r8, %r9
	mov	%rbx, %rsi
	mov	%rbp, %rdi
	sub	%r12, %rdi
	xor	%r10d, %r10d
	mov	%r14, %r11
	jmp	*%rcx
	MULQ_BLOCKS .Lredc_rows, 1, %r9, %r10, %r11
	mov	%r10, (%rbp)		/* t[i] = the row's carry */
	lea	8(%rbp), %rbp
	dec	%r13
	jnz	.Lredc_rows_row
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
.Lredc_rows_return:
	ret
	ROW_PADS .Lredc_rows
END_FUNCTION crisp_bn_redc_rows_x86_64
