#!/usr/bin/env bash
# bankcalc's contract: the last line of a good run, and exit 2 with a one-line reason and the
# usage for every kind of bad input.
set -u
bankcalc=$1
fails=0
count=0

expect_last() { # expected-last-line args...
  local want=$1; shift
  local out; out=$("$bankcalc" "$@" 2>&1); local rc=$?
  count=$((count + 1))
  if [ $rc -ne 0 ] || [ "$(printf '%s\n' "$out" | tail -n 1)" != "$want" ]; then
    echo "FAILED: bankcalc $* -> rc $rc, last line '$(printf '%s\n' "$out" | tail -n 1)', want '$want'"
    fails=$((fails + 1))
  fi
}

expect_usage() { # what-the-message-must-mention args...
  local mention=$1; shift
  local err; err=$("$bankcalc" "$@" 2>&1 >/dev/null); local rc=$?
  count=$((count + 1))
  if [ $rc -ne 2 ] || ! printf '%s\n' "$err" | head -n 1 | grep -q "^bankcalc: .*$mention" ||
     ! printf '%s\n' "$err" | grep -q '^usage:'; then
    echo "FAILED: bankcalc $* -> rc $rc (want 2), stderr: $(printf '%s' "$err" | head -n 1)"
    fails=$((fails + 1))
  fi
}

seq32() { seq 0 "$1" $((31 * $1)); }

expect_last "wavefronts: 1 ideal: 1 excess: 0" --stride 1
expect_last "wavefronts: 32 ideal: 1 excess: 31" --stride 32
expect_last "wavefronts: 2 ideal: 1 excess: 1" --stride 2 --base 8
expect_last "wavefronts: 1 ideal: 1 excess: 0" --stride 33
expect_last "wavefronts: 4 ideal: 4 excess: 0" --width 16 --stride 1
expect_last "wavefronts: 1 ideal: 1 excess: 0" --width 4 --op store $(seq32 4)
expect_last "wavefronts: 1 ideal: 1 excess: 0" $(for i in $(seq 32); do echo 64; done)
expect_last "wavefronts: 16 ideal: 1 excess: 15" --mask 0000ffff --stride 32
expect_last "wavefronts: 1 ideal: 1 excess: 0" --mask 0x1 --width 16 --stride 5
expect_last "wavefronts: 1 ideal: 1 excess: 0" --width 2 --stride 1
expect_last "wavefronts: 1 ideal: 1 excess: 0" --width 1 --stride 4
expect_last "wavefronts: 32 ideal: 1 excess: 31" --width 2 --stride 64
expect_last "wavefronts: 1 ideal: 1 excess: 0" $(seq 0 4 120) 232444
expect_last "wavefronts: 2 ideal: 1 excess: 1" --stride 1874
expect_last "wavefronts: 1 ideal: 1 excess: 0" --width 16 --base 232432 --mask 1 --stride 1
# Inactive lanes' offsets do not matter, however far they are.
expect_last "wavefronts: 1 ideal: 1 excess: 0" --mask 1 --stride 1073741824
expect_last "wavefronts: 1 ideal: 1 excess: 0" --mask 1 $(seq 0 4 120) 99999999999

# ldmatrix / stmatrix (rule 4): 8 rows a matrix, each served alone.
expect_last "wavefronts: 4 ideal: 4 excess: 0" --op ldmatrix --stride 1
expect_last "wavefronts: 32 ideal: 4 excess: 28" --op ldmatrix --stride 8
expect_last "wavefronts: 1 ideal: 1 excess: 0" --op ldmatrix --matrices 1 --trans $(seq 0 144 1008)
expect_last "wavefronts: 2 ideal: 2 excess: 0" --op stmatrix --matrices 2 --stride 1
expect_last "wavefronts: 16 ideal: 2 excess: 14" --op stmatrix --matrices 2 $(seq 0 128 1920)

expect_usage "need 16 row offsets" --op ldmatrix --matrices 2 0 16
expect_usage "16-byte rows" --op ldmatrix --width 8 --stride 1
expect_usage "matrices must be" --op ldmatrix --matrices 3 --stride 1
expect_usage "go with --op ldmatrix" --trans --stride 1
expect_usage "go with --op ldmatrix" --matrices 2 --stride 1
expect_usage "--mask is" --op stmatrix --mask ff --stride 1
expect_usage "need 32 offsets" $(seq 0 4 120)
expect_usage "more than 32" $(seq 0 4 128)
expect_usage "multiple of the access width" --width 8 $(seq32 4)
expect_usage "width must be" --width 12 --stride 1
expect_usage "not a byte offset" $(seq 0 4 120) abc
expect_usage "not a byte offset" $(seq 0 4 120) -4
expect_usage "unknown flag" --bogus 3 --stride 1
expect_usage "op must be" --op copy --stride 1
expect_usage "mask must be" --mask xyz --stride 1
expect_usage "needs a value" --stride
expect_usage "not both" --stride 1 $(seq32 4)
expect_usage "stride must be" --stride 1.5
expect_usage "stride must be" --stride " 1"
expect_usage "stride must be" --stride +1
expect_usage "base must be" --base "1 " --stride 1
expect_usage "not a byte offset" $(seq 0 4 120) " 4"
expect_usage "not a byte offset" $(seq 0 4 120) "+4"
expect_usage "width must be" --width 3 --stride 1
expect_usage "width must be" --width " 4" --stride 1
expect_usage "232448 bytes" --stride 1073741824
expect_usage "232448 bytes" --stride 1875
expect_usage "232448 bytes" $(seq 0 4 120) 232448
expect_usage "232448 bytes" --width 8 $(seq 0 8 240) 232448
expect_usage "232448 bytes" --width 16 --base 232448 --mask 1 --stride 1
expect_usage "232448 bytes" --base 4294967292 --stride 0
expect_usage "mask must be" --mask 0x0x1 --stride 1
expect_usage "mask must be" --mask -1 --stride 1
expect_usage "mask must be" --mask " 1" --stride 1
expect_usage "mask must be" --mask 0 --stride 1
expect_usage "mask must be" --mask 1ffffffff --stride 1
expect_usage "given twice" --width 4 --width 8 --stride 1
expect_usage "given twice" --stride 1 --stride 1
expect_usage "unknown flag" -h --bogus 3 --stride 1
expect_usage "unknown flag" --bogus 3 --help

for help in --help -h; do
  count=$((count + 1))
  out=$("$bankcalc" $help 2>/dev/null); rc=$?
  if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^usage:.*--width 1|2|4|8|16'; then
    echo "FAILED: bankcalc $help -> rc $rc (want 0 and the usage on stdout)"
    fails=$((fails + 1))
  fi
done

echo "test_bankcalc: $((count - fails)) of $count cases held"
[ $fails -eq 0 ]
