"""test/test_md5sum_diff.py - crisp md5sum against coreutils md5sum, the
oracle: every situation below runs under both, and stdout, stderr and the
exit status must be the same bytes (see md5sum_harness.py for the only
rewriting). Situations: pipes, FIFOs and stdin named twice, closed stdin /
stdout / stderr, descriptor limits and ~1,000 inherited descriptors, usage
errors and abbreviations, names that need quoting (in C.UTF-8 and C),
random names from a seed, -c over lists written by coreutils in every mode,
the check options, stdout and stderr sharing one file (message order), and
the file stdout writes to among the files hashed or checked.
--help and --version differ on purpose: only their exit status and stderr
are compared. How the check options combine is
test_md5sum_check_options.py's part.
Usage: test_md5sum_diff.py PATH-TO-CRISP. Environment: see
md5sum_harness.py; CRISP_TEST_SEED=N replays the random names.
"""

import hashlib
import os
import random
import shutil
import subprocess
import sys
import time

import md5sum_harness

if len(sys.argv) != 2:
    sys.exit("usage: test_md5sum_diff.py PATH-TO-CRISP")
crisp_binary = os.path.realpath(sys.argv[1])
reference = md5sum_harness.reference_or_skip()
seed = md5sum_harness.seed()
os.environ["LC_ALL"] = "C.UTF-8"

work = md5sum_harness.scratch()
tree = os.path.join(work, "tree")
os.makedirs(tree)
os.makedirs(os.path.join(work, "void"))
oracle = md5sum_harness.Oracle(crisp_binary, reference, work, tree)
same = oracle.same
os.chdir(tree)


def read(name):
    with open(name, "rb") as source:
        return source.read()


def write(name, content):
    with open(name, "wb") as out:
        out.write(content)


def reference_output(*arguments):
    return subprocess.run([reference, *arguments], stdout=subprocess.PIPE, check=True).stdout


def glob(directory, prefix=""):
    """A shell glob's names, in C.UTF-8's order (code points)."""
    names = sorted(name for name in os.listdir(directory or ".") if name.startswith(prefix))
    return [os.path.join(directory, name) if directory else name for name in names]


zeros = b"0" * 32

# ---- the tree: awkward names, sizes around block and buffer boundaries.
awkward = ["a:b", "a=b", "^caret", "~tilde", "x~", "#hash", "x#y", "{", "}", "a{b}", "it's", "it's b", "it's:",
           "it's=", '"dq"', "new\nline", "car\rret", "back\\slash", "two\\\nmix", "tab\there", "bell\a",
           "esc\x1b[31mRED", "\x7f", os.fsdecode(b"\xe9"), "é", os.fsdecode(b"\xc3"), os.fsdecode(b"\xc3x"),
           "zw\u200b", " lead", "trail ", "*star", "paren)", "MD5 (x) = y", "(", "a?b", "!bang", "$dollar",
           "semi;colon", "[br]", "pipe|", "back`tick", "amp&", "lt<gt>", "star*", "@at", "%pct", "-dash",
           "plain.txt", "x" * 250]
for name in awkward:
    write(name, os.fsencode(name))
write("empty", b"")
for directory in ("many", "directory", "random"):
    os.mkdir(directory)
# Contents of every size that matters, and random names (bytes from shell
# specials, controls, UTF-8 and stray high bytes) made from the seed.
write("big", os.urandom(1000000))
for size in (1, 55, 56, 63, 64, 65, 4095, 4096, 65535, 65536, 65537, 131073):
    write("size_%d" % size, os.urandom(size))
for index in range(1, 151):
    write("many/f%d" % index, os.urandom((index * 7919) % 70000))
write("small", os.urandom(3000))
write("small2", os.urandom(5000))
generator = random.Random(seed)
pieces = [bytes([c]) for c in b" !\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~\t\n\r\a\b\f\v\x01\x1b\x7faZ09"]
pieces += [b"\xe9", b"\xc3", b"\xc3\xa9", b"\xe2\x82\xac", b"\xe2\x80\x8b", b"\xf0\x9f\x98\x80", b"\xc2\x85", b"\xff",
           b"\xe2\x82", b"\xcc\x81"]
random_names = []
for _ in range(300):
    name = b"".join(generator.choice(pieces) for _ in range(generator.randint(1, 6)))
    if name in (b"-", b".", b".."):
        name += b"x"
    name = name.replace(b"/", b"_")
    write(b"random/" + name, name)
    random_names.append(name)
os.mkfifo("fifo")
sizes = glob("", "size_")
many = glob("many")
big = read("big")

# ---- plain sums in every output mode, over awkward names.
for mode in ("", "-b", "-t", "--tag", "-z", "--tag -z", "-t --tag"):
    same(f"sums {mode}", [*mode.split(), "--", *awkward, "empty", "big", *sizes, "many/f1"])
same("directory, missing and unreadable among files", ["big", "directory", "no-such", "/proc/self/mem", "small"])
same("sums and errors in one file",
     ["many/f1", "many/f2", "directory", "many/f3", "no-such", *many, "/proc/self/mem", "small"], joined=True)
for locale in ("C.UTF-8", "C"):
    same(f"missing awkward names, LC_ALL={locale}", ["--", *awkward, ""], cwd="../void", locale=locale)

# ---- the random names, missing and present, in both locales.
for locale in ("C.UTF-8", "C"):
    same(f"random missing names, LC_ALL={locale}", ["--", *random_names], cwd="../void", locale=locale)
    same(f"random names, LC_ALL={locale}", ["--", *random_names], cwd="random", locale=locale)

# ---- usage: errors exit 1 with coreutils' words; --help and --version.
for arguments in ("--bogus", "-x", "--tag=1", "--quiet=1", "--help=x", "--binary=x", "--version=2", "--check=1",
                  "--s", "--=", "--=x", "--t", "--st", "--sta", "--stat", "-c --tag", "-c -z", "-c -b", "-c -t", "--tag -t",
                  "-t --tag", "-z -c --tag", "--status", "--quiet", "--warn", "--strict", "--ignore-missing",
                  "--status --warn", "-c --tag -z", "-bt -z", "--ta", "--te big", "--bin big", "--z big", "--", "-",
                  "-- -dash", "--ignore big"):
    same(f"usage: md5sum {arguments}", arguments.split(), stdin="small")
same("--help", ["--help"], no_stdout=True)
same("--version", ["--version"], no_stdout=True)
same("--help after an error", ["--bogus", "--help"])

# ---- wrong results once: pipes, FIFOs and stdin read by one reader, in turn.
same("a pipe as /dev/stdin then -", ["/dev/stdin", "-"], pipe=big)
same("a pipe as - then /dev/stdin", ["-", "/dev/stdin"], pipe=big)
same("a pipe as - twice", ["-", "-", "big"], pipe=big)
same("a pipe as /dev/fd/0 twice among files", ["small", "/dev/fd/0", "small2", "/dev/fd/0", "many/f3"], pipe=big)
same("a regular stdin as /dev/stdin and -", ["/dev/stdin", "-", "/dev/stdin", "-"], stdin="big")
same("a regular stdin read from an offset", ["-", "/dev/stdin"], stdin="big", stdin_offset=1000)
same("a FIFO named twice", ["fifo", "fifo", "small"], fifo=("fifo", [read("small"), read("small2")]), timeout=20)
same("a FIFO among many files", [*many, "fifo", "many/f1"], fifo=("fifo", [big]), timeout=20)
same("/proc files", ["/proc/sys/kernel/ostype", "/dev/null", "/proc/version", "/proc/version"])
same("stdin closed: file then -", ["big", "-"], closed=[0])
same("stdin closed: - then file", ["-", "big"], closed=[0])
same("stdin closed: no file", [], closed=[0])
same("stdin closed: names that lead to it", ["/dev/stdin", "big", "/dev/fd/0", "/proc/self/fd/0", "/dev/null", "-"],
     closed=[0])
same("stdout closed: names that lead to it", ["/dev/stdout", "/dev/fd/1", "big"], closed=[1])
same("stdin closed: a list that leads to it", ["-c", "/dev/stdin"], closed=[0])
same("stdin closed: many files then - twice", [*many, "-", "small", "-"], closed=[0])
write("../list2", reference_output("big", "small"))
write("../list", reference_output(*many))
same("stdin closed: -c list from a file", ["-c", "../list2"], closed=[0])
same("stdin closed: -c from stdin", ["-c"], closed=[0])
same("stdin closed: -c - -", ["-c", "-", "-"], closed=[0])
same("stdout closed", ["big"], closed=[1])
same("stdout closed, no output", ["no-such"], closed=[1])
same("stdout full", ["big"], stdout_file="/dev/full")
same("stdout full, many lines", many, stdout_file="/dev/full")
same("stdout closed, -c", ["-c", "../list2"], closed=[1])
same("stdout full, -z", ["-z", "big", "small"], stdout_file="/dev/full")
same("stderr closed", ["big", "no-such"], closed=[2])
for limit in (8, 6, 5):
    same(f"ulimit -n {limit}", [*many, "big", "-", "small"], stdin="small2", nofile=limit)
same("ulimit -n 6, -c", ["-c", "../list"], nofile=6)
same("ulimit -n 6, -c from stdin", ["-c"], stdin="../list", nofile=6)
same("1,000 inherited descriptors", [*many, "big"], inherited=(1000, "small"))
same("1,010 inherited descriptors, -c", ["-c", "../list"], inherited=(1010, "small"))

# ---- -c over lists written by coreutils itself, in every mode.
for mode in ("", "-b", "-t", "--tag", "-z"):
    listing = "../list" + mode.replace(" ", "").replace("-", "")
    write(listing, reference_output(*mode.split(), "--", *awkward, "empty", "big", "many/f7"))
    same(f"check a list written with '{mode}'", ["-c", listing])
    same(f"check a list written with '{mode}', from stdin", ["-c"], stdin=listing)
write("../sums", reference_output("--", *awkward, "big", *sizes, *many))
write("../tagged", reference_output("--tag", "--", *awkward))
shutil.copy("../sums", "../sums.orig")
shutil.copytree(tree, work + "/tree.orig", symlinks=True, ignore=lambda directory, names: ["fifo"])
os.mkfifo(work + "/tree.orig/fifo")
for name, extra in (("size_4096", b"x"), ("paren)", b"y"), ("new\nline", b"z")):
    with open(name, "ab") as out:
        out.write(extra)
for name in ("a=b", "it's", "many/f9"):
    os.remove(name)
same("check: corrupted and missing files", ["-c", "../sums"])
same("check: corrupted and missing files, joined", ["-c", "../sums"], joined=True)
same("check: tags, corrupted and missing, joined", ["-c", "../tagged"], joined=True)
for option in ("--quiet", "--status", "--strict", "-w", "--warn", "--ignore-missing", "--quiet --ignore-missing",
               "--status -w", "-w --status", "--strict --quiet", "--ignore-missing --status"):
    same(f"check {option}", ["-c", *option.split(), "../sums"], joined=True)
sums_lines = read("../sums.orig").splitlines(keepends=True)
big_sum = hashlib.md5(big).hexdigest().encode()
write("../messy", b"garbage\n#comment\n\n" + b"".join(sums_lines[:3]) + b"bad line\r\n" + b"".join(sums_lines[-2:])
      + sums_lines[0][:32] + b" one-space-form\n" + b"  " + sums_lines[0].rstrip(b"\n") + b"\n"
      + b"MD5 (no-such) = " + zeros + b"\n" + b"MD5(big) = " + big_sum + b"\n" + b"MD5 (big)= " + big_sum + b"\r\n"
      + b"\\" + zeros + b"  \\\\x\n" + zeros + b"  directory\n" + zeros + b"  /proc/self/mem\n")
for option in ("", "-w", "--strict", "--strict -w", "--quiet", "--status", "--ignore-missing"):
    same(f"check a messy list {option}", ["-c", *option.split(), "../messy"], joined=True)
    same(f"check a messy list {option}, apart", ["-c", *option.split(), "../messy"])
write("../parens", b"MD5 (a)b) = " + hashlib.md5(b"x").hexdigest().encode() + b"\n"
      + b"MD5 (a) b ) = " + hashlib.md5(b"y").hexdigest().encode() + b"\n")
write("a)b", b"x")
write("a) b ", b"y")
same("check BSD tags with ) in names", ["-c", "../parens"])
write("../onespace", b"".join(line.replace(b"  ", b" ", 1) for line in reference_output("big", "small")
                              .splitlines(keepends=True)))
same("check the one-space form", ["-c", "../onespace"])
write("../dash", big_sum + b"  -\n")
same("check a line naming -", ["-c", "../dash"], stdin="big")
same("check a line naming -, list from stdin", ["-c", "-"], stdin="../dash")
same("check a line naming -, stdin a pipe", ["-c", "../dash", "../dash"], pipe=big)
write("../comments", b"#x\n")
same("check lists: missing, directory, empty, comments only", ["-c", "../no-such", "directory", "empty", "../comments"],
     joined=True)
same("check with every file missing, --ignore-missing", ["-c", "--ignore-missing", "../tagged"], joined=True)
same("check a list on a pipe, joined", ["-c"], pipe=read("../sums"), joined=True)
same("check two lists, joined", ["-c", "../messy", "../sums"], joined=True)
os.remove("many/f10")
os.remove("many/f20")
same("check many lines, joined", ["-c", "-w", "../list", "../messy"], joined=True)
os.chdir(work)
shutil.rmtree(tree)
os.rename(work + "/tree.orig", tree)
os.chdir(tree)


# ---- -c prints each result when its line's file is hashed: a list that
# arrives slowly on a pipe gets the first line's message (a missing file:
# stderr is not buffered) before the second line is written.
def slow_list():
    with open(work + "/slow.err", "w+b") as err:
        try:
            process = subprocess.Popen(md5sum_harness.wrapper() + [crisp_binary, "md5sum", "-c"],
                                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err)
        except OSError:
            return False
        reported = False
        try:
            process.stdin.write(zeros + b"  no-such-file\n")
            process.stdin.flush()
            for _ in range(200):
                if b"no-such-file" in read(work + "/slow.err"):
                    reported = True
                    break
                time.sleep(0.05)
            process.stdin.write(reference_output("small"))
            process.stdin.close()
        except BrokenPipeError:
            pass
        process.wait()
    return reported


if md5sum_harness.wanted("-c on a slow pipe"):
    if slow_list():
        oracle.checks += 1
    else:
        oracle.fail("-c on a slow pipe waited for more lines before reporting")



# ---- a file that standard output writes to, among the files: coreutils
# prints each line before it opens the next file, so that file's sum is of
# the lines written before it (md5sum * > SUMS run again, or -c with the
# output among the list's files). Each program runs in a directory of its
# own with the same files; the outputs must be the same bytes.
def output_among_inputs(arguments, files):
    results = []
    for program in ([reference], md5sum_harness.wrapper() + [crisp_binary, "md5sum"]):
        directory = os.path.join(work, "output-%d" % len(results))
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        for name, content in files.items():
            write(os.path.join(directory, name), content)
        with open(os.path.join(directory, "OUT"), "wb") as out:  # truncated, as a shell's > does
            status = subprocess.run(program + arguments, cwd=directory, stdout=out,
                                    stderr=subprocess.DEVNULL).returncode
        results.append((status, read(os.path.join(directory, "OUT"))))
    return results[0] == results[1]


previous = reference_output("small", "small2")
for description, arguments, files in (
        ("sums, the output file last", ["small", "small2", "OUT"], {"small": read("small"), "small2": read("small2"),
                                                                 "OUT": previous}),
        ("sums, the output file among many", [*many[:40], "OUT", *many[40:60]],
         {**{name: read(name) for name in many[:60]}, "OUT": previous}),
        ("check, the output file listed", ["-c", "list"],
         {"small": read("small"), "OUT": previous,
          "list": reference_output("small") + hashlib.md5(b"").hexdigest().encode() + b"  OUT\n"})):
    if not md5sum_harness.wanted(description):
        continue
    for name in list(files):
        if "/" in name:
            files[os.path.basename(name)] = files.pop(name)
    arguments = [os.path.basename(argument) for argument in arguments]
    if output_among_inputs(arguments, files):
        oracle.checks += 1
    else:
        oracle.fail(f"{description}: the output file hashed otherwise than by coreutils")

oracle.finish()
sys.exit(oracle.summary())
