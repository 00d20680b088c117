//! docs/OPTIONS.md's table is `leiserchess options --markdown`, and its
//! options are those `uci` lists: an option added, removed or changed
//! without the table fails here. `UPDATE_DOCS=1 cargo test --test
//! options_table` writes the table into docs/OPTIONS.md.
//!
//! The table is the default build's (with `debug-commands`: `check_rep`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const BEGIN: &str = "<!-- options: leiserchess options --markdown -->\n";
const END: &str = "<!-- end of options -->";

fn engine(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the engine");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("write to the engine");
    let out = child.wait_with_output().expect("the engine ends");
    assert!(out.status.success(), "leiserchess {args:?}: {}", out.status);
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/OPTIONS.md")
}

/// docs/OPTIONS.md, and the byte range of its table between the markers.
fn manual() -> (String, std::ops::Range<usize>) {
    let text = std::fs::read_to_string(path()).expect("docs/OPTIONS.md");
    let start = text
        .find(BEGIN)
        .expect("docs/OPTIONS.md has the options marker")
        + BEGIN.len();
    let end = start
        + text[start..]
            .find(END)
            .expect("docs/OPTIONS.md has the end marker");
    (text, start..end)
}

#[test]
fn the_manual_s_table_is_the_options_listing() {
    let table = engine(&["options", "--markdown"], "");
    let (text, range) = manual();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let mut new = text.clone();
        new.replace_range(range, &table);
        std::fs::write(path(), new).expect("write docs/OPTIONS.md");
        return;
    }
    assert!(
        text[range] == table,
        "docs/OPTIONS.md's table differs from `leiserchess options --markdown`; \
         `UPDATE_DOCS=1 cargo test --test engine -- options_table::` rewrites it"
    );
}

#[test]
fn the_table_lists_what_uci_lists() {
    let uci: Vec<String> = engine(&[], "uci\nquit\n")
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| l[..l.find(" type ").expect("a type")].to_string())
        .collect();
    let (text, range) = manual();
    let table: Vec<String> = text[range]
        .lines()
        .skip(2)
        .map(|row| {
            row.split('`')
                .nth(1)
                .expect("a `name` in each row")
                .to_string()
        })
        .collect();
    assert!(uci.len() > 40, "uci lists {} options", uci.len());
    assert_eq!(
        table, uci,
        "docs/OPTIONS.md's options, in order, against `uci`'s"
    );
}
