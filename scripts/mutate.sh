#!/usr/bin/env bash
# scripts/mutate.sh - the mutation check: plants each bug from a directory of
# patches in a scratch copy of the tree, rebuilds, runs the suite, reverts,
# and says whether the tests caught it.
#
#   bash scripts/mutate.sh                   every mutant in test/mutants/
#   bash scripts/mutate.sh NAME...           only these (file names, .patch optional)
#   bash scripts/test.sh mutate              the same, as an opt-in stage
#
# A mutant is a patch that `git apply` takes at the repository root. Lines
# before its first "diff --git" say what the bug is; one of them may be
#   Emulate: qemu64 | Haswell | Broadwell | arm64 | clang | long | msan
# for code only that CPU reaches: when the native `meson test` passes, the
# suite's test programs then run on that emulated CPU (arm64: a cross build
# under qemu-aarch64) before the mutant counts as survived. clang is not a
# CPU but a compiler: the test programs of a clang build, for a bug only
# clang's code shows (a stack wipe that gcc's frame layout happens not to
# need). long is not a CPU either: the md5-long stage's real 4 GiB
# messages (CRISP_TEST_LONG=1), for length arithmetic only they reach.
# msan is the ct-msan stage's build (test/ct_msan.c under
# MemorySanitizer, secrets poisoned), for a secret-dependent branch or
# address no functional test can see.
#
# Each mutant ends as one of: killed (a test failed), survived (every test
# passed: a gap in the tests), no longer applies (the code it patches has
# changed: rewrite or drop it), does not build (not counted). The last line
# is "mutate: K killed, S survived, N no longer apply, B do not build, kill
# rate R%", and the exit status is non-zero when any mutant survived.
#
# Environment: CRISP_MUTANTS (default test/mutants), CRISP_MUTATE_DIR
# (scratch, default build-mutate or $CRISP_BUILD_PREFIX-mutate).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mutants_dir=${CRISP_MUTANTS:-$root/test/mutants}
scratch=${CRISP_MUTATE_DIR:-${CRISP_BUILD_PREFIX:+$CRISP_BUILD_PREFIX-mutate}}
scratch=${scratch:-$root/build-mutate}
tree=$scratch/tree
log_dir=$scratch/logs

mapfile -t mutants < <(find "$mutants_dir" -maxdepth 1 -name '*.patch' | sort)
if [ $# -gt 0 ]; then
  mutants=()
  for name in "$@"; do
    name=${name%.patch}
    [ -f "$mutants_dir/$name.patch" ] || { echo "mutate.sh: no mutant $mutants_dir/$name.patch" >&2; exit 2; }
    mutants+=("$mutants_dir/$name.patch")
  done
fi
[ "${#mutants[@]}" -gt 0 ] || { echo "mutate.sh: no mutants in $mutants_dir" >&2; exit 2; }

# The scratch tree: the working tree as it is now (committed or not), the
# mutant patches left out. Rebuilt from scratch on every run, builds kept.
mkdir -p "$tree" "$log_dir"
(cd "$root" && git ls-files -co --exclude-standard -z | grep -zv '^test/mutants/' |
  tar --null -cf - -T -) | (cd "$tree" && tar -xf -)
# tar keeps the files' times, so the scratch builds only redo what changed.
[ -d "$tree/.git" ] || git -C "$tree" init -q
git -C "$tree" add -A
git -C "$tree" -c user.name=mutate -c user.email=mutate@localhost commit -qm base --allow-empty

native=$scratch/native
arm64=$scratch/arm64
clang_build=$scratch/clang
msan_build=$scratch/msan
if [ ! -f "$native/build.ninja" ]; then
  meson setup "$native" "$tree" >"$log_dir/setup.log" 2>&1 || { cat "$log_dir/setup.log"; exit 1; }
fi
meson compile -C "$native" >"$log_dir/base-build.log" 2>&1 || { tail -20 "$log_dir/base-build.log"; exit 1; }
echo "checking the unmutated tree first"
meson test -C "$native" --no-rebuild >"$log_dir/base-test.log" 2>&1 || {
  echo "the suite fails without any mutant (see $log_dir/base-test.log)" >&2
  exit 1
}

# The built test programs (not scripts such as test_cli.sh) of a build.
binary_tests() {
  meson introspect "$1" --tests | python3 -c '
import json, os, sys
build = os.path.realpath(sys.argv[1])
for test in json.load(sys.stdin):
    if test["cmd"] and os.path.realpath(test["cmd"][0]).startswith(build + os.sep):
        print(test["name"])' "$1"
}

# 0 when the mutant survives the emulated run named by cpu.
emulated_passes() {
  local cpu=$1 log=$2
  if [ "$cpu" = long ]; then
    CRISP_TEST_LONG=1 "$native/test/test_md5_long" >>"$log" 2>&1
  elif [ "$cpu" = arm64 ]; then
    if [ ! -f "$arm64/build.ninja" ]; then
      meson setup "$arm64" "$tree" --cross-file "$tree/scripts/cross/aarch64-linux-gnu.ini" >>"$log" 2>&1 || return 0
    fi
    meson compile -C "$arm64" >>"$log" 2>&1 || return 1
    CRISP_TEST_SCALE=0.25 meson test -C "$arm64" --no-rebuild $(binary_tests "$arm64") >>"$log" 2>&1
  elif [ "$cpu" = clang ]; then
    if [ ! -f "$clang_build/build.ninja" ]; then
      CC=clang meson setup "$clang_build" "$tree" -Dtools=false -Dpeers=disabled >>"$log" 2>&1 || return 0
    fi
    meson compile -C "$clang_build" >>"$log" 2>&1 || return 1
    CRISP_TEST_SCALE=0.25 meson test -C "$clang_build" --no-rebuild $(binary_tests "$clang_build") >>"$log" 2>&1
  elif [ "$cpu" = msan ]; then
    if [ ! -f "$msan_build/build.ninja" ]; then
      CC=clang meson setup "$msan_build" "$tree" -Db_sanitize=memory -Db_lundef=false -Dtools=false \
        -Dpeers=disabled "-Dc_args=-fsanitize-ignorelist=$tree/test/ct_msan_ignore.txt \
        -include $tree/test/ct_msan_copies.h" >>"$log" 2>&1 || return 0
    fi
    meson compile -C "$msan_build" test/ct_msan >>"$log" 2>&1 || return 1
    MSAN_OPTIONS=halt_on_error=1 "$msan_build/test/ct_msan" >>"$log" 2>&1
  else
    CRISP_TEST_SCALE=0.25 meson test -C "$native" --no-rebuild --wrapper "qemu-x86_64 -cpu $cpu" \
      $(binary_tests "$native") >>"$log" 2>&1
  fi
}

killed=0 survived=0 stale=0 broken=0
survivors=()
for patch in "${mutants[@]}"; do
  name=$(basename "$patch" .patch)
  log=$log_dir/$name.log
  emulate=$(sed -n '/^diff --git/q; s/^Emulate: *//p' "$patch" | head -1)
  start=$SECONDS
  if ! git -C "$tree" apply --check "$patch" >"$log" 2>&1; then
    result="no longer applies"
    stale=$((stale + 1))
  else
    git -C "$tree" apply "$patch"
    if ! meson compile -C "$native" >>"$log" 2>&1; then
      result="does not build"
      broken=$((broken + 1))
    elif ! meson test -C "$native" --no-rebuild >>"$log" 2>&1; then
      result="killed ($(grep -Eo '^ *[0-9]+/[0-9]+ [^ ]+ / [^ ]+ +(FAIL|TIMEOUT)' "$log" | awk '{print $4}' | sort -u |
        paste -sd, -))"
      killed=$((killed + 1))
    elif [ -n "$emulate" ] && ! emulated_passes "$emulate" "$log"; then
      result="killed (emulated $emulate)"
      killed=$((killed + 1))
    else
      result="SURVIVED"
      survived=$((survived + 1))
      survivors+=("$name")
    fi
    git -C "$tree" checkout -q -- . && git -C "$tree" clean -qfd
  fi
  printf '  %-44s %s (%s s)\n' "$name" "$result" $((SECONDS - start))
done

# Leave the scratch builds matching the unmutated tree.
meson compile -C "$native" >/dev/null 2>&1 || true

counted=$((killed + survived))
rate=$([ "$counted" -gt 0 ] && echo $((100 * killed / counted)) || echo 0)
[ "${#survivors[@]}" -eq 0 ] || echo "survivors (logs in $log_dir): ${survivors[*]}"
echo "mutate: $killed killed, $survived survived, $stale no longer apply, $broken do not build, kill rate $rate%"
[ "$survived" -eq 0 ]
