#!/usr/bin/env bash
# buf breaking (the rules in proto/buf.yaml) for the contracts under proto/, against the previous
# commit: in CI the checkout's HEAD is the commit under test, so its parent is what it must not
# break. With uncommitted changes under proto/, against HEAD as well, the state they change.
# Without the history to compare with (no git, a shallow clone, a first commit) the check is
# skipped with the reason printed, since the contracts can still be linted and built.
set -euo pipefail
proto_dir="$(cd "$(dirname "$0")/../../../proto" && pwd)"
cd "$proto_dir"

if ! top="$(git rev-parse --show-toplevel 2>/dev/null)"; then
  echo "buf breaking skipped: $proto_dir is not in a git checkout, so there is no previous commit to compare with."
  exit 0
fi
subdir="$(git rev-parse --show-prefix)"
subdir="${subdir%/}"

# The checkout's own path with format=git works for clones and worktrees alike (buf clones it);
# the commit goes by its full id, which buf fetches however far back it is.
against() {
  local commit
  commit="$(git rev-parse "$1^{commit}")"
  echo "buf breaking against $1 (${commit:0:12})"
  buf breaking --against "$top#format=git,ref=$commit,subdir=$subdir"
}

if [ -n "$(git status --porcelain -- .)" ]; then
  against HEAD
fi
if git rev-parse --verify --quiet "HEAD~1^{commit}" >/dev/null; then
  against HEAD~1
elif [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  echo "buf breaking against HEAD~1 skipped: this is a shallow clone without HEAD's parent (fetch it with git fetch --deepen=1)."
else
  echo "buf breaking against HEAD~1 skipped: HEAD is the first commit."
fi
