#!/usr/bin/env python3
"""test/test_provider_tls.py - the crisp provider under a real TLS server
and real clients over loopback.

openssl s_server (RSA-2048 self-signed certificate, -WWW) serves a 4 MiB
file; openssl s_client, curl (when installed) and tls_client fetch it over
TLS 1.3 with TLS_CHACHA20_POLY1305_SHA256 and TLS 1.2 with
ECDHE-RSA-CHACHA20-POLY1305, and each copy is compared with the file.
Every openssl process and curl read an OPENSSL_CONF that loads crisp beside
the default provider and prefers it; tls_client loads crisp into its own
library context and checks the provider's call counter grew by at least one
per record, which proves crisp opened the records. tls_client is also run
with crisp loaded but not preferred, and without crisp: both must fail, so
the proof can fail. CRISP_TEST_WRAPPER (the emulated setups' qemu command)
runs the programs that load crisp on the emulated CPU.

The server side: tls_server_check runs a libssl server and client in one
process, each with its own crisp instance, over both versions with the same
certificate; the server's counters prove crisp sealed its records and made
the handshake's RSA signature. It too must fail with crisp loaded but not
preferred on the server, and without crisp. And openssl req signs an
RSA-PSS CSR and certificate with crisp preferred, which the default
provider alone verifies.

Usage: test_provider_tls.py PROVIDER_DIR TLS_CLIENT OPENSSL TLS_SERVER_CHECK
"""
import hashlib
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

FILE_SIZE = 4 << 20
TIMEOUT = 30
REQUEST = b"GET /data.bin HTTP/1.0\r\n\r\n"
CASES = {
    "tls1.3": {"suite": "TLS_CHACHA20_POLY1305_SHA256", "s_client": ["-tls1_3", "-ciphersuites"],
               "curl": ["--tlsv1.3", "--tls-max", "1.3", "--tls13-ciphers"]},
    "tls1.2": {"suite": "ECDHE-RSA-CHACHA20-POLY1305", "s_client": ["-tls1_2", "-cipher"],
               "curl": ["--tlsv1.2", "--tls-max", "1.2", "--ciphers"]},
}

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

failures = []
WRAPPER = shlex.split(os.environ.get("CRISP_TEST_WRAPPER", ""))


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(openssl, directory, env):
    """s_server on a free port; a few tries in case another process takes
    the port between the probe and the bind."""
    for _ in range(5):
        port = free_port()
        log = open(os.path.join(directory, "server.log"), "wb")
        server = subprocess.Popen(
            WRAPPER + [openssl, "s_server", "-accept", f"127.0.0.1:{port}", "-cert", "cert.pem", "-key", "key.pem",
             "-WWW", "-cipher", CASES["tls1.2"]["suite"], "-ciphersuites", CASES["tls1.3"]["suite"]],
            cwd=directory, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and server.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return server, port
            except OSError:
                time.sleep(0.02)
        server.kill()
        server.wait()
    sys.exit("FAIL  s_server did not start: " + open(os.path.join(directory, "server.log")).read())


def body_of(response):
    header_end = response.find(b"\r\n\r\n")
    return response[header_end + 4:] if header_end >= 0 else b""


def main():
    provider_dir, tls_client = (os.path.abspath(path) for path in sys.argv[1:3])
    openssl = sys.argv[3]
    tls_server_check = os.path.abspath(sys.argv[4])
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="crisp-tls-") as directory:
        config = os.path.join(directory, "openssl.cnf")
        with open(config, "w") as out:
            out.write(CONFIG.format(module=os.path.join(provider_dir, "crisp.so")))
        env = dict(os.environ, OPENSSL_CONF=config)
        run = lambda args, **kw: subprocess.run(args, cwd=directory, env=env, capture_output=True,
                                                timeout=TIMEOUT, **kw)
        providers = run(WRAPPER + [openssl, "list", "-providers"])
        check(providers.returncode == 0 and b"crisp" in providers.stdout, "OPENSSL_CONF loads crisp")
        made = run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem",
                    "-out", "cert.pem", "-days", "1", "-subj", "/CN=localhost"])
        if made.returncode != 0:
            sys.exit("FAIL  openssl req: " + made.stderr.decode(errors="replace"))
        # X.509 with RSA-PSS: a CSR and a certificate signed with crisp
        # preferred verify with the default provider alone.
        plain_env = {key: value for key, value in os.environ.items() if key != "OPENSSL_CONF"}
        for kind, extra, verify in (
                ("CSR", ["-sha256", "-sigopt", "rsa_pss_saltlen:32", "-out", "pss.csr"],
                 [openssl, "req", "-verify", "-noout", "-in", "pss.csr"]),
                ("certificate", ["-x509", "-days", "1", "-sha384", "-sigopt", "rsa_pss_saltlen:max",
                                 "-out", "pss.pem"],
                 [openssl, "verify", "-check_ss_sig", "-CAfile", "pss.pem", "pss.pem"])):
            signed = run(WRAPPER + [openssl, "req", "-new", "-key", "key.pem", "-subj", "/CN=crisp pss",
                                    "-sigopt", "rsa_padding_mode:pss"] + extra)
            checked = subprocess.run(verify, cwd=directory, env=plain_env, capture_output=True, timeout=TIMEOUT)
            sys.stdout.write("".join(f"      | {line}\n" for line in
                                     (signed.stderr + checked.stdout + checked.stderr).decode().splitlines()[:3]))
            check(signed.returncode == 0 and checked.returncode == 0,
                  f"openssl req: an RSA-PSS {kind} signed with crisp verifies without crisp")
        data = os.urandom(FILE_SIZE)
        with open(os.path.join(directory, "data.bin"), "wb") as out:
            out.write(data)
        digest = hashlib.sha256(data).hexdigest()
        same = lambda body: hashlib.sha256(body).hexdigest() == digest
        curl = shutil.which("curl")
        server, port = start_server(openssl, directory, env)
        try:
            for version, case in CASES.items():
                suite = case["suite"]
                # s_client: -ign_eof keeps it reading after the request
                # until the server closes; -brief reports the cipher on stderr.
                got = run(WRAPPER + [openssl, "s_client", "-connect", f"127.0.0.1:{port}", "-brief", "-ign_eof"]
                          + case["s_client"] + [suite], input=REQUEST)
                check(got.returncode == 0 and suite.encode() in got.stderr and same(body_of(got.stdout)),
                      f"s_client {version} {suite}: {len(body_of(got.stdout))} bytes, sha256 equal")
                if curl:
                    got = run(WRAPPER + [curl, "-sS", "-k", "--http1.0"] + case["curl"]
                              + [suite, f"https://127.0.0.1:{port}/data.bin"])
                    check(got.returncode == 0 and same(got.stdout),
                          f"curl {version} {suite}: {len(got.stdout)} bytes, sha256 equal")
                else:
                    print(f"skip  curl {version}: curl not installed")
                output = os.path.join(directory, f"client-{version}.bin")
                got = run(WRAPPER + [tls_client, provider_dir, str(port), version, "data.bin", output])
                body = b""
                if os.path.exists(output):
                    with open(output, "rb") as received:
                        body = received.read()
                sys.stdout.write(got.stdout.decode() + got.stderr.decode())
                check(got.returncode == 0 and same(body), f"tls_client {version} with crisp: sha256 equal, "
                      "crisp's counter moved")
                # Crisp loaded but not preferred, and crisp not loaded: the
                # same transfer works, and the proof must fail.
                for label, args, reason in (
                        ("crisp not preferred", [provider_dir, str(port), version, "data.bin", output,
                                                 "?provider=default"], "did not open the records"),
                        ("without crisp", ["-", str(port), version, "data.bin", output],
                         "crisp provider is not loaded")):
                    got = run(WRAPPER + [tls_client] + args)
                    lines = (got.stdout.decode() + got.stderr.decode()).splitlines()
                    sys.stdout.write("".join(f"      | {line}\n" for line in lines[:2]))
                    check(got.returncode == 1 and reason in got.stderr.decode(),
                          f"tls_client {version} {label}: the counter check fails")
        finally:
            server.kill()
            server.wait()
        for version in CASES:
            got = run(WRAPPER + [tls_server_check, provider_dir, version, "cert.pem", "key.pem"])
            sys.stdout.write("".join(f"      | {line}\n" for line in (got.stdout + got.stderr).decode().splitlines()))
            check(got.returncode == 0, f"tls_server_check {version} with crisp: the server's counters moved "
                  "(records sealed, handshake signed)")
            for label, args, reasons in (
                    ("crisp not preferred on the server",
                     [provider_dir, version, "cert.pem", "key.pem", "?provider=default"],
                     ["records were not sealed by crisp", "signature was not made by crisp"]),
                    ("without crisp", ["-", version, "cert.pem", "key.pem"], ["crisp provider is not loaded"])):
                got = run(WRAPPER + [tls_server_check] + args)
                errors = got.stderr.decode()
                sys.stdout.write("".join(f"      | {line}\n" for line in errors.splitlines()
                                         if line.startswith("tls_server_check:")))
                check(got.returncode == 1 and all(reason in errors for reason in reasons),
                      f"tls_server_check {version} {label}: the counter check fails")
    print(f"{len(failures)} failed, {time.monotonic() - started:.2f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
