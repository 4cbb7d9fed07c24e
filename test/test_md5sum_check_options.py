"""test/test_md5sum_check_options.py - crisp md5sum -c obeys the five check
options as coreutils md5sum does, the oracle: stdout, stderr and exit
status must be the same bytes. --status, --quiet and --warn override each
other (the last one given wins), --strict and --ignore-missing add to
them; the options run in every order of up to three, with repeats of the
three that override, and in longer orders drawn from a seed. Check lists
hold good lines, mismatches, improperly formatted lines, missing files
(which only --ignore-missing may hide) and files that fail to open or read
for other reasons (a directory, a path through a regular file, a
permission denied, a symlink loop, a name too long). Several lists in one
run, where an earlier one fails, must give coreutils' exit status; lists
also come from standard input ('-').
Usage: test_md5sum_check_options.py PATH-TO-CRISP. Environment: see
md5sum_harness.py; CRISP_TEST_SEED=N replays the longer orders;
CRISP_TEST_SCALE below 1 runs a share of the situations.
"""

import hashlib
import os
import random
import subprocess
import sys

import md5sum_harness

if len(sys.argv) != 2:
    sys.exit("usage: test_md5sum_check_options.py PATH-TO-CRISP")
crisp_binary = os.path.realpath(sys.argv[1])
reference = md5sum_harness.reference_or_skip()
# Root opens a mode 000 file: to see "Permission denied", the test runs
# itself again without the capabilities that override file permissions.
no_override = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
if os.getuid() == 0 and not os.environ.get("CRISP_TEST_NO_OVERRIDE"):
    if subprocess.run([*no_override, "true"], stderr=subprocess.DEVNULL).returncode == 0:
        os.environ["CRISP_TEST_NO_OVERRIDE"] = "1"
        sys.stdout.flush()
        os.execvp(no_override[0], [*no_override, sys.executable, *sys.argv])
seed = md5sum_harness.seed()
os.environ["LC_ALL"] = "C.UTF-8"

# The options are parsed and applied by code that is the same at every
# CPU: under an emulator (CRISP_TEST_SCALE below 1, for the kernels that
# hash the files) one situation in 1/SCALE runs, a share that the seed picks.
scale = float(os.environ.get("CRISP_TEST_SCALE") or 1)
stride = int(1 / scale + 0.5) if 0 < scale < 1 else 1

work = md5sum_harness.scratch()
tree = os.path.join(work, "tree")
os.makedirs(os.path.join(tree, "lists"))
oracle = md5sum_harness.Oracle(crisp_binary, reference, work, tree, stride, seed % stride)
same = oracle.same
os.chdir(tree)


def write(name, content):
    with open(name, "wb") as out:
        out.write(content)


def md5(content):
    return hashlib.md5(content).hexdigest().encode()


def lines(*items):
    return b"".join(item + b"\n" for item in items)


# ---- the files the lists name, and the lists.
write("one", b"one")
write("two", b"two")
write("new\nline", b"new\nline")
write("changed", b"now different")
os.mkdir("directory")
os.symlink("loop", "loop")
os.symlink("nowhere", "dangling")
write("locked", b"locked")
os.chmod("locked", 0)
long = b"n" * 300
good_one = md5(b"one") + b"  one"
good_two = md5(b"two") + b"  two"
good_escaped = b"\\" + md5(b"new\nline") + b"  new\\nline"
wrong = b"0123456789abcdef0123456789abcdef"


def line(name):
    return wrong + b"  " + name


garbage = b"not a checksum line"
try:
    with open("locked", "rb") as locked:
        locked.read()
    print("# skipped: the permission-denied lists (file permissions are overridden here)")
    skipped = True
except PermissionError:
    skipped = False

write("lists/good", lines(good_one, good_two, good_escaped))
write("lists/mismatch", lines(good_one, line(b"changed"), good_two))
# Blank, comment and carriage-return-only lines are skipped, not counted.
write("lists/malformed", lines(good_one, garbage, b"", b"#comment", b"\r", b"   ", good_two + b"\r",
                               b"MD5 (two) = " + md5(b"two")))
write("lists/no-lines", lines(garbage, b"#comment", b"", wrong))
write("lists/missing", lines(good_one, line(b"absent")))
write("lists/all-missing", lines(line(b"absent"), line(b"dangling"), line(b"nodir/absent")))
write("lists/missing-among-good", lines(good_one, line(b"dangling"), line(b"nodir/absent"), good_two))
write("lists/directory", lines(good_one, line(b"directory")))
write("lists/not-directory", lines(good_one, line(b"one/x")))
write("lists/loop", lines(good_one, line(b"loop")))
write("lists/too-long", lines(good_one, line(long)))
write("lists/denied", lines(good_one, line(b"locked")))
write("lists/mixed", lines(good_one, line(b"changed"), garbage, line(b"absent"), line(b"directory"), line(b"one/x"),
                           line(b"loop"), line(long), b"\\" + line(b"new\\nline"), good_escaped, line(b"dangling"),
                           good_two, b"\\" + line(b"absent\\nname"), line(b"it's absent"))
      + (b"" if skipped else lines(line(b"locked"))))
# One OK line, one improperly formatted, one missing file: exit status 0
# only with --ignore-missing and without --strict.
write("lists/probe", lines(good_one, garbage, line(b"absent")))
write("lists/dash", lines(md5(b"one") + b"  -"))
# Lists whose exit status may depend on the options, and lists of one OK
# line and one file that can never be read.
check_lists = ["good", "mismatch", "malformed", "no-lines", "all-missing", "missing-among-good", "mixed"]
unreadable = ["directory", "not-directory", "loop", "too-long"] + ([] if skipped else ["denied"])
write("lists/empty", b"")

# ---- every combination of the options, in one order, over every list.
states = [f"{strict} {ignore} {mode}" for mode in ("", "--status", "--quiet", "--warn") for strict in ("", "--strict")
          for ignore in ("", "--ignore-missing")]
for name in check_lists:
    for state in states:
        same(f"-c {state} lists/{name}", ["-c", *state.split(), f"lists/{name}"])
for state in states:
    same(f"-c {state} lists/mixed, joined", ["-c", *state.split(), "lists/mixed"], joined=True)
    same(f"-c {state}, lists of unreadable files", ["-c", *state.split(), *[f"lists/{name}" for name in unreadable]])
# Alone, where --ignore-missing must not make them pass.
for name in unreadable:
    for state in ("--ignore-missing", "--status --ignore-missing"):
        same(f"-c {state} lists/{name}", ["-c", *state.split(), f"lists/{name}"])

# ---- the options in every order: all sequences of up to three different
# ones, every sequence of three of the overriding ones (repeats too), and
# longer sequences drawn from the seed.
options = ["--status", "--quiet", "-w", "--strict", "--ignore-missing"]
orders = []
for a in options:
    orders.append(a)
    for b in options:
        if b == a:
            continue
        orders.append(f"{a} {b}")
        orders += [f"{a} {b} {c}" for c in options if c not in (a, b)]
overriding = ["--status", "--quiet", "--warn"]
orders += [f"{a} {b} {c}" for a in overriding for b in overriding for c in overriding if a == b or b == c or a == c]
generator = random.Random(seed)
for _ in range(12):
    orders.append("".join(" " + generator.choice(options) for _ in range(generator.randint(4, 7))))
for order in orders:
    same(f"-c {order} lists/probe", ["-c", *order.split(), "lists/probe"])
same("options before -c", ["--status", "--quiet", "-c", "--strict", "lists/probe"])
same("options after the lists", ["-c", "lists/probe", "lists/malformed", "--ignore-missing", "-w", "--quiet"])
same("options between the lists", ["-c", "lists/probe", "--status", "lists/malformed", "--quiet"])

# ---- several lists, a failing one before or after one that passes: the
# exit status is 1 when any list fails. Lists that cannot be opened or read
# (missing, a directory, through a file, a loop, denied) count too.
failing = [f"lists/{name}" for name in ("mismatch", "malformed", "no-lines", "missing", "all-missing", "directory",
                                        "not-directory", "loop", "too-long", "empty")]
failing += ["absent-list", ".", "one/x", "loop"] + ([] if skipped else ["lists/denied", "locked"])
for name in failing:
    same(f"-c {name} lists/good", ["-c", name, "lists/good"])
    same(f"-c lists/good {name}", ["-c", "lists/good", name])
    same(f"-c --status --strict --ignore-missing {name} lists/good",
         ["-c", "--status", "--strict", "--ignore-missing", name, "lists/good"])
    same(f"-c --ignore-missing --quiet lists/good {name}", ["-c", "--ignore-missing", "--quiet", "lists/good", name])
same("-c three lists, the middle one failing", ["-c", "lists/good", "lists/mismatch", "lists/missing-among-good"])
same("-c --ignore-missing, every list missing", ["-c", "--ignore-missing", "lists/all-missing", "lists/all-missing"])
same("-c --ignore-missing, the last list all missing",
     ["-c", "--ignore-missing", "lists/missing-among-good", "lists/all-missing"])

# ---- standard input: as the only list, among lists, twice, and a list
# whose line names '-' (improperly formatted when the list is stdin).
for state in ("", "--status", "-w --strict", "--ignore-missing --quiet"):
    options_given = ["-c", *state.split()]
    same(f"-c {state}, list on stdin", options_given, stdin="lists/mixed")
    same(f"-c {state} -, list on stdin", [*options_given, "-"], stdin="lists/probe")
    same(f"-c {state} with stdin among lists", [*options_given, "lists/good", "-", "lists/malformed"],
         stdin="lists/missing")
    same(f"-c {state} with a failing stdin first", [*options_given, "-", "lists/good"], stdin="lists/no-lines")
    same(f"-c {state} - twice", [*options_given, "-", "-"], stdin="lists/good")
    same(f"-c {state} a line naming -", [*options_given, "lists/dash"], stdin="one")
    same(f"-c {state} a line naming -, list on stdin", [*options_given, "-"], stdin="lists/dash")
    same(f"-c {state} stdin closed", [*options_given, "lists/good", "-"], closed=[0])
    same(f"-c {state} stdin a directory", [*options_given, "-", "lists/good"], stdin="directory")
same("-c stdin among lists, joined", ["-c", "-w", "lists/mixed", "-", "lists/probe"], stdin="lists/malformed",
     joined=True)

oracle.finish()
sys.exit(oracle.summary())
