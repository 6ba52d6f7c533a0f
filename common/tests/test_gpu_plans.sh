#!/usr/bin/env bash
# test_gpu_plans.sh EXPECTED PROGRAM...: holds the one decision of which variants run where
# (common/host/needs.h) to the table of real GPUs, for every chapter, on the CPU.
# For each GPU of the table (as the programs name it) and each chapter program,
# `PROGRAM --list --gpu KEY` prints a verdict a variant, what it needs (compute capability, with
# an "a" where the code is that architecture's alone; dynamic shared memory, threads) and whether
# it runs, then the chapter's own verdict. Each
# variant's verdict is checked against the GPU's figures in the plan's heading: one that runs
# fits (capability, shared memory a block, threads a block), one that is skipped does not. Then
# every GPU and chapter must have its line in EXPECTED, "KEY CHAPTER RUNS VERDICT SKIPPED...":
# how many variants run, whether the chapter does, and the variants skipped ("-" for none).
set -u
expected=$1; shift
bad=0 seen=0 plans=0
declare -A want
while read -r key chapter rest; do
  [[ -z "$key" || "$key" == \#* ]] && continue
  want["$key $chapter"]=$rest
done <"$expected"
# The table's keys, as the usage error of an unknown --gpu lists them.
keys=$("$1" --list --gpu no_such_gpu 2>&1 | sed -n "s/.*no GPU 'no_such_gpu' in the table (\(.*\)).*/\1/p" | tr -d ',')
[ -n "$keys" ] || { echo "FAIL: $1 names no GPU table"; exit 1; }
for key in $keys; do
  for prog in "$@"; do
    chapter=$(basename "$prog")
    plans=$((plans + 1))
    out=$("$prog" --list --gpu "$key") || { echo "FAIL: $chapter --list --gpu $key exits $?"; bad=1; continue; }
    head=$(grep -m1 '^On the ' <<<"$out")
    if [[ ! "$head" =~ compute\ capability\ ([0-9]+)\.([0-9]+),\ [0-9]+\ SMs,\ ([0-9]+)\ bytes\ of\ shared\ memory\ a\ block,\ ([0-9]+)\ threads\ a\ block ]]; then
      echo "FAIL: $chapter --gpu $key: no plan heading"; bad=1; continue
    fi
    arch=$((BASH_REMATCH[1] * 10 + BASH_REMATCH[2])) optin=${BASH_REMATCH[3]} max_threads=${BASH_REMATCH[4]}
    runs=0 skipped=()
    while read -r verdict name _ need rest; do
      if [[ ! "$need" =~ ^([0-9]+)\.([0-9]+)a?,$ || ! "$rest" =~ ^([0-9]+)\ bytes,\ ([0-9]+)\ threads ]]; then
        echo "FAIL: $key $chapter: '$verdict $name $need $rest'"; bad=1; continue
      fi
      bytes=${BASH_REMATCH[1]} threads=${BASH_REMATCH[2]}
      [[ "$need" =~ ^([0-9]+)\.([0-9]+)(a?),$ ]]
      varch=$((BASH_REMATCH[1] * 10 + BASH_REMATCH[2])) only=${BASH_REMATCH[3]}
      fits=1
      [ "$varch" -le "$arch" ] && [ "$bytes" -le "$optin" ] && [ "$threads" -le "$max_threads" ] || fits=0
      # "9.0a": code of that architecture alone (sm_90a's wgmma), which no other GPU runs
      [ -z "$only" ] || [ "$varch" -eq "$arch" ] || fits=0
      if [ "$verdict" = runs ]; then
        runs=$((runs + 1))
        [ $fits -eq 1 ] || { echo "FAIL: $key $chapter: $name runs but does not fit: $need $rest"; bad=1; }
      else
        skipped+=("$name")
        [ $fits -eq 0 ] || { echo "FAIL: $key $chapter: $name skipped but fits: $need $rest"; bad=1; }
      fi
      seen=$((seen + 1))
    done < <(sed -n 's/^  \(runs\|skipped\)  *\([^ ]*  *needs \)/\1 \2/p' <<<"$out")
    chapter_verdict=$(sed -n 's/^  chapter  \(runs\|skipped\).*/\1/p' <<<"$out")
    [ -n "$chapter_verdict" ] || { echo "FAIL: $key $chapter: no chapter verdict"; bad=1; }
    got="$runs $chapter_verdict ${skipped[*]:--}"
    if [ -z "${want["$key $chapter"]+x}" ]; then
      echo "FAIL: $key $chapter: no line in $(basename "$expected") (got '$got')"; bad=1
    elif [ "$got" != "${want["$key $chapter"]}" ]; then
      echo "FAIL: $key $chapter: '$got', expected '${want["$key $chapter"]}'"; bad=1
    fi
  done
done
echo "$seen verdicts on $plans GPU x chapter plans: $([ $bad -eq 0 ] && echo "every one holds" || echo "NOT all hold")"
[ $seen -gt 0 ] && exit $bad || exit 1
