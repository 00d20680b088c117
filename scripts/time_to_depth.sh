#!/usr/bin/env bash
# Time to complete a fixed depth on the bench positions without a forced
# King zap, with a given number of threads: the thread speed-up measure.
# usage: scripts/time_to_depth.sh <depth> [threads]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:?usage: $0 <depth> [threads]}
threads=${2:-1}
cargo build --release --quiet
bin=./target/release/leiserchess
total=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while read -r fen; do
  # stdin stays open until the search answers: the engine stops a search
  # when its input ends.
  : >"$log"
  out=$({
    printf 'setoption name threads value %s\nposition fen %s\ngo depth %s\n' "$threads" "$fen" "$depth"
    until grep -q '^bestmove' "$log"; do sleep 0.02; done
    echo quit
  } | "$bin" | tee "$log")
  last=$(grep '^info depth' <<<"$out" | tail -1)
  ms=$(awk '{for (i = 1; i < NF; i++) if ($i == "time") print $(i + 1)}' <<<"$last")
  printf 'time %6s ms  %s\n' "$ms" "$fen"
  total=$((total + ms))
done < <("$bin" bench 4 | awk '/bestmove/ && !/mate/ {print $(NF - 1), $NF}')
echo "total $total ms to depth $depth, $threads thread(s)"
