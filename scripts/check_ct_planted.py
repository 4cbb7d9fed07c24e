#!/usr/bin/env python3
"""The planted constant-time leaks must be reported (stage ct-planted).

-Dplant_leak=branch|table plants a secret-dependent branch or table load in
the IFMA Montgomery code (crisp_bn52_amm) and the ADX Montgomery wrapper:
MemorySanitizer must report both (test/ct_msan), memcheck the ADX one
(bn-ct calls that kernel directly; valgrind cannot run AVX-512), and the
timing test the branch, whose extra work it can time. A load from a small
table stays in L1 and costs the same for every index, so the timing
test's verdict on the table plant is shown, not asserted.
-Dplant_leak=key branches on bit 8 of p in the RSA CRT: the timing test's
targets that vary the key (fixed against a pool), the one-call form's and
the prepared key's (key_exp), must all report it.
The timing test's power falls when other work shares the machine; a
target that must report a plant and did not is measured again with four
times the samples (t grows with their square root) before it counts as
missed.

Usage: check_ct_planted.py branch|table MSAN_BUILD GCC_BUILD, or
check_ct_planted.py key GCC_BUILD: the builds scripts/hardening.sh made
with that plant, MSAN_BUILD with ct_msan, GCC_BUILD with test_bn_ct and
ct_timing (ct_timing only for key). One plant a run, since the stage
switches a build from one plant to the next.
"""

import os
import re
import subprocess
import sys


def run(command, env=None):
    result = subprocess.run(command, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


class Check:
    def __init__(self):
        self.failed = False

    def fail(self, message):
        print(f"    {message}", file=sys.stderr)
        self.failed = True

    def msan(self, build, impls, min_limbs, source):
        """ct_msan restricted to impls stops with a report whose innermost frame is in source."""
        status, output = run([f"{build}/test/ct_msan"], {"CRISP_CT_IMPLS": impls, "CRISP_CT_MIN_LIMBS": min_limbs,
                                                         "MSAN_OPTIONS": "halt_on_error=1:exitcode=66"})
        frame = re.search(r"^ +#0 .* in (\S+) .*/([^/]+:[0-9]+)", output, re.M)
        where = f"{frame.group(1)} ({frame.group(2)})" if frame else "none"
        if status == 66 and re.search(f"#0 .*{re.escape(source)}", output):
            print(f"    {impls + ':':26} MSan: use-of-uninitialized-value in {where}")
        else:
            self.fail(f"{impls}: MSan did not report the plant in {source} (exit {status}, first frame: {where})")

    def memcheck(self, build):
        status, _ = run(["meson", "test", "-C", build, "--no-rebuild", "bn-ct"])
        log = open(f"{build}/meson-logs/testlog.txt").read().splitlines()
        first = next((index for index, line in enumerate(log)
                      if re.search("Conditional jump|Use of uninitialised value", line)), None)
        error = "" if first is None else " ".join(re.sub(r"^==[0-9]+== *", "", line) for line in log[first:first + 2])
        if status != 0 and "bn_mont_adx.c" in error:
            print(f"    {'x86_64-adx:':26} memcheck: {error}")
        else:
            self.fail(f"x86_64-adx: memcheck did not report the plant (bn-ct exit {status})")
        print("    avx512ifma: memcheck cannot run it (valgrind has no AVX-512)")

    def timing(self, build, kernels, impls=None, scale=None, label="timing"):
        env = {"CRISP_CT_KERNELS": kernels, **({"CRISP_CT_IMPLS": impls} if impls else {})}
        env.update({"CRISP_CT_TIMING_SCALE": scale} if scale else {})
        lines = [line for line in run([f"{build}/test/ct_timing"], env)[1].splitlines() if line.startswith(kernels)]
        for line in lines:
            print(f"    {label}: {line}")
        return lines

    def timing_reports(self, build, kernel, target, lines):
        """Whether the timing lines report a leak in target ("IMPL +LIMBS", a
        pattern: the line pads the limbs with spaces), measured again with
        four times the samples when they do not."""
        leaked = re.compile(f"^{kernel} +{target} .*LEAK$")
        if any(leaked.search(line) for line in lines):
            return True
        impl = target.split()[0]
        again = self.timing(build, kernel, impl, scale="4", label="4x samples")
        return any(leaked.search(line) for line in again)


def main():
    plant, builds = sys.argv[1], sys.argv[2:]
    flags = open("/proc/cpuinfo").read().split()
    ifma = "avx512ifma" in flags
    if "adx" not in flags:
        sys.exit("this CPU has no ADX (and so no IFMA kernel): no planted kernel can run here")
    check = Check()
    print(f"  -Dplant_leak={plant}:")
    if plant in ["branch", "table"]:
        msan_build, gcc_build = builds
        check.msan(msan_build, "x86_64-adx", "0", "bn_mont_adx.c")
        if ifma:
            check.msan(msan_build, "avx512ifma", "24", "bn52_avx512ifma.c")
        else:
            print("    avx512ifma: this CPU has no IFMA, not checked")
        check.memcheck(gcc_build)
        lines = check.timing(gcc_build, "bn_mont_mul", "avx512ifma,x86_64-adx")
        if plant == "branch":
            for expected in ["x86_64-adx +16", "x86_64-adx +32"] + (["avx512ifma +32"] if ifma else []):
                if not check.timing_reports(gcc_build, "bn_mont_mul", expected, lines):
                    check.fail(f"timing test did not report the branch plant in bn_mont_mul {expected}")
    elif plant == "key":
        keys = [line for line in check.timing(builds[0], "rsa_private")
                if re.search(r"^rsa_private .* key fixed/pool ", line)]
        if not any(" key_exp key fixed/pool " in line for line in keys):
            check.fail("timing test has no rsa_private key_exp key fixed/pool target (the prepared key)")
        if not keys or not all(line.endswith("LEAK") for line in keys):
            check.fail("timing test did not report the key plant in every rsa_private key fixed/pool target")
    else:
        sys.exit(f"check_ct_planted.py: unknown plant '{plant}'")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
