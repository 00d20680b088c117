#!/usr/bin/env bash
# Where a short move's time goes, through UCI as a referee drives it: the
# engine plays GAMES games against itself, each move `position startpos
# moves …` then `go time T inc I` on the mover's clock (the clock charged
# the wall time from `go` to `bestmove`, as a referee charges it), the book
# off so that every move is searched. Per move it takes the wall time, the
# search's own time and nodes (the last info line: every node searched)
# and the last completed iteration's (the line before, when the last one
# repeats it); then what `isready` and the last game's `position` cost
# outside a search. `leiserchess bench --search pvs`'s nodes a second
# (at these clocks the default search is PVS alone) beside it, for
# comparison (run first, twice: the second is taken, the first warms up).
#
# usage: scripts/short_tc.sh [ENGINE] [TIME_MS] [INC_MS] [GAMES]
#   default: target/release/leiserchess 300 3 6 (1/100 of 30+0.3)
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-target/release/leiserchess}
time_ms=${2:-300}
inc_ms=${3:-3}
games=${4:-6}
[ -x "$engine" ] || { echo "short_tc: no engine at $engine (make build)" >&2; exit 1; }

# Microseconds, without a fork (bash's clock).
now() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }
field() { awk -v k="$2" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' <<<"$1"; }

bench_nps() { "$engine" bench --search pvs | awk '/^nodes/ {print $4}'; }
bench_nps >/dev/null
bench=$(bench_nps)

coproc ENGINE { "$engine"; }
send() { echo "$1" >&"${ENGINE[1]}"; }
wait_for() { local l; while read -r -u "${ENGINE[0]}" l; do [[ $l == "$1"* ]] && return; done; }
send "uci"; wait_for uciok
send "setoption name OwnBook value false"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for ((g = 1; g <= games; g++)); do
  send "ucinewgame"; send "isready"; wait_for readyok
  moves=""; clock=("$time_ms" "$time_ms")
  for ((ply = 0; ply < 160; ply++)); do
    side=$((ply % 2))
    send "position startpos${moves:+ moves$moves}"
    t0=$(now)
    send "go time ${clock[$side]} inc $inc_ms"
    last=""; before=""
    while read -r -u "${ENGINE[0]}" l; do
      case $l in
        "info depth"*) before=$last; last=$l ;;
        bestmove*) break ;;
      esac
    done
    wall=$(($(now) - t0))
    best=$(awk '{print $2}' <<<"$l")
    if [ -n "$last" ]; then
      done_line=$last
      if [ -n "$before" ] && [ "$(field "$before" depth)" = "$(field "$last" depth)" ]; then
        done_line=$before
      fi
      echo "$wall $(field "$last" time) $(field "$last" nodes) $(field "$done_line" time) $(field "$done_line" nodes) $(field "$done_line" depth)" >>"$rows"
    fi
    clock[side]=$((clock[side] - wall / 1000 + inc_ms))
    [ "$best" = 0000 ] || [ "${clock[$side]}" -le 0 ] && break
    moves+=" $best"
  done
  echo "short_tc: game $g of $games, $(wc -l <"$rows") searched moves so far" >&2
done
# The engine's own cost outside a search, an upper bound (the loop's is
# in it): an `isready` answered, and the last game's `position` replayed.
round_trip() {
  local t0 i
  t0=$(now)
  for ((i = 0; i < 200; i++)); do
    [ -z "$1" ] || send "$1"
    send "isready"; wait_for readyok
  done
  echo $(($(now) - t0))
}
ready_us=$(round_trip "")
position_us=$(round_trip "position startpos${moves:+ moves$moves}")
plies=$(wc -w <<<"$moves")
send "quit"
sort -n "$rows" | awk -v t="$time_ms" -v i="$inc_ms" -v bench="$bench" \
    -v ready="$ready_us" -v pos="$position_us" -v plies="$plies" '
  { wall[NR] = $1; w += $1 / 1000; st += $2; sn += $3; dt += $4; dn += $5; d += $6 }
  END {
    med = (NR % 2) ? wall[(NR + 1) / 2] : (wall[NR / 2] + wall[NR / 2 + 1]) / 2
    printf "%d searched moves at %d+%d ms: median %.2f ms a move, mean depth %.2f\n", NR, t, i, med / 1000, d / NR
    printf "wall %.0f ms: %.1f%% inside the search, of that %.1f%% in completed iterations\n", w, 100 * st / w, 100 * dt / st
    printf "nodes %d: %.2f M/s over the search time, %.2f M/s over the wall; completed iterations %.1f%% of the nodes\n", sn, sn / st / 1000, sn / w / 1000, 100 * dn / sn
    printf "bench: %.2f M/s\n", bench / 1e6
    printf "isready answered in %.3f ms; position of %d plies and isready %.3f ms\n", ready / 200000, plies, pos / 200000
  }'
