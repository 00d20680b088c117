//! The trail from the game's start to the position a search stands on:
//! what the draw and Ko rules read of the positions before it, pushed and
//! popped one ply at a time. PVS's threads, MCTS's playouts and the
//! best-first tree's expansions all walk one.

use crate::check_rep::{ensure, CheckRep};
use crate::rules::repetition::LastMove;
use crate::search::root::Root;

/// What the rules need of a position on the trail besides its key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Frame {
    /// Plies since the last zap.
    zap_clock: u32,
    /// The squares the move to it changed; at the root, the game's last
    /// move's, if known.
    touched: Option<u64>,
}

/// The positions from the game's start to the current one.
#[derive(Clone, Default)]
pub struct Trail {
    /// Keys of every position before the current one, game and path: the
    /// rules read them as one slice.
    keys: Vec<u64>,
    /// The game's keys: those at the root.
    root_keys: usize,
    /// A frame for each position from the root to the current one.
    frames: Vec<Frame>,
}

impl Trail {
    /// The trail of `root`: its game's keys and its own frame.
    pub fn reset(&mut self, root: &Root) {
        self.keys.clone_from(&root.history);
        self.root_keys = root.history.len();
        self.frames.clear();
        self.frames.push(Frame {
            zap_clock: root.plies_since_zap,
            touched: root.last_move.map(|m| m.touched()),
        });
    }

    /// Steps from the position with `key` by a move that changed the
    /// squares `touched` and zapped a piece or not.
    #[inline(always)]
    pub fn push(&mut self, key: u64, touched: u64, zapped: bool) {
        let clock = if zapped { 0 } else { self.zap_clock() + 1 };
        self.keys.push(key);
        self.frames.push(Frame {
            zap_clock: clock,
            touched: Some(touched),
        });
    }

    /// Steps back to the position before.
    #[inline(always)]
    pub fn pop(&mut self) {
        self.keys.pop();
        self.frames.pop();
    }

    /// The keys of the positions before the current one, oldest first.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Plies since the last zap at the current position.
    #[inline(always)]
    pub fn zap_clock(&self) -> u32 {
        self.current().zap_clock
    }

    /// The move to the current position as the Ko rule sees it.
    #[inline(always)]
    pub fn last_move(&self) -> Option<LastMove> {
        let f = self.current();
        f.touched.map(|touched| LastMove {
            touched,
            zapped: f.zap_clock == 0,
        })
    }

    /// Plies from the root to the current position.
    pub fn plies(&self) -> usize {
        self.frames.len().wrapping_sub(1)
    }

    fn current(&self) -> &Frame {
        self.frames.last().expect("the root's frame")
    }
}

impl CheckRep for Trail {
    const NAME: &'static str = "search stack";

    /// A frame for the root and one for each key after the game's (how
    /// deep a path may go is each search's own rule); a zap clock one more
    /// than the one before or zero; every move's squares known.
    fn check_rep(&self) -> Result<(), String> {
        ensure(!self.frames.is_empty(), || {
            "no frame for the root".to_string()
        })?;
        let n = self.plies();
        ensure(self.keys.len() == self.root_keys + n, || {
            format!(
                "{} keys for {n} moves from a root with {}",
                self.keys.len(),
                self.root_keys
            )
        })?;
        for (i, w) in self.frames.windows(2).enumerate() {
            ensure(
                w[1].zap_clock == 0 || w[1].zap_clock == w[0].zap_clock + 1,
                || {
                    format!(
                        "zap clock {} at ply {} after {}",
                        w[1].zap_clock,
                        i + 1,
                        w[0].zap_clock
                    )
                },
            )?;
            ensure(w[1].touched.is_some(), || {
                format!("no squares for the move to ply {}", i + 1)
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;
    use crate::rules::moves::Move;

    fn trail() -> Trail {
        let mut trail = Trail::default();
        trail.reset(&Root {
            board: fen::parse(fen::STARTPOS).unwrap(),
            history: vec![1, 2, 3],
            plies_since_zap: 7,
            last_move: Some(Move::parse("h0L").unwrap()),
            searchmoves: Vec::new(),
        });
        trail
    }

    #[test]
    fn a_push_steps_every_part_of_the_trail_and_a_pop_takes_it_back() {
        let mut l = trail();
        let root_move = Move::parse("h0L").unwrap().touched();
        assert_eq!((l.plies(), l.zap_clock()), (0, 7));
        assert_eq!(l.last_move().map(|m| m.touched), Some(root_move));
        l.push(4, 0, false);
        assert_eq!((l.plies(), l.zap_clock()), (1, 8));
        assert_eq!(l.keys(), [1, 2, 3, 4]);
        l.push(5, 0b110, true);
        assert_eq!(l.zap_clock(), 0);
        let last = l.last_move().unwrap();
        assert_eq!((last.touched, last.zapped), (0b110, true));
        assert_eq!(l.check_rep(), Ok(()));
        l.pop();
        l.pop();
        assert_eq!((l.plies(), l.zap_clock(), l.keys().len()), (0, 7, 3));
        assert_eq!(l.check_rep(), Ok(()));
    }

    #[test]
    fn each_broken_trail_is_caught_with_its_message() {
        let mut l = trail();
        l.keys.push(4);
        assert_eq!(
            l.check_rep().unwrap_err(),
            "4 keys for 0 moves from a root with 3"
        );
        let mut l = trail();
        l.frames.clear();
        assert_eq!(l.check_rep().unwrap_err(), "no frame for the root");
        let mut l = trail();
        l.push(4, 1, false);
        l.frames[1].zap_clock = 9;
        assert_eq!(l.check_rep().unwrap_err(), "zap clock 9 at ply 1 after 7");
        l.frames[1].zap_clock = 0;
        assert_eq!(l.check_rep(), Ok(()));
        l.frames[1].touched = None;
        assert_eq!(
            l.check_rep().unwrap_err(),
            "no squares for the move to ply 1"
        );
    }
}
