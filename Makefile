# The verbs people type. `make test` is what CI runs.
CARGO ?= cargo
SHARED ?= ../shared

.PHONY: build pedantic test lint signature perft bench profile tournament consistency consistency-quick clean

build:
	$(CARGO) build --release

# The release engine without the `debug-commands` feature (no `check_rep`
# option, no `dump`): exactly PROTOCOL.md's surface. Its own target dir, so
# that target/release/leiserchess stays the default build:
# target/pedantic/release/leiserchess.
pedantic:
	$(CARGO) build --release --no-default-features --target-dir target/pedantic

# Formatting, lints, every test (perft suite within its node budget), and
# the release build's bench signature.
test: lint
	$(CARGO) test --workspace
	$(CARGO) test --no-default-features --target-dir target/pedantic --test pedantic --test uci
	$(MAKE) signature

# The release build must search exactly as the test build does: its bench
# node total must equal bench/signature.txt (update it when search changes).
signature: build
	@want=$$(cat bench/signature.txt); \
	got=$$(./target/release/leiserchess bench | awk '/^nodes/ {print $$2}'); \
	if [ "$$got" = "$$want" ]; then echo "bench signature $$got: ok"; \
	else echo "bench signature $$got, expected $$want (bench/signature.txt)"; exit 1; fi

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --no-default-features --all-targets -- -D warnings

# The whole perft suite, start position to depth 6 included.
perft:
	$(CARGO) test --release --test perft -- --include-ignored

bench:
	$(CARGO) bench --bench core --bench eval

# A flamegraph of the bench positions searched to depth 7 (bench/profile.rs),
# written to PROFILE_OUT, with the top functions printed; see docs/PROFILE.md.
PROFILE_OUT ?= target/profile/flamegraph.svg
PROFILE_SECONDS ?= 10
profile:
	CARGO="$(CARGO)" scripts/profile.sh $(PROFILE_OUT) $(PROFILE_SECONDS)

# A short self-play tournament out of the box: depth 5 against depth 4 on
# the committed openings, colour-swapped pairs, all cores; PGN in target/.
TOURNAMENT_GAMES ?= 20
tournament: build
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
consistency:
	scripts/consistency.sh

consistency-quick:
	scripts/consistency.sh --quick
	scripts/consistency.sh --selftest

clean:
	$(CARGO) clean
