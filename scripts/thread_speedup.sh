#!/usr/bin/env bash
# The threads' time-to-depth speed-up, measured as BENCHMARKS.md does: one
# thread and several alternated round by round (a machine's speed drifts
# by a few percent from one set of runs to the next, so only runs of one
# set are compared), then the median of each side, their ratio, and the
# same per position. Over many positions the total is decided by the few
# largest trees, so the geometric mean of the per-position speed-ups is
# printed too (bench/time-to-depth.fen and bench/time-to-depth-101-300.fen
# are such sets: see BENCHMARKS.md).
# usage: scripts/thread_speedup.sh <depth> <rounds> [threads] [NAME=VALUE ...]
#   threads: of the threaded side, default 2
#   NAME=VALUE: options of the threaded side only (e.g. split_depth=0 for Lazy SMP)
#   LEISERCHESS, POSITIONS: as for scripts/time_to_depth.sh
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: $0 <depth> <rounds> [threads] [NAME=VALUE ...]"
depth=${1:?$usage}
rounds=${2:?$usage}
threads=2
shift 2
if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
  threads=$1
  shift
fi
for n in "$depth" "$rounds" "$threads"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "not a positive number: '$n'; $usage" >&2; exit 2; }
done
if [ -z "${LEISERCHESS:-}" ]; then
  cargo build --release --quiet
  export LEISERCHESS=./target/release/leiserchess
fi
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
start=$(date +%s)
for r in $(seq "$rounds"); do
  # Each run's lines go to the record, its total (ms) to the progress line.
  one=$(scripts/time_to_depth.sh "$depth" 1 | sed 's/^/one /' | tee -a "$runs" | awk '$2 == "total" {print $3}')
  many=$(scripts/time_to_depth.sh "$depth" "$threads" "$@" | sed 's/^/many /' | tee -a "$runs" | awk '$2 == "total" {print $3}')
  spent=$(($(date +%s) - start))
  left=$((spent * (rounds - r) / r))
  printf 'round %d/%d: 1 thread %s ms, %d threads %s ms; about %dm%02ds left\n' \
    "$r" "$rounds" "$one" "$threads" "$many" $((left / 60)) $((left % 60))
done
# Medians: per side of the totals, then per position of its times.
awk -v threads="$threads" -v opts="$*" '
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
      t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
    }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  $2 == "total" { total[$1] = total[$1] " " $3; next }
  $2 == "time" {
    fen = $7
    for (i = 8; i <= NF; i++) fen = fen " " $i
    if (!(fen in seen)) { seen[fen] = ++count; order[count] = fen }
    ms[$1, fen] = ms[$1, fen] " " $3
    nodes[$1, fen] = nodes[$1, fen] " " $6
  }
  END {
    printf "position  1 thread (ms)  %d threads (ms)  speed-up  nodes\n", threads
    for (i = 1; i <= count; i++) {
      f = order[i]
      a = median(ms["one", f]); b = median(ms["many", f])
      # A search under 1 ms is timed as 0: counted as 1 ms.
      up = (a > 0 ? a : 1) / (b > 0 ? b : 1)
      ratio = median(nodes["many", f]) / median(nodes["one", f])
      logs += log(up); node_logs += log(ratio)
      printf "%8d  %13d  %15d  %7.2fx  %.2fx  %s\n", i, a, b, up, ratio, f
    }
    a = median(total["one"]); b = median(total["many"])
    printf "median total: 1 thread %d ms, %d threads%s %d ms: %.2fx\n", a, threads,
      opts == "" ? "" : " (" opts ")", b, a / (b > 0 ? b : 1)
    printf "geometric mean over %d positions: speed-up %.2fx, nodes %.2fx\n", count,
      exp(logs / count), exp(node_logs / count)
  }' "$runs"
