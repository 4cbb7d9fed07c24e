"""test/md5sum_harness.py - what the tests that hold crisp md5sum against
coreutils md5sum share: each situation runs under both, in turn, and its
stdout, stderr and exit status are kept; finish() compares them all at the
end. The only rewriting is the program name in messages ("crisp md5sum: "
and "Try 'crisp md5sum --help'" read as coreutils' "md5sum: " and "Try
'md5sum --help'"); qemu's own warning lines are dropped on both sides.

Environment: CRISP_TEST_WRAPPER (or meson's MESON_EXE_WRAPPER in a cross
build) runs crisp through an emulator, split on white space as a shell
word list; CRISP_TEST_ONLY=REGEX runs only the situations whose description
matches; CRISP_TEST_VERBOSE=1 names each; CRISP_TEST_REFERENCE names the
coreutils md5sum (default /usr/bin/md5sum).
"""

import atexit
import difflib
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from check_tally import wrapper


def wanted(description):
    return re.search(os.environ.get("CRISP_TEST_ONLY") or ".", description) is not None


def reference_or_skip():
    """The coreutils md5sum, or exit 77 (meson's "skipped") without it."""
    reference = os.environ.get("CRISP_TEST_REFERENCE") or "/usr/bin/md5sum"
    try:
        version = subprocess.run([reference, "--version"], capture_output=True).stdout
    except OSError:
        version = b""
    if b"GNU coreutils" not in version:
        print(f"no coreutils md5sum at {reference}: skipped")
        sys.exit(77)
    return reference


def seed():
    value = int(os.environ.get("CRISP_TEST_SEED") or random.getrandbits(30))
    print(f"# seed {value}", flush=True)
    return value


def status_of(returncode):
    """A shell's $? for a child: 128 + N when signal N ended it."""
    return 128 - returncode if returncode < 0 else returncode


def normalise(data, crisp):
    """Drops qemu's warning lines and, on crisp's side, reads its program
    name as coreutils'; line by line, as sed does."""
    lines = data.split(b"\n")
    tail = lines.pop()
    result = []
    for line, end in [(line, b"\n") for line in lines] + ([(tail, b"")] if tail else []):
        if re.match(rb"qemu-[a-z0-9_]*: ", line):
            continue
        if crisp:
            if line.startswith(b"crisp md5sum: "):
                line = b"md5sum: " + line[len(b"crisp md5sum: "):]
            elif line.startswith(b"Try 'crisp md5sum --help'"):
                line = b"Try 'md5sum --help'" + line[len(b"Try 'crisp md5sum --help'"):]
        result.append(line + end)
    return b"".join(result)


def write_fifo_when_read(path, contents, deadline):
    """Writes each of contents to the FIFO in turn, opening it anew for each
    once a reader has it open; gives up at the deadline (no reader came)."""
    for index, content in enumerate(contents):
        if index:
            time.sleep(0.3)
        while True:
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.01)
        os.set_blocking(descriptor, True)
        try:
            os.write(descriptor, content)
        except OSError:
            pass
        os.close(descriptor)


class Oracle:
    """Runs situations under coreutils md5sum and crisp md5sum and compares
    them. stride and offset run only every stride-th situation offered."""

    def __init__(self, crisp_binary, reference, work, tree, stride=1, offset=0):
        self.crisp_binary = crisp_binary
        self.work = work
        self.tree = tree
        self.stride = stride
        self.offset = offset
        self.wrapper = wrapper()
        self.failures = 0
        self.checks = 0
        self.offered = 0
        self.cases = []
        # Found through PATH, so that coreutils' argv[0] (its name in
        # messages) is md5sum.
        os.makedirs(os.path.join(work, "bin"), exist_ok=True)
        os.symlink(os.path.realpath(reference), os.path.join(work, "bin", "md5sum"))
        self.environment = dict(os.environ, PATH=os.path.join(work, "bin") + ":" + os.environ["PATH"])

    def fail(self, message):
        print(f"FAIL: {message}", flush=True)
        self.failures += 1

    def command(self, side, arguments):
        if side == "crisp":
            return self.wrapper + [self.crisp_binary, "md5sum"] + list(arguments)
        return ["md5sum"] + list(arguments)

    def same(self, description, arguments, joined=False, no_stdout=False, cwd=None, stdin=None,
             stdin_offset=0, pipe=None, closed=(), stdout_file=None, locale=None, nofile=None,
             inherited=0, fifo=None, timeout=None):
        """Runs md5sum ARGUMENTS under coreutils, then under crisp, in the
        tree (or cwd, relative to it). joined sends both streams to one
        file, as 2>&1 does (message order); no_stdout leaves stdout out of
        the comparison. stdin names a file for standard input (read from
        stdin_offset); pipe gives bytes to write to it through a pipe;
        closed lists the standard descriptors (0, 1, 2) to close;
        stdout_file names where stdout goes instead (e.g. /dev/full, then
        not compared); locale sets LC_ALL; nofile sets the descriptor limit;
        inherited (COUNT, FILE) leaves COUNT extra descriptors open on FILE
        from 10 up; fifo is (PATH, [CONTENTS...]) written by a helper thread as
        md5sum opens it; timeout (seconds) kills md5sum, status 124."""
        if not wanted(description):
            return
        self.offered += 1
        if (self.offered + self.offset) % self.stride != 0:
            return
        if os.environ.get("CRISP_TEST_VERBOSE"):
            print(f"# {description}", flush=True)
        case = {"description": description, "compare_stdout": not no_stdout and stdout_file is None}
        directory = os.path.join(self.tree, cwd) if cwd else self.tree
        environment = dict(self.environment, LC_ALL=locale) if locale else self.environment
        for side in ("coreutils", "crisp"):
            case[side] = self.run(self.command(side, arguments), directory, environment, joined,
                                  case["compare_stdout"], stdout_file, stdin, stdin_offset, pipe, closed,
                                  nofile, inherited, fifo, timeout)
        self.cases.append(case)

    def run(self, command, directory, environment, joined, compare_stdout, stdout_file, stdin, stdin_offset,
            pipe, closed, nofile, inherited, fifo, timeout):
        with tempfile.TemporaryFile(dir=self.work) as out, tempfile.TemporaryFile(dir=self.work) as err:
            keep = []
            if stdout_file is not None:
                stdout = open(stdout_file, "wb")
                keep.append(stdout)
            elif compare_stdout:
                stdout = out
            else:
                stdout = subprocess.DEVNULL
            if joined:
                stdout = out
            input_file = None
            if stdin is not None:
                # os.open, as a shell's '<' does: a directory opens too.
                input_file = os.open(os.path.join(directory, stdin), os.O_RDONLY)
                os.lseek(input_file, stdin_offset, os.SEEK_SET)
            inherited_file = os.path.join(directory, inherited[1]) if inherited else None

            def prepare():
                for descriptor in closed:
                    os.close(descriptor)
                if inherited:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
                    source = os.open(inherited_file, os.O_RDONLY)
                    for descriptor in range(10, 10 + inherited[0]):
                        os.dup2(source, descriptor)
                    os.close(source)
                if nofile is not None:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

            writer = None
            if fifo is not None:
                writer = threading.Thread(target=write_fifo_when_read,
                                          args=(os.path.join(directory, fifo[0]), fifo[1], time.monotonic() + 20))
                writer.start()
            try:
                process = subprocess.Popen(command, cwd=directory, env=environment,
                                           stdin=subprocess.PIPE if pipe is not None else input_file,
                                           stdout=stdout, stderr=out if joined else err,
                                           preexec_fn=prepare if closed or inherited or nofile is not None else None,
                                           close_fds=not inherited)
            except OSError as error:
                # What a shell reports when it cannot start the program.
                process = None
                (out if joined else err).write(f"{command[0]}: {error.strerror}\n".encode())
                status = 127 if isinstance(error, FileNotFoundError) else 126
            try:
                if process is not None:
                    process.communicate(pipe, timeout=timeout)
                    status = status_of(process.returncode)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                status = 124
            if writer is not None:
                writer.join()
            for handle in keep:
                handle.close()
            if input_file is not None:
                os.close(input_file)
            out.seek(0)
            err.seek(0)
            return {"out": out.read(), "err": None if joined else err.read(), "status": status}

    def finish(self):
        """Compares every situation run, counts checks and failures, and
        prints the differences of the first ten that failed."""
        shown = 0
        for case in self.cases:
            coreutils, crisp = case["coreutils"], case["crisp"]
            for stream in ("out", "err"):
                if coreutils[stream] is not None:
                    coreutils[stream] = normalise(coreutils[stream], False)
                    crisp[stream] = normalise(crisp[stream], True)
            if case["compare_stdout"] and coreutils["out"] != crisp["out"]:
                what, stream = "stdout", "out"
            elif coreutils["err"] != crisp["err"]:
                what, stream = "stderr", "err"
            elif coreutils["status"] != crisp["status"]:
                self.fail(f"{case['description']}: exit status {crisp['status']}, coreutils {coreutils['status']}")
                continue
            else:
                self.checks += 1
                continue
            self.fail(f"{case['description']}: {what} differs")
            shown += 1
            if shown <= 10:
                difference = difflib.unified_diff(
                    [repr(line) for line in coreutils[stream].splitlines(keepends=True)],
                    [repr(line) for line in crisp[stream].splitlines(keepends=True)], "coreutils", "crisp",
                    lineterm="")
                print("\n".join(list(difference)[:12]), flush=True)

    def summary(self):
        """Prints the count and returns the exit status: 1 on any failure."""
        print(f"{self.checks} checks passed, {self.failures} failed")
        return 1 if self.failures else 0


def scratch():
    """A scratch directory removed at exit, permissions restored first."""
    work = tempfile.mkdtemp()

    def remove():
        for root, directories, _ in os.walk(work):
            for name in directories:
                try:
                    os.chmod(os.path.join(root, name), 0o700)
                except OSError:
                    pass
        shutil.rmtree(work, ignore_errors=True)

    atexit.register(remove)
    return work
