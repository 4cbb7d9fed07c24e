/* src/x86/bn_mont_fused_adx.S - Montgomery multiplication for
 * exactly 8 and 16 limbs (512- and 1024-bit moduli), and the reduction of
 * a 16-limb square, with MULX and the two carry chains ADCX (CF) and ADOX
 * (OF); needs BMI2 and ADX. Declarations and contracts in
 * bn_rows_x86.h.
 *
 * r = a b R^-1 mod m, R = 2^(64n), a and b below m, m odd, minv =
 * -m^-1 mod 2^64. Coarsely integrated operand scanning: for each limb
 * b[i], one row adds a b[i] to the accumulator T, the next adds m q with
 * q = T[0] minv mod 2^64, which clears T[0], and T moves down one limb.
 * With a, b < m, T stays below 2m, so it fits in n limbs and one carry bit;
 * between the two rows of a step it needs n + 1 limbs and one bit. Each
 * row puts the low halves of its products on the CF chain and the high
 * halves on the OF chain, so the two additions of a column do not wait on
 * each other. At the end T - m is kept when T >= m (a carry bit, or no
 * borrow), selected by mask.
 *
 * The low columns of T, where each row starts and q is read, live in a
 * window of registers that is renamed one place per step instead of moved,
 * so the chain from one q to the next never goes through memory: all of T
 * for 8 limbs (a step is 16 MULX and 32 ADCX/ADOX), the low eight columns
 * for 16, whose upper columns live on the stack (wiped before returning).
 *
 * The instructions run and the addresses touched depend on n alone, never
 * on limb values. */

#include "x86/asm_function.inc"

/* r[j] = limb j of T - m (m at rcx, r at \r), T[j] in \t, the borrow in and
 * out in CF. */
.macro SUBTRACT_LIMB j, t, r
	mov	\t, %rax
	sbb	8*\j(%rcx), %rax
	mov	%rax, 8*\j(\r)
.endm

/* r[j] = T[j] ^ ((r[j] ^ T[j]) & \keep): r[j] where \keep is all ones,
 * T[j] (in \t) where it is zero. */
.macro SELECT_LIMB j, t, r, keep
	mov	8*\j(\r), %rax
	xor	\t, %rax
	and	\keep, %rax
	xor	\t, %rax
	mov	%rax, 8*\j(\r)
.endm

/* r[0..8) = T[0..8) - m[0..8), T's low eight limbs in \t0..\t7 (the
 * kernels' register windows, which differ), the borrow out in CF. */
.macro SUBTRACT_LOW_EIGHT r, t0, t1, t2, t3, t4, t5, t6, t7
	mov	\t0, %rax
	sub	0(%rcx), %rax
	mov	%rax, 0(\r)
	SUBTRACT_LIMB 1, \t1, \r
	SUBTRACT_LIMB 2, \t2, \r
	SUBTRACT_LIMB 3, \t3, \r
	SUBTRACT_LIMB 4, \t4, \r
	SUBTRACT_LIMB 5, \t5, \r
	SUBTRACT_LIMB 6, \t6, \r
	SUBTRACT_LIMB 7, \t7, \r
.endm

/* SELECT_LIMB over limbs 0..7, T's low eight limbs in \t0..\t7. */
.macro SELECT_LOW_EIGHT r, keep, t0, t1, t2, t3, t4, t5, t6, t7
	SELECT_LIMB 0, \t0, \r, \keep
	SELECT_LIMB 1, \t1, \r, \keep
	SELECT_LIMB 2, \t2, \r, \keep
	SELECT_LIMB 3, \t3, \r, \keep
	SELECT_LIMB 4, \t4, \r, \keep
	SELECT_LIMB 5, \t5, \r, \keep
	SELECT_LIMB 6, \t6, \r, \keep
	SELECT_LIMB 7, \t7, \r, \keep
.endm

/* ---- 8 limbs, accumulator in registers -------------------------------------
 * Registers: rsi a, rcx m, rdx the multiplier, rax and rbx the product;
 * the window r8..r15, rbp, rdi holds T, columns i .. i+9 of step i in
 * W0..W9, each step's list being the previous one rotated by one. The
 * stack keeps r, b and minv. */

#define MONT8_R 0
#define MONT8_B 8
#define MONT8_MINV 16
#define MONT8_FRAME 24

/* W[j] += low(x[j] rdx) on CF, W[j+1] += high(x[j] rdx) on OF. */
.macro MONT8_STEP x, j, wj, wj1
	mulx	8*\j(\x), %rax, %rbx
	adcx	%rax, \wj
	adox	%rbx, \wj1
.endm

/* W0..W9 += x * rdx, with W9 taken as zero when \fresh; the chains close
 * into W8 and W9. */
.macro MONT8_ROW x, fresh, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9
	xor	%eax, %eax		/* clears CF and OF */
	MONT8_STEP \x, 0, \w0, \w1
	MONT8_STEP \x, 1, \w1, \w2
	MONT8_STEP \x, 2, \w2, \w3
	MONT8_STEP \x, 3, \w3, \w4
	MONT8_STEP \x, 4, \w4, \w5
	MONT8_STEP \x, 5, \w5, \w6
	MONT8_STEP \x, 6, \w6, \w7
	MONT8_STEP \x, 7, \w7, \w8
	mov	$0, %eax		/* MOV keeps the flags */
	.if \fresh
	mov	$0, \w9
	.endif
	adcx	%rax, \w8
	adox	%rax, \w9
	adcx	%rax, \w9
.endm

/* Step \i: T += a b[i], then T += m q; W0 is then zero and is dropped. */
.macro MONT8_STEP_ROWS i, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9
	mov	MONT8_B(%rsp), %rdx
	mov	8*\i(%rdx), %rdx
	MONT8_ROW %rsi, 1, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8, \w9
	mov	\w0, %rdx
	imul	MONT8_MINV(%rsp), %rdx
	MONT8_ROW %rcx, 0, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8, \w9
.endm

/* crisp_bn_mont_mul8_x86_64_adx(r rdi, a rsi, b rdx, m rcx, minv r8). */
FUNCTION crisp_bn_mont_mul8_x86_64_adx
	SAVE_REGISTERS
	sub	$MONT8_FRAME, %rsp
	mov	%rdi, MONT8_R(%rsp)
	mov	%rdx, MONT8_B(%rsp)
	mov	%r8, MONT8_MINV(%rsp)
	.irp w, %r8d, %r9d, %r10d, %r11d, %r12d, %r13d, %r14d, %r15d, %ebp
	xor	\w, \w
	.endr
	MONT8_STEP_ROWS 0, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %rbp, %rdi
	MONT8_STEP_ROWS 1, %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %rbp, %rdi, %r8
	MONT8_STEP_ROWS 2, %r10, %r11, %r12, %r13, %r14, %r15, %rbp, %rdi, %r8,  %r9
	MONT8_STEP_ROWS 3, %r11, %r12, %r13, %r14, %r15, %rbp, %rdi, %r8,  %r9,  %r10
	MONT8_STEP_ROWS 4, %r12, %r13, %r14, %r15, %rbp, %rdi, %r8,  %r9,  %r10, %r11
	MONT8_STEP_ROWS 5, %r13, %r14, %r15, %rbp, %rdi, %r8,  %r9,  %r10, %r11, %r12
	MONT8_STEP_ROWS 6, %r14, %r15, %rbp, %rdi, %r8,  %r9,  %r10, %r11, %r12, %r13
	MONT8_STEP_ROWS 7, %r15, %rbp, %rdi, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14
	/* T = r14:r13..r8,rdi,rbp. r = T - m, then T where that borrowed
	 * with no carry bit: r14 - borrow is 0 (keep T - m) or all ones. */
	mov	MONT8_R(%rsp), %rdx
	SUBTRACT_LOW_EIGHT %rdx, %rbp, %rdi, %r8, %r9, %r10, %r11, %r12, %r13
	sbb	$0, %r14
	not	%r14			/* all ones: keep T - m */
	SELECT_LOW_EIGHT %rdx, %r14, %rbp, %rdi, %r8, %r9, %r10, %r11, %r12, %r13
	movq	$0, MONT8_MINV(%rsp)	/* minv comes from m, which may be secret */
	add	$MONT8_FRAME, %rsp
	RESTORE_REGISTERS
	ret
END_FUNCTION crisp_bn_mont_mul8_x86_64_adx

/* ---- 16 limbs, low columns in registers ----------------------------------
 * T's columns i .. i+7 of step i live in the window r8..r15 (renamed one
 * place per step, as above), where q is read and each row starts; columns
 * i+8 .. i+17 live on the stack at rbp = T + i. The rows' register part
 * never waits on memory, and the memory part, one row behind another, has
 * slack. The reduction row, once it has cleared W0, puts its sum for
 * column i+8 there instead of on the stack. Registers: rsi a, rcx m, rbp
 * T + i, rdx the multiplier, rax the low half, rbx and rdi the high halves
 * of alternate limbs. The stack keeps T, r, b - T (so b + i is rbp + that)
 * and minv. */

#define MONT16_T_LIMBS 34
#define MONT16_R (8 * MONT16_T_LIMBS)
#define MONT16_B_OFFSET (MONT16_R + 8)
#define MONT16_MINV (MONT16_R + 16)
#define MONT16_FRAME (MONT16_R + 24)

/* The window's part of a row, W0..W7 += the first eight limbs of x * rdx
 * from cleared flags; leaves the high half of x[7] rdx in rbx, for the
 * memory part's OF chain. */
.macro WINDOW_LOW_LIMBS x, w0, w1, w2, w3, w4, w5, w6, w7
	xor	%eax, %eax		/* clears CF and OF */
	MONT8_STEP \x, 0, \w0, \w1
	MONT8_STEP \x, 1, \w1, \w2
	MONT8_STEP \x, 2, \w2, \w3
	MONT8_STEP \x, 3, \w3, \w4
	MONT8_STEP \x, 4, \w4, \w5
	MONT8_STEP \x, 5, \w5, \w6
	MONT8_STEP \x, 6, \w6, \w7
	mulx	8*7(\x), %rax, %rbx
	adcx	%rax, \w7
.endm

/* Limb \j >= 8 of a row: the memory column j += low(x[j] rdx) + the
 * previous high half (CF chain) and its old value (OF chain); the sum goes
 * back to memory, or into register \to when given. */
.macro MONT16_MEMORY_LIMB x, j, high, previous, to
	mulx	8*\j(\x), %rax, \high
	adcx	\previous, %rax
	.ifb \to
	adox	8*\j(%rbp), %rax
	mov	%rax, 8*\j(%rbp)
	.else
	adox	8*\j(%rbp), %rax
	mov	%rax, \to
	.endif
.endm

/* T += x * rdx over columns i .. i+17; column i+17 is taken as zero when
 * \fresh (the product row). The reduction row, which has cleared W0, puts
 * column i+8 there: it is the next step's top window column. */
.macro MONT16_ROW x, fresh, w0, w1, w2, w3, w4, w5, w6, w7
	WINDOW_LOW_LIMBS \x, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
	.if \fresh
	MONT16_MEMORY_LIMB \x, 8, %rdi, %rbx
	.else
	MONT16_MEMORY_LIMB \x, 8, %rdi, %rbx, \w0
	.endif
	MONT16_MEMORY_LIMB \x, 9, %rbx, %rdi
	MONT16_MEMORY_LIMB \x, 10, %rdi, %rbx
	MONT16_MEMORY_LIMB \x, 11, %rbx, %rdi
	MONT16_MEMORY_LIMB \x, 12, %rdi, %rbx
	MONT16_MEMORY_LIMB \x, 13, %rbx, %rdi
	MONT16_MEMORY_LIMB \x, 14, %rdi, %rbx
	MONT16_MEMORY_LIMB \x, 15, %rbx, %rdi
	mov	$0, %eax		/* MOV keeps the flags */
	adcx	%rax, %rbx		/* a high half is at most 2^64 - 2: no carry */
	adox	8*16(%rbp), %rbx
	mov	%rbx, 8*16(%rbp)
	.if \fresh
	adox	%rax, %rax
	.else
	mov	$0, %ebx
	mov	8*17(%rbp), %rax
	adox	%rbx, %rax
	.endif
	mov	%rax, 8*17(%rbp)
.endm

/* Step i: T += a b[i], then T += m q (which leaves column i+8 in W0). */
.macro MONT16_STEP w0, w1, w2, w3, w4, w5, w6, w7
	mov	MONT16_B_OFFSET(%rsp), %rdx
	mov	(%rdx,%rbp), %rdx
	MONT16_ROW %rsi, 1, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
	mov	\w0, %rdx
	imul	MONT16_MINV(%rsp), %rdx
	MONT16_ROW %rcx, 0, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
	lea	8(%rbp), %rbp
.endm

/* Eight steps, the window renamed one place per step. */
.macro WINDOW_EIGHT_STEPS step
	\step %r8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r15
	\step %r9,  %r10, %r11, %r12, %r13, %r14, %r15, %r8
	\step %r10, %r11, %r12, %r13, %r14, %r15, %r8,  %r9
	\step %r11, %r12, %r13, %r14, %r15, %r8,  %r9,  %r10
	\step %r12, %r13, %r14, %r15, %r8,  %r9,  %r10, %r11
	\step %r13, %r14, %r15, %r8,  %r9,  %r10, %r11, %r12
	\step %r14, %r15, %r8,  %r9,  %r10, %r11, %r12, %r13
	\step %r15, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14
.endm

/* r = T - m, then T where that borrowed with no carry bit: T's columns
 * 0..7 in r8..r15, 8..15 at rbp + 64, the carry bit in rsi; r at
 * \r_slot(%rsp). */
.macro WINDOW16_RESULT r_slot
	mov	\r_slot(%rsp), %rdi
	SUBTRACT_LOW_EIGHT %rdi, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
	.irp j, 8, 9, 10, 11, 12, 13, 14, 15
	SUBTRACT_LIMB \j, 8*\j(%rbp), %rdi
	.endr
	mov	%rsi, %rbx
	sbb	$0, %rbx
	not	%rbx			/* all ones: keep T - m */
	SELECT_LOW_EIGHT %rdi, %rbx, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
	.irp j, 8, 9, 10, 11, 12, 13, 14, 15
	SELECT_LIMB \j, 8*\j(%rbp), %rdi, %rbx
	.endr
.endm

/* crisp_bn_mont_mul16_x86_64_adx(r rdi, a rsi, b rdx, m rcx, minv r8). */
FUNCTION crisp_bn_mont_mul16_x86_64_adx
	SAVE_REGISTERS
	sub	$MONT16_FRAME, %rsp
	mov	%rdi, MONT16_R(%rsp)
	sub	%rsp, %rdx		/* b - T, T at the stack pointer */
	mov	%rdx, MONT16_B_OFFSET(%rsp)
	mov	%r8, MONT16_MINV(%rsp)
	mov	%rsp, %rbp
	xor	%eax, %eax
	.irp j, 8, 9, 10, 11, 12, 13, 14, 15, 16
	mov	%rax, 8*\j(%rsp)
	.endr
	.irp w, %r8d, %r9d, %r10d, %r11d, %r12d, %r13d, %r14d, %r15d
	xor	\w, \w
	.endr
.Lmont16_eight_steps:
	WINDOW_EIGHT_STEPS MONT16_STEP
	lea	8*16(%rsp), %rax
	cmp	%rax, %rbp
	jne	.Lmont16_eight_steps
	mov	8*16(%rbp), %rsi
	WINDOW16_RESULT MONT16_R
	/* T's stack part held products of a, b and m, and minv comes from m:
	 * wipe them. */
	xor	%eax, %eax
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33
	mov	%rax, 8*\j(%rsp)
	.endr
	mov	%rax, MONT16_MINV(%rsp)
	add	$MONT16_FRAME, %rsp
	RESTORE_REGISTERS
	ret
END_FUNCTION crisp_bn_mont_mul16_x86_64_adx

/* ---- Reduction of a 16-limb square -----------------------------------------
 * r = t R^-1 mod m for a product t < m R of 32 limbs, the rows of a
 * Montgomery reduction with the low columns in the register window as in
 * the multiplications: step i adds m q (q = t[i] minv) over columns
 * i .. i+16. Column i+16 already holds a limb of t, so the step's carry out
 * of it (0, 1 or 2) waits in rsi for the next step's column; after the last
 * step it is the result's carry bit. t held secrets: it is wiped before
 * returning. Registers: rcx m, rbp t + i, rsi the carry, rdx q, rax the
 * low half, rbx and rdi the high halves of alternate limbs; the window
 * r8..r15. The stack keeps r and minv. */

#define REDC_R 0
#define REDC_MINV 8
#define REDC_FRAME 16

/* Column i+16 of step i (rbp = t + i): \high + t[i+16] + both chains'
 * carries + rsi, stored back; the carry out goes to rsi. */
.macro REDC_TOP_COLUMN high
	mov	$0, %eax		/* MOV keeps the flags */
	adcx	%rax, \high		/* a high half is at most 2^64 - 2: no carry */
	adox	8*16(%rbp), \high
	adcx	%rsi, \high
	mov	\high, 8*16(%rbp)
	mov	$0, %esi
	adcx	%rax, %rsi
	adox	%rax, %rsi
.endm

/* Step i of 16: columns i+9 .. i+15 in memory, column i+16 stored back;
 * the cleared W0 takes column i+8, the next step's top window column. */
.macro REDC16_STEP w0, w1, w2, w3, w4, w5, w6, w7
	mov	\w0, %rdx
	imul	REDC_MINV(%rsp), %rdx
	WINDOW_LOW_LIMBS %rcx, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
	MONT16_MEMORY_LIMB %rcx, 8, %rdi, %rbx, \w0
	MONT16_MEMORY_LIMB %rcx, 9, %rbx, %rdi
	MONT16_MEMORY_LIMB %rcx, 10, %rdi, %rbx
	MONT16_MEMORY_LIMB %rcx, 11, %rbx, %rdi
	MONT16_MEMORY_LIMB %rcx, 12, %rdi, %rbx
	MONT16_MEMORY_LIMB %rcx, 13, %rbx, %rdi
	MONT16_MEMORY_LIMB %rcx, 14, %rdi, %rbx
	MONT16_MEMORY_LIMB %rcx, 15, %rbx, %rdi
	REDC_TOP_COLUMN %rbx
	lea	8(%rbp), %rbp
.endm

.macro REDC_ENTER
	SAVE_REGISTERS
	sub	$REDC_FRAME, %rsp
	mov	%rdi, REDC_R(%rsp)
	mov	%rcx, REDC_MINV(%rsp)
	mov	%rdx, %rcx
	mov	%rsi, %rbp
	xor	%esi, %esi
	mov	0(%rbp), %r8
	mov	8(%rbp), %r9
	mov	16(%rbp), %r10
	mov	24(%rbp), %r11
	mov	32(%rbp), %r12
	mov	40(%rbp), %r13
	mov	48(%rbp), %r14
	mov	56(%rbp), %r15
.endm

.macro REDC_LEAVE
	WINDOW16_RESULT REDC_R
	lea	-8*16(%rbp), %rbp	/* back to t */
	xor	%eax, %eax
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	mov	%rax, 8*\j(%rbp)
	.endr
	mov	%rax, REDC_MINV(%rsp)	/* minv comes from m, which may be secret */
	add	$REDC_FRAME, %rsp
	RESTORE_REGISTERS
	ret
.endm

/* crisp_bn_redc16_x86_64_adx(r rdi, t rsi, m rdx, minv rcx). */
FUNCTION crisp_bn_redc16_x86_64_adx
	REDC_ENTER
	WINDOW_EIGHT_STEPS REDC16_STEP
	WINDOW_EIGHT_STEPS REDC16_STEP
	REDC_LEAVE
END_FUNCTION crisp_bn_redc16_x86_64_adx
