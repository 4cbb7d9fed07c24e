/* src/x86/md5_scalar.S - MD5 compression, one stream, in x86-64 general
 * registers: crisp_md5_x86_64 (baseline x86-64) and crisp_md5_x86_64_bmi1
 * (ANDN for the not-terms of F and G).
 *
 * Layout: a, b, c, d in r8d..r11d, rotating names from step to step; eax
 * carries x[k] + K[i] of the next step, prepared while the current step runs.
 * ISA: x86-64 (SSE2-era CPUs); the _bmi1 entry also needs BMI1.
 * Meant for: any length; the single-stream workhorse and the fallback of the
 * SIMD lane kernels when few lanes are busy.
 * Cycle model: the latency bound is 5/4/4/5 cycles for F/G/H/I steps, 288
 * cycles a block (a G step of 5 cycles, as in the usual form, makes 304); the
 * ANDN entry has the same bound, its not-terms being off the path either way.
 *
 * The round step is built for its critical path, which runs through b (the
 * value the previous step produced) into the new a:
 *   - x[k] + K[i] is summed into a spare register one step early and added
 *     to a, which is 4 steps old, before b arrives;
 *   - two-operand ADDs only, no three-operand LEA (LEA with base, index and
 *     displacement has 2-cycle latency on many cores: JDK-8296548);
 *   - G(b,c,d) = (d & b) | (~d & c) is added as two separate ADDs, as the two
 *     terms never share a set bit: ~d & c is ready early, so only d & b sits
 *     on the path (4 cycles per step instead of 5);
 *   - F, H and I keep their shortest 2-input forms: F = ((c ^ d) & b) ^ d or,
 *     with BMI1, (b & c) + (~b & d); I = (b | ~d) ^ c with ~d made early. */

#include "x86/asm_function.inc"

/* Registers besides the state words: pointers, the prepared x + K, scratch. */
#define STATE	%rdi
#define DATA	%rsi
#define END	%rdx
#define NEXT	%eax
#define T1	%ecx
#define T2	%ebx

/* The 64 step constants, floor(2^32 * abs(sin(i))) for i = 1..64 (RFC 1321
 * 3.4), in step order. */
	.section .rodata
	.type	crisp_md5_step_constants, @object
	.size	crisp_md5_step_constants, 256
	.balign 64
crisp_md5_step_constants:
	.long 0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501
	.long 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821
	.long 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8
	.long 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a
	.long 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70
	.long 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665
	.long 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1
	.long 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391

	.text

/* NEXT = x[k] + K[i] for step i, where the message word of step i is
 * k = i, 1 + 5i, 5 + 3i, 7i (mod 16) in rounds 1..4 (RFC 1321 3.4). */
.macro PREPARE i
	.if (\i) < 16
	mov	4*(\i)(DATA), NEXT
	.elseif (\i) < 32
	mov	4*((1 + 5*(\i)) & 15)(DATA), NEXT
	.elseif (\i) < 48
	mov	4*((5 + 3*(\i)) & 15)(DATA), NEXT
	.else
	mov	4*((7*(\i)) & 15)(DATA), NEXT
	.endif
	add	crisp_md5_step_constants+4*(\i)(%rip), NEXT
.endm

/* Step i: a = b + ((a + f(b, c, d) + x[k] + K[i]) <<< s), f by round. */
.macro STEP i, a, b, c, d, s, bmi1
	add	NEXT, \a
	.if (\i) < 63
	PREPARE (\i) + 1
	.endif
	.if (\i) < 16
	.if \bmi1
	andn	\d, \b, T1		/* ~b & d */
	mov	\c, T2
	and	\b, T2			/* b & c */
	add	T1, \a
	add	T2, \a
	.else
	mov	\c, T1
	xor	\d, T1
	and	\b, T1
	xor	\d, T1
	add	T1, \a
	.endif
	.elseif (\i) < 32
	.if \bmi1
	andn	\c, \d, T1		/* ~d & c, off the path */
	.else
	mov	\d, T1
	not	T1
	and	\c, T1
	.endif
	add	T1, \a
	mov	\d, T2
	and	\b, T2			/* d & b, the only term on the path */
	add	T2, \a
	.elseif (\i) < 48
	mov	\c, T1
	xor	\d, T1
	xor	\b, T1
	add	T1, \a
	.else
	mov	\d, T1
	not	T1
	or	\b, T1
	xor	\c, T1
	add	T1, \a
	.endif
	rol	$\s, \a
	add	\b, \a
.endm

/* Sixteen steps of one round from step base, a..d rotating every step. */
.macro ROUND base, s0, s1, s2, s3, bmi1
	.irp j, 0, 4, 8, 12
	STEP (\base) + \j + 0, %r8d, %r9d, %r10d, %r11d, \s0, \bmi1
	STEP (\base) + \j + 1, %r11d, %r8d, %r9d, %r10d, \s1, \bmi1
	STEP (\base) + \j + 2, %r10d, %r11d, %r8d, %r9d, \s2, \bmi1
	STEP (\base) + \j + 3, %r9d, %r10d, %r11d, %r8d, \s3, \bmi1
	.endr
.endm

/* void name(uint32_t state[4], const uint8_t *data, size_t nblocks) */
.macro MD5_BLOCKS name, bmi1
	FUNCTION \name
	test	%rdx, %rdx
	jz	2f
	push	%rbx
	shl	$6, %rdx
	add	DATA, END
	mov	0(STATE), %r8d
	mov	4(STATE), %r9d
	mov	8(STATE), %r10d
	mov	12(STATE), %r11d
	.balign	32
1:
	PREPARE 0
	/* Shifts per round from RFC 1321 3.4. */
	ROUND 0, 7, 12, 17, 22, \bmi1
	ROUND 16, 5, 9, 14, 20, \bmi1
	ROUND 32, 4, 11, 16, 23, \bmi1
	ROUND 48, 6, 10, 15, 21, \bmi1
	add	0(STATE), %r8d
	add	4(STATE), %r9d
	add	8(STATE), %r10d
	add	12(STATE), %r11d
	mov	%r8d, 0(STATE)
	mov	%r9d, 4(STATE)
	mov	%r10d, 8(STATE)
	mov	%r11d, 12(STATE)
	add	$64, DATA
	cmp	END, DATA
	jb	1b
	pop	%rbx
2:
	ret
	END_FUNCTION \name
.endm

	MD5_BLOCKS crisp_md5_x86_64, 0
	MD5_BLOCKS crisp_md5_x86_64_bmi1, 1
