//! What a search searches, whichever the algorithm: the root position
//! with its game history and the root moves allowed.

use crate::rules::board::Board;
use crate::rules::game::Game;
use crate::rules::moves::Move;

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
