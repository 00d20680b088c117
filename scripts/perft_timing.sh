#!/usr/bin/env bash
# Times `leiserchess perft` several times and prints every run and the median.
# usage: scripts/perft_timing.sh <depth> [runs] [extra perft arguments...]
# e.g.   scripts/perft_timing.sh 5 7
#        scripts/perft_timing.sh 6 3 --threads 2
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:?usage: $0 <depth> [runs] [perft args...]}
runs=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
cargo build --release --quiet
times=()
for _ in $(seq "$runs"); do
  out=$(./target/release/leiserchess perft "$depth" "$@")
  count=$(awk '/^perft/ {print $3}' <<<"$out")
  ms=$(awk '/^info time/ {print $3}' <<<"$out")
  echo "perft $depth $* -> $count in $ms ms"
  times+=("$ms")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
echo "median $median ms over $runs runs ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
