//! The `debug-commands` feature's part of the loop: `check_rep` on the
//! game's board, `dump`, and the hidden `debug corrupt board`.

use super::{line_out, say, Engine};
use crate::protocol::dump::{find_dump, Context, DUMPS};
use crate::rules::board::Corruption;
use crate::rules::game::{Game, Outcome};
use crate::user_text::quote;

impl Engine {
    /// With the `check_rep` option on, checks the game's board (a board
    /// whose King was zapped is the end of a game, and allowed).
    pub(super) fn check_game(&self) {
        if self.config.search.check_rep {
            let zapped = matches!(self.game.outcome(), Some(Outcome::KingZapped { .. }));
            crate::check_rep::report("board", self.game.board().check_rep_with(zapped));
        }
    }

    /// `dump [name]`: lists the dumps, or prints one.
    pub(super) fn dump(&self, args: &[&str], out: &mut Vec<u8>) {
        match args {
            [] => {
                for d in DUMPS {
                    line_out(out, &format!("{:<10} {}", d.name, d.what));
                }
            }
            [name] => match find_dump(name) {
                Some(d) => {
                    let cx = Context {
                        board: self.game.board(),
                        tt: &self.shared.tt,
                        orders: &self.memory.orders,
                    };
                    out.extend_from_slice((d.run)(&cx).as_bytes());
                }
                None => {
                    let names: Vec<&str> = DUMPS.iter().map(|d| d.name).collect();
                    say(
                        out,
                        format!(
                            "error: unknown dump '{}'; the dumps are {}",
                            quote(name),
                            names.join(" ")
                        ),
                    )
                }
            },
            _ => say(
                out,
                "error: dump takes at most one name ('dump' lists them)".to_string(),
            ),
        }
    }

    /// `debug corrupt board [how]`: breaks the current board (a new game
    /// from it, history dropped) so that tests can see `check_rep` catch
    /// it. A testing aid: with `check_rep` off, what the engine does with
    /// such a board is undefined (it may panic).
    pub(super) fn debug(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let names: Vec<&str> = Corruption::ALL.iter().map(|c| c.name()).collect();
        let how = match args {
            ["corrupt", "board"] => Some(Corruption::Key),
            ["corrupt", "board", how] => Corruption::parse(how),
            _ => None,
        };
        let Some(how) = how else {
            return say(
                out,
                format!(
                    "error: debug wants 'corrupt board [{}]', got '{}'",
                    names.join("|"),
                    quote(&args.join(" "))
                ),
            );
        };
        let mut board = self.game.board().clone();
        board.corrupt_for_test(how);
        self.game = Game::new(board);
        say(
            out,
            format!(
                "board corrupted ({}), a testing aid for check_rep",
                how.name()
            ),
        );
    }
}
