#!/usr/bin/env python3
"""Writes bench/rsa_keys.c: fixed RSA keys (2048, 3072, 4096 bits, e = 65537)
for the rsa_private benchmark rows, so every run measures the same keys and
none waits for key generation. Deterministic: the same seed gives the same
file. Run from the repository root: python3 bench/make_rsa_keys.py"""
import random

E = 65537


def probable_prime(n, rng):
    if n % 2 == 0:
        return False
    for p in (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(32):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(bits, rng):
    while True:
        # the top two bits set, so p * q fills 2 * bits
        candidate = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if (candidate - 1) % E and probable_prime(candidate, rng):
            return candidate


def limbs(value, count):
    return [(value >> (64 * i)) & (2**64 - 1) for i in range(count)]


def array(name, value, count):
    words = limbs(value, count)
    lines = []
    for i in range(0, count, 4):
        lines.append("    " + ", ".join("0x%016xull" % w for w in words[i:i + 4]) + ",")
    return "static const crisp_limb %s[%d] = {\n%s\n};\n" % (name, count, "\n".join(lines))


def main():
    rng = random.Random(20260312)
    out = ["/* bench/rsa_keys.c - fixed RSA keys for the rsa_private rows (written by",
           " * bench/make_rsa_keys.py; regenerate rather than edit). Limbs are",
           " * little-endian; p > q, e = 65537. */",
           '#include "rsa_keys.h"', ""]
    entries = []
    for bits in (2048, 3072, 4096):
        half = bits // 2
        p, q = prime(half, rng), prime(half, rng)
        if p < q:
            p, q = q, p
        n = p * q
        d = pow(E, -1, (p - 1) * (q - 1))
        h = half // 64
        fields = {"n": (n, 2 * h), "d": (d, 2 * h), "p": (p, h), "q": (q, h), "dp": (d % (p - 1), h),
                  "dq": (d % (q - 1), h), "qinv": (pow(q, -1, p), h)}
        for field, (value, count) in fields.items():
            out.append(array("%s%d" % (field, bits), value, count))
        entries.append("    {%d, %d, n%d, d%d, p%d, q%d, dp%d, dq%d, qinv%d}," % ((bits, h) + (bits,) * 7))
    out.append("const bench_rsa_key bench_rsa_keys[] = {\n%s\n};" % "\n".join(entries))
    out.append("const size_t bench_rsa_key_count = sizeof bench_rsa_keys / sizeof bench_rsa_keys[0];")
    out.append("""
const bench_rsa_key *bench_rsa_key_for(size_t bits) {
  for (size_t i = 0; i < bench_rsa_key_count; i++)
    if (bench_rsa_keys[i].bits == bits) return &bench_rsa_keys[i];
  return NULL;
}""")
    with open("bench/rsa_keys.c", "w") as f:
        f.write("\n".join(out) + "\n")


main()
