#!/usr/bin/env python3
"""fuzz/make_corpus.py - writes the seed inputs in fuzz/corpus/HARNESS/:
a few small files per harness that reach its interesting sizes (block and
lane boundaries, Karatsuba and AVX-512 IFMA sizes, all-ones carries) in the
input layout each harness's header comment describes. Deterministic; run it
again after changing a layout."""
import os
import random
import struct

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
rng = random.Random(0x637269737)


def u16(value):
    return struct.pack(">H", value)


def noise(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def limbs(n, shape=0):
    """A fuzz_limbs operand: shape byte, then 8n bytes."""
    return bytes([shape]) + noise(8 * n)


def size(n):
    """A 1 + fuzz_below(bound) size."""
    return u16(n - 1)


def splits(points):
    return bytes([len(points)]) + b"".join(u16(p) for p in points)


seeds = {
    "md5": [
        splits([]) + b"abc",
        splits([1, 63]) + noise(200),
        splits([55, 1, 8]) + b"\xff" * 1000,
        splits([64, 64, 64, 64]) + noise(600),
    ],
    "md5_many": [
        bytes([3]) + u16(0) + u16(3) + u16(1) + u16(0) + u16(0) + u16(0) + u16(4) + u16(64) + u16(10) + noise(80),
        bytes([17]) + b"".join(u16(i) + u16(55 + i) + u16(i * 3) for i in range(17)) + noise(200),
        bytes([40]) + b"".join(u16(i * 5) + u16(i * 37 % 300) + u16(64) for i in range(40)) + noise(400),
    ],
    "poly1305": [
        bytes.fromhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
        + splits([]) + b"Cryptographic Forum Research Group",
        b"\xff" * 32 + splits([16, 1, 47]) + b"\xff" * 300,
        noise(32) + splits([255, 1, 16, 64, 128]) + noise(1100),
    ],
    "bn_mul": [
        size(1) + size(1) + limbs(1) + limbs(1),
        size(32) + size(32) + limbs(32, 2) + limbs(32, 2),
        size(257) + size(40) + limbs(257) + limbs(40),
        size(7) + size(300) + bytes([2]) + bytes([2]),  # all ones
    ],
    "bn_sqr": [size(n) + limbs(n, 6 if n % 2 else 0) for n in (1, 31, 32, 256, 300)],
    "bn_mul_add": [
        size(1) + b"\x00" + b"\xff" * 8 + limbs(1) + limbs(1),
        size(33) + b"\x01" + noise(8) + limbs(33) + limbs(33),
        size(300) + b"\x00" + b"\xff" * 8 + bytes([2]) + bytes([2]),
    ],
    "bn_mont_mul": [
        size(n) + bytes([alias]) + limbs(n, 6) + b"\x00" + limbs(n) + b"\x03" for n, alias in
        ((1, 0), (16, 1), (24, 2), (32, 0), (48, 0), (64, 1), (256, 0))
    ],
    "bn_mont_sqr": [
        size(n) + bytes([n & 1]) + limbs(n, 6) + b"\x01" for n in (1, 16, 24, 33, 64, 256)
    ],
    "bn_mod_exp": [
        size(1) + b"\x00\x00" + limbs(1) + b"\x00" + limbs(1),
        size(16) + b"\x04\x01" + limbs(16, 6) + b"\x05" + limbs(4),
        size(32) + b"\x02\x00" + limbs(32, 6) + b"\x00" + limbs(32) + limbs(2, 2),
        size(64) + b"\x01\x00" + limbs(64, 6) + b"\x00" + limbs(64) + limbs(1),
    ],
    # n, en, in place, m0, m1, b0, b1, e0, e1: the dual kernel's sizes and others
    "bn_mod_exp2": [
        size(n) + bytes([en, alias]) + limbs(n, 6) + limbs(n, 6) + b"\x00" + limbs(n) + b"\x01"
        + b"".join(limbs(en, shape) for shape in (0, 2) if en)
        for n, en, alias in ((1, 1, 0), (2, 0, 1), (16, 4, 0), (16, 1, 1), (24, 2, 0), (32, 3, 1), (33, 1, 0))
    ],
    # half, p, q, dp, dq, qinv below p, c
    # then e = 65537 and a random key (the fault check rejects it), and at
    # the IFMA sizes q = p, dp = dq = e = 1 (the check passes)
    "bn_mod_exp_crt": [
        size(h) + limbs(h) + limbs(h) + limbs(h) + limbs(h, 2) + b"\x00" + limbs(h) + limbs(2 * h)
        + bytes([0]) + struct.pack("<Q", 65537) + u16(1)
        for h in (1, 2, 8, 16, 24, 32)
    ] + [
        size(h) + bytes([0]) + bytes([0xff] * (8 * h)) + b"\x00" * (4 * (1 + 8 * h) + 1)
        + bytes([0]) + b"\x5a" * (8 * h) + bytes(8 * h) + bytes([0]) + struct.pack("<Q", 1) + u16(0)
        for h in (16, 24, 32)
    ] + [
        # then a flaw byte and the amount c >= p q exceeds p q by: each flaw
        # (an even p, an even q, p q short, qinv = p, qinv all ones) on a
        # partner key, and none (0xff) with c = p q + 2^64 - 1; fixed bytes,
        # not noise, so that the other harnesses' seeds stay as they were
        size(h) + b"".join(bytes([0]) + bytes([0x3c + i]) * (8 * h) for i in range(4)) + b"\x00"
        + bytes([0]) + bytes([0x21]) * (8 * h) + bytes([0]) + bytes([0x77]) * (16 * h)
        + bytes([0]) + struct.pack("<Q", 65537) + u16(1) + bytes([flaw]) + struct.pack("<Q", delta)
        for h, flaw, delta in ((2, 1, 0), (2, 2, 0), (16, 3, 0), (16, 4, 0), (16, 5, 0), (16, 0xff, 2**64 - 1))
    ],
    # key, nonce, big-endian counter, message: RFC 8439 2.4.2, the counter
    # limit, group boundaries of the 4-, 8- and 16-block kernels
    "chacha20": [
        bytes(range(32)) + bytes.fromhex("000000000000004a00000000") + struct.pack(">I", 1)
        + b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
          b"sunscreen would be it.",
        noise(44) + struct.pack(">I", 0xffffffff) + noise(64),
        noise(44) + struct.pack(">I", 0xfffffff0) + noise(1025),
        noise(44) + struct.pack(">I", 7) + noise(1536),
    ],
    # key, nonce, AD length, AD, message: RFC 8439 2.8.2, short and long
    "chacha20poly1305": [
        bytes(range(0x80, 0xa0)) + bytes.fromhex("070000004041424344454647") + bytes([12])
        + bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
        + b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
          b"sunscreen would be it.",
        noise(44) + bytes([0]) + noise(15),
        noise(44) + bytes([255]) + noise(255) + noise(961),
        noise(44) + bytes([13]) + noise(13) + noise(4100),
    ],
    "xchacha20poly1305": [
        bytes(range(0x80, 0xa0)) + bytes(range(0x40, 0x58)) + bytes([12]) + bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
        + b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
          b"sunscreen would be it.",
        noise(56) + bytes([1]) + noise(1) + noise(64),
        noise(56) + bytes([40]) + noise(40) + noise(2100),
    ],
    # key, nonce, AD length, AD, splits, message
    "chacha20poly1305_stream": [
        noise(44) + bytes([5]) + noise(5) + splits([1, 63, 64]) + noise(300),
        noise(44) + bytes([0]) + splits([17, 1000, 3, 2048]) + noise(5000),
        noise(44) + bytes([16]) + noise(16) + splits([]) + noise(960),
    ],
}

for harness, inputs in seeds.items():
    directory = os.path.join(root, harness)
    os.makedirs(directory, exist_ok=True)
    for old in os.listdir(directory):
        os.remove(os.path.join(directory, old))
    for i, data in enumerate(inputs):
        with open(os.path.join(directory, "seed-%02d" % i), "wb") as f:
            f.write(data)
    print("%-12s %d seeds" % (harness, len(inputs)))
