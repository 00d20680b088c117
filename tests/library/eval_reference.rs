//! The static evaluation against the reference engine's scores: every one of
//! the 300 positions of `perft/data/positions.txt`, with default
//! weights, the fast and the plain evaluation alike.

use leiserchess::eval::{evaluate, evaluate_plain, Weights};
use leiserchess::rules::fen;
use std::path::PathBuf;

/// `(line number, FEN, reference score in cp)` for every data line.
fn reference_scores() -> Vec<(usize, String, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft/data/positions.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split('|').map(str::trim).collect();
            let score = fields
                .get(2)
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{}:{}: no eval field", path.display(), i + 1));
            (i + 1, fields[0].to_string(), score)
        })
        .collect()
}

#[test]
fn every_reference_position_scores_exactly() {
    let positions = reference_scores();
    assert_eq!(positions.len(), 300);
    let w = Weights::REFERENCE;
    let mut wrong = Vec::new();
    for (line, text, want) in &positions {
        let b = fen::parse(text).unwrap_or_else(|e| panic!("line {line}: {e}"));
        let plain = evaluate_plain(&b, &w).score_cp();
        let fast = evaluate(&b, &w).score_cp();
        if plain != *want || fast != *want {
            wrong.push(format!(
                "line {line} {text}: reference {want}, plain {plain}, fast {fast}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 300 differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
