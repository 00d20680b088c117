#!/usr/bin/env bash
# `perft <depth>` from the start position, side by side in one run: the
# course's reference engine (when ../shared/sparring has it) and builds of
# ours, taken in turn run after run so that the machine's drift hits all
# alike; prints every run and each one's median wall time (whole process).
# usage: scripts/perft_side_by_side.sh <depth> <runs> [BIN[:THREADS] ...]
#   default BIN: target/release/leiserchess (built first), one thread
# e.g.   scripts/perft_side_by_side.sh 5 9 target/rev/562b92e/leiserchess target/release/leiserchess
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:?usage: $0 <depth> <runs> [BIN[:THREADS] ...]}
runs=${2:?usage: $0 <depth> <runs> [BIN[:THREADS] ...]}
shift 2
if [ $# -eq 0 ]; then
  cargo build --release --quiet
  set -- target/release/leiserchess
fi
ref=../shared/sparring/reference-leiserchess
players=()
if [ -x "$ref" ]; then players+=("reference"); else echo "no $ref: ours only" >&2; fi
players+=("$@")
now() { date +%s%N; }
run() {
  local p=$1 out
  if [ "$p" = reference ]; then
    out=$(printf 'perft %s\nquit\n' "$depth" | "$ref" | awk -v d="$depth" '$1 == "perft" && $2 == d {print $3}')
  else
    local bin=${p%%:*} threads=1
    [ "$bin" != "$p" ] && threads=${p##*:}
    out=$("$bin" perft "$depth" --threads "$threads" | awk '/^perft/ {print $3}')
  fi
  echo "$out"
}
declare -A times
for i in $(seq "$runs"); do
  for p in "${players[@]}"; do
    start=$(now)
    count=$(run "$p")
    ms=$(( ($(now) - start) / 1000000 ))
    echo "run $i  $p  perft $depth = $count  $ms ms"
    times[$p]="${times[$p]:-} $ms"
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "medians over $runs runs ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)):"
for p in "${players[@]}"; do echo "  $p: $(median "${times[$p]}") ms"; done
