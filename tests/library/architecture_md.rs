//! docs/ARCHITECTURE.md maps every source file, by this rule. The source
//! files are the `.rs`, `.js`, `.html` and `.css` files under a crate's
//! source root, `src/` for the engine and `autotest/src/` for autotest;
//! each crate's are mapped by the table of its section (`SECTIONS`). A
//! row's folder is its first cell's first backticked span when that ends
//! in `/`, from the source root (the root itself written as it is from
//! the repository, `src/`), else the source root. Each other backticked
//! span `S` of the row names, from the row's folder, the files `S`,
//! `S.rs` and `S/mod.rs`; the row of a folder names the folder's `mod.rs`
//! too. A file is mapped when a row of its crate's table names it. Every
//! folder of a first cell exists, and so does every other span of those
//! tables that is a path (it holds a `/` but not first, or ends in a
//! source file's extension), from the row's folder, and every path under `src/` or
//! `autotest/src/` that the document names anywhere, from the repository
//! root.

use std::collections::BTreeSet;
use std::path::Path;

/// Each crate's section heading and its source root, from the repository
/// root.
const SECTIONS: [(&str, &str); 2] = [
    ("### The folders and files", "src/"),
    ("## autotest: one folder per concern", "autotest/src/"),
];

/// The extensions of the source files.
const SOURCE: [&str; 4] = [".rs", ".js", ".html", ".css"];

/// Every file and folder (ending in `/`) under `root` in `repo`, from
/// `root`, with `/` between folders.
fn entries_under(repo: &Path, root: &str) -> BTreeSet<String> {
    fn walk(dir: &Path, rel: &str, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().expect("a UTF-8 file name");
            if entry.file_type().unwrap().is_dir() {
                let folder = format!("{rel}{name}/");
                out.insert(folder.clone());
                walk(&entry.path(), &folder, out);
            } else {
                out.insert(format!("{rel}{name}"));
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&repo.join(root), "", &mut out);
    out
}

/// Whether `path` is a source file's.
fn is_source(path: &str) -> bool {
    SOURCE.iter().any(|ext| path.ends_with(ext))
}

/// The backticked spans of `text`.
fn spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// Whether `span` is a path: made of a path's characters, with a `/` or a
/// source file's extension, and not from `/` (a URL's path).
fn is_path(span: &str) -> bool {
    !span.is_empty()
        && !span.starts_with('/')
        && span
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
        && (span.contains('/') || is_source(span))
}

/// The rows of the table in the section under `heading` (to the next
/// heading of its level or above), each with its line, header and
/// separator rows left out.
fn table_rows<'a>(doc: &'a str, heading: &str) -> Vec<(usize, &'a str)> {
    let level = heading.len() - heading.trim_start_matches('#').len();
    let mut lines = doc.lines().enumerate();
    lines
        .by_ref()
        .find(|(_, l)| l.trim_end() == heading)
        .unwrap_or_else(|| panic!("no heading {heading:?}"));
    let mut rows = Vec::new();
    let mut header_next = true;
    for (i, line) in lines {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if hashes > 0 && hashes <= level && line[hashes..].starts_with(' ') {
            break;
        }
        if !line.trim_start().starts_with('|') {
            header_next = true;
            continue;
        }
        let separator = line.chars().all(|c| "|-: ".contains(c));
        if !header_next && !separator {
            rows.push((i + 1, line));
        }
        header_next = false;
    }
    rows
}

/// The first cell of a table row.
fn first_cell(line: &str) -> &str {
    let inner = line.trim().trim_start_matches('|');
    inner.split_once('|').map_or(inner, |(first, _)| first)
}

/// What is wrong with `doc` as the map of `files` (every file and folder
/// under each source root, from the repository root), one line a fault.
fn faults(doc: &str, files: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (heading, root) in SECTIONS {
        let exists = |rel: &str| files.contains(&format!("{root}{rel}"));
        let mut named = BTreeSet::new();
        for (n, line) in table_rows(doc, heading) {
            let folder_span = spans(first_cell(line)).next().filter(|s| s.ends_with('/'));
            let folder = match folder_span {
                None => String::new(),
                Some(f) if f == root => String::new(),
                Some(f) => f.to_string(),
            };
            if !folder.is_empty() {
                named.insert(format!("{folder}mod.rs"));
                if !exists(&folder) {
                    out.push(format!("line {n}: {root}{folder} does not exist"));
                }
            }
            for s in spans(line).skip(usize::from(folder_span.is_some())) {
                let at = format!("{folder}{s}");
                if is_path(s) && !exists(&at) {
                    out.push(format!("line {n}: {root}{at} does not exist"));
                }
                named.extend([at.clone(), format!("{at}.rs"), format!("{at}/mod.rs")]);
            }
        }
        for file in files {
            let Some(rel) = file.strip_prefix(root) else {
                continue;
            };
            if is_source(rel) && !named.contains(rel) {
                out.push(format!("{file}: no row names it"));
            }
        }
    }
    for (i, line) in doc.lines().enumerate() {
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c))) {
            let word = word.trim_end_matches('.');
            let under_root = SECTIONS.iter().any(|(_, root)| word.starts_with(root));
            if under_root && !files.contains(word) && !files.contains(&format!("{word}/")) {
                out.push(format!("line {} names {word}, which does not exist", i + 1));
            }
        }
    }
    out
}

#[test]
fn docs_architecture_md_maps_every_source_file() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(repo.join("docs/ARCHITECTURE.md")).unwrap();
    let mut files = BTreeSet::new();
    for (_, root) in SECTIONS {
        files.insert(root.to_string());
        files.extend(
            entries_under(repo, root)
                .into_iter()
                .map(|f| format!("{root}{f}")),
        );
    }
    assert!(
        files.iter().filter(|f| is_source(f)).count() > 200,
        "{files:?}"
    );
    let faults = faults(&doc, &files);
    assert!(
        faults.is_empty(),
        "docs/ARCHITECTURE.md (tests/library/architecture_md.rs says the rule):\n{}",
        faults.join("\n")
    );
}

/// A made-up repository: the engine's root files, a folder with a module
/// folder and a page, and autotest's root and one folder.
fn made_up() -> BTreeSet<String> {
    [
        "src/",
        "src/lib.rs",
        "src/leaf.rs",
        "src/search/",
        "src/search/mod.rs",
        "src/search/root.rs",
        "src/search/tt/",
        "src/search/tt/mod.rs",
        "src/search/tt/check.rs",
        "src/gui/",
        "src/gui/mod.rs",
        "src/gui/page/",
        "src/gui/page/app.js",
        "src/gui/page/logo.png",
        "autotest/src/",
        "autotest/src/main.rs",
        "autotest/src/db/",
        "autotest/src/db/mod.rs",
        "autotest/src/db/open.rs",
    ]
    .into_iter()
    .map(String::from)
    .collect()
}

/// A map of `made_up()`: a stem, a file name, a module folder by its name
/// and its file by its path from the row's folder, folders' `mod.rs` by
/// their rows, a page by its name; autotest's root files in a row of no
/// folder. Nothing names the picture, which is no source file.
const MAP: &str = "\
# Architecture

### The folders and files

| folder | what each file owns |
|---|---|
| `src/` | `leaf` a leaf; `lib.rs` the layers |
| `search/` | `root` the root; `tt` the table (`tt/check.rs` its invariants) |
| `gui/` | the server (`/api/page`), its page in `page/` |
| `gui/page/` | `app.js` |

## Where to change what

| to … | change |
|---|---|
| anything | `src/nowhere.rs` is not a source table's |

## autotest: one folder per concern

`autotest/src` by folder:

| folder / file | owns |
|---|---|
| `main.rs` | the command line |
| `db/` | `open` the database opened |
";

#[test]
fn a_map_of_every_file_passes() {
    let doc = MAP.replace("`src/nowhere.rs`", "`src/lib.rs`");
    assert_eq!(faults(&doc, &made_up()), Vec::<String>::new());
}

#[test]
fn a_file_no_row_names_is_named() {
    let mut files = made_up();
    files.insert("src/search/time.rs".into());
    files.insert("autotest/src/db/new.rs".into());
    let doc = MAP.replace("`src/nowhere.rs`", "`src/lib.rs`");
    assert_eq!(
        faults(&doc, &files),
        [
            "src/search/time.rs: no row names it",
            "autotest/src/db/new.rs: no row names it",
        ]
    );
    // A folder's `mod.rs` by the parent's row alone: without it, none.
    let doc = doc.replace("`tt` the table", "the table");
    assert_eq!(
        faults(&doc, &made_up()),
        ["src/search/tt/mod.rs: no row names it"]
    );
}

#[test]
fn a_path_that_is_not_there_is_named() {
    let doc = MAP
        .replace("(`tt/check.rs` its", "(`tt/checks.rs` its")
        .replace("| `db/` |", "| `dbs/` |");
    assert_eq!(
        faults(&doc, &made_up()),
        [
            "line 8: src/search/tt/checks.rs does not exist",
            "src/search/tt/check.rs: no row names it",
            "line 25: autotest/src/dbs/ does not exist",
            "autotest/src/db/mod.rs: no row names it",
            "autotest/src/db/open.rs: no row names it",
            "line 16 names src/nowhere.rs, which does not exist",
        ]
    );
}
