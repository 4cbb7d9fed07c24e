# scripts/hardening.sh - the hardening stages of scripts/test.sh (sourced by
# it, not run alone): sanitizers, valgrind memcheck, constant-time checks
# (memcheck, MemorySanitizer, timing, and the planted leaks they must
# report), the stack-wipe test at six builds, ThreadSanitizer, the
# CRYPTO_FORCE / CRYPTO_OPTIONS sweep and a short libFuzzer run. Each
# stage_NAME uses test.sh's helpers (build_dir, run_meson_test, crisp_tool) and build directories next to the native one: PREFIX-asan,
# PREFIX-tsan, PREFIX-fuzz, PREFIX-msan[-PLANT], PREFIX-plant-PLANT,
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
    wipe-builds) echo "test_wipe built by gcc and clang at -O2, -O3 and -Os, bound lazily, with and without LD_BIND_NOW=1" ;;
    planted-faults) echo "opt-in: TSan, the leak checks and the fuzzers on a planted race, leak and dropped carry" ;;
    tsan) echo "16 threads' concurrent first use, built with -fsanitize=thread" ;;
    env-sweep) echo "the quick suites under every CRYPTO_FORCE level, CRYPTO_OPTIONS switch and garbage; reports against the table" ;;
    fuzz) echo "each libFuzzer harness (clang, ASan + UBSan) for ${CRISP_FUZZ_TIME:-10} s against generic" ;;
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
  run_meson_test "$build_prefix-asan" --setup sanitize
}

# The valgrind setup (test/meson.build) runs the compiled tests under
# memcheck, capped at AVX2 (valgrind has no AVX-512 and no ADX). The script
# tests (the crisp command) run under memcheck in long runs only.
stage_valgrind() {
  CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-$([ "$hardening_long" = 1 ] && echo 1 || echo 0.25)} \
    run_meson_test "$native_dir" --setup valgrind
  if [ "$hardening_long" = 1 ]; then
    echo "    memcheck on the crisp command (test_cli.sh):"
    CRYPTO_FORCE=avx2 CRISP_TEST_WRAPPER="$valgrind_command" run_meson_test "$native_dir" -t 10 cli
  fi
}
valgrind_command="valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
--show-leak-kinds=definite,indirect --quiet"

# The memcheck suite (bn-ct, poly1305-ct, chacha20-ct run valgrind on
# themselves; the native stage runs them too): this stage fails when they
# were not built (no valgrind or no valgrind/memcheck.h) and shows which
# implementations each checked.
stage_constant-time() {
  [ "$(meson test -C "$native_dir" --list --suite memcheck 2>/dev/null | grep -c .)" -eq 3 ] || {
    echo "bn-ct, poly1305-ct and chacha20-ct are not run under memcheck: valgrind and valgrind/memcheck.h are needed" >&2
    return 1
  }
  local status=0
  run_meson_test "$native_dir" -v --suite memcheck >"$native_dir/ct.log" 2>&1 || status=$?
  grep -E '^ *[0-9]+/|^# poly1305|^# chacha20|skipped|FAIL|Uninitialised|Conditional|depends on' "$native_dir/ct.log" | grep -v RUNNING |
    sort -u | sed 's/^/    /'
  return "$status"
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
  # meson configure: a directory set up before keeps its own c_args otherwise
  [ ! -f "$dir/build.ninja" ] || meson configure "$dir" "-Dc_args=$c_args" >/dev/null
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
  build_dir "$dir" "$@" -- -Dtools=false -Dpeers=disabled -Dplant_leak="$plant"
}

# expect_msan_report DIR IMPLS MIN_LIMBS FILE: ct_msan restricted to IMPLS
# must stop with a MemorySanitizer report whose innermost frame is in FILE.
expect_msan_report() {
  local dir=$1 impls=$2 min_limbs=$3 file=$4 status=0 output
  output=$(CRISP_CT_IMPLS=$impls CRISP_CT_MIN_LIMBS=$min_limbs MSAN_OPTIONS=halt_on_error=1:exitcode=66 \
    "$dir/test/ct_msan" 2>&1) || status=$?
  local frame
  frame=$(grep -m1 -E '^ +#0 ' <<<"$output" | sed -E 's/.* in ([^ ]+) .*\/([^/]+:[0-9]+).*/\1 (\2)/')
  if [ "$status" -eq 66 ] && grep -q "#0 .*$file" <<<"$output"; then
    printf '    %-26s MSan: %s\n' "$impls:" "$(grep -m1 -o 'use-of-uninitialized-value' <<<"$output") in $frame"
  else
    echo "    $impls: MSan did not report the plant in $file (exit $status, first frame: ${frame:-none})" >&2
    return 1
  fi
}

# The planted leaks (meson -Dplant_leak=branch|table, in the IFMA Montgomery
# code, crisp_bn52_amm, and in the ADX Montgomery wrapper) must be reported
# by every check that runs those kernels: MemorySanitizer both; memcheck the
# ADX one (test_bn_ct calls that kernel directly; valgrind cannot run
# AVX-512); the timing test the branch, whose extra work it can time. A
# load from a small table stays in L1 and costs the same for every index,
# so the timing test is expected not to see the table plant: its result is
# shown, not asserted. -Dplant_leak=key branches on bit 8 of p in the RSA
# CRT (an extra exponentiation pair with a quarter of the exponents' limbs
# when set, the same share of the work on every implementation): the
# timing test's target that varies the key (fixed against a pool) must
# report it for every bn_mod_exp2 implementation. The unplanted builds are
# the ct-msan, ct-timing and constant-time stages.
stage_ct-planted() {
  local failed=0 plant ifma=0 adx=0
  grep -qw avx512ifma /proc/cpuinfo && ifma=1
  grep -qw adx /proc/cpuinfo && adx=1
  [ "$adx" = 1 ] || {
    echo "this CPU has no ADX (and so no IFMA kernel): no planted kernel can run here" >&2
    return 1
  }
  for plant in branch table; do
    echo "  -Dplant_leak=$plant:"
    msan_build "$build_prefix-msan-$plant" "$plant"
    expect_msan_report "$build_prefix-msan-$plant" x86_64-adx 0 bn_mont_x86_64_adx.c || failed=1
    if [ "$ifma" = 1 ]; then
      expect_msan_report "$build_prefix-msan-$plant" avx512ifma 24 bn_mont_avx512ifma.c || failed=1
    else
      echo "    avx512ifma: this CPU has no IFMA, not checked"
    fi
    local dir=$build_prefix-plant-$plant status=0
    plant_build "$dir" "$plant" test/test_bn_ct test/ct_timing
    run_meson_test "$dir" bn-ct >"$native_dir/plant-$plant.memcheck.log" 2>&1 || status=$?
    local error
    error=$(grep -m1 -A1 -E '(Conditional jump|Use of uninitialised value)' "$dir/meson-logs/testlog.txt" |
      sed -E 's/^==[0-9]+== *//' | tr '\n' ' ')
    if [ "$status" -ne 0 ] && grep -q 'bn_mont_x86_64_adx.c' <<<"$error"; then
      printf '    %-26s memcheck: %s\n' "x86_64-adx:" "$error"
    else
      echo "    x86_64-adx: memcheck did not report the plant (bn-ct exit $status)" >&2
      failed=1
    fi
    echo "    avx512ifma: memcheck cannot run it (valgrind has no AVX-512)"
    local timing
    timing=$(CRISP_CT_KERNELS=bn_mont_mul CRISP_CT_IMPLS=avx512ifma,x86_64-adx "$dir/test/ct_timing" || true)
    grep -E '^bn_mont_mul' <<<"$timing" | sed 's/^/    timing: /'
    if [ "$plant" = branch ]; then
      local expected_leaks=("x86_64-adx +16" "x86_64-adx +32") expected
      [ "$ifma" = 0 ] || expected_leaks+=("avx512ifma +32")
      for expected in "${expected_leaks[@]}"; do
        grep -Eq "^bn_mont_mul +$expected .*LEAK\$" <<<"$timing" || {
          echo "    timing test did not report the branch plant in bn_mont_mul $expected" >&2
          failed=1
        }
      done
    fi
  done
  echo "  -Dplant_leak=key:"
  local dir=$build_prefix-plant-key timing keys
  plant_build "$dir" key test/ct_timing
  timing=$(CRISP_CT_KERNELS=rsa_private "$dir/test/ct_timing" || true)
  grep -E '^rsa_private' <<<"$timing" | sed 's/^/    timing: /'
  keys=$(grep -E '^rsa_private .* key fixed/pool ' <<<"$timing" || true)
  if [ -z "$keys" ] || grep -qv 'LEAK$' <<<"$keys"; then
    echo "    timing test did not report the key plant in every rsa_private key fixed/pool target" >&2
    failed=1
  fi
  return "$failed"
}

# test_wipe (no sanitizers: they lay the stack out their own way) built by
# gcc and clang at -O2, -O3 and -Os: how deep frames reach, what is spilled
# and which registers are saved is the compiler's and the level's choice,
# and the wipes must cover each. Only the library and the test are built.
# libcrisp is linked without -z now (-Dlazy_binding=true) and the test runs
# once bound lazily and once with LD_BIND_NOW=1: no secret path may enter
# the dynamic resolver (its first calls run in fresh processes).
wipe_builds=("gcc 2" "gcc 3" "gcc s" "clang 2" "clang 3" "clang s")

stage_wipe-builds() {
  command -v clang >/dev/null || {
    echo "clang is needed for the clang builds" >&2
    return 1
  }
  local build compiler level bind_now dir log status=0
  for build in "${wipe_builds[@]}"; do
    read -r compiler level <<<"$build"
    dir=$build_prefix-wipe-$compiler-O$level log=$native_dir/wipe-$compiler-O$level
    CC=$compiler build_dir "$dir" test/test_wipe -- -Dtools=false -Dpeers=disabled -Dlazy_binding=true \
      -Ddebug=false -Doptimization="$level"
    for bind_now in "" 1; do
      if LD_BIND_NOW=$bind_now "$dir/test/test_wipe" >"$log.test.log" 2>&1; then
        printf '    %-6s -O%s %-14s passed (%s)\n' "$compiler" "$level" "${bind_now:+LD_BIND_NOW=1}" \
          "$(grep -o '[0-9]* first calls compared' "$log.test.log")"
      else
        echo "    $compiler -O$level ${bind_now:+LD_BIND_NOW=1 }failed:" >&2
        grep -v '^\[' "$log.test.log" | sed -n 1,40p >&2
        status=1
      fi
    done
  done
  return "$status"
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
  planted_run "tsan, data race:" 'ThreadSanitizer: data race' bn_mont_x86_64_adx.c -- \
    env TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$dir/test/test_threads" || failed=1

  dir=$build_prefix-asan-leak
  build_dir "$dir" test/test_bn -- -Db_sanitize=address,undefined -Db_lundef=false -Dtools=false \
    -Dpeers=disabled -Dplant_fault=memory_leak -Dc_args=-fno-sanitize-recover=all \
    -Dc_link_args=-fno-sanitize-recover=all
  planted_run "sanitize, LeakSanitizer:" 'LeakSanitizer: detected memory leaks' bn_mont_x86_64_adx.c -- \
    env ASAN_OPTIONS=detect_leaks=1 CRISP_TEST_SCALE=0.1 "$dir/test/test_bn" || failed=1

  # valgrind's CPU hides ADX, so the suites it runs never dispatch to this
  # wrapper; test_bn_ct calls it directly (with its suppressions).
  dir=$build_prefix-plant-memory_leak
  build_dir "$dir" test/test_bn_ct -- -Dtools=false -Dpeers=disabled -Dplant_fault=memory_leak
  planted_run "valgrind leak check:" 'definitely lost in loss record' bn_mont_x86_64_adx.c -- \
    $valgrind_command --suppressions="$root/test/bn_ct.supp" "$dir/test/test_bn_ct" || failed=1

  dir=$build_prefix-fuzz-carry
  if [ ! -f "$dir/build.ninja" ]; then
    CC=clang build_dir "$dir" -- -Dfuzzers=true -Db_sanitize=address,undefined -Db_lundef=false \
      -Dtests=false -Dtools=false -Dplant_fault=carry
  fi
  planted_run "fuzz bn_mont_mul, dropped carry:" 'bn_mont_mul avx512ifma: n [0-9]+ .*differs from generic' fuzz -- \
    env CRISP_FUZZ_BUILD="$dir" bash "$root/scripts/fuzz.sh" --time "${CRISP_FUZZ_TIME:-60}" bn_mont_mul || failed=1
  return "$failed"
}

# ---- environment sweep ------------------------------------------------------

# The quick suite (test/meson.build) reruns under each environment, at a
# quarter of the random trials (the point is the environment, not the trials).

# level rank of an implementation name ("x86_64-adx" -> rank of x86_64).
level_rank() {
  local level=${1%%-*} i=0
  for name in $sweep_levels; do
    [ "$name" = "$level" ] && {
      echo "$i"
      return
    }
    i=$((i + 1))
  done
  echo 99
}

# sweep_case LABEL EXPECTED_LINES CHECK [VAR=VALUE...]: crisp info under the
# environment prints EXPECTED_LINES "crisp: " lines (exit 2 when one, 0 when
# none; "level" accepts either, for a level this CPU may lack), CHECK (a
# function name, or -) accepts its kernel lines, what crisp info and the API
# report matches the documented table, then the suites pass.
sweep_case() {
  local label=$1 expected=$2 check=$3 status=0 stderr stdout lines
  shift 3
  stdout=$(env "$@" "$(crisp_tool)" info 2>"$native_dir/sweep.stderr") || status=$?
  stderr=$(cat "$native_dir/sweep.stderr")
  lines=$(grep -c '^crisp: ' <<<"$stderr" || true)
  if [ "$expected" = level ]; then
    if [ "$lines" -eq 1 ] && [ "$status" -eq 2 ] && grep -q 'lacks' <<<"$stderr"; then
      expected=1
    else
      expected=0
    fi
  fi
  local want_status=0
  [ "$expected" -eq 0 ] || want_status=2
  if [ "$lines" -ne "$expected" ] || [ "$status" -ne "$want_status" ]; then
    echo "  $label: crisp info exit $status with $lines 'crisp: ' lines, expected $want_status and $expected" >&2
    printf '%s\n' "$stderr" | head -5 | cut -c1-200 >&2
    return 1
  fi
  if [ "$check" != - ] && ! "$check" "$stdout"; then
    echo "  $label: unexpected selection:" >&2
    printf '%s\n' "$stdout" | sed 's/^/      /' >&2
    return 1
  fi
  # Names, reasons, level, status and stderr lines, through crisp info and
  # the API, against the documented table (test/test_dispatch_table.c).
  if ! env "$@" "$native_dir/test/test_dispatch_table" "$(crisp_tool)" --current >"$native_dir/sweep.table" 2>&1; then
    echo "  $label: crisp reports differ from the documented table:" >&2
    grep -v '^#' "$native_dir/sweep.table" | head -20 | cut -c1-200 >&2
    return 1
  fi
  local start=$SECONDS
  if ! env "$@" CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-0.25} meson test -C "$native_dir" --no-rebuild \
    --suite quick >"$native_dir/sweep.log" 2>&1; then
    echo "  $label: suites FAILED" >&2
    grep -E '^ *[0-9]+/' "$native_dir/sweep.log" >&2
    return 1
  fi
  printf '    %-44s ok (%s s)%s\n' "$label" "$((SECONDS - start))" \
    "$([ "$expected" -eq 1 ] && echo ", stderr: $(head -1 <<<"$stderr" | cut -c1-70)...")"
}

# Every kernel at or below the forced level.
sweep_at_most() {
  local kernel impl
  while read -r kernel impl; do
    [[ " ${kernels[*]} " == *" ${kernel%:} "* ]] || continue
    [ "$(level_rank "$impl")" -le "$(level_rank "$sweep_cap")" ] || return 1
  done <<<"$1"
}

# The switched-off kernels run generic.
sweep_generic() {
  local kernel
  for kernel in $sweep_generic_kernels; do
    grep -qx "$kernel: generic" <<<"$1" || return 1
  done
}

# The kernel lines are exactly the pins in sweep_pins ("kernel:impl ...").
sweep_pinned() {
  local pin
  for pin in $sweep_pins; do
    grep -qx "${pin%%:*}: ${pin#*:}" <<<"$1" || return 1
  done
}

# Per kernel, the second supported implementation of crisp info --all (the
# first that the default does not already pick), as CRYPTO_IMPL entries.
second_supported_pins() {
  "$(crisp_tool)" info --all 2>/dev/null | awk '
    /^[a-z0-9_]+: / { kernel = $1; sub(":", "", kernel); seen = 0; next }
    /^  [a-z]/ && $2 ~ /^supported/ { if (++seen == 2) printf "%s:%s ", kernel, $1 }'
}

stage_env-sweep() {
  sweep_levels=$("$(crisp_tool)" info 2>/dev/null | sed -n 's/^levels: //p')
  [ -n "$sweep_levels" ] || {
    echo "crisp info shows no levels line" >&2
    return 1
  }
  # The kernels the checks below go through (sweep_at_most, sweep_generic
  # and the pins read this list).
  local kernels
  mapfile -t kernels < <("$(crisp_tool)" info --kernels)
  [ "${#kernels[@]}" -gt 0 ] || {
    echo "crisp info --kernels named no kernel" >&2
    return 1
  }
  local failed=0 level
  echo "    suite quick: $(meson test -C "$native_dir" --list --suite quick 2>/dev/null | sed 's|.* / ||' | tr '\n' ' ')"
  for level in $sweep_levels; do
    sweep_cap=$level
    sweep_case "CRYPTO_FORCE=$level" level sweep_at_most CRYPTO_FORCE="$level" || failed=1
  done
  local switches=(
    "UseMD5Intrinsics:md5 md5_many" "UsePoly1305Intrinsics:poly1305" "UseMultiplyToLenIntrinsic:bn_mul"
    "UseSquareToLenIntrinsic:bn_sqr" "UseMulAddIntrinsic:bn_mul_add"
    "UseMontgomeryMultiplyIntrinsic:bn_mont_mul bn_mod_exp2" "UseMontgomerySquareIntrinsic:bn_mont_sqr"
    "UseChaCha20Intrinsics:chacha20")
  local entry all=""
  for entry in "${switches[@]}"; do
    sweep_generic_kernels=${entry#*:}
    sweep_case "CRYPTO_OPTIONS=-${entry%%:*}" 0 sweep_generic CRYPTO_OPTIONS="-${entry%%:*}" || failed=1
    all="$all,-${entry%%:*}"
  done
  sweep_generic_kernels="${kernels[*]}"
  sweep_case "CRYPTO_OPTIONS=every switch off" 0 sweep_generic CRYPTO_OPTIONS="${all#,}" || failed=1
  sweep_case "CRYPTO_OPTIONS=+UseMD5Intrinsics" 0 - CRYPTO_OPTIONS=+UseMD5Intrinsics || failed=1
  local long
  long=$(printf 'x%.0s' $(seq 1 5000))
  sweep_case "CRYPTO_FORCE= (empty, as unset)" 0 - CRYPTO_FORCE= || failed=1
  sweep_case "CRYPTO_FORCE=<5000 x>" 1 - CRYPTO_FORCE="$long" || failed=1
  sweep_case "CRYPTO_FORCE=<non-ASCII>" 1 - CRYPTO_FORCE=$'\xff\xfe\xc3\xa9\x1b[2J' || failed=1
  sweep_case "CRYPTO_OPTIONS= (empty)" 0 - CRYPTO_OPTIONS= || failed=1
  sweep_case "CRYPTO_OPTIONS=<5000 x>" 1 - CRYPTO_OPTIONS="$long" || failed=1
  sweep_case "CRYPTO_OPTIONS=<non-ASCII>" 1 - CRYPTO_OPTIONS=$'-Use\xc3\xa9\xff\x1b[2J' || failed=1
  # CRYPTO_IMPL: every kernel pinned to generic, then to its second
  # supported implementation; refusals print one line and keep the default.
  sweep_pins=""
  local kernel
  for kernel in "${kernels[@]}"; do sweep_pins="$sweep_pins $kernel:generic"; done
  sweep_case "CRYPTO_IMPL=every kernel:generic" 0 sweep_pinned CRYPTO_IMPL="${sweep_pins# }" || failed=1
  sweep_pins=$(second_supported_pins)
  sweep_case "CRYPTO_IMPL=second supported of each" 0 sweep_pinned CRYPTO_IMPL="$sweep_pins" || failed=1
  sweep_case "CRYPTO_IMPL=md5:no-such" 1 - CRYPTO_IMPL=md5:no-such || failed=1
  sweep_case "CRYPTO_IMPL=no-such:generic" 1 - CRYPTO_IMPL=no-such:generic || failed=1
  sweep_case "CRYPTO_IMPL=<5000 x>" 1 - CRYPTO_IMPL="$long" || failed=1
  sweep_case "CRYPTO_IMPL=<non-ASCII>" 1 - CRYPTO_IMPL=$'md5:\xc3\xa9\xff\x1b[2J' || failed=1
  # The microarchitecture table's rows, whatever this CPU is.
  local uarch
  for uarch in zen4 zen5 icelake neoverse-v2 unknown; do
    sweep_case "CRISP_CPU_UARCH=$uarch" 0 - CRISP_CPU_UARCH="$uarch" || failed=1
  done
  sweep_cap=avx2
  sweep_case "CRISP_CPU_UARCH=icelake CRYPTO_FORCE=avx2" level sweep_at_most CRISP_CPU_UARCH=icelake CRYPTO_FORCE=avx2 ||
    failed=1
  rm -f "$native_dir/sweep.stderr" "$native_dir/sweep.log" "$native_dir/sweep.table"
  return "$failed"
}

stage_fuzz() {
  command -v clang >/dev/null || {
    echo "clang is needed for the libFuzzer harnesses" >&2
    return 1
  }
  CRISP_FUZZ_BUILD=$build_prefix-fuzz CRISP_FUZZ_JOBS=${CRISP_FUZZ_JOBS:-2} \
    bash "$root/scripts/fuzz.sh" --time "${CRISP_FUZZ_TIME:-10}"
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
