#!/usr/bin/env python3
"""The mutation check: each bug in a directory of patches, planted in turn.

  python3 scripts/mutate.py                 every mutant in test/mutants/
  python3 scripts/mutate.py NAME...         only these (file names, .patch optional)
  python3 scripts/mutate.py --check [DIR]   every mutant still applies (no build)
  bash scripts/test.sh mutate               the mutation run, as an opt-in stage
  bash scripts/test.sh mutants-apply        the --check, as a default stage

A mutant is a patch that `git apply` takes at the repository root. Lines
before its first "diff --git" say what the bug is; one of them may be
  Emulate: qemu64 | Haswell | Broadwell | arm64 | clang | portable-scrub | long | msan
for code only that CPU reaches: when the native `meson test` passes, the
suite's test programs then run on that emulated CPU (arm64: a cross build
under qemu-aarch64) before the mutant counts as survived. clang is not a
CPU but a compiler: the test programs of a clang build and its memcheck
constant-time tests, for a bug only clang's code shows (a stack wipe
that gcc's frame layout happens not to need, a mask clang turns into a
branch). portable-scrub is test_wipe on a clang build whose stack scrub
is the portable C one (-DCRISP_SCRUB_PORTABLE), which x86-64 and arm64
builds otherwise replace by assembly. long is not a CPU either: the
md5-long stage's real 4 GiB messages (CRISP_TEST_LONG=1), for length
arithmetic only they reach. msan is the ct-msan stage's build
(test/ct_msan.c under MemorySanitizer, secrets poisoned), for a
secret-dependent branch or address no functional test can see.

The run plants each mutant in a scratch copy of the tree, rebuilds, runs
the suite and reverts. Each mutant ends as one of: killed (a test failed),
survived (every test passed: a gap in the tests), no longer applies (the
code it patches has changed: rewrite or drop it), does not build (not
counted). The last line is "mutate: K killed, S survived, N no longer
apply, B do not build, kill rate R%", and the exit status is non-zero when
any mutant survived.

--check: a mutant whose code has changed under it no longer applies, and
the run can then only report it, never kill it: a test that cannot fail.
The check runs `git apply --check` on each patch against the working tree
as it is (nothing is written, no build is needed), so a change that breaks
a mutant fails at once, naming the mutant and the file it patches. Each
patch must also say what its bug is in the lines before its first
"diff --git" (that is what a rewrite follows). The exit status is non-zero
when any mutant fails.

Environment: CRISP_MUTANTS (the run's directory, default test/mutants),
CRISP_MUTATE_DIR (scratch, default build-mutate or
$CRISP_BUILD_PREFIX-mutate).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = "mutate.py"


def list_mutants(directory):
    """The *.patch files directly in directory, sorted."""
    names = sorted(name for name in os.listdir(directory) if name.endswith(".patch"))
    return [os.path.join(directory, name) for name in names]


def read(path):
    with open(path, encoding="utf-8", errors="replace") as file:
        return file.read()


def mutant_name(patch):
    return os.path.basename(patch)[: -len(".patch")]


def header_lines(patch):
    """The lines of patch before its first "diff --git"."""
    lines = []
    with open(patch, encoding="utf-8", errors="replace") as file:
        for line in file:
            if line.startswith("diff --git"):
                break
            lines.append(line.rstrip("\n"))
    return lines


def check(directory):
    """--check: 0 when every mutant in directory applies and says its bug."""
    mutants = list_mutants(directory) if os.path.isdir(directory) else []
    if not mutants:
        print(f"{PROGRAM}: no mutants in {directory}", file=sys.stderr)
        return 2
    bad = 0
    for patch in mutants:
        name = mutant_name(patch)
        files = " ".join(re.findall(r"^diff --git a/([^ ]*) b/", read(patch), re.M))
        if not files:
            print(f'mutant {name}: no "diff --git" in {patch}', file=sys.stderr)
            bad += 1
            continue
        if not any(line.strip() for line in header_lines(patch)):
            print(f'mutant {name} ({files}): no description before its first "diff --git"', file=sys.stderr)
            bad += 1
        # From the root, outside any index: the files as they are on disk.
        result = subprocess.run(["git", "apply", "--check", patch], cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            errors = (result.stdout + result.stderr).rstrip("\n")
            named = re.findall(r"^error: (?:patch failed: ([^:]*):|([^:]*): does not exist)", errors, re.M)
            failed = " ".join(sorted({first or second for first, second in named})) or files
            print(f"mutant {name} no longer applies to {failed}:", file=sys.stderr)
            for line in errors.split("\n"):
                print(f"    {line}", file=sys.stderr)
            print(f"    rewrite test/mutants/{name}.patch to plant the same bug in the code as it is", file=sys.stderr)
            print(f"    (its first lines say what the bug is; git log -p -- {failed}), or drop it", file=sys.stderr)
            bad += 1
    print(f"    {len(mutants)} mutants, {bad} failing")
    return 1 if bad else 0


def run(command, log, env=None, cwd=None):
    """Runs command with its output appended to the open file log; True on success."""
    log.flush()
    result = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, cwd=cwd,
                            env={**os.environ, **(env or {})})
    return result.returncode == 0


def copy_tree(tree):
    """The working tree as it is now (committed or not), mutants left out.

    File times are kept, so the scratch builds only redo what changed.
    """
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode()
    for path in listed.split("\0"):
        source = os.path.join(ROOT, path)
        if not path or path.startswith("test/mutants/") or not os.path.lexists(source):
            continue
        target = os.path.join(tree, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.islink(source) or os.path.islink(target):
            if os.path.lexists(target):
                os.remove(target)
        shutil.copy2(source, target, follow_symlinks=False)


def git(tree, *arguments):
    subprocess.run(["git", "-C", tree, *arguments], check=True)


def binary_tests(build):
    """The built test programs (not scripts such as test_cli.py) of a build."""
    result = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True, text=True)
    if result.returncode != 0:
        return []
    build = os.path.realpath(build)
    return [test["name"] for test in json.loads(result.stdout)
            if test["cmd"] and os.path.realpath(test["cmd"][0]).startswith(build + os.sep)]


class Mutation:
    def __init__(self, scratch):
        self.tree = os.path.join(scratch, "tree")
        self.log_dir = os.path.join(scratch, "logs")
        self.native = os.path.join(scratch, "native")
        self.arm64 = os.path.join(scratch, "arm64")
        self.clang = os.path.join(scratch, "clang")
        self.portable = os.path.join(scratch, "portable-scrub")
        self.msan = os.path.join(scratch, "msan")

    def prepare(self):
        """The scratch tree and its native build, checked without any mutant; False on failure."""
        os.makedirs(self.tree, exist_ok=True)
        os.makedirs(self.log_dir, exist_ok=True)
        copy_tree(self.tree)
        if not os.path.isdir(os.path.join(self.tree, ".git")):
            git(self.tree, "init", "-q")
        git(self.tree, "add", "-A")
        git(self.tree, "-c", "user.name=mutate", "-c", "user.email=mutate@localhost", "commit", "-qm", "base",
            "--allow-empty")
        if not os.path.isfile(os.path.join(self.native, "build.ninja")):
            with open(os.path.join(self.log_dir, "setup.log"), "w") as log:
                configured = run(["meson", "setup", self.native, self.tree], log)
            if not configured:
                print(read(os.path.join(self.log_dir, "setup.log")), end="")
                return False
        base_build = os.path.join(self.log_dir, "base-build.log")
        with open(base_build, "w") as log:
            built = run(["meson", "compile", "-C", self.native], log)
        if not built:
            print("".join(read(base_build).splitlines(keepends=True)[-20:]), end="")
            return False
        print("checking the unmutated tree first", flush=True)
        base_test = os.path.join(self.log_dir, "base-test.log")
        with open(base_test, "w") as log:
            passed = run(["meson", "test", "-C", self.native, "--no-rebuild"], log)
        if not passed:
            print(f"the suite fails without any mutant (see {base_test})", file=sys.stderr)
        return passed

    def emulated_passes(self, cpu, log):
        """True when the mutant survives the emulated run named by cpu.

        A build that cannot be configured counts as passing, so the mutant
        shows as survived rather than killed by the set-up.
        """
        quarter = {"CRISP_TEST_SCALE": "0.25"}
        if cpu == "long":
            return run([os.path.join(self.native, "test", "test_md5_long")], log, {"CRISP_TEST_LONG": "1"})
        if cpu == "arm64":
            cross_file = os.path.join(self.tree, "scripts", "cross", "aarch64-linux-gnu.ini")
            if not self.configure(self.arm64, log, ["--cross-file", cross_file]):
                return True
            if not run(["meson", "compile", "-C", self.arm64], log):
                return False
            return run(["meson", "test", "-C", self.arm64, "--no-rebuild", *binary_tests(self.arm64)], log, quarter)
        if cpu == "clang":
            if not self.configure(self.clang, log, ["-Dtools=false", "-Dpeers=disabled"], {"CC": "clang"}):
                return True
            if not run(["meson", "compile", "-C", self.clang], log):
                return False
            if not run(["meson", "test", "-C", self.clang, "--no-rebuild", *binary_tests(self.clang)], log, quarter):
                return False
            # the memcheck constant-time tests, which binary_tests leaves out (valgrind runs them)
            return run(["meson", "test", "-C", self.clang, "--no-rebuild", "--suite", "memcheck"], log, quarter)
        if cpu == "portable-scrub":
            options = ["-Dtools=false", "-Dpeers=disabled", "-Dc_args=-DCRISP_SCRUB_PORTABLE"]
            if not self.configure(self.portable, log, options, {"CC": "clang"}):
                return True
            if not run(["meson", "compile", "-C", self.portable, "test/test_wipe"], log):
                return False
            return run([os.path.join(self.portable, "test", "test_wipe")], log)
        if cpu == "msan":
            c_args = (f"-fsanitize-ignorelist={self.tree}/test/ct_msan_ignore.txt"
                      f" -include {self.tree}/test/ct_msan_copies.h")
            options = ["-Db_sanitize=memory", "-Db_lundef=false", "-Dtools=false", "-Dpeers=disabled",
                       f"-Dc_args={c_args}"]
            if not self.configure(self.msan, log, options, {"CC": "clang"}):
                return True
            if not run(["meson", "compile", "-C", self.msan, "test/ct_msan"], log):
                return False
            return run([os.path.join(self.msan, "test", "ct_msan")], log, {"MSAN_OPTIONS": "halt_on_error=1"})
        return run(["meson", "test", "-C", self.native, "--no-rebuild", "--wrapper", f"qemu-x86_64 -cpu {cpu}",
                    *binary_tests(self.native)], log, quarter)

    def configure(self, build, log, options, env=None):
        """Sets build up from the scratch tree unless it already is; False on failure."""
        if os.path.isfile(os.path.join(build, "build.ninja")):
            return True
        return run(["meson", "setup", build, self.tree, *options], log, env)

    def plant(self, patch):
        """The outcome of one mutant, as printed, and its counter's name."""
        name = mutant_name(patch)
        emulate = next((line[len("Emulate:"):].strip() for line in header_lines(patch)
                        if line.startswith("Emulate:")), "")
        log_path = os.path.join(self.log_dir, f"{name}.log")
        with open(log_path, "w") as log:
            if not run(["git", "apply", "--check", patch], log, cwd=self.tree):
                return "no longer applies", "stale"
            git(self.tree, "apply", patch)
            try:
                if not run(["meson", "compile", "-C", self.native], log):
                    return "does not build", "broken"
                if not run(["meson", "test", "-C", self.native, "--no-rebuild"], log):
                    log.flush()
                    failing = re.findall(r"^ *[0-9]+/[0-9]+ [^ ]+ / ([^ ]+) +(?:FAIL|TIMEOUT)", read(log_path),
                                         re.M)
                    return f"killed ({','.join(sorted(set(failing)))})", "killed"
                if emulate and not self.emulated_passes(emulate, log):
                    return f"killed (emulated {emulate})", "killed"
                return "SURVIVED", "survived"
            finally:
                git(self.tree, "checkout", "-q", "--", ".")
                git(self.tree, "clean", "-qfd")


def mutate(names):
    """The mutation run over the named mutants, or all of them."""
    mutants_dir = os.path.abspath(os.environ.get("CRISP_MUTANTS") or os.path.join(ROOT, "test", "mutants"))
    prefix = os.environ.get("CRISP_BUILD_PREFIX")
    default_scratch = f"{prefix}-mutate" if prefix else os.path.join(ROOT, "build-mutate")
    scratch = os.path.abspath(os.environ.get("CRISP_MUTATE_DIR") or default_scratch)
    if names:
        mutants = []
        for name in names:
            patch = os.path.join(mutants_dir, f"{name.removesuffix('.patch')}.patch")
            if not os.path.isfile(patch):
                print(f"{PROGRAM}: no mutant {patch}", file=sys.stderr)
                return 2
            mutants.append(patch)
    else:
        mutants = list_mutants(mutants_dir) if os.path.isdir(mutants_dir) else []
    if not mutants:
        print(f"{PROGRAM}: no mutants in {mutants_dir}", file=sys.stderr)
        return 2

    mutation = Mutation(scratch)
    if not mutation.prepare():
        return 1
    counts = {"killed": 0, "survived": 0, "stale": 0, "broken": 0}
    survivors = []
    for patch in mutants:
        start = time.monotonic()
        result, outcome = mutation.plant(patch)
        counts[outcome] += 1
        if outcome == "survived":
            survivors.append(mutant_name(patch))
        print(f"  {mutant_name(patch):<44} {result} ({int(time.monotonic() - start)} s)", flush=True)

    # Leave the scratch builds matching the unmutated tree.
    subprocess.run(["meson", "compile", "-C", mutation.native], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)

    counted = counts["killed"] + counts["survived"]
    rate = 100 * counts["killed"] // counted if counted else 0
    if survivors:
        print(f"survivors (logs in {mutation.log_dir}): {' '.join(survivors)}")
    print(f"mutate: {counts['killed']} killed, {counts['survived']} survived, {counts['stale']} no longer apply, "
          f"{counts['broken']} do not build, kill rate {rate}%")
    return 1 if counts["survived"] else 0


def main():
    parser = argparse.ArgumentParser(description="Plants each mutant in test/mutants/ in turn; a test must fail.")
    parser.add_argument("--check", action="store_true",
                        help="only check that every mutant still applies and says what its bug is")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="mutants to run (file names, .patch optional); with --check, one DIR of mutants")
    arguments = parser.parse_args()
    if arguments.check:
        if len(arguments.names) > 1:
            parser.error("--check takes at most one DIR")
        directory = arguments.names[0] if arguments.names else os.path.join(ROOT, "test", "mutants")
        return check(os.path.abspath(directory))
    return mutate(arguments.names)


if __name__ == "__main__":
    sys.exit(main())
