#!/bin/sh
# Builds the release engine of a git revision (default HEAD) into
# target/rev/<short-hash>/leiserchess, for matches against earlier builds:
#   scripts/build_rev.sh base-1    # then -engine cmd=target/rev/<hash>/leiserchess
# The build uses its own checkout (a temporary git worktree) and target
# directory, so the working tree and target/release are left alone.
set -eu
rev=${1:-HEAD}
root=$(git rev-parse --show-toplevel)
hash=$(git -C "$root" rev-parse --short "$rev^{commit}")
out="$root/target/rev/$hash"
if [ -x "$out/leiserchess" ]; then
    echo "$out/leiserchess"
    exit 0
fi
tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
git -C "$root" worktree add --detach "$tree" "$hash" >&2
cargo build --release --manifest-path "$tree/Cargo.toml" --target-dir "$root/target/rev-build" -p leiserchess >&2
mkdir -p "$out"
cp "$root/target/rev-build/release/leiserchess" "$out/leiserchess"
echo "$out/leiserchess"
