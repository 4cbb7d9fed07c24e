#!/bin/bash
# test/test_md5sum_check_options.sh - crisp md5sum -c obeys the five check
# options as coreutils md5sum does, the oracle: stdout, stderr and exit
# status must be the same bytes. --status, --quiet and --warn override each
# other (the last one given wins), --strict and --ignore-missing add to
# them; the options run in every order of up to three, with repeats of the
# three that override, and in longer orders drawn from a seed. Check lists
# hold good lines, mismatches, improperly formatted lines, missing files
# (which only --ignore-missing may hide) and files that fail to open or read
# for other reasons (a directory, a path through a regular file, a
# permission denied, a symlink loop, a name too long). Several lists in one
# run, where an earlier one fails, must give coreutils' exit status; lists
# also come from standard input ('-').
# Usage: test_md5sum_check_options.sh PATH-TO-CRISP. Environment: see
# md5sum_oracle.bash; CRISP_TEST_SEED=N replays the longer orders;
# CRISP_TEST_SCALE below 1 runs a share of the situations.
set -u
crisp_binary=$(realpath "${1:?usage: test_md5sum_check_options.sh PATH-TO-CRISP}")
reference=${CRISP_TEST_REFERENCE:-/usr/bin/md5sum}
if ! "$reference" --version 2> /dev/null | grep -q 'GNU coreutils'; then
  echo "no coreutils md5sum at $reference: skipped"
  exit 77
fi
# Root opens a mode 000 file: to see "Permission denied", the test runs
# itself again without the capabilities that override file permissions.
no_override=(setpriv --bounding-set=-dac_override,-dac_read_search)
if [ "$(id -u)" = 0 ] && [ -z "${CRISP_TEST_NO_OVERRIDE:-}" ] && "${no_override[@]}" true 2> /dev/null; then
  CRISP_TEST_NO_OVERRIDE=1 exec "${no_override[@]}" bash "${BASH_SOURCE[0]}" "$@"
fi
seed=${CRISP_TEST_SEED:-$(((RANDOM << 15) | RANDOM))}
echo "# seed $seed"
export LC_ALL=C.UTF-8

# The options are parsed and applied by code that is the same at every
# CPU: under an emulator (CRISP_TEST_SCALE below 1, for the kernels that
# hash the files) one situation in 1/SCALE runs, a share that the seed picks.
oracle_stride=$(awk -v scale="${CRISP_TEST_SCALE:-1}" 'BEGIN { print (scale > 0 && scale < 1) ? int(1 / scale + 0.5) : 1 }')
oracle_offset=$((seed % oracle_stride))

work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2> /dev/null; rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree/lists"
. "$(dirname "${BASH_SOURCE[0]}")/md5sum_oracle.bash"
cd "$tree" || exit 1

# ---- the files the lists name, and the lists.
printf one > one
printf two > two
printf 'new\nline' > $'new\nline'
printf 'now different' > changed
mkdir directory
ln -s loop loop
ln -s nowhere dangling
printf locked > locked
chmod 000 locked
long=$(printf 'n%.0s' {1..300})
sums=$(md5sum one two $'new\nline')
good_one=$(sed -n 1p <<< "$sums")
good_two=$(sed -n 2p <<< "$sums")
good_escaped=$(sed -n 3p <<< "$sums")
wrong=0123456789abcdef0123456789abcdef
line() { printf '%s  %s\n' "$wrong" "$1"; }
garbage='not a checksum line'
skipped=0
if cat locked > /dev/null 2>&1; then
  echo "# skipped: the permission-denied lists (file permissions are overridden here)"
  skipped=1
fi

printf '%s\n' "$good_one" "$good_two" "$good_escaped" > lists/good
printf '%s\n' "$good_one" "$(line changed)" "$good_two" > lists/mismatch
# Blank, comment and carriage-return-only lines are skipped, not counted.
printf '%s\n' "$good_one" "$garbage" '' '#comment' $'\r' '   ' "$good_two"$'\r' "$(md5sum --tag two)" > lists/malformed
printf '%s\n' "$garbage" '#comment' '' "$wrong" > lists/no-lines
printf '%s\n' "$good_one" "$(line absent)" > lists/missing
printf '%s\n' "$(line absent)" "$(line dangling)" "$(line nodir/absent)" > lists/all-missing
printf '%s\n' "$good_one" "$(line dangling)" "$(line nodir/absent)" "$good_two" > lists/missing-among-good
printf '%s\n' "$good_one" "$(line directory)" > lists/directory
printf '%s\n' "$good_one" "$(line one/x)" > lists/not-directory
printf '%s\n' "$good_one" "$(line loop)" > lists/loop
printf '%s\n' "$good_one" "$(line "$long")" > lists/too-long
printf '%s\n' "$good_one" "$(line locked)" > lists/denied
printf '%s\n' "$good_one" "$(line changed)" "$garbage" "$(line absent)" "$(line directory)" "$(line one/x)" \
  "$(line loop)" "$(line "$long")" "\\$(line 'new\nline')" "$good_escaped" "$(line dangling)" "$good_two" \
  "\\$(line 'absent\nname')" "$(line "it's absent")" > lists/mixed
[ $skipped = 1 ] || line locked >> lists/mixed
# One OK line, one improperly formatted, one missing file: exit status 0
# only with --ignore-missing and without --strict.
printf '%s\n' "$good_one" "$garbage" "$(line absent)" > lists/probe
printf '%s  -\n' "$(md5sum < one | cut -c1-32)" > lists/dash
# Lists whose exit status may depend on the options, and lists of one OK
# line and one file that can never be read.
lists=(good mismatch malformed no-lines all-missing missing-among-good mixed)
unreadable=(directory not-directory loop too-long)
[ $skipped = 1 ] || unreadable+=(denied)
: > lists/empty

# ---- every combination of the options, in one order, over every list.
modes=("" --status --quiet --warn)
states=()
for mode in "${modes[@]}"; do
  for strict in "" --strict; do
    for ignore in "" --ignore-missing; do states+=("$strict $ignore $mode"); done
  done
done
for list in "${lists[@]}"; do
  for state in "${states[@]}"; do same "-c $state lists/$list" -- "md5 -c $state lists/$list"; done
done
for state in "${states[@]}"; do
  same "-c $state lists/mixed, joined" --joined -- "md5 -c $state lists/mixed"
  same "-c $state, lists of unreadable files" -- "md5 -c $state ${unreadable[*]/#/lists/}"
done
# Alone, where --ignore-missing must not make them pass.
for list in "${unreadable[@]}"; do
  for state in --ignore-missing "--status --ignore-missing"; do
    same "-c $state lists/$list" -- "md5 -c $state lists/$list"
  done
done

# ---- the options in every order: all sequences of up to three different
# ones, every sequence of three of the overriding ones (repeats too), and
# longer sequences drawn from the seed.
options=(--status --quiet -w --strict --ignore-missing)
orders=()
for a in "${options[@]}"; do
  orders+=("$a")
  for b in "${options[@]}"; do
    [ "$b" = "$a" ] && continue
    orders+=("$a $b")
    for c in "${options[@]}"; do
      [ "$c" = "$a" ] || [ "$c" = "$b" ] || orders+=("$a $b $c")
    done
  done
done
overriding=(--status --quiet --warn)
for a in "${overriding[@]}"; do
  for b in "${overriding[@]}"; do
    for c in "${overriding[@]}"; do
      [ "$a" = "$b" ] || [ "$b" = "$c" ] || [ "$a" = "$c" ] || continue
      orders+=("$a $b $c")
    done
  done
done
RANDOM=$seed
for _ in {1..12}; do
  order=
  for ((i = 4 + RANDOM % 4; i > 0; i--)); do order+=" ${options[RANDOM % 5]}"; done
  orders+=("$order")
done
for order in "${orders[@]}"; do
  same "-c $order lists/probe" -- "md5 -c $order lists/probe"
done
same "options before -c" -- "md5 --status --quiet -c --strict lists/probe"
same "options after the lists" -- "md5 -c lists/probe lists/malformed --ignore-missing -w --quiet"
same "options between the lists" -- "md5 -c lists/probe --status lists/malformed --quiet"

# ---- several lists, a failing one before or after one that passes: the
# exit status is 1 when any list fails. Lists that cannot be opened or read
# (missing, a directory, through a file, a loop, denied) count too.
failing=(lists/{mismatch,malformed,no-lines,missing,all-missing,directory,not-directory,loop,too-long,empty}
  absent-list . one/x loop)
[ $skipped = 1 ] || failing+=(lists/denied locked)
for list in "${failing[@]}"; do
  same "-c $list lists/good" -- "md5 -c $list lists/good"
  same "-c lists/good $list" -- "md5 -c lists/good $list"
  same "-c --status --strict --ignore-missing $list lists/good" -- \
    "md5 -c --status --strict --ignore-missing $list lists/good"
  same "-c --ignore-missing --quiet lists/good $list" -- "md5 -c --ignore-missing --quiet lists/good $list"
done
same "-c three lists, the middle one failing" -- "md5 -c lists/good lists/mismatch lists/missing-among-good"
same "-c --ignore-missing, every list missing" -- "md5 -c --ignore-missing lists/all-missing lists/all-missing"
same "-c --ignore-missing, the last list all missing" -- \
  "md5 -c --ignore-missing lists/missing-among-good lists/all-missing"

# ---- standard input: as the only list, among lists, twice, and a list
# whose line names '-' (improperly formatted when the list is stdin).
for state in "" --status "-w --strict" "--ignore-missing --quiet"; do
  same "-c $state, list on stdin" -- "md5 -c $state < lists/mixed"
  same "-c $state -, list on stdin" -- "md5 -c $state - < lists/probe"
  same "-c $state with stdin among lists" -- "md5 -c $state lists/good - lists/malformed < lists/missing"
  same "-c $state with a failing stdin first" -- "md5 -c $state - lists/good < lists/no-lines"
  same "-c $state - twice" -- "md5 -c $state - - < lists/good"
  same "-c $state a line naming -" -- "md5 -c $state lists/dash < one"
  same "-c $state a line naming -, list on stdin" -- "md5 -c $state - < lists/dash"
  same "-c $state stdin closed" -- "md5 -c $state lists/good - <&-"
  same "-c $state stdin a directory" -- "md5 -c $state - lists/good < directory"
done
same "-c stdin among lists, joined" --joined -- "md5 -c -w lists/mixed - lists/probe < lists/malformed"

oracle_finish
echo "$checks checks passed, $failures failed"
[ $failures = 0 ]
