//! The crate's layers import only downwards (src/lib.rs): the leaves
//! (`user_text`, `check_rep`, `declaration`, `user_file`, `allocator`, `cpu`,
//! `object_store`)
//! nothing, `rules` the leaves, `eval` the rules, `search` the evaluation, `config` the
//! search, `lab` the configuration, `play` (engines as child processes,
//! PGN) the lab, `protocol` the layers below, `gui` everything; within
//! `rules`, each module only the ones before it; within `search`, the
//! parts every algorithm shares import no algorithm's folder, and no
//! algorithm imports another's but the best-first search PVS, which
//! searches its leaves; within `gui`, no file's imports lead back
//! to it; within every folder, no file's imports lead back to it through
//! the folder's other files (its `mod.rs` apart). Test code (from the
//! first `#[cfg(test)]` or `#[cfg(all(test` of a file on) may import
//! anything. And no file of `src/` passes 800 lines (500 is the guide).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom first.
const LAYERS: &[&str] = &[
    "leaf", "rules", "eval", "search", "config", "lab", "play", "protocol", "gui",
];
const LEAVES: &[&str] = &[
    "user_text",
    "check_rep",
    "declaration",
    "user_file",
    "allocator",
    "cpu",
    "object_store",
    "scratch",
];

/// The search algorithms, each a folder of `src/search`; the rest of
/// `src/search` is shared by all of them, except `bench`, whose workload
/// runs one, and `algorithm`, which picks one.
const ALGORITHMS: &[&str] = &["pvs", "mcts", "bestfirst", "hybrid"];

/// The algorithms built on another: (user, used). Best-first values its
/// leaves with PVS, and so does MCTS with `mcts_ab`; the hybrid runs an
/// MCTS tree, then a PVS.
const BUILT_ON: &[(&str, &str)] = &[
    ("bestfirst", "pvs"),
    ("mcts", "pvs"),
    ("hybrid", "mcts"),
    ("hybrid", "pvs"),
];

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
        LAYERS.iter().position(|l| *l == top).unwrap_or_else(|| {
            panic!("src/{top} is in no layer: add it to tests/library/layers.rs")
        })
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
            // A leaf names only itself (its macros' `$crate::` paths).
            let ok = if LEAVES.contains(&top) {
                a == top
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

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first names a path goes on to after its prefix: `x` of `x::y`, and
/// each one of a group `{x, y::z}`; `*` for a glob.
fn path_heads(rest: &str) -> Vec<String> {
    let Some(group) = rest.strip_prefix('{') else {
        let head = ident(rest);
        return vec![if head.is_empty() && rest.starts_with('*') {
            "*".to_string()
        } else {
            head.to_string()
        }];
    };
    let (mut depth, mut end) = (0, group.len());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                end = i;
                break;
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    group[..end]
        .split(',')
        .map(|part| ident(part.trim()).to_string())
        .filter(|h| !h.is_empty())
        .collect()
}

/// The files of a folder that `code`, the code of its file `me` (a module
/// name, or `mod` for the folder's own module file), imports: the heads of
/// its paths from `prefix` (the folder's `crate::` path) and (outside the
/// module file) `super::`, a head that is no file naming an item of the
/// module file, a `super::super::` path leaving the folder; and in the
/// module file, its children's paths (`server::`, `self::server::`).
fn folder_imports(
    prefix: &str,
    me: &str,
    code: &str,
    modules: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut heads = Vec::new();
    let mut prefixes = vec![prefix];
    if me != "mod" {
        prefixes.push("super::");
    }
    for prefix in prefixes {
        for (i, _) in code.match_indices(prefix) {
            // Inside a longer path (`super::super::`, `x::crate::`): not here.
            if code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            heads.extend(path_heads(&code[i + prefix.len()..]));
        }
    }
    if me == "mod" {
        for m in modules {
            let path = format!("{m}::");
            for (i, _) in code.match_indices(&path) {
                let before = code[..i].strip_suffix("self::").unwrap_or(&code[..i]);
                if !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                    heads.push(m.clone());
                }
            }
        }
    }
    heads
        .into_iter()
        .filter(|h| h != "super")
        .map(|h| {
            if modules.contains(&h) {
                h
            } else {
                "mod".to_string()
            }
        })
        .filter(|m| m != me)
        .collect()
}

/// The files of `src/gui` that `code`, the code of its file `me`, imports.
fn gui_imports(me: &str, code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    folder_imports("crate::gui::", me, code, modules)
}

/// A cycle of `graph`, as its files in order with the first repeated at
/// the end, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut done, &mut Vec::new()))
}

#[test]
fn the_gui_files_import_in_no_circle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gui");
    let files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    let name = |p: &Path| p.file_stem().unwrap().to_str().unwrap().to_string();
    let modules: BTreeSet<String> = files.iter().map(|p| name(p)).collect();
    assert!(modules.len() >= 6, "{modules:?}");
    let graph: BTreeMap<String, BTreeSet<String>> = files
        .iter()
        .map(|p| (name(p), gui_imports(&name(p), &code(p), &modules)))
        .collect();
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "the files of src/gui import in a circle: {}\nimports: {graph:#?}",
            cycle.join(" -> ")
        );
    }
}

/// The folders of `src` (itself included), each with the `crate::` path
/// of its module.
fn folders(dir: &Path, path: &str, out: &mut Vec<(PathBuf, String)>) {
    out.push((dir.to_path_buf(), path.to_string()));
    for entry in fs::read_dir(dir).unwrap() {
        let sub = entry.unwrap().path();
        if sub.is_dir() {
            let name = sub.file_name().unwrap().to_str().unwrap();
            folders(&sub, &format!("{path}{name}::"), out);
        }
    }
}

/// The import graph of the files directly in `dir`, whose module's path is
/// `prefix`, each file by its module name. The folder's module file
/// (`mod.rs`, `lib.rs`) stands apart: it declares the files and speaks for
/// them, and they may use its items. A sub-folder is a file that imports
/// nothing here (its files are the sub-folder's graph). `main.rs` is the
/// binary's crate, not a module.
fn folder_graph(dir: &Path, prefix: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = BTreeMap::new();
    let mut modules = BTreeSet::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            modules.insert(stem);
        } else if path.extension().is_some_and(|e| e == "rs") && stem != "main" {
            let name = match stem.as_str() {
                "mod" | "lib" => "mod".to_string(),
                _ => stem,
            };
            files.insert(name, path);
        }
    }
    files.remove("mod");
    modules.extend(files.keys().cloned());
    files
        .iter()
        .map(|(name, path)| {
            let mut to = folder_imports(prefix, name, &code(path), &modules);
            to.remove("mod");
            (name.clone(), to)
        })
        .collect()
}

#[test]
fn the_files_of_no_folder_import_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    folders(&src, "crate::", &mut all);
    let mut circles = Vec::new();
    for (dir, prefix) in &all {
        let graph = folder_graph(dir, prefix);
        if let Some(cycle) = find_cycle(&graph) {
            let rel = dir.strip_prefix(&src).unwrap().display().to_string();
            circles.push(format!("src/{rel}: {}", cycle.join(" -> ")));
        }
    }
    assert!(all.len() > 20, "{} folders", all.len());
    assert!(
        circles.is_empty(),
        "the files of a folder import in a circle (move what both need into \
         the lower one, or into a module of its own):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_folder_scanner_keeps_to_the_folder() {
    let modules: BTreeSet<String> = ["line", "split", "worker"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let split = "use super::worker::Worker;\nuse super::super::shared::Shared;\n\
                 use super::INF;\nlet l = crate::search::pvs::line::Line::default();\n\
                 let t = crate::search::tt::Table::new();";
    let found = folder_imports("crate::search::pvs::", "split", split, &modules);
    let want: BTreeSet<String> = ["line", "mod", "worker"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(found, want);
    // A path that leaves the folder names none of its files.
    let away = "use super::super::worker::Worker;";
    assert!(folder_imports("crate::search::pvs::", "split", away, &modules).is_empty());
}

#[test]
fn the_gui_scanner_sees_imports_and_circles() {
    let modules: BTreeSet<String> = ["mod", "api", "store", "think"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let api = "use super::store::Entry;\nuse super::{think::{self, Task}, Config};\n\
               let x = crate::gui::store::Store::new(1);";
    assert_eq!(
        gui_imports("api", api, &modules),
        set(&["store", "think", "mod"])
    );
    let top = "mod api;\npub use api::router;\nuse self::store::Store;\n\
               use crate::config::EngineConfig;\nuse super::think;";
    assert_eq!(gui_imports("mod", top, &modules), set(&["api", "store"]));
    let graph = |edges: &[(&str, &[&str])]| {
        edges
            .iter()
            .map(|(from, to)| (from.to_string(), set(to)))
            .collect::<BTreeMap<_, _>>()
    };
    assert_eq!(
        find_cycle(&graph(&[
            ("api", &["store"]),
            ("store", &["think"]),
            ("think", &["api"])
        ])),
        Some(vec![
            "api".into(),
            "store".into(),
            "think".into(),
            "api".into()
        ])
    );
    assert_eq!(
        find_cycle(&graph(&[
            ("api", &["store", "think"]),
            ("store", &["think"]),
            ("think", &[])
        ])),
        None
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

/// The `search` modules `code` names, by `crate::search::x` and by
/// `super::` paths that climb to `search` (`super::x` in a file directly
/// in `src/search`, `super::super::x` in a folder's file, and so on).
/// `module` is the file's module path below `search` (`["bestfirst",
/// "tree"]`; a folder's `mod.rs` is the folder's).
fn search_modules(code: &str, module: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = crate_paths(code)
        .into_iter()
        .filter(|(a, _)| a == "search")
        .map(|(_, b)| b)
        .collect();
    for (i, _) in code.match_indices("super::") {
        // A chain's first `super::` only.
        if code[..i].ends_with("::") {
            continue;
        }
        let mut rest = &code[i..];
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            up += 1;
        }
        if up == module.len() {
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
        let module: Vec<&str> = rel
            .iter()
            .map(|c| c.to_str().unwrap().trim_end_matches(".rs"))
            .filter(|c| *c != "mod")
            .collect();
        for m in search_modules(&code(path), &module) {
            // An algorithm's folder: only itself, the bench, the choice
            // between the algorithms and an algorithm built on it may
            // name it.
            let ok = !ALGORITHMS.contains(&m.as_str())
                || m == part
                || part == "bench"
                || part == "algorithm"
                || BUILT_ON.contains(&(part, m.as_str()));
            if !ok {
                wrong.push(format!("search/{} imports search::{m}", rel.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(
        search_modules("use super::pvs::think;", &["algorithm"]),
        ["pvs"]
    );
    assert_eq!(
        search_modules("use super::super::mcts::tree;", &["bestfirst", "tree"]),
        ["mcts"]
    );
    assert_eq!(
        search_modules("use super::mcts::tree;", &["bestfirst"]),
        ["mcts"]
    );
    assert!(search_modules("use super::tree::Tree;", &["bestfirst", "select"]).is_empty());
}

/// The lines a file of `src/` may not pass.
const CEILING: usize = 800;

/// Files stay small enough to read whole: 500 lines is the guide, and a
/// type is not split to fit it (a file owns a concept); 800 is the
/// ceiling, the one bound checked. autotest's own test keeps
/// `autotest/src` to 500.
#[test]
fn no_source_file_passes_the_800_line_ceiling() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let lines = fs::read_to_string(p).unwrap().lines().count();
            (lines > CEILING).then(|| format!("{}: {lines} lines", p.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The folders under `dir` (itself included) whose module is a `NAME.rs`
/// beside the folder `NAME/` rather than the folder's own `mod.rs`.
fn modules_beside_their_folder(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.with_extension("rs").is_file() {
                out.push(format!("{}.rs", path.display()));
            }
            out.extend(modules_beside_their_folder(&path));
        }
    }
    out
}

/// One module style in both crates: a folder's module is its `mod.rs`
/// (docs/ARCHITECTURE.md).
#[test]
fn a_folders_module_is_its_mod_rs() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut beside = modules_beside_their_folder(&repo.join("src"));
    beside.extend(modules_beside_their_folder(&repo.join("autotest/src")));
    assert!(
        beside.is_empty(),
        "modules beside their folder (move each to FOLDER/mod.rs):\n{}",
        beside.join("\n")
    );
    // The scanner finds one: a folder with a file of its name beside it.
    let dir = crate::common::scratch::dir("layers-module-style");
    fs::create_dir_all(dir.join("a/b")).unwrap();
    fs::write(dir.join("a/b.rs"), "").unwrap();
    fs::write(dir.join("a/b/c.rs"), "").unwrap();
    assert_eq!(
        modules_beside_their_folder(&dir),
        vec![format!("{}", dir.join("a/b.rs").display())]
    );
}
