#!/usr/bin/env python3
"""bench/provider_tls_speed.py - TLS bulk throughput over loopback with the
crisp provider loaded and preferred on both sides, against the default
provider alone: openssl s_server -WWW serves a file, openssl s_client
fetches it to /dev/null, both with the same OPENSSL_CONF (one loading crisp
with default_properties = ?provider=crisp, or an empty one); TLS 1.3
TLS_CHACHA20_POLY1305_SHA256 and TLS 1.2 ECDHE-RSA-CHACHA20-POLY1305,
interleaved, best of the rounds.

Usage: provider_tls_speed.py PROVIDER_DIR [MIB [ROUNDS]]
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

CONFIG = """openssl_conf = openssl_init
[openssl_init]
providers = provider_section
alg_section = algorithm_section
[provider_section]
default = default_section
crisp = crisp_section
[default_section]
activate = 1
[crisp_section]
module = {module}
activate = 1
[algorithm_section]
default_properties = ?provider=crisp
"""
VERSIONS = {"TLS 1.3": ["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"],
            "TLS 1.2": ["-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305"]}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def transfer(directory, config, version_args, size):
    """Seconds for one fetch of data.bin, server and client with `config`."""
    env = dict(os.environ, OPENSSL_CONF=config)
    port = free_port()
    server = subprocess.Popen(
        ["openssl", "s_server", "-accept", f"127.0.0.1:{port}", "-cert", "cert.pem", "-key", "key.pem", "-WWW",
         "-cipher", "ECDHE-RSA-CHACHA20-POLY1305", "-ciphersuites",
         "TLS_CHACHA20_POLY1305_SHA256"], cwd=directory, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("s_server did not start")
                time.sleep(0.01)
        start = time.monotonic()
        got = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-quiet", "-ign_eof"]
                             + version_args, cwd=directory, env=env, input=b"GET /data.bin HTTP/1.0\r\n\r\n",
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
        elapsed = time.monotonic() - start
        if len(got.stdout) < size:
            sys.exit(f"short transfer: {len(got.stdout)} bytes")
        return elapsed
    finally:
        server.kill()
        server.wait()


def main():
    provider_dir = os.path.abspath(sys.argv[1])
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    size = mib << 20
    with tempfile.TemporaryDirectory(prefix="crisp-tls-speed-") as directory:
        configs = {"default": os.path.join(directory, "empty.cnf"), "crisp": os.path.join(directory, "crisp.cnf")}
        open(configs["default"], "w").close()
        with open(configs["crisp"], "w") as out:
            out.write(CONFIG.format(module=os.path.join(provider_dir, "crisp.so")))
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out",
                        "cert.pem", "-days", "1", "-subj", "/CN=localhost"], cwd=directory, check=True,
                       capture_output=True)
        with open(os.path.join(directory, "data.bin"), "wb") as out:
            chunk = os.urandom(1 << 20)
            for _ in range(mib):
                out.write(chunk)
        print(f"{mib} MiB over loopback, best of {rounds} interleaved")
        print(f"{'version':8} {'default MB/s':>12} {'crisp MB/s':>11} {'ratio':>6}")
        for version, args in VERSIONS.items():
            best = {"default": float("inf"), "crisp": float("inf")}
            for _ in range(rounds):
                for name, config in configs.items():
                    best[name] = min(best[name], transfer(directory, config, args, size))
            plain, crisp = size / best["default"] / 1e6, size / best["crisp"] / 1e6
            print(f"{version:8} {plain:12.0f} {crisp:11.0f} {crisp / plain:5.2f}x", flush=True)


if __name__ == "__main__":
    main()
