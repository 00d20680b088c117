//! Random playouts for the property tests.
//!
//! A `Playout` is a seed, a ply count, a start position and a zap bias: a
//! splitmix64 generator seeded from the seed picks the moves of a game from
//! the start position (or, one time in five, from the two-King `ENDGAME`),
//! played with `Game` until the ply count is reached or the game is over.
//! Short playouts check openings; deep ones with a strong zap bias go down
//! to bare Kings through many Pawn zaps. The same `Playout` always plays the
//! same game, so a failure reproduces from the `Playout` quickcheck prints.
//! The shrinker shrinks the ply count only: a shrunk playout is a prefix of
//! the failing one, and the minimal failure is the first position that
//! breaks the property.

use super::rng::Rng;
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::rules::moves::Move;
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start {
    Startpos,
    Endgame,
}

impl Start {
    pub fn fen(self) -> &'static str {
        match self {
            Start::Startpos => fen::STARTPOS,
            Start::Endgame => fen::ENDGAME,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Playout {
    pub seed: u64,
    /// At most this many plies are played.
    pub plies: usize,
    pub start: Start,
    /// Out of 8: how often a ply prefers a move that zaps a Pawn, which
    /// drives deep playouts down to bare Kings.
    pub zap_bias: u8,
}

impl Arbitrary for Playout {
    /// A quarter of playouts are openings (under 16 plies), a quarter
    /// middle games (under 100), half deep games (100 to 400).
    fn arbitrary(g: &mut Gen) -> Playout {
        let mut r = |n: u64| u64::arbitrary(g) % n;
        let plies = match r(4) {
            0 => r(16),
            1 => r(100),
            _ => 100 + r(301),
        } as usize;
        let start = if r(5) == 0 {
            Start::Endgame
        } else {
            Start::Startpos
        };
        let zap_bias = [0, 1, 2, 4, 8][r(5) as usize];
        Playout {
            seed: u64::arbitrary(g),
            plies,
            start,
            zap_bias,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Playout>> {
        let me = self.clone();
        Box::new(self.plies.shrink().map(move |plies| Playout {
            plies,
            ..me.clone()
        }))
    }
}

/// What the laser of the side to move zaps after `m`, as the engine's
/// `make` has it: `Some(true)` a King, `Some(false)` a Pawn.
fn zaps(b: &mut Board, m: Move) -> Option<bool> {
    let undo = b.make(m);
    let zapped = undo.zapped.map(|(_, p)| p.is_king());
    b.unmake(m, undo);
    zapped
}

/// The playout's policy: one ply in 32 ends the game with a King zap if it
/// can; otherwise King zaps are avoided (so games get deep), and with
/// probability `zap_bias / 8` a Pawn-zapping move is preferred.
fn choose(p: &Playout, rng: &mut Rng, game: &mut Game) -> Option<Move> {
    let legal = game.legal_moves();
    let mut b = game.board().clone();
    let kinds: Vec<(Move, Option<bool>)> = legal.iter().map(|&m| (m, zaps(&mut b, m))).collect();
    let with = |keep: fn(Option<bool>) -> bool| -> Vec<Move> {
        kinds
            .iter()
            .filter(|(_, z)| keep(*z))
            .map(|(m, _)| *m)
            .collect()
    };
    if rng.below(32) == 0 {
        if let Some(m) = rng.pick(&with(|z| z == Some(true))) {
            return Some(m);
        }
    }
    if rng.below(8) < p.zap_bias as usize {
        if let Some(m) = rng.pick(&with(|z| z == Some(false))) {
            return Some(m);
        }
    }
    rng.pick(&with(|z| z != Some(true)))
        .or_else(|| rng.pick(&legal))
}

/// Plays the playout, calling `visit` on every position (the start and the
/// one after every ply) with the game and every board of the game so far
/// (`boards[i]` after `i` plies; the last is the current one). A failure,
/// or a panic, names the moves that led there.
pub fn walk(
    p: &Playout,
    mut visit: impl FnMut(&mut Game, &[Board]) -> Result<(), String>,
) -> TestResult {
    let mut game = Game::from_fen(p.start.fen()).expect("named positions parse");
    let mut boards = vec![game.board().clone()];
    let mut rng = Rng(p.seed);
    let history = |game: &Game| -> String {
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        format!(
            "after {} plies from {:?} [{}]",
            moves.len(),
            p.start,
            moves.join(" ")
        )
    };
    loop {
        let result = catch_unwind(AssertUnwindSafe(|| visit(&mut game, &boards)));
        let failure = match result {
            Ok(Ok(())) => None,
            Ok(Err(msg)) => Some(msg),
            Err(panic) => Some(at(
                game.board(),
                None,
                format!("panicked: {}", panic_text(&*panic)),
            )),
        };
        if let Some(msg) = failure {
            return TestResult::error(format!("{msg}\n  {}", history(&game)));
        }
        if game.moves().len() >= p.plies || game.outcome().is_some() {
            return TestResult::passed();
        }
        let before = game.board().clone();
        let m = match catch_unwind(AssertUnwindSafe(|| choose(p, &mut rng, &mut game))) {
            Ok(Some(m)) => m,
            Ok(None) => {
                let msg = at(&before, None, "no legal move in a game that is not over");
                return TestResult::error(format!("{msg}\n  {}", history(&game)));
            }
            Err(panic) => {
                let what = format!("panicked choosing a move: {}", panic_text(&*panic));
                let msg = at(&before, None, what);
                return TestResult::error(format!("{msg}\n  {}", history(&game)));
            }
        };
        let played = catch_unwind(AssertUnwindSafe(|| game.play(m)));
        let refused = match played {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(format!("a legal move is refused: {e}")),
            Err(panic) => Some(format!("panicked playing: {}", panic_text(&*panic))),
        };
        if let Some(what) = refused {
            let msg = at(&before, Some(m), what);
            return TestResult::error(format!("{msg}\n  {}", history(&game)));
        }
        boards.push(game.board().clone());
    }
}

/// A failure message naming the position and, when there is one, the move.
pub fn at(b: &Board, m: Option<Move>, what: impl fmt::Display) -> String {
    match m {
        Some(m) => format!("{what}\n  position: {}\n  move: {m}", fen::to_fen(b)),
        None => format!("{what}\n  position: {}", fen::to_fen(b)),
    }
}

/// The message of a caught panic.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}
