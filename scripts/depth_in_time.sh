#!/usr/bin/env bash
# The depth PVS (`Search=pvs`) completes in a fixed time on each bench
# position.
# usage: scripts/depth_in_time.sh <movetime ms> [threads]
# Prints one line per position (depth, score, nodes) and the average depth
# over all positions and over those without a forced King zap (the search
# stops early once it has proved one).
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:?usage: $0 <movetime ms> [threads]}
threads=${2:-1}
cargo build --release --quiet
bin=./target/release/leiserchess
total=0; n=0; quiet_total=0; quiet_n=0
while read -r fen; do
  out=$(printf 'setoption name Search value pvs\nsetoption name threads value %s\nposition fen %s\ngo movetime %s\n' "$threads" "$fen" "$ms" | "$bin")
  last=$(grep '^info depth' <<<"$out" | tail -1)
  depth=$(awk '{print $3}' <<<"$last")
  nodes=$(awk '{for (i = 1; i < NF; i++) if ($i == "nodes") print $(i + 1)}' <<<"$last")
  score=$(awk '{for (i = 1; i < NF; i++) if ($i == "score") print $(i + 1), $(i + 2)}' <<<"$last")
  printf 'depth %2s score %-9s nodes %9s  %s\n' "$depth" "$score" "$nodes" "$fen"
  total=$((total + depth)); n=$((n + 1))
  if [[ $score != mate* ]]; then quiet_total=$((quiet_total + depth)); quiet_n=$((quiet_n + 1)); fi
done < <("$bin" bench --search pvs 1 | awk '/bestmove/ {print $(NF - 1), $NF}')
awk -v t="$total" -v n="$n" -v qt="$quiet_total" -v qn="$quiet_n" -v ms="$ms" -v th="$threads" \
  'BEGIN {printf "average depth %.2f over %d positions, %.2f over the %d without a forced zap, at %d ms, %d thread(s)\n", t / n, n, qt / qn, qn, ms, th}'
