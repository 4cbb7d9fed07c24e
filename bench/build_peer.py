#!/usr/bin/env python3
"""Builds a peer's shared libcrypto from its source tree for `crisp bench
--peer-lib` only; never for the library or its tests. Knows two peers:
AWS-LC (cmake + ninja, its `crypto` target, no Go) and OpenSSL (its own
Configure and make, libraries only). Copies the shared library to
PREFIX/lib and prints its path, ready for --peer-lib NAME=PATH.

    python3 bench/build_peer.py aws-lc  SOURCE_DIR PREFIX [--jobs N]
    python3 bench/build_peer.py openssl SOURCE_DIR PREFIX [--jobs N]

The build directory is PREFIX/build (AWS-LC) or the source tree itself
(OpenSSL builds in place, then links PREFIX/build/libcrypto.so.openssl);
running it again rebuilds incrementally."""
import argparse
import glob
import os
import shutil
import subprocess
import sys


def run(command, directory):
    print('+', ' '.join(command), flush=True)
    subprocess.run(command, cwd=directory, check=True)


def build_aws_lc(source, prefix, jobs):
    build = os.path.join(prefix, 'build')
    os.makedirs(build, exist_ok=True)
    if not os.path.exists(os.path.join(build, 'build.ninja')):
        run(['cmake', '-G', 'Ninja', '-S', source, '-B', build,
             '-DCMAKE_BUILD_TYPE=Release', '-DBUILD_SHARED_LIBS=ON',
             '-DDISABLE_GO=ON', '-DBUILD_TESTING=OFF',
             '-DBUILD_TOOL=OFF', '-DBUILD_LIBSSL=OFF'], build)
    run(['ninja', '-j', str(jobs), 'crypto'], build)
    return sorted(glob.glob(os.path.join(build, 'crypto', 'libcrypto.so*')))


def build_openssl(source, prefix, jobs):
    """A `shared` OpenSSL build compiles every object twice, for libcrypto.a
    and for libcrypto.so, with the same flags (-fPIC both times): building
    the archive alone and linking it whole as the shared library, with
    OpenSSL's own version script and link flags, halves the build."""
    if not os.path.exists(os.path.join(source, 'Makefile')):
        run(['./Configure', 'shared', 'no-tests', 'no-docs',
             '--prefix=' + os.path.abspath(prefix)], source)
    # the generated headers (opensslv.h among them) first: libcrypto.a's
    # objects do not depend on them, and without them the system's
    # headers are found instead
    run(['make', '-j', str(jobs), 'build_generated'], source)
    run(['make', '-j', str(jobs), 'libcrypto.a', 'libcrypto.ld'], source)
    shared = os.path.join(prefix, 'build', 'libcrypto.so.openssl')
    os.makedirs(os.path.dirname(shared), exist_ok=True)
    run(['cc', '-shared', '-fPIC', '-pthread', '-m64', '-Wl,-znodelete',
         '-Wl,-Bsymbolic', '-Wl,--version-script=libcrypto.ld', '-o', shared,
         '-Wl,--whole-archive', 'libcrypto.a', '-Wl,--no-whole-archive',
         '-ldl', '-pthread'], source)
    return [shared]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('peer', choices=['aws-lc', 'openssl'])
    parser.add_argument('source')
    parser.add_argument('prefix')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    source = os.path.abspath(arguments.source)
    prefix = os.path.abspath(arguments.prefix)
    os.makedirs(prefix, exist_ok=True)
    build = build_aws_lc if arguments.peer == 'aws-lc' else build_openssl
    libraries = [path for path in build(source, prefix, arguments.jobs)
                 if not os.path.islink(path)]
    if not libraries:
        sys.exit('build_peer.py: no shared libcrypto was built')
    library_dir = os.path.join(prefix, 'lib')
    os.makedirs(library_dir, exist_ok=True)
    # One file named after the peer: the bench opens it by path, and the
    # name keeps the two peers' libcrypto apart from each other and Debian's.
    target = os.path.join(library_dir, 'libcrypto-%s.so' % arguments.peer)
    shutil.copy2(libraries[-1], target)
    print(target)


if __name__ == '__main__':
    main()
