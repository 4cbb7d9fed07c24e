/* src/x86/bn_rows_adx.S - big-integer rows with MULX and the two
 * carry chains ADCX (CF) and ADOX (OF); needs BMI2 and ADX. Multiply rows,
 * the schoolbook product, a square's cross products (looped rows, and a
 * fully unrolled triangle for 16 limbs), its doubling with the diagonal,
 * the whole 8-limb square in one call, Karatsuba's three-way addition,
 * its combination in place and conditional negation, and the Montgomery
 * reduction rows.
 *
 * Radix 2^64, limbs least significant first. SysV ABI; every function is
 * declared in bn_rows_x86.h, with its contract. Rows are unrolled 8 limbs
 * per block and entered part-way through the first block (see
 * bn_rows_x86.inc); the block loop counts down in rcx with LEA and
 * JRCXZ, which leave CF and OF alone, so both chains run through the whole
 * row. The instructions run and the addresses touched depend on the lengths
 * only, never on limb values. */

#include "x86/bn_rows_x86.inc"

/* ---- Multiply rows --------------------------------------------------------- */

/* rcx blocks of z = x * rdx + \carry (\accumulate 0) or z += x * rdx +
 * \carry (\accumulate 1), x in \x, z in \z, from the limb the entry jump
 * picked. The low half of each product meets the pending high half
 * (\carry) on the CF chain and z on the OF chain, so the two additions do
 * not wait on each other. Leaves the chains' last carries in CF and OF. */
.macro ADX_BLOCKS name, accumulate, x, z, carry, low, high
\name\()_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
\name\()_limb\limb:
	mulx	8*\limb(\x), \low, \high
	adcx	\carry, \low
	.if \accumulate
	adox	8*\limb(\z), \low
	.endif
	mov	\low, 8*\limb(\z)
	mov	\high, \carry
	.endr
	lea	64(\x), \x
	lea	64(\z), \z
	lea	-1(%rcx), %rcx
	jrcxz	\name\()_end
	jmp	\name\()_block
\name\()_end:
.endm

/* One row: rdi z, rsi x, rdx n, rcx multiplier, r8 carry in; returns the
 * carry out. */
.macro ADX_ROW name, accumulate
	mov	%r8, %rax
	test	%rdx, %rdx
	jz	\name\()_return
	mov	%rdx, %r9
	mov	%rcx, %rdx
	mov	%r9, %rcx
	ROW_SPLIT %rcx, %r10, %r11, %rsi, %rdi
	ROW_TARGET \name, %r10, %r11
	xor	%r8d, %r8d		/* a zero; clears CF and OF */
	jmp	*%r11
	ADX_BLOCKS \name, \accumulate, %rsi, %rdi, %rax, %r9, %r10
	adcx	%r8, %rax
	.if \accumulate
	adox	%r8, %rax
	.endif
\name\()_return:
	ret
	ROW_PADS \name
.endm

FUNCTION crisp_bn_mul_row_x86_64_adx
	ADX_ROW .Lmul_row, 0
END_FUNCTION crisp_bn_mul_row_x86_64_adx

FUNCTION crisp_bn_mul_add_row_x86_64_adx
	ADX_ROW .Lmul_add_row, 1
END_FUNCTION crisp_bn_mul_add_row_x86_64_adx

/* Straight-line z += x * rdx for exactly \limbs limbs (a multiple of two,
 * no entry jump, no block loop): rdi z, rsi x, rdx the multiplier; returns
 * the carry limb. Low halves meet the previous high half on the CF chain,
 * z on the OF chain; r9 and r10 take the high halves of alternate limbs,
 * rcx stays zero. */
.macro ADX_MUL_ADD_FIXED limbs
	xor	%ecx, %ecx		/* clears CF and OF */
	mulx	0(%rsi), %r8, %r9
	adox	0(%rdi), %r8
	mov	%r8, 0(%rdi)
	.set	.Lfixed_limb, 1
	.rept	(\limbs - 1) / 2
	mulx	8*.Lfixed_limb(%rsi), %r8, %r10
	adcx	%r9, %r8
	adox	8*.Lfixed_limb(%rdi), %r8
	mov	%r8, 8*.Lfixed_limb(%rdi)
	mulx	8*(.Lfixed_limb+1)(%rsi), %r8, %r9
	adcx	%r10, %r8
	adox	8*(.Lfixed_limb+1)(%rdi), %r8
	mov	%r8, 8*(.Lfixed_limb+1)(%rdi)
	.set	.Lfixed_limb, .Lfixed_limb + 2
	.endr
	mulx	8*.Lfixed_limb(%rsi), %r8, %r10
	adcx	%r9, %r8
	adox	8*.Lfixed_limb(%rdi), %r8
	mov	%r8, 8*.Lfixed_limb(%rdi)
	adcx	%rcx, %r10		/* a high half is at most 2^64 - 2: no carry */
	adox	%rcx, %r10
	mov	%r10, %rax
	ret
.endm

FUNCTION crisp_bn_mul_add8_x86_64_adx
	ADX_MUL_ADD_FIXED 8
END_FUNCTION crisp_bn_mul_add8_x86_64_adx

FUNCTION crisp_bn_mul_add16_x86_64_adx
	ADX_MUL_ADD_FIXED 16
END_FUNCTION crisp_bn_mul_add16_x86_64_adx

/* Schoolbook z = x * y: a multiply row for y[0], then a multiply-add row
 * per further limb of y, all entering the block at the same limb.
 * rdi z, rsi x, rdx xn, rcx y, r8 yn. Registers: rbp x, r12 the row of z,
 * r8 the limb of y, rbx rows left, r13 blocks per row, r9 the entry of the
 * multiply-add rows; in a row r10 carry, rax and r11 the product. The last
 * carry goes in with the zero left in rcx. */
FUNCTION crisp_bn_mul_basecase_x86_64_adx
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
	ROW_TARGET .Lmul_basecase_rows, %r11, %r9
	mov	(%r8), %rdx
	mov	%r13, %rcx
	xor	%r10d, %r10d		/* clears CF and OF */
	jmp	*%rax
	ADX_BLOCKS .Lmul_basecase_first, 0, %rsi, %rdi, %r10, %rax, %r11
	adcx	%rcx, %r10
	mov	%r10, (%rdi)		/* z[xn] */
	test	%rbx, %rbx
	jz	.Lmul_basecase_done
.Lmul_basecase_row:
	lea	8(%r8), %r8
	mov	(%r8), %rdx
	lea	8(%r12), %r12
	mov	%rbp, %rsi
	mov	%r12, %rdi
	mov	%r13, %rcx
	xor	%r10d, %r10d		/* clears CF and OF */
	jmp	*%r9
	ADX_BLOCKS .Lmul_basecase_rows, 1, %rsi, %rdi, %r10, %rax, %r11
	adcx	%rcx, %r10
	adox	%rcx, %r10
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
END_FUNCTION crisp_bn_mul_basecase_x86_64_adx

/* The rows i = 1 .. n-2 of a square's cross products: z[2i+1 ..) +=
 * x[i+1 .. n) * x[i], the carry stored at z[n+i]. Each row's entry depends
 * on its length n-1-i alone. rdi z, rsi x, rdx n. Registers: r8 x + i + 1,
 * r9 z + 2i + 1, r10 the row's length; in a row rbx carry, rax and r11 the
 * product. */
FUNCTION crisp_bn_sqr_triangle_x86_64_adx
	cmp	$3, %rdx
	jb	.Lsqr_triangle_return
	push	%rbx
	lea	16(%rsi), %r8
	lea	24(%rdi), %r9
	lea	-2(%rdx), %r10
.Lsqr_triangle_row:
	mov	-8(%r8), %rdx
	mov	%r10, %rcx
	mov	%r8, %rsi
	mov	%r9, %rdi
	ROW_SPLIT %rcx, %rax, %r11, %rsi, %rdi
	ROW_TARGET .Lsqr_triangle, %rax, %r11
	xor	%ebx, %ebx		/* clears CF and OF */
	jmp	*%r11
	ADX_BLOCKS .Lsqr_triangle, 1, %rsi, %rdi, %rbx, %rax, %r11
	adcx	%rcx, %rbx
	adox	%rcx, %rbx
	mov	%rbx, (%rdi)		/* z[n + i] */
	lea	8(%r8), %r8
	lea	16(%r9), %r9
	dec	%r10
	jnz	.Lsqr_triangle_row
	pop	%rbx
.Lsqr_triangle_return:
	ret
	ROW_PADS .Lsqr_triangle
END_FUNCTION crisp_bn_sqr_triangle_x86_64_adx

/* The n rows of a Montgomery reduction: row i adds m * (t[i] minv mod 2^64)
 * at t + i, which clears t[i]; the row's carry is parked in t[i].
 * rdi t, rsi m, rdx n, rcx minv. Registers: r8 minv, rbx m, rbp t + i,
 * r12 8 skip, r13 rows left, r14 blocks per row, r9 the entry; in a row
 * r10 carry, rax and r11 the product. */
FUNCTION crisp_bn_redc_rows_x86_64_adx
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
	ROW_TARGET .Lredc_rows, %rax, %r9
.Lredc_rows_row:
	mov	(%rbp), %rdx
	imul	%r8, %rdx
	mov	%rbx, %rsi
	mov	%rbp, %rdi
	sub	%r12, %rdi
	mov	%r14, %rcx
	xor	%r10d, %r10d		/* clears CF and OF */
	jmp	*%r9
	ADX_BLOCKS .Lredc_rows, 1, %rsi, %rdi, %r10, %rax, %r11
	adcx	%rcx, %r10
	adox	%rcx, %r10
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
END_FUNCTION crisp_bn_redc_rows_x86_64_adx

/* ---- Doubling and diagonal of a square ------------------------------------ */

/* z[0..2n) = 2 z + sum x[i]^2 B^2i, where z holds the cross products of a
 * square (so the result fits and no carry leaves): the doubling runs on the
 * CF chain (ADCX of a limb with itself), the squares on the OF chain.
 * rdi z, rsi x, rdx n. */
FUNCTION crisp_bn_sqr_diagonal_x86_64_adx
	test	%rdx, %rdx
	jz	.Lsqr_diagonal_return
	mov	%rdx, %rcx
	ROW_SPLIT %rcx, %r8, %r9, %rsi, %rdi
	sub	%r9, %rdi		/* z moves two limbs per limb of x */
	ROW_TARGET .Lsqr_diagonal, %r8, %rax
	xor	%r8d, %r8d		/* clears CF and OF */
	jmp	*%rax
.Lsqr_diagonal_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
.Lsqr_diagonal_limb\limb:
	mov	8*\limb(%rsi), %rdx
	mulx	%rdx, %r8, %r9
	mov	16*\limb(%rdi), %r10
	mov	16*\limb+8(%rdi), %r11
	adcx	%r10, %r10
	adcx	%r11, %r11
	adox	%r8, %r10
	adox	%r9, %r11
	mov	%r10, 16*\limb(%rdi)
	mov	%r11, 16*\limb+8(%rdi)
	.endr
	lea	64(%rsi), %rsi
	lea	128(%rdi), %rdi
	lea	-1(%rcx), %rcx
	jrcxz	.Lsqr_diagonal_return
	jmp	.Lsqr_diagonal_block
.Lsqr_diagonal_return:
	ret
	ROW_PADS .Lsqr_diagonal
END_FUNCTION crisp_bn_sqr_diagonal_x86_64_adx

/* ---- Karatsuba's middle term ----------------------------------------------- */

/* Karatsuba's middle term z = x + y +- w in one pass: x + y on the CF
 * chain, the third operand on the OF chain; returns the sum of the two
 * carries out (0, 1 or 2). With \complement 0 the third operand is
 * w xor mask, mask (r9) 0 or all ones, and the carry in is mask & 1: the
 * mask is applied in an SSE2 register, since XOR would clear the carry
 * chains. With \complement 1 it is ~w (NOT leaves the flags alone) and
 * r9 is the carry in (0 or 1): with 1, x + y - w mod 2^64n, a square's
 * middle term, whose sign is known. rdi z, rsi x, rdx y, rcx w, r8 n. */
.macro ADD3 name, complement
	mov	%r9, %rax
	test	%r8, %r8
	jz	\name\()_return
	mov	%rcx, %r10
	mov	%r8, %rcx
	ROW_SPLIT %rcx, %r11, %r8, %rdi, %rsi, %rdx, %r10
	ROW_TARGET \name, %r11, %r8
	.if \complement == 0
	movq	%r9, %xmm1		/* the mask in both halves */
	punpcklqdq %xmm1, %xmm1
	.endif
	neg	%r9			/* CF = carry (mask & 1), OF = 0 */
	jmp	*%r8
\name\()_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
\name\()_limb\limb:
	.if \complement
	mov	8*\limb(%r10), %r11
	not	%r11
	.else
	movq	8*\limb(%r10), %xmm0
	pxor	%xmm1, %xmm0
	movq	%xmm0, %r11
	.endif
	mov	8*\limb(%rsi), %rax
	adcx	8*\limb(%rdx), %rax
	adox	%r11, %rax
	mov	%rax, 8*\limb(%rdi)
	.endr
	lea	64(%rsi), %rsi
	lea	64(%rdx), %rdx
	lea	64(%r10), %r10
	lea	64(%rdi), %rdi
	lea	-1(%rcx), %rcx
	jrcxz	\name\()_end
	jmp	\name\()_block
\name\()_end:
	mov	$0, %eax		/* MOV keeps the flags */
	adcx	%rcx, %rax
	adox	%rcx, %rax
\name\()_return:
	ret
	ROW_PADS \name
.endm

FUNCTION crisp_bn_add3_x86_64_adx
	ADD3 .Ladd3, 0
END_FUNCTION crisp_bn_add3_x86_64_adx

FUNCTION crisp_bn_add2_not_x86_64_adx
	ADD3 .Ladd2_not, 1
END_FUNCTION crisp_bn_add2_not_x86_64_adx

/* Karatsuba's combination in place, for two equal halves of h limbs
 * (h a positive multiple of 8): z[0..4h) holds z0 = A0 + A1 b and
 * z2 = C0 + C1 b (b = 2^64h), and z + h takes z0 + z2 +- w. With
 * T = A1 + C0 the sum is A0 + b (A0 + T +- w_lo) + b^2 (T + C1 +- w_hi)
 * + b^3 C1, so one pass over i < h reads A0[i], A1[i], C0[i], C1[i] and
 * writes z[h+i] and z[2h+i], both read before: no middle scratch, and T
 * is added once for both halves. Five carry chains: T, then the low half
 * on CF and OF (A0, then w_lo), then the high half likewise (C1, then
 * w_hi). Each block of 8 limbs runs them one after another, T in eight
 * registers, and parks each chain's carry in a stack byte (SETC/SETO) for
 * the next block, so the loop may use DEC/JNZ. The carries out then enter
 * a tail through z[2h..4h): the low half's and T's at z[2h], the high
 * half's, T's and the sign's at z[3h]. z[2h..3h) + v (v <= 3) carries out
 * exactly when z[2h] + v does and every limb above z[2h] is all ones, so
 * the loop keeps the AND of those limbs (an OR with all ones drops the
 * first), that carry joins z[3h]'s before the tail, and the tail's two
 * halves run as two chains side by side. With \complement 0, w is
 * w xor mask (mask 0 or all ones, the mask in SSE2 since XOR would clear
 * the chains) with carry in mask & 1, and the sign mask enters at z[3h];
 * with \complement 1, ~w with carry in 1 and sign all ones (a square's
 * middle term, whose sign is known). Nothing branches on or addresses by
 * limb values; the carry bytes and the AND are cleared before return.
 * rdi z, rsi w, rdx h, rcx mask. Registers: rdx 8h, rdi z + i, r9
 * z + 3h + i, rsi w + i, T in rax, rbx, rbp, r10-r14; r15 and r8 carry
 * the limbs. Stack in the loop: the sign at 0(rsp), carry bytes at
 * 8..12(rsp) (T, low CF, low OF, high CF, high OF), the AND at 16(rsp),
 * the first block's all ones at 24(rsp). */
.macro FOLD_T_LIMB limb, t
	mov	8*\limb(%rdi, %rdx), \t
	adcx	8*\limb(%rdi, %rdx, 2), \t
.endm

/* The eight limbs of a half: \high 0 sets z[h+i] = A0[i] + T +- w[i],
 * \high 1 sets z[2h+i] = C1[i] + T +- w[h+i] and leaves it in T's
 * register. */
.macro FOLD_HALF complement, high
	FOLD_HALF_LIMB \complement, \high, 0, %rax
	FOLD_HALF_LIMB \complement, \high, 1, %rbx
	FOLD_HALF_LIMB \complement, \high, 2, %rbp
	FOLD_HALF_LIMB \complement, \high, 3, %r10
	FOLD_HALF_LIMB \complement, \high, 4, %r11
	FOLD_HALF_LIMB \complement, \high, 5, %r12
	FOLD_HALF_LIMB \complement, \high, 6, %r13
	FOLD_HALF_LIMB \complement, \high, 7, %r14
.endm

.macro FOLD_HALF_LIMB complement, high, limb, t
	FOLD_W_LIMB \complement, \high, \limb
	.if \high
	adcx	8*\limb(%r9), \t
	adox	%r8, \t
	mov	\t, 8*\limb(%rdi,%rdx,2)
	.else
	mov	8*\limb(%rdi), %r15
	adcx	\t, %r15
	adox	%r8, %r15
	mov	%r15, 8*\limb(%rdi,%rdx)
	.endif
.endm

/* r8 = w[limb] of the low or high half, complemented or xored with the
 * mask. */
.macro FOLD_W_LIMB complement, high, limb
	.if \complement
	.if \high
	mov	8*\limb(%rsi,%rdx), %r8
	.else
	mov	8*\limb(%rsi), %r8
	.endif
	not	%r8
	.else
	.if \high
	movq	8*\limb(%rsi,%rdx), %xmm0
	.else
	movq	8*\limb(%rsi), %xmm0
	.endif
	pxor	%xmm1, %xmm0
	movq	%xmm0, %r8
	.endif
.endm

/* CF = carry byte \cf, OF = carry byte \of. */
.macro FOLD_RESTORE cf, of
	movzbl	\cf(%rsp), %r15d
	neg	%r15			/* CF = the byte, OF = 0 */
	mov	$-1, %r15
	movzbl	\of(%rsp), %r8d
	adox	%r8, %r15		/* OF = the byte */
.endm

.macro FOLD name, complement
	SAVE_REGISTERS
	sub	$24, %rsp
	movq	$0, 0(%rsp)		/* the carry bytes */
	movq	$-1, 8(%rsp)		/* the high half's AND, limbs 1.. */
	movq	$-1, 16(%rsp)		/* all ones in the first block only */
	.if \complement
	movb	$1, 2(%rsp)		/* the low half's w chain: ~w + 1 */
	mov	$-1, %rcx
	.else
	mov	%rcx, %r8
	and	$1, %r8d
	mov	%r8b, 2(%rsp)		/* the low half's w chain: carry in mask & 1 */
	movq	%rcx, %xmm1		/* the mask in both halves */
	punpcklqdq %xmm1, %xmm1
	.endif
	push	%rcx			/* the sign, for z[3h] */
	shl	$3, %rdx
	lea	(%rdi, %rdx, 2), %r9
	add	%rdx, %r9		/* z + 3h */
	mov	%rdx, %rcx
	shr	$6, %rcx		/* blocks */
\name\()_block:
	movzbl	8(%rsp), %r15d
	neg	%r15			/* CF = T's carry */
	FOLD_T_LIMB 0, %rax
	FOLD_T_LIMB 1, %rbx
	FOLD_T_LIMB 2, %rbp
	FOLD_T_LIMB 3, %r10
	FOLD_T_LIMB 4, %r11
	FOLD_T_LIMB 5, %r12
	FOLD_T_LIMB 6, %r13
	FOLD_T_LIMB 7, %r14
	setc	8(%rsp)
	FOLD_RESTORE 9, 10
	FOLD_HALF \complement, 0
	setc	9(%rsp)
	seto	10(%rsp)
	FOLD_RESTORE 11, 12
	FOLD_HALF \complement, 1
	setc	11(%rsp)
	seto	12(%rsp)
	/* the AND of the high half's limbs but its first, for the tail */
	mov	24(%rsp), %r15
	or	%rax, %r15
	and	%rbx, %r15
	and	%rbp, %r15
	and	%r10, %r15
	and	%r11, %r15
	and	%r12, %r15
	and	%r13, %r15
	and	%r14, %r15
	and	%r15, 16(%rsp)
	movq	$0, 24(%rsp)
	lea	64(%rdi), %rdi
	lea	64(%rsi), %rsi
	lea	64(%r9), %r9
	dec	%rcx
	jnz	\name\()_block
	/* rdi = z + h; the carries into z[2h] and z[3h] */
	movzbl	8(%rsp), %eax
	movzbl	9(%rsp), %ebx
	movzbl	10(%rsp), %r8d
	add	%rax, %rbx
	add	%r8, %rbx		/* into z[2h]: T's, the low half's two */
	pop	%r10			/* the sign: 0 or all ones */
	movzbl	3(%rsp), %r8d
	add	%r8, %rax
	movzbl	4(%rsp), %r8d
	add	%r8, %rax
	add	%r10, %rax		/* into z[3h]: T's, the high half's two, the sign */
	/* z[2h..3h) + rbx carries out exactly when z[2h] + rbx does and
	 * every limb above it is all ones: that carry joins z[3h]'s now, so
	 * the two halves of the tail run as two chains side by side */
	add	%rdx, %rdi		/* z + 2h */
	mov	(%rdi), %r15
	xor	%r8d, %r8d
	add	%rbx, %r15
	setc	%r8b
	xor	%ecx, %ecx
	cmpq	$-1, 8(%rsp)
	sete	%cl
	and	%rcx, %r8
	add	%r8, %rax
	mov	%rax, %r11
	sar	$63, %r11		/* its sign, for the limbs above z[3h] */
	movq	$0, 0(%rsp)		/* the carry bytes and the AND */
	movq	$0, 8(%rsp)
	mov	%rdx, %rcx
	shr	$6, %rcx
	xor	%r8d, %r8d		/* clears CF and OF */
\name\()_tail:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
	mov	8*\limb(%rdi), %r15
	mov	8*\limb(%rdi, %rdx), %r9
	adcx	%rbx, %r15
	adox	%rax, %r9
	mov	%r15, 8*\limb(%rdi)
	mov	%r9, 8*\limb(%rdi, %rdx)
	.if \limb == 0
	mov	%r8, %rbx		/* MOV keeps the flags */
	mov	%r11, %rax
	.endif
	.endr
	lea	64(%rdi), %rdi
	lea	-1(%rcx), %rcx
	jrcxz	\name\()_end
	jmp	\name\()_tail
\name\()_end:
	add	$24, %rsp
	RESTORE_REGISTERS
	ret
.endm

FUNCTION crisp_bn_karatsuba_fold_x86_64_adx
	FOLD .Lfold, 0
END_FUNCTION crisp_bn_karatsuba_fold_x86_64_adx

FUNCTION crisp_bn_karatsuba_fold_square_x86_64_adx
	FOLD .Lfold_square, 1
END_FUNCTION crisp_bn_karatsuba_fold_square_x86_64_adx

/* ---- Karatsuba's absolute differences ------------------------------------ */

/* z = -z (two's complement) when negative is 1, z unchanged when 0, in one
 * pass: CF holds negative for the whole pass and selects (CMOVC) between
 * the limb and ~limb + the OF chain's carry; NOT, ADOX, CMOV, LEA and
 * JRCXZ leave CF alone. rdi z, rsi n, rdx negative (0 or 1). */
FUNCTION crisp_bn_negate_if_x86_64_adx
	test	%rsi, %rsi
	jz	.Lnegate_if_return
	mov	%rsi, %rcx
	ROW_SPLIT %rcx, %r8, %r9, %rdi
	ROW_TARGET .Lnegate_if, %r8, %r9
	xor	%eax, %eax		/* clears CF and OF; rax stays zero */
	mov	$-1, %r10
	mov	%r10, %r11
	adcx	%rdx, %r11		/* CF = negative */
	mov	$1, %r8d
	adox	%r8, %r10		/* OF = 1, the +1 of the negation */
	jmp	*%r9
.Lnegate_if_block:
	.irp limb, 0, 1, 2, 3, 4, 5, 6, 7
.Lnegate_if_limb\limb:
	mov	8*\limb(%rdi), %r10
	mov	%r10, %r11
	not	%r11
	adox	%rax, %r11
	cmovc	%r11, %r10
	mov	%r10, 8*\limb(%rdi)
	.endr
	lea	64(%rdi), %rdi
	lea	-1(%rcx), %rcx
	jrcxz	.Lnegate_if_return
	jmp	.Lnegate_if_block
.Lnegate_if_return:
	ret
	ROW_PADS .Lnegate_if
END_FUNCTION crisp_bn_negate_if_x86_64_adx

/* ---- Fully unrolled triangles for 8 and 16 limbs -------------------------
 * The cross products x[i] x[j] (i < j) of an 8- or 16-limb square with the
 * running columns in eight registers instead of memory, so no row waits on
 * the previous row's stores. The multiplicand is a block of eight limbs
 * a = x[b .. b+8); a window of registers W0..W7 holds the columns
 * i+b .. i+b+7 while row i adds x[i] * a[first .. 8) to W[first .. 8) (low
 * halves on the CF chain, high halves on the OF chain); then W0 is final:
 * it is stored and its register takes the new top column. The window moves
 * one column per row by renaming: each row's register list below is the
 * previous one rotated by one. Pass 1 (b = 0) does the triangle of x[0..8),
 * rows 0..6 with first = i + 1; pass 2 (b = 8) does x[0..16) times
 * x[8..16) above the diagonal, rows 0..14 with first = max(0, i - 7).
 * rdi z, rsi x; window r8..r15, rax and rcx the product, rdx x[i]. */

/* W[m] += low(x[i] a[m]), W[m+1] += high(x[i] a[m]). */
.macro SQR_STEP m, b, wm, wm1
	mulx	8*(\b+\m)(%rsi), %rax, %rcx
	adcx	%rax, \wm
	adox	%rcx, \wm1
.endm

/* Row \i of the pass over block \b, products from a[\first] on. The last
 * product stores column i+b (W0) and turns its register into the new top
 * column: the high half plus both chains' carries. */
.macro SQR_ROW i, first, b, w0, w1, w2, w3, w4, w5, w6, w7
	mov	8*\i(%rsi), %rdx
	xor	%eax, %eax		/* clears CF and OF */
	.if \first <= 0
	SQR_STEP 0, \b, \w0, \w1
	.endif
	.if \first <= 1
	SQR_STEP 1, \b, \w1, \w2
	.endif
	.if \first <= 2
	SQR_STEP 2, \b, \w2, \w3
	.endif
	.if \first <= 3
	SQR_STEP 3, \b, \w3, \w4
	.endif
	.if \first <= 4
	SQR_STEP 4, \b, \w4, \w5
	.endif
	.if \first <= 5
	SQR_STEP 5, \b, \w5, \w6
	.endif
	.if \first <= 6
	SQR_STEP 6, \b, \w6, \w7
	.endif
	mov	\w0, 8*(\i+\b)(%rdi)
	mulx	8*(\b+7)(%rsi), %rax, \w0
	adcx	%rax, \w7
	mov	$0, %eax		/* MOV keeps the flags */
	adox	%rax, \w0
	adcx	%rax, \w0
.endm

/* Pass 1: the triangle of x[0..8); leaves columns 7..14 in r15, r8..r14. */
.macro SQR_PASS_LOW
	SQR_ROW  0, 1, 0, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15
	SQR_ROW  1, 2, 0, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	SQR_ROW  2, 3, 0, %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	SQR_ROW  3, 4, 0, %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	SQR_ROW  4, 5, 0, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	SQR_ROW  5, 6, 0, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	SQR_ROW  6, 7, 0, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
.endm

/* Pass 2: x[0..16) times x[8..16) above the diagonal, from columns 8..15
 * in r8..r15; leaves columns 23..30 in r15, r8..r14. */
.macro SQR_PASS_HIGH
	SQR_ROW  0, 0, 8, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15
	SQR_ROW  1, 0, 8, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	SQR_ROW  2, 0, 8, %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	SQR_ROW  3, 0, 8, %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	SQR_ROW  4, 0, 8, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	SQR_ROW  5, 0, 8, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	SQR_ROW  6, 0, 8, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
	SQR_ROW  7, 0, 8, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14
	SQR_ROW  8, 1, 8, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15
	SQR_ROW  9, 2, 8, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	SQR_ROW 10, 3, 8, %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	SQR_ROW 11, 4, 8, %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	SQR_ROW 12, 5, 8, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	SQR_ROW 13, 6, 8, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	SQR_ROW 14, 7, 8, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
.endm

.macro SQR_CLEAR_WINDOW
	.irp w, %r8d, %r9d, %r10d, %r11d, %r12d, %r13d, %r14d, %r15d
	xor	\w, \w
	.endr
.endm

/* Stores the columns left in r15, r8..r14 at z[\first .. \first+8). */
.macro SQR_STORE_WINDOW first
	mov	%r15, 8*\first(%rdi)
	mov	%r8,  8*(\first+1)(%rdi)
	mov	%r9,  8*(\first+2)(%rdi)
	mov	%r10, 8*(\first+3)(%rdi)
	mov	%r11, 8*(\first+4)(%rdi)
	mov	%r12, 8*(\first+5)(%rdi)
	mov	%r13, 8*(\first+6)(%rdi)
	mov	%r14, 8*(\first+7)(%rdi)
.endm

/* Doubles column pair 2\i, 2\i+1 (in \low and \high, the CF chain) and
 * adds x[\i]^2 (the OF chain); stores both. */
.macro SQR8_DIAGONAL i, low, high
	mov	8*\i(%rsi), %rdx
	mulx	%rdx, %rax, %rcx
	adcx	\low, \low
	adcx	\high, \high
	adox	%rax, \low
	adox	%rcx, \high
	mov	\low, 16*\i(%rdi)
	mov	\high, 16*\i+8(%rdi)
.endm

/* z[0..16) = x[0..8)^2 in one call: the triangle of pass 1 with its
 * columns 7..14 left in registers, then the doubling and the diagonal;
 * columns 0..6 come back from z, the rest never leave registers. */
FUNCTION crisp_bn_sqr8_x86_64_adx
	SAVE_REGISTERS
	SQR_CLEAR_WINDOW
	SQR_PASS_LOW
	xor	%eax, %eax		/* clears CF and OF */
	mov	0(%rdi), %rbx
	mov	8(%rdi), %rbp
	SQR8_DIAGONAL 0, %rbx, %rbp
	mov	16(%rdi), %rbx
	mov	24(%rdi), %rbp
	SQR8_DIAGONAL 1, %rbx, %rbp
	mov	32(%rdi), %rbx
	mov	40(%rdi), %rbp
	SQR8_DIAGONAL 2, %rbx, %rbp
	mov	48(%rdi), %rbx
	SQR8_DIAGONAL 3, %rbx, %r15
	SQR8_DIAGONAL 4, %r8, %r9
	SQR8_DIAGONAL 5, %r10, %r11
	SQR8_DIAGONAL 6, %r12, %r13
	mov	$0, %r15d		/* column 15; MOV keeps the flags */
	SQR8_DIAGONAL 7, %r14, %r15
	RESTORE_REGISTERS
	ret
END_FUNCTION crisp_bn_sqr8_x86_64_adx

/* z[0..31) = the cross products of x[0..16) (z[0] = 0); z[31] is left
 * alone. Between the passes column 7 is stored and its register, cleared,
 * becomes column 15 (the low triangle ends at column 14). */
FUNCTION crisp_bn_sqr_triangle16_x86_64_adx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	SQR_CLEAR_WINDOW
	SQR_PASS_LOW
	mov	%r15, 56(%rdi)
	xor	%r15d, %r15d
	SQR_PASS_HIGH
	SQR_STORE_WINDOW 23
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	ret
END_FUNCTION crisp_bn_sqr_triangle16_x86_64_adx
