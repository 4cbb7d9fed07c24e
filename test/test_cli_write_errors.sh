#!/bin/bash
# test/test_cli_write_errors.sh - output errors are errors: every crisp
# command that writes to stdout (help, version, info, md5sum with and
# without -c, poly1305, bench, tune), run with stdout on /dev/full or
# closed, exits 1 with one 'PROGRAM: write error: REASON' line on stderr,
# as coreutils does (REASON: the errno text, ENOSPC or EBADF; crisp md5sum
# prints exactly what coreutils md5sum prints, which omits it for /dev/full).
# Usage: test_cli_write_errors.sh PATH-TO-CRISP PATH-TO-CRISP-BENCH.
# CRISP_TEST_WRAPPER (or meson's MESON_EXE_WRAPPER in a cross build) runs
# the programs through an emulator; its own warning lines are ignored.
set -u
CRISP_TEST_WRAPPER=${CRISP_TEST_WRAPPER:-${MESON_EXE_WRAPPER:-}}
crisp_binary=$(realpath "${1:?usage: test_cli_write_errors.sh PATH-TO-CRISP PATH-TO-CRISP-BENCH}")
bench_binary=$(realpath "${2:?usage: test_cli_write_errors.sh PATH-TO-CRISP PATH-TO-CRISP-BENCH}")
export LC_ALL=C
failures=0
checks=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { checks=$((checks + 1)); }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'Cryptographic Forum Research Group' > "$work/message"
"/usr/bin/md5sum" "$work/message" > "$work/sums"
key=85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b

# crisp runs exec crisp-bench, which an emulator does not follow: under a
# wrapper, bench and tune start crisp-bench directly.
run() {
  local program=$crisp_binary
  if [ -n "${CRISP_TEST_WRAPPER:-}" ] && { [ "$1" = bench ] || [ "$1" = tune ]; }; then
    program=$bench_binary
    if [ "$1" = bench ]; then shift; else set -- --tune "${@:2}"; fi
  fi
  ${CRISP_TEST_WRAPPER:-} "$program" "$@"
}

# expect_write_error REDIRECTION REASON ARGS...: crisp ARGS with stdout
# sent to /dev/full ("full") or closed ("closed").
expect_write_error() {
  local redirection=$1 reason=$2 status; shift 2
  if [ "$redirection" = full ]; then
    run "$@" > /dev/full 2> "$work/err" < /dev/null; status=$?
  else
    run "$@" >&- 2> "$work/err" < /dev/null; status=$?
  fi
  local lines wanted="crisp...: write error: $reason"
  lines=$(grep -v '^qemu-' "$work/err")
  # crisp md5sum says what coreutils md5sum says, which gives no reason when
  # an earlier line-buffered write failed.
  if [ "$1" = md5sum ] && [ "$redirection" = full ]; then
    wanted=$(/usr/bin/md5sum "${@:2}" 2>&1 > /dev/full < /dev/null | sed 's/^[^:]*md5sum: /crisp md5sum: /')
  fi
  if [ "$status" != 1 ]; then
    fail "crisp $* (stdout $redirection): exit status $status, want 1"
  elif [[ $wanted == crisp...:* ]] && ! grep -Eqx "crisp( [a-z0-9]+)?: write error: $reason" <<<"$lines"; then
    fail "crisp $* (stdout $redirection): stderr is '$lines', want one line '$wanted'"
  elif [[ $wanted != crisp...:* ]] && [ "$lines" != "$wanted" ]; then
    fail "crisp $* (stdout $redirection): stderr is '$lines', want coreutils' '$wanted'"
  elif [ "$(grep -c . <<<"$lines")" != 1 ]; then
    fail "crisp $* (stdout $redirection): stderr is '$lines', want one line"
  else
    pass
  fi
}

commands=(
  "--help" "-h" "help" "--version"
  "info --help" "info" "info --all" "info --kernels"
  "md5sum --help" "md5sum --version" "md5sum $work/message" "md5sum -c $work/sums"
  "poly1305 --help" "poly1305 -k $key $work/message"
  "bench --help" "bench --version" "bench --check" "bench --kernel md5 --time 1 --quick"
  "tune --help"
)
# A tuning run takes a second natively; emulated, test_cli.sh runs one already.
[ -z "${CRISP_TEST_WRAPPER:-}" ] && commands+=("tune --time 1")
for command in "${commands[@]}"; do
  expect_write_error full "No space left on device" $command
  expect_write_error closed "Bad file descriptor" $command
done

# Nothing written, nothing to report: a closed stdout is no error then.
run md5sum --status -c "$work/sums" >&- 2> "$work/err"; status=$?
[ $status = 0 ] && ! grep -v '^qemu-' "$work/err" | grep -q . && pass ||
  fail "crisp md5sum --status -c with stdout closed: exit status $status, stderr '$(cat "$work/err")'"

echo "$checks checks passed, $failures failed"
[ $failures = 0 ]
