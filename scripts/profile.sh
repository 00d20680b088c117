#!/usr/bin/env bash
# A flamegraph of the search: the bench positions searched to depth 7 on one
# thread, repeated for SECONDS, under the in-process profiler pprof
# (bench/profile.rs). Writes the SVG and prints the top functions by self and
# inclusive share. Built with the bench profile (the release profile: fat LTO,
# debug = 1 line info for function names).
# usage: scripts/profile.sh [OUT.svg] [SECONDS]
#   defaults target/profile/flamegraph.svg and 10; PROFILE_DEPTH=N changes
#   the depth. CARGO overrides the cargo command (e.g. CARGO="nice cargo").
set -euo pipefail
out=${1:-target/profile/flamegraph.svg}
seconds=${2:-10}
# The bench runs in the crate root: make a relative OUT relative to here.
case $out in
  /*) ;;
  *) out=$PWD/$out ;;
esac
cd "$(dirname "$0")/.."
${CARGO:-cargo} bench --bench profile -- "$out" "$seconds"
