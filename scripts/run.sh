#!/usr/bin/env bash
# scripts/run.sh - the main job: install what is missing, build crisp in
# build/, then show what it does on this machine: `crisp info`, an md5sum
# checked by coreutils, and a short benchmark against OpenSSL, libsodium, GMP.
#
#   bash scripts/run.sh
#
# CRISP_BUILD_PREFIX moves the build directory (default: build in the repo);
# CRISP_SKIP_SETUP=1 skips scripts/setup.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${CRISP_BUILD_PREFIX:-$root/build}

step() {
  echo
  echo "==== $*"
}

if [ "${CRISP_SKIP_SETUP:-0}" != 1 ]; then
  step "setup: packages"
  bash scripts/setup.sh
fi

step "build ($build_dir)"
if [ ! -f "$build_dir/build.ninja" ]; then
  rm -rf "$build_dir"
  meson setup "$build_dir" "$root"
fi
# The library, the crisp command and crisp-bench (which `crisp bench` runs)
# only; scripts/test.sh builds the tests.
meson compile -C "$build_dir" tools/crisp:executable bench/crisp-bench:executable
crisp=$build_dir/tools/crisp

step "crisp info"
"$crisp" info

step "crisp md5sum, checked by coreutils md5sum -c"
files=(README.md meson.build include/crisp/*.h src/*.c)
"$crisp" md5sum "${files[@]}" | tee "$build_dir/run.md5"
md5sum -c "$build_dir/run.md5"

step "crisp bench --quick --peers (a short run; noisy on a shared machine)"
"$crisp" bench --quick --peers
