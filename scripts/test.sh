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
#   bash scripts/test.sh mutate     the opt-in mutation check (scripts/mutate.py)
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
#   CRISP_FUZZ_TIME     seconds per fuzz harness (default 4)
#   CRISP_HARDENING_LONG=1  full-size trials under valgrind, crisp command too
#   CRISP_SOAK_CASES    soak cases per kernel and implementation (default 2000000)
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

build_prefix=${CRISP_BUILD_PREFIX:-$root/build}
native_dir=$build_prefix
arm64_dir=$build_prefix-arm64
cross_file=$root/scripts/cross/aarch64-linux-gnu.ini

# Emulation is 10-50x slower than native: a quarter of the random trials
# (CRISP_TEST_SCALE, test/common.h).
emulated_scale=0.25

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

# build_dir DIR [TARGET...] -- [MESON_SETUP_ARGS...]: configures DIR once
# (CC from the environment) and builds the targets (all when none named);
# a target @SUITE stands for what that suite's tests need
# (scripts/test_targets.py).
# The logs go to the native build (NAME.setup.log, NAME.compile.log), not
# the source tree, and are shown only on failure.
build_dir() {
  local dir=$1 targets=() log
  log=$native_dir/$(basename "$1")
  shift
  while [ "$1" != -- ]; do
    targets+=("$1")
    shift
  done
  shift
  configure "$dir" "$@" >"$log.setup.log" 2>&1 || { cat "$log.setup.log"; return 1; }
  local target named=("${targets[@]}") suite_targets
  targets=()
  for target in "${named[@]}"; do
    if [ "${target#@}" != "$target" ]; then
      suite_targets=$(python3 "$root/scripts/test_targets.py" "$dir" "${target#@}") || return 1
      mapfile -t -O "${#targets[@]}" targets <<<"$suite_targets"
    else
      targets+=("$target")
    fi
  done
  meson compile -C "$dir" "${targets[@]}" >"$log.compile.log" 2>&1 || { tail -30 "$log.compile.log"; return 1; }
}

# meson test on an existing build, with the failing tests' logs printed.
# The source checks (suite source) read the source tree alone, the same for
# every build: the native stage runs them, the other builds pass
# "${not_source[@]}".
not_source=(--no-suite source)
run_meson_test() {
  local dir=$1
  shift
  meson test -C "$dir" --no-rebuild --print-errorlogs "$@"
}

# ---------------------------------------------------------------------------
# Stages. Each is a function stage_NAME run in a subshell with `set -e`, so
# any failing command fails the stage. To add a stage (sanitizers, valgrind,
# fuzzing, tsan, ...): write stage_NAME, describe it in describe_stage, and
# add NAME to the lists below.

native_stages=(build native md5-long dispatch-cli symbols mutants-apply format install cet)
emulated_stages=(qemu64 haswell dispatch-emulated arm64-build arm64 arm64-max)
# Run only when named (bash scripts/test.sh mutate), never by default.
optional_stages=(mutate)
# How other projects consume crisp (native, after install).
native_stages+=(abi man opt-out consumer relocated)
# sanitize valgrind constant-time ... fuzz (full run only), soak, planted-faults
source "$root/scripts/hardening.sh"

describe_stage() {
  case "$1" in
    build) echo "configure and build natively ($native_dir)" ;;
    native) echo "meson test, native CPU" ;;
    md5-long) echo "MD5 of real messages past 2^32 and 2^35 bits, every implementation, against OpenSSL" ;;
    dispatch-cli) echo "crisp info with CRYPTO_FORCE / CRYPTO_OPTIONS, native CPU" ;;
    symbols) echo "libcrisp.so exports only crisp_*, SONAME libcrisp.so.0, bound at load (-z now, -z relro, -fno-plt); crisp's objects call no exit or print function but fputs" ;;
    mutants-apply) echo "every mutant in test/mutants/ still applies (scripts/mutate.py --check; no build)" ;;
    format) echo "every C file as clang-format 14 would write it (.clang-format; no build)" ;;
    install) echo "meson install, then a client built with pkg-config (shared and static)" ;;
    cet) echo "the quick suite built with -fcf-protection=full; every .S object CET-clean (scripts/check_cet.py)" ;;
    qemu64) echo "meson test under qemu-x86_64 -cpu qemu64 (SSE2 only)" ;;
    haswell) echo "meson test under qemu-x86_64 -cpu Haswell (AVX2, no AVX-512)" ;;
    dispatch-emulated) echo "crisp info on emulated CPUs: lower levels, CRYPTO_FORCE fallback" ;;
    arm64-build) echo "arm64 cross build ($arm64_dir)" ;;
    arm64) echo "meson test of the arm64 build under qemu-aarch64" ;;
    arm64-max) echo "the quick suite of the arm64 build under qemu-aarch64 -cpu max (SVE)" ;;
    mutate) echo "opt-in: each bug in test/mutants/ planted in turn, a test must fail (scripts/mutate.py)" ;;
    abi) echo "exported symbols and public sizes against scripts/abi/baseline.txt" ;;
    man) echo "crisp(1) and crisp(3) render without warnings and cover every command and function" ;;
    opt-out) echo "built with -Davx512=false -Davx512ifma=false -Dasm=false: the suite, nothing left in" ;;
    consumer) echo "test/consumer via meson subproject, meson + crisp.pc, CMake, cc: shared and static" ;;
    relocated) echo "the install copied to another prefix: pkg-config and CMake still build the consumer" ;;
    *) describe_hardening_stage "$1" ;;
  esac
}

stage_build() {
  configure "$native_dir"
  meson compile -C "$native_dir"
}

stage_native() {
  run_meson_test "$native_dir"
}

# scripts/check_md5_long.py: test_md5_long hashing 512 MiB and 4 GiB for
# real, which a kernel's own 32-bit length arithmetic needs.
stage_md5-long() {
  python3 "$root/scripts/check_md5_long.py" "$native_dir"
}

# scripts/check_dispatch_cli.py: CRYPTO_FORCE and CRYPTO_OPTIONS through
# crisp info on this CPU, and the one stderr line for a bad value.
stage_dispatch-cli() {
  python3 "$root/scripts/check_dispatch_cli.py" "$native_dir"
}

# scripts/check_symbols.py: libcrisp.so exports only crisp_*, libcrisp.a
# defines no global outside it, and the SONAME is libcrisp.so.0.
stage_symbols() {
  python3 "$root/scripts/check_symbols.py" "$native_dir"
}

stage_mutants-apply() {
  python3 "$root/scripts/mutate.py" --check
}

# scripts/check_format.py: the tree as clang-format 14 writes it.
stage_format() {
  python3 "$root/scripts/check_format.py" "$root"
}

# scripts/check_install.py: the install, and the client built from it
# with pkg-config only, as a user would.
stage_install() {
  python3 "$root/scripts/check_install.py" install "$native_dir"
}

# A build with CET (-fcf-protection=full) passes the suite, and the objects
# assembled from the bignum .S files carry the IBT + SHSTK property with
# ENDBR64 at every entry and every indirect-jump target.
stage_cet() {
  local dir=$build_prefix-cet
  build_dir "$dir" @quick -- -Dc_args=-fcf-protection=full
  run_meson_test "$dir" --suite quick "${not_source[@]}"
  python3 "$root/scripts/check_cet.py" "$dir"/libcrisp.so.*.p/src_x86_*.S.o
}

# The native build's suite on an emulated CPU: test/meson.build's setups
# qemu64 and haswell run each test under qemu-x86_64 -cpu MODEL.
stage_qemu64() {
  export CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$emulated_scale}
  run_meson_test "$native_dir" --setup qemu64
  run_meson_test "$native_dir" --setup qemu64script --suite script --no-suite md5sum-oracle
}

stage_haswell() {
  export CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$emulated_scale}
  run_meson_test "$native_dir" --setup haswell
  run_meson_test "$native_dir" --setup haswellscript --suite script --no-suite md5sum-oracle
}

# scripts/check_dispatch_emulated.py: test_dispatch_table --current under
# qemu-x86_64 on three CPU models, with and without CRYPTO_FORCE.
stage_dispatch-emulated() {
  python3 "$root/scripts/check_dispatch_emulated.py" "$native_dir"
}

# scripts/abi.py: exported symbols and public sizes against the committed
# baseline (python3 scripts/abi.py --update after an intended change).
stage_abi() {
  python3 "$root/scripts/abi.py" "$native_dir"
}

# scripts/check_man.py: both pages render without a warning, name every
# command, option, switch, function and header, and are installed.
stage_man() {
  python3 "$root/scripts/check_man.py" "$native_dir"
}

# scripts/check_opt_out.py: no AVX-512 or assembly implementation offered,
# no zmm instruction and no assembled object left in; then the suite.
stage_opt-out() {
  local dir=$build_prefix-optout
  build_dir "$dir" -- -Davx512=false -Davx512ifma=false -Dasm=false
  python3 "$root/scripts/check_opt_out.py" "$dir"
  CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-0.25} run_meson_test "$dir" "${not_source[@]}"
}

# scripts/check_install.py: test/consumer as a meson subproject, with meson
# and crisp.pc, with CMake, with plain cc, shared and static; then the
# installed tree moved to another prefix.
stage_consumer() {
  python3 "$root/scripts/check_install.py" consumer "$native_dir"
}

stage_relocated() {
  python3 "$root/scripts/check_install.py" relocated "$native_dir"
}

stage_mutate() {
  python3 "$root/scripts/mutate.py"
}

stage_arm64-build() {
  configure "$arm64_dir" --cross-file "$cross_file"
  meson compile -C "$arm64_dir"
}

# The cross file's exe_wrapper runs each test program under qemu-aarch64
# (the script tests start crisp through MESON_EXE_WRAPPER); QEMU_CPU picks
# the emulated CPU without a second wrapper.
stage_arm64() {
  CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$emulated_scale} run_meson_test "$arm64_dir" "${not_source[@]}"
}

stage_arm64-max() {
  QEMU_CPU=max CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$emulated_scale} run_meson_test "$arm64_dir" --suite quick "${not_source[@]}"
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
# record STAGE passed|FAILED TIME: the stage's outcome, counted and listed.
record() {
  outcome[$1]=$2
  if [ "$2" = passed ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  results+=("$(printf '%-18s %-7s %6s' "$1" "$2" "$3")")
}
# The CPU seconds of the finished stages' processes (cutime + cstime of
# this shell): beside the wall time, a measure a busy machine disturbs less.
cpu_seconds() {
  set -- $(sed 's/.*) //' /proc/$$/stat)
  echo $(((${14} + ${15}) / $(getconf CLK_TCK)))
}
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
    record "$stage" FAILED -
    continue
  fi
  start=$SECONDS cpu_start=$(cpu_seconds)
  (
    set -e
    "stage_$stage"
  )
  status=$?
  seconds=$((SECONDS - start))
  if [ "$status" -eq 0 ]; then
    echo "---- $stage: passed (${seconds} s, CPU $(($(cpu_seconds) - cpu_start)) s)"
    record "$stage" passed "${seconds}s"
  else
    echo "---- $stage: FAILED, status $status (${seconds} s)"
    record "$stage" FAILED "${seconds}s"
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
# Implementations this CPU lacks run only on emulated CPUs, and qemu has
# no AVX-512 and, on the models the stages use, no ADX: those the CPU
# lacks were executed by no stage, which the summary says aloud.
if [ -x "$native_dir/tools/crisp" ]; then
  unexecuted=$("$native_dir/tools/crisp" info --all 2>/dev/null |
    awk '/^[a-z0-9_]+: / { kernel = $1 } /^  [^ ]+ +unsupported/ && $1 ~ /avx512|adx/ { print kernel $1 }' | sort -u)
  if [ -n "$unexecuted" ]; then
    echo "WARNING: executed by no stage (this CPU lacks them; qemu cannot emulate them):" $unexecuted
  fi
fi
[ "$failed" -eq 0 ]
