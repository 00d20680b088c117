//! A game as the page sees it, in JSON: the board square by square, the
//! legal moves with their squares, the side to move's beam, the result.
//! Everything here is read from the rules code; the page draws it.

use super::store::Entry;
use crate::rules::fen;
use crate::rules::game::{side_name, DrawRules, Outcome};
use crate::rules::laser::beam;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::{Dir, Square};
use serde_json::{json, Value};

/// The whole state of game `id`.
pub fn game(id: u64, e: &Entry) -> Value {
    let mut game = e.game.clone();
    let board = game.board().clone();
    let side = board.side();
    let legal = if e.outcome().is_some() {
        Vec::new()
    } else {
        game.legal_moves()
    };
    json!({
        "id": id,
        "version": e.version,
        "fen": fen::to_fen(&board),
        "side": color(side),
        "side_name": side_name(side),
        "board": board.squares().iter().map(|p| p.map(piece)).collect::<Vec<_>>(),
        "legal": legal.iter().map(|&m| move_squares(m)).collect::<Vec<_>>(),
        "history": e.records.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(),
        "last_move": game.moves().last().map(|&m| move_squares(m)),
        "beam": beam(&board, side).map(|b| json!({
            "points": b.points.iter().map(Square::to_string).collect::<Vec<_>>(),
            "heading": heading(b.heading),
            "zapped": b.zapped.map(|s| s.to_string()),
        })),
        "outcome": e.outcome().map(outcome),
        "plies_since_zap": game.plies_since_zap(),
        "no_zap_plies": DrawRules::default().no_zap_plies,
        "players": { "white": e.players.white, "black": e.players.black },
        "searching": e.search.is_some(),
    })
}

fn color(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `{"kind": "pawn", "color": "black", "ori": "NW"}`.
fn piece(p: Piece) -> Value {
    let kind = match p.kind() {
        Kind::King => "king",
        Kind::Pawn => "pawn",
    };
    json!({
        "kind": kind,
        "color": color(p.color()),
        "ori": p.to_string().to_ascii_uppercase(),
        "index": p.ori(),
    })
}

/// A move's text and squares: where the mover starts, the enemy piece it
/// swaps with, where it ends, and its rotation.
fn move_squares(m: Move) -> Value {
    let g = m.geometry();
    json!({
        "text": m.to_string(),
        "from": m.from().to_string(),
        "swap": g.and_then(|g| g.swap).map(|s| s.to_string()),
        "to": g.map(|g| g.to.to_string()),
        "rot": g.and_then(|g| g.rot).map(|r| r.letter().to_string()),
    })
}

fn heading(d: Dir) -> &'static str {
    match d {
        Dir::N => "N",
        Dir::E => "E",
        Dir::S => "S",
        Dir::W => "W",
    }
}

fn outcome(o: Outcome) -> Value {
    let winner = match o {
        Outcome::KingZapped { winner } => Some(color(winner)),
        Outcome::Repetition | Outcome::NoZap => None,
    };
    json!({
        "result": o.score_text(),
        "reason": o.reason(),
        "winner": winner,
        "text": o.to_string(),
    })
}
