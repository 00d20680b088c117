#!/bin/sh
# The results database's cost to a tournament: the same node-limited games
# played with recording on and off, alternately, ROUNDS times; prints each
# run's wall time and the medians.
#   scripts/db_overhead.sh [GAMES] [ROUNDS] [NODES]    # 2000 3 1000
# Uses target/release/{autotest,leiserchess} (make build; cargo build
# --release -p autotest); one game at a time, so the figure is not the
# scheduler's.
set -eu
games=${1:-2000}
rounds=${2:-3}
nodes=${3:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
engine="$root/target/release/leiserchess"
autotest="$root/target/release/autotest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
play() { # $1: the -db value
    start=$(date +%s.%N)
    "$autotest" -engine cmd="$engine" name=a -engine cmd="$engine" name=b \
        -each nodes="$nodes" -games "$games" -concurrency 1 \
        -pgnout "$work/games.pgn" -db "$1" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
: >"$work/on"
: >"$work/off"
r=1
while [ "$r" -le "$rounds" ]; do
    rm -f "$work/lab.db" "$work/lab.db-wal" "$work/lab.db-shm"
    on=$(play "$work/lab.db")
    off=$(play none)
    echo "round $r: with the database ${on}s, without ${off}s"
    echo "$on" >>"$work/on"
    echo "$off" >>"$work/off"
    r=$((r + 1))
done
on=$(median <"$work/on")
off=$(median <"$work/off")
echo "medians: with ${on}s, without ${off}s, cost $(echo "scale=2; 100 * ($on - $off) / $off" | bc)%"
