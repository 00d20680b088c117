//! What a search searches and what it reports, whichever the algorithm:
//! the root position with its game history and the root moves allowed,
//! the iterations' lines, and the answer.

use crate::rules::board::Board;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use std::time::Duration;

/// The position to search: the board and the keys of the game's earlier
/// positions (for repetitions and the Ko rule).
#[derive(Clone)]
pub struct Root {
    pub board: Board,
    pub history: Vec<u64>,
    pub plies_since_zap: u32,
    /// The move that led to `board`, if the game has one.
    pub last_move: Option<Move>,
    /// The root moves to search (`go searchmoves`); empty: all.
    pub searchmoves: Vec<Move>,
}

impl Root {
    /// `board` with no game before it.
    pub fn new(board: Board) -> Root {
        Root {
            board,
            history: Vec::new(),
            plies_since_zap: 0,
            last_move: None,
            searchmoves: Vec::new(),
        }
    }

    pub fn from_game(g: &Game) -> Root {
        Root {
            board: g.board().clone(),
            history: g.history().to_vec(),
            plies_since_zap: g.plies_since_zap(),
            last_move: g.moves().last().copied(),
            searchmoves: Vec::new(),
        }
    }
}

/// One completed iteration: its best line's score and moves, and with
/// `MultiPV` more than 1 the root's best lines, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// Every line found, the best (`score`, `pv`) first; of the main
    /// thread only.
    pub lines: Vec<Line>,
}

/// One root move's line: its score and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: i32,
    pub pv: Vec<Move>,
    /// MCTS: the playouts through the line's first move, of the root's.
    pub visits: Option<Visits>,
}

/// A root move's share of the playouts (MCTS): the move's and the root's,
/// kept playouts of an earlier search included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visits {
    pub edge: u64,
    pub root: u64,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Answer {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub last: Option<Iteration>,
    /// All threads' nodes.
    pub nodes: u64,
    pub elapsed: Duration,
}
