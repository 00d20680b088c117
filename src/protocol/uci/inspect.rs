//! The commands that look at the position: `display`, `eval`, `generate`,
//! and `move` (play one move, with the rules' verdict).

use super::{line_out, say, Engine};
use crate::eval::evaluate;
use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::accumulator::Accumulator;
use crate::rules::fen;
use crate::rules::game::Outcome;
use crate::rules::movegen::generate;
use crate::rules::moves::MoveList;
use crate::user_text::quote;

impl Engine {
    pub(super) fn display(&self, out: &mut Vec<u8>) {
        let b = self.game.board();
        for line in b.diagram().lines() {
            line_out(out, line);
        }
        let side = match b.side() {
            crate::rules::piece::Color::White => "Tangerine (W)",
            crate::rules::piece::Color::Black => "Lavender (B)",
        };
        line_out(out, &format!("fen {}", fen::to_fen(b)));
        line_out(
            out,
            &format!(
                "{side} to move, ply {}, plies since zap {}, key {:016x}",
                self.game.moves().len(),
                self.game.plies_since_zap(),
                b.key()
            ),
        );
        if let Some(o) = self.game.outcome() {
            line_out(out, &verdict(o));
        }
    }

    pub(super) fn eval(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let mut game = self.game.clone();
        match args {
            [] => {}
            [m] => {
                if let Err(e) = game.play_text(m) {
                    return say(out, format!("error: eval {}: {e}", quote(m)));
                }
            }
            _ => return say(out, "error: eval takes at most one move".to_string()),
        }
        if let Some(o) = game
            .outcome()
            .filter(|o| matches!(o, Outcome::KingZapped { .. }))
        {
            return say(
                out,
                format!("no evaluation: the game is over ({} {o})", o.score_text()),
            );
        }
        let terms = evaluate(game.board(), &self.config.search.weights);
        line_out(
            out,
            &format!(
                "info string {:<12} {:>10} {:>10}",
                "term", "tangerine", "lavender"
            ),
        );
        let [w, b] = terms.sides.map(|t| t.named());
        for ((name, wv), (_, bv)) in w.iter().zip(b) {
            line_out(out, &format!("info string {name:<12} {wv:>10} {bv:>10}"));
        }
        let totals = terms.sides.map(|t| t.total());
        line_out(
            out,
            &format!(
                "info string {:<12} {:>10} {:>10}",
                "total", totals[0], totals[1]
            ),
        );
        let board = game.board();
        let net = Accumulator::refresh(&self.net, board);
        let learned = self.net.evaluate(&net, board);
        let hand = terms.score_cp();
        say(out, format!("nnue cp {learned}, hand-written cp {hand}"));
        let p = &self.config.search;
        let in_use =
            Evaluator::choose(p.use_nnue, &self.net, p.weights).score_cp(board, Some(&net));
        line_out(out, &format!("info score cp {in_use}"));
    }

    pub(super) fn generate(&self, out: &mut Vec<u8>) {
        let mut list = MoveList::new();
        generate(self.game.board(), &mut list);
        let texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        line_out(out, &texts.join(" "));
    }

    pub(super) fn play_one(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let [m] = args else {
            return say(
                out,
                "error: move wants exactly one move, e.g. 'move h0L'".to_string(),
            );
        };
        self.check_game();
        if let Err(e) = self.game.play_text(m) {
            say(out, format!("error: {e}; position unchanged"));
        } else if let Some(o) = self.game.outcome() {
            say(out, verdict(o));
        }
        self.check_game();
    }
}

/// The rules' verdict on the game's position: a zapped King ends it; a
/// draw is reported, and play may go on (the referee decides).
fn verdict(o: Outcome) -> String {
    match o {
        Outcome::KingZapped { .. } => format!("game over: {} {o}", o.score_text()),
        _ => format!("{} {o} by the rules; play may go on", o.score_text()),
    }
}
