#!/usr/bin/env bash
# Coverage-guided fuzzing: the libFuzzer targets of fuzz/ (docs/TESTING.md
# "Fuzzing"), each run from a copy of its committed corpus, one after the
# other, with a line a target of what it did and whether it crashed.
#
# usage: scripts/fuzz.sh [SECONDS | -runs=N] [TARGET ...]
#   SECONDS   how long each target runs (default 20: `make fuzz`)
#   -runs=N   N executions of each target instead
#   TARGET    the targets to run (default: all of fuzz/Cargo.toml's)
# Exits 1 if any target crashed, hung or ran out of memory.
#
# cargo-fuzz is installed when missing (`cargo install cargo-fuzz
# --locked`). The targets build on the stable toolchain with its nightly
# flags allowed (RUSTC_BOOTSTRAP=1, as the consistency run's sanitizer
# builds): AddressSanitizer, debug assertions and overflow checks, the
# release build's target CPU. Everything goes under target/fuzz/: the build
# (build/), the corpora the runs grow (corpus/TARGET/; fuzz/corpus/ is only
# read), crashing inputs (artifacts/TARGET/), and each run's log (logs/).
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '/^# usage/,/^# Exits/p' "$0" | sed 's/^# \{0,1\}//'; }

budget=(-max_total_time=20)
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  -runs=*)
    [[ ${1#-runs=} =~ ^[0-9]+$ ]] || { echo "fuzz: -runs wants a count, got '$1'" >&2; exit 2; }
    budget=("$1"); shift ;;
  '' | *[!0-9]*) ;;
  *) budget=(-max_total_time="$1"); shift ;;
esac

# shellcheck source=scripts/cargo-tool.sh
. scripts/cargo-tool.sh
need_cargo_tool fuzz fuzz cargo-fuzz

all=$(cargo fuzz list)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || read -r -a targets <<<"$(echo $all)"
for t in "${targets[@]}"; do
  grep -qx "$t" <<<"$all" || { echo "fuzz: no target '$t' (targets: $(echo $all))" >&2; exit 2; }
done

out=target/fuzz
mkdir -p "$out/logs"
export RUSTC_BOOTSTRAP=1
# RUSTFLAGS replaces .cargo/config.toml's rustflags: keep its target CPU.
export RUSTFLAGS="-Ctarget-cpu=x86-64-v3"
fuzz() { cargo fuzz "$1" --target-dir "$out/build" "${@:2}"; }

echo "fuzz: building the targets (log: $out/logs/build.log)"
if ! fuzz build >"$out/logs/build.log" 2>&1; then
  tail -n 20 "$out/logs/build.log" >&2
  echo "fuzz: the build failed" >&2
  exit 1
fi

# Runs target $1's input $2 alone; prints the seconds it took and
# succeeds if that was under one.
rerun() {
  local bin start end
  bin=$(find "$out/build" -path "*/release/$1" -type f | head -n 1)
  [ -n "$bin" ] || return 1
  start=$(date +%s%N)
  timeout 30 "$bin" "$2" >/dev/null 2>&1 || return 1
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN { printf "%.3f", ns / 1e9; exit !(ns < 1e9) }'
}

# A stat of libFuzzer's final lines (-print_final_stats=1) in log $1.
final_stat() { awk -v k="stat::$2:" '$1 == k {print $2}' "$1" | tail -n 1; }

crashed=0
printf '%-14s %12s %9s %7s %8s  %s\n' target executions "exec/s" cov ft result
for t in "${targets[@]}"; do
  corpus=$out/corpus/$t
  artifacts=$out/artifacts/$t
  log=$out/logs/$t.log
  rm -rf "$corpus" "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  cp -r "fuzz/corpus/$t/." "$corpus/"
  status=0
  fuzz run "$t" "$corpus" -- "${budget[@]}" -print_final_stats=1 -timeout=30 \
    -rss_limit_mb=2048 -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  # The last status line: "#N DONE cov: C ft: F corp: …" (or the last
  # progress line of a run that crashed).
  cov=? ft=?
  read -r cov ft < <(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1 | awk '{print $2, $4}') || true
  found=$(find "$artifacts" -type f ! -name 'slow-unit-*' | head -n 1)
  # An input slower than 10 s but within the 30 s timeout is saved as
  # slow-unit-…: told, not a failure (on a busy machine a process may
  # wait that long for a core); run it again to see.
  slow=$(find "$artifacts" -type f -name 'slow-unit-*' | head -n 1)
  # A timeout is run again alone: one that then takes under a second was
  # the machine's load (a niced run starved by others), not a hang; the
  # run still stopped there, short of its budget.
  starved=""
  if [[ $found == */timeout-* ]] && alone=$(rerun "$t" "$found"); then
    starved=" timeout under load, $alone s alone: $found; the run stopped there"
    found="" status=0
  fi
  if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    crashed=1
    result="CRASH ${found:-exit status $status} (log: $log)"
  elif [ -n "$slow" ]; then
    result="ok; slowest input $(final_stat "$log" slowest_unit_time_sec) s: $slow"
  else
    result=ok
  fi
  result+=$starved
  printf '%-14s %12s %9s %7s %8s  %s\n' "$t" "$(final_stat "$log" number_of_executed_units)" \
    "$(final_stat "$log" average_exec_per_sec)" "$cov" "$ft" "$result"
done
if [ "$crashed" -ne 0 ]; then
  echo "fuzz: a target failed; to run its input again:" >&2
  echo "  RUSTC_BOOTSTRAP=1 RUSTFLAGS=$RUSTFLAGS cargo fuzz run --target-dir $out/build TARGET ARTIFACT" >&2
  exit 1
fi
