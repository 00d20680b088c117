#!/usr/bin/env bash
# The threads' time-to-depth speed-up, measured as BENCHMARKS.md does: one
# thread and several alternated round by round, each going first in turn
# (a machine's speed drifts by a few percent from one set of runs to the
# next, so only runs of one set are compared), then the median of each side, their ratio, and the
# same per position. Over many positions the total is decided by the few
# largest trees, so the geometric mean of the per-position speed-ups is
# printed too (bench/time-to-depth.fen and bench/time-to-depth-101-300.fen
# are such sets: see BENCHMARKS.md).
# usage: scripts/thread_speedup.sh <depth> <rounds> [threads] [NAME=VALUE ...]
#   threads: of the threaded side, default 2
#   NAME=VALUE: options of the threaded side only (e.g. split_depth=0 for Lazy SMP)
#   LEISERCHESS, POSITIONS: as for scripts/time_to_depth.sh
#   CEILING=1 (default 0, off): each round also runs [threads] one-thread
#   engines side by side, what the cores give processes that share
#   nothing but the machine, and prints that ceiling beside the threads'
#   speed-up (a shared or virtual machine's cores give from 1.8x to 2x,
#   day by day)
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
sides=()
trap 'kill "${sides[@]}" 2>/dev/null || true; rm -f "$runs" "$runs".side*' EXIT
options=("$@")
# A round's runs, each recording its lines under its name and keeping its
# total (ms) for the progress line.
timed() {
  local name=$1
  shift
  scripts/time_to_depth.sh "$depth" "$@" | sed "s/^/$name /" | tee -a "$runs" | awk '$2 == "total" {print $3}'
}
run_one() { one=$(timed one 1); }
run_many() { many=$(timed many "$threads" "${options[@]}"); }
run_sides() {
  # The engines start together and search the same positions in the
  # same order, so they search each position side by side (the one that
  # finishes last may search its final position alone).
  sides=()
  for e in $(seq "$threads"); do
    scripts/time_to_depth.sh "$depth" 1 >"$runs.side$e" &
    sides+=($!)
  done
  wait "${sides[@]}"
  sides=()
  for e in $(seq "$threads"); do
    sed "s/^/side$e /" "$runs.side$e" >>"$runs"
  done
  side=$(awk '$1 == "total" {printf " %s", $2}' "$runs".side*)
  side=", $threads engines side by side$side ms"
}
configs=(run_one run_many)
side=""
if [ "${CEILING:-0}" != 0 ]; then
  configs+=(run_sides)
fi
start=$(date +%s)
for r in $(seq "$rounds"); do
  # The configurations take turns going first, so that the machine's
  # drift within a round falls on each alike.
  for k in $(seq 0 $((${#configs[@]} - 1))); do
    "${configs[$(((r - 1 + k) % ${#configs[@]}))]}"
  done
  spent=$(($(date +%s) - start))
  left=$((spent * (rounds - r) / r))
  printf 'round %d/%d: 1 thread %s ms, %d threads %s ms%s; about %dm%02ds left\n' \
    "$r" "$rounds" "$one" "$threads" "$many" "$side" $((left / 60)) $((left % 60))
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
    ceiling = ("side1", order[1]) in ms
    printf "position  1 thread (ms)  %d threads (ms)  speed-up  nodes%s\n", threads,
      ceiling ? "  cores" : ""
    for (i = 1; i <= count; i++) {
      f = order[i]
      a = median(ms["one", f]); b = median(ms["many", f])
      # A search under 1 ms is timed as 0: counted as 1 ms.
      up = (a > 0 ? a : 1) / (b > 0 ? b : 1)
      ratio = median(nodes["many", f]) / median(nodes["one", f])
      logs += log(up); node_logs += log(ratio)
      cores = ""
      if (ceiling) {
        # Side by side, `threads` engines did that many times the work of
        # one alone, in their mean time.
        side = 0
        for (e = 1; e <= threads; e++) side += median(ms["side" e, f]) / threads
        c = threads * (a > 0 ? a : 1) / (side > 0 ? side : 1)
        ceiling_logs += log(c)
        cores = sprintf("  %5.2fx", c)
      }
      printf "%8d  %13d  %15d  %7.2fx  %.2fx%s  %s\n", i, a, b, up, ratio, cores, f
    }
    a = median(total["one"]); b = median(total["many"])
    printf "median total: 1 thread %d ms, %d threads%s %d ms: %.2fx\n", a, threads,
      opts == "" ? "" : " (" opts ")", b, a / (b > 0 ? b : 1)
    printf "geometric mean over %d positions: speed-up %.2fx, nodes %.2fx\n", count,
      exp(logs / count), exp(node_logs / count)
    if (ceiling) {
      c = exp(ceiling_logs / count)
      printf "the cores: %d one-thread engines side by side %.2fx one alone (geometric mean); the threads reach %.0f%% of it\n",
        threads, c, 100 * exp(logs / count) / c
    }
  }' "$runs"
