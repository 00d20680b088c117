//! One self-play game of `datagen`: its opening, its searches, when it is
//! called decided, and which of its positions are kept.

use super::Config;
use crate::config::EngineConfig;
use crate::lab::data::chain::{Chain, Ply};
use crate::lab::data::Outcome;
use crate::rules::fen;
use crate::rules::game::{Game, Outcome as GameOutcome};
use crate::rules::piece::Color;
use crate::search::algorithm::{self, Memory, Setup};
use crate::search::time::SearchLimits;
use crate::search::{Answer, Root, Shared, MATE_BOUND};
use std::sync::atomic::Ordering;

/// When a game is called won before its end: both sides' searches agree,
/// `plies` in a row, that the same side is ahead by `cp` or more (a mate
/// score counts as any). `cp` 0: never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub cp: i32,
    pub plies: u32,
}

/// The searches in a row that saw the same side ahead by the margin.
#[derive(Default)]
pub(super) struct Streak {
    ahead: Option<Color>,
    len: u32,
}

impl Streak {
    /// Counts one search's `score` (from `mover`'s view); the side called
    /// the winner once the streak is long enough.
    pub(super) fn see(&mut self, a: Adjudication, mover: Color, score: i32) -> Option<Color> {
        if a.cp == 0 {
            return None;
        }
        let ahead = match score {
            s if s >= a.cp => Some(mover),
            s if s <= -a.cp => Some(mover.opp()),
            _ => None,
        };
        self.len = match ahead {
            Some(_) if ahead == self.ahead => self.len + 1,
            Some(_) => 1,
            None => 0,
        };
        self.ahead = ahead;
        self.ahead.filter(|_| self.len >= a.plies)
    }
}

/// One finished game from its opening's end, its positions marked kept
/// or left out, and what was left out.
pub(super) struct Played {
    pub chain: Chain,
    /// Positions left out because the searched move zaps.
    pub zaps: u64,
    /// Called won by `Adjudication` before its end.
    pub adjudicated: bool,
}

/// Plays game number `n` of the run; `None` if it ended in its opening.
pub(super) fn play_game(
    c: &Config,
    n: u64,
    shared: &Shared,
    memory: &mut Memory,
) -> Option<Played> {
    let mut rng = fastrand::Rng::with_seed(c.seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = Game::from_fen(fen::STARTPOS).expect("the start position parses");
    for _ in 0..c.random_plies {
        let moves = game.legal_moves();
        let m = moves[rng.usize(..moves.len())];
        game.play(m).expect("a legal move");
        if game.outcome().is_some() {
            return None;
        }
    }
    shared.tt.clear();
    *memory = Memory::default();
    let limits = SearchLimits::nodes(c.nodes);
    let start = game.board().clone();
    let (mut plies, mut zaps) = (Vec::new(), 0);
    let mut streak = Streak::default();
    let (outcome, adjudicated) = loop {
        if let Some(o) = game.outcome() {
            break (o, false);
        }
        if game.moves().len() as u32 >= c.max_plies + c.random_plies {
            break (GameOutcome::NoZap, false);
        }
        let root = Root::from_game(&game);
        shared.stop.store(false, Ordering::Relaxed);
        let answer = think(&c.engine, &root, &limits, shared, memory);
        let best = answer.best?;
        let score = answer.last.map_or(0, |it| it.score);
        let mover = game.board().side();
        game.play(best).expect("the search answers a legal move");
        // A zapping move's position is scored by a shot the static
        // evaluation cannot see; a mate score is no evaluation.
        let kept = match score.abs() < MATE_BOUND {
            true if c.keep_zaps || game.plies_since_zap() != 0 => {
                Some(score.clamp(-30000, 30000) as i16)
            }
            true => {
                zaps += 1;
                None
            }
            false => None,
        };
        plies.push(Ply {
            mv: best,
            score: kept,
        });
        if let Some(winner) = streak.see(c.adjudication, mover, score) {
            break (GameOutcome::KingZapped { winner }, true);
        }
    };
    let result = match outcome {
        GameOutcome::KingZapped {
            winner: Color::White,
        } => Outcome::WhiteWins,
        GameOutcome::KingZapped {
            winner: Color::Black,
        } => Outcome::BlackWins,
        GameOutcome::Repetition | GameOutcome::NoZap => Outcome::Draw,
    };
    // The moves were legal with the opening's history too: the chain's
    // replay, from the opening's end, allows them.
    let chain = Chain::new(start, result, plies).expect("a played game replays");
    Some(Played {
        chain,
        zaps,
        adjudicated,
    })
}

/// One move's search by the algorithm the `Search` option chose, on one
/// thread, with what the game's earlier searches kept (`memory`: PVS's
/// ordering tables, MCTS's tree within `mcts_tree_mb`, as in a game the
/// engine plays).
pub(crate) fn think(
    e: &EngineConfig,
    root: &Root,
    limits: &SearchLimits,
    shared: &Shared,
    memory: &mut Memory,
) -> Answer {
    let setup = Setup {
        threads: 1,
        ..e.setup()
    };
    algorithm::think(
        setup,
        root,
        limits,
        e.search,
        shared,
        memory,
        |_, _, _| {},
        |_| {},
    )
    .answer
}
