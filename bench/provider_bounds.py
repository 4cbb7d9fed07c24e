#!/usr/bin/env python3
"""How fast the crisp provider could be at most, by planted experiments.

  python3 bench/provider_bounds.py [--seconds S] [--rounds N] [--mib M]
  python3 bench/provider_bounds.py --check     every experiment still applies

Through EVP a provider pays libcrypto's own costs (parameter lookups,
dispatch, the record layer and the socket in TLS), and the ratio against
the default provider can never pass what those costs leave. Each
experiment builds the provider with one piece of work taken out, so the
measurement shows that ceiling rather than arguing it:

  null-mac     the Poly1305 MAC's final writes zeros instead of calling
               crisp: EVP_MAC init, update and final with no MAC at all.
  chacha-only  the AEAD's streaming update runs crisp_chacha20 alone: a
               ChaCha20-Poly1305 whose Poly1305 costs nothing.
  null-aead    the AEAD copies and writes a zero tag (both ends of a TLS
               connection in one process use it, so they agree): TLS with
               free record encryption.

Measured in turn with the unchanged provider and the default provider
alone, from one scratch copy of the tree built as a release: bench's
provider_speed (Poly1305 MAC per 64-byte message), `openssl speed -evp
chacha20-poly1305 -bytes 1024` (one long message in 1 KiB updates) and
provider_tls_bulk (TLS 1.3 and 1.2 bulk transfer, CPU time). The modules
are built for this run only and never installed. Takes a few minutes.

--check plants nothing: it fails, naming the experiment, when a source
change has moved the text an experiment replaces (as mutate.py --check
does for the mutants), so the experiments stay runnable.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> list of (file, text, replacement); each text occurs exactly once.
EXPERIMENTS = {
    "null-mac": [
        ("provider/poly1305.c",
         """  if (context->streaming)
    crisp_poly1305_final(&context->state, out); /* also wipes the state */
  else
    crisp_poly1305(out, context->held, context->held_length, context->key);""",
         "  memset(out, 0, CRISP_POLY1305_TAG_SIZE);"),
    ],
    "chacha-only": [
        ("provider/chacha20poly1305.c", "#include <crisp/chacha20poly1305.h>",
         "#include <crisp/chacha20.h>\n#include <crisp/chacha20poly1305.h>"),
        ("provider/chacha20poly1305.c",
         "crisp_chacha20_poly1305_stream_update(&context->stream, out, in, in_length);",
         "crisp_chacha20(out, in, in_length, context->key, context->nonce, 1);"),
    ],
    "null-aead": [
        ("provider/chacha20poly1305.c",
         """  const int status = context->encrypting
                         ? crisp_chacha20_poly1305_seal(out, out + payload, in, payload, context->tls_aad,
                                                        TLS_AAD_SIZE, nonce, context->key)
                         : crisp_chacha20_poly1305_open(out, in, payload, in + payload, context->tls_aad,
                                                        TLS_AAD_SIZE, nonce, context->key);""",
         """  memmove(out, in, payload);
  if (context->encrypting) memset(out + payload, 0, TAG_SIZE);
  const int status = CRISP_OK;"""),
        ("provider/chacha20poly1305.c",
         "    const int status = crisp_chacha20_poly1305_stream_update(&context->stream, out, in, in_length);",
         "    memmove(out, in, in_length);\n    const int status = CRISP_OK;"),
        ("provider/chacha20poly1305.c",
         """  const int status = context->encrypting
                         ? crisp_chacha20_poly1305_stream_seal_final(&context->stream, context->tag)
                         : crisp_chacha20_poly1305_stream_open_final(&context->stream, context->tag);""",
         """  memset(context->tag, 0, TAG_SIZE);
  const int status = CRISP_OK;"""),
        ("provider/chacha20poly1305.c", "static int start_message(aead_context *context) {",
         "static __attribute__((unused)) int start_message(aead_context *context) {"),
        ("provider/chacha20poly1305.c", "  if (in_length) {\n    if (!start_message(context)) return 0;",
         "  if (in_length) {"),
        ("provider/chacha20poly1305.c", "  if (!start_message(context)) return 0;\n  context->finished = 1;",
         "  context->finished = 1;"),
    ],
}


def planted(tree, name):
    """The files of experiment `name` as they read with it planted."""
    texts = {}
    for path, old, new in EXPERIMENTS[name]:
        text = texts.get(path) or open(os.path.join(tree, path)).read()
        count = text.count(old)
        if count != 1:
            raise LookupError(f"{name}: {path}: the text to replace occurs {count} times, not once: "
                              f"{old.splitlines()[0].strip()!r}")
        texts[path] = text.replace(old, new)
    return texts


def check():
    failures = 0
    for name in EXPERIMENTS:
        try:
            planted(ROOT, name)
            print(f"ok   {name}")
        except LookupError as error:
            print(f"FAIL {error}")
            failures += 1
    print(f"provider_bounds --check: {len(EXPERIMENTS) - failures} of {len(EXPERIMENTS)} experiments apply")
    return 1 if failures else 0


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, stdout=subprocess.PIPE, **kwargs).stdout


def build_modules(scratch):
    """The unchanged module and each experiment's, from one release build."""
    tree = os.path.join(scratch, "tree")
    files = run(["git", "-C", ROOT, "ls-files", "-z"]).split("\0")
    for path in filter(None, files):
        if os.path.isfile(os.path.join(ROOT, path)):
            os.makedirs(os.path.dirname(os.path.join(tree, path)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, path), os.path.join(tree, path))
    build = os.path.join(scratch, "build")
    run(["meson", "setup", build, tree, "-Dbuildtype=release", "-Dprovider=enabled"])
    targets = ["provider/crisp.so", "bench/provider_speed", "bench/provider_tls_bulk"]
    modules = {}
    for name in ["crisp"] + list(EXPERIMENTS):
        originals = {}
        if name != "crisp":
            for path, text in planted(tree, name).items():
                originals[path] = open(os.path.join(tree, path)).read()
                open(os.path.join(tree, path), "w").write(text)
        run(["ninja", "-C", build] + targets)
        modules[name] = os.path.join(scratch, "modules", name)
        os.makedirs(modules[name])
        shutil.copy2(os.path.join(build, "provider", "crisp.so"), modules[name])
        for path, text in originals.items():
            open(os.path.join(tree, path), "w").write(text)
    return build, modules


def poly1305_64(build, module, seconds):
    """(default MB/s, module MB/s) for the 64-byte Poly1305 MAC."""
    out = run([os.path.join(build, "bench", "provider_speed"), module, str(seconds), "1", "poly1305"])
    for line in out.splitlines():
        fields = line.split()
        if fields[:3] == ["poly1305", "MAC", "64"]:
            return float(fields[3]), float(fields[4])
    raise RuntimeError("provider_speed printed no 64-byte Poly1305 row:\n" + out)


def aead_stream_1k(module, seconds):
    """Bytes per second of `openssl speed` for 1 KiB updates (module None: default alone)."""
    command = ["openssl", "speed", "-seconds", str(max(1, round(seconds))), "-mr", "-bytes", "1024"]
    if module:
        command += ["-provider-path", module, "-provider", "crisp", "-provider", "default",
                    "-propquery", "?provider=crisp"]
    out = run(command + ["-evp", "chacha20-poly1305"], stderr=subprocess.DEVNULL)
    match = re.search(r"^\+F:\d+:[^:]*:([0-9.]+)", out, re.M)
    if not match:
        raise RuntimeError("openssl speed printed no result:\n" + out)
    return float(match.group(1))


def tls_bulk(build, module, scratch, mib, rounds):
    """{version: (default MB per CPU second, module's)}."""
    cert, key = os.path.join(scratch, "cert.pem"), os.path.join(scratch, "key.pem")
    if not os.path.exists(cert):
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
             "-days", "1", "-subj", "/CN=localhost"], stderr=subprocess.DEVNULL)
    out = run([os.path.join(build, "bench", "provider_tls_bulk"), module, cert, key, str(mib), str(rounds)])
    rates = {}
    for line in out.splitlines():
        fields = line.split()
        if fields[:1] == ["TLS"] and len(fields) == 8:  # ... default MB/cpu-s, crisp MB/cpu-s, ratio
            rates["TLS " + fields[1]] = (float(fields[5]), float(fields[6]))
    if not rates:
        raise RuntimeError("provider_tls_bulk printed no rows:\n" + out)
    return rates


def measure(arguments):
    with tempfile.TemporaryDirectory(prefix="crisp-bounds-") as scratch:
        print("building the provider and its experiments (release) ...", flush=True)
        build, modules = build_modules(scratch)
        best = {}

        def keep(key, value):
            best[key] = max(best.get(key, 0.0), value)

        for round_index in range(arguments.rounds):
            print(f"round {round_index + 1} of {arguments.rounds} ...", flush=True)
            for name in ("crisp", "null-mac"):
                default, module = poly1305_64(build, modules[name], arguments.seconds)
                keep(("mac", "default"), default)
                keep(("mac", name), module)
            for name in (None, "crisp", "chacha-only"):
                keep(("aead", name or "default"),
                     aead_stream_1k(modules[name] if name else None, arguments.seconds))
            for name in ("crisp", "null-aead"):
                for version, (default, module) in tls_bulk(build, modules[name], scratch, arguments.mib,
                                                           1).items():
                    keep((version, "default"), default)
                    keep((version, name), module)

    def ratio(work, name):
        return best[(work, name)] / best[(work, "default")]

    facts = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            facts.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    cpu = f"{facts.get('model name', 'unknown CPU')} (family {facts.get('cpu family', '?')})"
    print(f"\nbest of {arguments.rounds} rounds, interleaved; {cpu}; "
          f"{run(['openssl', 'version']).strip()}; ratios over the default provider alone")
    print(f"{'work':38} {'crisp':>7} {'ceiling':>8}  experiment")
    print(f"{'Poly1305 MAC, 64 B per message':38} {ratio('mac', 'crisp'):6.2f}x "
          f"{ratio('mac', 'null-mac'):7.2f}x  null-mac (no MAC at all)")
    print(f"{'ChaCha20-Poly1305, 1 KiB updates':38} {ratio('aead', 'crisp'):6.2f}x "
          f"{ratio('aead', 'chacha-only'):7.2f}x  chacha-only (Poly1305 free)")
    for version in sorted(key[0] for key in best if key[0].startswith("TLS") and key[1] == "default"):
        print(f"{version + ' bulk, per CPU second':38} {ratio(version, 'crisp'):6.2f}x "
              f"{ratio(version, 'null-aead'):7.2f}x  null-aead (records not encrypted)")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that every experiment applies")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement (whole seconds for openssl speed)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best counts")
    parser.add_argument("--mib", type=int, default=128, help="MiB per TLS transfer")
    arguments = parser.parse_args()
    if arguments.check:
        return check()
    return measure(arguments)


if __name__ == "__main__":
    sys.exit(main())
