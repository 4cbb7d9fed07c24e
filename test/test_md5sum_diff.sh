#!/bin/bash
# test/test_md5sum_diff.sh - crisp md5sum against coreutils md5sum, the
# oracle: every situation below runs under both, and stdout, stderr and the
# exit status must be the same bytes. The only rewriting is the program
# name in messages ("crisp md5sum: " and "Try 'crisp md5sum --help'" read as
# coreutils' "md5sum: " and "Try 'md5sum --help'"); qemu's own warning
# lines are dropped. Situations: pipes, FIFOs and stdin named twice, closed
# stdin / stdout / stderr, descriptor limits and ~1,000 inherited
# descriptors, usage errors and abbreviations, names that need quoting (in
# C.UTF-8 and C), random names from a seed, -c over lists written by
# coreutils in every mode, the check options, and stdout and stderr sharing
# one file (message order). --help and --version differ on purpose: only
# their exit status and stderr are compared. How the check options combine
# is test_md5sum_check_options.sh's part.
# Usage: test_md5sum_diff.sh PATH-TO-CRISP. Environment: see
# md5sum_oracle.bash; CRISP_TEST_SEED=N replays the random names.
set -u
crisp_binary=$(realpath "${1:?usage: test_md5sum_diff.sh PATH-TO-CRISP}")
reference=${CRISP_TEST_REFERENCE:-/usr/bin/md5sum}
if ! "$reference" --version 2> /dev/null | grep -q 'GNU coreutils'; then
  echo "no coreutils md5sum at $reference: skipped"
  exit 77
fi
seed=${CRISP_TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "# seed $seed"
export LC_ALL=C.UTF-8

work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2> /dev/null; rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree" "$work/void"
. "$(dirname "${BASH_SOURCE[0]}")/md5sum_oracle.bash"

cd "$tree" || exit 1

# ---- the tree: awkward names, sizes around block and buffer boundaries.
awkward=('a:b' 'a=b' '^caret' '~tilde' 'x~' '#hash' 'x#y' '{' '}' 'a{b}' "it's" "it's b" "it's:"
  "it's=" '"dq"' $'new\nline' $'car\rret' 'back\slash' $'two\\\nmix' $'tab\there' $'bell\a' $'esc\e[31mRED'
  $'\x7f' $'\xe9' 'é' $'\xc3' $'\xc3x' $'zw\u200b' ' lead' 'trail ' '*star' 'paren)' 'MD5 (x) = y' '('
  'a?b' '!bang' '$dollar' 'semi;colon' '[br]' 'pipe|' 'back`tick' 'amp&' 'lt<gt>' 'star*' '@at' '%pct'
  '-dash' 'plain.txt' "$(printf 'x%.0s' $(seq 250))")
for name in "${awkward[@]}"; do printf '%s' "$name" > "./$name"; done
: > empty
mkdir many directory random
# Contents of every size that matters, and random names (bytes from shell
# specials, controls, UTF-8 and stray high bytes) made from the seed, all
# from one program.
python3 - "$seed" "$work/random_names" << 'EOF'
import os, random, sys
def write(name, content):
    with open(name, "wb") as out:
        out.write(content)
write("big", os.urandom(1000000))
for size in (1, 55, 56, 63, 64, 65, 4095, 4096, 65535, 65536, 65537, 131073):
    write("size_%d" % size, os.urandom(size))
for i in range(1, 151):
    write("many/f%d" % i, os.urandom((i * 7919) % 70000))
write("small", os.urandom(3000))
write("small2", os.urandom(5000))
rng = random.Random(int(sys.argv[1]))
pieces = [bytes([c]) for c in b" !\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~\t\n\r\a\b\f\v\x01\x1b\x7faZ09"]
pieces += [b"\xe9", b"\xc3", b"\xc3\xa9", b"\xe2\x82\xac", b"\xe2\x80\x8b", b"\xf0\x9f\x98\x80", b"\xc2\x85", b"\xff",
           b"\xe2\x82", b"\xcc\x81"]
with open(sys.argv[2], "wb") as names:
    for _ in range(300):
        name = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        if name in (b"-", b".", b".."):
            name += b"x"
        name = name.replace(b"/", b"_")
        write(b"random/" + name, name)
        names.write(name + b"\0")
EOF
mkfifo fifo
export awkward_list
awkward_list=$(printf '%q ' "${awkward[@]}")

# ---- plain sums in every output mode, over awkward names.
for mode in "" -b -t --tag -z "--tag -z" "-t --tag"; do
  same "sums $mode" -- "md5 $mode -- $awkward_list empty big size_* many/f1"
done
same "directory, missing and unreadable among files" -- "md5 big directory no-such /proc/self/mem small"
same "sums and errors in one file" --joined -- "md5 many/f1 many/f2 directory many/f3 no-such many/* /proc/self/mem small"
for locale in C.UTF-8 C; do
  same "missing awkward names, LC_ALL=$locale" -- "cd ../void && LC_ALL=$locale md5 -- $awkward_list ''"
done

# ---- the random names, missing and present, in both locales.
for locale in C.UTF-8 C; do
  same "random missing names, LC_ALL=$locale" -- \
    "cd ../void && mapfile -d '' names < '$work/random_names' && LC_ALL=$locale md5 -- \"\${names[@]}\""
  same "random names, LC_ALL=$locale" -- \
    "cd random && mapfile -d '' names < '$work/random_names' && LC_ALL=$locale md5 -- \"\${names[@]}\""
done

# ---- usage: errors exit 1 with coreutils' words; --help and --version.
for args in --bogus -x --tag=1 --quiet=1 --help=x --binary=x --version=2 --check=1 --s --t --st --sta --stat \
  "-c --tag" "-c -z" "-c -b" "-c -t" "--tag -t" "-t --tag" "-z -c --tag" --status --quiet --warn --strict \
  --ignore-missing "--status --warn" "-c --tag -z" "-bt -z" "--ta" "--te big" "--bin big" "--z big" "--" "-" \
  "-- -dash" "--ignore big"; do
  same "usage: md5sum $args" -- "md5 $args < small"
done
same "--help" --no-stdout -- "md5 --help"
same "--version" --no-stdout -- "md5 --version"
same "--help after an error" -- "md5 --bogus --help"

# ---- wrong results once: pipes, FIFOs and stdin read by one reader, in turn.
same "a pipe as /dev/stdin then -" -- "cat big | md5 /dev/stdin -"
same "a pipe as - then /dev/stdin" -- "cat big | md5 - /dev/stdin"
same "a pipe as - twice" -- "cat big | md5 - - big"
same "a pipe as /dev/fd/0 twice among files" -- "cat big | md5 small /dev/fd/0 small2 /dev/fd/0 many/f3"
same "a regular stdin as /dev/stdin and -" -- "md5 /dev/stdin - /dev/stdin - < big"
same "a regular stdin read from an offset" -- "(head -c 1000 > /dev/null; md5 - /dev/stdin) < big"
same "a FIFO named twice" -- "timeout 20 sh -c 'cat small > fifo; sleep 0.3; cat small2 > fifo' & md5_timeout=20 md5 fifo fifo small; wait"
same "a FIFO among many files" -- "timeout 20 sh -c 'cat big > fifo' & md5_timeout=20 md5 many/* fifo many/f1; wait"
same "/proc files" -- "md5 /proc/sys/kernel/ostype /dev/null /proc/version /proc/version"
same "stdin closed: file then -" -- "md5 big - <&-"
same "stdin closed: - then file" -- "md5 - big <&-"
same "stdin closed: no file" -- "md5 <&-"
same "stdin closed: names that lead to it" -- "md5 /dev/stdin big /dev/fd/0 /proc/self/fd/0 /dev/null - <&-"
same "stdout closed: names that lead to it" -- "md5 /dev/stdout /dev/fd/1 big >&-"
same "stdin closed: a list that leads to it" -- "md5 -c /dev/stdin <&-"
same "stdin closed: many files then - twice" -- "md5 many/* - small - <&-"
"$reference" big small > ../list2
"$reference" many/* > ../list
same "stdin closed: -c list from a file" -- "md5 -c ../list2 <&-"
same "stdin closed: -c from stdin" -- "md5 -c <&-"
same "stdin closed: -c - -" -- "md5 -c - - <&-"
same "stdout closed" -- "md5 big >&-"
same "stdout closed, no output" -- "md5 no-such >&-"
same "stdout full" -- "md5 big > /dev/full"
same "stdout full, many lines" -- "md5 many/* > /dev/full"
same "stdout closed, -c" -- "md5 -c ../list2 >&-"
same "stdout full, -z" -- "md5 -z big small > /dev/full"
same "stderr closed" -- "md5 big no-such 2>&-"
for limit in 8 6 5; do
  same "ulimit -n $limit" -- "ulimit -n $limit && md5 many/* big - small < small2"
done
same "ulimit -n 6, -c" -- "ulimit -n 6 && md5 -c ../list"
same "ulimit -n 6, -c from stdin" -- "ulimit -n 6 && md5 -c < ../list"
same "1,000 inherited descriptors" -- \
  "ulimit -n 1024 && for fd in \$(seq 10 1009); do eval \"exec \$fd< small\"; done; md5 many/* big"
same "1,010 inherited descriptors, -c" -- \
  "ulimit -n 1024 && for fd in \$(seq 10 1019); do eval \"exec \$fd< small\"; done; md5 -c ../list"

# ---- -c over lists written by coreutils itself, in every mode.
for mode in "" -b -t --tag "-z"; do
  list=../list$(echo "$mode" | tr -d ' -')
  "$reference" $mode -- "${awkward[@]}" empty big many/f7 > "$list"
  same "check a list written with '$mode'" -- "md5 -c $list"
  same "check a list written with '$mode', from stdin" -- "md5 -c < $list"
done
"$reference" -- "${awkward[@]}" big size_* many/* > ../sums
"$reference" --tag -- "${awkward[@]}" > ../tagged
cp ../sums ../sums.orig
cp -r "$tree" "$work/tree.orig"
printf 'x' >> size_4096; printf 'y' >> 'paren)'; printf 'z' >> $'new\nline'; rm 'a=b' "it's" many/f9
same "check: corrupted and missing files" -- "md5 -c ../sums"
same "check: corrupted and missing files, joined" --joined -- "md5 -c ../sums"
same "check: tags, corrupted and missing, joined" --joined -- "md5 -c ../tagged"
for option in --quiet --status --strict -w --warn --ignore-missing "--quiet --ignore-missing" "--status -w" \
  "-w --status" "--strict --quiet" "--ignore-missing --status"; do
  same "check $option" --joined -- "md5 -c $option ../sums"
done
{ printf 'garbage\n#comment\n\n'; head -3 ../sums.orig; printf 'bad line\r\n'; tail -2 ../sums.orig
  printf '%s\n' "$(cat ../sums.orig | head -1 | cut -c1-32) one-space-form" "  $(head -1 ../sums.orig)"
  printf 'MD5 (no-such) = %s\n' "$(printf %032d 0)"; printf 'MD5(big) = %s\n' "$("$reference" < big | cut -c1-32)"
  printf 'MD5 (big)= %s\r\n' "$("$reference" < big | cut -c1-32)"; printf '\\%s  \\\\x\n' "$(printf %032d 0)"
  printf '%s  directory\n%s  /proc/self/mem\n' "$(printf %032d 0)" "$(printf %032d 0)"; } > ../messy
for option in "" -w --strict "--strict -w" --quiet --status --ignore-missing; do
  same "check a messy list $option" --joined -- "md5 -c $option ../messy"
  same "check a messy list $option, apart" -- "md5 -c $option ../messy"
done
{ printf 'MD5 (a)b) = %s\n' "$(printf 'x' | "$reference" | cut -c1-32)"
  printf 'MD5 (a) b ) = %s\n' "$(printf 'y' | "$reference" | cut -c1-32)"; } > ../parens
printf 'x' > 'a)b'; printf 'y' > 'a) b '
same "check BSD tags with ) in names" -- "md5 -c ../parens"
"$reference" big small | sed 's/  / /' > ../onespace
same "check the one-space form" -- "md5 -c ../onespace"
printf '%s  -\n' "$("$reference" < big | cut -c1-32)" > ../dash
same "check a line naming -" -- "md5 -c ../dash < big"
same "check a line naming -, list from stdin" -- "md5 -c - < ../dash"
same "check a line naming -, stdin a pipe" -- "cat big | md5 -c ../dash ../dash"
same "check lists: missing, directory, empty, comments only" --joined -- \
  "printf '#x\n' > ../comments; md5 -c ../no-such directory empty ../comments"
same "check with every file missing, --ignore-missing" --joined -- "md5 -c --ignore-missing ../tagged"
same "check a list on a pipe, joined" --joined -- "cat ../sums | md5 -c"
same "check two lists, joined" --joined -- "md5 -c ../messy ../sums"
rm many/f10 many/f20
same "check many lines, joined" --joined -- "md5 -c -w ../list ../messy"
rm -rf "$tree"; mv "$work/tree.orig" "$tree"; cd "$tree" || exit 1

# ---- -c prints each result when its line's file is hashed: a list that
# arrives slowly on a pipe gets the first line's message (a missing file:
# stderr is not buffered) before the second line is written.
slow_list() {
  local out=$work/slow.err
  : > "$out"
  rm -f "$work/slow.ok"
  {
    printf '%s  no-such-file\n' "$(printf %032d 0)"
    for _ in $(seq 1 200); do
      if grep -q 'no-such-file' "$out"; then : > "$work/slow.ok"; break; fi
      sleep 0.05
    done
    "$reference" small
  } | ${CRISP_TEST_WRAPPER:-} "$crisp_binary" md5sum -c > /dev/null 2> "$out"
  [ -e "$work/slow.ok" ]
}
if [[ ! "-c on a slow pipe" =~ ${CRISP_TEST_ONLY:-.} ]]; then :
elif slow_list; then checks=$((checks + 1)); else fail "-c on a slow pipe waited for more lines before reporting"; fi

oracle_finish
echo "$checks checks passed, $failures failed"
[ $failures = 0 ]
