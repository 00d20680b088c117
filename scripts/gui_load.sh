#!/usr/bin/env bash
# The GUI server under load: `leiserchess gui` on 127.0.0.1 (any free
# port) and wrk (Debian's package) against it, SECONDS (default 10) each
# for the page, a game's state, and a move with its undo, CONNECTIONS
# (default 8) at once. Prints requests a second, the median and 99th
# percentile latency and the errors of each; then checks that a body over
# the server's limit gets a 413 and that the server said it listens on the
# loopback only. Exits 1 on any error, a failed check or a missing tool.
#
#   scripts/gui_load.sh [SECONDS] [CONNECTIONS]      (make gui-load)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-10}
conns=${2:-8}
engine=${ENGINE:-$root/target/release/leiserchess}

die() { echo "gui_load: $*" >&2; exit 1; }
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a whole number above 0, not '$secs'"
[[ $conns =~ ^[1-9][0-9]*$ ]] || die "CONNECTIONS must be a whole number above 0, not '$conns'"
[ -x "$engine" ] || die "no engine at $engine (make build)"
command -v curl >/dev/null || die "curl is missing; run as root: apt-get install -y curl"
if ! command -v wrk >/dev/null; then
  [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null ||
    die "wrk is missing; run as root: apt-get update && apt-get install -y wrk"
  echo "gui_load: installing wrk (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
fi

work=$(mktemp -d)
server=""
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$engine" gui --port 0 >"$work/gui.out" 2>"$work/gui.err" &
server=$!
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's|^leiserchess gui: open \(http://[^ ]*\)/ in a browser.*|\1|p' "$work/gui.out")
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || die "the server ended: $(cat "$work/gui.err")"
  sleep 0.1
done
[ -n "$url" ] || die "the server printed no address in 10 s"
case "$url" in
  http://127.0.0.1:*) ;;
  *) die "the server listens on $url, not on the loopback" ;;
esac
! grep -q "beyond this machine" "$work/gui.out" ||
  die "the server says it listens beyond this machine on the default host"

json='Content-Type: application/json'
new_game() { curl -sf -H "$json" -d '{}' "$url/api/games" | grep -o '"id":[0-9]*' | head -n 1 | cut -d: -f2; }
game=$(new_game)
[ -n "$game" ] || die "POST /api/games gave no game id"

# One wrk run: its requests a second, latencies and errors on one line.
load() {
  local name=$1 threads=$2; shift 2
  local out
  out=$(wrk -t "$threads" -c "$conns" -d "${secs}s" --latency "$@")
  local rps p50 p99 non2xx socket
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' <<<"$out")
  socket=$(sed -n 's/^ *Socket errors: //p' <<<"$out")
  [ -n "$rps" ] || die "$name: wrk printed no rate: $out"
  printf 'gui_load: %-24s %10s requests/s  p50 %8s  p99 %8s  errors: %s non-2xx, %s\n' \
    "$name" "$rps" "$p50" "$p99" "${non2xx:-0}" "${socket:-no socket errors}"
  [ -z "$non2xx" ] && [ -z "$socket" ] || failed=1
}

failed=0
echo "gui_load: $url, wrk ${secs}s each, $conns connections"
load "the page (GET /)" 2 "$url/"
load "a game (GET /api/games/N)" 2 "$url/api/games/$game"
# The move load: a game and a wrk thread per connection (gui_load.lua).
ids=""
for _ in $(seq 1 "$conns"); do ids="$ids $(new_game)"; done
LOAD_GAMES=$ids load "a move and its undo (POST)" "$conns" -s "$root/scripts/gui_load.lua" "$url"

# A body one byte over the limit (64 KiB) is refused with a 413.
big="$work/big.json"
head -c 65537 /dev/zero | tr '\0' ' ' >"$big"
status=$(curl -s -o /dev/null -w '%{http_code}' -H "$json" --data-binary "@$big" "$url/api/games")
if [ "$status" = 413 ]; then
  echo "gui_load: a 65,537-byte body: 413"
else
  echo "gui_load: a 65,537-byte body got $status, not 413"; failed=1
fi
kill -0 "$server" 2>/dev/null || { echo "gui_load: the server ended under load"; failed=1; }
echo "gui_load: listening on the loopback only (127.0.0.1), as by default"
[ $failed -eq 0 ] || die "errors above"
