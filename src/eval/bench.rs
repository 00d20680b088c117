//! `leiserchess evalbench`: evaluation speed over a fixed position set.

use super::{evaluate, Weights};
use crate::rules::board::Board;
use crate::rules::fen;
use std::time::{Duration, Instant};

/// The reference set's 300 positions, one FEN a line.
pub const DEFAULT_POSITIONS: &str = include_str!("../../bench/positions.fen");

/// Reads FENs one a line (anything after a `|` is ignored, so the reference
/// `positions.txt` works as it is; `#` starts a comment line).
pub fn parse_positions(text: &str) -> Result<Vec<Board>, String> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.split('|').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| fen::parse(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

pub struct Report {
    pub evals: u64,
    pub elapsed: Duration,
    /// Sum of all scores of one pass: the same on every machine and build.
    pub checksum: i64,
}

/// Evaluates every position, pass after pass, until `min_time` has passed.
pub fn run(positions: &[Board], w: &Weights, min_time: Duration) -> Report {
    let checksum = positions
        .iter()
        .map(|b| evaluate(b, w).score_ev() as i64)
        .sum();
    let start = Instant::now();
    let mut evals = 0u64;
    while start.elapsed() < min_time || evals == 0 {
        for b in positions {
            std::hint::black_box(evaluate(b, w));
        }
        evals += positions.len() as u64;
    }
    Report {
        evals,
        elapsed: start.elapsed(),
        checksum,
    }
}
