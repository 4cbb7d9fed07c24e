# test/md5sum_oracle.bash - what the tests that hold crisp md5sum against
# coreutils md5sum share: each situation runs under both, in turn, and its
# stdout, stderr and exit status are kept; oracle_finish compares them all
# at the end with one sed per side and one diff, so a situation costs two
# subshells and the programs it runs, not a dozen helper programs.
# Sourced by the test scripts after they set crisp_binary, reference, work
# (an empty scratch directory) and tree (where situations run). The only
# rewriting is the program name in messages ("crisp md5sum: " and "Try
# 'crisp md5sum --help'" read as coreutils' "md5sum: " and "Try 'md5sum
# --help'"); qemu's own warning lines are dropped.
# Environment: CRISP_TEST_WRAPPER (or meson's MESON_EXE_WRAPPER in a cross
# build) runs crisp through an emulator; CRISP_TEST_ONLY=REGEX runs only
# the situations whose description matches; CRISP_TEST_VERBOSE=1 names each.
# A script may set oracle_stride=N (and oracle_offset) to run only every
# Nth situation offered.

CRISP_TEST_WRAPPER=${CRISP_TEST_WRAPPER:-${MESON_EXE_WRAPPER:-}}
failures=0
checks=0
oracle_cases=0
oracle_offered=0
oracle_stride=${oracle_stride:-1}
oracle_offset=${oracle_offset:-0}
oracle_descriptions=()
oracle_compare_stdout=()
oracle_status_coreutils=()
oracle_status_crisp=()
mkdir -p "$work/coreutils" "$work/crisp" "$work/bin"
# Found through PATH, so that coreutils' argv[0] (its name in messages) is md5sum.
ln -s "$(realpath "$reference")" "$work/bin/md5sum"
PATH=$work/bin:$PATH

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# md5 ARGS...: the md5sum under test (set per side by same), killed after
# md5_timeout seconds when that is set.
md5() {
  if [ "$side" = crisp ]; then
    ${md5_timeout:+timeout $md5_timeout} ${CRISP_TEST_WRAPPER:-} "$crisp_binary" md5sum "$@"
  else
    ${md5_timeout:+timeout $md5_timeout} md5sum "$@"
  fi
}

# same DESCRIPTION [--joined] [--no-stdout] -- SNIPPET: runs the bash
# snippet (which calls md5) in the tree under coreutils, then under crisp;
# oracle_finish checks that they agree on stdout, stderr and exit status.
# --joined sends both streams to one file, as 2>&1 does (message order);
# --no-stdout leaves stdout out of the comparison.
same() {
  local description=$1 joined=0 compare_stdout=1
  shift
  while [ "$1" != -- ]; do
    case $1 in
      --joined) joined=1 ;;
      --no-stdout) compare_stdout=0 ;;
    esac
    shift
  done
  local snippet=$2
  [[ $description =~ ${CRISP_TEST_ONLY:-.} ]] || return 0
  oracle_offered=$((oracle_offered + 1))
  (((oracle_offered + oracle_offset) % oracle_stride == 0)) || return 0
  [ -n "${CRISP_TEST_VERBOSE:-}" ] && echo "# $description"
  local n=$oracle_cases
  oracle_cases=$((n + 1))
  oracle_descriptions[n]=$description
  oracle_compare_stdout[n]=$compare_stdout
  # A snippet that is one md5 command runs in this shell (saving a fork);
  # one that could change the shell's state runs in a subshell.
  local here=0
  [[ $snippet == 'md5 '* && $snippet != *[\;\|\(\`\$]* && $snippet != *'& '* ]] && here=1
  cd "$tree" || return
  for side in coreutils crisp; do
    local out=$work/$side/$n.out err=$work/$side/$n.err
    [ $compare_stdout = 1 ] || out=/dev/null
    if [ $here = 1 ] && [ $joined = 1 ]; then
      eval "$snippet" > "$out" 2>&1
    elif [ $here = 1 ]; then
      eval "$snippet" > "$out" 2> "$err"
    elif [ $joined = 1 ]; then
      (cd "$tree" && eval "$snippet") > "$out" 2>&1
    else
      (cd "$tree" && eval "$snippet") > "$out" 2> "$err"
    fi
    local status=$?
    if [ $side = crisp ]; then oracle_status_crisp[n]=$status; else oracle_status_coreutils[n]=$status; fi
  done
}

# Compares every situation run so far, counts checks and failures, and
# prints the differences of the first few that failed.
oracle_finish() {
  [ "$oracle_cases" = 0 ] && return
  local normalise=(-e '/^qemu-[a-z0-9_]*: /d')
  sed -i "${normalise[@]}" "$work/coreutils"/*
  sed -i "${normalise[@]}" -e "s/^crisp md5sum: /md5sum: /" \
    -e "s/^Try 'crisp md5sum --help'/Try 'md5sum --help'/" "$work/crisp"/*
  local -A differs=()
  local line shown=0
  while IFS= read -r line; do
    [[ $line =~ ^Files\ .*/coreutils/([0-9]+\.[a-z]+)\ and ]] && differs[${BASH_REMATCH[1]}]=1
    [[ $line =~ ^Only\ in\ .*/(coreutils|crisp):\ ([0-9]+\.[a-z]+)$ ]] && differs[${BASH_REMATCH[2]}]=1
  done < <(diff -rq "$work/coreutils" "$work/crisp")
  for ((n = 0; n < oracle_cases; n++)); do
    local what=
    if [ "${oracle_compare_stdout[n]}" = 1 ] && [ -n "${differs[$n.out]:-}" ]; then
      what=stdout
    elif [ -n "${differs[$n.err]:-}" ]; then
      what=stderr
    elif [ "${oracle_status_coreutils[n]}" != "${oracle_status_crisp[n]}" ]; then
      fail "${oracle_descriptions[n]}: exit status ${oracle_status_crisp[n]}, coreutils ${oracle_status_coreutils[n]}"
      continue
    else
      checks=$((checks + 1))
      continue
    fi
    fail "${oracle_descriptions[n]}: $what differs"
    shown=$((shown + 1))
    [ $shown -le 10 ] || continue
    if [ $what = stdout ]; then
      diff <(od -c "$work/coreutils/$n.out") <(od -c "$work/crisp/$n.out") | head -12
    else
      diff "$work/coreutils/$n.err" "$work/crisp/$n.err" | head -12
    fi
  done
}
