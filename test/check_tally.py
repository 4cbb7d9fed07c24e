"""test/check_tally.py - what the Python tests of the crisp command share:
the emulator that runs crisp (CRISP_TEST_WRAPPER, or meson's
MESON_EXE_WRAPPER in a cross build, split on white space), the command
line of a crisp subcommand under it, and the count of checks passed and
failed that each test prints and exits by.
"""

import os


def wrapper():
    """The emulator words put before crisp, empty when crisp runs natively."""
    return (os.environ.get("CRISP_TEST_WRAPPER") or os.environ.get("MESON_EXE_WRAPPER") or "").split()


def command(emulator, crisp_binary, bench_binary, arguments):
    """crisp ARGUMENTS under EMULATOR. crisp bench and crisp tune exec
    crisp-bench, which an emulator does not follow (the host would run the
    program natively, or not at all for another architecture): under an
    emulator they start crisp-bench directly."""
    arguments = list(arguments)
    if emulator and arguments and arguments[0] in ("bench", "tune"):
        rest = arguments[1:] if arguments[0] == "bench" else ["--tune", *arguments[1:]]
        return [*emulator, bench_binary, *rest]
    return [*emulator, crisp_binary, *arguments]


class Tally:
    """Checks passed and failed; each failure is printed as it happens."""

    def __init__(self):
        self.checks = 0
        self.failures = 0

    def fail(self, message):
        print(f"FAIL: {message}", flush=True)
        self.failures += 1

    def passed(self):
        self.checks += 1

    def check(self, condition, message):
        if condition:
            self.passed()
        else:
            self.fail(message)

    def summary(self):
        """Prints the counts; returns the exit status."""
        print(f"{self.checks} checks passed, {self.failures} failed")
        return 1 if self.failures else 0
