#!/usr/bin/env bash
# swizzlecalc's contract: offsets in, swizzled offsets out, one per line and nothing else; the
# period grid and the tile's verdict; exit 2 with a one-line reason and the usage for bad input.
set -u
calc=$1
fails=0 count=0

expect_out() { # expected-output args...
  local want=$1; shift
  local out; out=$("$calc" "$@" 2>&1); local rc=$?
  count=$((count + 1))
  if [ $rc -ne 0 ] || [ "$out" != "$want" ]; then
    echo "FAILED: swizzlecalc $* -> rc $rc, output '$out', want '$want'"; fails=$((fails + 1))
  fi
}

expect_line() { # a-line-the-output-must-hold args...
  local want=$1; shift
  local out; out=$("$calc" "$@" 2>&1); local rc=$?
  count=$((count + 1))
  if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -qxF "$want"; then
    echo "FAILED: swizzlecalc $* -> rc $rc, no line '$want'"; fails=$((fails + 1))
  fi
}

expect_usage() { # what-the-message-must-mention args...
  local mention=$1; shift
  local err; err=$("$calc" "$@" 2>&1 >/dev/null); local rc=$?
  count=$((count + 1))
  if [ $rc -ne 2 ] || ! printf '%s\n' "$err" | head -n 1 | grep -q "^swizzlecalc: .*$mention" ||
     ! printf '%s\n' "$err" | grep -q '^usage:'; then
    echo "FAILED: swizzlecalc $* -> rc $rc (want 2), stderr: $(printf '%s' "$err" | head -n 1)"
    fails=$((fails + 1))
  fi
}

# Swizzle<3,4,3> (the TMA's 128B mode): bits 9..7 into bits 6..4.
expect_out "$(printf '0\n16\n144\n128\n1168\n2147483632')" 3 4 3 0 16 128 144 1152 2147483520
# Swizzle<5,0,5> is c ^ r on a 32x32 tile: (r 3, c 5) -> 3 * 32 + 6.
expect_out "102" 5 0 5 101
# A negative S: the low bits go up. Swizzle<1,0,-2>: bit 0 into bit 2.
expect_out "$(printf '5\n4\n1')" 1 0 -2 1 4 5
expect_out "7" 0 0 0 7
expect_line "        1     9     8    11    10    13    12    15    14" 3 4 3
expect_line "column read (lane i: unit (row i, col), 4 bytes), worst column: 1 wavefronts (ideal 1)" \
  5 0 5 --elem-bytes 4 --row-elems 32
expect_line "column read (lane i: unit (row i, col), 4 bytes), worst column: 32 wavefronts (ideal 1)" \
  0 0 0 --elem-bytes 4 --row-elems 32
expect_line "column read (lane i: unit (row i, col), 16 bytes), worst column: 4 wavefronts (ideal 4)" \
  3 4 3 --elem-bytes 1 --row-elems 128 --rows 64

# Every refusal names what would do: the rule, the values of the parameter at fault that fit the
# other two, the element sizes, the ranges.
expect_usage "need B, M and S (valid: B >= 0, M >= 0, |S| >= B, B + M + |S| <= 31)" 3 4
expect_usage "M: not a whole number: 'x' (valid: B >= 0, M >= 0, |S| >= B, B + M + |S| <= 31)" 3 x 3
expect_usage "S: not a whole number: '3.5' (valid: " 3 4 3.5
expect_usage "B must be 0 or more (valid: .*; with M = 4 and S = 3, B is 0 to 3)" -1 4 3
expect_usage "M must be 0 or more (valid: .*; with B = 3 and S = 3, M is 0 to 25)" 3 -4 3
expect_usage "|S| must be at least B (valid: .*; with B = 3 and M = 4, S is 3 to 24 or -24 to -3)" 3 4 2
expect_usage "|S| must be at least B (valid: .*; no S fits B = 20 and M = 10)" 20 10 2
expect_usage "past bit 30 (valid: B >= 0, M >= 0, |S| >= B, B + M + |S| <= 31; here B + M + |S| = 32)" 5 20 7
expect_usage "B must be 0 or more (valid: B >= 0, M >= 0, |S| >= B, B + M + |S| <= 31)$" -1 -4 3
expect_usage "not an offset from 0 to 2^31 - 1 (2147483647): '2147483648'" 3 4 3 2147483648
expect_usage "not an offset from 0 to 2^31 - 1 (2147483647): '-16'" 3 4 3 -16
expect_usage "unknown argument" 3 4 3 --bogus 4
expect_usage "go together" 3 4 3 --elem-bytes 4
expect_usage "--elem-bytes must be 1, 2, 4, 8 or 16, got '3'" 3 4 3 --elem-bytes 3 --row-elems 32
expect_usage "--elem-bytes must be 1, 2, 4, 8 or 16, got '0'" 3 4 3 --elem-bytes 0 --row-elems 32
expect_usage "--elem-bytes must be 1, 2, 4, 8 or 16, got '32'" 3 4 3 --elem-bytes 32 --row-elems 32
expect_usage "--elem-bytes must be 1, 2, 4, 8 or 16, got 'four'" 3 4 3 --elem-bytes four --row-elems 32
expect_usage "--elem-bytes needs a value: 1, 2, 4, 8 or 16" 3 4 3 --row-elems 32 --elem-bytes
expect_usage "--rows needs a whole number from 1 to 4096, got '0'" 3 4 3 --elem-bytes 1 --row-elems 128 --rows 0
expect_usage "--row-elems needs a whole number from 1 to 4096, got '4097'" 3 4 3 --elem-bytes 1 --row-elems 4097
expect_usage "--rows needs a value: a whole number from 1 to 4096" 3 4 3 --elem-bytes 1 --row-elems 128 --rows
expect_usage "given twice" 3 4 3 --rows 8 --rows 8 --elem-bytes 1 --row-elems 128
expect_usage "--row-elems 8 is not a whole number of 16-element units: it must be a multiple of 2^M = 16" \
  3 4 3 --elem-bytes 1 --row-elems 8
expect_usage "wider than the widest access, 16 bytes: with --elem-bytes 4, M is 0 to 2" \
  3 4 3 --elem-bytes 4 --row-elems 32
expect_usage "help takes nothing else" -h 3 4 3

"$calc" --help | grep -q '^usage:' || { echo "FAILED: --help"; fails=$((fails + 1)); }
count=$((count + 1))

echo "test_swizzlecalc: $((count - fails)) of $count cases held"
[ $fails -eq 0 ]
