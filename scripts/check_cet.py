#!/usr/bin/env python3
"""Checks objects assembled from crisp's .S files for CET (the `cet` stage
of scripts/test.sh runs it):

  python3 scripts/check_cet.py OBJECT.o...

For each object: the GNU property note names IBT and SHSTK; every global
function starts with ENDBR64; and every indirect-jump target starts with
ENDBR64. The .S files reach those targets in one way only (ROW_TARGET in
src/x86/bn_rows_x86.inc): a RIP-relative LEA of a table of 8 landing pads,
16 bytes apart, so each LEA target in .text must be followed by 8 ENDBR64
at that stride. Prints one line per object; exits 1 on a failure, 2 when
given no object.
"""

import os
import re
import subprocess
import sys

PADS = 8
PAD_STRIDE = 16
# "  39:\tlea    0xc0(%rip),%r11        # 100 <name+0x100>"
INSTRUCTION = re.compile(r"^ *([0-9a-f]+):\t")
LEA_TARGET = re.compile(r"# ([0-9a-f]+) <")


def output_of(command):
    """The stdout of command; its stderr passes through (a missing file shows there)."""
    return subprocess.run(command, stdout=subprocess.PIPE, text=True).stdout


def disassembly(path):
    """The mnemonic at each address of .text, and the targets of RIP-relative LEAs in order."""
    mnemonics = {}
    lea_targets = []
    for line in output_of(["objdump", "-d", "--no-show-raw-insn", "-j", ".text", path]).splitlines():
        instruction = INSTRUCTION.match(line)
        if not instruction:
            continue
        text = line.split("\t")[1]
        words = text.split()
        mnemonic = words[0] if words else ""
        mnemonics[int(instruction.group(1), 16)] = mnemonic
        target = LEA_TARGET.search(text)
        if mnemonic == "lea" and "(%rip)" in text and target:
            lea_targets.append(target.group(1))
    return mnemonics, lea_targets


def check(path):
    """The problems of one object, and its counts of entries and jump targets."""
    problems = []
    if not re.search(r"x86 feature: IBT, SHSTK", output_of(["readelf", "-n", path])):
        problems.append("no IBT + SHSTK property note")
    mnemonics, lea_targets = disassembly(path)
    entries = 0
    for line in output_of(["nm", "--defined-only", path]).splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] == "T":
            entries += 1
            if mnemonics.get(int(fields[0], 16)) != "endbr64":
                problems.append(f"function {fields[2]} lacks ENDBR64")
    targets = 0
    for table in lea_targets:
        for pad in range(PADS):
            targets += 1
            target = int(table, 16) + pad * PAD_STRIDE
            if mnemonics.get(target) != "endbr64":
                problems.append(f"jump target 0x{target:x} (pad {pad} of the table at 0x{table}) lacks ENDBR64")
    return problems, entries, targets


def main():
    objects = sys.argv[1:]
    if not objects or objects[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stdout if objects else sys.stderr)
        return 0 if objects else 2
    status = 0
    for path in objects:
        problems, entries, targets = check(path)
        name = os.path.basename(path)
        if not problems:
            print(f"    ok: {name}: IBT + SHSTK, {entries} entries and {targets} jump targets with ENDBR64")
        else:
            status = 1
            print(f"    FAIL: {name}:", file=sys.stderr)
            for problem in problems:
                print(f"      {problem}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
