#!/usr/bin/env bash
# scripts/check_mutants.sh - every mutant still applies to the tree.
#
#   bash scripts/check_mutants.sh            the mutants in test/mutants/
#   bash scripts/check_mutants.sh DIR        those in DIR
#
# A mutant whose code has changed under it no longer applies, and the
# mutation check (scripts/mutate.sh) can then only report it, never kill
# it: a test that cannot fail. This runs `git apply --check` on each patch
# against the working tree as it is (nothing is written, no build is
# needed), so a change that breaks a mutant fails at once, naming the
# mutant and the file it patches. Each patch must also say what its bug is
# in the lines before its first "diff --git" (that is what a rewrite
# follows). The exit status is non-zero when any mutant fails.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mutants_dir=${1:-$root/test/mutants}

mapfile -t mutants < <(find "$mutants_dir" -maxdepth 1 -name '*.patch' | sort)
[ "${#mutants[@]}" -gt 0 ] || {
  echo "check_mutants.sh: no mutants in $mutants_dir" >&2
  exit 2
}

bad=0
for patch in "${mutants[@]}"; do
  name=$(basename "$patch" .patch)
  files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$patch" | paste -sd' ' -)
  if [ -z "$files" ]; then
    echo "mutant $name: no \"diff --git\" in $patch" >&2
    bad=$((bad + 1))
    continue
  fi
  if [ -z "$(sed -n '/^diff --git/q; /[^[:space:]]/p' "$patch")" ]; then
    echo "mutant $name ($files): no description before its first \"diff --git\"" >&2
    bad=$((bad + 1))
  fi
  # From the root, outside any index: the files as they are on disk.
  if ! errors=$(cd "$root" && git apply --check "$patch" 2>&1); then
    failed=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist.*/\1/p' <<<"$errors" |
      sort -u | paste -sd' ' -)
    echo "mutant $name no longer applies to ${failed:-$files}:" >&2
    sed 's/^/    /' <<<"$errors" >&2
    echo "    rewrite test/mutants/$name.patch to plant the same bug in the code as it is" >&2
    echo "    (its first lines say what the bug is; git log -p -- ${failed:-$files}), or drop it" >&2
    bad=$((bad + 1))
  fi
done

echo "    ${#mutants[@]} mutants, $bad failing"
[ "$bad" -eq 0 ]
