#!/usr/bin/env bash
# scripts/fuzz.sh - builds the libFuzzer harnesses (clang, ASan + UBSan) and
# runs each for a bounded time, starting from the seeds in fuzz/corpus/.
#
#   bash scripts/fuzz.sh                      every harness, 15 s each
#   bash scripts/fuzz.sh --time 3600 bn_mul   one harness for an hour
#   bash scripts/fuzz.sh --list               harness names
#
# Every run starts from the committed seeds alone, as CI's does: they are
# copied into a fresh scratch corpus (a temporary directory in BUILD, removed
# at the end), which takes the new inputs, so neither the repository nor a
# later run sees them. A failing input is saved as BUILD/fuzz-artifacts/crash-*
# and replays with `BUILD/fuzz/fuzz_NAME FILE`. Exit status non-zero when any
# harness found a failure.
#
# Environment: CRISP_FUZZ_BUILD (default: build-fuzz in the repository, or
# $CRISP_BUILD_PREFIX-fuzz), CRISP_FUZZ_JOBS (parallel harnesses, default 1).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
harnesses=(md5 md5_many poly1305 bn_mul bn_sqr bn_mul_add bn_mont_mul bn_mont_sqr bn_mod_exp bn_mod_exp2 bn_mod_exp_crt
  chacha20 chacha20poly1305 xchacha20poly1305 chacha20poly1305_stream)
seconds=15
selected=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds=${2:?--time needs seconds}; shift ;;
    --list) printf '%s\n' "${harnesses[@]}"; exit 0 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
    *)
      [[ " ${harnesses[*]} " == *" $1 "* ]] || { echo "fuzz.sh: unknown harness '$1' (try --list)" >&2; exit 2; }
      selected+=("$1")
      ;;
  esac
  shift
done
[ "${#selected[@]}" -gt 0 ] || selected=("${harnesses[@]}")

build=${CRISP_FUZZ_BUILD:-${CRISP_BUILD_PREFIX:+$CRISP_BUILD_PREFIX-fuzz}}
build=${build:-$root/build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  rm -rf "$build"
  setup_log=$(mktemp)
  CC=clang meson setup "$build" "$root" -Dfuzzers=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dtests=false -Dtools=false >"$setup_log" 2>&1 || { cat "$setup_log"; rm -f "$setup_log"; exit 1; }
  rm -f "$setup_log"
fi
meson compile -C "$build" $(printf 'fuzz/fuzz_%s ' "${selected[@]}") >/dev/null || exit 1

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-artifacts"
scratch=$(mktemp -d "$build/fuzz-corpus.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
status=0
run_one() {
  local harness=$1 corpus=$scratch/$1 log=$build/fuzz-$1.log seeds started
  mkdir -p "$corpus"
  cp -R "$root/fuzz/corpus/$harness/." "$corpus/"
  if ! "$build/fuzz/fuzz_$harness" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$harness-" "$corpus" >"$log" 2>&1; then
    printf '  %-12s FAILED (log %s)\n' "$harness" "$log"
    grep -E 'fuzz check failed|ERROR|SUMMARY|Test unit written' "$log" | head -10 | sed 's/^/      /'
    return 1
  fi
  # libFuzzer counts the inputs it started from: the committed seeds, no more
  seeds=$(find "$root/fuzz/corpus/$harness" -type f | wc -l)
  started=$(grep -Eo 'seed corpus: files: [0-9]+' "$log" | grep -Eo '[0-9]+$' | head -1)
  if [ "${started:-none}" != "$seeds" ]; then
    printf '  %-12s FAILED: started from %s inputs, not the %s committed seeds\n' "$harness" "${started:-no}" "$seeds"
    return 1
  fi
  printf '  %-12s ok     %s\n' "$harness" "$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)"
}
jobs=${CRISP_FUZZ_JOBS:-1}
pids=()
for harness in "${selected[@]}"; do
  run_one "$harness" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"
