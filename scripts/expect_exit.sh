#!/usr/bin/env bash
# expect_exit.sh CODE COMMAND...: passes when COMMAND exits with CODE and, for usage errors
# (CODE 2), says why on stderr and prints the usage.
want=$1; shift
err=$("$@" 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne "$want" ]; then
  echo "expected exit code $want from '$*', got $rc"; exit 1
fi
if [ "$want" -eq 2 ] && ! { printf '%s\n' "$err" | grep -q '^usage:'; }; then
  echo "'$*' exited 2 but printed no usage"; exit 1
fi
echo "'$*' exited $rc as expected: $(printf '%s\n' "$err" | head -n 1)"
