#!/usr/bin/env bash
# What the tests need beyond a Rust toolchain, installed when missing:
# `make test` and `make consistency-quick` run this first (`make deps`).
#
#   chromium, chromium-driver  tests/external/gui_browser.rs drives the GUI in them
#   qemu-user                  tests/external/cpu_check.rs runs the engine on older CPUs
#   valgrind                   the consistency run's valgrind flavour
#   time                       /usr/bin/time -v measures the consistency runs
#   util-linux                 flock, which the consistency runs' engines share
#   curl                       docs/GUI.md's example of the JSON API (the doc test)
#
# As root it installs the missing Debian packages with apt-get; otherwise it
# prints the one command that would, and exits 1. The toolchain's rustfmt
# and clippy are added with rustup when missing.
set -euo pipefail

# package:the file that shows it is installed
wanted=(
  chromium:/usr/bin/chromium
  chromium-driver:/usr/bin/chromedriver
  valgrind:/usr/bin/valgrind
  time:/usr/bin/time
  util-linux:/usr/bin/flock
  curl:/usr/bin/curl
  qemu-user:/usr/bin/qemu-x86_64
)

missing=()
for w in "${wanted[@]}"; do
  [ -x "${w#*:}" ] || missing+=("${w%%:*}")
done

toolchain() {
  for c in fmt clippy; do
    tool=$([ $c = fmt ] && echo rustfmt || echo clippy)
    if ! cargo $c --version >/dev/null 2>&1; then
      rustup component add $tool >/dev/null 2>&1 && cargo $c --version >/dev/null 2>&1 \
        || { echo "deps: the toolchain lacks $tool; run: rustup component add $tool" >&2; exit 1; }
    fi
  done
}

[ ${#missing[@]} -eq 0 ] && { toolchain; exit 0; }

if ! command -v apt-get >/dev/null; then
  echo "deps: missing ${missing[*]} (Debian package names); install them with your system's package manager" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing ${missing[*]}; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "deps: installing ${missing[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
for w in "${wanted[@]}"; do
  [ -x "${w#*:}" ] || { echo "deps: ${w%%:*} installed but ${w#*:} is still missing" >&2; exit 1; }
done
echo "deps: installed ${missing[*]}"
toolchain
