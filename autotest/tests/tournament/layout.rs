//! autotest's files import one another without a circle, and none is over
//! [`MAX_LINES`] lines: each folder of `src/` owns one concern (src/lib.rs),
//! and a file that needs another's work names the file that does it.
//!
//! Length: [`GUIDE_LINES`] is a guide and [`MAX_LINES`] the ceiling. A file
//! past the guide is named on standard error and passes: one that holds a
//! type or a concern whole may be that long, and the guide is no reason to
//! split a type. Past the ceiling the test fails.
//!
//! The graph is of files. Its edges are the `crate::…`, `super::…` and
//! `self::…` paths of a file's code, and the paths through the modules it
//! declares (a `mod.rs`'s `pub use game::play`), each leading to the
//! deepest file the path names. Comments and strings are not code, and
//! neither is a file's test module (from the `#[cfg(test)]` that opens a
//! `mod`), which may import anything. `main.rs` is the binary's own crate:
//! it imports the library by name and nothing imports it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The length a file is meant to stay within.
const GUIDE_LINES: usize = 500;
/// The length no file may pass.
const MAX_LINES: usize = 800;

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

/// The module path of the file at `rel` (from `src/`): `a/b.rs` and
/// `a/b/mod.rs` are `a::b`, `lib.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// `text` up to its test module, without comments and with every string
/// and character literal emptied.
fn code(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < s.len() {
        let rest: String = s[i..s.len().min(i + 2)].iter().collect();
        let ident_before = i > 0 && is_ident(s[i - 1]);
        if rest == "//" {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if rest == "/*" {
            i = find(&s, i + 2, "*/").map_or(s.len(), |e| e + 2);
        } else if s[i] == '#' && starts_test_module(&s, i) {
            break;
        } else if s[i] == '"' {
            i = string_end(&s, i + 1, "\"");
            out.push_str("\"\"");
        } else if s[i] == 'r' && !ident_before && matches!(s.get(i + 1), Some('"' | '#')) {
            let hashes = s[i + 1..].iter().take_while(|c| **c == '#').count();
            if s.get(i + 1 + hashes) == Some(&'"') {
                let close = format!("\"{}", "#".repeat(hashes));
                i = find(&s, i + 2 + hashes, &close).map_or(s.len(), |e| e + close.len());
                out.push_str("\"\"");
            } else {
                out.push('r');
                i += 1;
            }
        } else if s[i] == '\'' {
            // A character literal ('x', '\n', '\''), else a lifetime.
            let end = match s.get(i + 1) {
                Some('\\') => find(&s, i + 3, "'").map(|e| e + 1),
                Some(_) if s.get(i + 2) == Some(&'\'') => Some(i + 3),
                _ => None,
            };
            match end {
                Some(e) => {
                    out.push_str("' '");
                    i = e;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// Whether `s[i..]` is a `#[cfg(test)]` before a `mod` (or a `pub(…) mod`).
fn starts_test_module(s: &[char], i: usize) -> bool {
    let rest: String = s[i..].iter().take(200).collect();
    let Some(after) = rest.strip_prefix("#[cfg(test)]") else {
        return false;
    };
    let item = after.trim_start();
    let item = match item.strip_prefix("pub") {
        Some(v) if v.starts_with('(') => v.split_once(')').map_or("", |(_, r)| r),
        Some(v) => v,
        None => item,
    };
    item.trim_start().starts_with("mod ")
}

fn find(s: &[char], from: usize, what: &str) -> Option<usize> {
    let what: Vec<char> = what.chars().collect();
    (from..s.len()).find(|&k| s[k..].starts_with(&what))
}

/// Where the string whose text starts at `from` ends (after `close`),
/// `\` escaping the next character.
fn string_end(s: &[char], from: usize, close: &str) -> usize {
    let close: Vec<char> = close.chars().collect();
    let mut k = from;
    while k < s.len() {
        if s[k] == '\\' {
            k += 2;
        } else if s[k..].starts_with(&close) {
            return k + close.len();
        } else {
            k += 1;
        }
    }
    s.len()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn skip_space(s: &[char], i: &mut usize) {
    while s.get(*i).is_some_and(|c| c.is_whitespace()) {
        *i += 1;
    }
}

fn word(s: &[char], i: &mut usize) -> String {
    let start = *i;
    while s.get(*i).is_some_and(|&c| is_ident(c) || c == '*') {
        *i += 1;
    }
    s[start..*i].iter().collect()
}

/// The paths of the use tree (or plain path) at `s[*i..]`, each as its
/// segments, `*i` moved past it: `a::{b, c::{self, d as e}}` gives `a::b`,
/// `a::c::self` and `a::c::d`.
fn use_tree(s: &[char], i: &mut usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    loop {
        if s.get(*i) == Some(&'{') {
            *i += 1;
            let mut out = Vec::new();
            loop {
                skip_space(s, i);
                match s.get(*i) {
                    None => return out,
                    Some('}') => {
                        *i += 1;
                        return out;
                    }
                    Some(',') => *i += 1,
                    Some(_) => {
                        let before = *i;
                        for path in use_tree(s, i) {
                            out.push([prefix.clone(), path].concat());
                        }
                        if *i == before {
                            *i += 1;
                        }
                    }
                }
            }
        }
        let segment = word(s, i);
        if segment.is_empty() {
            return vec![prefix];
        }
        prefix.push(segment);
        if s[*i..].starts_with(&[':', ':']) {
            *i += 2;
        } else {
            let mut k = *i;
            skip_space(s, &mut k);
            if s[k..].starts_with(&['a', 's']) && s.get(k + 2).is_some_and(|c| c.is_whitespace()) {
                k += 2;
                skip_space(s, &mut k);
                word(s, &mut k);
                *i = k;
            }
            return vec![prefix];
        }
    }
}

/// The modules a file declares (`mod name;`).
fn declared_modules(code: &str) -> BTreeSet<String> {
    let s: Vec<char> = code.chars().collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !is_ident(s[i - 1]);
        if boundary && s[i..].starts_with(&['m', 'o', 'd', ' ']) {
            let mut k = i + 4;
            skip_space(&s, &mut k);
            let name = word(&s, &mut k);
            skip_space(&s, &mut k);
            if !name.is_empty() && s.get(k) == Some(&';') {
                out.insert(name);
            }
        }
        i += 1;
    }
    out
}

/// Every path in the code of the module `module` that can lead to another
/// file, made absolute (segments from the crate root).
fn paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let s: Vec<char> = code.chars().collect();
    let children = declared_modules(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(is_ident(s[i - 1]) || s[i - 1] == ':');
        let mut k = i;
        let first = if boundary {
            word(&s, &mut k)
        } else {
            String::new()
        };
        let starts =
            matches!(first.as_str(), "crate" | "super" | "self") || children.contains(&first);
        if !starts || !s[k..].starts_with(&[':', ':']) {
            i = k.max(i + 1);
            continue;
        }
        for path in use_tree(&s, &mut i) {
            let mut base = module.to_vec();
            let mut rest = &path[..];
            match rest[0].as_str() {
                "crate" => {
                    base.clear();
                    rest = &rest[1..];
                }
                "self" => rest = &rest[1..],
                _ => {
                    while rest.first().is_some_and(|p| p == "super") {
                        base.pop();
                        rest = &rest[1..];
                    }
                }
            }
            out.push([base, rest.to_vec()].concat());
        }
    }
    out
}

/// The file of the deepest module on `path`.
fn file_of<'a>(files: &'a BTreeMap<Vec<String>, String>, path: &[String]) -> Option<&'a String> {
    (0..=path.len()).rev().find_map(|n| files.get(&path[..n]))
}

/// Every circle of `graph`: for each edge back to a file on the current
/// walk, the files from there on, in import order.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn walk(
        file: &String,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        stack.push(file.clone());
        for next in graph.get(file).into_iter().flatten() {
            if let Some(at) = stack.iter().position(|f| f == next) {
                out.push(stack[at..].to_vec());
            } else if !done.contains(next) {
                walk(next, graph, stack, done, out);
            }
        }
        stack.pop();
        done.insert(file.clone());
    }
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for file in graph.keys() {
        if !done.contains(file) {
            walk(file, graph, &mut Vec::new(), &mut done, &mut out);
        }
    }
    out
}

/// The files of `src/` by module path, and their text.
fn sources() -> (BTreeMap<Vec<String>, String>, BTreeMap<String, String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    rust_files(&src, &mut found);
    let (mut modules, mut texts) = (BTreeMap::new(), BTreeMap::new());
    for path in found {
        let rel = path.strip_prefix(&src).unwrap();
        if rel == Path::new("main.rs") {
            continue;
        }
        let name = rel.display().to_string();
        modules.insert(module_of(rel), name.clone());
        texts.insert(name, fs::read_to_string(&path).unwrap());
    }
    (modules, texts)
}

fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let (modules, texts) = sources();
    let mut graph = BTreeMap::new();
    for (module, name) in &modules {
        let edges: BTreeSet<String> = paths(module, &code(&texts[name]))
            .iter()
            .filter_map(|p| file_of(&modules, p))
            .filter(|f| *f != name)
            .cloned()
            .collect();
        graph.insert(name.clone(), edges);
    }
    graph
}

#[test]
fn no_file_imports_itself_round_a_circle() {
    let found: Vec<String> = cycles(&import_graph())
        .iter()
        .map(|c| format!("{} -> {}", c.join(" -> "), c[0]))
        .collect();
    assert!(
        found.is_empty(),
        "import circles between the files of autotest/src:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_file_is_over_the_limit() {
    let (_, texts) = sources();
    let lengths: Vec<(&String, usize)> = texts
        .iter()
        .map(|(name, text)| (name, text.lines().count()))
        .collect();
    for (name, n) in lengths.iter().filter(|&&(_, n)| n > GUIDE_LINES) {
        eprintln!("src/{name}: {n} lines, past the guide of {GUIDE_LINES}");
    }
    let long: Vec<String> = lengths
        .iter()
        .filter(|&&(_, n)| n > MAX_LINES)
        .map(|(name, n)| format!("src/{name}: {n} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them by what they do):\n{}",
        long.join("\n")
    );
}

/// The SQL words that make a formatted string a statement.
const SQL_WORDS: [&str; 5] = ["SELECT", "INSERT", "UPDATE", "DELETE", "WHERE"];

/// The template of each `format!`, `write!` or `writeln!` in `text` (a
/// plain or raw string literal as its first or second argument) that
/// holds one of [`SQL_WORDS`], with its line.
fn formatted_sql(text: &str) -> Vec<(usize, String)> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for (at, _) in text.match_indices('!') {
        let before = &text[..at];
        let named = ["format", "write", "writeln"]
            .iter()
            .any(|m| before.ends_with(m) && !before[..before.len() - m.len()].ends_with(is_ident));
        let open = text[at + 1..].trim_start();
        if !named || !open.starts_with('(') {
            continue;
        }
        // The template: the first string literal after the opening
        // parenthesis (write!'s comes after its destination).
        let from = text.len() - open.len() + 1;
        let Some(quote) = text[from..].find('"').map(|q| from + q) else {
            continue;
        };
        let start = text[..quote].chars().count() + 1;
        let end = string_end(&s, start, "\"");
        let template: String = s[start..end.saturating_sub(1).max(start)].iter().collect();
        let words: Vec<&str> = template.split(|c: char| !c.is_ascii_alphabetic()).collect();
        if SQL_WORDS.iter().any(|w| words.contains(w)) {
            out.push((1 + before.matches('\n').count(), template));
        }
    }
    out
}

/// SQL is never formatted: values go in as parameters (`?1`), so no text
/// from a run, a file or a request can become SQL.
#[test]
fn no_sql_is_built_with_format() {
    let (_, mut texts) = sources();
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs");
    texts.insert("main.rs".to_string(), fs::read_to_string(main).unwrap());
    let found: Vec<String> = texts
        .iter()
        .flat_map(|(name, text)| {
            formatted_sql(text)
                .into_iter()
                .map(move |(line, t)| format!("src/{name}:{line}: {t}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "SQL built with format! (bind the values as parameters):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_sql_finder_finds_formatted_statements_only() {
    let text = "let a = format!(\"SELECT id FROM runs WHERE kind IN ({kinds})\");\n\
                let b = format!(\"selected {n} runs\");\n\
                write!(out, \"UPDATE runs SET x = {x}\").unwrap();\n\
                conn.execute(\"DELETE FROM games WHERE run_id = ?1\", [id]);\n\
                let c = myformat!(\"INSERT {x}\");\n";
    let found: Vec<usize> = formatted_sql(text).into_iter().map(|(l, _)| l).collect();
    assert_eq!(found, [1, 3]);
}

fn strings(paths: &[Vec<String>]) -> Vec<String> {
    paths.iter().map(|p| p.join("::")).collect()
}

#[test]
fn the_scanner_reads_paths_and_skips_comments_strings_and_tests() {
    let module = ["tournament".to_string(), "run".to_string()];
    let text = r#"
        use crate::{interrupt, referee::game::{self, play as p}};
        use super::schedule::Job;
        // crate::in_a_comment
        /* crate::in_a_block */
        let s = "crate::in_a_string"; let c = '"'; let r = r"crate::raw";
        fn f<'a>(x: &'a str) -> u64 { crate::config::numbers::whole::<u64>(x, "n") }
        #[cfg(test)]
        mod tests { use crate::in_the_tests; }
    "#;
    assert_eq!(
        strings(&paths(&module, &code(text))),
        [
            "interrupt",
            "referee::game::self",
            "referee::game::play",
            "tournament::schedule::Job",
            "config::numbers::whole",
        ]
    );
    let root = "pub mod game;\npub use game::play;\nuse self::game::Side;";
    assert_eq!(
        strings(&paths(&["referee".to_string()], &code(root))),
        ["referee::game::play", "referee::game::Side"]
    );
}

#[test]
fn the_circle_finder_names_the_circle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a.rs", &["b.rs"][..]),
        ("b.rs", &["c.rs", "d.rs"]),
        ("c.rs", &["a.rs"]),
        ("d.rs", &[]),
    ]
    .iter()
    .map(|(f, to)| (f.to_string(), to.iter().map(|t| t.to_string()).collect()))
    .collect();
    assert_eq!(cycles(&graph), [["a.rs", "b.rs", "c.rs"]]);
    let mut modules = BTreeMap::new();
    modules.insert(vec![], "lib.rs".to_string());
    modules.insert(vec!["pgn".to_string()], "pgn/mod.rs".to_string());
    let read = vec!["pgn".to_string(), "read".to_string()];
    modules.insert(read.clone(), "pgn/read.rs".to_string());
    let deep = [read, vec!["PgnGame".to_string()]].concat();
    assert_eq!(file_of(&modules, &deep).unwrap(), "pgn/read.rs");
    assert_eq!(
        file_of(&modules, &["pgn".to_string()]).unwrap(),
        "pgn/mod.rs"
    );
}
