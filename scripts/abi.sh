#!/usr/bin/env bash
# scripts/abi.sh - the ABI guard: compares libcrisp.so's exported symbols (with
# their version), its SONAME and the public sizes, constants and enum values
# (scripts/abi/sizes.c) with the committed baseline scripts/abi/baseline.txt.
#
#   bash scripts/abi.sh [BUILD_DIR]            compare; exit 1 on any difference
#   bash scripts/abi.sh --update [BUILD_DIR]   rewrite the baseline from BUILD_DIR
#
# BUILD_DIR is a configured and built native build (default: build). Any
# change fails, an addition too: after an intended one (a new public
# function, a new kernel), run the --update command and commit the baseline.
# A removed or changed line breaks programs built against libcrisp.so.0.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
baseline=$root/scripts/abi/baseline.txt

update=0
build=$root/build
for arg in "$@"; do
  case "$arg" in
    --update) update=1 ;;
    -h | --help)
      sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "abi.sh: unknown option '$arg' (try --help)" >&2
      exit 2
      ;;
    *) build=$(cd "$arg" && pwd) ;;
  esac
done

library=$build/libcrisp.so
[ -f "$library" ] || {
  echo "abi.sh: $library not found (build first: meson compile -C $build)" >&2
  exit 2
}

# The current ABI, in the baseline's format.
current_abi() {
  echo "# crisp ABI baseline, compared by scripts/abi.sh (test stage 'abi')."
  echo "# After an intended change: bash scripts/abi.sh --update, then commit this file."
  readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/soname \1/p'
  # Defined dynamic symbols except the version definition itself (type A).
  nm -D --defined-only --with-symbol-versions "$library" | awk '$2 != "A" { print "symbol " $3 " " $2 }' | LC_ALL=C sort
  local probe
  probe=$(mktemp "${TMPDIR:-/tmp}/crisp-abi.XXXXXX")
  # Headers of this build: the source tree's and the generated crisp/version.h.
  cc -std=c11 -Wall -Wextra -Werror -I"$root/include" -I"$build/include" \
    -o "$probe" "$root/scripts/abi/sizes.c"
  "$probe"
  rm -f "$probe"
}

if [ "$update" -eq 1 ]; then
  current_abi >"$baseline"
  echo "abi: wrote $(grep -vc '^#' "$baseline") lines to ${baseline#$root/}"
  exit 0
fi

current=$(current_abi)
if differences=$(diff <(grep -v '^#' "$baseline") <(grep -v '^#' <<<"$current")); then
  echo "abi: libcrisp.so and the public headers match ${baseline#$root/} ($(grep -vc '^#' "$baseline") lines)"
  exit 0
fi
echo "abi: the ABI differs from ${baseline#$root/}:" >&2
sed -n 's/^< /  removed or changed: /p; s/^> /  added or changed:   /p' <<<"$differences" >&2
echo "If the change is intended: bash scripts/abi.sh --update, and commit the baseline." >&2
exit 1
