# ab_tree.sh, sourced by this folder's A/B scripts (packing_ab.sh, tune_order_ab.sh): their
# command line and the worktree of HEAD they build in, so that the caller's own tree is never
# touched.
#   ab_args NAME ARGS...  mode and dir from "build|run DIR", or NAME's usage and exit 2
#   ab_worktree WORK      tree: a fresh worktree of HEAD at WORK/tree, removed when the script exits
# shellcheck shell=bash
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) # the repository's root

ab_args() {
  local name=$1
  mode=${2:-}
  dir=${3:-}
  if [ -z "$dir" ] || { [ "$mode" != build ] && [ "$mode" != run ]; }; then
    echo "usage: $name build|run DIR" >&2
    exit 2
  fi
}

ab_worktree() {
  tree=$1/tree
  git -C "$src" worktree remove --force "$tree" 2>/dev/null
  rm -rf "$tree"
  git -C "$src" worktree add -f --detach "$tree" HEAD >/dev/null || exit 1
  trap 'git -C "$src" worktree remove --force "$tree"' EXIT
}
