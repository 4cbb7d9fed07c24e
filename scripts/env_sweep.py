#!/usr/bin/env python3
"""The environment sweep (stage env-sweep of scripts/test.sh).

Under every CRYPTO_FORCE level, every CRYPTO_OPTIONS switch, CRYPTO_IMPL
pins, pretended microarchitectures and garbage values, for each case:
crisp info prints the expected number of "crisp: " lines and exit status,
its kernel lines obey the case (at most the forced level, generic where
switched off, the pinned implementations), what crisp info and the API
report matches the documented table (test/test_dispatch_table.c), and the
quick suite passes (at a quarter of the random trials unless
CRISP_TEST_SCALE is set: the point is the environment, not the trials),
but for its source checks (suite source), which read files the
environment cannot change and run once in the native stage.

The quick suite runs once per dispatch state: the level, the
microarchitecture (which sets the tuning parameters) and the implementation
of every kernel, as crisp info reports them. A case whose environment
leaves the state as an earlier case did (most garbage values leave the
default) still has its crisp info and table checked, but the suite, which
would run the same code, is not run again.

Usage: env_sweep.py BUILD_DIR (a configured and built native build).
"""

import os
import subprocess
import sys
import time

# The quick suite without the source checks.
QUICK = ["--suite", "quick", "--no-suite", "source"]


def run(command, extra_env):
    """Runs command with extra_env (bytes values allowed) added."""
    env = dict(os.environb)
    for key, value in extra_env.items():
        env[key.encode()] = value if isinstance(value, bytes) else value.encode()
    return subprocess.run(command, env=env, capture_output=True)


class Sweep:
    def __init__(self, build):
        self.build = build
        self.crisp = os.path.join(build, "tools", "crisp")
        info = subprocess.run([self.crisp, "info"], capture_output=True, text=True).stdout
        self.levels = next((line.split()[1:] for line in info.splitlines() if line.startswith("levels: ")), [])
        kernels = subprocess.run([self.crisp, "info", "--kernels"], capture_output=True, text=True).stdout
        self.kernels = kernels.split()
        if not self.levels or not self.kernels:
            sys.exit("crisp info shows no levels line or names no kernel")
        self.failed = False
        self.suite_run_for = {}  # dispatch state -> the case that ran the suite

    def rank(self, implementation):
        """The level rank of an implementation name ("x86_64-adx": x86_64's)."""
        level = implementation.split("-")[0]
        return self.levels.index(level) if level in self.levels else 99

    def selection(self, stdout):
        """The kernel lines of crisp info, as {kernel: implementation}."""
        chosen = {}
        for line in stdout.splitlines():
            kernel, _, implementation = line.partition(": ")
            if kernel in self.kernels:
                chosen[kernel] = implementation
        return chosen

    def state(self, stdout):
        """What the quick suite's code paths depend on: the level, the
        microarchitecture and the kernel lines, without crisp info's notes
        on where each came from."""
        words = {line.partition(": ")[0]: line.partition(": ")[2].split(" ")[0] for line in stdout.splitlines()}
        return (words.get("level"), words.get("uarch"), tuple(sorted(self.selection(stdout).items())))

    def at_most(self, cap):
        return lambda chosen: all(self.rank(impl) <= self.rank(cap) for impl in chosen.values())

    @staticmethod
    def generic(kernels):
        return lambda chosen: all(chosen.get(kernel) == "generic" for kernel in kernels)

    @staticmethod
    def pinned(pins):
        return lambda chosen: all(chosen.get(kernel) == impl for kernel, impl in pins)

    def case(self, label, expected, check, env):
        """expected: the number of "crisp: " lines (exit 2 when one, 0 when
        none), or "level" for a level this CPU may lack (either)."""
        info = run([self.crisp, "info"], env)
        stdout, stderr = info.stdout.decode(errors="replace"), info.stderr.decode(errors="replace")
        lines = [line for line in stderr.splitlines() if line.startswith("crisp: ")]
        if expected == "level":
            expected = 1 if len(lines) == 1 and info.returncode == 2 and "lacks" in stderr else 0
        want_status = 2 if expected else 0
        if len(lines) != expected or info.returncode != want_status:
            return self.fail(label, f"crisp info exit {info.returncode} with {len(lines)} 'crisp: ' lines, "
                             f"expected {want_status} and {expected}", stderr.splitlines()[:5])
        if check and not check(self.selection(stdout)):
            return self.fail(label, "unexpected selection:", stdout.splitlines())
        table = run([os.path.join(self.build, "test", "test_dispatch_table"), self.crisp, "--current"], env)
        if table.returncode != 0:
            output = (table.stdout + table.stderr).decode(errors="replace").splitlines()
            return self.fail(label, "crisp reports differ from the documented table:",
                             [line for line in output if not line.startswith("#")][:20])
        note = f", stderr: {lines[0][:70]}..." if expected else ""
        state = self.state(stdout)
        if state in self.suite_run_for:
            print(f"    {label:44} ok (suite ran as {self.suite_run_for[state]}){note}", flush=True)
            return None
        self.suite_run_for[state] = label
        start = time.monotonic()
        scale = {"CRISP_TEST_SCALE": os.environ.get("CRISP_TEST_SCALE", "0.25")}
        suite = run(["meson", "test", "-C", self.build, "--no-rebuild"] + QUICK, {**env, **scale})
        if suite.returncode != 0:
            output = suite.stdout.decode(errors="replace").splitlines()
            return self.fail(label, "suites FAILED", [line for line in output if "/" in line[:8]])
        print(f"    {label:44} ok ({time.monotonic() - start:.0f} s){note}", flush=True)

    def fail(self, label, what, details):
        print(f"  {label}: {what}", file=sys.stderr)
        for line in details:
            print(f"      {line[:200]}", file=sys.stderr)
        self.failed = True

    def second_supported_pins(self):
        """Per kernel, the second supported implementation of crisp info --all."""
        pins, kernel, seen = [], None, 0
        listing = subprocess.run([self.crisp, "info", "--all"], capture_output=True, text=True).stdout
        for line in listing.splitlines():
            if not line.startswith(" ") and line.partition(": ")[0] in self.kernels:
                kernel, seen = line.partition(": ")[0], 0
            elif kernel and line.startswith("  ") and line[2:3].isalpha():
                words = line.split()
                if len(words) > 1 and words[1].startswith("supported"):
                    seen += 1
                    if seen == 2:
                        pins.append((kernel, words[0]))
        return pins


def main():
    sweep = Sweep(sys.argv[1])
    names = subprocess.run(["meson", "test", "-C", sweep.build, "--no-rebuild", "--list"] + QUICK,
                           capture_output=True, text=True).stdout
    print("    suite quick:", " ".join(line.split(" / ")[-1] for line in names.splitlines() if " / " in line))
    for level in sweep.levels:
        sweep.case(f"CRYPTO_FORCE={level}", "level", sweep.at_most(level), {"CRYPTO_FORCE": level})
    switches = {
        "UseMD5Intrinsics": ["md5", "md5_many"], "UsePoly1305Intrinsics": ["poly1305"],
        "UseMultiplyToLenIntrinsic": ["bn_mul"], "UseSquareToLenIntrinsic": ["bn_sqr"],
        "UseMulAddIntrinsic": ["bn_mul_add"], "UseMontgomeryMultiplyIntrinsic": ["bn_mont_mul", "bn_mod_exp2"],
        "UseMontgomerySquareIntrinsic": ["bn_mont_sqr"], "UseChaCha20Intrinsics": ["chacha20"],
    }
    for switch, kernels in switches.items():
        sweep.case(f"CRYPTO_OPTIONS=-{switch}", 0, sweep.generic(kernels), {"CRYPTO_OPTIONS": f"-{switch}"})
    every_switch = ",".join(f"-{switch}" for switch in switches)
    sweep.case("CRYPTO_OPTIONS=every switch off", 0, sweep.generic(sweep.kernels), {"CRYPTO_OPTIONS": every_switch})
    sweep.case("CRYPTO_OPTIONS=+UseMD5Intrinsics", 0, None, {"CRYPTO_OPTIONS": "+UseMD5Intrinsics"})
    long = "x" * 5000
    sweep.case("CRYPTO_FORCE= (empty, as unset)", 0, None, {"CRYPTO_FORCE": ""})
    sweep.case("CRYPTO_FORCE=<5000 x>", 1, None, {"CRYPTO_FORCE": long})
    sweep.case("CRYPTO_FORCE=<non-ASCII>", 1, None, {"CRYPTO_FORCE": b"\xff\xfe\xc3\xa9\x1b[2J"})
    sweep.case("CRYPTO_OPTIONS= (empty)", 0, None, {"CRYPTO_OPTIONS": ""})
    sweep.case("CRYPTO_OPTIONS=<5000 x>", 1, None, {"CRYPTO_OPTIONS": long})
    sweep.case("CRYPTO_OPTIONS=<non-ASCII>", 1, None, {"CRYPTO_OPTIONS": b"-Use\xc3\xa9\xff\x1b[2J"})
    # CRYPTO_IMPL: every kernel pinned to generic, then to its second
    # supported implementation; refusals print one line and keep the default.
    for label, pins in [("every kernel:generic", [(kernel, "generic") for kernel in sweep.kernels]),
                        ("second supported of each", sweep.second_supported_pins())]:
        value = " ".join(f"{kernel}:{impl}" for kernel, impl in pins)
        sweep.case(f"CRYPTO_IMPL={label}", 0, sweep.pinned(pins), {"CRYPTO_IMPL": value})
    sweep.case("CRYPTO_IMPL=md5:no-such", 1, None, {"CRYPTO_IMPL": "md5:no-such"})
    sweep.case("CRYPTO_IMPL=no-such:generic", 1, None, {"CRYPTO_IMPL": "no-such:generic"})
    sweep.case("CRYPTO_IMPL=<5000 x>", 1, None, {"CRYPTO_IMPL": long})
    sweep.case("CRYPTO_IMPL=<non-ASCII>", 1, None, {"CRYPTO_IMPL": b"md5:\xc3\xa9\xff\x1b[2J"})
    # The microarchitecture table's rows, whatever this CPU is.
    for uarch in ["zen4", "zen5", "icelake", "neoverse-v2", "unknown"]:
        sweep.case(f"CRISP_CPU_UARCH={uarch}", 0, None, {"CRISP_CPU_UARCH": uarch})
    sweep.case("CRISP_CPU_UARCH=icelake CRYPTO_FORCE=avx2", "level", sweep.at_most("avx2"),
               {"CRISP_CPU_UARCH": "icelake", "CRYPTO_FORCE": "avx2"})
    return 1 if sweep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
