# shellcheck shell=bash
# Sourced by scripts that need a cargo subcommand from crates.io:
#   need_cargo_tool PREFIX SUBCOMMAND CRATE
# installs CRATE (cargo install --locked) when `cargo SUBCOMMAND` is
# missing, or prints the command and exits 1 if that fails.
need_cargo_tool() {
  local prefix=$1 sub=$2 crate=$3
  cargo "$sub" --version >/dev/null 2>&1 && return 0
  echo "$prefix: installing $crate (cargo install $crate --locked)"
  cargo install "$crate" --locked >/dev/null 2>&1 && cargo "$sub" --version >/dev/null 2>&1 || {
    echo "$prefix: $crate did not install; run: cargo install $crate --locked" >&2
    exit 1
  }
}
