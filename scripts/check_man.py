#!/usr/bin/env python3
"""The man page check (stage man of scripts/test.sh).

docs/crisp.1 and docs/crisp.3 render without a man or groff warning;
crisp(1) names every subcommand, every option their --help (and
crisp-bench's) lists, the environment and every CRYPTO_OPTIONS switch;
crisp(3) names every exported function (the ABI baseline), the build
options and every public header, and states each context type's size and
alignment as the compiler has them; every one-line description of crisp
names each primitive; meson install puts both pages where man finds them.

Usage: check_man.py BUILD_DIR (a configured and built native build).
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Failure(Exception):
    pass


def output(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, check=True, **kwargs).stdout


def render(page):
    """The page as man shows it to a reader, one line per paragraph; any
    warning from man or groff fails (both exit 0 on warnings)."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "MANWIDTH": "80"}
    warnings = subprocess.run(["man", "--warnings", "-l", page], env=env, capture_output=True, text=True).stderr
    warnings += subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page], capture_output=True, text=True).stderr
    if warnings:
        raise Failure(f"{os.path.relpath(page, ROOT)} renders with warnings:\n{warnings}")
    env["MANWIDTH"] = "1000"
    text = subprocess.run(["man", "-l", page], env=env, capture_output=True, text=True).stdout
    return re.sub(".\x08", "", text)


def expect_in_page(page_name, text, what, words):
    missing = [word for word in words if word not in text]
    if missing:
        raise Failure(f"{page_name} does not mention these {what}: {' '.join(missing)}")
    print(f"    {page_name}: all {len(words)} {what}")


def expect_context_layouts(build, text):
    """crisp.3 says "CRISP_MD5_CTX_SIZE (128) bytes, 8-byte aligned" (or
    "..., needs 8-byte alignment") for every crisp_*_ctx of the headers, and
    sizeof and _Alignof agree."""
    pattern = r"CRISP_([A-Z0-9_]+)_CTX_SIZE \(([0-9]+)\) bytes, (?:needs )?([0-9]+)-byte align"
    claims = sorted(f"crisp_{name.lower()}_ctx {size} {align}" for name, size, align in re.findall(pattern, text))
    types = sorted({match for header in glob.glob(os.path.join(ROOT, "include", "crisp", "*.h"))
                    for match in re.findall(r"^\} (crisp_[a-z0-9_]+_ctx);", open(header).read(), re.M)})
    with tempfile.TemporaryDirectory(prefix="crisp-layout.") as work:
        source = os.path.join(work, "layout.c")
        with open(source, "w") as file:
            file.write("#include <stdio.h>\n#include <crisp/crisp.h>\nint main(void) {\n")
            for name in types:
                file.write(f'  printf("{name} %zu %zu\\n", sizeof({name}), _Alignof({name}));\n')
            file.write("}\n")
        subprocess.run(["cc", "-std=c11", f"-I{ROOT}/include", f"-I{build}/include", "-o", f"{work}/layout", source],
                       check=True)
        facts = sorted(output([f"{work}/layout"]).splitlines())
    if not facts or claims != facts:
        raise Failure(f"crisp.3's context sizes and alignments (type, size, alignment):\n"
                      f"    compiler says: {facts}\n    crisp.3 says:  {claims}")
    print(f"    crisp.3: size and alignment of {len(facts)} context types as compiled")


def name_section(text):
    """The NAME section of a rendered page, on one line."""
    lines = text.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("NAME"))
    end = next(index for index in range(start + 1, len(lines)) if re.match("[A-Z]", lines[index]))
    return " ".join(lines[start:end + 1])


def expect_descriptions(crisp, text1, text3):
    """Every one-line description of crisp names each thing the headers
    offer: md5.h, poly1305.h, chacha20.h, chacha20poly1305.h (both AEADs), bn.h."""
    help_lines = output([crisp, "--help"]).splitlines()[1:]
    help_text = " ".join(help_lines[:help_lines.index("") + 1] if "" in help_lines else help_lines)
    pc_text = re.search(r"^Description: (.*)$", open(os.path.join(ROOT, "packaging", "crisp.pc.in")).read(), re.M)
    descriptions = {"crisp --help": help_text, "crisp.pc": pc_text.group(1) if pc_text else "",
                    "crisp.1": name_section(text1), "crisp.3": name_section(text3)}
    primitives = ["MD5", "Poly1305", "ChaCha20", "ChaCha20-Poly1305", "XChaCha20-Poly1305", "big.integers?"]
    missing = [f"the description in {name} lacks '{word}': {text}" for name, text in descriptions.items()
               for word in primitives if not re.search(f"(^|[^A-Za-z0-9-]){word}([^A-Za-z0-9-]|$)", text)]
    if missing:
        raise Failure("\n".join(missing))
    print("    crisp --help, crisp.pc, crisp.1, crisp.3: every primitive described")


def main():
    build = os.path.abspath(sys.argv[1])
    crisp, bench = os.path.join(build, "tools", "crisp"), os.path.join(build, "bench", "crisp-bench")
    text1, text3 = render(os.path.join(ROOT, "docs", "crisp.1")), render(os.path.join(ROOT, "docs", "crisp.3"))
    print("    both pages render without warnings")

    # crisp(1): the subcommands crisp --help lists, every long option their
    # --help (and crisp-bench's) names, the environment, the exit statuses.
    commands, listing = [], False
    for line in output([crisp, "--help"]).splitlines():
        if line.startswith("Commands:"):
            listing = True
        elif listing and re.match("  [a-z]", line):
            commands.append(line.split()[0])
        elif not line:
            listing = False
    helps = "".join(output([crisp, command, "--help"]) for command in commands) + output([bench, "--help"])
    options = sorted(set(re.findall(r"--[a-z][a-z0-9-]*", helps)))
    switches = sorted(set(re.findall(r'"(Use[A-Za-z0-9]+)"', open(os.path.join(ROOT, "src", "kernel_list.h")).read())))
    expect_in_page("crisp.1", text1, "subcommands", commands)
    expect_in_page("crisp.1", text1, "options", options + ["--version", "--help"])
    expect_in_page("crisp.1", text1, "environment variables and switches", ["CRYPTO_FORCE", "CRYPTO_OPTIONS"] + switches)
    expect_in_page("crisp.1", text1, "sections", ["EXIT STATUS", "ENVIRONMENT"])

    # crisp(3): every exported function, the build options that change what
    # the library contains, and every public header by its include name.
    baseline = open(os.path.join(ROOT, "scripts", "abi", "baseline.txt")).read()
    expect_in_page("crisp.3", text3, "exported functions", re.findall(r"^symbol ([a-z0-9_]*)@", baseline, re.M))
    expect_in_page("crisp.3", text3, "build options", ["-Davx512=false", "-Davx512ifma=false", "-Dasm=false"])
    headers = sorted("crisp/" + os.path.basename(path) for path in glob.glob(os.path.join(ROOT, "include", "crisp", "*.h")))
    expect_in_page("crisp.3", text3, "headers", headers + ["crisp/version.h"])
    expect_context_layouts(build, text3)
    expect_descriptions(crisp, text1, text3)

    # Installed where man finds them.
    with tempfile.TemporaryDirectory(prefix="crisp-man.") as dest:
        subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--destdir", dest],
                       stdout=subprocess.DEVNULL, check=True)
        for section in "13":
            if not glob.glob(f"{dest}/**/man/man{section}/crisp.{section}*", recursive=True):
                raise Failure(f"crisp.{section} is not installed")
    print("    installed: man1/crisp.1, man3/crisp.3")


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        sys.exit(str(failure))
