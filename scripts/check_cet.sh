#!/usr/bin/env bash
# scripts/check_cet.sh - checks objects assembled from crisp's .S
# files for CET (the `cet` stage of scripts/test.sh runs it):
#
#   bash scripts/check_cet.sh OBJECT.o...
#
# For each object: the GNU property note names IBT and SHSTK; every global
# function starts with ENDBR64; and every indirect-jump target starts with
# ENDBR64. The .S files reach those targets in one way only (ROW_TARGET in
# src/x86/bn_rows_x86.inc): a RIP-relative LEA of a table of 8 landing
# pads, 16 bytes apart, so each LEA target in .text must be followed by 8
# ENDBR64 at that stride. Prints one line per object; exits 1 on a failure.
set -uo pipefail

pads=8 pad_stride=16
status=0
for object in "$@"; do
  problems=()
  if ! readelf -n "$object" | grep -Eq 'x86 feature: IBT, SHSTK'; then
    problems+=("no IBT + SHSTK property note")
  fi
  # address -> mnemonic of every instruction, and the .text targets of
  # RIP-relative LEAs ("lea 0x..(%rip),%reg  # 100 <name+0x100>").
  listing=$(objdump -d --no-show-raw-insn -j .text "$object" | awk -F'\t' '
    /^ *[0-9a-f]+:\t/ {
      address = $1; sub(/^ */, "", address); sub(/:$/, "", address)
      split($2, words, " ")
      print "insn", address, words[1]
      if (words[1] == "lea" && $2 ~ /\(%rip\)/ && match($2, /# [0-9a-f]+ </)) {
        print "lea", substr($2, RSTART + 2, RLENGTH - 4)
      }
    }')
  declare -A mnemonic=()
  while read -r kind address word; do
    if [ "$kind" = insn ]; then mnemonic[$((16#$address))]=$word; fi
  done <<<"$listing"
  entries=0
  while read -r address name; do
    entries=$((entries + 1))
    [ "${mnemonic[$((16#$address))]:-}" = endbr64 ] || problems+=("function $name lacks ENDBR64")
  done < <(nm --defined-only "$object" | awk '$2 == "T" { print $1, $3 }')
  targets=0
  while read -r kind address; do
    [ "$kind" = lea ] || continue
    for ((pad = 0; pad < pads; pad++)); do
      targets=$((targets + 1))
      target=$((16#$address + pad * pad_stride))
      [ "${mnemonic[$target]:-}" = endbr64 ] ||
        problems+=("$(printf 'jump target 0x%x (pad %d of the table at 0x%s) lacks ENDBR64' "$target" "$pad" "$address")")
    done
  done <<<"$listing"
  unset mnemonic
  if [ "${#problems[@]}" -eq 0 ]; then
    echo "    ok: $(basename "$object"): IBT + SHSTK, $entries entries and $targets jump targets with ENDBR64"
  else
    status=1
    echo "    FAIL: $(basename "$object"):" >&2
    printf '      %s\n' "${problems[@]}" >&2
  fi
done
exit "$status"
