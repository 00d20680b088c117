#!/usr/bin/env bash
# Time for PVS (`Search=pvs`, unless an option names another) to complete
# a fixed depth on the bench positions without a forced King zap, with a
# given number of threads: the thread speed-up measure.
# Also the nodes all threads searched by then: with the speed per thread,
# they say how much of the threads' work was duplicated.
# usage: scripts/time_to_depth.sh <depth> [threads] [NAME=VALUE ...]
#   NAME=VALUE: more options set before each search (e.g. split_depth=0)
#   LEISERCHESS=path times that binary instead of building target/release's
#   POSITIONS=file times the FENs of that file (one a line) instead of the
#   bench positions
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:?usage: $0 <depth> [threads]}
threads=${2:-1}
shift $(( $# >= 2 ? 2 : 1 ))
options="setoption name Search value pvs"$'\n'
for o in "$@"; do options+="setoption name ${o%%=*} value ${o#*=}"$'\n'; done
bin=${LEISERCHESS:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=./target/release/leiserchess
fi
# The FENs to time: POSITIONS's, or the bench's without a forced zap.
positions() {
  if [ -n "${POSITIONS:-}" ]; then
    cat "$POSITIONS"
  else
    "$bin" bench --search pvs 4 | awk '/bestmove/ && !/mate/ {print $(NF - 1), $NF}'
  fi
}
total=0
nodes=0
while read -r fen; do
  # The engine runs beside this shell, which blocks on its output (no
  # polling: with every core searching, a poll loop's processes would take
  # time from the threads being timed). Its input stays open until the
  # search answers: the engine stops a search when its input ends.
  coproc ENGINE { "$bin"; }
  pid=$ENGINE_PID
  # As a GUI does, `go` waits for `readyok`: the engine is set up (its
  # table backed) before the clock starts.
  printf '%ssetoption name threads value %s\nposition fen %s\nisready\n' "$options" "$threads" "$fen" >&"${ENGINE[1]}"
  while read -r line <&"${ENGINE[0]}"; do
    [[ $line == readyok ]] && break
  done
  printf 'go depth %s\n' "$depth" >&"${ENGINE[1]}"
  out=""
  while read -r line <&"${ENGINE[0]}"; do
    out+="$line"$'\n'
    [[ $line == bestmove* ]] && break
  done
  echo quit >&"${ENGINE[1]}"
  wait "$pid"
  last=$(grep '^info depth' <<<"$out" | tail -1)
  ms=$(awk '{for (i = 1; i < NF; i++) if ($i == "time") print $(i + 1)}' <<<"$last")
  n=$(awk '{for (i = 1; i < NF; i++) if ($i == "nodes") print $(i + 1)}' <<<"$last")
  printf 'time %6s ms  nodes %10s  %s\n' "$ms" "$n" "$fen"
  total=$((total + ms))
  nodes=$((nodes + n))
done < <(positions)
echo "total $total ms to depth $depth, $threads thread(s)${*:+, $*}; nodes $nodes (all threads), $((nodes * 1000 / (total > 0 ? total : 1))) nps"
