#!/bin/sh
# The time-odds match against the course's reference engine under the
# course's own referee: our engine at OURS (default 1 0.01: one tenth of
# the time) against the reference at THEIRS (default 10 0.1), GAMES games
# (default 200), CPUS at once (default 2). Needs ../shared/sparring/ beside the
# repository (the reference engine and lauto.jar) and java; says so and
# exits 0 when they are absent (a user's clone has no sparring partners).
#
#   scripts/match_reference.sh [ENGINE] [GAMES] [OURS] [THEIRS] [CPUS]
#
# ENGINE defaults to target/release/leiserchess. The config and the PGN go
# to target/match/<stamp>/; the last line is the W/D/L of our engine, its
# score and Elo (autotest stats). Our engine is told the referee's no-zap
# draw limit (200 plies).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sparring="$root/../shared/sparring"
engine=$(realpath "${1:-$root/target/release/leiserchess}")
games=${2:-200}
ours=${3:-1 0.01}
theirs=${4:-10 0.1}
cpus=${5:-2}
if [ ! -x "$sparring/reference-leiserchess" ] || [ ! -f "$sparring/lauto.jar" ]; then
    echo "match_reference: no sparring partners in $sparring; nothing to do"
    exit 0
fi
command -v java >/dev/null || { echo "match_reference: java is missing (apt-get install -y default-jre-headless)"; exit 1; }
[ -x "$engine" ] || { echo "match_reference: no engine at $engine (make build)"; exit 1; }
cargo build --release -q -p autotest --manifest-path "$root/Cargo.toml"
dir="$root/target/match/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"
cat > "$dir/match.txt" <<CONF
cpus = $cpus
book = $root/autotest/openings.txt
game_rounds = $games
title = time-odds

player = leiserchess
invoke = $engine
fis = $ours
no_zap_plies = 200

player = reference
invoke = $sparring/reference-leiserchess
fis = $theirs
CONF
echo "match_reference: $games games, leiserchess at $ours against the reference at $theirs; PGN in $dir/match.pgn"
(cd "$dir" && java -jar "$sparring/lauto.jar" match.txt > lauto.log 2>&1) &
lauto=$!
trap 'kill $lauto 2>/dev/null' INT TERM
start=$(date +%s)
# Progress: games in the PGN so far and the time left at the mean pace.
while kill -0 $lauto 2>/dev/null; do
    sleep 30
    done_games=$(grep -c '^\[Result ' "$dir/match.pgn" 2>/dev/null || true)
    if [ "${done_games:-0}" -gt 0 ]; then
        now=$(date +%s)
        left=$(( (now - start) * (games - done_games) / done_games ))
        echo "match_reference: $done_games / $games games, about $((left / 60)) min left"
    fi
    [ "${done_games:-0}" -ge "$games" ] && kill $lauto 2>/dev/null || true
done
# Our engine's W/D/L and game pairs (colour-swapped, one opening each),
# and each side's median time, depth and nodes a searched move.
"$root/target/release/autotest" stats --pgn "$dir/match.pgn" --player leiserchess --moves | sed 's/^/match_reference: /'
