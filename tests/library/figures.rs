//! The figures of the documents that the code produces or that name the
//! project's history, each generated or checked here against its source:
//! a worked example written from the code (`UPDATE_DOCS=1` rewrites it),
//! samples whose signatures the engine gives, option defaults, and the
//! commits BENCHMARKS.md cites. A figure changed without its document (or
//! a document without its figure) fails here.

mod autotest_readme;
mod benchmarks_md;
mod engine_md;
mod options;

use std::path::{Path, PathBuf};

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The document at `path` from the repository root.
fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The committed signature in `bench/NAME`.
fn signature(name: &str) -> u64 {
    let text = read(&format!("bench/{name}"));
    text.trim()
        .parse()
        .unwrap_or_else(|e| panic!("bench/{name}: {text:?}: {e}"))
}

/// Where the block named `name` of `doc` lies: the bytes after the line
/// `<!-- NAME: … -->` up to the line `<!-- end NAME -->`.
fn marked(doc: &str, name: &str, text: &str) -> std::ops::Range<usize> {
    let open = format!("<!-- {name}: ");
    let start = text
        .find(&open)
        .unwrap_or_else(|| panic!("{doc}: no line starting {open:?}"));
    let start = start + text[start..].find('\n').expect("a line") + 1;
    let close = format!("<!-- end {name} -->");
    let end = start
        + text[start..]
            .find(&close)
            .unwrap_or_else(|| panic!("{doc}: no {close:?} after {open:?}"));
    start..end
}

/// The block `name` of `doc` must be `generated`; with `UPDATE_DOCS=1` it
/// is written instead.
fn generated_block(doc: &str, name: &str, generated: &str) {
    let text = read(doc);
    let span = marked(doc, name, &text);
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        let mut updated = text.clone();
        updated.replace_range(span, generated);
        std::fs::write(repo().join(doc), updated).unwrap_or_else(|e| panic!("{doc}: {e}"));
        return;
    }
    assert_eq!(
        &text[span], generated,
        "{doc}'s {name} is not what the code gives: `UPDATE_DOCS=1 cargo test --test library \
         figures::` writes it"
    );
}
