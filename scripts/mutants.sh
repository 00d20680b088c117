#!/usr/bin/env bash
# Mutation testing with cargo-mutants: every mutant of one folder's code
# (an operator swapped, a function's body replaced by a default value, a
# condition negated), each built and tested with the tests that own that
# folder. A mutant the tests fail on (or that hangs them) is caught; one
# they pass is missed. Prints the counts, the share caught and the missed
# mutants; the full record goes to target/mutation/NAME/mutants.out/.
#
# usage: scripts/mutants.sh FOLDER [--again] [--jobs N] [--shard K/N] [--re REGEX]   (make mutants FOLDER=...)
#   FOLDER   one of: src/rules src/eval src/search/tt autotest/src/stats
#            autotest/src/referee
#   --again  test every mutant again (default: resume, skipping the mutants
#            a previous run of this folder already caught: cargo-mutants'
#            --iterate)
#   --jobs N mutants built and tested at once (default 1)
#   --shard K/N  only every Nth mutant from the Kth (cargo-mutants'
#            round-robin sharding, K from 0): a systematic sample of a large
#            folder, in its own output directory
#   --re REGEX   only the mutants whose name (FILE:LINE:COL: what) matches
#            REGEX (cargo-mutants' --re), all tested, in an output
#            directory of its own: the missed ones again, once tests are
#            added for them
#
# cargo-mutants and cargo-nextest are installed when missing (cargo
# install … --locked). Builds use the `mutants` profile (Cargo.toml): incremental and
# lightly optimised, since every mutant is a rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '/^# usage/,/^# cargo-mutants and cargo-nextest/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

folder=${1:-}
shift || true
again=0
jobs=1
shard=""
re=""
while [ $# -gt 0 ]; do
  case "$1" in
    --again) again=1 ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "mutants: --jobs wants a count above 0, got '${2:-}'" >&2; exit 2; }
            jobs=$2; shift ;;
    --shard) [[ ${2:-} =~ ^([0-9]+)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] ||
               { echo "mutants: --shard wants K/N with 0 <= K < N, got '${2:-}'" >&2; exit 2; }
             shard=$2; shift ;;
    --re) [ -n "${2:-}" ] || { echo "mutants: --re wants a regular expression" >&2; exit 2; }
          re=$2; shift ;;
    *) echo "mutants: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# The folder's files, the package, and the tests that own the folder: the
# test targets, and of a target that holds other tests too, the modules
# (a nextest filterset; none: every test of the targets).
filter=
case "${folder%/}" in
  src/rules)
    files=('src/rules/**') package=leiserchess
    tests=(--lib --test=perft --test=library)
    filter='kind(lib) | binary(perft) | (binary(library) & test(/^(properties|eval_reference)::/))' ;;
  src/eval)
    # The reference evaluation and its laser coverage; the net, the policy
    # and the WDL model have their own training tests.
    files=('src/eval/mod.rs' 'src/eval/coverage/**') package=leiserchess
    tests=(--lib --test=library)
    filter='kind(lib) | (binary(library) & test(/^(eval_reference|coverage_properties)::/))' ;;
  src/search/tt)
    files=('src/search/tt/**') package=leiserchess
    tests=(--lib --test=search)
    filter='kind(lib) | (binary(search) & test(/^search::/))' ;;
  autotest/src/stats)
    files=('autotest/src/stats/**') package=autotest
    tests=(--lib --test=tournament)
    filter='kind(lib) | (binary(tournament) & test(/^(spsa|flags)::/))' ;;
  autotest/src/referee)
    files=('autotest/src/referee/**') package=autotest
    tests=(--lib --test=tournament)
    filter='kind(lib) | (binary(tournament) & test(/^(games|faults|course_config|stderr|kept)::/))' ;;
  -h | --help) usage; exit 0 ;;
  *) echo "mutants: FOLDER must be one of src/rules src/eval src/search/tt autotest/src/stats autotest/src/referee, not '$folder'" >&2
     exit 2 ;;
esac

# nextest stops a mutant's tests at the first failure: a caught mutant
# costs its build and one failing test, not the whole suite.
# shellcheck source=scripts/cargo-tool.sh
. scripts/cargo-tool.sh
need_cargo_tool mutants nextest cargo-nextest
need_cargo_tool mutants mutants cargo-mutants

name=$(tr / - <<<"${folder%/}")
out=target/mutation/$name${shard:+-shard-${shard%/*}-of-${shard#*/}}${re:+-re}
selection=()
[ -z "$shard" ] || selection=(--shard "$shard" --sharding round-robin)
[ -z "$re" ] || { selection+=(--re "$re"); again=1; }
mkdir -p "$out"
file_args=()
for f in "${files[@]}"; do file_args+=(--file "$f"); done
# The test targets go to every cargo command, so that a mutant's build
# builds only them.
test_args=()
for t in "${tests[@]}"; do test_args+=("--cargo-arg=$t"); done
# The filterset goes to `cargo nextest run` only (after cargo-mutants' --).
run_args=()
[ -z "$filter" ] || run_args=(-- -E "$filter")
iterate=(--iterate)
[ $again -eq 1 ] || [ ! -d "$out/mutants.out" ] && iterate=()
echo "mutants: $folder: $(cargo mutants --list -p "$package" "${file_args[@]}" | wc -l) mutants, tests: ${tests[*]}${filter:+ ($filter)}"
set +e
cargo mutants -p "$package" "${file_args[@]}" "${iterate[@]}" "${selection[@]}" --jobs "$jobs" \
  --test-tool nextest --profile mutants --output "$out" --timeout-multiplier 3 --minimum-test-timeout 60 \
  "${test_args[@]}" "${run_args[@]}"
status=$?
set -e
# cargo-mutants' exit status: 0 all caught, 2 some missed, 3 some timed out.
case $status in 0 | 2 | 3) ;; *) echo "mutants: cargo-mutants failed ($status)" >&2; exit $status ;; esac

# The counts over every run of this folder (--iterate keeps earlier
# outcomes in previously_caught.txt).
dir=$out/mutants.out
count() { [ -s "$dir/$1" ] && wc -l <"$dir/$1" || echo 0; }
caught=$(( $(count caught.txt) + $(count previously_caught.txt) ))
missed=$(count missed.txt)
timeout=$(count timeout.txt)
unviable=$(count unviable.txt)
viable=$(( caught + missed + timeout ))
share=$(awk -v c=$((caught + timeout)) -v v=$viable 'BEGIN { if (v) printf "%.1f", 100 * c / v; else print "n/a" }')
echo "mutants: $folder${shard:+ (shard $shard)}${re:+ (--re $re)}: $viable viable, $caught caught, $timeout timed out (caught), $missed missed; $share% caught; $unviable unviable (do not build)"
if [ "$missed" -gt 0 ]; then
  echo "mutants: missed:"
  sed 's/^/  /' "$dir/missed.txt"
fi
