//! BENCHMARKS.md's history and its current figures: every commit it
//! cites is in the history that leads to HEAD, and each row of its
//! "Current figures" table still describes the engine, by the rule its
//! last column states: the paths it names are unchanged since the row's
//! commit (renames aside). A row that names none (`—`) is a figure of the
//! lab, not of the engine's play.

use std::process::Command;

const DOC: &str = "BENCHMARKS.md";

/// `git ARGS` in the repository: its standard output, or a failure naming
/// the command and what git said.
fn git(args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(super::repo())
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Words of `text` that name commits: 7 to 40 hexadecimal digits holding
/// a letter and a digit, not after `sha256` (a file's hash).
pub fn cited(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut previous = "";
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let hex = (7..=40).contains(&word.len())
            && word
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
            && word.chars().any(|c| c.is_ascii_digit())
            && word.chars().any(|c| c.is_ascii_alphabetic());
        if hex && previous != "sha256" {
            out.push(word.to_string());
        }
        if !word.is_empty() {
            previous = word;
        }
    }
    out
}

/// Every commit of `commits` must be an ancestor of HEAD (or HEAD).
pub fn assert_in_history(commits: &[String], doc: &str) {
    let history = git(&["rev-list", "HEAD"]);
    let missing: Vec<&String> = commits
        .iter()
        .filter(|c| !history.lines().any(|h| h.starts_with(c.as_str())))
        .collect();
    assert!(
        missing.is_empty(),
        "{doc} cites commits not in HEAD's history: {missing:?}"
    );
}

#[test]
fn every_cited_commit_is_in_the_history() {
    let text = super::read(DOC);
    let commits = cited(&text);
    // The file cites about a hundred: a reader that finds none fails.
    assert!(commits.len() >= 50, "only {} commits found", commits.len());
    assert_in_history(&commits, DOC);
}

/// The current-figures table's rows: (figure, commit, the paths that must
/// be unchanged since it).
fn current_rows(text: &str) -> Vec<(String, String, Vec<String>)> {
    let start = text
        .find("## Current figures")
        .expect("a Current figures section");
    let mut lines = text[start..].lines().skip_while(|l| !l.starts_with('|'));
    let header: Vec<&str> = lines.next().unwrap().split('|').map(str::trim).collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{DOC}: the current figures have no {name:?} column"))
    };
    let (commit, holds) = (column("commit"), column("holds while unchanged"));
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let paths = cells[holds]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            (cells[1].to_string(), cells[commit].to_string(), paths)
        })
        .collect()
}

/// The paths of `paths` that changed from `commit` to the work tree, a
/// file moved whole (renamed to one of `paths`) not counted. The whole
/// tree is diffed: a rename is seen only with its old path too.
fn changed_since(commit: &str, paths: &[String]) -> Vec<String> {
    git(&["diff", "--name-status", "--find-renames=100%", commit])
        .lines()
        .filter(|l| !l.starts_with("R100"))
        .filter(|l| {
            l.split('\t')
                .next_back()
                .is_some_and(|p| paths.iter().any(|w| w == p))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn current_figures_hold_for_the_engine_as_it_is() {
    let text = super::read(DOC);
    let rows = current_rows(&text);
    assert!(
        rows.len() >= 10,
        "{DOC}: only {} current figures",
        rows.len()
    );
    let mut stale = Vec::new();
    for (figure, commit, paths) in &rows {
        if paths.is_empty() {
            continue;
        }
        let commits = cited(commit);
        assert_eq!(
            commits.len(),
            1,
            "{DOC}: {figure:?}: one commit, not {commit:?}"
        );
        for path in paths {
            assert!(
                super::repo().join(path).exists(),
                "{DOC}: {figure:?}: no {path}"
            );
        }
        let changed = changed_since(&commits[0], paths);
        if !changed.is_empty() {
            stale.push(format!("{figure} (at {commit}): {}", changed.join(", ")));
        }
    }
    assert!(
        stale.is_empty(),
        "{DOC}'s current figures that no longer hold: measure them again, or move them to \
         their sections marked with their commit:\n{}",
        stale.join("\n")
    );
}

#[test]
fn commits_are_read_from_words_not_from_hashes_or_numbers() {
    assert_eq!(
        cited("at c5f3be9 (sha256 ba3fde78aa), 1234567 nodes, e8c0cfd's engine; deadbeef"),
        vec!["c5f3be9", "e8c0cfd"]
    );
}

/// The files that send readers to BENCHMARKS.md's sections: the sources of
/// both crates, the tests, the scripts and the documents.
fn citing_files() -> Vec<std::path::PathBuf> {
    let root = super::repo();
    let mut files = vec![root.join("README.md"), root.join("autotest/README.md")];
    let mut dirs: Vec<std::path::PathBuf> = [
        "src",
        "autotest/src",
        "tests",
        "autotest/tests",
        "docs",
        "scripts",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "rs" || e == "md" || e == "sh")
            {
                files.push(path);
            }
        }
    }
    files
}

/// The section titles `text` cites (the file's name, a comma and the
/// title in double quotes), each read across line breaks and comment
/// markers.
pub fn cited_sections(text: &str) -> Vec<String> {
    let joined: Vec<&str> = text
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches(['/', '!', '#', '*', '>'])
                .trim()
        })
        .collect();
    let joined = joined.join(" ");
    let mark = "BENCHMARKS.md, \"";
    joined
        .match_indices(mark)
        .filter_map(|(at, _)| {
            let rest = &joined[at + mark.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// Whether BENCHMARKS.md (its text `text`) has a heading of `title`. A
/// title may leave out the heading's closing parenthesis, which names
/// the script or option: "Mutation testing" for "Mutation testing
/// (`scripts/mutants.sh`)".
pub fn has_heading(text: &str, title: &str) -> bool {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .any(|t| t == title || t.strip_prefix(title).is_some_and(|r| r.starts_with(" (")))
}

/// A section a comment or a document names by its title exists under
/// that title (a folded or renamed section leaves no dangling pointer).
#[test]
fn every_section_cited_elsewhere_exists() {
    let text = super::read(DOC);
    let mut missing = Vec::new();
    let mut found = 0;
    for file in citing_files() {
        let body = std::fs::read_to_string(&file).unwrap();
        for title in cited_sections(&body) {
            found += 1;
            if !has_heading(&text, &title) {
                missing.push(format!("{}: \"{title}\"", file.display()));
            }
        }
    }
    // About twenty citations today: a reader that finds none fails.
    assert!(found >= 10, "only {found} section citations found");
    assert!(
        missing.is_empty(),
        "sections of {DOC} cited but not there:\n{}",
        missing.join("\n")
    );
}

#[test]
fn section_citations_are_read_across_lines_and_comments() {
    assert_eq!(
        cited_sections(
            "/// x (BENCHMARKS.md, \"Threads: the\n    /// limit\"); BENCHMARKS.md, \"A\""
        ),
        vec!["Threads: the limit", "A"]
    );
}
