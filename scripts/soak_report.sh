#!/usr/bin/env bash
# The soak's counts, from each leg's run directory (scripts/soak.sh): its
# merged games.pgn and its engines' standard-error logs (shards/K/*.log).
#
# usage: scripts/soak_report.sh LEG_DIR...
#
# Per leg: games, how they ended, and the faults that must not happen:
# crashes (PGN Termination "abandoned"), hangs ("stalled connection"),
# time forfeits, illegal moves ("rules infraction") and `check_rep FAILED`
# lines. Per kept engine process (the PGN's WhiteProcess/BlackProcess
# tags, `restart=off`) of at least 100 games, from its resident memory
# after each game (read once the engine has answered the `ucinewgame`
# that ends the game): the reading after its first game, the least in the
# second and in the third third of its games, the most over the session,
# and the reading after its last. What a game holds is gone by then, but
# the allocator keeps some of it for a while: free space at the top of a
# thread's heap, up to its 2 MB trim threshold, so the readings swing up
# from a floor by a megabyte or more. Their least is the floor, what the
# process keeps. The first third is the warm-up (tables and caches fill,
# and a second heap may take one of them); a leak lifts the floor for
# good: the session grows if the third third's least exceeds the second
# third's by more than 1%, judged on sessions of 1,000 games or more
# (SOAK_JUDGED_GAMES). Exits 1 on any fault, any growing session, or a leg
# with no games.
set -euo pipefail
case "${1:-}" in '' | -h | --help) sed -n '/^# usage/,/^#$/p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;; esac

status=0
printf '%-10s %6s %7s %6s %6s %7s %6s %8s %8s %9s\n' leg games zapped draws adjud crashes hangs forfeits illegal check_rep
sessions=$(mktemp)
trap 'rm -f "$sessions"' EXIT
for dir in "$@"; do
  leg=$(basename "$dir")
  pgn=$dir/games.pgn
  if [ ! -s "$pgn" ]; then
    echo "soak_report: $leg: no games in $pgn" >&2
    status=1
    continue
  fi
  check_rep=$(cat "$dir"/shards/*/*.stderr.log 2>/dev/null | grep -c 'check_rep FAILED' || true)
  # A line of counts; the memory samples "leg engine process games rss"
  # go to $sessions.
  awk -v leg="$leg" -v check_rep="$check_rep" -v sessions="$sessions" '
    function tag(line) { sub(/^\[[A-Za-z]+ "/, "", line); sub(/"\]$/, "", line); return line }
    function flush() {
      if (res != "") {
        games++
        if (term == "normal") { if (res == "1/2-1/2") draws++; else zapped++ }
        else t[term]++
      }
      for (s in proc) if (rss[s] != "") print leg, name[s], proc[s], pgames[s], rss[s] >> sessions
      res = ""; term = ""; delete proc; delete pgames; delete rss
    }
    /^\[Event / { flush() }
    /^\[White "/ { name["White"] = tag($0) }
    /^\[Black "/ { name["Black"] = tag($0) }
    /^\[Result "/ { res = tag($0) }
    /^\[Termination "/ { term = tag($0) }
    /^\[(White|Black)Process "/ { s = substr($0, 2, 5); proc[s] = tag($0) }
    /^\[(White|Black)ProcessGames "/ { s = substr($0, 2, 5); pgames[s] = tag($0) }
    /^\[(White|Black)RSS "/ { s = substr($0, 2, 5); rss[s] = tag($0) }
    END {
      flush()
      printf "%-10s %6d %7d %6d %6d %7d %6d %8d %8d %9d\n", leg, games, zapped, draws,
        t["adjudication"], t["abandoned"], t["stalled connection"], t["time forfeit"],
        t["rules infraction"], check_rep
      bad = t["abandoned"] + t["stalled connection"] + t["time forfeit"] + t["rules infraction"] + check_rep
      exit bad > 0
    }' "$pgn" || status=1
done

echo
printf '%-10s %-10s %-22s %6s %10s %13s %13s %10s %10s %8s\n' leg engine process games 'RSS 1st' 'least, 2nd/3' 'least, 3rd/3' most 'RSS last' growth
sort -k1,1 -k2,2 -k3,3 -k4,4n "$sessions" | awk -v judged="${SOAK_JUDGED_GAMES:-1000}" '
  # The least of the readings of games from..to.
  function least(from, to,   g, m) {
    m = -1
    for (g = from; g <= to; g++) if ((g in r) && (m < 0 || r[g] + 0 < m)) m = r[g] + 0
    return m
  }
  function report(   g, top) {
    if (n < 100) return
    third = int(n / 3); middle = least(third + 1, 2 * third); last_third = least(2 * third + 1, n)
    top = 0
    for (g = 1; g <= n; g++) if ((g in r) && r[g] + 0 > top) top = r[g] + 0
    growth = (last_third - middle) / middle * 100
    grows = n >= judged && growth > 1
    verdict = n < judged ? "  (shorter than " judged ": not judged)" : grows ? "  GROWS" : ""
    printf "%-10s %-10s %-22s %6d %7d kB %10d kB %10d kB %7d kB %7d kB %+7.2f%%%s\n", l, e, p, n, r[1], middle, last_third, top, r[n], growth, verdict
    bad += grows
  }
  { key = $1 " " $2 " " $3
    if (key != last) { report(); delete r; n = 0; l = $1; e = $2; p = $3; last = key }
    r[$4] = $5; if ($4 > n) n = $4 }
  END { report(); exit bad > 0 }' || status=1
exit $status
