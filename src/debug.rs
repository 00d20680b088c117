//! Invariants you can switch on, and named dumps (the `debug-commands`
//! feature: this module, the `check_rep` option and the `dump` command do
//! not exist in the pedantic build, `make pedantic`).
//!
//! A data structure takes part in two steps, both next to its definition,
//! in a `#[cfg(feature = "debug-commands")] impl` block:
//!
//! 1. **A check**: implement [`CheckRep`] (its `NAME` and a `check_rep`
//!    that says what is wrong), then call [`check`] on it where the
//!    structure changes (the search does so after every make/unmake and at
//!    every node while the `check_rep` option is on, see `search`).
//! 2. **A dump**: a method returning text, and one row in [`DUMPS`], which
//!    the `dump <name>` command lists and runs.
//!
//! A failed check prints `check_rep FAILED: <structure>: <detail>` on
//! standard output (flushed), then on standard error, and exits the
//! process with status [`EXIT_STATUS`]: a broken invariant is a bug, and
//! whatever the engine would do next is not worth having.

use crate::board::Board;
use crate::search::order::Order;
use crate::search::tt::Table;
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

/// What the dumps can see: the engine's state between searches.
pub struct Context<'a> {
    /// The current position.
    pub board: &'a Board,
    pub tt: &'a Table,
    /// The move-ordering tables, one per search thread (thread 0 first).
    pub orders: &'a [Order],
}

/// A named dump: `dump <name>` prints `run`'s text.
pub struct Dump {
    pub name: &'static str,
    pub what: &'static str,
    pub run: fn(&Context) -> String,
}

/// Number of history entries `dump history` shows.
pub const HISTORY_TOP: usize = 20;
/// Number of table entries `dump tt` shows.
pub const TT_FIRST: usize = 10;

/// Every dump, in the order `dump` lists them. Add a row to add a dump.
pub const DUMPS: &[Dump] = &[
    Dump {
        name: "board",
        what: "the board: squares, FEN, key, occupancy bitboards, King squares",
        run: |cx| cx.board.dump(),
    },
    Dump {
        name: "tt",
        what: "the transposition table: shape, fill, this position's entry, the first entries",
        run: |cx| cx.tt.dump(cx.board.key(), TT_FIRST),
    },
    Dump {
        name: "killers",
        what: "thread 0's killer moves by ply",
        run: |cx| match cx.orders.first() {
            Some(o) => o.dump_killers(),
            None => "no move-ordering tables\n".to_string(),
        },
    },
    Dump {
        name: "history",
        what: "thread 0's largest history counters, with their moves",
        run: |cx| match cx.orders.first() {
            Some(o) => o.dump_history(HISTORY_TOP),
            None => "no move-ordering tables\n".to_string(),
        },
    },
    Dump {
        name: "coverage",
        what: "each side's laser-coverage map (min beam length by square) and sum",
        run: |cx| crate::eval::coverage::dump(cx.board),
    },
];

/// The dump named `name` (case-insensitive).
pub fn find_dump(name: &str) -> Option<&'static Dump> {
    DUMPS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

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

    #[test]
    fn every_dump_runs_on_the_start_position() {
        let board = fen::parse(fen::STARTPOS).unwrap();
        let tt = Table::new(1, 4);
        let orders = [Order::default()];
        let cx = Context {
            board: &board,
            tt: &tt,
            orders: &orders,
        };
        for d in DUMPS {
            let text = (d.run)(&cx);
            assert!(text.ends_with('\n') && text.len() > 1, "{}", d.name);
        }
        assert!(find_dump("TT").is_some());
        assert!(find_dump("nosuch").is_none());
        let empty = Context { orders: &[], ..cx };
        assert!((find_dump("history").unwrap().run)(&empty).contains("no move-ordering"));
    }
}
