//! The `dump <name>` command's named dumps (the `debug-commands` feature):
//! text views of the engine's state between searches, for a person
//! debugging it. Add a row to [`DUMPS`] to add a dump.

use crate::rules::board::Board;
use crate::rules::fen;
use crate::rules::piece::Color;
use crate::search::pvs::order::Order;
use crate::search::tt::Table;
use std::fmt::Write;
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
        run: |cx| board(cx.board),
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

/// The board as text: squares, FEN, side, key, occupancy bitboards, King
/// squares, piece counts and whether `check_rep` holds.
pub fn board(b: &Board) -> String {
    let mut t = b.diagram();
    let _ = writeln!(t, "fen {}", fen::to_fen(b));
    let _ = writeln!(
        t,
        "side {:?} key {:016x} recomputed {:016x}",
        b.side(),
        b.key(),
        b.compute_key()
    );
    for c in Color::BOTH {
        let _ = writeln!(
            t,
            "{c:?}: occupancy {:#018x}, {} pieces, King square {} ({})",
            b.pieces(c),
            b.pieces(c).count_ones(),
            b.king(c),
            if b.has_king(c) {
                "King there"
            } else {
                "no King there"
            }
        );
    }
    let _ = writeln!(
        t,
        "check_rep {}",
        match b.check_rep_with(false) {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("FAILS: {e}"),
        }
    );
    t
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_board_dump_shows_fen_key_and_kings() {
        let b = fen::parse(fen::STARTPOS).unwrap();
        let d = board(&b);
        assert!(d.contains(&format!("fen {}", fen::STARTPOS)), "{d}");
        assert!(d.contains(&format!("key {:016x}", b.key())), "{d}");
        assert!(d.contains("King square h0"), "{d}");
        assert!(d.contains("check_rep ok"), "{d}");
    }
}
