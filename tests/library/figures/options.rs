//! Every engine option's default that a document states, in prose ("`X`
//! (default V)", "`X` (on by default)", "`X` on (the default)", "`X`
//! N > 0 (the default, V)") and in BENCHMARKS.md's paragraph of the
//! defaults its figures were measured with ("`X` V"), is the default the
//! engine declares; and every option a document or script sets
//! (`setoption name X`, `--option X=`, autotest's `option.X=`) is one the
//! engine has. docs/OPTIONS.md's table is checked whole by
//! `tests/engine/options_table.rs`; its table of what shows each option's
//! effect here: a row for each option, and the tests, BENCHMARKS.md
//! sections and commits it names all there.

use super::benchmarks_md::{assert_in_history, cited, cited_sections, has_heading};
use leiserchess::config::listing::rows;
use std::collections::BTreeMap;

/// The documents whose prose names defaults (not the course's
/// `docs/spec/`, nor the generated options table).
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_string(), "autotest/README.md".to_string()];
    let dir = super::repo().join("docs");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") && name != "OPTIONS.md" {
            docs.push(format!("docs/{name}"));
        }
    }
    docs.push("BENCHMARKS.md".to_string());
    docs.sort();
    docs
}

/// The documents and the scripts, whose commands set options.
fn documents_and_scripts() -> Vec<String> {
    let mut files = documents();
    let dir = super::repo().join("scripts");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".sh") {
            files.push(format!("scripts/{name}"));
        }
    }
    files
}

/// The option names `text` sets: the word after each of the three ways to
/// set one, up to a character a name cannot hold.
fn set_in(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for way in ["setoption name ", "--option ", "option."] {
        for (at, _) in text.match_indices(way) {
            let rest = &text[at + way.len()..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(rest.len());
            // `option.` is autotest's only when a value follows.
            if way != "option." || rest[end..].starts_with('=') {
                names.push(&rest[..end]);
            }
        }
    }
    names
}

#[test]
fn every_option_set_in_a_document_or_script_exists() {
    let mut found = 0;
    let mut unknown = Vec::new();
    for file in documents_and_scripts() {
        let text = super::read(&file);
        for name in set_in(&text) {
            // NAME is the placeholder of a command's synopsis.
            if name == "NAME" || name.is_empty() {
                continue;
            }
            found += 1;
            if !rows().iter().any(|r| r.name.eq_ignore_ascii_case(name)) {
                unknown.push(format!("{file}: {name}"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "options the engine does not have:\n{}",
        unknown.join("\n")
    );
    assert!(
        found >= 30,
        "only {found} options set in the documents and scripts"
    );
}

#[test]
fn options_are_read_from_the_ways_to_set_them() {
    let text = "setoption name Hash value 8\nleiserchess --option threads=2 \
                option.use_nnue=false option.name (prose)";
    assert_eq!(set_in(text), vec!["Hash", "threads", "use_nnue"]);
}

/// Each option's default as `leiserchess options` shows it (`true` or
/// `false` for a check).
fn defaults() -> BTreeMap<&'static str, String> {
    rows().into_iter().map(|r| (r.name, r.default)).collect()
}

/// A value as written, as the listing shows it: `on`/`off` are `true`
/// and `false`; punctuation around it dropped.
fn normal(word: &str) -> String {
    let w = word.trim_matches(|c: char| "(),.;:*".contains(c));
    match w {
        "on" => "true".to_string(),
        "off" => "false".to_string(),
        w => w.to_string(),
    }
}

/// The default the words after an option's name state, if they state one.
fn stated(after: &str) -> Option<String> {
    let words: Vec<&str> = after.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied();
        // "(default V)", "(ms, default V)", "percent (default V)"
        if w.trim_start_matches('(') == "default" {
            return next.map(normal);
        }
        // "(on by default)", ", 0 by default"
        if i > 0 && *w == "by" && next.is_some_and(|n| n.starts_with("default")) {
            return Some(normal(words[i - 1]));
        }
        // "on (the default)", "(the default, 3)"
        if *w == "(the" && next.is_some_and(|n| n.starts_with("default")) {
            let after_default = next.unwrap().strip_prefix("default").unwrap();
            return if after_default.starts_with(',') {
                words.get(i + 2).map(|v| normal(v))
            } else {
                (i > 0).then(|| normal(words[i - 1]))
            };
        }
    }
    None
}

/// Each backticked word of `text` with the text after it up to the next
/// backtick, whitespace made single spaces.
fn named(text: &str) -> Vec<(&str, String)> {
    let parts: Vec<&str> = text.split('`').collect();
    (1..parts.len())
        .step_by(2)
        .map(|i| {
            let after = parts.get(i + 1).copied().unwrap_or("");
            (
                parts[i],
                after.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect()
}

#[test]
fn a_default_stated_in_prose_is_the_declared_one() {
    let defaults = defaults();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for doc in documents() {
        let text = super::read(&doc);
        for (name, after) in named(&text) {
            let Some(want) = defaults.get(name) else {
                continue;
            };
            // The clause right after the name: up to 40 characters.
            let clause: String = after.chars().take(40).collect();
            if let Some(said) = stated(&clause) {
                checked += 1;
                if &said != want {
                    wrong.push(format!(
                        "{doc}: `{name}` said default {said}, declared {want}"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The documents state over twenty: a parser that finds none fails.
    assert!(checked >= 20, "only {checked} stated defaults found");
}

#[test]
fn benchmarks_defaults_paragraph_names_the_declared_defaults() {
    let defaults = defaults();
    let text = super::read("BENCHMARKS.md");
    const OPENING: &str = "The defaults these figures were measured with";
    let start = text
        .find(OPENING)
        .expect("BENCHMARKS.md's defaults paragraph");
    let paragraph = &text[start..start + text[start..].find("\n\n").unwrap()];
    let mut checked = 0;
    for (name, after) in named(paragraph) {
        let Some(want) = defaults.get(name) else {
            continue;
        };
        let said = normal(after.split_whitespace().next().unwrap_or(""));
        assert_eq!(&said, want, "BENCHMARKS.md's defaults: `{name}`");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} options in {paragraph:?}");
}

#[test]
fn the_prose_patterns_read_what_they_should() {
    assert_eq!(stated(" (default 25) plus 80%"), Some("25".into()));
    assert_eq!(stated(" (ms, default 30) is first"), Some("30".into()));
    assert_eq!(stated(" percent (default 34) once"), Some("34".into()));
    assert_eq!(stated(" (on by default): the priors"), Some("true".into()));
    assert_eq!(stated(", 0 by default),"), Some("0".into()));
    assert_eq!(stated(" on (the default), a"), Some("true".into()));
    assert_eq!(stated(" N > 0 (the default, 3)**: the"), Some("3".into()));
    assert_eq!(stated(" (default off) a searched"), Some("false".into()));
    assert_eq!(stated(" is on, its default)."), None);
    assert_eq!(stated(" 0 turns it off"), None);
}

/// The heading of docs/OPTIONS.md's table of what shows each option's
/// effect.
const EVIDENCE: &str = "## What shows each option's effect";

/// The rows of that table in `text` (docs/OPTIONS.md): each option's name
/// and its "shown by" cell.
fn evidence_rows(text: &str) -> Vec<(String, String)> {
    let start = text
        .find(EVIDENCE)
        .unwrap_or_else(|| panic!("docs/OPTIONS.md: no {EVIDENCE:?}"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_string();
            (name, cells.get(2).copied().unwrap_or("").to_string())
        })
        .collect()
}

/// The tests a cell names, backticked as `path/to/file.rs::function`:
/// (the file, the function).
fn named_tests(cell: &str) -> Vec<(String, String)> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| {
            let (file, rest) = code.split_once(".rs::")?;
            let function = rest.rsplit("::").next().unwrap_or(rest);
            Some((format!("{file}.rs"), function.to_string()))
        })
        .collect()
}

/// Whether `source` defines a function named `name` (`fn name(` or
/// `fn name<`, not a longer name that starts the same).
fn defines(source: &str, name: &str) -> bool {
    let mark = format!("fn {name}");
    source.match_indices(&mark).any(|(at, _)| {
        source[at + mark.len()..]
            .chars()
            .next()
            .is_some_and(|c| c == '(' || c == '<')
    })
}

/// The faults of the evidence table in `text` against the declared
/// options `declared`: a row missing, repeated, out of order or naming
/// no evidence, a test that is not in its file, a section BENCHMARKS.md
/// (its text `benchmarks`) does not have.
fn evidence_faults(text: &str, declared: &[&str], benchmarks: &str) -> Vec<String> {
    let rows = evidence_rows(text);
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    let mut faults = Vec::new();
    for option in declared {
        let n = names.iter().filter(|n| *n == option).count();
        if n != 1 {
            faults.push(format!("`{option}`: {n} rows"));
        }
    }
    for name in &names {
        if !declared.contains(name) {
            faults.push(format!("`{name}`: a row, but no such option"));
        }
    }
    if faults.is_empty() && names != declared {
        faults.push("the rows are not in the options' order".to_string());
    }
    for (option, cell) in &rows {
        let (tests, sections) = (named_tests(cell), cited_sections(cell));
        if tests.is_empty() && sections.is_empty() {
            faults.push(format!("`{option}`: neither a test nor a section"));
        }
        for (file, function) in tests {
            match std::fs::read_to_string(super::repo().join(&file)) {
                Ok(source) if defines(&source, &function) => {}
                Ok(_) => faults.push(format!("`{option}`: no fn {function} in {file}")),
                Err(e) => faults.push(format!("`{option}`: {file}: {e}")),
            }
        }
        for title in sections {
            if !has_heading(benchmarks, &title) {
                faults.push(format!(
                    "`{option}`: no section \"{title}\" in BENCHMARKS.md"
                ));
            }
        }
    }
    faults
}

#[test]
fn every_option_has_one_row_of_evidence_and_its_citations_exist() {
    let text = super::read("docs/OPTIONS.md");
    let benchmarks = super::read("BENCHMARKS.md");
    let declared: Vec<&str> = rows().iter().map(|r| r.name).collect();
    let faults = evidence_faults(&text, &declared, &benchmarks);
    assert!(
        faults.is_empty(),
        "docs/OPTIONS.md, {EVIDENCE:?}:\n{}",
        faults.join("\n")
    );
    let start = text.find(EVIDENCE).unwrap();
    assert_in_history(&cited(&text[start..]), "docs/OPTIONS.md");
}

/// The checker itself: a row missing, a test not in its file, a section
/// not in BENCHMARKS.md and a row with nothing are each found.
#[test]
fn evidence_faults_are_found() {
    let benchmarks = "# B\n## Threads (`threads`)\n";
    let table = |rows: &str| format!("{EVIDENCE}\n\n| option | shown by |\n|---|---|\n{rows}\n");
    let good = "| `threads` | BENCHMARKS.md, \"Threads\". \
                `tests/library/figures/options.rs::evidence_faults_are_found` |";
    assert_eq!(
        evidence_faults(&table(good), &["threads"], benchmarks),
        Vec::<String>::new()
    );
    assert_eq!(
        evidence_faults(&table(good), &["threads", "hash"], benchmarks),
        vec!["`hash`: 0 rows"]
    );
    let wrong = good.replace("are_found", "are_lost");
    assert_eq!(
        evidence_faults(&table(&wrong), &["threads"], benchmarks),
        vec!["`threads`: no fn evidence_faults_are_lost in tests/library/figures/options.rs"]
    );
    let renamed = good.replace("\"Threads\"", "\"Cores\"");
    assert_eq!(
        evidence_faults(&table(&renamed), &["threads"], benchmarks),
        vec!["`threads`: no section \"Cores\" in BENCHMARKS.md"]
    );
    assert_eq!(
        evidence_faults(&table("| `threads` | nothing |"), &["threads"], benchmarks),
        vec!["`threads`: neither a test nor a section"]
    );
}
