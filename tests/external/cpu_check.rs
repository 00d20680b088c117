//! The engine on CPUs older than its build's, under `qemu-x86_64 -cpu`
//! (Debian's `qemu-user`): a build for x86-64-v3 (the default,
//! `.cargo/config.toml`) says what it needs and exits 1 on a Nehalem,
//! which has no AVX2, rather than dying with SIGILL; on a Haswell, the first
//! x86-64-v3 CPU, it runs. A portable build (`make build ARCH=x86-64`, any
//! `RUSTFLAGS` without AVX2) runs on both.

use crate::common::needs;
use libtest_mimic::Trial;
use std::path::Path;
use std::process::Command;

/// What `qemu-x86_64` finds on PATH, and how to get it.
const QEMU: needs::Need = needs::Need::Program {
    names: &["qemu-x86_64"],
    get: "`make deps` as root installs Debian's qemu-user",
};

/// The start position's `perft 2`: enough to run the move generator's
/// bit counts, which are where x86-64-v3's instructions are.
const PERFT_2: &str = "perft 2 3757";

/// The message `src/cpu.rs` prints, its opening words.
const UNSUPPORTED: &str = "leiserchess: this build is for x86-64-v3 CPUs";

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "cpu_check::older_cpus_get_a_message_and_newer_ones_run",
        &[QEMU],
        |found| older_cpus_get_a_message_and_newer_ones_run(&found[0]),
    )]
}

/// `leiserchess perft 2` on `cpu`: exit code, standard output and error.
fn perft_on(qemu: &Path, cpu: &str) -> (Option<i32>, String, String) {
    let out = Command::new(qemu)
        .args(["-cpu", cpu, env!("CARGO_BIN_EXE_leiserchess"), "perft", "2"])
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", qemu.display()));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn older_cpus_get_a_message_and_newer_ones_run(qemu: &Path) {
    let (code, out, err) = perft_on(qemu, "Haswell");
    assert_eq!(code, Some(0), "on a Haswell: {err}");
    assert!(out.starts_with(PERFT_2), "on a Haswell: {out}");
    let (code, out, err) = perft_on(qemu, "Nehalem");
    if cfg!(target_feature = "avx2") {
        // qemu warns about features it cannot emulate: the message is the
        // last line.
        assert_eq!(code, Some(1), "on a Nehalem: {out}{err}");
        assert_eq!(out, "", "on a Nehalem, nothing but the message");
        let last = err.lines().last().unwrap_or("");
        assert!(last.starts_with(UNSUPPORTED), "on a Nehalem: {err}");
        assert!(last.contains("make build ARCH=x86-64"), "{last}");
    } else {
        assert_eq!(code, Some(0), "a portable build on a Nehalem: {err}");
        assert!(
            out.starts_with(PERFT_2),
            "a portable build on a Nehalem: {out}"
        );
    }
}
