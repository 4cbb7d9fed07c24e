#!/usr/bin/env bash
# scripts/setup.sh - installs the Debian 12 packages crisp needs that are missing.
#
#   bash scripts/setup.sh           native build, tests, benchmark peers
#   bash scripts/setup.sh --arm64   also the arm64 cross toolchain and libraries
#
# When everything is installed already, apt is not touched at all, so running
# this before every build costs a fraction of a second. Runs as root, or
# through sudo when not root.
set -euo pipefail

native_packages=(
  meson ninja-build pkg-config gcc
  libcpu-features-dev libcmocka-dev
  libssl-dev libsodium-dev libgmp-dev # benchmark peers and cross-checks
  openssl # the openssl command, in the provider's TLS test
  cmake man-db groff-base # the consumer projects and the man page checks (scripts/check_install.py, check_man.py)
  valgrind qemu-user clang libclang-rt-14-dev
  clang-format # the format check (.clang-format; the version Debian 12 ships)
  gnuplot-nox
  curl # a client in the provider's TLS test (test/test_provider_tls.py)
)
arm64_packages=(
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  libcpu-features-dev:arm64 libcmocka-dev:arm64
  libgmp-dev:arm64 # GMP, the oracle of the bignum tests, in the arm64 runs too
  libc6:arm64 # the arm64 glibc qemu-aarch64 runs the tests with (see scripts/cross)
)

want_arm64=0
for arg in "$@"; do
  case "$arg" in
    --arm64) want_arm64=1 ;;
    -h | --help)
      sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "setup.sh: unknown argument '$arg' (try --help)" >&2
      exit 2
      ;;
  esac
done

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "setup.sh: need root (or sudo) to run: $*" >&2
    return 1
  fi
}

# One 'package:arch' line per installed package. A plain name in the lists
# above means the native architecture (or 'all'); 'name:arch' means that one.
native_arch=$(dpkg --print-architecture)
installed=$(dpkg-query -W -f='${db:Status-Status} ${Package}:${Architecture}\n' 2>/dev/null |
  awk '$1 == "installed" { print $2 }')

is_installed() {
  local package=$1
  case "$package" in
    *:*) grep -qxF "$package" <<<"$installed" ;;
    *) grep -qxF "$package:$native_arch" <<<"$installed" || grep -qxF "$package:all" <<<"$installed" ;;
  esac
}

wanted=("${native_packages[@]}")
if [ "$want_arm64" -eq 1 ]; then
  wanted+=("${arm64_packages[@]}")
fi

missing=()
for package in "${wanted[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#wanted[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if [ "$want_arm64" -eq 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  as_root dpkg --add-architecture arm64
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get update
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
