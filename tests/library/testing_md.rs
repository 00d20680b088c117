//! docs/TESTING.md maps every test file, by this rule. The files mapped
//! are the `.rs` files under `tests/`, `perft/` and `autotest/tests/`, but
//! a binary folder's `main.rs` (the document names the folder instead)
//! and the parts of a test file `X.rs` (the files under the folder `X/`
//! beside it). Each has one row in a file table, a table whose first
//! column is headed `file`: the row's first cell is the file's path in
//! backticks, from the repository root when it holds a `/`, otherwise
//! from the table's folder, the last backticked folder (ending in `/`) in
//! the text above the table, outside tables and code blocks. A row names
//! only a mapped file, and every `.rs` path under those folders the
//! document names anywhere exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The folders that hold test files, from the repository root.
const ROOTS: [&str; 3] = ["tests/", "perft/", "autotest/tests/"];

/// Every file under `ROOTS` in `repo`, from the repository root, with `/`
/// between folders.
fn files_under(repo: &Path) -> BTreeSet<String> {
    fn walk(dir: &Path, rel: &str, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().expect("a UTF-8 file name");
            let path = format!("{rel}{name}");
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &format!("{path}/"), out);
            } else {
                out.insert(path);
            }
        }
    }
    let mut out = BTreeSet::new();
    for root in ROOTS {
        walk(&repo.join(root), root, &mut out);
    }
    out
}

/// Whether `path` is under one of `ROOTS`. `autotest/tests/` is not under
/// `tests/`: a path is matched from its start.
fn under_roots(path: &str) -> bool {
    ROOTS.iter().any(|r| path.starts_with(r))
}

/// The files of `files` the map must name.
fn mapped(files: &BTreeSet<String>) -> BTreeSet<String> {
    let part = |f: &str| {
        let mut folder = f;
        while let Some(i) = folder.rfind('/') {
            folder = &folder[..i];
            if files.contains(&format!("{folder}.rs")) {
                return true;
            }
        }
        false
    };
    files
        .iter()
        .filter(|f| f.ends_with(".rs") && !f.ends_with("/main.rs") && !part(f))
        .cloned()
        .collect()
}

/// The folders of `files` that are binaries (that hold a `main.rs`).
fn binary_folders(files: &BTreeSet<String>) -> BTreeSet<String> {
    files
        .iter()
        .filter_map(|f| f.strip_suffix("main.rs"))
        .filter(|folder| folder.ends_with('/'))
        .map(str::to_string)
        .collect()
}

/// What the document says.
#[derive(Default)]
struct Map {
    /// Each file a row names, with the lines of its rows.
    rows: BTreeMap<String, Vec<usize>>,
    /// Each path under `ROOTS` ending in `.rs` named anywhere, with the
    /// first line naming it.
    named: BTreeMap<String, usize>,
    /// Every backticked folder outside tables and code blocks.
    folders: BTreeSet<String>,
    /// Rows that name no file, said with their line.
    bad_rows: Vec<String>,
}

/// The backticked spans of `text` (which may run over lines).
fn spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// The cells of a table line.
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

/// Where a line of the document is.
enum At {
    Prose,
    /// In a file table, whose rows' bare names are in this folder.
    Files(Option<String>),
    /// In another table.
    OtherTable,
}

/// The backticked folders of `prose`, in order.
fn folders_in(prose: &str) -> impl Iterator<Item = &str> {
    spans(prose).filter(|s| s.ends_with('/') && !s.contains(char::is_whitespace))
}

/// What `doc` says.
fn read_map(doc: &str) -> Map {
    let mut map = Map::default();
    // The folder the next file table belongs to, and the prose since the
    // last table (a backticked span may run over a line break).
    let mut folder: Option<String> = None;
    let mut prose = String::new();
    let mut at = At::Prose;
    let mut in_code = false;
    for (i, line) in doc.lines().enumerate() {
        let n = i + 1;
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c))) {
            let word = word.trim_end_matches('.');
            if word.ends_with(".rs") && under_roots(word) {
                map.named.entry(word.to_string()).or_insert(n);
            }
        }
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if !line.trim_start().starts_with('|') {
            at = At::Prose;
            prose.push_str(line);
            prose.push('\n');
            continue;
        }
        let row = cells(line);
        let table_folder = match &at {
            At::Prose => {
                // A table's header: the prose above it has had its say.
                for f in folders_in(&prose) {
                    map.folders.insert(f.to_string());
                    folder = Some(f.to_string());
                }
                prose.clear();
                at = if row[0] == "file" {
                    At::Files(folder.clone())
                } else {
                    At::OtherTable
                };
                continue;
            }
            At::OtherTable => continue,
            At::Files(f) => f,
        };
        let separator = row
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| "-: ".contains(ch)));
        if separator {
            continue;
        }
        let path = row[0]
            .strip_prefix('`')
            .and_then(|c| c.strip_suffix('`'))
            .filter(|p| !p.is_empty() && !p.contains('`'));
        let path = match (path, table_folder) {
            (Some(p), _) if p.contains('/') => p.to_string(),
            (Some(p), Some(f)) => format!("{f}{p}"),
            (Some(p), None) => {
                map.bad_rows.push(format!(
                    "line {n}: `{p}` in a table with no folder above it"
                ));
                continue;
            }
            (None, _) => {
                map.bad_rows.push(format!(
                    "line {n}: a file table's row whose first cell is not a path in backticks"
                ));
                continue;
            }
        };
        map.rows.entry(path).or_default().push(n);
    }
    map.folders.extend(folders_in(&prose).map(str::to_string));
    map
}

/// What is wrong with `doc` as the map of `files` (every file under
/// `ROOTS`), one line a fault.
fn faults(doc: &str, files: &BTreeSet<String>) -> Vec<String> {
    let map = read_map(doc);
    let mapped = mapped(files);
    let mut out = map.bad_rows.clone();
    for f in &mapped {
        match map.rows.get(f).map(Vec::as_slice) {
            None | Some([]) => out.push(format!("{f}: no row")),
            Some([_]) => {}
            Some(lines) => out.push(format!("{f}: a row on each of lines {lines:?}")),
        }
    }
    for (path, lines) in &map.rows {
        if !files.contains(path) {
            out.push(format!("line {}: {path} does not exist", lines[0]));
        } else if !mapped.contains(path) {
            out.push(format!("line {}: {path} is not a test file", lines[0]));
        }
    }
    for (path, line) in &map.named {
        if !files.contains(path) {
            out.push(format!("line {line} names {path}, which does not exist"));
        }
    }
    for folder in binary_folders(files) {
        if !map.folders.contains(&folder) {
            out.push(format!("the binary folder {folder} is not named"));
        }
    }
    out
}

#[test]
fn docs_testing_md_maps_every_test_file() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(repo.join("docs/TESTING.md")).unwrap();
    let faults = faults(&doc, &files_under(repo));
    assert!(
        faults.is_empty(),
        "docs/TESTING.md (tests/library/testing_md.rs says the rule):\n{}",
        faults.join("\n")
    );
}

/// A made-up repository: a file binary, a folder binary with a part of a
/// file, shared helpers, the perft harness, autotest's tests and a test
/// file with parts, and a fixture.
fn made_up() -> BTreeSet<String> {
    [
        "tests/alone.rs",
        "tests/group/main.rs",
        "tests/group/first.rs",
        "tests/group/second.rs",
        "tests/common/helper.rs",
        "tests/data/sample.bin",
        "perft/harness.rs",
        "autotest/tests/cli.rs",
        "autotest/tests/docs.rs",
        "autotest/tests/docs/part.rs",
    ]
    .into_iter()
    .map(String::from)
    .collect()
}

/// A map of `made_up()`. The group's table takes the last folder above
/// it, past a backticked span that runs over a line break; the folder in
/// the code block is no table's; autotest's table takes the last of
/// three.
const MAP: &str = "\
The tests of `tests/`:

| file | what |
|---|---|
| `alone.rs` | itself (`tests/alone.rs`) |

The `tests/common/` helpers serve `cargo
test` and the binary `tests/group/`:

| file | what |
|---|---|
| `first.rs` | one |
| `second.rs` | two |
| `tests/common/helper.rs` | a helper |
| `perft/harness.rs` | perft |

```sh
| `tests/wrong/` a pipe in code
```

| command | what |
|---|---|
| `nothing.rs` | not a file table |

autotest's (`autotest/tests/`,
`autotest/tests/docs/` its parts' folder, `autotest/tests/`
again):

| file | what | needs |
|:--|--|--|
| `cli.rs` | the command line | |
| `docs.rs` | the documents | |
";

#[test]
fn a_map_of_every_file_passes() {
    assert_eq!(faults(MAP, &made_up()), Vec::<String>::new());
    let map = read_map(MAP);
    assert_eq!(map.rows["tests/group/first.rs"], [12]);
    assert!(map.folders.contains("tests/group/"));
    assert!(!map.folders.contains("tests/wrong/"));
}

#[test]
fn main_rs_and_a_test_file_s_parts_have_no_row_and_a_fixture_none() {
    let mapped = mapped(&made_up());
    for f in [
        "tests/group/main.rs",
        "autotest/tests/docs/part.rs",
        "tests/data/sample.bin",
    ] {
        assert!(!mapped.contains(f), "{f}");
    }
    assert_eq!(mapped.len(), 7);
    assert_eq!(
        binary_folders(&made_up()),
        BTreeSet::from(["tests/group/".to_string()])
    );
}

#[test]
fn a_file_without_a_row_or_with_two_is_named() {
    let doc = MAP.replace("| `second.rs` | two |\n", "");
    assert_eq!(faults(&doc, &made_up()), ["tests/group/second.rs: no row"]);
    let doc = MAP.replace("| `cli.rs` |", "| `autotest/tests/docs.rs` |");
    assert_eq!(
        faults(&doc, &made_up()),
        [
            "autotest/tests/cli.rs: no row",
            "autotest/tests/docs.rs: a row on each of lines [31, 32]",
        ]
    );
}

#[test]
fn a_row_or_a_mention_of_a_file_that_is_not_there_is_named() {
    let doc = MAP.replace("| `first.rs` | one |", "| `gone.rs` | one |")
        + "Once `tests/old.rs`, and tests/group/main.rs, perft/data/x.txt.\n";
    assert_eq!(
        faults(&doc, &made_up()),
        [
            "tests/group/first.rs: no row",
            "line 12: tests/group/gone.rs does not exist",
            "line 33 names tests/old.rs, which does not exist",
        ]
    );
    let doc = MAP.replace(
        "| `first.rs` | one |",
        "| `first.rs` | one |\n| `main.rs` | |",
    );
    assert_eq!(
        faults(&doc, &made_up()),
        ["line 13: tests/group/main.rs is not a test file"]
    );
}

#[test]
fn a_binary_folder_the_map_does_not_name_is_named() {
    // Its table then takes the folder named before it.
    let doc = MAP.replace("the binary `tests/group/`", "the binary");
    assert_eq!(
        faults(&doc, &made_up()),
        [
            "tests/group/first.rs: no row",
            "tests/group/second.rs: no row",
            "line 12: tests/common/first.rs does not exist",
            "line 13: tests/common/second.rs does not exist",
            "the binary folder tests/group/ is not named",
        ]
    );
}

#[test]
fn a_row_without_a_folder_or_a_path_is_refused() {
    let doc = "| file | what |\n|---|---|\n| `a.rs` | |\n| a.rs | |\n| `` | |\n";
    assert_eq!(
        read_map(doc).bad_rows,
        [
            "line 3: `a.rs` in a table with no folder above it",
            "line 4: a file table's row whose first cell is not a path in backticks",
            "line 5: a file table's row whose first cell is not a path in backticks",
        ]
    );
}
