#!/usr/bin/env bash
# The consistency run: the engine built in several flavours, each playing
# self-play games through `autotest` with `check_rep` on and 2 threads, and
# running `perft 4` (one and two threads) and `bench --search pvs 4`.
#
# usage: scripts/consistency.sh [--quick] [--max-rss-mb N] [--games N]
#                               [--flavours asan,tsan,valgrind,debug]
#                               [--plant check_rep|rss] [--selftest]
#   make consistency          the full run
#   make consistency-quick    --quick, then --selftest: CI's run
#   --plant check_rep         a planted fault: every engine is sent `debug
#                             corrupt board` after each `position`
#   --plant rss               a planted fault: --max-rss-mb 1
#   --selftest                runs the debug flavour with each planted fault
#                             (games of at most 8 moves) and passes only if
#                             each run fails naming it
#
# Flavours (each its own build; logs in target/consistency/logs/FLAVOUR):
#   asan      AddressSanitizer + LeakSanitizer: a nightly flag on the stable
#             toolchain (RUSTC_BOOTSTRAP=1 RUSTFLAGS=-Zsanitizer=address),
#             release profile, target/consistency/asan.
#   tsan      ThreadSanitizer, the same way (target/consistency/tsan).
#   Both rebuild std with the sanitizer (-Zbuild-std) when the rust-src
#   component is installed (the script asks rustup for it once), so that
#   std's own synchronisation (a `thread::scope`'s join, `LazyLock`, Arc's
#   fences) is visible to them. Without rust-src they link the precompiled
#   std (-Cunsafe-allow-abi-mismatch=sanitizer): ASan then still checks all
#   of our code, but TSan reports races on memory std hands between threads
#   through code it cannot see; no suppressions are used, so the tsan
#   flavour fails and its verdict says that rust-src is missing.
#   valgrind  the normal release build under valgrind memcheck (leaks, bad
#             reads and writes, uninitialised values); shorter games. One
#             std-only leak suppression (below, generated into the log dir).
#   debug     the tests' build (the test profile: optimised, with debug
#             assertions and overflow checks), target/debug/leiserchess as
#             `cargo test --workspace` leaves it: after `make test`, no build.
#
# Every flavour fails on: a sanitizer or valgrind report, a `check_rep
# FAILED`, a panic, an engine exiting non-zero or on a signal, a game lost on
# an illegal move / crash / hang / time forfeit (or a void game), an engine
# left running after the tournament, a wrong perft count, a bench node count
# different from the release build's, a build failure, or a peak resident set
# (any engine, perft or bench process, by /usr/bin/time -v; instrumentation
# included) above --max-rss-mb (default 512).
#
# A gauntlet: engine a plays a third of the games against each of b, c
# and d (GAMES rounded up to a multiple of 3). a
# and b search depth 3 (a with the learned evaluation and a 1 MB table of 2
# ways, b with the hand-written evaluation and without margin pruning: both
# evaluations are checked); c is the Monte-Carlo search tree-parallel on two
# threads, 500 playouts a move in a 16 MB tree (its nodes' searches, deeper
# as the visits grow, make a playout cost about 30 of the evaluation's); d
# is the best-first search, 30,000 nodes a move in a 1 MB table (its tree is
# checked after every promotion). a and b are capped at
# 150,000 nodes of the main thread, so results do not depend on speed: without margin pruning a
# depth-3 search can take 700,000 nodes in quiescence (3.6 s natively with
# check_rep on, over a minute under valgrind, which autotest would call a
# hang). Valgrind plays fewer, shorter games. autotest
# starts each engine through a wrapper (target/consistency/logs/FLAVOUR/
# engine.sh) that keeps its stderr, measures it with /usr/bin/time -v, and
# holds a shared lock: autotest kills an engine 100 ms after `quit`, and the
# wrapper makes that kill hit `flock` rather than the engine, so leak checks
# and sanitizer summaries at exit still run; the script then waits for the
# lock.
#
# Games (rounded up to a multiple of 3, one third a pairing) and their
# length in moves a side: --quick 6 a flavour, at most 30 moves (3 under
# valgrind, at most 24; in the debug build, at most 20); full 21, at most 100 (6
# under valgrind, at most 60; 12 in the debug build, at most 60). Timings
# on the 2-core machine are in BENCHMARKS.md ("Consistency runs").
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

quick=0
plant=""
selftest=0
max_rss_mb=512
games_arg=""
flavours="asan,tsan,valgrind,debug"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --plant) plant=${2:?--plant needs check_rep or rss}; shift ;;
    --plant=*) plant=${1#*=} ;;
    --selftest) selftest=1 ;;
    --max-rss-mb) max_rss_mb=${2:?--max-rss-mb needs a number}; shift ;;
    --max-rss-mb=*) max_rss_mb=${1#*=} ;;
    --games) games_arg=${2:?--games needs a number}; shift ;;
    --games=*) games_arg=${1#*=} ;;
    --flavours) flavours=${2:?--flavours needs a list}; shift ;;
    --flavours=*) flavours=${1#*=} ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "consistency.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
case $max_rss_mb in ''|*[!0-9]*) echo "consistency.sh: --max-rss-mb must be a number" >&2; exit 2 ;; esac
case $plant in
  '') ;;
  rss) max_rss_mb=1 ;;
  check_rep) ;;
  *) echo "consistency.sh: --plant takes check_rep or rss, not '$plant'" >&2; exit 2 ;;
esac

# The self-test: each planted fault must fail the debug flavour, and the
# verdict must name it.
if [ "$selftest" = 1 ]; then
  status=0
  for fault in "check_rep:check_rep FAILED" "rss:above the limit of 1 MB"; do
    name=${fault%%:*} want=${fault#*:}
    verdict=$("$0" --quick --flavours debug --games 2 --plant "$name" 2>&1 | grep '^  debug: ' || true)
    case $verdict in
      *": FAIL: "*"$want"*) echo "selftest: planted $name: caught ($want)" ;;
      *) echo "selftest: planted $name: NOT caught: ${verdict:-no verdict}"; status=1 ;;
    esac
  done
  exit $status
fi

# Games and their length (a draw after N moves), per flavour.
if [ "$quick" = 1 ]; then
  games=6; maxmoves=30; vg_games=3; vg_maxmoves=24
else
  games=21; maxmoves=100; vg_games=6; vg_maxmoves=60
fi
if [ -n "$games_arg" ]; then games=$games_arg; vg_games=$games_arg; fi
# A planted fault shows at the first search or the first process's exit, so
# short games show it: 8 moves a side, the opening's 4 and 4 searched.
if [ -n "$plant" ]; then maxmoves=8; vg_maxmoves=8; fi

perft_depth=4
perft_expected=15537748
bench_depth=4
target=x86_64-unknown-linux-gnu
# RUSTFLAGS replaces .cargo/config.toml's rustflags: keep its target CPU so
# the sanitizer builds run the same code as the release build.
cpu_flags="-Ctarget-cpu=x86-64-v3"
# An instrumented std needs std's sources (see the header).
sysroot=$(rustc --print sysroot)
if [ ! -d "$sysroot/lib/rustlib/src/rust/library/std" ]; then
  rustup component add rust-src >/dev/null 2>&1 || true
fi
have_rust_src=0
[ -d "$sysroot/lib/rustlib/src/rust/library/std" ] && have_rust_src=1
out=target/consistency
logs=$out/logs${plant:+-plant-$plant}
mkdir -p "$logs"

cargo_quiet() { cargo "$@" --quiet; }

# The release engine (`make build`'s) and the tests' build (`cargo test
# --workspace`'s: autotest, which referees every flavour's games, and the
# debug flavour's engine): after `make test`, both are built already.
echo "consistency: building the release engine and the tests' build"
if ! cargo_quiet build --release -p leiserchess 2>"$logs/release-build.log" ||
  ! cargo_quiet test --workspace --no-run 2>"$logs/test-build.log"; then
  cat "$logs/release-build.log" "$logs/test-build.log" >&2 2>/dev/null
  echo "consistency: FAIL: a build failed" >&2
  exit 1
fi
# Copies, so that a rebuild in target/ during the run changes nothing.
cp target/debug/autotest target/release/leiserchess "$logs/"
autotest=$root/$logs/autotest
release_bin=$root/$logs/leiserchess
bench_reference=$("$release_bin" bench --search pvs $bench_depth | awk '/^nodes/ {print $2}')

# One flavour: build, then play and measure. Sets `verdict`.
run_flavour() {
  local flavour=$1
  local dir=$root/$logs/$flavour
  rm -rf "$dir"
  mkdir -p "$dir"
  local bin="" n_games=$games n_moves=$maxmoves depth_a=3 depth_b=3
  local -a envs=() runner=()
  local -a failures=()
  fail() { failures+=("$*"); }

  case $flavour in
    asan|tsan)
      local san=address
      [ "$flavour" = tsan ] && san=thread
      local -a std_flags=()
      local abi_flag=""
      if [ "$have_rust_src" = 1 ]; then
        std_flags=(-Zbuild-std)
      else
        abi_flag="-Cunsafe-allow-abi-mismatch=sanitizer"
      fi
      if ! RUSTC_BOOTSTRAP=1 \
        RUSTFLAGS="-Zsanitizer=$san $abi_flag $cpu_flags" \
        cargo_quiet build --release -p leiserchess --bin leiserchess \
        "${std_flags[@]}" --target $target --target-dir "$out/$flavour" 2>"$dir/build.log"; then
        verdict="$flavour: FAIL: build failed (see $dir/build.log)"
        return
      fi
      cp "$out/$flavour/$target/release/leiserchess" "$dir/"
      bin=$dir/leiserchess
      # A build that silently lost the flag would pass every check.
      if ! grep -qa "__${flavour}_init" "$bin"; then
        verdict="$flavour: FAIL: the build has no $flavour runtime (__${flavour}_init missing)"
        return
      fi
      if [ "$flavour" = asan ]; then
        # quarantine_size_mb: freed memory stays poisoned (use-after-free
        # detection) up to this much, 256 MB by default; it fills up over a
        # game (every `go` frees its workers' buffers) and its chunks,
        # redzones and shadow then dominate the peak RSS (620 MB in a full
        # run; with 64 MB about 260 MB; with 0 the engine stays near 30 MB).
        # 64 MB is still three times the engine's whole working set.
        envs=("ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:quarantine_size_mb=64:log_path=$dir/asan")
      else
        envs=("TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1:log_path=$dir/tsan")
      fi
      ;;
    valgrind)
      if ! command -v valgrind >/dev/null; then
        verdict="valgrind: FAIL: valgrind is not installed"
        return
      fi
      bin=$release_bin
      n_games=$vg_games; n_moves=$vg_maxmoves
      # std keeps the main thread's handle (an Arc) for the life of the
      # process, in a thread-local slot that points inside the allocation:
      # valgrind sees it at exit as "possibly lost". It is made when the main
      # thread first asks for its handle (`bench` does, through
      # `thread::scope`). Only that allocation, from that std function:
      # And clap, finding the highest positional index of a command line
      # (`Command::_build_self`, on `bench`'s), takes the maximum over
      # `filter_map(|k| if let Position(n) = k ...)`: the optimised code
      # compares the payload of keys of every kind and keeps only the
      # positional ones, so valgrind sees a branch on bytes another kind
      # of key leaves unset. Only that function's conditional jumps:
      cat >"$dir/valgrind.supp" <<'EOF'
{
   std-main-thread-handle-kept-until-exit
   Memcheck:Leak
   match-leak-kinds: possible
   fun:malloc
   ...
   fun:*3std6thread7current12init_current
}
{
   clap-highest-positional-index
   Memcheck:Cond
   fun:*clap_builder::builder::command::*_build_self*
   ...
   fun:_ZN12clap_builder7builder7command7Command11_build_self*
}
EOF
      runner=(valgrind --error-exitcode=9 --leak-check=full
        --show-leak-kinds=definite,indirect,possible
        --errors-for-leak-kinds=definite,indirect,possible
        --suppressions="$dir/valgrind.supp" --log-file="$dir/valgrind.%p")
      ;;
    debug)
      cp target/debug/leiserchess "$dir/"
      bin=$dir/leiserchess
      ;;
    *)
      verdict="$flavour: FAIL: unknown flavour (known: asan, tsan, valgrind, debug)"
      return
      ;;
  esac

  # The engine's command line for this flavour, and a measured run of it.
  local -a engine=(env "${envs[@]}" "${runner[@]}" "$bin")
  measured() { # NAME ARGS...: runs the engine once, output in NAME.out
    local name=$1; shift
    timeout --kill-after=10 1200 /usr/bin/time -v -o "$dir/$name.time" \
      "${engine[@]}" "$@" >"$dir/$name.out" 2>"$dir/$name.stderr" || true
  }

  # The engine must have the option this run is about.
  if ! echo uci | "${engine[@]}" 2>/dev/null | grep -q "^option name check_rep "; then
    fail "the engine has no check_rep option (built without debug-commands?)"
  fi

  # perft, one thread and two.
  local perft_ok=ok
  measured perft1 perft $perft_depth
  measured perft2 perft $perft_depth --threads 2
  for p in perft1 perft2; do
    if ! grep -qx "perft $perft_depth $perft_expected" "$dir/$p.out"; then
      perft_ok=wrong
      fail "$p: expected 'perft $perft_depth $perft_expected', got '$(head -1 "$dir/$p.out")'"
    fi
  done

  # bench: the node count is the search's fingerprint.
  measured bench bench --search pvs $bench_depth
  local bench_nodes
  bench_nodes=$(awk '/^nodes/ {print $2}' "$dir/bench.out")
  if [ "$bench_nodes" != "$bench_reference" ]; then
    fail "bench $bench_depth: nodes '${bench_nodes:-none}', the release build has $bench_reference"
  fi

  # The tournament. The wrapper: see the header.
  local wrapper=$dir/engine.sh
  {
    echo '#!/bin/sh'
    echo "# autotest's engine for the $flavour flavour (scripts/consistency.sh)."
    printf 'd=%q\n' "$dir"
    local run='echo $$ >"$0"; exec "$@"'
    # The planted check_rep fault: a filter on the engine's input, through
    # a FIFO so that the engine still replaces the shell (a pipeline would
    # keep the shell, and the engine's stdout, alive after the engine dies).
    [ "$plant" != check_rep ] ||
      run='echo $$ >"$0"; mkfifo "$0.in"; exec 3<&0; sed -u "/^position /a debug corrupt board" <&3 >"$0.in" & exec "$@" <"$0.in" 3<&-'
    printf 'exec flock -s "$d/engines.lock" /usr/bin/time -v -o "$d/engine.$$.time" sh -c %q "$d/engine.$$.pid"' "$run"
    printf ' %q' "${engine[@]}"
    printf ' 2>>"$d/engine.$$.stderr"\n'
  } >"$wrapper"
  chmod +x "$wrapper"
  local common="option.check_rep=true option.threads=2"
  local pvs="option.Search=pvs"
  local status=0
  # A gauntlet: a plays a third of the games against each of b, c (the
  # Monte-Carlo search tree-parallel on two threads with a 16 MB tree) and d
  # (the best-first search). a's two threads share the tree (the split
  # search), b's race through it (Lazy SMP), without late-move reductions
  # and with the hand-written evaluation.
  local per_pairing=$(((n_games + 2) / 3))
  n_games=$((3 * per_pairing))
  "$autotest" -tournament gauntlet \
    -engine cmd="$wrapper" name=a depth=$depth_a nodes=150000 $common $pvs option.hash=1 option.tt_ways=2 option.split_depth=2 \
    -engine cmd="$wrapper" name=b depth=$depth_b nodes=150000 $common $pvs option.split_depth=0 option.lmr_r1=100 option.lmr_r2=100 option.use_nnue=false \
    -engine cmd="$wrapper" name=c nodes=500 $common option.Search=mcts option.mcts_tree_mb=16 \
    -engine cmd="$wrapper" name=d nodes=30000 $common option.Search=bestfirst option.hash=1 \
    -games "$per_pairing" -concurrency 2 -maxmoves "$n_moves" \
    -openings file=autotest/openings.txt -pgnout "$dir/games.pgn" -db "$dir/lab.db" \
    -event "consistency $flavour" >"$dir/autotest.out" 2>"$dir/autotest.stderr" || status=$?
  # Wait for every engine to finish its exit (leak checks, summaries).
  if ! flock -x -w 300 "$dir/engines.lock" true; then
    fail "engines still running 300 s after the tournament (killed)"
    for f in "$dir"/engine.*.pid; do
      [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true
    done
    flock -x -w 30 "$dir/engines.lock" true || true
  fi
  [ "$status" = 0 ] || fail "autotest exited with status $status: $(tail -1 "$dir/autotest.stderr")"
  local played
  played=$(grep -c '^game [0-9]*/' "$dir/autotest.stderr" || true)
  [ "$played" = "$n_games" ] || fail "$played of $n_games games played"
  local bad
  bad=$(grep -E '^game [0-9]+/.*(loses: |void game)' "$dir/autotest.stderr" | head -3 || true)
  [ -z "$bad" ] || fail "tournament: $(echo "$bad" | tr '\n' ';')"

  # Every engine, perft and bench process: exit status and peak memory.
  local peak_kb=0 f kb how
  local -a exits=()
  for f in "$dir"/*.time; do
    [ -f "$f" ] || continue
    how=$(grep -o 'Command terminated by signal [0-9]*' "$f" ||
      grep -o 'Exit status: [1-9][0-9]*' "$f" || true)
    grep -q "Exit status: " "$f" || how="no exit status"
    [ -z "$how" ] || exits+=("$(basename "$f" .time) ($how)")
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$f")
    [ "${kb:-0}" -gt "$peak_kb" ] && peak_kb=$kb
  done
  [ ${#exits[@]} -eq 0 ] || fail "${#exits[@]} processes ended badly: ${exits[*]:0:3}"
  local peak_mb=$(((peak_kb + 1023) / 1024))
  [ "$peak_mb" -le "$max_rss_mb" ] || fail "peak RSS $peak_mb MB above the limit of $max_rss_mb MB"

  # Reports: sanitizer and valgrind logs, check_rep failures, panics.
  local first reports
  reports=$(cat "$dir"/asan.* "$dir"/tsan.* 2>/dev/null | grep -E '^SUMMARY: |^==[0-9]+==ERROR: ' |
    sed -E 's|/rustc/[0-9a-f]+/||; s|^==[0-9]+==||' | sort | uniq -c | sort -rn || true)
  if [ -n "$reports" ]; then
    [ "$flavour" != tsan ] || [ "$have_rust_src" = 1 ] ||
      fail "std is not instrumented (no rust-src component: rustup component add rust-src)"
    fail "$(echo "$reports" | awk '{n += $1} END {print n}') sanitizer reports, by kind: $(echo "$reports" | head -4 | sed -E 's/^ *([0-9]+) (.*)/\2 (x\1)/' | paste -sd '|' -)"
  fi
  for f in "$dir"/valgrind.*; do
    case $f in *.supp) continue ;; esac
    [ -f "$f" ] || continue
    if ! grep -q "ERROR SUMMARY: " "$f"; then
      fail "valgrind log $(basename "$f") has no summary (the process did not finish)"
    elif ! grep -q "ERROR SUMMARY: 0 errors" "$f"; then
      first=$(grep -m1 -E '^==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|Source and|[0-9,]+ bytes in)' "$f" || true)
      fail "valgrind errors in $(basename "$f"): ${first:-$(grep -m1 'ERROR SUMMARY' "$f")}"
    fi
  done
  for f in "$dir"/*.stderr "$dir/autotest.out"; do
    [ -f "$f" ] || continue
    first=$(grep -m1 -E 'check_rep FAILED|panicked at|Sanitizer|runtime error' "$f" || true)
    [ -z "$first" ] || fail "$(basename "$f"): $first"
  done

  if [ ${#failures[@]} -eq 0 ]; then
    verdict="$flavour: PASS (games $played, perft $perft_ok, bench nodes $bench_nodes, peak RSS $peak_mb MB"
  else
    local IFS=';'
    verdict="$flavour: FAIL: ${failures[*]} (logs: ${dir#"$root"/}"
  fi
}

failed=0
start_all=$SECONDS
verdicts=()
for flavour in ${flavours//,/ }; do
  echo "consistency: $flavour ..."
  start=$SECONDS
  verdict=""
  run_flavour "$flavour"
  case $verdict in
    *PASS*|*"(logs: "*) verdict="$verdict, $((SECONDS - start)) s)" ;;
  esac
  case $verdict in *": FAIL"*) failed=$((failed + 1)) ;; esac
  echo "$verdict"
  verdicts+=("$verdict")
done
echo
echo "consistency ($([ "$quick" = 1 ] && echo quick || echo full)${plant:+, planted $plant}, $((SECONDS - start_all)) s):"
printf '  %s\n' "${verdicts[@]}"
[ "$failed" = 0 ]
