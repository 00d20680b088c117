#!/usr/bin/env bash
# The depth the engine completes in a fixed time on each bench position.
# usage: scripts/depth_in_time.sh <movetime ms> [threads]
# Prints one line per position (depth, nodes) and the average depth.
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:?usage: $0 <movetime ms> [threads]}
threads=${2:-1}
cargo build --release --quiet
bin=./target/release/leiserchess
total=0; n=0
while read -r fen; do
  out=$(printf 'setoption name threads value %s\nposition fen %s\ngo movetime %s\n' "$threads" "$fen" "$ms" | "$bin")
  last=$(grep '^info depth' <<<"$out" | tail -1)
  depth=$(awk '{print $3}' <<<"$last")
  nodes=$(awk '{for (i = 1; i < NF; i++) if ($i == "nodes") print $(i + 1)}' <<<"$last")
  printf 'depth %2s nodes %9s  %s\n' "$depth" "$nodes" "$fen"
  total=$((total + depth)); n=$((n + 1))
done < <("$bin" bench 1 | awk '/bestmove/ {print $(NF - 1), $NF}')
awk -v t="$total" -v n="$n" -v ms="$ms" -v th="$threads" 'BEGIN {printf "average depth %.2f over %d positions at %d ms, %d thread(s)\n", t / n, n, ms, th}'
