//! Every code block of the manuals, run or checked, so that an example
//! that no longer works fails the tests (docs/TESTING.md, "Examples").
//!
//! Documents: README.md, docs/*.md (not docs/spec/, the course's) and
//! autotest/README.md. A block's info string says what it is:
//! `sh` runs for real (bash -e, `leiserchess` and `autotest` of this build
//! on PATH, in a scratch directory that shows the repository's top-level
//! entries; a document's blocks run in order in one directory);
//! `sh no-run` is checked without running (programs, make targets,
//! scripts, subcommands and flags exist); `uci` is a session fed to the
//! engine; `lauto` a course-referee config that autotest's parser must
//! accept; `text`, `json`, `console` and `rust` are shown, not run. Any
//! other block, or one without an info string, fails: a reader cannot
//! tell a command from its output there.

mod blocks;
mod run;
mod static_check;

use crate::common::needs;
use blocks::{Block, Kind};
use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};

/// The trials: a document each, named by its path from the repository
/// root, and the harness's own two.
pub fn trials() -> Vec<Trial> {
    let repo = repo();
    // Made once: trials that remade the links could pull them from under
    // a block running beside them.
    let bins = run::Binaries::of_this_build();
    let mut trials: Vec<Trial> = documents(&repo)
        .into_iter()
        .map(|doc| {
            let name = doc
                .strip_prefix(&repo)
                .unwrap_or(&doc)
                .display()
                .to_string();
            let needs = needs_of(&std::fs::read_to_string(&doc).unwrap_or_default());
            let test = format!("doc_examples::{name}");
            let (repo, bins) = (repo.clone(), bins.clone());
            let check = move || check_document(&repo, &bins?, &doc, &name);
            if needs.is_empty() {
                return Trial::test(test, check);
            }
            needs::trial(&test, needs, move |_| {
                if let Err(e) = check() {
                    panic!("{}", e.message().unwrap_or("failed"));
                }
            })
        })
        .collect();
    trials.push(Trial::test(
        "doc_examples::harness: blocks and their kinds",
        || {
            blocks::self_test();
            Ok(())
        },
    ));
    trials.push(Trial::test(
        "doc_examples::harness: a broken example fails",
        {
            let repo = repo.clone();
            move || broken_examples_fail(&repo, &bins?)
        },
    ));
    trials
}

/// The repository's top directory (autotest's parent).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("autotest sits in the repository")
        .to_path_buf()
}

/// What a document's runnable blocks need beyond bash and this build:
/// curl, for the GUI's JSON API. Without it the document is reported
/// ignored with what it needs (`LEISERCHESS_REQUIRE_ALL=1`: failed).
fn needs_of(doc: &str) -> &'static [needs::Need] {
    const CURL: &[needs::Need] = &[needs::CURL];
    let calls_curl = blocks::parse(doc).is_ok_and(|blocks| {
        blocks.iter().any(|b| {
            b.kind == Kind::Sh
                && b.text
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                    .any(|word| word == "curl")
        })
    });
    if calls_curl {
        CURL
    } else {
        &[]
    }
}

/// The documents whose blocks are examples.
fn documents(repo: &Path) -> Vec<PathBuf> {
    let mut docs = vec![repo.join("README.md"), repo.join("autotest/README.md")];
    let mut manuals: Vec<PathBuf> = std::fs::read_dir(repo.join("docs"))
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    manuals.sort();
    docs.extend(manuals);
    docs.retain(|d| d.exists());
    docs
}

/// Runs or checks each block of one document, in order; the first that
/// fails ends it, named by its line.
fn check_document(repo: &Path, bins: &run::Binaries, doc: &Path, name: &str) -> Result<(), Failed> {
    let text = std::fs::read_to_string(doc).map_err(|e| format!("{name}: {e}"))?;
    let blocks = blocks::parse(&text).map_err(|e| format!("{name}: {e}"))?;
    let scratch = run::scratch(repo, name)?;
    let (mut ran, mut checked) = (0, 0);
    for block in &blocks {
        let at = |e: String| Failed::from(format!("{name}:{}: {e}", block.line));
        match block.kind {
            Kind::Sh => {
                run::shell(bins, &scratch, block).map_err(at)?;
                ran += 1;
            }
            Kind::ShNoRun => {
                static_check::commands(repo, bins, block).map_err(at)?;
                checked += 1;
            }
            Kind::Uci => {
                run::uci(bins, &scratch, block).map_err(at)?;
                ran += 1;
            }
            Kind::Lauto => {
                lauto(block).map_err(at)?;
                checked += 1;
            }
            Kind::Shown => {}
        }
    }
    eprintln!("{name}: {ran} blocks run, {checked} checked without running");
    Ok(())
}

/// Each kind of block, broken, is caught: a failing command, a refused
/// UCI line, an unknown flag, make target or script, a bad config.
fn broken_examples_fail(repo: &Path, bins: &run::Binaries) -> Result<(), Failed> {
    let scratch = run::scratch(repo, "harness-self-test")?;
    let block = |kind, text: &str| Block {
        kind,
        line: 1,
        text: text.to_string(),
    };
    let good_and_bad = [
        (
            Kind::Sh,
            "leiserchess perft 2\n",
            "leiserchess perft 2 --no-such-flag\n",
        ),
        (
            Kind::Uci,
            "position startpos\ngo depth 2\n",
            "position startpos\ngo depth x\n",
        ),
        (Kind::ShNoRun, "make perft\n", "make no-such-target\n"),
        (
            Kind::ShNoRun,
            "leiserchess bench --hash 4\n",
            "leiserchess bench --hashh 4\n",
        ),
        (
            Kind::ShNoRun,
            "autotest -games 2 -pgnout x.pgn\n",
            "autotest -gamez 2\n",
        ),
        (
            Kind::ShNoRun,
            "autotest runs --db lab.db\n",
            "autotest runs -games 2\n",
        ),
        (
            Kind::ShNoRun,
            "autotest slurm watch r\n",
            "autotest slurm wach r\n",
        ),
        (
            Kind::ShNoRun,
            "autotest datagen -slurm dir=r -- leiserchess datagen d.bin --positions 9\n",
            "autotest datagen -slurm dir=r -- leiserchess datagen d.bin --positionz 9\n",
        ),
        (
            Kind::ShNoRun,
            "scripts/soak.sh 10\n",
            "scripts/no-such.sh\n",
        ),
        (
            Kind::ShNoRun,
            "cargo install --path autotest\n",
            "cargo install --path nowhere\n",
        ),
        (Kind::Lauto, LAUTO, "player = only\ninvoke = leiserchess\n"),
    ];
    for (kind, good, bad) in good_and_bad {
        let check = |b: &Block| match kind {
            Kind::Sh => run::shell(bins, &scratch, b),
            Kind::Uci => run::uci(bins, &scratch, b),
            Kind::ShNoRun => static_check::commands(repo, bins, b),
            Kind::Lauto => lauto(b),
            Kind::Shown => Ok(()),
        };
        check(&block(kind, good)).map_err(|e| format!("{good:?} should pass: {e}"))?;
        if check(&block(kind, bad)).is_ok() {
            return Err(format!("{bad:?} should fail").into());
        }
    }
    Ok(())
}

const LAUTO: &str = "cpus = 1\ngame_rounds = 2\nplayer = a\ninvoke = leiserchess\nfis = 10 0.1\nplayer = b\ninvoke = leiserchess\nfis = 10 0.1\n";

/// A course config must parse and make a valid tournament.
fn lauto(block: &Block) -> Result<(), String> {
    let spec = autotest::config::course_file::parse_course_config(&block.text)
        .map_err(|e| format!("the course config is refused: {e}"))?;
    autotest::config::validate(&spec).map_err(|e| format!("the course config is refused: {e}"))
}
