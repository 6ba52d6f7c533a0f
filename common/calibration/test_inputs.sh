#!/usr/bin/env bash
# test_inputs.sh SMEM_PROBE TEST_SMEM_MODEL CALIBRATE_PY [PYTHON3]: every reader of pattern files
# and calibration tables rejects malformed input (before any GPU work) instead of measuring or
# checking less than it was given. Without PYTHON3 (none was found at configure time) it checks
# the C readers only, then reports skipped (77) with what it could not check.
set -u
probe=$1 model_test=$2 calibrate=$3 python=${4:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 count=0 not_run=0
offsets=$(seq -s ' ' 0 4 124)
good="row load 4 ffffffff $offsets"

rejects() { # description command...
  local what=$1; shift
  count=$((count + 1))
  "$@" >"$tmp/out" 2>&1; local rc=$?
  # A rejection is a message and exit 1 or 2: not success, not a skip, not a crash.
  if [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
    echo "FAILED: $what: exit $rc, want 1 or 2: $(head -c 200 "$tmp/out")"; fails=$((fails + 1))
  fi
}
rejects_py() { # description script args...: rejects run by python3; not run without it
  if [ -z "$python" ]; then not_run=$((not_run + 1)); return; fi
  local what=$1; shift
  rejects "$what" "$python" "$@"
}

printf '%s\n' "$good" >"$tmp/good.txt"
: >"$tmp/empty.txt"
printf '# only a comment\n' >"$tmp/comment.txt"
printf '%s 128\n' "$good" >"$tmp/33.txt"
printf 'row load 4 ffffffff %s\n' "$(seq -s ' ' 0 4 120)" >"$tmp/31.txt"
printf 'row load 4 ffffffff -4 %s\n' "$(seq -s ' ' 4 4 124)" >"$tmp/sign.txt"
printf 'row load 12 ffffffff %s\n' "$offsets" >"$tmp/width.txt"
printf 'row copy 4 ffffffff %s\n' "$offsets" >"$tmp/op.txt"
printf 'row load 4 ffffffff 2 %s\n' "$(seq -s ' ' 4 4 124)" >"$tmp/misaligned.txt"
for i in $(seq 4097); do printf '%s\n' "$good"; done >"$tmp/many.txt"
# ldmatrix / stmatrix lines: an unknown shape, a width other than 16, a mask that is not .xN's.
printf 'm ldmatrix.x3 16 ffffffff %s\n' "$(seq -s ' ' 0 16 496)" >"$tmp/matrix_x3.txt"
printf 'm ldmatrix.x4 8 ffffffff %s\n' "$(seq -s ' ' 0 16 496)" >"$tmp/matrix_width.txt"
printf 'm stmatrix.x2.trans 16 ffffffff %s\n' "$(seq -s ' ' 0 16 496)" >"$tmp/matrix_mask.txt"

for f in empty comment 33 31 sign width op misaligned many matrix_x3 matrix_width matrix_mask; do
  rejects "smem_probe on a pattern file ($f)" "$probe" "$tmp/$f.txt"
done
for f in empty 33 31 sign; do
  rejects_py "calibrate.py measure on a pattern file ($f)" \
    "$calibrate" measure --probe "$probe" --patterns "$tmp/$f.txt" --out "$tmp/x.csv"
done

header="name,op,width,mask,wavefronts,instructions,offsets"
printf '%s\n' "$header" >"$tmp/table_empty.csv"
printf '%s\nrow,load,4,ffffffff,1,1,%s 128\n' "$header" "$offsets" >"$tmp/table_33.csv"
printf '%s\nrow,load,4,ffffffff,1,1,%s\n' "$header" "$(seq -s ' ' 0 4 120)" >"$tmp/table_31.csv"
for f in table_empty table_33 table_31; do
  rejects "test_smem_model on a table ($f)" "$model_test" "$tmp/$f.csv" "$tmp/good.txt"
  rejects_py "calibrate.py compare on a table ($f)" \
    "$calibrate" compare --probe "$probe" --table "$tmp/$f.csv"
done
rejects "test_smem_model with an empty pattern file" "$model_test" "$tmp/table_empty.csv" \
  "$tmp/empty.txt"

# The committed ldmatrix / stmatrix pattern file is what make_matrix_patterns.py writes, and the
# probe reads all of it (it stops at 77 without a GPU, after reading).
here=$(dirname "$0")
count=$((count + 1)) # the probe reads it
if [ -z "$python" ]; then
  not_run=$((not_run + 1))
else
  count=$((count + 1))
  if ! "$python" "$here/make_matrix_patterns.py" | cmp -s - "$here/patterns_matrix.txt"; then
    echo "FAILED: patterns_matrix.txt is not what make_matrix_patterns.py writes"; fails=$((fails + 1))
  fi
fi
"$probe" "$here/patterns_matrix.txt" >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
  echo "FAILED: smem_probe rejects patterns_matrix.txt: $(head -c 200 "$tmp/err")"; fails=$((fails + 1))
fi

echo "test_inputs: $((count - fails)) of $count malformed inputs rejected"
[ $fails -eq 0 ] || exit 1
if [ $not_run -gt 0 ]; then
  echo "skipped: python3 not found: $not_run checks of calibrate.py and make_matrix_patterns.py" \
    "not run (install python3: sudo apt-get install python3, then reconfigure)"
  exit 77
fi
