#!/bin/bash
# test/test_cli.sh - the crisp command end to end: md5sum output and exit
# status byte for byte against coreutils md5sum on a generated tree (odd
# names, empty and 1 MiB files, unreadable entries, more files than the
# pool holds), the -c round trip, stdin, poly1305 against RFC 8439 2.5.2,
# info (every kernel info --kernels names), crisp bench (through crisp, or
# crisp-bench directly under an emulator), and usage errors.
# Usage: test_cli.sh PATH-TO-CRISP PATH-TO-CRISP-BENCH. CRISP_TEST_WRAPPER
# (e.g. "qemu-x86_64 -cpu Haswell") runs crisp through an emulator; stderr
# is never compared, so qemu's warning lines do not matter. In a cross build
# meson's own MESON_EXE_WRAPPER (qemu-aarch64) is the default.
set -u
CRISP_TEST_WRAPPER=${CRISP_TEST_WRAPPER:-${MESON_EXE_WRAPPER:-}}
crisp_binary=$(realpath "${1:?usage: test_cli.sh PATH-TO-CRISP PATH-TO-CRISP-BENCH}")
bench_binary=$(realpath "${2:?usage: test_cli.sh PATH-TO-CRISP PATH-TO-CRISP-BENCH}")
reference=/usr/bin/md5sum
failures=0
checks=0

crisp() { ${CRISP_TEST_WRAPPER:-} "$crisp_binary" "$@"; }
# crisp bench runs crisp-bench through exec, which an emulator does not
# follow (the host would run the program natively, or not at all for
# another architecture): under a wrapper the bench is started directly.
bench() {
  if [ -n "${CRISP_TEST_WRAPPER:-}" ]; then ${CRISP_TEST_WRAPPER} "$bench_binary" "$@"; else crisp bench "$@"; fi
}

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { checks=$((checks + 1)); }

# expect_same DESCRIPTION -- ARGS...: crisp md5sum ARGS and coreutils md5sum
# ARGS give the same stdout bytes and exit status (stdin from $stdin_file).
stdin_file=/dev/null
expect_same() {
  local description=$1; shift 2
  crisp md5sum "$@" < "$stdin_file" > "$work/crisp.out" 2> "$work/crisp.err"; local crisp_status=$?
  "$reference" "$@" < "$stdin_file" > "$work/ref.out" 2> /dev/null; local ref_status=$?
  if ! cmp -s "$work/crisp.out" "$work/ref.out"; then
    fail "$description: stdout differs"; diff <(od -c "$work/ref.out") <(od -c "$work/crisp.out") | head -20
  elif [ "$crisp_status" != "$ref_status" ]; then
    fail "$description: exit status $crisp_status, coreutils $ref_status"
  else
    pass
  fi
}

# expect_status STATUS DESCRIPTION -- COMMAND...: exit status only.
expect_status() {
  local want=$1 description=$2; shift 3
  "$@" > /dev/null 2>&1 < /dev/null; local got=$?
  if [ "$got" != "$want" ]; then fail "$description: exit status $got, want $want"; else pass; fi
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree/many"
cd "$tree" || exit 1

# The tree: empty, odd names, sizes around block and buffer boundaries, 1 MiB.
: > empty
printf 'hello\n' > 'name with spaces'
printf 'newline' > $'new\nline'
printf 'backslash' > 'back\slash'
printf 'carriage' > $'car\rret'
printf 'all' > $'odd\\\n\r mix'
printf 'star' > '*star'
head -c 1048576 /dev/urandom > big
for size in 1 55 56 63 64 65 127 128 4095 4096 65535 65536 65537 131072 131073 200000; do
  head -c $size /dev/urandom > "size_$size"
done
for i in $(seq 1 90); do head -c $((i * 977 % 70000)) /dev/urandom > "many/file_$i"; done
mkdir directory
ln -s does-not-exist dangling

regular=(empty 'name with spaces' $'new\nline' 'back\slash' $'car\rret' $'odd\\\n\r mix' '*star' big size_* many/*)

# Plain sums, including every dispatch level this CPU (or emulator) has.
expect_same "regular files" -- "${regular[@]}"
expect_same "unreadable entries among others" -- empty directory big dangling 'back\slash' missing-file size_1
expect_same "binary marks" -- -b "${regular[@]}"
expect_same "BSD tags" -- --tag "${regular[@]}"
expect_same "NUL-terminated" -- -z "${regular[@]}"
expect_same "NUL-terminated BSD tags" -- -z --tag empty $'new\nline' 'back\slash'
expect_same "the same file many times" -- big big size_65536 big empty big
for level in $(crisp info 2> /dev/null | sed -n 's/^levels: //p'); do
  CRYPTO_FORCE=$level expect_same "CRYPTO_FORCE=$level" -- "${regular[@]}"
done

# Standard input: no arguments, '-', '-' twice (the second read sees EOF).
stdin_file=big
expect_same "stdin, no arguments" --
expect_same "stdin as -" -- -
expect_same "stdin twice among files" -- empty - size_64 - big
stdin_file=/dev/null

# -c round trip, then a corrupted file and a missing one.
"$reference" "${regular[@]}" > "$work/sums"
"$reference" --tag "${regular[@]}" > "$work/tagged"
expect_same "check OK" -- -c "$work/sums"
expect_same "check BSD tags" -- -c "$work/tagged"
printf 'x' >> size_4096
printf 'x' >> $'new\nline'
expect_same "check with corrupted files" -- -c "$work/sums"
crisp md5sum -c "$work/sums" > "$work/check.out" 2> /dev/null; status=$?
if [ $status != 1 ] || ! grep -qx 'size_4096: FAILED' "$work/check.out"; then
  fail "a corrupted file must be reported FAILED with exit status 1"
else pass; fi
rm size_64
expect_same "check with a missing file" -- -c "$work/sums"
expect_same "check --quiet" -- -c --quiet "$work/sums"
expect_same "check --status" -- -c --status "$work/sums"
expect_same "check --ignore-missing" -- -c --ignore-missing "$work/sums"
{ cat "$work/sums"; printf 'not a checksum line\n#comment\n\n'; } > "$work/messy"
expect_same "check improperly formatted lines" -- -c "$work/messy"
expect_same "check --strict" -- -c --strict "$work/messy"
expect_same "check --warn" -- -c --warn "$work/messy"
printf '%s\r\n' "$(md5sum < empty | cut -c1-32)  empty" > "$work/crlf"
expect_same "check CRLF lines" -- -c "$work/crlf"
printf '%s  -\n' "$(md5sum < big | cut -c1-32)" > "$work/stdin_sums"
stdin_file=big
expect_same "check a line naming stdin" -- -c "$work/stdin_sums"
stdin_file=$work/sums
expect_same "check list from stdin" -- -c
stdin_file=/dev/null
expect_same "check file missing" -- -c "$work/no-such-list"
expect_same "check nothing well formed" -- -c empty

# Poly1305: RFC 8439 section 2.5.2.
key=85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b
printf 'Cryptographic Forum Research Group' > "$work/rfc8439"
tag=$(crisp poly1305 -k $key "$work/rfc8439" 2> /dev/null)
[ "$tag" = a8061dc1305136c6c22b8baf0c0127a9 ] && pass || fail "poly1305 RFC 8439 2.5.2 tag: '$tag'"
tag=$(crisp poly1305 -k $key - < "$work/rfc8439" 2> /dev/null)
[ "$tag" = a8061dc1305136c6c22b8baf0c0127a9 ] && pass || fail "poly1305 from stdin: '$tag'"
expect_status 1 "poly1305 of a missing file" -- crisp poly1305 -k $key "$work/no-such-file"
expect_status 2 "poly1305 without a key" -- crisp poly1305 "$work/rfc8439"
expect_status 2 "poly1305 with a short key" -- crisp poly1305 -k 85d6 "$work/rfc8439"
expect_status 2 "poly1305 with a non-hex key" -- crisp poly1305 -k "${key%?}g" "$work/rfc8439"
tag=$(crisp poly1305 -k $key -- "$work/rfc8439" 2> /dev/null)
[ "$tag" = a8061dc1305136c6c22b8baf0c0127a9 ] && pass || fail "poly1305 with --: '$tag'"
printf ' %s\n' "$key" > "$work/key"
tag=$(crisp poly1305 --key-file "$work/key" "$work/rfc8439" 2> /dev/null)
[ "$tag" = a8061dc1305136c6c22b8baf0c0127a9 ] && pass || fail "poly1305 --key-file: '$tag'"
tag=$(crisp poly1305 --key-file=- "$work/rfc8439" < "$work/key" 2> /dev/null)
[ "$tag" = a8061dc1305136c6c22b8baf0c0127a9 ] && pass || fail "poly1305 --key-file -: '$tag'"
expect_status 2 "poly1305 --key-file - with the message on stdin too" -- crisp poly1305 --key-file -
expect_status 2 "poly1305 --key-file holding no key" -- crisp poly1305 --key-file "$work/rfc8439" "$work/rfc8439"
expect_status 1 "poly1305 --key-file missing" -- crisp poly1305 --key-file "$work/no-such-key" "$work/rfc8439"
# The reason an open or read failed, not the errno quoting the name left.
for target in "$work/rfc8439/x:Not a directory" "$work:Is a directory"; do
  message=$(crisp poly1305 -k $key "${target%%:*}" 2>&1 >/dev/null)
  case "$message" in *": ${target#*:}") pass ;; *) fail "poly1305 of ${target%%:*}: '$message'" ;; esac
  message=$(crisp poly1305 --key-file "${target%%:*}" "$work/rfc8439" 2>&1 >/dev/null)
  case "$message" in *": ${target#*:}") pass ;; *) fail "poly1305 --key-file ${target%%:*}: '$message'" ;; esac
done
expect_status 2 "poly1305 with two keys" -- crisp poly1305 -k $key --key-file "$work/key" "$work/rfc8439"
expect_status 2 "poly1305 with two files" -- crisp poly1305 -k $key "$work/rfc8439" "$work/rfc8439"
# Names and arguments reach stderr quoted: no raw escape sequence.
for command in "poly1305 -k $key" "md5sum" "info" ""; do
  ${CRISP_TEST_WRAPPER:-} "$crisp_binary" $command $'\e[31mRED' > /dev/null 2> "$work/quoted.err" < /dev/null
  if grep -v '^qemu-' "$work/quoted.err" | grep -q $'\e'; then fail "crisp $command: a raw escape on stderr"; else pass; fi
done

# info lists every kernel and exits 0.
crisp info > "$work/info" 2> /dev/null; status=$?
[ $status = 0 ] && pass || fail "crisp info exit status $status"
crisp info --kernels > "$work/kernels" 2> /dev/null; status=$?
[ $status = 0 ] && [ -s "$work/kernels" ] && pass || fail "crisp info --kernels: exit status $status, no names"
while read -r kernel; do
  grep -q "^$kernel: [a-z]" "$work/info" && pass || fail "crisp info lacks a '$kernel:' line"
done < "$work/kernels"
# ... and --kernels names every kernel line of info (those after "level:",
# less the indented 'why:' line under each).
sed '1,/^level: /d; /^ /d; s/: .*//' "$work/info" | cmp -s - "$work/kernels" && pass ||
  fail "crisp info --kernels does not name exactly the kernels crisp info lists"
expect_status 0 "crisp info --all" -- crisp info --all
expect_status 2 "crisp info with an unknown CRYPTO_FORCE" -- env CRYPTO_FORCE=no-such-level ${CRISP_TEST_WRAPPER:-} "$crisp_binary" info
# The level line gives its reason in one pair of parentheses, whatever the
# request: a level that is no level, and each level (refused on a CPU, or
# an emulated one, that lacks it).
for force in no-such-level $(sed -n 's/^levels: //p' "$work/info"); do
  level=$(env CRYPTO_FORCE=$force ${CRISP_TEST_WRAPPER:-} "$crisp_binary" info 2> /dev/null | grep '^level: ')
  grep -Eqx 'level: [a-z0-9_-]+ \([^()]+\)' <<<"$level" && pass || fail "CRYPTO_FORCE=$force: '$level'"
done

# Usage errors, help, version.
expect_status 2 "no command" -- crisp
expect_status 2 "unknown command" -- crisp frobnicate
# md5sum's usage errors exit 1, as coreutils' do (test_md5sum_diff.sh
# compares the messages).
expect_status 1 "md5sum unknown option" -- crisp md5sum --frobnicate
expect_status 1 "md5sum --tag with -c" -- crisp md5sum --tag -c "$work/sums"
expect_status 1 "md5sum --status without -c" -- crisp md5sum --status empty
expect_status 2 "bench unknown kernel" -- bench --kernel frobnicate
expect_status 2 "bench unknown implementation" -- bench --impl frobnicate
expect_status 2 "bench --time without a value" -- bench --time
for command in "" info md5sum poly1305; do
  expect_status 0 "crisp $command --help" -- crisp $command --help
done
expect_status 0 "crisp bench --help" -- bench --help
expect_status 0 "crisp --version" -- crisp --version
expect_status 0 "crisp md5sum --version" -- crisp md5sum --version

# bench runs (a smoke test; timings are never checked), and every kernel
# crisp lists has bench cases.
expect_status 0 "bench md5 short run" -- bench --kernel md5,poly1305 --time 1 --json
expect_status 0 "bench --check" -- bench --check

# crisp tune (crisp-bench --tune) ends with a CRYPTO_IMPL line that pins
# every kernel, and the library takes that line as it is.
tune() {
  if [ -n "${CRISP_TEST_WRAPPER:-}" ]; then ${CRISP_TEST_WRAPPER} "$bench_binary" --tune "$@"; else crisp tune "$@"; fi
}
expect_status 0 "crisp tune --help" -- tune --help
expect_status 2 "crisp tune with a bench option" -- tune --peers
# Its messages name crisp tune, the command the user typed.
tune --peers > /dev/null 2> "$work/tune.err"
if [ "$(grep -v '^qemu-' "$work/tune.err")" = "crisp tune: its only option is --time
Try 'crisp tune --help' for more information." ]; then pass; else
  fail "crisp tune usage error: '$(cat "$work/tune.err")'"
fi
tune --time 1 > "$work/tune" 2> "$work/tune.err"; status=$?
pins=$(tail -n 1 "$work/tune")
if [ $status = 0 ] && [[ $pins == CRYPTO_IMPL=* ]]; then pass; else fail "crisp tune: exit $status, last line '$pins'"; fi
while read -r kernel; do
  [[ ",${pins#CRYPTO_IMPL=}," == *",$kernel:"* ]] && pass || fail "crisp tune pins no implementation of $kernel"
done < "$work/kernels"
env "$pins" ${CRISP_TEST_WRAPPER:-} "$crisp_binary" info > "$work/tuned" 2> "$work/tuned.err"; status=$?
if [ $status = 0 ] && ! grep -q '^crisp' "$work/tuned.err"; then pass; else fail "crisp info with $pins: exit $status"; fi
for pin in $(tr , ' ' <<<"${pins#CRYPTO_IMPL=}"); do
  grep -qx "${pin%%:*}: ${pin#*:}" "$work/tuned" && pass || fail "crisp info does not run $pin"
done

# Without crisp-bench beside it, in its bin folder or on PATH, crisp bench
# fails with status 2 (a copy of crisp in an empty folder, with its library).
mkdir "$work/alone"
cp "$crisp_binary" "$work/alone/crisp"
expect_status 2 "crisp bench without crisp-bench" -- env PATH=/usr/bin:/bin \
  LD_LIBRARY_PATH="$(dirname "$crisp_binary")/.." ${CRISP_TEST_WRAPPER:-} "$work/alone/crisp" bench --help

echo "$checks checks passed, $failures failed"
[ $failures = 0 ]
