//! A game: the board plus its history, the Ko rule, draws by repetition and
//! by the no-zap rule, and the result (RULES.md "Ko rule", "End of the game";
//! the rules on keys are in `repetition`).
//!
//! Only a zapped King ends the move list. A draw is the rules' verdict on
//! the current position, and play may go on past it: the referee decides
//! when a game ends, and referees differ (the course's uses a 200-ply
//! no-zap limit), so an engine must take any game a referee still plays.

use crate::rules::board::Board;
use crate::rules::fen::{self, FenError};
use crate::rules::movegen::generate;
use crate::rules::moves::{Move, MoveList, MoveParseError};
use crate::rules::piece::Color;
use crate::rules::repetition::{self, GAME_REPETITIONS, TREE_REPETITIONS};
use std::fmt;

/// Plies without a zap that draw a game (RULES.md): the one place the
/// rule's number is written; the `no_zap_plies` option and autotest take
/// their default from here.
pub const NO_ZAP_PLIES: u32 = 100;

/// When a game is drawn; RULES.md's values by default.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawRules {
    /// The occurrence of one position that draws (third by default).
    pub repetitions: u32,
    /// Plies without a zap that draw ([`NO_ZAP_PLIES`] by default; 0: never).
    pub no_zap_plies: u32,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            repetitions: GAME_REPETITIONS,
            no_zap_plies: NO_ZAP_PLIES,
        }
    }
}

impl DrawRules {
    /// The rules the search applies inside its tree: a position's second
    /// occurrence draws ([`TREE_REPETITIONS`]), and the no-zap limit given.
    pub fn in_tree(no_zap_plies: u32) -> DrawRules {
        DrawRules {
            repetitions: TREE_REPETITIONS,
            no_zap_plies,
        }
    }

    /// The draw, if any, of the position with `key` after the positions
    /// with keys `history` (oldest first), `plies_since_zap` plies after
    /// the last zap.
    #[inline]
    pub fn draw(&self, key: u64, history: &[u64], plies_since_zap: u32) -> Option<Outcome> {
        if repetition::repeats(key, history, plies_since_zap, self.repetitions) {
            Some(Outcome::Repetition)
        } else if self.no_zap_plies > 0 && plies_since_zap >= self.no_zap_plies {
            Some(Outcome::NoZap)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// `winner` zapped the other King, or the other side zapped its own.
    KingZapped {
        winner: Color,
    },
    Repetition,
    NoZap,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score_text(self) -> &'static str {
        match self {
            Outcome::KingZapped {
                winner: Color::White,
            } => "1-0",
            Outcome::KingZapped {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }
}

impl Outcome {
    /// How the game ended, without the winner: `King zapped`, `draw by
    /// repetition`, `draw by the no-zap rule` (a PGN's closing comment).
    pub fn reason(self) -> &'static str {
        match self {
            Outcome::KingZapped { .. } => "King zapped",
            Outcome::Repetition => "draw by repetition",
            Outcome::NoZap => "draw by the no-zap rule",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Outcome::KingZapped { winner } => write!(f, "{} wins: King zapped", side_name(*winner)),
            o => f.write_str(o.reason()),
        }
    }
}

/// The side's name in the rules: Tangerine (White), Lavender (Black).
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "Tangerine",
        Color::Black => "Lavender",
    }
}

/// Why a move can not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    Parse(MoveParseError),
    /// The move is well formed but not one of the position's moves.
    NotAvailable(Move),
    /// It would recreate the position before the opponent's last move, or
    /// leave the board unchanged.
    Ko(Move),
    /// A King was zapped: no move follows.
    GameOver(Outcome),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::NotAvailable(m) => {
                write!(f, "illegal move '{m}': not a move of this position")
            }
            MoveError::Ko(m) => write!(f, "illegal move '{m}': forbidden by the Ko rule"),
            MoveError::GameOver(o) => write!(f, "the game is over ({o})"),
        }
    }
}

impl std::error::Error for MoveError {}

#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Keys of every earlier position, oldest first (the current one excluded).
    history: Vec<u64>,
    moves: Vec<Move>,
    plies_since_zap: u32,
    outcome: Option<Outcome>,
    rules: DrawRules,
}

impl Game {
    pub fn new(board: Board) -> Game {
        Game::with_rules(board, DrawRules::default())
    }

    pub fn with_rules(board: Board, rules: DrawRules) -> Game {
        Game {
            board,
            history: Vec::new(),
            moves: Vec::new(),
            plies_since_zap: 0,
            outcome: None,
            rules,
        }
    }

    pub fn from_fen(text: &str) -> Result<Game, FenError> {
        fen::parse(text).map(Game::new)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The rules' verdict on the current position: a zapped King (final),
    /// or a draw by repetition or by the no-zap rule (play may go on).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether a King was zapped, which alone ends the move list.
    pub fn is_over(&self) -> bool {
        matches!(self.outcome, Some(Outcome::KingZapped { .. }))
    }

    pub fn plies_since_zap(&self) -> u32 {
        self.plies_since_zap
    }

    /// Keys of the earlier positions, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Whether a generated move `m` breaks the Ko rule: after it (and its
    /// shot) the position equals the one before the opponent's last move,
    /// or the board is unchanged.
    pub fn breaks_ko(&mut self, m: Move) -> bool {
        let now = self.board.key();
        let undo = self.board.make(m);
        let after = self.board.key();
        self.board.unmake(m, undo);
        repetition::breaks_ko(&self.history, now, after)
    }

    /// The moves that may be played now: generated, Ko respected; none once
    /// a King is zapped.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        generate(&self.board, &mut list);
        list.iter().filter(|&m| !self.breaks_ko(m)).collect()
    }

    /// Checks `m` and plays it, updating the result.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        if let Some(o) = self.outcome.filter(|_| self.is_over()) {
            return Err(MoveError::GameOver(o));
        }
        let mut list = MoveList::new();
        generate(&self.board, &mut list);
        if !list.iter().any(|g| g == m) {
            return Err(MoveError::NotAvailable(m));
        }
        if self.breaks_ko(m) {
            return Err(MoveError::Ko(m));
        }
        let mover = self.board.side();
        self.history.push(self.board.key());
        let undo = self.board.make(m);
        self.moves.push(m);
        self.plies_since_zap = if undo.zapped.is_some() {
            0
        } else {
            self.plies_since_zap + 1
        };
        self.outcome = if let Some((_, p)) = undo.zapped.filter(|(_, p)| p.is_king()) {
            let loser = p.color();
            debug_assert!(loser == mover || loser == mover.opp());
            Some(Outcome::KingZapped {
                winner: loser.opp(),
            })
        } else {
            self.rules
                .draw(self.board.key(), &self.history, self.plies_since_zap)
        };
        Ok(())
    }

    /// Why a well-formed move `m` is not one of the position's moves, in
    /// words: for a front end that explains a refused click. The verdict
    /// is the move generator's ([`MoveError::NotAvailable`]); this only
    /// names what stands in the way.
    pub fn why_unavailable(&self, m: Move) -> String {
        let b = &self.board;
        let side = b.side();
        let Some(g) = m.geometry() else {
            return format!("'{m}' leaves the board");
        };
        let Some(mover) = b.piece_at(g.from) else {
            return format!("{} is empty", g.from);
        };
        if mover.color() != side {
            return format!(
                "the piece on {} is {}'s, and {} is to move",
                g.from,
                side_name(mover.color()),
                side_name(side)
            );
        }
        let own = |s| {
            format!(
                "{s} holds a piece of {}'s own: friendly pieces never swap",
                side_name(side)
            )
        };
        match g.swap {
            Some(swap) => match b.piece_at(swap) {
                None => format!("{swap} is empty: there is nothing to swap with"),
                Some(p) if p.color() == side => own(swap),
                Some(_) if g.to != swap && b.piece_at(g.to).is_some() => {
                    format!("the step after the swap must go to an empty square, and {} is taken", g.to)
                }
                Some(_) => "not a move of this position".to_string(),
            },
            None => match b.piece_at(g.to).filter(|_| g.to != g.from) {
                Some(p) if p.color() == side => own(g.to),
                Some(_) => format!(
                    "{} holds an enemy piece: a swap goes on with a rotation ({}{}R) or a step to an empty square next to it",
                    g.to, g.from, g.to
                ),
                None => "not a move of this position".to_string(),
            },
        }
    }

    /// Parses `text` (case-insensitive) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse(text).map_err(MoveError::Parse)?;
        self.play(m)?;
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ko_forbids_undoing_the_opponents_last_move() {
        // Tangerine's pawn swaps with d4 and steps to e3; Lavender's d3e3d4
        // would swap back and step home, recreating the position before
        // Tangerine's move.
        let mut g = Game::from_fen("ww7/8/8/3nw4/3NW4/8/8/7EE W").unwrap();
        g.play_text("d3d4e3").unwrap();
        let undo = Move::parse("d3e3d4").unwrap();
        assert_eq!(g.play_text("d3e3d4"), Err(MoveError::Ko(undo)));
        assert!(!g.legal_moves().contains(&undo));
        assert!(g.legal_moves().contains(&Move::parse("d3e3f4").unwrap()));
        assert_eq!(g.moves().len(), 1);
    }

    #[test]
    fn unavailable_and_unparsable_moves_change_nothing() {
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        let before = g.board().clone();
        assert!(matches!(
            g.play_text("a0a1"),
            Err(MoveError::NotAvailable(_))
        ));
        assert!(matches!(g.play_text("zz"), Err(MoveError::Parse(_))));
        assert_eq!(g.board(), &before);
        assert!(g.moves().is_empty());
    }

    #[test]
    fn refused_moves_are_explained() {
        let g = Game::from_fen("ww7/8/8/3nw4/3NWSE3/8/8/7EE W").unwrap();
        let why = |t: &str| g.why_unavailable(Move::parse(t).unwrap());
        assert_eq!(why("a0a1"), "a0 is empty");
        assert_eq!(
            why("d4R"),
            "the piece on d4 is Lavender's, and Tangerine is to move"
        );
        assert_eq!(
            why("d3e3"),
            "e3 holds a piece of Tangerine's own: friendly pieces never swap"
        );
        assert!(why("d3d4").starts_with("d4 holds an enemy piece: a swap goes on"));
        assert_eq!(why("d3c3R"), "c3 is empty: there is nothing to swap with");
        assert_eq!(
            why("d3e3L"),
            "e3 holds a piece of Tangerine's own: friendly pieces never swap"
        );
        assert_eq!(
            why("d3d4e3"),
            "the step after the swap must go to an empty square, and e3 is taken"
        );
        assert_eq!(Outcome::NoZap.reason(), "draw by the no-zap rule");
    }

    #[test]
    fn zapping_a_king_ends_the_game() {
        // Tangerine turns its King west, facing Lavender's King along rank 0.
        let mut g = Game::from_fen("8/8/8/8/8/8/8/nn6NN W").unwrap();
        g.play_text("h0L").unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome::KingZapped {
                winner: Color::White
            })
        );
        assert!(matches!(g.play_text("a0R"), Err(MoveError::GameOver(_))));
        assert!(g.legal_moves().is_empty());
    }

    #[test]
    fn threefold_repetition_and_no_zap_draw() {
        let mut g = Game::from_fen(fen::ENDGAME).unwrap();
        // Four Kings' steps return to the start; the third occurrence draws.
        for m in [
            "h0g0", "a7b7", "g0g1", "b7b6", "g1h1", "b6a6", "h1h0", "a6a7",
        ] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), None);
        for m in [
            "h0g0", "a7b7", "g0g1", "b7b6", "g1h1", "b6a6", "h1h0", "a6a7",
        ] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), Some(Outcome::Repetition));

        let limits = DrawRules {
            repetitions: 3,
            no_zap_plies: 4,
        };
        let mut g = Game::with_rules(fen::parse(fen::ENDGAME).unwrap(), limits);
        for m in ["h0g0", "a7b7", "g0g1"] {
            g.play_text(m).unwrap();
            assert_eq!(g.outcome(), None);
        }
        g.play_text("b7b6").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::NoZap));
    }

    #[test]
    fn a_second_occurrence_draws_in_the_search_tree_but_not_the_game() {
        let mut g = Game::from_fen(fen::ENDGAME).unwrap();
        for m in ["h0g0", "a7b7", "g0h0", "b7a7"] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), None);
        let tree = DrawRules::in_tree(100);
        let here = (g.board().key(), g.history(), g.plies_since_zap());
        assert_eq!(tree.draw(here.0, here.1, here.2), Some(Outcome::Repetition));
        assert_eq!(DrawRules::default().draw(here.0, here.1, here.2), None);
    }

    #[test]
    fn play_goes_on_past_a_draw_until_a_king_is_zapped() {
        // A referee may play on past our limits (the course's: 200 plies).
        let limits = DrawRules {
            repetitions: 3,
            no_zap_plies: 2,
        };
        let mut g = Game::with_rules(fen::parse(fen::ENDGAME).unwrap(), limits);
        for m in ["h0g0", "a7b7", "g0g1", "b7b6"] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), Some(Outcome::NoZap));
        assert!(!g.is_over() && !g.legal_moves().is_empty());
        // Back to the start twice more: a third occurrence, still playable.
        for m in [
            "g1h1", "b6a6", "h1h0", "a6a7", "h0g0", "a7b7", "g0g1", "b7b6", "g1h1", "b6a6", "h1h0",
            "a6a7",
        ] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), Some(Outcome::Repetition));
        assert_eq!(g.moves().len(), 16);
        // With no limit, the no-zap rule never draws.
        let mut g = Game::with_rules(
            fen::parse(fen::ENDGAME).unwrap(),
            DrawRules {
                repetitions: 3,
                no_zap_plies: 0,
            },
        );
        for m in ["h0g0", "a7b7", "g0g1", "b7b6"] {
            g.play_text(m).unwrap();
            assert_eq!(g.outcome(), None);
        }
    }
}
