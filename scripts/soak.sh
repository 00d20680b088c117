#!/usr/bin/env bash
# The soak: many self-play games under autotest at a short clock, with
# check_rep on in the release build with the debug commands (the default
# build), two games at once, one search thread each (no more threads than
# cores, so that a forfeit is the engine's fault). It counts what must never happen:
# crashes (and hangs), time forfeits, illegal moves and check_rep failures,
# and exits 1 if any count is not zero.
#
# usage: scripts/soak.sh [GAMES] [TC]
#   GAMES  games to play (default 2000), in colour-swapped pairs
#   TC     the clock, autotest's tc= (default 1+0.01: 1 s and 10 ms a move)
# One engine plays the learned evaluation, the other the hand-written one,
# so that both run under check_rep. The games go to target/soak/games.pgn
# (autotest shows progress and the time left); the engines' standard error
# to target/soak/NAME.stderr.log. Run it again to resume: the games already
# in the PGN count and are not played again, and the counts cover them all.
# Run it on an otherwise idle machine: with check_rep on a node costs many
# times more, and on shared cores the clock checks can come too late
# (BENCHMARKS.md "The soak").
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '/^# usage/,/^#   TC/p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
games=${1:-2000}
tc=${2:-1+0.01}
if ! [[ $games =~ ^[1-9][0-9]*$ ]]; then echo "soak: GAMES must be a count, got '$games'" >&2; usage >&2; exit 2; fi
cargo build --release --quiet -p leiserchess -p autotest
out=target/soak
mkdir -p "$out/bin"
# The run's own copies: a rebuild meanwhile does not change its engines.
cp target/release/leiserchess target/release/autotest "$out/bin/"
resume=()
if [ -s "$out/games.pgn" ]; then
  resume=(-resume)
else
  rm -f "$out/autotest.log" "$out"/*.stderr.log
fi
start=$SECONDS
status=0
# `-games` counts games per pairing per round: one pairing, one round.
"$out/bin/autotest" \
  -engine cmd="$out/bin/leiserchess" name=net \
  -engine cmd="$out/bin/leiserchess" name=hand option.use_nnue=false \
  -each tc="$tc" option.check_rep=true option.threads=1 option.OwnBook=false \
  -games "$games" -concurrency 2 -openings file=autotest/openings.txt order=random \
  -pgnout "$out/games.pgn" "${resume[@]}" -event "soak" 2>&1 | tee -a "$out/autotest.log" || status=$?

count() { grep -cE "$1" "$out/autotest.log" || true; }
crashes=$(count 'loses: (crash|hang):')
forfeits=$(count 'loses: time forfeit:')
illegal=$(count 'loses: illegal move:')
check_rep=$(cat "$out"/*.stderr.log 2>/dev/null | grep -c 'check_rep FAILED' || true)
played=$(grep -c '^\[Result ' "$out/games.pgn" || true)
echo "soak: $played games in the PGN ($((SECONDS - start)) s this run, tc $tc):" \
  "crashes $crashes, time forfeits $forfeits, illegal moves $illegal, check_rep failures $check_rep"
[ "$status" = 0 ] || { echo "soak: autotest exited with status $status" >&2; exit 1; }
[ "$crashes$forfeits$illegal$check_rep" = 0000 ]
