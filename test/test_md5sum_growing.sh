#!/bin/bash
# test/test_md5sum_growing.sh - crisp md5sum reads every file until read()
# returns 0, as coreutils md5sum does, even when the file grows after it was
# opened. The grow_on_read shim (LD_PRELOAD) appends bytes to a file the
# moment a read() reaches its end, so the file has grown before its last
# read, with no race; the digest printed must be that of the file's final
# content (computed by coreutils md5sum afterwards, without the shim).
# Sizes: multiples of the pool's 64 KiB reads, one between, one small, one
# file alone and eight side by side, and through -c.
# Usage: test_md5sum_growing.sh PATH-TO-CRISP PATH-TO-SHIM. Under an
# emulator (CRISP_TEST_WRAPPER, or meson's MESON_EXE_WRAPPER in a cross
# build) the shim reaches the guest through QEMU_SET_ENV, not the emulator.
set -u
CRISP_TEST_WRAPPER=${CRISP_TEST_WRAPPER:-${MESON_EXE_WRAPPER:-}}
crisp_binary=$(realpath "${1:?usage: test_md5sum_growing.sh PATH-TO-CRISP PATH-TO-SHIM}")
shim=$(realpath "${2:?usage: test_md5sum_growing.sh PATH-TO-CRISP PATH-TO-SHIM}")
reference=/usr/bin/md5sum
failures=0
checks=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { checks=$((checks + 1)); }

# crisp_growing FILES -- ARGS...: crisp ARGS with the shim growing FILES
# (':'-separated). A sanitizer build must accept the shim loaded first.
crisp_growing() {
  local files=$1; shift 2
  local preload="LD_PRELOAD=$shim"
  if [[ ${CRISP_TEST_WRAPPER:-} == *qemu-* ]]; then preload="QEMU_SET_ENV=LD_PRELOAD=$shim"; fi
  env "$preload" CRISP_GROW_FILES="$files" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    ${CRISP_TEST_WRAPPER:-} "$crisp_binary" "$@"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# make_files SIZE...: fresh files grow_SIZE of random bytes.
make_files() {
  for size in "$@"; do head -c "$size" /dev/urandom > "grow_$size"; done
}

# expect_final DESCRIPTION SIZES...: crisp's output names the final
# content of each grow_SIZE file, which must have grown.
expect_final() {
  local description=$1 status=$2; shift 2
  local expected
  expected=$("$reference" "${@/#/grow_}")
  for size in "$@"; do
    if [ "$(stat -c %s "grow_$size")" -le "$size" ]; then
      fail "$description: the shim never grew grow_$size (did crisp read it with read()?)"
      return
    fi
  done
  if [ "$status" != 0 ]; then
    fail "$description: exit status $status"
  elif ! cmp -s - "$work/out" <<<"$expected"; then
    fail "$description: crisp printed the sums of what the files held at open()"
    diff <(echo "$expected") "$work/out" | head -8
  else
    pass
  fi
}

sizes=(65536 131072 100000 1000)
for size in "${sizes[@]}"; do
  make_files "$size"
  crisp_growing "grow_$size" -- md5sum "grow_$size" > out; status=$?
  expect_final "one file of $size bytes" "$status" "$size"
done

# Side by side in the pool's lanes: several files open at once.
many=(65536 65537 131072 196608 4096 1 65535 262144)
make_files "${many[@]}"
crisp_growing "$(printf 'grow_%s:' "${many[@]}")" -- md5sum "${many[@]/#/grow_}" > out; status=$?
expect_final "eight files side by side" "$status" "${many[@]}"

# -c hashes through the same pool: the check must see the final content.
make_files 65536 131072
{ head -c 1000 /dev/zero | tr '\0' g | cat grow_65536 - | "$reference" | sed 's/-$/grow_65536/'
  head -c 1000 /dev/zero | tr '\0' g | cat grow_131072 - | "$reference" | sed 's/-$/grow_131072/'; } > sums
crisp_growing grow_65536:grow_131072 -- md5sum -c sums > out; status=$?
if [ "$status" = 0 ] && [ "$(cat out)" = $'grow_65536: OK\ngrow_131072: OK' ]; then pass; else
  fail "-c over growing files: exit status $status, output: $(tr '\n' ' ' < out)"
fi

echo "$checks checks passed, $failures failed"
[ $failures = 0 ]
