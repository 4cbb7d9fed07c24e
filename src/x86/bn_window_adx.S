/* src/x86/bn_window_adx.S - the schoolbook product z = x * y and a
 * square's cross products for lengths that are multiples of 8, with the
 * running columns in a window of eight registers instead of memory; needs
 * BMI2 and ADX.
 *
 * The looped rows of bn_rows_adx.S load and store a limb of z for every
 * limb product, and each row waits on the previous row's stores. Here a
 * pass takes one block of eight limbs a = x[b .. b+8) and runs a row per
 * limb of y: row j adds a * y[j] to the window W0..W7, which holds the
 * columns j+b .. j+b+7 (low halves on the CF chain, high halves on the OF
 * chain); then W0 is final and stored, and its register becomes the new
 * top column. The window moves one column per row by renaming, so eight
 * rows are unrolled and the loop runs over groups of eight limbs of y.
 * A limb product costs one MULX and one addition on each carry chain; a
 * row adds one load of y and one store of z.
 *
 * The first pass (b = 0) writes z; every later pass adds the columns the
 * passes before it left, one limb per row: row j adds z[j+b] into W0 on
 * the OF chain ahead of the row's high halves, so its carry lands in W1.
 * The window, the row's product and that limb always fit in nine limbs,
 * so no carry leaves the new top column. The columns above the last row
 * of a pass were never written before it, and its window is stored there.
 *
 * Radix 2^64, limbs least significant first; SysV ABI. The instructions
 * run and the addresses touched depend on the lengths only. */

#include "x86/asm_function.inc"

/* W[m] += low(y[j] a[m]) on CF, W[m+1] += high(y[j] a[m]) on OF. */
.macro WINDOW_STEP m, wm, wm1
	mulx	8*\m(%rsi), %rax, %rcx
	adcx	%rax, \wm
	adox	%rcx, \wm1
.endm

/* Row \j of a group: rbx y + group, rdi z + b + group, rsi a. With
 * \accumulate the limb the earlier passes left in column j+b goes in
 * first, on the OF chain. */
.macro WINDOW_ROW j, accumulate, w0, w1, w2, w3, w4, w5, w6, w7
	mov	8*\j(%rbx), %rdx
	xor	%eax, %eax		/* clears CF and OF */
	mulx	0(%rsi), %rax, %rcx
	.if \accumulate
	adox	8*\j(%rdi), \w0
	.endif
	adcx	%rax, \w0
	adox	%rcx, \w1
	mov	\w0, 8*\j(%rdi)
	WINDOW_STEP 1, \w1, \w2
	WINDOW_STEP 2, \w2, \w3
	WINDOW_STEP 3, \w3, \w4
	WINDOW_STEP 4, \w4, \w5
	WINDOW_STEP 5, \w5, \w6
	WINDOW_STEP 6, \w6, \w7
	mulx	56(%rsi), %rax, \w0
	adcx	%rax, \w7
	mov	$0, %eax		/* MOV keeps the flags */
	adox	%rax, \w0
	adcx	%rax, \w0
.endm

/* Eight rows: after them the window is back in r8..r15 in order. */
.macro WINDOW_GROUP accumulate
	WINDOW_ROW 0, \accumulate, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15
	WINDOW_ROW 1, \accumulate, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	WINDOW_ROW 2, \accumulate, %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	WINDOW_ROW 3, \accumulate, %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	WINDOW_ROW 4, \accumulate, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	WINDOW_ROW 5, \accumulate, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	WINDOW_ROW 6, \accumulate, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
	WINDOW_ROW 7, \accumulate, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14
.endm

.macro WINDOW_CLEAR
	.irp w, %r8d, %r9d, %r10d, %r11d, %r12d, %r13d, %r14d, %r15d
	xor	\w, \w
	.endr
.endm

/* Stores the window r8..r15 at rdi (the columns above a pass's last row). */
.macro WINDOW_STORE
	mov	%r8,  0(%rdi)
	mov	%r9,  8(%rdi)
	mov	%r10, 16(%rdi)
	mov	%r11, 24(%rdi)
	mov	%r12, 32(%rdi)
	mov	%r13, 40(%rdi)
	mov	%r14, 48(%rdi)
	mov	%r15, 56(%rdi)
.endm

/* Row 0 of a pass that writes z: the window is all zero, so the low half
 * of each product becomes its column and only the high halves are added,
 * on the CF chain. */
.macro WINDOW_FIRST_ROW
	xor	%eax, %eax		/* clears CF */
	mov	0(%rbx), %rdx
	mulx	0(%rsi), %r8, %r9
	mulx	8(%rsi), %rax, %r10
	adcx	%rax, %r9
	mulx	16(%rsi), %rax, %r11
	adcx	%rax, %r10
	mulx	24(%rsi), %rax, %r12
	adcx	%rax, %r11
	mulx	32(%rsi), %rax, %r13
	adcx	%rax, %r12
	mulx	40(%rsi), %rax, %r14
	adcx	%rax, %r13
	mulx	48(%rsi), %rax, %r15
	adcx	%rax, %r14
	mov	%r8, 0(%rdi)
	mulx	56(%rsi), %rax, %r8
	adcx	%rax, %r15
	mov	$0, %eax		/* MOV keeps the flags */
	adcx	%rax, %r8
.endm

/* z[0..16) = x[0..8) * y[0..8), straight line: row 0, rows 1 to 7, the
 * window stored. rdi z, rsi x, rbx y. */
.macro WINDOW_MUL8
	WINDOW_FIRST_ROW
	WINDOW_ROW 1, 0, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	WINDOW_ROW 2, 0, %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	WINDOW_ROW 3, 0, %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	WINDOW_ROW 4, 0, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	WINDOW_ROW 5, 0, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	WINDOW_ROW 6, 0, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
	WINDOW_ROW 7, 0, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14
	lea	64(%rdi), %rdi
	WINDOW_STORE
.endm

/* z[0..xn+yn) = x * y for xn and yn positive multiples of 8; z apart from
 * x and y. rdi z, rsi x, rdx xn, rcx y, r8 yn. 8 x 8 limbs runs straight
 * through, without the loops' frame. Registers: rsi a, rbx y + group, rdi
 * z + b + group, rbp groups left in the pass; on the stack y, yn / 8, z + b
 * of the next pass and the passes left. */
FUNCTION crisp_bn_mul_window_x86_64_adx
	cmp	$8, %rdx
	jne	.Lwindow_loops
	cmp	$8, %r8
	jne	.Lwindow_loops
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rcx, %rbx
	WINDOW_MUL8
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	ret
.Lwindow_loops:
	SAVE_REGISTERS
	sub	$32, %rsp
	shr	$3, %r8
	shr	$3, %rdx
	mov	%rcx, 0(%rsp)		/* y */
	mov	%r8, 8(%rsp)		/* groups per pass */
	lea	64(%rdi), %rax
	mov	%rax, 16(%rsp)		/* z + b of the next pass */
	dec	%rdx
	mov	%rdx, 24(%rsp)		/* passes left after the first */
	mov	%rcx, %rbx
	mov	%r8, %rbp
	WINDOW_CLEAR
.Lwindow_first:
	WINDOW_GROUP 0
	lea	64(%rbx), %rbx
	lea	64(%rdi), %rdi
	dec	%rbp
	jnz	.Lwindow_first
	WINDOW_STORE
	cmpq	$0, 24(%rsp)
	je	.Lwindow_done
.Lwindow_pass:
	lea	64(%rsi), %rsi
	mov	16(%rsp), %rdi
	lea	64(%rdi), %rax
	mov	%rax, 16(%rsp)
	mov	0(%rsp), %rbx
	mov	8(%rsp), %rbp
	WINDOW_CLEAR
.Lwindow_accumulate:
	WINDOW_GROUP 1
	lea	64(%rbx), %rbx
	lea	64(%rdi), %rdi
	dec	%rbp
	jnz	.Lwindow_accumulate
	WINDOW_STORE
	decq	24(%rsp)
	jnz	.Lwindow_pass
.Lwindow_done:
	add	$32, %rsp
	RESTORE_REGISTERS
	ret
END_FUNCTION crisp_bn_mul_window_x86_64_adx

/* ---- A square's cross products ------------------------------------------- */

/* Row \r of the triangle of the block a itself: multiplier rbx[\r] (a[\r]),
 * products from a[\r+1] on, stored at rdi[\r]. No earlier pass wrote these
 * columns. */
.macro TRIANGLE_ROW r, w0, w1, w2, w3, w4, w5, w6, w7
	mov	8*\r(%rbx), %rdx
	xor	%eax, %eax		/* clears CF and OF */
	.if \r < 1
	WINDOW_STEP 1, \w1, \w2
	.endif
	.if \r < 2
	WINDOW_STEP 2, \w2, \w3
	.endif
	.if \r < 3
	WINDOW_STEP 3, \w3, \w4
	.endif
	.if \r < 4
	WINDOW_STEP 4, \w4, \w5
	.endif
	.if \r < 5
	WINDOW_STEP 5, \w5, \w6
	.endif
	.if \r < 6
	WINDOW_STEP 6, \w6, \w7
	.endif
	mov	\w0, 8*\r(%rdi)
	mulx	56(%rsi), %rax, \w0
	adcx	%rax, \w7
	mov	$0, %eax		/* MOV keeps the flags */
	adox	%rax, \w0
	adcx	%rax, \w0
.endm

/* The seven rows of the block's own triangle, then its columns stored:
 * the window, rotated by seven, holds rdi[7 .. 15); rdi[15], the column
 * above, is zeroed for the next pass to add. */
.macro TRIANGLE_TAIL
	TRIANGLE_ROW 0, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15
	TRIANGLE_ROW 1, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	TRIANGLE_ROW 2, %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	TRIANGLE_ROW 3, %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	TRIANGLE_ROW 4, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	TRIANGLE_ROW 5, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	TRIANGLE_ROW 6, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
	mov	%r15, 56(%rdi)
	mov	%r8,  64(%rdi)
	mov	%r9,  72(%rdi)
	mov	%r10, 80(%rdi)
	mov	%r11, 88(%rdi)
	mov	%r12, 96(%rdi)
	mov	%r13, 104(%rdi)
	mov	%r14, 112(%rdi)
	movq	$0, 120(%rdi)
.endm

/* z[0..2n) = the cross products x[i] x[j] (i < j) of x[0..n), n a positive
 * multiple of 8 (z[0] and z[2n-1] are zero); z apart from x. Pass p takes
 * the block a = x[8p .. 8p+8): rows for x[0 .. 8p) added to the columns
 * from 8p on (the earlier passes left z[8p .. 16p)), then a's own
 * triangle, whose columns from 16p on no pass wrote yet.
 * rdi z, rsi x, rdx n. Registers: rsi a, rbx the multipliers, rdi the
 * row's column, rbp groups left; on the stack x, z, n / 8 and p. */
FUNCTION crisp_bn_sqr_triangle_window_x86_64_adx
	SAVE_REGISTERS
	sub	$32, %rsp
	shr	$3, %rdx
	mov	%rsi, 0(%rsp)		/* x */
	mov	%rdi, 8(%rsp)		/* z */
	mov	%rdx, 16(%rsp)		/* blocks */
	movq	$0, 24(%rsp)		/* p */
	mov	%rsi, %rbx
	WINDOW_CLEAR
	TRIANGLE_TAIL
.Ltriangle_pass:
	mov	24(%rsp), %rbp
	inc	%rbp
	cmp	16(%rsp), %rbp
	je	.Ltriangle_done
	mov	%rbp, 24(%rsp)
	mov	%rbp, %rax
	shl	$6, %rax		/* 8p limbs */
	mov	0(%rsp), %rbx
	lea	(%rbx, %rax), %rsi
	mov	8(%rsp), %rdi
	add	%rax, %rdi
	WINDOW_CLEAR
.Ltriangle_rectangle:
	WINDOW_GROUP 1
	lea	64(%rbx), %rbx
	lea	64(%rdi), %rdi
	dec	%rbp
	jnz	.Ltriangle_rectangle
	TRIANGLE_TAIL
	jmp	.Ltriangle_pass
.Ltriangle_done:
	add	$32, %rsp
	RESTORE_REGISTERS
	ret
END_FUNCTION crisp_bn_sqr_triangle_window_x86_64_adx
