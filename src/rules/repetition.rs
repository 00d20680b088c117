//! Positions that come back: the Ko rule and the draw by repetition
//! (RULES.md "Ko rule", "End of the game"), decided from the keys of the
//! earlier positions. The game (`game`) and the search both ask here; the
//! search differs in one named place, [`TREE_REPETITIONS`].
//!
//! A zap removes a piece for good, so no position after a zap equals one
//! before it: only the positions since the last zap can come back.

use crate::rules::zobrist::SIDE_KEY;

/// The occurrence of a position that draws a game: the third (RULES.md).
pub const GAME_REPETITIONS: u32 = 3;

/// The occurrence the search scores as a draw inside its tree: the second.
/// A position that has come back once can be brought back again by the same
/// moves, so its score is at most the draw the side that wants it can force;
/// stopping there saves searching the cycle a second and third time.
pub const TREE_REPETITIONS: u32 = 2;

/// Whether the position with `key` occurs for the `times`-th time or more:
/// itself, plus the same key among the earlier positions `history` (oldest
/// first, the current one excluded), of which the last `plies_since_zap`
/// came after the last zap. Only every second one has the same side to
/// move, so only those are compared.
#[inline]
pub fn repeats(key: u64, history: &[u64], plies_since_zap: u32, times: u32) -> bool {
    let earlier = times.saturating_sub(1) as usize;
    let since = history.len().saturating_sub(plies_since_zap as usize);
    earlier == 0
        || history[since..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == key)
            .nth(earlier - 1)
            .is_some()
}

/// RULES.md's Ko rule: whether a move from the position with key `now` to
/// the one with key `after` (after the shot) is forbidden, `history` being
/// the keys before `now`: `after` is the position before the opponent's
/// last move, or the board is unchanged.
#[inline]
pub fn breaks_ko(history: &[u64], now: u64, after: u64) -> bool {
    after == now ^ SIDE_KEY || history.last() == Some(&after)
}

/// The opponent's last move as the Ko rule sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LastMove {
    /// The squares it changed (`Move::touched`).
    pub touched: u64,
    /// Whether its shot zapped a piece.
    pub zapped: bool,
}

/// Whether a move that changes the squares `touched` and zaps a piece or
/// not (`zaps`) can break the Ko rule at all; a cheap test that needs no
/// move played, exact as a filter before [`breaks_ko`]. Every square a move
/// touches changes (a swap is with an enemy piece, a rotation turns), so
/// the board is never unchanged; to recreate the position before the
/// opponent's last move, neither move may zap (the pieces must be the same)
/// and this move must change exactly the squares that one changed.
#[inline]
pub fn may_break_ko(touched: u64, zaps: bool, last: Option<LastMove>) -> bool {
    !zaps && last.is_some_and(|l| !l.zapped && l.touched == touched)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of a cycle of four plies from position 10: 10 11 12 13 10 11 …
    fn cycle(plies: usize) -> Vec<u64> {
        (0..plies).map(|i| 10 + (i % 4) as u64).collect()
    }

    #[test]
    fn the_game_draws_at_the_third_occurrence_the_tree_at_the_second() {
        let once = cycle(4);
        assert!(!repeats(10, &once, 4, GAME_REPETITIONS));
        assert!(repeats(10, &once, 4, TREE_REPETITIONS));
        let twice = cycle(8);
        assert!(repeats(10, &twice, 8, GAME_REPETITIONS));
        assert!(repeats(10, &twice, 8, TREE_REPETITIONS));
        // The first occurrence draws under neither.
        assert!(!repeats(14, &twice, 8, TREE_REPETITIONS));
    }

    #[test]
    fn only_positions_since_the_last_zap_with_the_same_side_count() {
        let h = cycle(8);
        // A zap three plies ago: the cycle's start is before it.
        assert!(!repeats(10, &h, 3, TREE_REPETITIONS));
        // The key one ply back has the other side to move.
        assert!(!repeats(13, &h, 8, TREE_REPETITIONS));
        assert!(repeats(13, &h[..7], 7, TREE_REPETITIONS));
        assert!(!repeats(13, &h[..7], 3, TREE_REPETITIONS));
        assert!(repeats(10, &[], 0, 1) && !repeats(10, &[], 0, 2));
    }

    #[test]
    fn ko_forbids_the_position_before_the_opponents_move_and_no_change() {
        let history = [1, 2];
        assert!(breaks_ko(&history, 3, 2));
        assert!(!breaks_ko(&history, 3, 1));
        assert!(breaks_ko(&history, 3, 3 ^ SIDE_KEY));
        assert!(!breaks_ko(&[], 3, 2));
    }

    #[test]
    fn only_a_quiet_move_undoing_a_quiet_move_may_break_ko() {
        let last = LastMove {
            touched: 0b110,
            zapped: false,
        };
        assert!(may_break_ko(0b110, false, Some(last)));
        assert!(!may_break_ko(0b110, true, Some(last)));
        assert!(!may_break_ko(0b011, false, Some(last)));
        let zapping = LastMove {
            zapped: true,
            ..last
        };
        assert!(!may_break_ko(0b110, false, Some(zapping)));
        assert!(!may_break_ko(0b110, false, None));
    }
}
