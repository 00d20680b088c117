//! `mcts_settle`: a new leaf valued once the lasers have settled, by a
//! search of zaps only (the evaluation does not see a shot about to be
//! fired).

use super::Walker;
use crate::rules::laser::Shots;
use crate::rules::movegen::for_each_move;
use crate::rules::moves::Move;

/// The score of zapping the enemy King in [`Walker::settle`]: past the
/// win/draw/loss model's range (its expected result is 1), below the mate
/// scores.
pub const KING_ZAP_CP: i32 = 5000;

impl Walker<'_> {
    /// A search of zaps only, `depth` plies at most, alpha-beta between
    /// `alpha` and `beta` (fail-soft): the side to move takes the
    /// evaluation's score (standing pat) or the best of its moves that zap
    /// an enemy piece, each answered the same way; zapping the enemy King
    /// is [`KING_ZAP_CP`]. Zaps never break the Ko rule, and a draw by
    /// repetition needs a position without a zap, so neither is looked at.
    pub(super) fn settle(&mut self, mut alpha: i32, beta: i32, depth: u32) -> i32 {
        let mut best = self.static_cp();
        if depth == 0 || best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let Some(zaps) = self.zaps() else {
            return KING_ZAP_CP;
        };
        for m in zaps {
            self.play(m);
            let v = -self.settle(-beta, -alpha, depth - 1);
            self.undo();
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The moves whose shot zaps an enemy piece, or `None` if one zaps the
    /// enemy King.
    pub(super) fn zaps(&self) -> Option<Vec<Move>> {
        let board = &self.board;
        let side = board.side();
        let shots = Shots::new(board);
        let (mut zaps, mut king) = (Vec::new(), false);
        for_each_move(board.pieces(side), board.pieces(side.opp()), |m, fp| {
            if let Some((_, victim)) = shots.victim(board, m, fp.touched) {
                if victim.color() != side {
                    king |= victim.is_king();
                    zaps.push(m);
                }
            }
        });
        (!king).then_some(zaps)
    }
}
