#!/usr/bin/env bash
# handout.sh OUTDIR: writes the course without its answers into OUTDIR (new, or empty), for an
# instructor to hand out: the committed tree (git archive HEAD: no history, nothing uncommitted),
# with each chapter's solution.cu replaced by its exercise.cu stub. The programs that link
# solution.cu (06, 07, 08: their NAME_exercise variants) still build. The learner writes
# exercise.cu and grades it with scripts/grade.sh; the NN_topic.solution tests grade the stubs
# and fail. It says what it removed, then proves that no file of OUTDIR equals a committed
# solution.cu.
# Exit 0 when the handout holds no solution, 1 when it does (or git fails), 2 usage error.
set -uo pipefail
if [ $# -ne 1 ] || [ "${1:0:1}" = "-" ]; then
  echo "usage: scripts/handout.sh OUTDIR" >&2
  exit 2
fi
out=$1
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo "handout.sh: $out exists and is not empty: give a new folder" >&2
  echo "usage: scripts/handout.sh OUTDIR" >&2
  exit 2
fi
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
cd "$(dirname "$0")/.."
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$PWD" ] ||
  ! git rev-parse -q --verify HEAD >/dev/null; then
  echo "handout.sh: $PWD is not a git checkout with a commit"
  exit 1
fi
git archive HEAD | tar -x -C "$out" || exit 1

# The committed solutions: path and blob id, one a line.
mapfile -t solutions < <(git ls-tree -r HEAD |
  sed -n 's/^[0-9]* blob \([0-9a-f]*\)\t\(.*\/solution\.cu\)$/\2 \1/p')
[ ${#solutions[@]} -gt 0 ] || { echo "handout.sh: no solution.cu in HEAD"; exit 1; }
for s in "${solutions[@]}"; do
  f=${s% *}
  [ -f "$out/${f%/*}/exercise.cu" ] ||
    { echo "handout.sh: $f has no exercise.cu beside it"; exit 1; }
  cp "$out/${f%/*}/exercise.cu" "$out/$f"
  echo "removed $f (now a copy of ${f%/*}/exercise.cu)"
done

# No file of the handout may equal a committed solution.cu, wherever it lies: their blob ids.
# (Absolute paths: inside a checkout, git hash-object --stdin-paths takes a relative one from its
# top.)
mapfile -t files < <(find "$out" -type f | sort)
left=$(printf '%s\n' "${files[@]}" | git hash-object --stdin-paths --no-filters |
  paste -d ' ' - <(printf '%s\n' "${files[@]#"$out"/}") |
  awk 'NR == FNR { solution[$1]; next } $1 in solution { print "    " $2 }' \
    <(printf '%s\n' "${solutions[@]#* }") -)
if [ -n "$left" ]; then
  echo "handout.sh: these files of $out equal a solution.cu:"
  echo "$left"
  exit 1
fi
echo "handout in $out: ${#files[@]} files, none of them equal to any of the" \
  "${#solutions[@]} solution.cu files"
echo "in the handout, each chapter's .solution tests and its _exercise variants run the learner's"
echo "code (the stub until answered: they fail until then; grade with scripts/grade.sh). The"
echo "lessons' own kernels stay: 06's kernel 3 and 07's kernel 6 show the techniques their"
echo "exercises ask for, as a chapter's reference must."
