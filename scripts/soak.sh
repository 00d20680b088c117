#!/usr/bin/env bash
# The soak: 10,000 games across the searches and settings users run,
# spread over the multi-node Slurm cluster (scripts/slurm-nodes.sh, two
# nodes of one CPU each), every engine kept from game to game
# (`restart=off`) so that each plays a whole shard in one process and its
# resident memory is measured after every game. It counts what must never
# happen (crashes, hangs, time forfeits, illegal moves, check_rep failures)
# and each long session's memory growth (scripts/soak_report.sh), and exits
# 1 if anything is wrong.
#
# usage: scripts/soak.sh [SCALE]
#   SCALE  a divisor of every leg's games and shard (default 1: 10,000
#          games; 10 plays 1,000 as a quick check of the machinery)
#   SOAK_LEGS  the legs to play (default: all four, "threads1 check_rep
#          debug threads2"), so that a long soak can go a leg at a time
#
# The legs, each a `-slurm` run in target/soak/LEG (its PGN games.pgn;
# target/soak-scaleN/LEG at another scale):
#   threads1  PVS, MCTS and best-first, release build, one thread each, at
#             1+0.01, a round robin: 6,000 games in 4 shards of 1,500, in
#             which each engine plays 1,000 games in one process
#   check_rep the same three with check_rep on: 1,500 games, one shard
#   debug     the dev-profile build (debug assertions, overflow checks) of
#             PVS with check_rep on, at 5+0.05 (it searches about 10,000
#             nodes a second), against the release PVS with check_rep on
#             at 1+0.01: 500 games, one shard
#   threads2  PVS and MCTS on two threads each, at 1+0.01: 2,000 games in 2
#             shards of 1,000, after the others and all on one node, so
#             that no more threads think than there are cores
# Run it again to resume, on the same build: each leg's run directory
# keeps its finished games (docs/DISTRIBUTED.md); a shard that was cut
# short starts its engines afresh, so its memory session restarts too. Run it on an
# otherwise idle machine: a loaded one makes clock checks late.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
usage() { sed -n '/^# usage/,/^#          debug threads2/p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
scale=${1:-1}
if ! [[ $scale =~ ^[1-9][0-9]*$ ]]; then echo "soak: SCALE must be a whole number, got '$scale'" >&2; usage >&2; exit 2; fi
legs=" ${SOAK_LEGS:-threads1 check_rep debug threads2} "
for l in $legs; do
  case $l in threads1 | check_rep | debug | threads2) ;;
    *) echo "soak: SOAK_LEGS: no leg '$l' (threads1 check_rep debug threads2)" >&2; exit 2 ;; esac
done

out=$root/target/soak
[ "$scale" = 1 ] || out=$root/target/soak-scale$scale
# The run's own copies, made when it starts: a rebuild meanwhile, or
# before a resume, does not change its engines (remove the directory to
# soak another build).
if [ ! -f "$out/bin/BUILD" ]; then
  mkdir -p "$out/bin"
  cargo build --release --quiet -p leiserchess -p autotest
  cargo build --quiet -p leiserchess --bin leiserchess
  cp target/release/leiserchess target/release/autotest "$out/bin/"
  cp target/debug/leiserchess "$out/bin/leiserchess-debug"
  git describe --always --dirty >"$out/bin/BUILD"
fi
echo "soak: build $(cat "$out/bin/BUILD") ($out/bin)"
release=$out/bin/leiserchess debug=$out/bin/leiserchess-debug autotest=$out/bin/autotest

# Two nodes, one a core: a cluster left with more (the cluster-fault tests
# start three) would run more tasks than there are cores.
up=$(scripts/slurm-nodes.sh status 2>/dev/null | grep -c 'slurmd running' || true)
if [ "$up" != 2 ]; then
  scripts/slurm-nodes.sh stop >/dev/null 2>&1 || true
  scripts/slurm-nodes.sh start 2
fi
export SLURM_CONF=/etc/slurm-nodes/slurm.conf

common=(-openings file="$root/autotest/openings.txt" order=random -repeat -recover)
each=(restart=off option.OwnBook=false option.threads=1)
pvs=(-engine cmd="$release" name=pvs)
mcts=(-engine cmd="$release" name=mcts option.Search=mcts)
bestfirst=(-engine cmd="$release" name=bestfirst option.Search=bestfirst)

# leg NAME GAMES SHARD_GAMES PAIRINGS [autotest arguments...]: the leg's
# coordinator in the background (its pid appended to `pids`), its output
# in LEG.log; `sbatch` holds more sbatch arguments. A round robin of
# PAIRINGS pairings plays two games a pairing a round.
pids=()
sbatch=""
leg() {
  [[ $legs == *" $1 "* ]] || return 0
  local name=$1 games=$(($2 / scale)) shard=$(($3 / scale)) pairings=$4
  shift 4
  echo "soak: leg $name, $games games in shards of $shard (log: $out/$name.log)"
  "$autotest" "$@" "${common[@]}" -games 2 -rounds "$((games / 2 / pairings))" \
    -pgnout "$out/$name/games.pgn" -event "soak $name" \
    -slurm dir="$out/$name" pairs="$((shard / 2))" ${sbatch:+sbatch="$sbatch"} \
    >"$out/$name.log" 2>&1 &
  pids+=("$!")
}

# Three engines: each plays two thirds of a shard's games.
leg threads1 6000 1500 3 "${pvs[@]}" "${mcts[@]}" "${bestfirst[@]}" \
  -each tc=1+0.01 "${each[@]}"
leg check_rep 1500 1500 3 "${pvs[@]}" "${mcts[@]}" "${bestfirst[@]}" \
  -each tc=1+0.01 "${each[@]}" option.check_rep=true
leg debug 500 500 1 -engine cmd="$debug" name=debug-pvs tc=5+0.05 \
  -engine cmd="$release" name=pvs tc=1+0.01 -each "${each[@]}" option.check_rep=true
status=0
for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" || status=1; done
pids=()
sbatch="--nodelist=lc-n1"
leg threads2 2000 1000 1 -engine cmd="$release" name=pvs2 \
  -engine cmd="$release" name=mcts2 option.Search=mcts \
  -each tc=1+0.01 restart=off option.OwnBook=false option.threads=2
for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" || status=1; done

report=()
for l in $legs; do report+=("$out/$l"); done
scripts/soak_report.sh "${report[@]}" || status=1
exit $status
