#!/usr/bin/env bash
# scripts/test.sh - the full crisp test suite, the one command CI runs.
#
#   bash scripts/test.sh            every stage: native, symbols, mutants
#                                   still applying, install, hardening
#                                   (scripts/hardening.sh: sanitizers, valgrind,
#                                   constant time, tsan, environment sweep,
#                                   fuzzing), emulated x86 CPUs, arm64
#   bash scripts/test.sh --quick    native stages only (no qemu, no arm64)
#   bash scripts/test.sh --list     the stage names, in order
#   bash scripts/test.sh STAGE...   only these stages (after the native build)
#   bash scripts/test.sh soak       the opt-in soak (never part of the default run)
#   bash scripts/test.sh mutate     the opt-in mutation check (scripts/mutate.sh)
#
# It installs what is missing first (scripts/setup.sh --arm64), then runs each
# stage with a header and its wall time. A failed stage does not stop the
# others; only a failed native build does. The last line is exactly
# "test: N passed, M failed", and the exit status is non-zero if M > 0.
#
# Environment:
#   CRISP_BUILD_PREFIX  build directories are PREFIX, PREFIX-arm64, ...
#                       (default: build inside the repository)
#   CRISP_SKIP_SETUP=1  do not run scripts/setup.sh
#   CRISP_TEST_SCALE    multiplies the tests' random trials (default 1); the
#                       emulated stages use 0.25 unless it is set
#   CRISP_FUZZ_TIME     seconds per fuzz harness (default 10)
#   CRISP_HARDENING_LONG=1  full-size trials under valgrind, crisp command too
#   CRISP_SOAK_CASES    soak cases per kernel and implementation (default 2000000)
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

build_prefix=${CRISP_BUILD_PREFIX:-$root/build}
native_dir=$build_prefix
arm64_dir=$build_prefix-arm64
cross_file=$root/scripts/cross/aarch64-linux-gnu.ini

# Emulation is 10-50x slower than native: smaller suites, longer timeouts.
emulated_scale=0.25 # multiplies the number of random trials (test/common.h)
emulated_timeout_multiplier=1

# ---------------------------------------------------------------------------
# Helpers

# Configures a build directory once; later runs only rebuild (ninja re-runs
# meson by itself when a meson.build changed). A directory left half
# configured by a failed setup is started over.
configure() {
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    return 0
  fi
  if [ -d "$dir/meson-private" ]; then
    rm -rf "$dir"
  fi
  meson setup "$dir" "$root" "$@"
}

# meson test on an existing build, with the failing tests' logs printed.
run_meson_test() {
  local dir=$1
  shift
  meson test -C "$dir" --no-rebuild --print-errorlogs "$@"
}

# Runs a command; fails the stage with a message when its output lacks a
# pattern (extended regex). qemu's own warning lines are dropped first.
expect_output() {
  local pattern=$1
  shift
  local output
  output=$("$@" 2>&1 | grep -v '^qemu-x86_64:' || true)
  printf '%s\n' "$output" | sed 's/^/    /'
  if ! grep -Eq -- "$pattern" <<<"$output"; then
    echo "expected output matching /$pattern/ from: $*" >&2
    return 1
  fi
}

# ---------------------------------------------------------------------------
# Stages. Each is a function stage_NAME run in a subshell with `set -e`, so
# any failing command fails the stage. To add a stage (sanitizers, valgrind,
# fuzzing, tsan, ...): write stage_NAME, describe it in describe_stage, and
# add NAME to the lists below.

native_stages=(build native md5-long dispatch-cli symbols mutants-apply install cet)
emulated_stages=(qemu64 haswell dispatch-emulated arm64-build arm64 arm64-max)
# Run only when named (bash scripts/test.sh mutate), never by default.
optional_stages=(mutate)
# sanitize valgrind constant-time tsan env-sweep fuzz (full run only)
source "$root/scripts/hardening.sh"
# abi man opt-out consumer relocated (native, after install)
source "$root/scripts/packaging.sh"
native_stages+=("${packaging_stages[@]}")

describe_stage() {
  case "$1" in
    build) echo "configure and build natively ($native_dir)" ;;
    native) echo "meson test, native CPU" ;;
    md5-long) echo "MD5 of real messages past 2^32 and 2^35 bits, every implementation, against OpenSSL" ;;
    dispatch-cli) echo "crisp info with CRYPTO_FORCE / CRYPTO_OPTIONS, native CPU" ;;
    symbols) echo "libcrisp.so exports only crisp_*, SONAME libcrisp.so.0" ;;
    mutants-apply) echo "every mutant in test/mutants/ still applies (scripts/check_mutants.sh; no build)" ;;
    install) echo "meson install, then a client built with pkg-config (shared and static)" ;;
    cet) echo "meson test built with -fcf-protection=full; every .S object CET-clean (scripts/check_cet.sh)" ;;
    qemu64) echo "meson test under qemu-x86_64 -cpu qemu64 (SSE2 only)" ;;
    haswell) echo "meson test under qemu-x86_64 -cpu Haswell (AVX2, no AVX-512)" ;;
    dispatch-emulated) echo "crisp info on emulated CPUs: lower levels, CRYPTO_FORCE fallback" ;;
    arm64-build) echo "arm64 cross build ($arm64_dir)" ;;
    arm64) echo "meson test of the arm64 build under qemu-aarch64" ;;
    arm64-max) echo "meson test of the arm64 build under qemu-aarch64 -cpu max (SVE)" ;;
    mutate) echo "opt-in: each bug in test/mutants/ planted in turn, a test must fail (scripts/mutate.sh)" ;;
    *) describe_packaging_stage "$1" || describe_hardening_stage "$1" ;;
  esac
}

stage_build() {
  configure "$native_dir"
  meson compile -C "$native_dir"
}

stage_native() {
  run_meson_test "$native_dir"
}

# meson test sets long MD5 lengths through a test hook; this stage hashes
# messages of 512 MiB and 4 GiB for real (test/test_md5_long.c), which a
# kernel's own 32-bit length arithmetic needs.
stage_md5-long() {
  local log=$native_dir/md5-long.log
  CRISP_TEST_LONG=1 "$native_dir/test/test_md5_long" >"$log" 2>&1 || {
    cat "$log"
    return 1
  }
  grep -E '^\[ +(OK|SKIPPED) +\]' "$log" | sed 's/^/    /'
  grep -q 'OK \] test_long_message_every_impl' "$log" || {
    echo "test_long_message_every_impl did not run (libcrypto is needed)" >&2
    return 1
  }
}

crisp_tool() {
  echo "$native_dir/tools/crisp"
}

# Fails unless `crisp info` (run with the given environment) shows the
# implementation matching pattern for each kernel (every kernel crisp info
# --kernels names, or those in expect_kernels_only).
expect_kernels() {
  local pattern=$1 output kernels
  shift
  mapfile -t kernels < <("$(crisp_tool)" info --kernels)
  [ "${#kernels[@]}" -gt 0 ] || {
    echo "crisp info --kernels named no kernel" >&2
    return 1
  }
  output=$(env "$@" "$(crisp_tool)" info 2>/dev/null || true)
  for kernel in "${kernels[@]}"; do
    if [[ " ${expect_kernels_only:-${kernels[*]}} " != *" $kernel "* ]]; then continue; fi
    grep -Eq "^$kernel: ($pattern)\$" <<<"$output" || {
      echo "with $*: $kernel is not /$pattern/:" >&2
      printf '%s\n' "$output" >&2
      return 1
    }
  done
}

# Runs crisp info with the given environment; expects exit status 2,
# exactly one "crisp: " line from the library on stderr, and a level line
# whose reason, in parentheses, holds none of its own.
expect_one_warning() {
  local status=0 stderr level
  stderr=$(env "$@" "$(crisp_tool)" info 2>&1 >/dev/null) || status=$?
  printf '%s\n' "$stderr" | sed 's/^/    stderr: /'
  level=$(env "$@" "$(crisp_tool)" info 2>/dev/null | grep '^level: ' || true)
  echo "    $level"
  grep -Eqx 'level: [a-z0-9_-]+ \([^()]+\)' <<<"$level" || {
    echo "with $*: expected one line 'level: LEVEL (REASON)', REASON without parentheses" >&2
    return 1
  }
  [ "$status" -eq 2 ] || {
    echo "with $*: exit $status, expected 2" >&2
    return 1
  }
  [ "$(grep -c '^crisp: ' <<<"$stderr")" -eq 1 ] || {
    echo "with $*: expected exactly one 'crisp: ' line on stderr" >&2
    return 1
  }
}

stage_dispatch-cli() {
  echo "  crisp info:"
  expect_output '^md5: ' "$(crisp_tool)" info
  echo "  CRYPTO_FORCE=generic: every kernel generic"
  expect_kernels generic CRYPTO_FORCE=generic
  echo "  CRYPTO_OPTIONS=-UsePoly1305Intrinsics,-UseMontgomeryMultiplyIntrinsic:"
  expect_kernels_only="poly1305 bn_mont_mul bn_mod_exp2" expect_kernels generic \
    CRYPTO_OPTIONS=-UsePoly1305Intrinsics,-UseMontgomeryMultiplyIntrinsic
  echo "  CRYPTO_FORCE=no-such-level:"
  expect_one_warning CRYPTO_FORCE=no-such-level
  echo "  CRYPTO_OPTIONS=-UseNoSuchIntrinsic:"
  expect_one_warning CRYPTO_OPTIONS=-UseNoSuchIntrinsic
}

stage_symbols() {
  local lib=$native_dir/libcrisp.so
  local exported unexpected soname
  exported=$(nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }')
  echo "    $(wc -l <<<"$exported") exported functions"
  unexpected=$(grep -v '^crisp_' <<<"$exported" || true)
  if [ -n "$unexpected" ]; then
    echo "exported symbols outside crisp_*:" >&2
    printf '%s\n' "$unexpected" | head -20 >&2
    return 1
  fi
  # The static library cannot hide its internal globals; they keep the
  # crisp_ prefix so they cannot collide with a program's own names.
  unexpected=$(nm -g --defined-only "$native_dir/libcrisp.a" 2>/dev/null | awk 'NF == 3 && $3 !~ /^crisp_/')
  if [ -n "$unexpected" ]; then
    echo "libcrisp.a defines globals outside crisp_*:" >&2
    printf '%s\n' "$unexpected" | head -20 >&2
    return 1
  fi
  soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  echo "    SONAME $soname"
  [ "$soname" = libcrisp.so.0 ]
}

stage_mutants-apply() {
  bash "$root/scripts/check_mutants.sh"
}

# Installs into a temporary tree and builds test/install/client.c against it
# exactly as a user would: headers and flags from pkg-config only.
stage_install() {
  # Global, not local: the EXIT trap runs after this function has returned.
  install_dest=$(mktemp -d "${TMPDIR:-/tmp}/crisp-install.XXXXXX")
  trap 'rm -rf "$install_dest"' EXIT
  local dest=$install_dest
  meson install -C "$native_dir" --no-rebuild --destdir "$dest" >"$dest.log" || {
    cat "$dest.log"
    rm -f "$dest.log"
    return 1
  }
  rm -f "$dest.log"
  local pc prefix libdir
  pc=$(find "$dest" -name crisp.pc | head -1)
  [ -n "$pc" ] || {
    echo "crisp.pc not installed" >&2
    return 1
  }
  prefix=$(installed_prefix) # crisp.pc's own prefix is relative to its folder
  echo "    installed under $dest$prefix:"
  (cd "$dest$prefix" && find . -type f -o -type l | sort | sed 's/^\.\//      /')
  # crisp.pc finds its libdir and includedir from its own folder, so it
  # works in the temporary tree as it is.
  export PKG_CONFIG_PATH=$(dirname "$pc")
  local pkg=(pkg-config)
  libdir=$("${pkg[@]}" --variable=libdir crisp)
  echo "    pkg-config --cflags --libs crisp: $("${pkg[@]}" --cflags --libs crisp)"
  echo "    pkg-config --static --libs crisp: $("${pkg[@]}" --static --libs crisp)"

  # Every header of the source tree is installed, and the generated version.h.
  local missing=()
  for header in "$root"/include/crisp/*.h version.h; do
    [ -f "$dest$prefix/include/crisp/$(basename "$header")" ] || missing+=("$(basename "$header")")
  done
  [ "${#missing[@]}" = 0 ] || {
    echo "headers not installed: ${missing[*]}" >&2
    return 1
  }

  # Every public header compiles on its own, as C and as C++.
  for header in "$dest$prefix"/include/crisp/*.h; do
    printf '#include <crisp/%s>\n' "$(basename "$header")" >"$dest/header.c"
    cc -std=c11 -Wall -Wextra -Werror -fsyntax-only $("${pkg[@]}" --cflags crisp) "$dest/header.c"
    if command -v clang++ >/dev/null; then
      clang++ -Wall -Wextra -Werror -fsyntax-only -x c++ $("${pkg[@]}" --cflags crisp) "$dest/header.c"
    fi
  done
  # crisp/chacha20poly1305.h includes crisp/chacha20.h: a program that takes
  # ChaCha20 and HChaCha20 from the AEAD header alone builds.
  printf '%s\n' '#include <crisp/chacha20poly1305.h>' 'int main(void) {' \
    '  static const uint8_t key[CRISP_CHACHA20_KEY_SIZE], nonce[CRISP_CHACHA20_NONCE_SIZE], input[16];' \
    '  uint8_t block[CRISP_CHACHA20_BLOCK_SIZE] = {0}, subkey[32];' \
    '  return crisp_chacha20(block, block, sizeof block, key, nonce, 1) | crisp_hchacha20(subkey, key, input);' \
    '}' >"$dest/aead_header.c"
  cc -std=c11 -Wall -Wextra -Werror -fsyntax-only $("${pkg[@]}" --cflags crisp) "$dest/aead_header.c"
  echo "    every header installed and compiling alone (C and C++); ChaCha20 also through chacha20poly1305.h"

  local peers
  peers="$(pkg-config --cflags --libs libcrypto libsodium) -lgmp"
  echo "    client, shared library:"
  cc -std=c11 -Wall -Wextra -Werror -o "$dest/client" test/install/client.c \
    $("${pkg[@]}" --cflags --libs crisp) $peers
  # (captured first: grep -q quitting early would SIGPIPE ldd under pipefail)
  local libraries
  libraries=$(LD_LIBRARY_PATH=$libdir ldd "$dest/client")
  grep -q "libcrisp.so.0 => $libdir/" <<<"$libraries" || {
    echo "client does not load the installed libcrisp.so.0" >&2
    return 1
  }
  LD_LIBRARY_PATH=$libdir "$dest/client" | sed 's/^/      /'

  echo "    client, static (pkg-config --static):"
  cc -std=c11 -Wall -Wextra -Werror -static -o "$dest/client-static" test/install/client.c \
    $("${pkg[@]}" --static --cflags --libs crisp) \
    $(pkg-config --static --libs libcrypto libsodium) -lgmp 2>"$dest/static.log" || {
    cat "$dest/static.log" >&2
    return 1
  }
  # glibc warns about getaddrinfo & co in a static libcrypto; not ours.
  grep -v -e 'statically linked applications requires at runtime' -e 'in function' "$dest/static.log" || true
  "$dest/client-static" | sed 's/^/      /'

  # The installed command runs from the installed library without
  # LD_LIBRARY_PATH (its RUNPATH leads from bin to the libdir, wherever the
  # tree is), and its bench subcommand finds the installed crisp-bench
  # beside it, which loads the same library.
  [ -x "$dest$prefix/bin/crisp-bench" ] || {
    echo "crisp-bench not installed beside crisp" >&2
    return 1
  }
  local program loaded
  for program in crisp crisp-bench; do
    loaded=$(env -u LD_LIBRARY_PATH ldd "$dest$prefix/bin/$program" | sed -n 's|.*libcrisp\.so\.0 => \(/[^ ]*\) .*|\1|p')
    if [ -z "$loaded" ] || [ "$(realpath "$loaded")" != "$(realpath "$libdir/libcrisp.so.0")" ]; then
      echo "the installed $program does not load the installed libcrisp.so.0 without LD_LIBRARY_PATH" \
        "(loads '${loaded:-nothing}'; RUNPATH: $(readelf -d "$dest$prefix/bin/$program" | grep -E 'R(UN)?PATH'))" >&2
      return 1
    fi
  done
  env -u LD_LIBRARY_PATH "$dest$prefix/bin/crisp" info | sed 's/^/      /'
  env -u LD_LIBRARY_PATH PATH=/usr/bin:/bin "$dest$prefix/bin/crisp" bench --check | sed 's/^/      /'
  # The crisp command needs no peer library; only crisp-bench links them.
  local needed
  needed=$(readelf -d "$dest$prefix/bin/crisp" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  echo "      crisp needs: $(echo $needed)"
  if grep -Eq '^lib(crypto|ssl|sodium|gmp)\.' <<<"$needed"; then
    echo "the installed crisp command links a peer library" >&2
    return 1
  fi
}

# Names the tests of a build directory of one kind, one per line: "binary"
# (a program built here; meson's --wrapper or the cross exe_wrapper runs it)
# or "script" (an interpreter such as bash, which must itself run natively
# and starts crisp through the CRISP_TEST_WRAPPER command instead).
list_tests() {
  meson introspect "$1" --tests | python3 -c '
import json, os, sys
build, kind = os.path.realpath(sys.argv[1]), sys.argv[2]
for test in json.load(sys.stdin):
    program = os.path.realpath(test["cmd"][0]) if test["cmd"] else ""
    is_binary = program.startswith(build + os.sep)
    if is_binary == (kind == "binary"):
        print(test["name"])' "$1" "$2"
}

# The whole suite of a build on an emulated CPU: the built test programs
# under wrapper (empty for a cross build, whose exe_wrapper applies), the
# script tests natively with CRISP_TEST_WRAPPER set to script_wrapper.
run_emulated_suite() {
  local dir=$1 wrapper=$2 script_wrapper=$3 status=0
  local binaries scripts
  binaries=$(list_tests "$dir" binary)
  scripts=$(list_tests "$dir" script)
  export CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$emulated_scale}
  local args=(-t "$emulated_timeout_multiplier")
  if [ -n "$binaries" ]; then
    if [ -n "$wrapper" ]; then
      run_meson_test "$dir" "${args[@]}" --wrapper "$wrapper" $binaries || status=1
    else
      run_meson_test "$dir" "${args[@]}" $binaries || status=1
    fi
  fi
  if [ -n "$scripts" ]; then
    CRISP_TEST_WRAPPER=$script_wrapper run_meson_test "$dir" "${args[@]}" $scripts || status=1
  fi
  return "$status"
}

# The native build's suite on an emulated x86 CPU. Tests that read stderr
# ignore the "qemu-x86_64:" warning lines TCG prints for newer CPU models.
run_emulated_x86() {
  run_emulated_suite "$native_dir" "qemu-x86_64 -cpu $1" "qemu-x86_64 -cpu $1"
}

# A build with CET (-fcf-protection=full) passes the suite, and the objects
# assembled from the bignum .S files carry the IBT + SHSTK property with
# ENDBR64 at every entry and every indirect-jump target.
stage_cet() {
  local dir=$build_prefix-cet log=$native_dir/cet
  configure "$dir" -Dc_args=-fcf-protection=full >"$log.setup.log" || { cat "$log.setup.log"; return 1; }
  meson compile -C "$dir" >"$log.compile.log" || { tail -30 "$log.compile.log"; return 1; }
  run_meson_test "$dir"
  bash "$root/scripts/check_cet.sh" "$dir"/libcrisp.so.*.p/src_x86_*.S.o
}

stage_qemu64() {
  run_emulated_x86 qemu64
}

stage_haswell() {
  run_emulated_x86 Haswell
}

# What crisp info and the API say on an emulated CPU, checked by
# test_dispatch_table --current run on that CPU: it probes the model's
# features itself and computes the expectation from the documented rules
# and src/implementations.def, not through crisp. Features crisp knows that
# each QEMU model has (so that the stage runs the CPUs it means to):
declare -A emulated_model_features=(
  [qemu64]="sse2"
  [Haswell]="sse2 bmi1 bmi2 avx avx2"
  [Broadwell]="sse2 bmi1 bmi2 adx avx avx2"
)

expect_emulated_info() { # expect_emulated_info MODEL [CRYPTO_FORCE level]
  local model=$1 force=${2:-} wrapper="qemu-x86_64 -cpu $1" status=0
  echo "  -cpu $model${force:+, CRYPTO_FORCE=$force}:"
  env ${force:+CRYPTO_FORCE=$force} CRISP_TEST_WRAPPER="$wrapper" \
    $wrapper "$native_dir/test/test_dispatch_table" "$(crisp_tool)" --current >"$native_dir/emulated.table" 2>&1 ||
    status=$?
  grep -v '^qemu-x86_64:' "$native_dir/emulated.table" | sed 's/^/    /'
  grep -q "^# this CPU, probed by the test: ${emulated_model_features[$model]} (" "$native_dir/emulated.table" || {
    echo "expected the model's features '${emulated_model_features[$model]}'" >&2
    return 1
  }
  return "$status"
}

stage_dispatch-emulated() {
  expect_emulated_info qemu64
  expect_emulated_info Haswell
  expect_emulated_info Broadwell
  expect_emulated_info qemu64 avx2
  expect_emulated_info Haswell avx512
  expect_emulated_info Haswell x86_64
  expect_emulated_info Broadwell avx512ifma
  expect_emulated_info Broadwell generic
}

stage_mutate() {
  bash "$root/scripts/mutate.sh"
}

stage_arm64-build() {
  configure "$arm64_dir" --cross-file "$cross_file"
  meson compile -C "$arm64_dir"
}

# The cross file's exe_wrapper runs each test program under qemu-aarch64;
# QEMU_CPU picks the emulated CPU without a second wrapper.
arm64_wrapper="qemu-aarch64" # the cross file explains why there is no -L

stage_arm64() {
  run_emulated_suite "$arm64_dir" "" "$arm64_wrapper"
}

stage_arm64-max() {
  QEMU_CPU=max run_emulated_suite "$arm64_dir" "" "$arm64_wrapper"
}

# Stages that need another stage to have passed first.
stage_requires() {
  case "$1" in
    arm64 | arm64-max) echo arm64-build ;;
  esac
}

# ---------------------------------------------------------------------------
# Driver

quick=0
selected=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --list)
      for stage in "${native_stages[@]}" "${hardening_stages[@]}" "${emulated_stages[@]}" "${opt_in_stages[@]}" "${optional_stages[@]}"; do
        printf '%-18s %s\n' "$stage" "$(describe_stage "$stage")"
      done
      exit 0
      ;;
    -h | --help)
      sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "test.sh: unknown option '$arg' (try --help)" >&2
      exit 2
      ;;
    *)
      if ! declare -F "stage_$arg" >/dev/null; then
        echo "test.sh: unknown stage '$arg' (try --list)" >&2
        exit 2
      fi
      selected+=("$arg")
      ;;
  esac
done

if [ "${#selected[@]}" -gt 0 ]; then
  stages=(build)
  for stage in "${selected[@]}"; do
    [ "$stage" = build ] || stages+=("$stage")
  done
  for stage in "${selected[@]}"; do
    required=$(stage_requires "$stage")
    if [ -n "$required" ] && [[ " ${stages[*]} " != *" $required "* ]]; then
      stages=("${stages[@]:0:1}" "$required" "${stages[@]:1}")
    fi
  done
elif [ "$quick" -eq 1 ]; then
  stages=("${native_stages[@]}")
else
  stages=("${native_stages[@]}" "${hardening_stages[@]}" "${emulated_stages[@]}")
fi

if [ "${CRISP_SKIP_SETUP:-0}" != 1 ]; then
  if [ "$quick" -eq 1 ]; then
    bash "$root/scripts/setup.sh" || exit 1
  else
    bash "$root/scripts/setup.sh" --arm64 || exit 1
  fi
fi

passed=0
failed=0
results=()
declare -A outcome
total_start=$SECONDS
count=${#stages[@]}
index=0
for stage in "${stages[@]}"; do
  index=$((index + 1))
  echo
  echo "==== [$index/$count] $stage: $(describe_stage "$stage")"
  required=$(stage_requires "$stage")
  if [ -n "$required" ] && [ "${outcome[$required]:-}" != passed ]; then
    echo "---- $stage: FAILED (skipped: $required did not pass)"
    outcome[$stage]=failed
    failed=$((failed + 1))
    results+=("$(printf '%-18s %-7s %6s' "$stage" FAILED -)")
    continue
  fi
  start=$SECONDS
  (
    set -e
    "stage_$stage"
  )
  status=$?
  seconds=$((SECONDS - start))
  if [ "$status" -eq 0 ]; then
    outcome[$stage]=passed
    passed=$((passed + 1))
    echo "---- $stage: passed (${seconds} s)"
    results+=("$(printf '%-18s %-7s %5ss' "$stage" passed "$seconds")")
  else
    outcome[$stage]=failed
    failed=$((failed + 1))
    echo "---- $stage: FAILED, status $status (${seconds} s)"
    results+=("$(printf '%-18s %-7s %5ss' "$stage" FAILED "$seconds")")
    if [ "$stage" = build ]; then
      echo "The native build failed; no other stage can run."
      break
    fi
  fi
done

echo
echo "==== summary (total $((SECONDS - total_start)) s)"
printf '  %s\n' "${results[@]}"
echo "test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
