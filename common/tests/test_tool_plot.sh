#!/usr/bin/env bash
# --plot FILE.png of bankcalc and swizzlecalc: the text as without it, then a real PNG (where
# gnuplot is installed); without gnuplot the text, the message and exit 77; a path that cannot be
# written is a usage error (exit 2) before any output.
set -u
bankcalc=$1 swizzlecalc=$2
fails=0 count=0
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/nogp"                        # a PATH without gnuplot
cases=("$bankcalc --stride 32" "$bankcalc --width 16 --stride 3 --mask ff00ff"
       "$bankcalc --op ldmatrix --matrices 2 --stride 8"
       "$swizzlecalc 3 3 3 --elem-bytes 2 --row-elems 64 --rows 16"
       "$swizzlecalc 5 0 5 --elem-bytes 4 --row-elems 32 --rows 8")
bad() { echo "FAILED: $*"; fails=$((fails + 1)); }
png_ok() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

for c in "${cases[@]}"; do
  tool=$(basename "${c%% *}")
  want=$($c)
  if command -v gnuplot >/dev/null; then
    count=$((count + 1)); rm -f "$tmp/a.png"
    out=$($c --plot "$tmp/a.png"); rc=$?
    [ $rc -eq 0 ] && [ "$out" = "$want" ] && png_ok "$tmp/a.png" ||
      bad "$c --plot -> rc $rc, $([ "$out" = "$want" ] && echo same || echo other) text, $(png_ok "$tmp/a.png" && echo a || echo no) PNG"
  fi
  count=$((count + 1)); rm -f "$tmp/b.png"
  out=$(PATH=$tmp/nogp $c --plot "$tmp/b.png" 2>"$tmp/err"); rc=$?
  msg="$tool: --plot needs gnuplot: install it (sudo apt-get install gnuplot-nox, brew install gnuplot)"
  [ $rc -eq 77 ] && [ "$out" = "$want" ] && [ "$(cat "$tmp/err")" = "$msg" ] && [ ! -e "$tmp/b.png" ] ||
    bad "PATH=(no gnuplot) $c --plot -> rc $rc (want 77, the text, then '$msg'), stderr: $(head -n 1 "$tmp/err")"
  blocked=("$tmp" "$tmp/none/c.png")
  [ "$(id -u)" != 0 ] && mkdir "$tmp/ro" 2>/dev/null && chmod 555 "$tmp/ro" && blocked+=("$tmp/ro/c.png")
  for p in "${blocked[@]}"; do
    count=$((count + 1))
    out=$($c --plot "$p" 2>"$tmp/err"); rc=$?
    [ $rc -eq 2 ] && [ -z "$out" ] && head -n 1 "$tmp/err" | grep -q "^$tool: --plot .*: the file " &&
      grep -q '^usage:' "$tmp/err" || bad "$c --plot $p -> rc $rc (want 2, no output), stderr: $(head -n 1 "$tmp/err")"
  done
done

usage() { # what-the-message-must-mention command...
  local mention=$1; shift
  count=$((count + 1))
  "$@" >/dev/null 2>"$tmp/err"; local rc=$?
  [ $rc -eq 2 ] && head -n 1 "$tmp/err" | grep -q "$mention" || bad "$* -> rc $rc (want 2, '$mention')"
}
usage "needs a value" "$bankcalc" --stride 1 --plot
usage "given twice" "$bankcalc" --stride 1 --plot "$tmp/a.png" --plot "$tmp/a.png"
usage "needs a value: the PNG" "$swizzlecalc" 3 4 3 --elem-bytes 1 --row-elems 128 --plot
usage "plot draws a tile" "$swizzlecalc" 3 4 3 --plot "$tmp/a.png"

command -v gnuplot >/dev/null || echo "test_tool_plot: gnuplot not found: no PNG drawn, the rest checked"
echo "test_tool_plot: $((count - fails)) of $count cases held"
[ $fails -eq 0 ]
