#!/usr/bin/env bash
# test_gpu_plans.sh EXPECTED PROGRAM...: holds the one decision of which variants run where
# (common/needs.h) to the table of real GPUs, for every chapter, on the CPU.
# For each GPU of the table and each chapter program, `PROGRAM --list --gpu KEY` prints a verdict
# a variant: what it needs (compute capability, dynamic shared memory, threads) and whether it
# runs. The test checks each verdict against the GPU's own figures, as printed in the plan's
# heading: a variant that runs fits (capability, shared memory a block, threads), one that is
# skipped does not. Then the skipped variants of each GPU and chapter, and how many run, must be
# those EXPECTED lists ("KEY CHAPTER RUNS SKIPPED..."; "-" for none).
set -u
expected=$1; shift
bad=0 seen=0
declare -A want
while read -r key chapter runs skipped; do
  [[ -z "$key" || "$key" == \#* ]] && continue
  want["$key $chapter"]="$runs $skipped"
done <"$expected"
for k in "${!want[@]}"; do
  read -r key chapter <<<"$k"
  prog=
  for p in "$@"; do [ "$(basename "$p")" = "$chapter" ] && prog=$p; done
  [ -n "$prog" ] || { echo "FAIL: $chapter is not among the programs"; bad=1; continue; }
  out=$("$prog" --list --gpu "$key") || { echo "FAIL: $chapter --list --gpu $key exits $?"; bad=1; continue; }
  head=$(grep -m1 '^On the ' <<<"$out")
  if [[ ! "$head" =~ compute\ capability\ ([0-9]+)\.([0-9]+),\ [0-9]+\ SMs,\ ([0-9]+)\ bytes ]]; then
    echo "FAIL: $chapter --gpu $key: no plan heading"; bad=1; continue
  fi
  arch=$((BASH_REMATCH[1] * 10 + BASH_REMATCH[2])) optin=${BASH_REMATCH[3]}
  runs=0 skipped=()
  while read -r verdict name _ need rest; do
    [[ "$need" =~ ^([0-9]+)\.([0-9]+),$ ]] || { echo "FAIL: $chapter $key: '$verdict $name $need $rest'"; bad=1; continue; }
    varch=$((BASH_REMATCH[1] * 10 + BASH_REMATCH[2]))
    [[ "$rest" =~ ^([0-9]+)\ bytes,\ ([0-9]+)\ threads ]] || { echo "FAIL: $chapter $key: '$rest'"; bad=1; continue; }
    bytes=${BASH_REMATCH[1]} threads=${BASH_REMATCH[2]}
    fits=1
    [ "$varch" -le "$arch" ] && [ "$bytes" -le "$optin" ] && [ "$threads" -le 1024 ] || fits=0
    if [ "$verdict" = runs ]; then
      runs=$((runs + 1))
      [ $fits -eq 1 ] || { echo "FAIL: $key $chapter: $name runs but does not fit: $need $rest"; bad=1; }
    else
      skipped+=("$name")
      [ $fits -eq 0 ] || { echo "FAIL: $key $chapter: $name skipped but fits: $need $rest"; bad=1; }
    fi
    seen=$((seen + 1))
  done < <(sed -n 's/^  \(runs\|skipped\) /\1 /p' <<<"$out")
  got="$runs ${skipped[*]:--}"
  if [ "$got" != "${want[$k]}" ]; then
    echo "FAIL: $key $chapter: runs and skipped '$got', expected '${want[$k]}'"; bad=1
  fi
done
echo "$seen verdicts on ${#want[@]} GPU x chapter plans: $([ $bad -eq 0 ] && echo "every one holds" || echo "NOT all hold")"
[ $seen -gt 0 ] && exit $bad || exit 1
