#!/usr/bin/env bash
# Pools several saved outputs of scripts/thread_speedup.sh on one position
# set (days, machines): a position's speed-up is the geometric mean of its
# per-day ones, the set's the geometric mean over positions, with a 95%
# interval from resampling the positions (the days are averaged, not
# resampled: each output's own mean is printed beside it). Also by the
# length of one thread's search: the shorter it is, the more its first
# shallow iterations, with little to share, weigh.
# usage: scripts/thread_speedup_pool.sh <output> <output> ...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 <thread_speedup.sh output> ..." >&2; exit 2; }
for f in "$@"; do
  [ -r "$f" ] && [ -s "$f" ] || { echo "'$f': missing, unreadable or empty" >&2; exit 2; }
done
awk '
  FNR == 1 { days++ }
  # position  1 thread (ms)  2 threads (ms)  speed-up  nodes  [cores]  FEN
  $1 ~ /^[0-9]+$/ && $4 ~ /x$/ && $5 ~ /x$/ {
    cores = ($6 ~ /x$/)
    fen = $(6 + cores); for (i = 7 + cores; i <= NF; i++) fen = fen " " $i
    if (!(fen in got)) order[++count] = fen
    day[days] += log($4 + 0); dayn[days]++
    got[fen]++; ms[fen] += $2; sp[fen] += log($4 + 0); nd[fen] += log($5 + 0)
    if (cores) { cr[fen] += log($4 / $6); ncr[fen]++ }
  }
  # Heapsort (mawk has no asort): no recursion, whatever the repeats.
  function sift(a, i, n,   c, t) {
    while ((c = 2 * i) <= n) {
      if (c < n && a[c + 1] > a[c]) c++
      if (a[i] >= a[c]) return
      t = a[i]; a[i] = a[c]; a[c] = t; i = c
    }
  }
  function hsort(a, n,   i, t) {
    for (i = int(n / 2); i >= 1; i--) sift(a, i, n)
    for (i = n; i > 1; i--) { t = a[1]; a[1] = a[i]; a[i] = t; sift(a, 1, i - 1) }
  }
  function bucket(t) { return t < 300 ? "under 0.3 s" : t < 1000 ? "0.3-1 s" : "1 s and more" }
  function show(label, n, l, nl) { printf "%s: %d position%s, speed-up %.2fx, nodes %.2fx\n", label, n, n == 1 ? "" : "s", exp(l / n), exp(nl / n) }
  END {
    if (count == 0) { print "no per-position table in the outputs" > "/dev/stderr"; exit 2 }
    for (i = 1; i <= count; i++) {
      f = order[i]
      if (got[f] != days) { printf "%s: in %d of the %d outputs, not one position set\n", f, got[f], days > "/dev/stderr"; exit 2 }
      s[i] = sp[f] / days; L += s[i]; N += nd[f] / days
      if (ncr[f] == days) { C += cr[f] / days; nc++ }
      b = bucket(ms[f] / days); bl[b] += s[i]; bn[b] += nd[f] / days; bc[b]++
    }
    srand(1)
    for (r = 1; r <= 10000; r++) { t = 0; for (k = 1; k <= count; k++) t += s[1 + int(rand() * count)]; boot[r] = exp(t / count) }
    n = 10000; hsort(boot, n)
    printf "%d outputs, %d positions: speed-up %.2fx (95%%: %.2fx .. %.2fx), nodes %.2fx", days, count, exp(L / count), boot[int(n * 0.025)], boot[int(n * 0.975)], exp(N / count)
    # The cores: what as many one-thread engines side by side got (CEILING=1).
    if (nc == count) printf ", %.0f%% of the cores", 100 * exp(C / nc)
    printf "\n"
    printf "  each output:"; for (d = 1; d <= days; d++) printf " %.2fx", exp(day[d] / dayn[d]); printf "\n"
    split("under 0.3 s|0.3-1 s|1 s and more", names, "|")
    for (k = 1; k <= 3; k++) if (bc[names[k]]) show("  one thread " names[k], bc[names[k]], bl[names[k]], bn[names[k]])
  }' "$@"
