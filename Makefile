# The verbs people type. `make test` is what CI runs.
CARGO ?= cargo
SHARED ?= ../shared

.PHONY: build test lint perft bench clean

build:
	$(CARGO) build --release

# Formatting, lints, then every test (perft suite within its node budget).
test: lint
	$(CARGO) test --workspace

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# The whole perft suite, start position to depth 6 included.
perft:
	$(CARGO) test --release --test perft -- --include-ignored

bench:
	$(CARGO) bench --bench core --bench eval

clean:
	$(CARGO) clean
