#!/usr/bin/env bash
# How fast `stop` is answered: the engine searches `go infinite` for 300 ms,
# is sent `stop`, and the time until its `bestmove` line is read is taken;
# 20 times for each search and thread count asked.
#
# usage: scripts/stop_latency.sh [ENGINE] [SEARCH:THREADS ...]
#   default: target/release/leiserchess mcts:1 mcts:2 pvs:1 pvs:2
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-target/release/leiserchess}
shift || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(mcts:1 mcts:2 pvs:1 pvs:2)
[ -x "$engine" ] || { echo "stop_latency: no engine at $engine (make build)" >&2; exit 1; }

for config in "${configs[@]}"; do
  search=${config%%:*}
  threads=${config##*:}
  coproc ENGINE { "$engine"; }
  send() { echo "$1" >&"${ENGINE[1]}"; }
  wait_for() { local line; while read -r line <&"${ENGINE[0]}"; do [[ $line == $1* ]] && return; done; }
  send "setoption name Search value $search"
  send "setoption name OwnBook value false"
  send "setoption name Threads value $threads"
  send "isready"
  wait_for readyok
  times=()
  for _ in $(seq 20); do
    send "position startpos"
    send "go infinite"
    sleep 0.3
    t0=$(date +%s%N)
    send "stop"
    wait_for bestmove
    t1=$(date +%s%N)
    times+=("$(((t1 - t0) / 1000))")
    send "ucinewgame"
  done
  send "quit"
  wait "$ENGINE_PID" || true
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  median=$(echo "$sorted" | awk '{a[NR]=$1} END {print (a[10]+a[11])/2}')
  echo "$search threads $threads: stop to bestmove over 20 stops: median $(awk -v u="$median" 'BEGIN {printf "%.2f", u/1000}') ms, max $(echo "$sorted" | tail -1 | awk '{printf "%.2f", $1/1000}') ms"
done
