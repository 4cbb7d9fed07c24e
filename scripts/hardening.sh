# scripts/hardening.sh - the hardening stages of scripts/test.sh (sourced by
# it, not run alone): sanitizers, valgrind memcheck, constant-time checks
# (memcheck, MemorySanitizer, timing, and the planted leaks they must
# report), the stack-wipe test at six builds, ThreadSanitizer, the
# CRYPTO_FORCE / CRYPTO_OPTIONS sweep and a short libFuzzer run. Each
# stage_NAME uses test.sh's helpers (build_dir, run_meson_test) and build
# directories next to the native one: PREFIX-asan,
# PREFIX-tsan, PREFIX-fuzz, PREFIX-msan, PREFIX-plant, PREFIX-plant-key,
# PREFIX-wipe-COMPILER-OLEVEL (and for planted-faults PREFIX-tsan-race, PREFIX-asan-leak,
# PREFIX-plant-memory_leak, PREFIX-fuzz-carry).
#
# Longer runs (see docs/hardening.md):
#   CRISP_FUZZ_TIME=600 bash scripts/test.sh fuzz     10 minutes per harness
#   CRISP_HARDENING_LONG=1 bash scripts/test.sh valgrind sanitize
#       full-size random trials under valgrind, and the crisp command too
#   bash scripts/test.sh soak      opt-in only (not in the default run):
#       CRISP_SOAK_CASES differential cases per kernel and implementation
#       against OpenSSL, libsodium and GMP; CRISP_TEST_SEED replays a run
#   CRISP_CT_TIMING_SCALE=10 bash scripts/test.sh ct-timing
#       ten times the timing samples
#   bash scripts/test.sh planted-faults
#       TSan, the leak checks and the fuzzers each shown failing on a plant

hardening_stages=(sanitize valgrind constant-time ct-msan ct-timing ct-planted wipe-builds tsan env-sweep fuzz)
# Run only when named: bash scripts/test.sh soak, bash scripts/test.sh planted-faults
opt_in_stages=(soak planted-faults)

describe_hardening_stage() {
  case "$1" in
    sanitize) echo "meson test built with -fsanitize=address,undefined -fno-sanitize-recover=all" ;;
    valgrind) echo "meson test under valgrind memcheck (CRYPTO_FORCE=avx2: valgrind has no AVX-512)" ;;
    constant-time) echo "Poly1305, ChaCha20 and its AEADs, and Montgomery / mod_exp with secrets marked undefined for memcheck" ;;
    ct-msan) echo "the same secrets poisoned under MemorySanitizer (clang): every implementation, AVX-512 and IFMA too" ;;
    ct-timing) echo "dudect-style timing: fixed vs random secrets, Welch's t, every supported implementation" ;;
    ct-planted) echo "the planted secret-dependent branch and table load, and a branch on the RSA key: MSan, memcheck and the timing test report them" ;;
    wipe-builds) echo "test_wipe (bound lazily, with and without LD_BIND_NOW=1), test_stack and the memcheck constant-time tests built by gcc and clang at -O2, -O3 and -Os; test_wipe and test_stack over the portable stack scrub" ;;
    planted-faults) echo "opt-in: TSan, the leak checks and the fuzzers on a planted race, leak and dropped carry" ;;
    tsan) echo "16 threads' concurrent first use, built with -fsanitize=thread" ;;
    env-sweep) echo "the quick suites under every CRYPTO_FORCE level, CRYPTO_OPTIONS switch and garbage; reports against the table" ;;
    fuzz) echo "each libFuzzer harness (clang, ASan + UBSan) for ${CRISP_FUZZ_TIME:-4} s against generic" ;;
    soak) echo "opt-in: ${CRISP_SOAK_CASES:-$soak_cases} edge-biased cases per kernel and implementation against OpenSSL, libsodium, GMP" ;;
    *) echo "$1" ;;
  esac
}

hardening_long=${CRISP_HARDENING_LONG:-0}

# The sanitizer builds run the suite through test/meson.build's setups
# (sanitize, tsan), which set the sanitizers' options.
stage_sanitize() {
  build_dir "$build_prefix-asan" -- -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fno-sanitize-recover=all -Dc_link_args=-fno-sanitize-recover=all
  run_meson_test "$build_prefix-asan" --setup sanitize "${not_source[@]}"
}

# The valgrind setup (test/meson.build) runs the compiled tests under
# memcheck, capped at AVX2 (valgrind has no AVX-512 and no ADX). The script
# tests (the crisp command) run under memcheck in long runs only.
stage_valgrind() {
  CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$([ "$hardening_long" = 1 ] && echo 1 || echo 0.25)} \
    run_meson_test "$native_dir" --setup valgrind
  if [ "$hardening_long" = 1 ]; then
    echo "    memcheck on the crisp command (test_cli.py):"
    CRYPTO_FORCE=avx2 CRISP_TEST_WRAPPER="$valgrind_command" run_meson_test "$native_dir" -t 10 cli
  fi
}
valgrind_command="valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
--show-leak-kinds=definite,indirect --quiet"

# scripts/check_ct_memcheck.py: the memcheck suite (bn-ct, poly1305-ct,
# chacha20-ct) was built and passes, and which implementations it checked.
stage_constant-time() {
  python3 "$root/scripts/check_ct_memcheck.py" "$native_dir"
}

# ---- constant time beyond memcheck ------------------------------------------

# msan_build DIR PLANT: the MemorySanitizer build of test/ct_msan.c (clang;
# test/ct_msan_ignore.txt names the asm functions it cannot see into;
# test/ct_msan_copies.h, forced into every file, checks that memcpy and its
# kin get public addresses and lengths), with -Dplant_leak=PLANT.
msan_build() {
  local dir=$1 plant=$2
  command -v clang >/dev/null || {
    echo "clang is needed for the MemorySanitizer build" >&2
    return 1
  }
  local c_args="-fsanitize-ignorelist=$root/test/ct_msan_ignore.txt -fsanitize-memory-track-origins=2"
  c_args+=" -include $root/test/ct_msan_copies.h"
  # meson configure: a directory set up before keeps its own options otherwise
  [ ! -f "$dir/build.ninja" ] || meson configure "$dir" "-Dc_args=$c_args" -Dplant_leak="$plant" >/dev/null
  CC=clang build_dir "$dir" test/ct_msan -- -Db_sanitize=memory -Db_lundef=false -Dtools=false -Dpeers=disabled \
    -Dplant_leak="$plant" "-Dc_args=$c_args"
}

stage_ct-msan() {
  local dir=$build_prefix-msan
  msan_build "$dir" none
  local status=0
  MSAN_OPTIONS=halt_on_error=1:exitcode=66 "$dir/test/ct_msan" >"$native_dir/msan.log" 2>&1 || status=$?
  grep -E '^# |^ct-msan' "$native_dir/msan.log" | sed 's/^/    /'
  [ "$status" -eq 0 ] || {
    grep -E 'WARNING|#[0-9] |SUMMARY' "$native_dir/msan.log" | head -20 >&2
    return 1
  }
}

# The timing test runs on the native build; ten times the samples with
# CRISP_CT_TIMING_SCALE=10 (the opt-in long run).
stage_ct-timing() {
  local program=$native_dir/test/ct_timing
  [ -x "$program" ] || {
    echo "$program is not built" >&2
    return 1
  }
  "$program" | sed 's/^/    /'
}

# plant_build DIR PLANT TARGET...: a gcc build with -Dplant_leak=PLANT.
plant_build() {
  local dir=$1 plant=$2
  shift 2
  [ ! -f "$dir/build.ninja" ] || meson configure "$dir" -Dplant_leak="$plant" >/dev/null
  build_dir "$dir" "$@" -- -Dtools=false -Dpeers=disabled -Dplant_leak="$plant"
}

# The planted leaks (meson -Dplant_leak=branch|table|key); for each,
# scripts/check_ct_planted.py asserts that MemorySanitizer, memcheck and the
# timing test report what they can see. The branch and table plants share
# one gcc build and the ct-msan stage's build, each switched from plant to
# plant (meson.build gives the define to the planted kernels' target alone,
# so a switch recompiles only that); the key plant, in the library's own
# target, keeps a build of its own. The unplanted builds are the ct-msan,
# ct-timing and constant-time stages.
stage_ct-planted() {
  local plant failed=0
  for plant in branch table; do
    msan_build "$build_prefix-msan" "$plant"
    plant_build "$build_prefix-plant" "$plant" test/test_bn_ct test/ct_timing
    python3 "$root/scripts/check_ct_planted.py" "$plant" "$build_prefix-msan" "$build_prefix-plant" || failed=1
  done
  plant_build "$build_prefix-plant-key" key test/ct_timing
  python3 "$root/scripts/check_ct_planted.py" key "$build_prefix-plant-key" || failed=1
  return "$failed"
}

# test_wipe (no sanitizers: they lay the stack out their own way) built by
# gcc and clang at -O2, -O3 and -Os: how deep frames reach, what is spilled
# and which registers are saved is the compiler's and the level's choice,
# and the wipes must cover each. Only the library and the tests are built,
# libcrisp linked without -z now (-Dlazy_binding=true) for
# scripts/check_wipe_builds.py to run each bound lazily and with LD_BIND_NOW=1.
# The memcheck constant-time tests (bn-ct, poly1305-ct, chacha20-ct) run in
# each build too: whether a mask stays arithmetic or becomes a branch is
# the compiler's choice as well (clang turns `x & mask` into a branch when
# it can tell the mask is 0 or all ones). test_stack runs in each build
# as well: how deep a call's frames reach is the compiler's choice too, and
# the public headers' stack bounds must hold for each (clang -Os lays out
# the AVX-512 MD5 lanes deepest). A seventh build, clang -O2 with
# -DCRISP_SCRUB_PORTABLE, runs test_wipe and test_stack over the portable C stack scrub
# that targets without the assembly one build.
# The gcc builds and the clang builds go side by side, so that one's
# single-threaded steps (meson setup, the test runs) overlap the other's
# compiles; each compiler's lines are shown together, gcc first.
stage_wipe-builds() {
  command -v clang >/dev/null || {
    echo "clang is needed for the clang builds" >&2
    return 1
  }
  local compiler pid pids=() failed=0
  for compiler in gcc clang; do
    wipe_builds "$compiler" >"$native_dir/wipe-$compiler.out" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || failed=1
  done
  cat "$native_dir/wipe-gcc.out" "$native_dir/wipe-clang.out"
  return "$failed"
}

# wipe_builds COMPILER: its three builds, each checked once built.
wipe_builds() {
  local level dir failed=0
  for level in 2 3 s; do
    dir=$build_prefix-wipe-$1-O$level
    CC=$1 build_dir "$dir" test/test_wipe test/test_stack test/test_bn_ct test/test_poly1305_ct \
      test/test_chacha20_ct -- -Dtools=false -Dpeers=disabled -Dlazy_binding=true -Ddebug=false \
      -Doptimization="$level"
    python3 "$root/scripts/check_wipe_builds.py" "$native_dir" "$dir" || failed=1
    stack_bounds "$1" "$level" "$dir" || failed=1
    memcheck_build "$1" "$level" "$dir" || failed=1
  done
  # the portable C scrub, which other targets build, on this one
  [ "$1" = clang ] || return "$failed"
  dir=$build_prefix-wipe-clang-portable
  CC=clang build_dir "$dir" test/test_wipe test/test_stack -- -Dtools=false -Dpeers=disabled -Dlazy_binding=true \
    -Ddebug=false -Doptimization=2 -Dc_args=-DCRISP_SCRUB_PORTABLE
  python3 "$root/scripts/check_wipe_builds.py" "$native_dir" "$dir" || failed=1
  stack_bounds clang portable "$dir" || failed=1
  return "$failed"
}

# stack_bounds COMPILER LEVEL|portable DIR: test_stack of one wipe build, so the
# stack each public header states holds for every compiler and level, not
# only the native build's.
stack_bounds() {
  local log=$native_dir/stack-$1-$2.test.log label=-O$2
  [ "$2" = portable ] && label=-portable
  if "$3/test/test_stack" >"$log" 2>&1; then
    printf '    %-6s %-9s %-14s passed (test_stack: the headers'"'"' stack bounds)\n' "$1" "$label" ""
    return 0
  fi
  echo "    $1 $label test_stack failed:" >&2
  grep -E "more stack|FAILED" "$log" | head -20 >&2
  return 1
}

# memcheck_build COMPILER LEVEL DIR: the memcheck suite of one wipe build.
memcheck_build() {
  local log=$native_dir/wipe-$1-O$2.memcheck.log
  if meson test -C "$3" --no-rebuild --suite memcheck --print-errorlogs >"$log" 2>&1 &&
    [ "$(grep -c ' OK ' "$log")" = 3 ]; then
    printf '    %-6s %-9s %-14s passed (bn-ct, poly1305-ct, chacha20-ct under memcheck)\n' "$1" "-O$2" ""
    return 0
  fi
  echo "    $1 -O$2 memcheck failed (bn-ct, poly1305-ct, chacha20-ct; $log):" >&2
  grep -E 'FAIL|depends on|uninitialised|^==[0-9]+== +(at|by) ' "$log" | head -30 >&2
  return 1
}

stage_tsan() {
  local dir=$build_prefix-tsan
  build_dir "$dir" test/test_threads -- -Db_sanitize=thread -Db_lundef=false -Dtools=false -Dpeers=disabled
  # Several runs: each first use interleaves differently.
  run_meson_test "$dir" --setup tsan --repeat 5 threads
}

# ---- the other checks, each shown failing (opt-in) --------------------------

# planted_run LABEL PATTERN FILE -- COMMAND...: COMMAND must fail, and its
# output must match PATTERN and name FILE (where the fault was planted).
planted_run() {
  local label=$1 pattern=$2 file=$3 status=0 output
  shift 4
  output=$("$@" 2>&1) || status=$?
  if [ "$status" -ne 0 ] && grep -Eq -- "$pattern" <<<"$output" && grep -q -- "$file" <<<"$output"; then
    printf '    %-34s caught: %s\n' "$label" "$(grep -Eo -m1 -- "$pattern" <<<"$output")"
  else
    echo "    $label not caught (exit $status)" >&2
    tail -5 <<<"$output" >&2
    return 1
  fi
}

# -Dplant_fault=race|memory_leak (the ADX Montgomery wrapper, which the
# native suites reach through the IFMA kernel's small sizes) and carry (the
# IFMA normalisation drops one carry bit): TSan, LeakSanitizer, the valgrind
# leak check and the differential fuzzer each built or run as their stage
# does, and each must fail. Four more builds, so not in the default run.
stage_planted-faults() {
  local failed=0 dir
  dir=$build_prefix-tsan-race
  build_dir "$dir" test/test_threads -- -Db_sanitize=thread -Db_lundef=false -Dtools=false \
    -Dpeers=disabled -Dplant_fault=race
  planted_run "tsan, data race:" 'ThreadSanitizer: data race' bn_mont_adx.c -- \
    env TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$dir/test/test_threads" || failed=1

  dir=$build_prefix-asan-leak
  build_dir "$dir" test/test_bn -- -Db_sanitize=address,undefined -Db_lundef=false -Dtools=false \
    -Dpeers=disabled -Dplant_fault=memory_leak -Dc_args=-fno-sanitize-recover=all \
    -Dc_link_args=-fno-sanitize-recover=all
  planted_run "sanitize, LeakSanitizer:" 'LeakSanitizer: detected memory leaks' bn_mont_adx.c -- \
    env ASAN_OPTIONS=detect_leaks=1 CRISP_TEST_SCALE=0.1 "$dir/test/test_bn" || failed=1

  # valgrind's CPU hides ADX, so the suites it runs never dispatch to this
  # wrapper; test_bn_ct calls it directly (with its suppressions).
  dir=$build_prefix-plant-memory_leak
  build_dir "$dir" test/test_bn_ct -- -Dtools=false -Dpeers=disabled -Dplant_fault=memory_leak
  planted_run "valgrind leak check:" 'definitely lost in loss record' bn_mont_adx.c -- \
    $valgrind_command --suppressions="$root/test/bn_ct.supp" "$dir/test/test_bn_ct" || failed=1

  dir=$build_prefix-fuzz-carry
  if [ ! -f "$dir/build.ninja" ]; then
    CC=clang build_dir "$dir" -- -Dfuzzers=true -Db_sanitize=address,undefined -Db_lundef=false \
      -Dtests=false -Dtools=false -Dplant_fault=carry
  fi
  planted_run "fuzz bn_mont_mul, dropped carry:" 'bn_mont_mul avx512ifma: n [0-9]+ .*differs from generic' fuzz -- \
    env CRISP_FUZZ_BUILD="$dir" python3 "$root/scripts/fuzz.py" --time "${CRISP_FUZZ_TIME:-60}" bn_mont_mul || failed=1
  return "$failed"
}

# ---- environment sweep ------------------------------------------------------

stage_env-sweep() {
  python3 "$root/scripts/env_sweep.py" "$native_dir"
}

stage_fuzz() {
  command -v clang >/dev/null || {
    echo "clang is needed for the libFuzzer harnesses" >&2
    return 1
  }
  CRISP_FUZZ_BUILD=$build_prefix-fuzz CRISP_FUZZ_JOBS=${CRISP_FUZZ_JOBS:-2} \
    python3 "$root/scripts/fuzz.py" --time "${CRISP_FUZZ_TIME:-4}"
}

# ---- soak (opt-in) ------------------------------------------------------------

# Cases per kernel and implementation (nine kernels, 33 implementations on
# an AVX-512 IFMA machine): about 8 minutes of CPU time, md5_many and mod_exp
# the slowest; 10-20 minutes on a busy shared machine. CRISP_SOAK_CASES
# overrides it.
soak_cases=2000000

# test/soak.c: each case's inputs come from the seed, the kernel and the
# case number, so a mismatch line names the command that replays it.
stage_soak() {
  local soak=$native_dir/test/crisp_soak
  [ -x "$soak" ] || {
    echo "crisp_soak is not built: it needs OpenSSL, libsodium and GMP (meson -Dpeers=enabled)" >&2
    return 1
  }
  CRISP_SOAK_CASES=${CRISP_SOAK_CASES:-$soak_cases} "$soak"
}
