#!/usr/bin/env python3
"""What crisp info and the API say on emulated CPUs (stage dispatch-emulated).

test_dispatch_table --current, run under qemu-x86_64 -cpu MODEL, probes the
model's features itself and computes what crisp must select from the
documented rules and src/implementations.def, not through crisp; this
runs it on three models, with and without CRYPTO_FORCE, and checks that
each model has the features crisp knows it has (so that the stage runs the
CPUs it means to).

Usage: check_dispatch_emulated.py BUILD_DIR (a built native build).
"""

import os
import subprocess
import sys

MODEL_FEATURES = {
    "qemu64": "sse2",
    "Haswell": "sse2 bmi1 bmi2 avx avx2",
    "Broadwell": "sse2 bmi1 bmi2 adx avx avx2",
}
# (model, CRYPTO_FORCE level or None)
RUNS = [("qemu64", None), ("Haswell", None), ("Broadwell", None), ("qemu64", "avx2"), ("Haswell", "avx512"),
        ("Haswell", "x86_64"), ("Broadwell", "avx512ifma"), ("Broadwell", "generic")]


def expect(build, model, force):
    print(f"  -cpu {model}" + (f", CRYPTO_FORCE={force}:" if force else ":"))
    wrapper = ["qemu-x86_64", "-cpu", model]
    env = {**os.environ, "CRISP_TEST_WRAPPER": " ".join(wrapper)}
    if force:
        env["CRYPTO_FORCE"] = force
    result = subprocess.run(wrapper + [os.path.join(build, "test", "test_dispatch_table"),
                                       os.path.join(build, "tools", "crisp"), "--current"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = result.stdout.splitlines()
    for line in lines:
        if not line.startswith("qemu-x86_64:"):
            print(f"    {line}")
    if not any(line.startswith(f"# this CPU, probed by the test: {MODEL_FEATURES[model]} (") for line in lines):
        sys.exit(f"expected the model's features '{MODEL_FEATURES[model]}'")
    if result.returncode != 0:
        sys.exit(result.returncode)


def main():
    sys.stdout.reconfigure(line_buffering=True)
    for model, force in RUNS:
        expect(sys.argv[1], model, force)


if __name__ == "__main__":
    main()
