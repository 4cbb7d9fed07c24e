#!/usr/bin/env python3
"""The install checks (stages install, consumer, relocated of scripts/test.sh).

  install    meson install into a temporary tree; every header installed and
             compiling alone (C and C++); test/install/client.c built with
             pkg-config only, shared and static; the installed commands start
             on the installed library without LD_LIBRARY_PATH
  consumer   test/consumer built against the install with plain cc and
             pkg-config, with meson and crisp.pc, with CMake, and as a meson
             subproject through a wrap, shared and static, printing what
             OpenSSL, libsodium and GMP print; one version everywhere
  relocated  the installed tree copied to another prefix and the original
             removed: pkg-config and CMake still build the consumer, and the
             commands start without LD_LIBRARY_PATH

Usage: check_install.py CHECK BUILD_DIR (a configured and built native build).
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONSUMER = os.path.join(ROOT, "test", "consumer")
STRICT = ["-std=c11", "-Wall", "-Wextra", "-Werror"]


class Failure(Exception):
    pass


def run(command, env=None, check=True):
    """Runs command (a list); returns its stdout. env adds to the environment
    (a None value removes the variable)."""
    environment = dict(os.environ)
    for key, value in (env or {}).items():
        environment.pop(key, None) if value is None else environment.__setitem__(key, value)
    result = subprocess.run(command, env=environment, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise Failure(f"{' '.join(command)}: exit {result.returncode}\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result.stdout


def flags(*arguments, env=None):
    return run(["pkg-config", *arguments], env=env).split()


def indent(text, prefix="      "):
    for line in text.splitlines():
        print(prefix + line)


class Build:
    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        options = json.loads(run(["meson", "introspect", self.dir, "--buildoptions"]))
        self.prefix = next(option["value"] for option in options if option["name"] == "prefix")
        self.version = json.loads(run(["meson", "introspect", self.dir, "--projectinfo"]))["version"]

    def install(self, dest):
        """meson install into dest; returns (prefix inside it, libdir)."""
        run(["meson", "install", "-C", self.dir, "--no-rebuild", "--destdir", dest])
        installed = dest + self.prefix
        pcs = glob.glob(f"{installed}/**/crisp.pc", recursive=True)
        if not pcs:
            raise Failure("crisp.pc not installed")
        return installed, os.path.dirname(os.path.dirname(pcs[0]))


def needed(binary):
    return re.findall(r"\(NEEDED\).*\[(.*)\]", run(["readelf", "-d", binary]))


def loaded_libcrisp(binary, libdir=None):
    """The file libcrisp.so.0 resolves to (LD_LIBRARY_PATH=libdir, or unset)."""
    match = re.search(r"libcrisp\.so\.0 => (/\S+) ", run(["ldd", binary], env={"LD_LIBRARY_PATH": libdir}))
    return os.path.realpath(match.group(1)) if match else None


def expect_starts_alone(program, libdir):
    """The installed program loads libdir's libcrisp.so.0 without LD_LIBRARY_PATH."""
    loaded = loaded_libcrisp(program)
    if loaded != os.path.realpath(os.path.join(libdir, "libcrisp.so.0")):
        rpath = [line for line in run(["readelf", "-d", program]).splitlines() if "PATH" in line]
        raise Failure(f"{program} does not load {libdir}/libcrisp.so.0 without LD_LIBRARY_PATH "
                      f"(loads '{loaded or 'nothing'}'; {rpath})")


def check_install(build):
    with tempfile.TemporaryDirectory(prefix="crisp-install.") as dest:
        installed, libdir = build.install(dest)
        print(f"    installed under {installed}:")
        for path in sorted(glob.glob(f"{installed}/**", recursive=True)):
            if os.path.isfile(path) or os.path.islink(path):
                print("      " + os.path.relpath(path, installed))
        # crisp.pc finds its libdir and includedir from its own folder.
        pc = {"PKG_CONFIG_PATH": os.path.join(libdir, "pkgconfig")}
        cflags, libs = flags("--cflags", "crisp", env=pc), flags("--cflags", "--libs", "crisp", env=pc)
        print(f"    pkg-config --cflags --libs crisp: {' '.join(libs)}")
        static_libs = flags("--static", "--cflags", "--libs", "crisp", env=pc)
        print(f"    pkg-config --static --libs crisp: {' '.join(flags('--static', '--libs', 'crisp', env=pc))}")

        # Every header of the source tree is installed, and the generated version.h.
        headers = [os.path.basename(path) for path in glob.glob(f"{ROOT}/include/crisp/*.h")] + ["version.h"]
        missing = [name for name in headers if not os.path.isfile(f"{installed}/include/crisp/{name}")]
        if missing:
            raise Failure(f"headers not installed: {' '.join(missing)}")
        # Every public header compiles on its own, as C and as C++.
        source = os.path.join(dest, "header.c")
        for header in sorted(glob.glob(f"{installed}/include/crisp/*.h")):
            open(source, "w").write(f"#include <crisp/{os.path.basename(header)}>\n")
            run(["cc", *STRICT, "-fsyntax-only", *cflags, source])
            if shutil.which("clang++"):
                run(["clang++", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c++", *cflags, source])
        # crisp/chacha20poly1305.h includes crisp/chacha20.h: ChaCha20 and
        # HChaCha20 from the AEAD header alone.
        open(source, "w").write(
            "#include <crisp/chacha20poly1305.h>\nint main(void) {\n"
            "  static const uint8_t key[CRISP_CHACHA20_KEY_SIZE], nonce[CRISP_CHACHA20_NONCE_SIZE], input[16];\n"
            "  uint8_t block[CRISP_CHACHA20_BLOCK_SIZE] = {0}, subkey[32];\n"
            "  return crisp_chacha20(block, block, sizeof block, key, nonce, 1) | crisp_hchacha20(subkey, key, input);\n}\n")
        run(["cc", *STRICT, "-fsyntax-only", *cflags, source])
        print("    every header installed and compiling alone (C and C++); ChaCha20 also through chacha20poly1305.h")

        client, peers = os.path.join(ROOT, "test", "install", "client.c"), flags("--cflags", "--libs", "libcrypto", "libsodium")
        print("    client, shared library:")
        run(["cc", *STRICT, "-o", f"{dest}/client", client, *libs, *peers, "-lgmp"])
        if f"libcrisp.so.0 => {libdir}/" not in run(["ldd", f"{dest}/client"], env={"LD_LIBRARY_PATH": libdir}):
            raise Failure("client does not load the installed libcrisp.so.0")
        indent(run([f"{dest}/client"], env={"LD_LIBRARY_PATH": libdir}))
        print("    client, static (pkg-config --static):")
        static = subprocess.run(["cc", *STRICT, "-static", "-o", f"{dest}/client-static", client, *static_libs,
                                 *flags("--static", "--libs", "libcrypto", "libsodium"), "-lgmp"],
                                capture_output=True, text=True)
        if static.returncode != 0:
            raise Failure(static.stderr)
        # glibc warns about getaddrinfo & co in a static libcrypto; not ours.
        for line in static.stderr.splitlines():
            if "statically linked applications requires at runtime" not in line and "in function" not in line:
                print(line)
        indent(run([f"{dest}/client-static"]))

        # The installed commands run from the installed library without
        # LD_LIBRARY_PATH (RUNPATH from bin to the libdir), and crisp bench
        # finds the installed crisp-bench beside it.
        if not os.access(f"{installed}/bin/crisp-bench", os.X_OK):
            raise Failure("crisp-bench not installed beside crisp")
        for program in ["crisp", "crisp-bench"]:
            expect_starts_alone(f"{installed}/bin/{program}", libdir)
        indent(run([f"{installed}/bin/crisp", "info"], env={"LD_LIBRARY_PATH": None}))
        indent(run([f"{installed}/bin/crisp", "bench", "--check"], env={"LD_LIBRARY_PATH": None, "PATH": "/usr/bin:/bin"}))
        # The crisp command needs no peer library; only crisp-bench links them.
        libraries = needed(f"{installed}/bin/crisp")
        print(f"      crisp needs: {' '.join(libraries)}")
        if any(re.match(r"lib(crypto|ssl|sodium|gmp)\.", name) for name in libraries):
            raise Failure("the installed crisp command links a peer library")


class Consumers:
    """test/consumer built several ways, each compared with the reference
    program's output (OpenSSL, libsodium, GMP) and the version line."""

    def __init__(self, build, work):
        self.build, self.work = build, work
        reference = os.path.join(work, "reference")
        run(["cc", *STRICT, f"-I{CONSUMER}", "-o", reference, f"{CONSUMER}/reference.c",
             *flags("--cflags", "--libs", "libcrypto", "libsodium"), "-lgmp"])
        self.expected = run([reference]) + f"version {build.version}\n"

    def check(self, label, binary, kind, libdir):
        """kind: shared (loads libcrisp.so.0 from libdir) or static (needs no libcrisp)."""
        libraries = needed(binary)
        if kind == "shared":
            if "libcrisp.so.0" not in libraries:
                raise Failure(f"{label}: does not link libcrisp.so.0 (needs: {' '.join(libraries)})")
            loaded = loaded_libcrisp(binary, libdir)
            if not loaded or os.path.dirname(loaded) != os.path.realpath(libdir):
                raise Failure(f"{label}: loads libcrisp.so.0 from '{loaded}', not from {libdir}")
        elif any(name.startswith("libcrisp") for name in libraries):
            raise Failure(f"{label}: linked statically, yet needs libcrisp")
        result = subprocess.run([binary], env={**os.environ, "LD_LIBRARY_PATH": libdir}, capture_output=True, text=True)
        if result.returncode != 0:
            raise Failure(f"{label}: exit status {result.returncode}")
        if result.stdout != self.expected:
            raise Failure(f"{label}: output differs from OpenSSL / libsodium / GMP:\n{result.stdout}")
        print(f"    {label:36} {kind:7} ok")

    def build_from(self, prefix, libdir, work, use_meson, where):
        """plain cc and pkg-config, meson and crisp.pc (use_meson), CMake."""
        os.makedirs(work, exist_ok=True)
        pc = {"PKG_CONFIG_PATH": os.path.join(libdir, "pkgconfig")}
        source = [f"-I{CONSUMER}", f"{CONSUMER}/consumer.c"]
        run(["cc", *STRICT, "-o", f"{work}/cc-shared", *source, *flags("--cflags", "--libs", "crisp", env=pc)])
        self.check(f"cc $(pkg-config crisp) {where}", f"{work}/cc-shared", "shared", libdir)
        run(["cc", "-static", *STRICT, "-o", f"{work}/cc-static", *source,
             *flags("--static", "--cflags", "--libs", "crisp", env=pc)])
        self.check(f"cc -static $(pkg-config crisp) {where}", f"{work}/cc-static", "static", libdir)
        if use_meson:
            run(["meson", "setup", f"{work}/meson", CONSUMER], env=pc)
            run(["meson", "compile", "-C", f"{work}/meson"], env=pc)
            self.check(f"meson, crisp.pc {where}", f"{work}/meson/consumer", "shared", libdir)
            self.check(f"meson, crisp.pc {where}", f"{work}/meson/consumer-static", "static", libdir)
        for linkage in ["shared", "static"]:
            static_flag = "ON" if linkage == "static" else "OFF"
            run(["cmake", "-S", CONSUMER, "-B", f"{work}/cmake-{linkage}", f"-DCMAKE_PREFIX_PATH={prefix}",
                 f"-DCRISP_USE_STATIC_LIBS={static_flag}"])
            run(["cmake", "--build", f"{work}/cmake-{linkage}"])
            self.check(f"cmake find_package {where}", f"{work}/cmake-{linkage}/consumer", linkage, libdir)

    def build_subproject(self):
        """test/consumer with crisp in subprojects/ through a wrap file, as
        docs/usage.md shows it: the tarball of the working tree sits in
        subprojects/packagecache, so meson never downloads.
        -Dcrisp:avx512=false shows crisp's options reach it; no crisp tool or
        test is built."""
        project, version = os.path.join(self.work, "subproject"), self.build.version
        os.makedirs(f"{project}/subprojects/packagecache")
        for path in glob.glob(f"{CONSUMER}/*"):
            shutil.copy(path, project)
        tarball = f"{project}/subprojects/packagecache/crisp-{version}.tar.gz"
        # The working tree as it is (tracked and new files), without build output.
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                               cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "--null", "-T", "-", "--transform", f"s|^|crisp-{version}/|", "-czf", tarball],
                       cwd=ROOT, input=files, check=True)
        digest = hashlib.sha256(open(tarball, "rb").read()).hexdigest()
        open(f"{project}/subprojects/crisp.wrap", "w").write(
            f"[wrap-file]\ndirectory = crisp-{version}\nsource_url = https://example.invalid/crisp-{version}.tar.gz\n"
            f"source_filename = crisp-{version}.tar.gz\nsource_hash = {digest}\n\n[provide]\ndependency_names = crisp\n")
        run(["meson", "setup", f"{project}/build", project, "--force-fallback-for=crisp", "-Dcrisp:avx512=false"])
        run(["meson", "compile", "-C", f"{project}/build"])
        targets = json.loads(run(["meson", "introspect", f"{project}/build", "--targets"]))
        built = [target["name"] for target in targets
                 if target["subproject"] == "crisp" and target["type"] not in ("static library", "shared library")]
        tests = json.loads(run(["meson", "introspect", f"{project}/build", "--tests"]))
        if built or tests:
            raise Failure(f"the subproject build compiles crisp's tools or tests: {built} {tests}")
        if "%zmm" in run(["objdump", "-d", "--no-show-raw-insn", f"{project}/build/consumer-static"]):
            raise Failure("-Dcrisp:avx512=false did not reach the subproject: AVX-512 code linked in")
        libdir = os.path.dirname(glob.glob(f"{project}/build/subprojects/**/libcrisp.so.0", recursive=True)[0])
        self.check("meson subproject (wrap)", f"{project}/build/consumer", "shared", libdir)
        self.check("meson subproject (wrap)", f"{project}/build/consumer-static", "static", libdir)
        print("    subproject: no crisp tool or test built, -Dcrisp:avx512=false applied")


def expect_same(what, expected, actual):
    if expected != actual:
        raise Failure(f"{what} printed '{actual}', expected '{expected}'")


def check_consumer(build, work):
    consumers = Consumers(build, work)
    installed, libdir = build.install(f"{work}/dest")
    consumers.build_from(installed, libdir, f"{work}/installed", True, "")
    # The version: one number, the same in the header, the library, the
    # commands and every package file.
    version, library = build.version, {"LD_LIBRARY_PATH": libdir}
    expect_same("crisp --version", f"crisp {version}", run([f"{installed}/bin/crisp", "--version"], env=library).strip())
    expect_same("crisp-bench --version", f"crisp-bench {version}",
                run([f"{installed}/bin/crisp-bench", "--version"], env=library).strip())
    expect_same("pkg-config --modversion crisp", version,
                " ".join(flags("--modversion", "crisp", env={"PKG_CONFIG_PATH": f"{libdir}/pkgconfig"})))
    print(f"    crisp --version, crisp-bench --version, pkg-config --modversion: {version}")
    # The CMake version file (crisp's own template) refuses a newer minor
    # version, and before 1.0 an older one too; the consumer asks for its own.
    major, minor = version.split(".")[:2]
    refused = [f"{major}.{int(minor) + 1}"] + ([f"{major}.{int(minor) - 1}"] if major == "0" and int(minor) > 0 else [])
    for request in refused:
        project = f"{work}/version-{request}"
        os.makedirs(project)
        open(f"{project}/CMakeLists.txt", "w").write(
            f"cmake_minimum_required(VERSION 3.16)\nproject(version_check C)\nfind_package(crisp {request} CONFIG REQUIRED)\n")
        if subprocess.run(["cmake", "-S", project, "-B", f"{project}/build", f"-DCMAKE_PREFIX_PATH={installed}"],
                          capture_output=True).returncode == 0:
            raise Failure(f"find_package(crisp {request}) accepted crisp {version}")
    print(f"    find_package(crisp) refuses {' and '.join(refused)}")
    consumers.build_subproject()


def check_relocated(build, work):
    consumers = Consumers(build, work)
    installed, installed_libdir = build.install(f"{work}/dest")
    # Copy the installed prefix elsewhere and remove the original, so nothing
    # can still reach it.
    moved = f"{work}/elsewhere/opt/crisp"
    shutil.copytree(installed, moved, symlinks=True)
    libdir = moved + installed_libdir[len(installed):]
    shutil.rmtree(f"{work}/dest")
    print(f"    installed tree moved to {os.path.relpath(moved, work)}")
    # pkg-config resolves into the new place, with and without
    # --define-prefix (which guesses the prefix from a multiarch libdir
    # wrongly, see crisp.pc).
    pc = {"PKG_CONFIG_PATH": f"{libdir}/pkgconfig"}
    include_dir = " ".join(flags("--cflags-only-I", "crisp", env=pc))[2:]
    if os.path.realpath(include_dir) != os.path.realpath(f"{moved}/include"):
        raise Failure(f"pkg-config --cflags points at {include_dir}, not {moved}/include")
    plain = " ".join(flags("--cflags", "--libs", "crisp", env=pc))
    defined = " ".join(flags("--define-prefix", "--cflags", "--libs", "crisp", env=pc))
    expect_same("pkg-config --define-prefix", plain, defined)
    print(f"    pkg-config (also --define-prefix): {plain}")
    # The moved commands start without LD_LIBRARY_PATH, on the moved library.
    for program in ["crisp", "crisp-bench"]:
        expect_starts_alone(f"{moved}/bin/{program}", libdir)
        run([f"{moved}/bin/{program}", "--version"], env={"LD_LIBRARY_PATH": None})
    print("    bin/crisp and bin/crisp-bench start on the moved library without LD_LIBRARY_PATH")
    consumers.build_from(moved, libdir, work, False, "(moved)")


def main():
    check, build = sys.argv[1], Build(sys.argv[2])
    if check == "install":
        check_install(build)
        return
    with tempfile.TemporaryDirectory(prefix=f"crisp-{check}.") as work:
        {"consumer": check_consumer, "relocated": check_relocated}[check](build, work)


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        sys.exit(str(failure))
