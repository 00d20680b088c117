//! The reference engine's data committed under `perft/data` (see its
//! README for the origin).

use std::path::PathBuf;

/// The FENs of the data lines of `perft/data/<name>`.
pub fn fens(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("perft/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').next().expect("a FEN").trim().to_string())
        .collect()
}
