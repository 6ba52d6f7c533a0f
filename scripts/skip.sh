#!/bin/sh
# skip.sh MESSAGE...: a test that cannot run here, registered in its place when a tool it needs
# was not found at configure time: prints `skipped: MESSAGE` (what is missing, what to install)
# and exits 77, which CTest reports as skipped, never as passed. The words are joined with
# spaces, so a message survives CMake splitting it at a `;`.
echo "skipped: $*"
exit 77
