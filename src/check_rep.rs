//! Invariants: each structure says what must hold of it, and the search
//! checks them while the `check_rep` option is on. The tools are always
//! built (the tests check invariants in every build); the option, the
//! search's hooks and the `dump` command belong to the `debug-commands`
//! feature and do not exist in the pedantic build (`make pedantic`). This
//! module imports nothing from the crate: every structure imports it.
//!
//! A structure implements [`CheckRep`] (its `NAME` and a `check_rep` that
//! says what is wrong) in its own `check` submodule (`rules/board/check.rs`,
//! `search/tt/check.rs`, …); the search calls [`check`] on it where the
//! structure changes (after every make/unmake and at every node while the
//! `check_rep` option is on). Named dumps live beside their only user, the
//! protocol (`protocol::dump`).
//!
//! A failed check prints `check_rep FAILED: <structure>: <detail>` on
//! standard output (flushed), then on standard error, and exits the
//! process with status [`EXIT_STATUS`]: a broken invariant is a bug, and
//! whatever the engine would do next is not worth having.

use std::io::Write;

/// The exit status of a failed check.
pub const EXIT_STATUS: i32 = 3;

/// A structure whose invariants can be checked.
pub trait CheckRep {
    /// The structure's name in failure messages (`board`, `tt`, …).
    const NAME: &'static str;

    /// `Ok` if every invariant holds, else what is wrong, in words.
    fn check_rep(&self) -> Result<(), String>;
}

/// `Ok` if `cond`, else the detail.
#[inline(always)]
pub fn ensure(cond: bool, detail: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(detail())
    }
}

/// Checks `x`; on a broken invariant reports it and exits (see [`fail`]).
#[inline]
pub fn check<T: CheckRep + ?Sized>(x: &T) {
    if let Err(detail) = x.check_rep() {
        fail(T::NAME, &detail);
    }
}

/// Reports the result of a check of structure `name` (for checks that need
/// context, such as a board right after a King zap): exits on `Err`.
#[inline]
pub fn report(name: &str, r: Result<(), String>) {
    if let Err(detail) = r {
        fail(name, &detail);
    }
}

/// The failure line, without its newline.
pub fn message(name: &str, detail: &str) -> String {
    format!("check_rep FAILED: {name}: {detail}")
}

/// Prints the failure on standard output (flushed) and standard error, and
/// exits the process with [`EXIT_STATUS`].
#[cold]
#[inline(never)]
pub fn fail(name: &str, detail: &str) -> ! {
    let line = message(name, detail);
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    eprintln!("{line}");
    std::process::exit(EXIT_STATUS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_failure_line_names_structure_and_detail() {
        assert_eq!(
            message("board", "key is 1, recomputed 2"),
            "check_rep FAILED: board: key is 1, recomputed 2"
        );
    }

    #[test]
    fn ensure_builds_the_detail_only_on_failure() {
        assert_eq!(ensure(true, || unreachable!()), Ok(()));
        assert_eq!(ensure(false, || "x".to_string()), Err("x".to_string()));
    }
}
