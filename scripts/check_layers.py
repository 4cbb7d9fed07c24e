#!/usr/bin/env python3
"""scripts/check_layers.py - checks that src/'s layers only point down.

    python3 scripts/check_layers.py [ROOT]     (ROOT: the tree, default this one)

Reads who includes and who calls whom over src/ and fails (exit status 1,
one line per finding) on:
  - a file including a header of a layer above its own (a kernel including
    a front-end or dispatch header, a shared header including any layer's);
  - a file calling a function defined in a layer above its own (a kernel
    calling a front-end or the dispatcher);
  - a circle of includes;
  - a circle of calls between files (file A calls a function of file B and
    B one of A, directly or through others).

The layers, top first (a file may use its own layer and those below):
  front-end  the .c files of src/ and src/*_internal.h (the public entries,
             their checks and fallbacks)
  dispatch   src/dispatch/ (selection, CPU probe, switches)
  kernel     src/generic/, src/x86/, src/arm64/ (the implementations)
  shared     src/arithmetic/ and the other headers of src/ (impl.h, util.h,
             scrub_depths.h, tuning.h, the shared round and lane code),
             src/scrub_stack.c, and include/ (the public headers)

A call is a use of a function's name outside comments, strings and
declarations (a call, or its address in a descriptor). The functions a
file defines: in C, those defined without static (and a header's static
inline ones whose names a macro pastes with ##, matched by prefix); in
assembly, the .globl and FUNCTION names. Macros are not expanded: what a
macro calls is read where the macro is written. No compiler is needed.
"""
import os
import re
import sys

LAYERS = ["shared", "kernel", "dispatch", "front-end"]  # lowest first
KERNEL_DIRS = ("src/generic/", "src/x86/", "src/arm64/")
SHARED_SOURCES = ("src/scrub_stack.c",)


def layer_of(path):
    if path.startswith("include/") or path.startswith("src/arithmetic/"):
        return "shared"
    if path.startswith("src/dispatch/"):
        return "dispatch"
    if path.startswith(KERNEL_DIRS):
        return "kernel"
    if path.startswith("src/") and "/" not in path[4:]:
        if path in SHARED_SOURCES:
            return "shared"
        if path.endswith(".c") or path.endswith("_internal.h"):
            return "front-end"
        return "shared"
    return None


def strip_comments_and_strings(text):
    """Blanks comments and string/char literals, keeping lines in place."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)

    def blank(match):
        return re.sub(r"[^\n]", " ", match.group(0))

    return pattern.sub(blank, text)


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function definition at file scope: a line starting (after storage and
# type words) with a name and "(" whose declaration ends in "{".
DEFINITION = re.compile(
    r"^(?P<head>[A-Za-z_][\w \t\*]*?[\s\*])(?P<name>[A-Za-z_]\w*(?:\s*##\s*\w+)*)\s*\((?P<args>[^;{}]*?)\)\s*"
    r"(?:__attribute__\s*\(\(.*?\)\)\s*)?\{",
    re.M | re.S,
)
ASM_GLOBAL = re.compile(r"^\s*(?:\.globl|\.global|FUNCTION)\s+(\w+)", re.M)
# A declaration at file scope: type words, a name, its parameters, ";".
PROTOTYPE = re.compile(r"^[A-Za-z_][\w \t\*]*?[\s\*][A-Za-z_]\w*\s*\((?:[^;{}()]|\([^;{}()]*\))*\)\s*;", re.M)
WORD = re.compile(r"\b([A-Za-z_]\w*)\b")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case", "defined", "_Pragma",
            "__attribute__", "_Static_assert", "_Alignof", "__asm__", "asm", "__volatile__", "typeof"}


def read_tree(root):
    files = {}
    for top in ("src", "include"):
        for directory, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".c", ".h", ".S", ".inc")):
                    full = os.path.join(directory, name)
                    rel = os.path.relpath(full, root).replace(os.sep, "/")
                    with open(full, encoding="utf-8", errors="replace") as handle:
                        files[rel] = handle.read()
    return files


def resolve(including, target, files):
    """The file an #include "target" in `including` names, or None (a system header)."""
    for candidate in (os.path.dirname(including) + "/" + target, "src/" + target, "include/" + target):
        candidate = os.path.normpath(candidate).replace(os.sep, "/")
        if candidate in files:
            return candidate
    return None


def find_cycle(graph):
    """One circle in graph (node -> set of nodes) as a list, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for succ in sorted(graph.get(node, ())):
            if state.get(succ) == "open":
                return stack[stack.index(succ):] + [succ]
            if succ not in state:
                found = visit(succ)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def all_cycles(graph):
    """Every circle found by removing one edge of each circle found until none is left."""
    graph = {node: set(succs) for node, succs in graph.items()}
    cycles = []
    while True:
        cycle = find_cycle(graph)
        if not cycle:
            return cycles
        cycles.append(cycle)
        graph[cycle[0]].discard(cycle[1])


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    files = read_tree(root)
    code = {path: strip_comments_and_strings(text) for path, text in files.items()}
    findings = []
    rank = {name: i for i, name in enumerate(LAYERS)}

    # Includes, and the layer of everything included.
    includes = {path: set() for path in files}
    for path, text in files.items():
        for target in INCLUDE.findall(text):
            resolved = resolve(path, target, files)
            if resolved:
                includes[path].add(resolved)
    for path in sorted(files):
        mine = layer_of(path)
        if mine is None:
            continue
        for target in sorted(includes[path]):
            theirs = layer_of(target)
            if theirs and rank[theirs] > rank[mine]:
                findings.append(f"{path}: includes {target}: a {mine} file includes a {theirs} header")
    for cycle in all_cycles(includes):
        findings.append("include circle: " + " -> ".join(cycle))

    # Functions each file defines (external ones only, for calls between files).
    defined_by = {}
    prefixes = []  # (prefix, file) for names pasted with ##
    for path, text in code.items():
        if path.endswith(".S") or path.endswith(".inc"):
            for name in ASM_GLOBAL.findall(text):
                defined_by.setdefault(name, set()).add(path)
            continue
        for match in DEFINITION.finditer(text):
            head, name = match.group("head"), match.group("name")
            if re.match(r"\s*typedef\b", head):
                continue
            is_static = re.search(r"\bstatic\b", head) is not None
            if "##" in name:
                prefix = name.split("##")[0].strip()
                if path.endswith(".h") and prefix:
                    prefixes.append((prefix, path))
                continue
            if name in KEYWORDS:
                continue
            if is_static and not path.endswith(".h"):
                continue
            defined_by.setdefault(name, set()).add(path)

    # Inline functions a header's macro generates per name (crisp_active_##name).
    for path, text in code.items():
        if path.endswith(".h"):
            for prefix in re.findall(r"\bstatic\s+inline\b[^;{(]*?\b(\w+)\s*##\s*\w+\s*\(", text):
                prefixes.append((prefix, path))

    calls = {path: set() for path in files}
    for path, text in code.items():
        if path.endswith((".S", ".inc")):
            names = set(re.findall(r"\b(?:call|jmp|bl|b)\s+(\w+)", text))
        else:
            # every use of a function's name, a call or its address (a
            # descriptor's initialiser), declarations left out
            names = set(WORD.findall(PROTOTYPE.sub("", text)))
        own = set()
        for name in names:
            if name in KEYWORDS:
                continue
            targets = set(defined_by.get(name, ()))
            for prefix, header in prefixes:
                if name.startswith(prefix) and len(name) > len(prefix):
                    targets.add(header)
            targets.discard(path)
            if path in defined_by.get(name, ()):  # its own function of that name
                continue
            for target in targets:
                calls[path].add(target)
                own.add((name, target))
        mine = layer_of(path)
        if mine is None:
            continue
        for name, target in sorted(own):
            theirs = layer_of(target)
            if theirs and rank[theirs] > rank[mine]:
                findings.append(f"{path}: calls {name} ({target}): a {mine} file calls into the {theirs} layer")

    # Circles of calls between .c/.S files (a header's inline functions
    # belong to whoever includes it, so headers are left out here).
    sources = {path: {t for t in targets if not t.endswith(".h")} for path, targets in calls.items()
               if not path.endswith(".h")}
    for cycle in all_cycles(sources):
        findings.append("call circle: " + " -> ".join(cycle))

    for line in findings:
        print("check_layers: " + line)
    counted = {layer: sum(1 for p in files if layer_of(p) == layer) for layer in LAYERS}
    summary = ", ".join(f"{counted[layer]} {layer}" for layer in reversed(LAYERS))
    include_edges = sum(len(targets) for targets in includes.values())
    call_edges = sum(len(targets) for targets in sources.values())
    print(f"check_layers: {len(files)} files ({summary}), {include_edges} includes, "
          f"{call_edges} file-to-file uses of functions, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
