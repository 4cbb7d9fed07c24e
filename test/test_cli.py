#!/usr/bin/env python3
"""The crisp command end to end.

md5sum output and exit status byte for byte against coreutils md5sum on a
generated tree (odd names, empty and 1 MiB files, unreadable entries, more
files than the pool holds), the -c round trip, stdin, poly1305 against
RFC 8439 2.5.2, info (every kernel info --kernels names), crisp bench
(through crisp, or crisp-bench directly under an emulator) with its EVP
rows through the crisp provider and peer libraries loaded at run time
(--peer-lib), and usage errors.

Usage: test_cli.py PATH-TO-CRISP PATH-TO-CRISP-BENCH. CRISP_TEST_PROVIDER=1
says crisp.so was built beside crisp-bench (the EVP rows must appear);
otherwise they must not. CRISP_TEST_WRAPPER
(e.g. "qemu-x86_64 -cpu Haswell"), split on whitespace, runs crisp through
an emulator; stderr is never compared, so qemu's warning lines do not
matter. In a cross build meson's own MESON_EXE_WRAPPER (qemu-aarch64) is the
default.
"""

import ctypes.util
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import check_tally

USAGE = "usage: test_cli.py PATH-TO-CRISP PATH-TO-CRISP-BENCH"
REFERENCE = "/usr/bin/md5sum"
KEY = "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"
RFC8439_TAG = b"a8061dc1305136c6c22b8baf0c0127a9"

if len(sys.argv) < 3 or not sys.argv[1] or not sys.argv[2]:
    sys.exit(USAGE)
wrapper = check_tally.wrapper()
crisp_binary = os.path.realpath(sys.argv[1])
bench_binary = os.path.realpath(sys.argv[2])
tally = check_tally.Tally()
fail, passed, check = tally.fail, tally.passed, tally.check


def crisp(*arguments):
    return check_tally.command(wrapper, crisp_binary, bench_binary, arguments)


def bench(*arguments):
    return crisp("bench", *arguments)


def tune(*arguments):
    return crisp("tune", *arguments)


def run(command, stdin=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=None):
    """Runs COMMAND; stdin is a path, a subprocess constant, or inherited."""
    environment = {**os.environ, **env} if env else None
    try:
        if isinstance(stdin, str):
            with open(stdin, "rb") as source:
                return subprocess.run(command, stdin=source, stdout=stdout, stderr=stderr, env=environment)
        return subprocess.run(command, stdin=stdin, stdout=stdout, stderr=stderr, env=environment)
    except OSError as error:
        # A program that cannot start fails its check, as the shell's 126 or 127 would.
        return subprocess.CompletedProcess(command, 127, b"", str(error).encode())


def text(data):
    return data.decode(errors="replace")


def substitution(data):
    """What $(...) gives: the output less its trailing newlines."""
    return text(data).rstrip("\n")


def od_lines(data):
    return subprocess.run(["od", "-c"], input=data, capture_output=True).stdout.decode(errors="replace").splitlines()


def expect_same(description, arguments, stdin_file="/dev/null", env=None):
    """crisp md5sum ARGUMENTS and coreutils md5sum ARGUMENTS give the same
    stdout bytes and exit status."""
    mine = run(crisp("md5sum", *arguments), stdin=stdin_file, env=env)
    reference = run([REFERENCE, *arguments], stdin=stdin_file, stderr=subprocess.DEVNULL, env=env)
    if mine.stdout != reference.stdout:
        fail(f"{description}: stdout differs")
        difference = difflib.unified_diff(od_lines(reference.stdout), od_lines(mine.stdout), "coreutils", "crisp",
                                            lineterm="")
        for line in list(difference)[:20]:
            print(line)
    elif mine.returncode != reference.returncode:
        fail(f"{description}: exit status {mine.returncode}, coreutils {reference.returncode}")
    else:
        passed()


def expect_status(want, description, command, env=None):
    """COMMAND's exit status only."""
    got = run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
              env=env).returncode
    check(got == want, f"{description}: exit status {got}, want {want}")


def levels_of(info_output):
    return [level for line in text(info_output).splitlines() if line.startswith("levels: ")
            for level in line[len("levels: "):].split()]


def make_tree(tree):
    """The tree: empty, odd names, sizes around block and buffer boundaries,
    1 MiB. Returns the regular files."""
    os.makedirs(os.path.join(tree, "many"))
    os.chdir(tree)
    contents = {
        "empty": b"", "name with spaces": b"hello\n", "new\nline": b"newline", "back\\slash": b"backslash",
        "car\rret": b"carriage", "odd\\\n\r mix": b"all", "*star": b"star", "big": os.urandom(1048576)
    }
    for size in (1, 55, 56, 63, 64, 65, 127, 128, 4095, 4096, 65535, 65536, 65537, 131072, 131073, 200000):
        contents[f"size_{size}"] = os.urandom(size)
    for i in range(1, 91):
        contents[f"many/file_{i}"] = os.urandom(i * 977 % 70000)
    for name, data in contents.items():
        with open(name, "wb") as file:
            file.write(data)
    os.mkdir("directory")
    os.symlink("does-not-exist", "dangling")
    return ["empty", "name with spaces", "new\nline", "back\\slash", "car\rret", "odd\\\n\r mix", "*star", "big",
            *sorted(name for name in contents if name.startswith("size_")),
            *sorted(name for name in contents if name.startswith("many/"))]


def md5sum_checks(work, regular):
    # Plain sums, including every dispatch level this CPU (or emulator) has.
    expect_same("regular files", regular)
    expect_same("unreadable entries among others",
                ["empty", "directory", "big", "dangling", "back\\slash", "missing-file", "size_1"])
    expect_same("binary marks", ["-b", *regular])
    expect_same("BSD tags", ["--tag", *regular])
    expect_same("NUL-terminated", ["-z", *regular])
    expect_same("NUL-terminated BSD tags", ["-z", "--tag", "empty", "new\nline", "back\\slash"])
    expect_same("the same file many times", ["big", "big", "size_65536", "big", "empty", "big"])
    for level in levels_of(run(crisp("info"), stderr=subprocess.DEVNULL).stdout):
        expect_same(f"CRYPTO_FORCE={level}", regular, env={"CRYPTO_FORCE": level})

    # Standard input: no arguments, '-', '-' twice (the second read sees EOF).
    expect_same("stdin, no arguments", [], stdin_file="big")
    expect_same("stdin as -", ["-"], stdin_file="big")
    expect_same("stdin twice among files", ["empty", "-", "size_64", "-", "big"], stdin_file="big")

    # -c round trip, then a corrupted file and a missing one.
    sums, tagged = f"{work}/sums", f"{work}/tagged"
    with open(sums, "wb") as file:
        subprocess.run([REFERENCE, *regular], stdout=file)
    with open(tagged, "wb") as file:
        subprocess.run([REFERENCE, "--tag", *regular], stdout=file)
    expect_same("check OK", ["-c", sums])
    expect_same("check BSD tags", ["-c", tagged])
    for name in ("size_4096", "new\nline"):
        with open(name, "ab") as file:
            file.write(b"x")
    expect_same("check with corrupted files", ["-c", sums])
    result = run(crisp("md5sum", "-c", sums), stderr=subprocess.DEVNULL)
    check(result.returncode == 1 and b"size_4096: FAILED" in result.stdout.split(b"\n"),
          "a corrupted file must be reported FAILED with exit status 1")
    os.remove("size_64")
    expect_same("check with a missing file", ["-c", sums])
    expect_same("check --quiet", ["-c", "--quiet", sums])
    expect_same("check --status", ["-c", "--status", sums])
    expect_same("check --ignore-missing", ["-c", "--ignore-missing", sums])
    messy = f"{work}/messy"
    with open(sums, "rb") as source, open(messy, "wb") as file:
        file.write(source.read() + b"not a checksum line\n#comment\n\n")
    expect_same("check improperly formatted lines", ["-c", messy])
    expect_same("check --strict", ["-c", "--strict", messy])
    expect_same("check --warn", ["-c", "--warn", messy])
    crlf = f"{work}/crlf"
    with open(crlf, "wb") as file:
        file.write(hashlib.md5(b"", usedforsecurity=False).hexdigest().encode() + b"  empty\r\n")
    expect_same("check CRLF lines", ["-c", crlf])
    stdin_sums = f"{work}/stdin_sums"
    with open("big", "rb") as source, open(stdin_sums, "wb") as file:
        file.write(hashlib.md5(source.read(), usedforsecurity=False).hexdigest().encode() + b"  -\n")
    expect_same("check a line naming stdin", ["-c", stdin_sums], stdin_file="big")
    expect_same("check list from stdin", ["-c"], stdin_file=sums)
    expect_same("check file missing", ["-c", f"{work}/no-such-list"])
    expect_same("check nothing well formed", ["-c", "empty"])


def poly1305_checks(work):
    # Poly1305: RFC 8439 section 2.5.2.
    message = f"{work}/rfc8439"
    with open(message, "wb") as file:
        file.write(b"Cryptographic Forum Research Group")

    def expect_tag(description, command, stdin=None):
        tag = substitution(run(command, stdin=stdin, stderr=subprocess.DEVNULL).stdout)
        check(tag == RFC8439_TAG.decode(), f"{description}: '{tag}'")

    expect_tag("poly1305 RFC 8439 2.5.2 tag", crisp("poly1305", "-k", KEY, message))
    expect_tag("poly1305 from stdin", crisp("poly1305", "-k", KEY, "-"), stdin=message)
    expect_status(1, "poly1305 of a missing file", crisp("poly1305", "-k", KEY, f"{work}/no-such-file"))
    expect_status(2, "poly1305 without a key", crisp("poly1305", message))
    expect_status(2, "poly1305 with a short key", crisp("poly1305", "-k", "85d6", message))
    expect_status(2, "poly1305 with a non-hex key", crisp("poly1305", "-k", KEY[:-1] + "g", message))
    expect_tag("poly1305 with --", crisp("poly1305", "-k", KEY, "--", message))
    key_file = f"{work}/key"
    with open(key_file, "w") as file:
        file.write(f" {KEY}\n")
    expect_tag("poly1305 --key-file", crisp("poly1305", "--key-file", key_file, message))
    expect_tag("poly1305 --key-file -", crisp("poly1305", "--key-file=-", message), stdin=key_file)
    expect_status(2, "poly1305 --key-file - with the message on stdin too", crisp("poly1305", "--key-file", "-"))
    expect_status(2, "poly1305 --key-file holding no key", crisp("poly1305", "--key-file", message, message))
    expect_status(1, "poly1305 --key-file missing", crisp("poly1305", "--key-file", f"{work}/no-such-key", message))
    # The reason an open or read failed, not the errno quoting the name left.
    for target, reason in ((f"{message}/x", "Not a directory"), (work, "Is a directory")):
        said = substitution(run(crisp("poly1305", "-k", KEY, target), stdout=subprocess.DEVNULL).stderr)
        check(said.endswith(f": {reason}"), f"poly1305 of {target}: '{said}'")
        said = substitution(run(crisp("poly1305", "--key-file", target, message), stdout=subprocess.DEVNULL).stderr)
        check(said.endswith(f": {reason}"), f"poly1305 --key-file {target}: '{said}'")
    expect_status(2, "poly1305 with two keys", crisp("poly1305", "-k", KEY, "--key-file", key_file, message))
    expect_status(2, "poly1305 with -k twice", crisp("poly1305", "-k", KEY, "-k", KEY, message))
    expect_status(2, "poly1305 with --key-file twice", crisp("poly1305", "--key-file", key_file, "--key-file",
                                                              key_file, message))
    expect_status(2, "poly1305 with two files", crisp("poly1305", "-k", KEY, message, message))
    # Names and arguments reach stderr quoted: no raw escape sequence.
    for command in (f"poly1305 -k {KEY}", "md5sum", "info", ""):
        errors = run(crisp(*command.split(), "\x1b[31mRED"), stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL).stderr
        raw = any(b"\x1b" in line for line in errors.split(b"\n") if not line.startswith(b"qemu-"))
        check(not raw, f"crisp {command}: a raw escape on stderr")


def info_checks():
    """Returns crisp info --kernels's names."""
    # info lists every kernel and exits 0.
    info = run(crisp("info"), stderr=subprocess.DEVNULL)
    check(info.returncode == 0, f"crisp info exit status {info.returncode}")
    listed = run(crisp("info", "--kernels"), stderr=subprocess.DEVNULL)
    check(listed.returncode == 0 and listed.stdout,
          f"crisp info --kernels: exit status {listed.returncode}, no names")
    kernels = [line.strip() for line in text(listed.stdout).splitlines()]
    for kernel in kernels:
        check(re.search(f"^{re.escape(kernel)}: [a-z]", text(info.stdout), re.MULTILINE),
              f"crisp info lacks a '{kernel}:' line")
    # ... and --kernels names every kernel line of info (those after
    # "level:", less the indented 'why:' line under each).
    lines = info.stdout.splitlines(keepends=True)
    after = next((i for i in range(1, len(lines)) if lines[i].startswith(b"level: ")), len(lines))
    named = b"".join(re.sub(rb": [^\n]*", b"", line, count=1) for line in lines[after + 1:]
                     if not line.startswith(b" "))
    check(named == listed.stdout, "crisp info --kernels does not name exactly the kernels crisp info lists")
    expect_status(0, "crisp info --all", crisp("info", "--all"))
    expect_status(2, "crisp info with an unknown CRYPTO_FORCE", crisp("info"), env={"CRYPTO_FORCE": "no-such-level"})
    # The level line gives its reason in one pair of parentheses, whatever
    # the request: a level that is no level, and each level (refused on a
    # CPU, or an emulated one, that lacks it).
    for force in ["no-such-level", *levels_of(info.stdout)]:
        output = run(crisp("info"), stderr=subprocess.DEVNULL, env={"CRYPTO_FORCE": force}).stdout
        level = [line for line in text(output).splitlines() if line.startswith("level: ")]
        check(any(re.fullmatch(r"level: [a-z0-9_-]+ \([^()]+\)", line) for line in level),
              f"CRYPTO_FORCE={force}: '{chr(10).join(level)}'")
    return kernels


def usage_checks(work):
    # Usage errors, help, version.
    expect_status(2, "no command", crisp())
    expect_status(2, "unknown command", crisp("frobnicate"))
    # md5sum's usage errors exit 1, as coreutils' do (the md5sum-diff test
    # compares the messages).
    expect_status(1, "md5sum unknown option", crisp("md5sum", "--frobnicate"))
    expect_status(1, "md5sum --tag with -c", crisp("md5sum", "--tag", "-c", f"{work}/sums"))
    expect_status(1, "md5sum --status without -c", crisp("md5sum", "--status", "empty"))
    expect_status(2, "bench unknown kernel", bench("--kernel", "frobnicate"))
    expect_status(2, "bench unknown implementation", bench("--impl", "frobnicate"))
    expect_status(2, "bench --time without a value", bench("--time"))
    for arguments in (["--kernel", ""], ["--kernel", "md5,"], ["--chunk", "-18446744073709551615", "--sweep",
                      "--kernel", "poly1305"], ["--sweep", "--impl", "generic", "--kernel", "poly1305"],
                      ["--sweep", "--json", "--tsv"], ["--time", "1e9"]):
        expect_status(2, f"bench {' '.join(arguments)}", bench(*arguments))
    # arguments in bench's messages are quoted: no control character reaches the terminal raw
    said = run(bench("a\nb\x1b[31m"), stdout=subprocess.DEVNULL).stderr
    check(b"\x1b" not in said and b"'a'$'\\n''b'$'\\033''[31m'" in said,
          f"bench quotes an unknown argument: {said!r}")
    said = run(bench("--kernel", "x\ny"), stdout=subprocess.DEVNULL).stderr
    check(b"x\ny" not in said and b"'x'$'\\n''y'" in said, f"bench quotes an unknown kernel: {said!r}")
    expect_status(2, "crisp info --kernels with an unknown CRYPTO_FORCE", crisp("info", "--kernels"),
                  env={"CRYPTO_FORCE": "no-such-level"})
    for command in ("", "info", "md5sum", "poly1305"):
        expect_status(0, f"crisp {command} --help", crisp(*command.split(), "--help"))
    expect_status(0, "crisp bench --help", bench("--help"))
    expect_status(0, "crisp --version", crisp("--version"))
    expect_status(0, "crisp md5sum --version", crisp("md5sum", "--version"))


def bench_checks(work, kernels):
    # bench runs (a smoke test; timings are never checked), and every kernel
    # crisp lists has bench cases.
    expect_status(0, "bench md5 short run", bench("--kernel", "md5,poly1305", "--time", "1", "--json"))
    expect_status(0, "bench --check", bench("--check"))
    expect_status(2, "bench --provider-path without --peers", bench("--provider-path", work))
    evp_row_checks(work)

    # crisp tune (crisp-bench --tune) ends with a CRYPTO_IMPL line that pins
    # every kernel, and the library takes that line as it is.
    expect_status(0, "crisp tune --help", tune("--help"))
    expect_status(2, "crisp tune with a bench option", tune("--peers"))
    for option in ("--quick", "--tsv"):
        expect_status(2, f"crisp tune {option}", tune(option))
    # Its messages name crisp tune, the command the user typed.
    errors = run(tune("--peers"), stdout=subprocess.DEVNULL).stderr
    said = substitution(b"".join(line for line in errors.splitlines(keepends=True) if not line.startswith(b"qemu-")))
    check(said == "crisp tune: its only option is --time\nTry 'crisp tune --help' for more information.",
          f"crisp tune usage error: '{substitution(errors)}'")
    tuned = run(tune("--time", "1"))
    lines = text(tuned.stdout).splitlines()
    pins = lines[-1] if lines else ""
    check(tuned.returncode == 0 and pins.startswith("CRYPTO_IMPL="),
          f"crisp tune: exit {tuned.returncode}, last line '{pins}'")
    pinned = pins.removeprefix("CRYPTO_IMPL=")
    for kernel in kernels:
        check(f",{kernel}:" in f",{pinned},", f"crisp tune pins no implementation of {kernel}")
    name, equals, value = pins.partition("=")
    if equals:
        info = run(crisp("info"), env={name: value})
        status, said = info.returncode, info.stderr
    else:
        status, said = 127, b""  # env(1) given no NAME=VALUE runs no crisp
    no_message = not any(line.startswith(b"crisp") for line in said.split(b"\n"))
    check(status == 0 and no_message, f"crisp info with {pins}: exit {status}")
    info_lines = text(info.stdout).splitlines() if equals else []
    for pin in pinned.replace(",", " ").split():
        kernel, _, implementation = pin.partition(":")
        check(f"{kernel}: {implementation if _ else pin}" in info_lines, f"crisp info does not run {pin}")

    # Without crisp-bench beside it, in its bin folder or on PATH, crisp
    # bench fails with status 127, as env(1) does for a program it cannot
    # find (a copy of crisp in an empty folder, with its library); one
    # there that cannot be executed gives 126.
    alone = f"{work}/alone"
    os.mkdir(alone)
    try:
        shutil.copy(crisp_binary, f"{alone}/crisp")
    except OSError as error:
        print(error)
    library = os.path.dirname(crisp_binary) + "/.."
    expect_status(127, "crisp bench without crisp-bench", [*wrapper, f"{alone}/crisp", "bench", "--help"],
                  env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": library})
    with open(f"{alone}/crisp-bench", "w") as stub:
        stub.write("not a program\n")
    os.chmod(f"{alone}/crisp-bench", 0o644)
    expect_status(126, "crisp bench with a crisp-bench it cannot execute",
                  [*wrapper, f"{alone}/crisp", "bench", "--help"],
                  env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": library})


# The EVP rows crisp bench --peers adds: (kernel, size) -> what must appear.
EVP_ROWS = {(kernel, size) for kernel in ("md5", "poly1305", "chacha20poly1305_seal") for size in (64, 1024, 16384)}
EVP_ROWS.add(("rsa_private", 2048))
EVP_SOURCES = ("provider=crisp", "provider=default")


def bench_json(description, *arguments, env=None):
    """crisp bench --json ARGUMENTS: (report or None, its stderr lines about EVP rows)."""
    result = run(bench("--json", *arguments), stdin=subprocess.DEVNULL, env=env)
    # Not "no peer library": a build may have none.
    said = [line for line in text(result.stderr).splitlines() if "EVP" in line or "provider" in line]
    try:
        report = json.loads(text(result.stdout)) if result.returncode == 0 else None
    except ValueError:
        report = None
    check(report is not None, f"{description}: exit {result.returncode}, no JSON report; stderr {said}")
    return report, said


def evp_rows(report):
    """{(kernel, size, source): row} of the report's EVP rows."""
    rows = report["results"] if report else []
    return {(row["kernel"], row["size"], row["source"]): row for row in rows if row["source"] in EVP_SOURCES}


def evp_row_checks(work):
    # crisp bench --peers adds rows through OpenSSL's EVP API with the crisp
    # provider (provider=crisp) and with the default provider alone, at their
    # sizes only, the crisp provider's with its ratio to the default's, and
    # names the OpenSSL. Under an emulator MD5 alone (RSA takes seconds there).
    kernels = ("md5",) if wrapper else ("md5", "poly1305", "chacha20poly1305_seal", "rsa_private")
    built = os.environ.get("CRISP_TEST_PROVIDER") == "1"
    report, said = bench_json("bench --peers with EVP rows", "--peers", "--kernel", ",".join(kernels), "--time", "1")
    rows = evp_rows(report)
    if not built:
        check(not rows and not said, f"EVP rows without crisp.so built: {sorted(rows)}, stderr {said}")
        report, said = bench_json("bench --provider-path without crisp.so built", "--peers", "--kernel", "md5",
                                  "--time", "1", "--provider-path", work)
        check(len(said) == 1 and "built without OpenSSL 3" in said[0], f"stderr {said}")
        return
    check(not said, f"bench --peers with EVP rows said {said}")
    check(report is not None and report.get("openssl", "").startswith("OpenSSL "),
          f"the report names no OpenSSL: {report.get('openssl') if report else None}")
    want = {(kernel, size) for kernel, size in EVP_ROWS if kernel in kernels}
    got = {(kernel, size) for kernel, size, _ in rows}
    check(got == want, f"EVP rows at {sorted(got)}, want {sorted(want)}")
    for kernel, size in sorted(want):
        crisp_row, default_row = (rows.get((kernel, size, source)) for source in EVP_SOURCES)
        check(crisp_row is not None and default_row is not None, f"{kernel} {size}: an EVP row is missing")
        if crisp_row is None or default_row is None:
            continue
        ratio = crisp_row.get("vs_default_provider")
        expected = default_row["ns_per_op"] / crisp_row["ns_per_op"]
        check(isinstance(ratio, float) and ratio > 0 and abs(ratio - expected) < 1e-3 * expected,
              f"{kernel} {size}: vs_default_provider {ratio}, want {expected:.4f}")
        check("vs_best_peer" not in default_row and "vs_default_provider" not in default_row,
              f"{kernel} {size}: the default provider's row has a ratio")

    # A module that cannot be loaded: one line saying why, no EVP rows, the
    # bench still succeeds (given by option or by environment).
    nowhere = f"{work}/no-provider-here"
    for how, arguments, env in (("--provider-path", ("--provider-path", nowhere), None),
                                ("CRISP_PROVIDER_PATH", (), {"CRISP_PROVIDER_PATH": nowhere})):
        report, said = bench_json(f"bench with {how} naming no crisp.so", "--peers", "--kernel", "md5", "--time",
                                  "1", *arguments, env=env)
        check(not evp_rows(report) and report is not None and "openssl" not in report,
              f"{how} naming no crisp.so: EVP rows {sorted(evp_rows(report))}")
        check(len(said) == 1 and said[0].startswith("crisp bench: no EVP rows: cannot load crisp.so from " + nowhere),
              f"{how} naming no crisp.so: stderr {said}")


def peer_library_checks(work):
    # --peer-lib NAME=PATH and CRISP_BENCH_PEER_LIBS load a libcrypto at run
    # time as a peer: one that cannot be loaded (no such file, no NAME=)
    # gets one stderr line and no rows, and the bench still succeeds; one
    # that loads (the system's libcrypto, standing in for a peer built from
    # source) gives rows named by the version it reports, counted in
    # vs_best_peer. Not under an emulator: the guest's libraries differ.
    expect_status(2, "bench --peer-lib without --peers", bench("--peer-lib", f"x={work}"))
    expect_status(2, "bench --peer-lib without a value", bench("--peers", "--peer-lib"))
    system = None if wrapper else ctypes.util.find_library("crypto")
    env = dict(os.environ, CRISP_BENCH_PEER_LIBS="malformed" + (f":system={system}" if system else ""))
    result = run(bench("--json", "--peers", "--kernel", "md5", "--quick", "--time", "1",
                       "--peer-lib", f"nowhere={work}/no-such-libcrypto.so"), stdin=subprocess.DEVNULL, env=env)
    said = [line for line in text(result.stderr).splitlines() if "peer library" in line]
    check(result.returncode == 0, f"bench with unloadable peer libraries: exit {result.returncode}")
    check(len(said) == 2 and said[0].startswith("crisp bench: peer library 'nowhere' not loaded, no rows: ") and
          said[1] == "crisp bench: peer library 'malformed' not loaded: NAME=PATH expected",
          f"unloadable peer libraries: stderr {said}")
    try:
        report = json.loads(text(result.stdout))
    except ValueError:
        report = {}
    libraries = report.get("peer_libraries", [])
    check(len(libraries) == (1 if system else 0), f"peer_libraries {libraries}")
    if not system or len(libraries) != 1:
        return
    version = " ".join(libraries[0]["version"].split()[:2])
    check(version.startswith("OpenSSL "), f"the loaded peer reports {libraries[0]['version']}")
    rows = report.get("results", [])
    loaded = {row["size"]: row for row in rows if row["source"] == version}
    check(sorted(loaded) == [64, 256, 1024, 16384, 1048576], f"rows of {version}: {sorted(loaded)}")
    for row in rows:
        if row["source"] != "crisp" or row["size"] not in loaded:
            continue
        fastest = min(peer["ns_per_op"] for peer in rows if peer["size"] == row["size"] and peer["source"] != "crisp"
                      and peer["source"] not in EVP_SOURCES)
        check(abs(row.get("vs_best_peer", 0) - fastest / row["ns_per_op"]) < 1e-3 * fastest / row["ns_per_op"],
              f"md5 {row['size']}: vs_best_peer {row.get('vs_best_peer')} leaves out a peer")


def main():
    with tempfile.TemporaryDirectory() as work:
        regular = make_tree(f"{work}/tree")
        md5sum_checks(work, regular)
        poly1305_checks(work)
        kernels = info_checks()
        usage_checks(work)
        bench_checks(work, kernels)
        peer_library_checks(work)
        os.chdir("/")
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
