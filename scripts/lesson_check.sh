#!/usr/bin/env bash
# lesson_check.sh [ROOT]: the lessons' rules (CONTRIBUTING.md, "The lesson"), checked on the
# top README and every chapter's README.md:
#   - budgets by `wc -w`: the top README at most 1500 words; a lesson at most 3000, and so each
#     part of a chapter in parts (NN_topic/partN_*.md, each linked from the chapter's README.md);
#   - no commit id: no word of 7 to 40 hexadecimal digits with a digit and a letter in it;
#   - every chapter's lab card, with each of its rows;
#   - every relative link and image resolves; the lab notebook (results/NOTES.md), where it
#     exists, is linked from README.md; every committed picture (pictures/*.png) is shown in the
#     chapter's README.md or one of its parts.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
fails=0 n=0
bad() { echo "FAILED: $*"; fails=$((fails + 1)); }
words() { wc -w | tr -d ' '; }
rows=("You will be able to" "Before this" "Time" "GPU" "Commands" "Exercise" "Figures")

check_common() { # README: commit ids and links
  local f=$1 dir ids link target
  dir=$(dirname "$f")
  ids=$(grep -oiwE '[0-9a-f]{7,40}' "$f" | grep -E '[0-9]' | grep -iE '[a-f]' | sort -u | tr '\n' ' ')
  [ -z "$ids" ] || bad "$f: commit ids (lab notes go to results/NOTES.md): $ids"
  while IFS= read -r link; do
    target=${link%%#*}
    [ -n "$target" ] || continue
    case $target in http://* | https://* | mailto:*) continue ;; esac
    [ -e "$dir/$target" ] || bad "$f: link to $target, which does not exist"
  done < <(grep -oE '\]\([^) ]+\)' "$f" | sed 's/^](//; s/)$//')
}

n=$((n + 1))
check_common README.md
w=$(words <README.md)
[ "$w" -le 1500 ] || bad "README.md: $w words, the budget is 1500"
echo "README.md: $w words"

for f in [0-9][0-9]_*/README.md; do
  ch=$(dirname "$f")
  lessons=("$f")
  for part in "$ch"/part[0-9]*.md; do [ -f "$part" ] && lessons+=("$part"); done
  for l in "${lessons[@]}"; do
    n=$((n + 1))
    check_common "$l"
    w=$(words <"$l")
    [ "$w" -le 3000 ] || bad "$l: $w words, the budget is 3000"
    echo "$l: $w words"
  done
  grep -q '^| Lab card |' "$f" || bad "$f: no lab card (a table headed '| Lab card | |')"
  for r in "${rows[@]}"; do
    grep -q "^| $r |" "$f" || bad "$f: the lab card has no row '$r'"
  done
  [ ! -f "$ch/results/NOTES.md" ] || grep -q '(results/NOTES.md)' "$f" ||
    bad "$f: does not link its lab notebook results/NOTES.md"
  for part in "${lessons[@]:1}"; do
    grep -q "($(basename "$part"))" "$f" || bad "$f: does not link its part $(basename "$part")"
  done
  for png in "$ch"/pictures/*.png; do
    [ -f "$png" ] || continue
    cat "${lessons[@]}" | grep -q "(pictures/$(basename "$png"))" ||
      bad "$ch: no lesson of it shows $png"
  done
done
echo "lesson_check: $n lessons, $fails failures"
[ $fails -eq 0 ]
