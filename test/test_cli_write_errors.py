#!/usr/bin/env python3
"""Output errors are errors.

Every crisp command that writes to stdout (help, version, info, md5sum with
and without -c, poly1305, bench, tune), run with stdout on /dev/full or
closed, exits 1 with one 'PROGRAM: write error: REASON' line on stderr, as
coreutils does (REASON: the errno text, ENOSPC or EBADF; crisp md5sum prints
exactly what coreutils md5sum prints, which omits it for /dev/full).

Usage: test_cli_write_errors.py PATH-TO-CRISP PATH-TO-CRISP-BENCH.
CRISP_TEST_WRAPPER (or meson's MESON_EXE_WRAPPER in a cross build), split
on whitespace, runs the programs through an emulator; its own warning lines
are ignored.
"""

import os
import re
import subprocess
import sys
import tempfile

import check_tally

USAGE = "usage: test_cli_write_errors.py PATH-TO-CRISP PATH-TO-CRISP-BENCH"
REFERENCE = "/usr/bin/md5sum"
KEY = "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"

if len(sys.argv) < 3 or not sys.argv[1] or not sys.argv[2]:
    sys.exit(USAGE)
wrapper = check_tally.wrapper()
crisp_binary = os.path.realpath(sys.argv[1])
bench_binary = os.path.realpath(sys.argv[2])
os.environ["LC_ALL"] = "C"
tally = check_tally.Tally()
fail, passed = tally.fail, tally.passed


def close_stdout():
    """In the child before exec: stdout closed, as the shell's >&- does."""
    os.close(1)


def command_line(arguments):
    return check_tally.command(wrapper, crisp_binary, bench_binary, arguments)


def run(arguments, redirection, stdin=subprocess.DEVNULL):
    """crisp ARGUMENTS with stdout sent to /dev/full ("full") or closed
    ("closed"); returns the exit status and stderr."""
    try:
        if redirection == "full":
            with open("/dev/full", "wb") as full:
                result = subprocess.run(command_line(arguments), stdin=stdin, stdout=full, stderr=subprocess.PIPE)
        else:
            result = subprocess.run(command_line(arguments), stdin=stdin, stderr=subprocess.PIPE,
                                    preexec_fn=close_stdout)
    except OSError as error:
        # A program that cannot start fails its check, as the shell's 126 or 127 would.
        return 127, str(error)
    return result.returncode, result.stderr.decode(errors="replace")


def without_emulator(errors):
    """stderr less the emulator's lines and the trailing newlines."""
    return "\n".join(line for line in errors.split("\n") if not line.startswith("qemu-")).rstrip("\n")


def coreutils_message(arguments):
    """What coreutils md5sum ARGUMENTS says with stdout on /dev/full, named
    crisp md5sum."""
    with open("/dev/full", "wb") as full:
        errors = subprocess.run([REFERENCE, *arguments], stdin=subprocess.DEVNULL, stdout=full,
                                stderr=subprocess.PIPE).stderr.decode(errors="replace")
    return "\n".join(re.sub(r"^[^:]*md5sum: ", "crisp md5sum: ", line) for line in errors.split("\n")).rstrip("\n")


def expect_write_error(redirection, reason, arguments):
    status, errors = run(arguments, redirection)
    lines = without_emulator(errors)
    shown = " ".join(arguments)
    # crisp md5sum says what coreutils md5sum says, which gives no reason when
    # an earlier line-buffered write failed.
    wanted = None
    if arguments[0] == "md5sum" and redirection == "full":
        wanted = coreutils_message(arguments[1:])
    pattern = f"crisp( [a-z0-9]+)?: write error: {re.escape(reason)}"
    if status != 1:
        fail(f"crisp {shown} (stdout {redirection}): exit status {status}, want 1")
    elif wanted is None and not any(re.fullmatch(pattern, line) for line in lines.split("\n")):
        fail(f"crisp {shown} (stdout {redirection}): stderr is '{lines}', want one line "
             f"'crisp...: write error: {reason}'")
    elif wanted is not None and lines != wanted:
        fail(f"crisp {shown} (stdout {redirection}): stderr is '{lines}', want coreutils' '{wanted}'")
    elif sum(1 for line in lines.split("\n") if line) != 1:
        fail(f"crisp {shown} (stdout {redirection}): stderr is '{lines}', want one line")
    else:
        passed()


def main():
    with tempfile.TemporaryDirectory() as work:
        message, sums = f"{work}/message", f"{work}/sums"
        with open(message, "wb") as file:
            file.write(b"Cryptographic Forum Research Group")
        with open(sums, "wb") as file:
            subprocess.run([REFERENCE, message], stdout=file)
        commands = [
            ["--help"], ["-h"], ["help"], ["--version"],
            ["info", "--help"], ["info"], ["info", "--all"], ["info", "--kernels"],
            ["md5sum", "--help"], ["md5sum", "--version"], ["md5sum", message], ["md5sum", "-c", sums],
            ["poly1305", "--help"], ["poly1305", "-k", KEY, message],
            ["bench", "--help"], ["bench", "--version"], ["bench", "--check"],
            ["bench", "--kernel", "md5", "--time", "1", "--quick"],
            ["tune", "--help"],
        ]
        # A tuning run takes a second natively; emulated, test_cli.py runs
        # one already.
        if not wrapper:
            commands.append(["tune", "--time", "1"])
        for arguments in commands:
            expect_write_error("full", "No space left on device", arguments)
            expect_write_error("closed", "Bad file descriptor", arguments)

        # Nothing written, nothing to report: a closed stdout is no error then.
        status, errors = run(["md5sum", "--status", "-c", sums], "closed", stdin=None)
        if status == 0 and not without_emulator(errors):
            passed()
        else:
            fail(f"crisp md5sum --status -c with stdout closed: exit status {status}, stderr '{errors.rstrip()}'")
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
