#!/usr/bin/env bash
# The UCI fuzz of tests/engine/fuzz_uci.rs, full size: random valid and invalid
# lines fed to the release engine, checked against a model of its position
# (no panic, no hang, a legal bestmove for every accepted go and none for
# a refused one). Every fault is reported with the seed, the last lines sent
# and a file of the whole input that `leiserchess < FILE` replays.
#
# usage: scripts/fuzz_uci.sh [LINES] [SEED]
#   LINES  lines to send (default 20000: 17-29 s on 2 cores, after the release build)
#   SEED   the generator's seed, decimal or 0x hex (default: the test's)
# The same run: FUZZ_LINES=LINES FUZZ_SEED=SEED \
#   cargo test --release --test engine -- fuzz_uci:: --ignored --nocapture
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '/^# usage/,/^# The same run/p' "$0" | sed 's/^# \{0,1\}//' | head -n 3; }
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
esac
if [ $# -gt 2 ]; then usage >&2; exit 2; fi
lines=${1:-20000}
seed=${2:-}
if ! [[ $lines =~ ^[0-9]+$ ]]; then echo "LINES must be a count, got '$lines'" >&2; usage >&2; exit 2; fi
export FUZZ_LINES=$lines
if [ -n "$seed" ]; then export FUZZ_SEED=$seed; fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --release --test engine -- --ignored --nocapture fuzz_uci::fuzz_uci_full 2>&1 | tee "$log" || status=$?
echo
grep '^fuzz_uci: seed' "$log" | tail -n 1 || echo "fuzz_uci: no summary (the build or the test failed to start)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
exit "$status"
