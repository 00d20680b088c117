# The verbs people type (`make help` lists them). `make test` is what CI runs.
CARGO ?= cargo

.DEFAULT_GOAL := build
.PHONY: help deps slurm-local build pedantic check test lint signature perft bench bench-record profile tournament consistency consistency-quick soak fuzz fuzz-long mutants cluster-faults gui-load clean

# Every target with its `## ` line.
help: ## this list
	@awk -F':.*## ' '/^[a-z-]+:.*## / {printf "  make %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# What the tests need beyond Rust (Chromium and its driver, valgrind, …):
# installed with apt-get as root, else the command to run is printed.
deps: ## install the Debian packages the tests need (scripts/deps.sh)
	scripts/deps.sh

# The one-node Slurm cluster autotest's -slurm tests run on (Debian's
# packages, installed if missing, as deps are); `scripts/slurm-local.sh
# stop` ends it.
slurm-local: ## start a one-node Slurm on this machine (scripts/slurm-local.sh)
	scripts/slurm-local.sh start

# ARCH=x86-64 (any `-C target-cpu`) builds for that CPU rather than
# .cargo/config.toml's x86-64-v3, in its own target dir: the portable build
# for CPUs without AVX2 is target/x86-64/release/leiserchess.
ARCH ?=
ARCH_BUILD = $(if $(ARCH),RUSTFLAGS="-C target-cpu=$(ARCH)" $(CARGO) build --target-dir target/$(ARCH),$(CARGO) build)
build: ## the release engine (LTO, one codegen unit): target/release/leiserchess; ARCH=x86-64: portable
	$(ARCH_BUILD) --release

# The release engine without the `debug-commands` feature (no `check_rep`
# option, no `dump`): exactly PROTOCOL.md's surface. Its own target dir, so
# that target/release/leiserchess stays the default build:
# target/pedantic/release/leiserchess.
pedantic: ## the release engine without `debug-commands`: target/pedantic/release/leiserchess
	$(CARGO) build --release --no-default-features --target-dir target/pedantic

# What needs no root: no packages installed, no daemons, nothing written
# outside the repository and target/. Formatting, lints, and the tests that
# need nothing beyond Rust; a test that needs a program (Chromium, qemu,
# curl, Slurm) is left out, found or not (LEISERCHESS_NEEDS=none), and run
# by `make test`.
# Temporary files (rustc's while it links, the scripts' mktemp, the tests'
# std::env::temp_dir) go to target/tmp too.
check: export TMPDIR := $(CURDIR)/target/tmp
check: lint ## fmt, clippy, the tests that need nothing beyond Rust: no root, changes nothing outside the repo
	LEISERCHESS_NEEDS=none $(CARGO) test --no-default-features --test engine -- pedantic:: uci_loop::
	LEISERCHESS_NEEDS=none $(CARGO) test --workspace

# Formatting, lints, every test (perft suite within its node budget), and
# the release build's bench signature. The UCI surface tests run first
# without the `debug-commands` feature, in the same target dir: only the
# leiserchess crate builds twice, and target/debug/leiserchess ends as the
# default build. deps and slurm-local have provided Chromium, chromedriver
# and Slurm, so a test that finds one missing fails rather than being
# ignored (LEISERCHESS_REQUIRE_ALL=1, tests/common/needs.rs).
test: deps slurm-local lint ## fmt, clippy -D warnings, every test (with and without debug-commands), signature
	$(CARGO) test --no-default-features --test engine -- pedantic:: uci_loop::
	LEISERCHESS_REQUIRE_ALL=1 $(CARGO) test --workspace
	$(MAKE) signature

# The release build must search exactly as the test build does: `bench
# --search pvs`'s node total must equal bench/signature-pvs.txt, `bench
# --search mcts`'s tree signature bench/signature-mcts.txt, and `bench
# --search hybrid`'s and plain `bench`'s (the default search's)
# bench/signature-hybrid.txt (update them when a search changes).
signature: build ## `leiserchess bench` (default, pvs, mcts, hybrid) signatures must equal bench/signature-*.txt
	@check() { \
	  want=$$(cat $$1); got=$$(./target/release/leiserchess bench $$2 | awk "/^$$3/ {print \$$2}"); \
	  if [ "$$got" = "$$want" ]; then echo "bench $$2 signature $$got: ok"; \
	  else echo "bench $$2 signature $$got, expected $$want ($$1)"; return 1; fi; }; \
	check bench/signature-pvs.txt "--search pvs" nodes && \
	check bench/signature-mcts.txt "--search mcts" signature && \
	check bench/signature-hybrid.txt "--search hybrid" signature && \
	check bench/signature-hybrid.txt "" signature

lint: ## cargo fmt --check, and clippy -D warnings with and without debug-commands
	mkdir -p target/tmp
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --no-default-features --all-targets -- -D warnings

# The whole perft suite, start position to depth 6 included.
perft: ## the whole perft suite, start position depth 6 included
	$(CARGO) test --release --test perft -- --include-ignored

bench: ## criterion benchmarks (move generation, make/unmake, laser, perft, eval)
	$(CARGO) bench --bench core --bench eval

# A flamegraph of the bench positions searched to depth 7 (bench/profile.rs),
# written to PROFILE_OUT, with the top functions printed; see docs/PROFILE.md.
PROFILE_OUT ?= target/profile/flamegraph.svg
PROFILE_SECONDS ?= 10
profile: ## flamegraph of the bench workload: target/profile/flamegraph.svg
	CARGO="$(CARGO)" scripts/profile.sh $(PROFILE_OUT) $(PROFILE_SECONDS)

# bench (pvs, mcts), perft and evalbench of the release engine, three
# rounds each, recorded in the results database (autotest/README.md).
bench-record: build ## record the release engine's benchmarks in the results database
	$(CARGO) build --release -p autotest
	./target/release/autotest bench-record -engine target/release/leiserchess

# A short self-play tournament out of the box: depth 5 against depth 4 on
# the committed openings, colour-swapped pairs, all cores; PGN in target/.
TOURNAMENT_GAMES ?= 20
tournament: build ## self-play, depth 5 vs depth 4, TOURNAMENT_GAMES games: target/tournament.pgn
	$(CARGO) build --release -p autotest
	./target/release/autotest \
	  -engine cmd=target/release/leiserchess name=depth5 depth=5 \
	  -engine cmd=target/release/leiserchess name=depth4 depth=4 \
	  -games $(TOURNAMENT_GAMES) -openings file=autotest/openings.txt \
	  -pgnout target/tournament.pgn -event "make tournament"

# Sanitizer (ASan, TSan), valgrind and debug builds of the engine, each
# playing self-play games with check_rep on and 2 threads, plus perft and
# bench; one verdict line per build (scripts/consistency.sh; logs in
# target/consistency/logs). `consistency-quick` is CI's short run, with the
# self-test that planted faults (a corrupted board, a 1 MB memory limit) fail.
consistency: deps ## sanitizer, valgrind and debug-build self-play with check_rep on
	scripts/consistency.sh

consistency-quick: deps ## the short consistency run (CI's), and its self-test
	scripts/consistency.sh --quick
	scripts/consistency.sh --selftest

# The soak: 10,000 games of PVS, MCTS and best-first (1 and 2 threads,
# check_rep and the dev build for a share) over the multi-node Slurm
# cluster, engines kept from game to game; faults and each session's
# memory counted (scripts/soak.sh; resumable; target/soak/). SOAK_SCALE
# divides every leg (10: 1,000 games).
SOAK_SCALE ?= 1
soak: ## 10,000 games over the multi-node cluster (/SOAK_SCALE); faults and memory counted
	scripts/soak.sh $(SOAK_SCALE)

# Coverage-guided fuzzing (scripts/fuzz.sh; docs/TESTING.md "Fuzzing"):
# every libFuzzer target of fuzz/ in turn from its committed corpus,
# FUZZ_SECONDS each (CI-sized), or FUZZ_LONG each: seconds, or -runs=N
# for N executions. Fails on a crash; inputs and logs in target/fuzz/.
FUZZ_SECONDS ?= 20
FUZZ_LONG ?= 3600
fuzz: ## every fuzz target FUZZ_SECONDS s (20); fails on a crash (scripts/fuzz.sh)
	scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-long: ## every fuzz target FUZZ_LONG s (3600), or FUZZ_LONG=-runs=N executions
	scripts/fuzz.sh $(FUZZ_LONG)

# Mutation testing of one folder (scripts/mutants.sh; docs/TESTING.md
# "Mutation testing"): resumes the folder's last run unless MUTANTS_ARGS
# has --again; results in target/mutation/.
FOLDER ?= src/search/tt
MUTANTS_ARGS ?=
mutants: ## cargo-mutants on FOLDER (src/rules, src/eval, src/search/tt, autotest/src/stats, autotest/src/referee)
	scripts/mutants.sh $(FOLDER) $(MUTANTS_ARGS)

# A three-node Slurm in network namespaces (scripts/slurm-nodes.sh, root):
# a node killed or cut off, the coordinator or an engine killed mid-run;
# the merge must equal the local run. `scripts/slurm-nodes.sh stop` ends it.
cluster-faults: build ## autotest -slurm against node, link, coordinator and engine faults (root)
	$(CARGO) test --release -p autotest --test cluster_faults -- --nocapture

# The GUI server under load (scripts/gui_load.sh; wrk from Debian's
# packages): requests a second, p50/p99 and errors for the page, a game's
# state and a move; the 413 and the loopback checked. Fails on any error.
LOAD_SECONDS ?= 10
gui-load: build ## wrk against `leiserchess gui` on 127.0.0.1, LOAD_SECONDS each
	scripts/gui_load.sh $(LOAD_SECONDS)

clean: ## cargo clean
	$(CARGO) clean
