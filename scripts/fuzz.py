#!/usr/bin/env python3
"""Builds the libFuzzer harnesses (clang, ASan + UBSan) and runs each for a
bounded time, starting from the seeds in fuzz/corpus/.

  python3 scripts/fuzz.py                      every harness, 15 s each
  python3 scripts/fuzz.py --time 3600 bn_mul   one harness for an hour
  python3 scripts/fuzz.py --list               harness names

Every run starts from the committed seeds alone, as CI's does: they are
copied into a fresh scratch corpus (a temporary directory in BUILD, removed
at the end), which takes the new inputs, so neither the repository nor a
later run sees them. A failing input is saved as BUILD/fuzz-artifacts/crash-*
and replays with `BUILD/fuzz/fuzz_NAME FILE`. Exit status non-zero when any
harness found a failure.

Environment: CRISP_FUZZ_BUILD (default: build-fuzz in the repository, or
$CRISP_BUILD_PREFIX-fuzz), CRISP_FUZZ_JOBS (parallel harnesses, default 1).
"""

import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESSES = ["md5", "md5_many", "poly1305", "bn_mul", "bn_sqr", "bn_mul_add", "bn_mont_mul", "bn_mont_sqr",
             "bn_mod_exp", "bn_mod_exp2", "bn_mod_exp_crt", "chacha20", "chacha20poly1305", "xchacha20poly1305",
             "chacha20poly1305_stream"]
DEFAULT_SECONDS = "15"
# The log lines that say what a failing run found.
FAILURE_LINE = re.compile(r"fuzz check failed|ERROR|SUMMARY|Test unit written")
print_lock = threading.Lock()


def usage_error(message):
    print(f"fuzz.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse_arguments(arguments):
    """The seconds per harness and the harnesses to run."""
    seconds = DEFAULT_SECONDS
    selected = []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--time":
            if not arguments or not arguments[0]:
                usage_error("--time needs seconds")
            seconds = arguments.pop(0)
            if not seconds.isdigit():
                usage_error(f"--time needs whole seconds, not '{seconds}'")
        elif argument == "--list":
            print("\n".join(HARNESSES))
            sys.exit(0)
        elif argument in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        elif argument.startswith("-"):
            usage_error(f"unknown option '{argument}'")
        elif argument not in HARNESSES:
            usage_error(f"unknown harness '{argument}' (try --list)")
        else:
            selected.append(argument)
    return seconds, selected or list(HARNESSES)


def build_directory():
    prefix = os.environ.get("CRISP_BUILD_PREFIX")
    return os.environ.get("CRISP_FUZZ_BUILD") or (f"{prefix}-fuzz" if prefix else os.path.join(ROOT, "build-fuzz"))


def build(directory, selected):
    """Configures directory once, then builds the selected harnesses; exits 1 on a failure."""
    if not os.path.isfile(os.path.join(directory, "build.ninja")):
        shutil.rmtree(directory, ignore_errors=True)
        # Without UBSan's pointer-overflow check: instrumenting every address
        # of the fully unrolled IFMA kernels is most of clang's work on them.
        # ASan still sees every access out of bounds, and the sanitize stage
        # (gcc) keeps the check.
        setup = subprocess.run(["meson", "setup", directory, ROOT, "-Dfuzzers=true", "-Db_sanitize=address,undefined",
                                "-Db_lundef=false", "-Dtests=false", "-Dtools=false",
                                "-Dc_args=-fno-sanitize=pointer-overflow"],
                               env={**os.environ, "CC": "clang"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
        if setup.returncode != 0:
            print(setup.stdout, end="")
            sys.exit(1)
    targets = [f"fuzz/fuzz_{harness}" for harness in selected]
    if subprocess.run(["meson", "compile", "-C", directory] + targets, stdout=subprocess.DEVNULL).returncode != 0:
        sys.exit(1)


def report(lines):
    with print_lock:
        print("\n".join(lines), flush=True)


def run_one(harness, directory, scratch, seconds):
    """Fuzzes one harness from a fresh copy of its seeds; True when it found nothing."""
    seeds = os.path.join(ROOT, "fuzz", "corpus", harness)
    corpus = os.path.join(scratch, harness)
    log_path = os.path.join(directory, f"fuzz-{harness}.log")
    shutil.copytree(seeds, corpus, dirs_exist_ok=True)
    with open(log_path, "w") as log_file:
        status = subprocess.run([os.path.join(directory, "fuzz", f"fuzz_{harness}"), f"-max_total_time={seconds}",
                                 "-print_final_stats=1",
                                 f"-artifact_prefix={os.path.join(directory, 'fuzz-artifacts', harness)}-", corpus],
                                stdout=log_file, stderr=subprocess.STDOUT).returncode
    with open(log_path, errors="replace") as log_file:
        log = log_file.read()
    if status != 0:
        found = [line for line in log.splitlines() if FAILURE_LINE.search(line)][:10]
        report([f"  {harness:<12} FAILED (log {log_path})"] + [f"      {line}" for line in found])
        return False
    # libFuzzer counts the inputs it started from: the committed seeds, no more
    seed_count = sum(len(files) for _, _, files in os.walk(seeds))
    started = re.search(r"seed corpus: files: ([0-9]+)", log)
    if not started or int(started.group(1)) != seed_count:
        report([f"  {harness:<12} FAILED: started from {started.group(1) if started else 'no'} inputs, "
                f"not the {seed_count} committed seeds"])
        return False
    done = re.findall(r"Done [0-9]+ runs in [0-9]+ second", log)
    report([f"  {harness:<12} ok     {done[-1] if done else ''}"])
    return True


def main():
    seconds, selected = parse_arguments(sys.argv[1:])
    jobs_text = os.environ.get("CRISP_FUZZ_JOBS") or "1"
    if not jobs_text.isdigit():
        usage_error(f"CRISP_FUZZ_JOBS must be a number of harnesses, not '{jobs_text}'")
    directory = build_directory()
    build(directory, selected)

    os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS") or "detect_leaks=1:abort_on_error=1"
    os.environ["UBSAN_OPTIONS"] = os.environ.get("UBSAN_OPTIONS") or "print_stacktrace=1:halt_on_error=1"
    os.makedirs(os.path.join(directory, "fuzz-artifacts"), exist_ok=True)
    # A stop (SIGTERM) still removes the scratch corpus.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    scratch = tempfile.mkdtemp(prefix="fuzz-corpus.", dir=directory)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, int(jobs_text))) as pool:
            results = list(pool.map(lambda harness: run_one(harness, directory, scratch, seconds), selected))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
