"""test/test_md5sum_growing.py - crisp md5sum reads every file until read()
returns 0, as coreutils md5sum does, even when the file grows after it was
opened. The grow_on_read shim (LD_PRELOAD) appends bytes to a file the
moment a read() reaches its end, so the file has grown before its last
read, with no race; the digest printed must be that of the file's final
content (hashed here afterwards, without the shim).
Sizes: multiples of the pool's 64 KiB reads, one between, one small, one
file alone and eight side by side, and through -c.
Usage: test_md5sum_growing.py PATH-TO-CRISP PATH-TO-SHIM. Under an
emulator (CRISP_TEST_WRAPPER, or meson's MESON_EXE_WRAPPER in a cross
build) the shim reaches the guest through QEMU_SET_ENV, not the emulator.
"""

import difflib
import hashlib
import os
import subprocess
import sys

import check_tally
import md5sum_harness

if len(sys.argv) != 3:
    sys.exit("usage: test_md5sum_growing.py PATH-TO-CRISP PATH-TO-SHIM")
crisp_binary = os.path.realpath(sys.argv[1])
shim = os.path.realpath(sys.argv[2])
emulator = check_tally.wrapper()
tally = check_tally.Tally()
fail = tally.fail


def crisp_growing(files, *arguments):
    """crisp ARGUMENTS with the shim growing FILES; returns (status, stdout).
    A sanitizer build must accept the shim loaded first."""
    environment = dict(os.environ, CRISP_GROW_FILES=":".join(files))
    if any("qemu-" in word for word in emulator):
        environment["QEMU_SET_ENV"] = "LD_PRELOAD=" + shim
    else:
        environment["LD_PRELOAD"] = shim
    sanitizer = os.environ.get("ASAN_OPTIONS")
    environment["ASAN_OPTIONS"] = (sanitizer + ":" if sanitizer else "") + "verify_asan_link_order=0"
    try:
        result = subprocess.run(emulator + [crisp_binary, *arguments], env=environment, stdout=subprocess.PIPE)
    except OSError as error:
        print(f"{(emulator + [crisp_binary])[0]}: {error.strerror}", file=sys.stderr)
        return 127 if isinstance(error, FileNotFoundError) else 126, b""
    return md5sum_harness.status_of(result.returncode), result.stdout


work = md5sum_harness.scratch()
os.chdir(work)


def make_files(*sizes):
    """Fresh files grow_SIZE of random bytes."""
    for size in sizes:
        with open(f"grow_{size}", "wb") as out:
            out.write(os.urandom(size))


def final_sums(sizes):
    lines = []
    for size in sizes:
        with open(f"grow_{size}", "rb") as source:
            lines.append(f"{hashlib.md5(source.read()).hexdigest()}  grow_{size}\n")
    return "".join(lines).encode()


def expect_final(description, status, output, sizes):
    """crisp's output names the final content of each grow_SIZE file,
    which must have grown."""
    for size in sizes:
        if os.stat(f"grow_{size}").st_size <= size:
            fail(f"{description}: the shim never grew grow_{size} (did crisp read it with read()?)")
            return
    expected = final_sums(sizes)
    if status != 0:
        fail(f"{description}: exit status {status}")
    elif output != expected:
        fail(f"{description}: crisp printed the sums of what the files held at open()")
        difference = difflib.unified_diff(expected.decode().splitlines(), output.decode(errors="replace").splitlines(),
                                          "expected", "crisp", lineterm="")
        print("\n".join(list(difference)[:8]))
    else:
        tally.passed()


for size in (65536, 131072, 100000, 1000):
    make_files(size)
    status, output = crisp_growing([f"grow_{size}"], "md5sum", f"grow_{size}")
    expect_final(f"one file of {size} bytes", status, output, [size])

# Side by side in the pool's lanes: several files open at once.
many = (65536, 65537, 131072, 196608, 4096, 1, 65535, 262144)
make_files(*many)
status, output = crisp_growing([f"grow_{size}" for size in many], "md5sum", *[f"grow_{size}" for size in many])
expect_final("eight files side by side", status, output, many)

# -c hashes through the same pool: the check must see the final content
# (the shim's default growth: 1000 bytes of 'g').
make_files(65536, 131072)
with open("sums", "wb") as sums:
    for name in ("grow_65536", "grow_131072"):
        with open(name, "rb") as source:
            sums.write(f"{hashlib.md5(source.read() + b'g' * 1000).hexdigest()}  {name}\n".encode())
status, output = crisp_growing(["grow_65536", "grow_131072"], "md5sum", "-c", "sums")
if status == 0 and output.rstrip(b"\n") == b"grow_65536: OK\ngrow_131072: OK":
    tally.passed()
else:
    fail(f"-c over growing files: exit status {status}, output: {output.decode(errors='replace').replace(chr(10), ' ')}")

sys.exit(tally.summary())
