#!/usr/bin/env bash
# lesson_check.sh [ROOT]: the lessons' rules (CONTRIBUTING.md, "The lesson"), checked on the
# top README and every chapter's README.md:
#   - budgets by `wc -w`: the top README at most 1500 words; a lesson at most 3000, or each part
#     of a lesson in parts at most 3000 (a part runs from its "## Part N" heading to the next;
#     what comes before the first counts with it);
#   - no commit id: no word of 7 to 40 hexadecimal digits with a digit and a letter in it;
#   - every chapter's lab card, with each of its rows;
#   - every relative link and image resolves; the lab notebook (results/NOTES.md), where it
#     exists, is linked; every committed picture (pictures/*.png) is shown.
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
  n=$((n + 1))
  ch=$(dirname "$f")
  check_common "$f"
  if grep -q '^## Part ' "$f"; then
    # Each part's words (awk's fields are wc's words); what precedes part 1 counts with it.
    counts=$(awk '/^## Part /{p++} {n[p < 1 ? 1 : p] += NF} END {for (p in n) print p, n[p]}' "$f" |
      sort -n)
    while read -r p c; do
      [ "$c" -le 3000 ] || bad "$f: part $p has $c words, the budget is 3000"
    done <<<"$counts"
    echo "$f: parts $(echo "$counts" | awk '{printf "%s%s", (NR > 1 ? ", " : ""), $2}') words"
  else
    w=$(words <"$f")
    [ "$w" -le 3000 ] || bad "$f: $w words, the budget is 3000"
    echo "$f: $w words"
  fi
  grep -q '^| Lab card |' "$f" || bad "$f: no lab card (a table headed '| Lab card | |')"
  for r in "${rows[@]}"; do
    grep -q "^| $r |" "$f" || bad "$f: the lab card has no row '$r'"
  done
  [ ! -f "$ch/results/NOTES.md" ] || grep -q '(results/NOTES.md)' "$f" ||
    bad "$f: does not link its lab notebook results/NOTES.md"
  for png in "$ch"/pictures/*.png; do
    [ -f "$png" ] || continue
    grep -q "(pictures/$(basename "$png"))" "$f" || bad "$f: does not show $png"
  done
done
echo "lesson_check: $n lessons, $fails failures"
[ $fails -eq 0 ]
