#!/usr/bin/env python3
"""The dispatch switches through crisp info on this CPU (stage dispatch-cli).

CRYPTO_FORCE=generic makes every kernel generic; the CRYPTO_OPTIONS
switches of Poly1305 and the Montgomery multiplication make those kernels
generic; an unknown level or switch exits 2 with exactly one "crisp: " line
on stderr and a "level: LEVEL (REASON)" line whose reason holds no
parentheses of its own.

Usage: check_dispatch_cli.py BUILD_DIR (a built native build).
"""

import os
import re
import subprocess
import sys


def info(crisp, env):
    return subprocess.run([crisp, "info"], env={**os.environ, **env}, capture_output=True, text=True)


def expect_kernels(crisp, kernels, implementation, env):
    lines = info(crisp, env).stdout.splitlines()
    for kernel in kernels:
        if f"{kernel}: {implementation}" not in lines:
            sys.exit(f"with {env}: {kernel} is not {implementation}:\n" + "\n".join(lines))


def expect_one_warning(crisp, env):
    result = info(crisp, env)
    for line in result.stderr.splitlines():
        print(f"    stderr: {line}")
    level = [line for line in result.stdout.splitlines() if line.startswith("level: ")]
    print(f"    {level[0] if level else ''}")
    if len(level) != 1 or not re.fullmatch(r"level: [a-z0-9_-]+ \([^()]+\)", level[0]):
        sys.exit(f"with {env}: expected one line 'level: LEVEL (REASON)', REASON without parentheses")
    if result.returncode != 2:
        sys.exit(f"with {env}: exit {result.returncode}, expected 2")
    if sum(line.startswith("crisp: ") for line in result.stderr.splitlines()) != 1:
        sys.exit(f"with {env}: expected exactly one 'crisp: ' line on stderr")


def main():
    crisp = os.path.join(sys.argv[1], "tools", "crisp")
    kernels = subprocess.run([crisp, "info", "--kernels"], capture_output=True, text=True, check=True).stdout.split()
    if not kernels:
        sys.exit("crisp info --kernels named no kernel")
    print("  crisp info:")
    stdout = info(crisp, {}).stdout
    for line in stdout.splitlines():
        print(f"    {line}")
    if not re.search("^md5: ", stdout, re.M):
        sys.exit("crisp info shows no md5 line")
    print("  CRYPTO_FORCE=generic: every kernel generic")
    expect_kernels(crisp, kernels, "generic", {"CRYPTO_FORCE": "generic"})
    print("  CRYPTO_OPTIONS=-UsePoly1305Intrinsics,-UseMontgomeryMultiplyIntrinsic:")
    expect_kernels(crisp, ["poly1305", "bn_mont_mul", "bn_mod_exp2"], "generic",
                   {"CRYPTO_OPTIONS": "-UsePoly1305Intrinsics,-UseMontgomeryMultiplyIntrinsic"})
    print("  CRYPTO_FORCE=no-such-level:")
    expect_one_warning(crisp, {"CRYPTO_FORCE": "no-such-level"})
    print("  CRYPTO_OPTIONS=-UseNoSuchIntrinsic:")
    expect_one_warning(crisp, {"CRYPTO_OPTIONS": "-UseNoSuchIntrinsic"})


if __name__ == "__main__":
    main()
