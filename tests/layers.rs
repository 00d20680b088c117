//! The crate's layers import only downwards (src/lib.rs): the leaves
//! (`user_text`, `check_rep`, `declaration`, `user_file`) nothing, `rules`
//! the leaves, `eval` the rules, `search` the evaluation, `config` the
//! search, `lab` the configuration, `play` (engines as child processes,
//! PGN) the lab, `protocol` the layers below, `gui`
//! everything; within `rules`, each module only the ones before it; and
//! within `search`, the parts every algorithm shares import no algorithm's
//! folder, and no algorithm imports another's. Test code (from the first `#[cfg(test)]` or `#[cfg(all(test`
//! of a file on) may import anything.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom first.
const LAYERS: &[&str] = &[
    "leaf", "rules", "eval", "search", "config", "lab", "play", "protocol", "gui",
];
const LEAVES: &[&str] = &["user_text", "check_rep", "declaration", "user_file"];

/// The search algorithms, each a folder of `src/search`; the rest of
/// `src/search` is shared by all of them, except `bench`, whose workload
/// runs one.
const ALGORITHMS: &[&str] = &["pvs"];

/// The rules' modules, each allowed to import the ones before it.
const RULES: &[&str] = &[
    "square",
    "piece",
    "bitboard",
    "zobrist",
    "geometry",
    "moves",
    "board",
    "laser",
    "movegen",
    "fen",
    "repetition",
    "game",
    "perft",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code before its tests.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let end = ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    text[..end].to_string()
}

/// Every `crate::a::b` path in `code`, as (a, b).
fn crate_paths(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let mut parts = rest.split("::").map(|p| {
            p.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        });
        let a = parts.next().unwrap_or_default();
        let b = parts.next().unwrap_or_default();
        out.push((a, b));
    }
    out
}

fn layer_of(top: &str) -> usize {
    if LEAVES.contains(&top) {
        0
    } else {
        LAYERS
            .iter()
            .position(|l| *l == top)
            .unwrap_or_else(|| panic!("src/{top} is in no layer: add it to tests/layers.rs"))
    }
}

#[test]
fn every_layer_imports_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        let mut comps = rel
            .iter()
            .map(|c| c.to_str().unwrap().trim_end_matches(".rs"));
        let top = comps.next().unwrap();
        if top == "lib" || top == "main" {
            continue;
        }
        let sub = comps.next().unwrap_or("mod");
        let layer = layer_of(top);
        for (a, b) in crate_paths(&code(path)) {
            let ok = if LEAVES.contains(&top) {
                false
            } else if layer_of(&a) < layer {
                true
            } else if a != top {
                false
            } else if top == "rules" {
                let rank = |m: &str| RULES.iter().position(|r| *r == m);
                match (rank(sub), rank(&b)) {
                    (Some(me), Some(them)) => them <= me,
                    _ => sub == "mod",
                }
            } else {
                true
            };
            if !ok {
                wrong.push(format!("{} imports crate::{a}::{b}", rel.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scanner_sees_paths_and_stops_at_tests() {
    assert_eq!(
        crate_paths("use crate::rules::board::Board; x = crate::eval::evaluate(b);"),
        vec![
            ("rules".to_string(), "board".to_string()),
            ("eval".to_string(), "evaluate".to_string())
        ]
    );
    assert_eq!(layer_of("check_rep"), 0);
    assert!(layer_of("rules") < layer_of("protocol"));
}

/// The `search` modules `code` names, by `crate::search::x` and, in a file
/// directly in `src/search`, by `super::x`.
fn search_modules(code: &str, top_level: bool) -> Vec<String> {
    let mut out: Vec<String> = crate_paths(code)
        .into_iter()
        .filter(|(a, _)| a == "search")
        .map(|(_, b)| b)
        .collect();
    if top_level {
        for (i, _) in code.match_indices("super::") {
            let rest = &code[i + "super::".len()..];
            out.push(
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn the_searches_share_their_common_parts_and_nothing_else() {
    let search = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/search");
    let mut files = Vec::new();
    rust_files(&search, &mut files);
    let mut wrong = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&search).unwrap();
        let first = rel.iter().next().unwrap().to_str().unwrap();
        let part = first.trim_end_matches(".rs");
        let top_level = rel.iter().count() == 1;
        for m in search_modules(&code(path), top_level) {
            // An algorithm's folder: only itself and the bench may name it.
            let ok = !ALGORITHMS.contains(&m.as_str()) || m == part || part == "bench";
            if !ok {
                wrong.push(format!("search/{} imports search::{m}", rel.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        search_modules("use super::pvs::think;", true) == ["pvs"],
        "the scanner must see super:: paths"
    );
}
