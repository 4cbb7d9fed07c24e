#!/usr/bin/env python3
"""A cycle model of one kernel's main loop on CPUs we cannot run.

Disassembles FUNCTION from OBJECT (a built .o, or a shared library such as
libcrypto.so.3 when its symbols are there), takes the loop whose backward
conditional branch spans the most instructions, and runs llvm-mca on that
body once per -mcpu, printing cycles per iteration. A model, not a
measurement: it knows nothing of the caller, of caches or of the other
loops of the function, and its latencies are LLVM's tables.

Usage: scripts/mca_model.py OBJECT FUNCTION [MCPU...]
  e.g. scripts/mca_model.py build/src/x86/libcrisp_x86_avx512.a.p/md5_avx512.c.o \\
         crisp_md5_avx512 znver4 icelake-server
FUNCTION may instead be a range of addresses, START-END in hex as objdump
prints them (a stripped library's local functions have no name): the loop
is then the instructions from START up to the jump at END.
Default CPUs: znver4 znver3 icelake-server sapphirerapids (those without
the loop's instruction sets say so). Needs objdump and llvm-mca (Debian:
apt-get install llvm-16; LLVM_MCA names another binary).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

DEFAULT_CPUS = ["znver4", "znver3", "icelake-server", "sapphirerapids"]
INSTRUCTION_LINE = re.compile(r"^ *([0-9a-f]+):\t")


def fail(message):
    print(f"mca_model.py: {message}", file=sys.stderr)
    sys.exit(1)


def disassemble(object_path, function, start, end):
    """One (address, instruction) pair per instruction, without bytes, symbols or comments."""
    command = ["objdump", "-d", "--no-show-raw-insn"]
    if start:
        command += [f"--start-address=0x{start}", f"--stop-address=0x{end}"]
    output = subprocess.run(command + [object_path], stdout=subprocess.PIPE, text=True).stdout
    body, inside = [], False
    for line in output.splitlines():
        if start and INSTRUCTION_LINE.match(line):
            inside = True
        words = line.split()
        if len(words) >= 2 and words[1] == f"<{function}>:":
            inside = True
            continue
        if inside and line == "":
            break
        if inside and INSTRUCTION_LINE.match(line):
            part = line.split("\t")
            text = re.sub(r" *<[^>]*>$", "", re.sub(r" *#.*$", "", part[1]))
            body.append((int(part[0].strip().rstrip(":"), 16), text))
    return body


def longest_loop(body):
    """The body of the longest loop: a conditional jump (not jmp) back to an
    address in the function, from its target up to, not including, the jump."""
    line_of = {address: index for index, (address, _) in enumerate(body)}
    best, first, last = 0, 0, 0
    for index, (address, text) in enumerate(body):
        if not text.startswith("j") or text.startswith("jmp"):
            continue
        target = text.split()[-1]
        if not re.fullmatch(r"[0-9a-f]+", target):
            continue
        target = int(target, 16)
        if target >= address or target not in line_of:
            continue
        if index - line_of[target] > best:
            best, first, last = index - line_of[target], line_of[target], index - 1
    return [text for _, text in body[first : last + 1]] if best else None


def main():
    if len(sys.argv) < 3:
        print("usage: mca_model.py OBJECT FUNCTION [MCPU...]", file=sys.stderr)
        sys.exit(2)
    object_path, function = sys.argv[1:3]
    cpus = sys.argv[3:] or DEFAULT_CPUS
    mca = os.environ.get("LLVM_MCA") or shutil.which("llvm-mca-16") or shutil.which("llvm-mca")
    if not mca:
        fail("llvm-mca not found (apt-get install llvm-16)")
    start = end = ""
    if re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", function):
        start, end = function.split("-")
    body = disassemble(object_path, function, start, end)
    if not body:
        fail(f"no function {function} in {object_path}")
    loop = [text for _, text in body] if start else longest_loop(body)
    if loop is None:
        fail(f"no loop in {function}")
    version_text = subprocess.run([mca, "--version"], capture_output=True, text=True).stdout
    version = re.search(r"LLVM version (\S+)", version_text)
    print(f"{function}: {len(loop)} instructions a loop iteration ({'LLVM ' + version.group(1) if version else ''})")
    with tempfile.NamedTemporaryFile("w", suffix=".s") as loop_file:
        loop_file.write("".join(f"{text}\n" for text in loop))
        loop_file.flush()
        for cpu in cpus:
            result = subprocess.run([mca, f"-mcpu={cpu}", "-iterations=100", loop_file.name],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            cycles = re.search(r"^Total Cycles: *(\S+)", result.stdout, re.M)
            if cycles:
                print(f"  -mcpu={cpu}: {int(cycles.group(1)) / 100:.1f} cycles an iteration")
            else:
                print(f"  -mcpu={cpu}: no model for these instructions")


if __name__ == "__main__":
    main()
