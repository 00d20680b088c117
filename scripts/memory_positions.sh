#!/usr/bin/env bash
# One engine's resident memory as it searches the positions of many games:
# every other position of each game of a PGN (from the start, `go nodes
# N`), one process throughout, its resident set printed every 25 games.
# It isolates a growth the soak saw from the games' clock and opponents.
#
# usage: scripts/memory_positions.sh PGN GAMES [ENGINE] [NAME=VALUE ...]
#   the options default to Search=mcts threads=2; NODES (400) sets `go nodes`
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '/^# usage/,/^#   the options/p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 2 ] || { usage >&2; exit 2; }
pgn=$1 games=$2 engine=${3:-target/release/leiserchess}
shift $(($# < 3 ? $# : 3))
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(Search=mcts threads=2)
nodes=${NODES:-400}
[ -r "$pgn" ] || { echo "memory_positions: cannot read the PGN $pgn" >&2; exit 1; }
[[ $games =~ ^[1-9][0-9]*$ ]] || { echo "memory_positions: GAMES must be a whole number, got '$games'" >&2; exit 2; }
[ -x "$engine" ] || { echo "memory_positions: no engine at $engine (make build)" >&2; exit 1; }

# Each game's moves on one line: tags, comments, move numbers and results
# dropped; the first GAMES games.
moves=$(awk -v games="$games" '
  /^\[/ { if (line != "") { print line; line = ""; if (++n == games) exit } next }
  { gsub(/\{[^}]*\}/, " "); for (i = 1; i <= NF; i++)
      if ($i !~ /^[0-9]+\.$/ && $i !~ /^(1-0|0-1|1\/2-1\/2|\*)$/) line = line " " $i }
  END { if (line != "" && n < games) print line }' "$pgn")

coproc ENGINE { exec "$engine"; }
send() { echo "$1" >&"${ENGINE[1]}"; }
await() {
  local line
  while IFS= read -r line <&"${ENGINE[0]}"; do [[ $line == "$1"* ]] && return 0; done
  echo "memory_positions: the engine ended before '$1'" >&2
  exit 1
}
send uci; await uciok
for o in "${options[@]}"; do send "setoption name ${o%%=*} value ${o#*=}"; done
send isready; await readyok
echo "games resident_MB (${options[*]}, go nodes $nodes)"
g=0
while read -r -a game; do
  g=$((g + 1))
  send ucinewgame
  for ((i = 0; i <= ${#game[@]}; i += 2)); do
    send "position startpos moves ${game[*]:0:i}"
    send "go nodes $nodes"
    await bestmove
  done
  if ((g % 25 == 0)); then
    echo "$g $(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$ENGINE_PID/status")"
  fi
done <<<"$moves"
send quit
