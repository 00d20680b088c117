//! The game itself: squares and pieces, moves and their geometry, the
//! position and its laser, move generation, FEN, a game's history and its
//! rules, perft. This layer imports nothing above it (no evaluation, search
//! or protocol).
//!
//! Within it, imports go one way too: `square` and `piece` → `bitboard`,
//! `zobrist`, `geometry` (the squares a move vacates, swaps and fills, and
//! how it is placed) → `moves` → `board` → `laser` (which adds the whole
//! turn, `Board::make`) → `movegen` → `fen`, `game` (its rules on keys in
//! `repetition`), `perft`.

pub mod bitboard;
pub mod board;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod laser;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod repetition;
pub mod square;
pub mod zobrist;
