#!/bin/sh
# scripts/mca_model.sh - a cycle model of one kernel's main loop on CPUs we
# cannot run: disassembles FUNCTION from OBJECT (a built .o, or a shared
# library such as libcrypto.so.3 when its symbols are there), takes the
# loop whose backward conditional branch spans the most instructions, and
# runs llvm-mca on that body once per -mcpu, printing cycles per iteration.
# A model, not a measurement: it knows nothing of the caller, of caches or
# of the other loops of the function, and its latencies are LLVM's tables.
# Usage: scripts/mca_model.sh OBJECT FUNCTION [MCPU...]
#   e.g. scripts/mca_model.sh build/src/x86/libcrisp_x86_avx512.a.p/md5_avx512.c.o \
#          crisp_md5_avx512 znver4 icelake-server
# FUNCTION may instead be a range of addresses, START-END in hex as objdump
# prints them (a stripped library's local functions have no name): the loop
# is then the instructions from START up to the jump at END.
# Default CPUs: znver4 znver3 icelake-server sapphirerapids (those without
# the loop's instruction sets say so). Needs objdump and llvm-mca (Debian:
# apt-get install llvm-16; LLVM_MCA names another binary).
set -eu
[ $# -ge 2 ] || { echo "usage: mca_model.sh OBJECT FUNCTION [MCPU...]" >&2; exit 2; }
object=$1
function=$2
shift 2
[ $# -gt 0 ] || set -- znver4 znver3 icelake-server sapphirerapids
mca=${LLVM_MCA:-$(command -v llvm-mca-16 || command -v llvm-mca || true)}
[ -n "$mca" ] || { echo "mca_model.sh: llvm-mca not found (apt-get install llvm-16)" >&2; exit 1; }
body=$(mktemp)
trap 'rm -f "$body"' EXIT
# One line per instruction: address, then the instruction without its
# bytes, symbol annotations or comments.
start='' end=''
case $function in
*[!0-9a-f-]* | -* | *- | *-*-*) ;;
*-*) start=${function%-*} end=${function#*-} ;;
esac
objdump -d --no-show-raw-insn ${start:+--start-address=0x$start --stop-address=0x$end} "$object" |
  awk -v name="<$function>:" -v range="$start" '
    range != "" && /^ *[0-9a-f]+:\t/ { inside = 1 }
    $2 == name { inside = 1; next }
    inside && /^$/ { exit }
    inside && /^ *[0-9a-f]+:\t/ {
      split($0, part, "\t"); address = part[1]; sub(/^ */, "", address); sub(/:$/, "", address)
      text = part[2]; sub(/ *#.*$/, "", text); sub(/ *<[^>]*>$/, "", text)
      print address "\t" text
    }' > "$body"
[ -s "$body" ] || { echo "mca_model.sh: no function $function in $object" >&2; exit 1; }
loop=$(mktemp)
trap 'rm -f "$body" "$loop"' EXIT
if [ -n "$start" ]; then
  cut -f 2 "$body" > "$loop"
else
  # The longest loop: a conditional jump (not jmp) back to an address in the
  # function; its body is the target up to, not including, the jump.
  awk -F '\t' '
    function hex(s,   n, i) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
    { address[NR] = hex($1); text[NR] = $2; line_of[address[NR]] = NR }
    END {
      best = 0
      for (i = 1; i <= NR; i++) {
        if (text[i] !~ /^j/ || text[i] ~ /^jmp/) continue
        n = split(text[i], word, " "); target = hex(word[n])
        if (target >= address[i] || !(target in line_of)) continue
        if (i - line_of[target] > best) { best = i - line_of[target]; first = line_of[target]; last = i - 1 }
      }
      if (!best) exit 1
      for (i = first; i <= last; i++) print text[i]
    }' "$body" > "$loop" || { echo "mca_model.sh: no loop in $function" >&2; exit 1; }
fi
echo "$function: $(wc -l < "$loop") instructions a loop iteration ($("$mca" --version | sed -n 's/.*LLVM version /LLVM /p'))"
for cpu in "$@"; do
  cycles=$("$mca" -mcpu="$cpu" -iterations=100 "$loop" 2>&1 | sed -n 's/^Total Cycles: *//p')
  if [ -n "$cycles" ]; then
    echo "  -mcpu=$cpu: $(awk -v c="$cycles" 'BEGIN { printf "%.1f", c / 100 }') cycles an iteration"
  else
    echo "  -mcpu=$cpu: no model for these instructions"
  fi
done
