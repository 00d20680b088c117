//! Move ordering state: two killer moves per ply and a history table of
//! moves that caused cut-offs, by side and move. The move picker
//! (`movepick`) orders by them; their invariants and the `dump killers` and
//! `dump history` texts are in `check`.

mod check;

use crate::rules::moves::Move;
use crate::rules::piece::Color;

pub const MAX_PLY: usize = 128;

/// Moves are 14 significant bits (see `moves`): one counter each, per side.
const HISTORY_SIZE: usize = 1 << 14;

pub struct Order {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<u32>,
}

impl Default for Order {
    fn default() -> Self {
        Order {
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 2 * HISTORY_SIZE],
        }
    }
}

fn slot(side: Color, m: Move) -> usize {
    side.index() * HISTORY_SIZE + (m.bits() as usize & (HISTORY_SIZE - 1))
}

impl Order {
    /// The largest history counter `cutoff` leaves.
    pub const HISTORY_MAX: u32 = 1 << 24;

    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY - 1)]
    }

    pub fn history(&self, side: Color, m: Move) -> u32 {
        self.history[slot(side, m)]
    }

    /// Records a quiet move that caused a beta cut-off at `ply`, `depth`.
    pub fn cutoff(&mut self, side: Color, m: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply.min(MAX_PLY - 1)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[slot(side, m)];
        *h = h.saturating_add((depth * depth).max(1) as u32);
        // Keep counters bounded so old successes fade.
        if *h > Order::HISTORY_MAX {
            self.history.iter_mut().for_each(|x| *x /= 2);
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self = Order::default();
    }
}
