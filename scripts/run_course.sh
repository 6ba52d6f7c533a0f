#!/usr/bin/env bash
# run_course.sh BUILD_DIR SOURCE_DIR: the course command's work (the `course` target runs it).
# Runs every chapter's lesson, writes CSVs and logs under BUILD_DIR/results, plots under
# BUILD_DIR/plots, and the summary to BUILD_DIR/results/SUMMARY.md. Without a GPU each chapter
# still prints its CPU part (model tables); the plots are then drawn from the committed reference
# results and the summary says what was skipped. Exit 1 if a chapter failed.
set -u
build=$1 src=$2
results=$build/results plots=$build/plots
mkdir -p "$results" "$plots"
summary=$results/SUMMARY.md
have_gnuplot=$(command -v gnuplot || true)
failed=0

{
  echo "# Course summary"
  echo
  echo "Written by \`cmake --workflow --preset course\` on $(date -u +%Y-%m-%dT%H:%M:%SZ)."
  echo
} >"$summary"

# plot chapter csv prefix: draws the chapter's PNGs into $plots; prints what happened, for
# SUMMARY.md. Returns 1 if gnuplot failed (a missing gnuplot is not a failure).
plot() {
  local chapter=$1 csv=$2 prefix=$3 rc=0
  if [ ! -f "$csv" ]; then echo "no plots: no results measured yet ($csv)"; return 0; fi
  if [ -z "$have_gnuplot" ]; then
    echo "no plots: gnuplot not found (install it: sudo apt-get install gnuplot-nox, or brew install gnuplot)"
    return 0
  fi
  local tmp; tmp=$(mktemp -d)
  if gnuplot -e "csv='$csv'; outdir='$tmp'" "$src/$chapter/plot.gp" >&2; then
    for png in "$tmp"/*.png; do mv "$png" "$plots/${prefix}$(basename "$png")"; done
    echo "plots: $(cd "$plots" && ls ${prefix}*.png | tr '\n' ' ')(from $csv)"
  else
    echo "PLOTS FAILED: gnuplot could not draw $csv"; rc=1
  fi
  rm -rf "$tmp"
  return $rc
}

for dir in "$src"/[0-9][0-9]_*/; do
  chapter=$(basename "$dir")
  bin=$build/bin/$chapter
  if [ ! -x "$bin" ]; then
    printf '## %s\n\ncoming: not written yet.\n\n' "$chapter" >>"$summary"
    continue
  fi
  echo "=== $chapter"
  log=$results/$chapter.log
  "$bin" --csv "$results/$chapter.csv" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0)
      plotted=$(plot "$chapter" "$results/$chapter.csv" "${chapter}_") || failed=1
      sed -n "/^## $chapter summary/,\$p" "$log" >>"$summary"
      printf '\n%s\n\n' "$plotted" >>"$summary" ;;
    77)
      reason=$(grep -m1 '^skipped:' "$log" || echo "skipped")
      plotted=$(plot "$chapter" "$src/$chapter/results/h200.csv" "${chapter}_reference_") || failed=1
      printf '## %s\n\n%s. The CPU part ran (see %s). Committed reference results instead: %s\n\n' \
        "$chapter" "$reason" "results/$chapter.log" "$plotted" >>"$summary" ;;
    *)
      failed=1
      printf '## %s\n\nFAILED with exit code %d: see results/%s.log.\n\n' "$chapter" "$rc" "$chapter" >>"$summary" ;;
  esac
done

echo
cat "$summary"
echo "CSVs and logs: $results   plots: $plots"
exit $failed
