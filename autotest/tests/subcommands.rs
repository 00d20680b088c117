//! The subcommands' command lines as a user meets them: each `--help` a
//! page of its own, `--version`, the one-dash spellings of scripts and
//! older documents, and a bad argument refused by name with exit status 2.

mod common;

use autotest::subcommands::summaries;
use common::fresh_dir;
use std::path::Path;
use std::process::{Command, Output};

fn autotest(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        .env_remove("AUTOTEST_DB")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The standard output of a run that must succeed.
fn ok(args: &[&str], cwd: &Path) -> String {
    let out = autotest(args, cwd);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The standard error of a run that must be refused with exit status 2.
fn refused(args: &[&str]) -> String {
    let out = autotest(args, Path::new("."));
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        text(&out.stdout)
    );
    text(&out.stderr)
}

/// `autotest --help` lists every subcommand, a line each, and points to
/// its page; each page is its own and `help SUB` is the same page.
#[test]
fn each_subcommand_has_a_page_of_its_own() {
    let here = Path::new(".");
    let global = ok(&["--help"], here);
    assert!(global.contains("autotest SUBCOMMAND --help"), "{global}");
    let mut names: Vec<String> = summaries().into_iter().map(|(n, _)| n).collect();
    names.extend(["tune".to_string(), "datagen".to_string()]);
    let mut pages = vec![global.clone()];
    for name in &names {
        let listed = global
            .lines()
            .any(|l| l.split_whitespace().next() == Some(name.as_str()));
        assert!(listed, "{name} is not listed:\n{global}");
        let page = ok(&[name, "--help"], here);
        assert!(
            !pages.contains(&page),
            "{name}'s page is another's:\n{page}"
        );
        assert_eq!(ok(&["help", name], here), page);
        pages.push(page);
    }
    let runs = ok(&["runs", "--help"], here);
    assert!(
        runs.contains("--db <PATH>") && !runs.contains(" -db"),
        "{runs}"
    );
}

#[test]
fn version() {
    let want = format!("autotest {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(ok(&["--version"], Path::new(".")), want);
    assert_eq!(ok(&["-V"], Path::new(".")), want);
}

/// `-db PATH`, `-rounds N`, `-engine PATH`, `-port N` as scripts spell
/// them; `--db` as the pages do.
#[test]
fn one_dash_spellings_are_taken() {
    let dir = fresh_dir("subcommands", "one_dash");
    std::fs::write(
        dir.join("t.pgn"),
        "[Event \"e\"]\n[Round \"1.1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. a 1-0\n\n",
    )
    .unwrap();
    assert_eq!(
        ok(&["import", "-db", "x.db", "t.pgn"], &dir),
        "t.pgn: run 1, 1 games\n"
    );
    let listed = ok(&["runs", "-db", "x.db"], &dir);
    assert_eq!(listed, ok(&["runs", "--db", "x.db"], &dir));
    assert!(listed.contains("tournament finished  a vs b"), "{listed}");
    assert!(ok(&["show", "1", "-db=x.db"], &dir).contains("a "));
    assert!(ok(&["report", "-db", "x.db"], &dir).contains("## SPRT runs"));
    let out = autotest(
        &["bench-record", "-engine", "nowhere", "-rounds", "1"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no engine at nowhere"),
        "{out:?}"
    );
    assert!(refused(&["serve", "-port", "70000"]).contains("'70000' for '--port <N>'"));
}

/// A bad argument is named, with exit status 2 and nothing run.
#[test]
fn bad_arguments_are_refused_by_name() {
    assert!(refused(&["runs", "-games", "2"]).contains("unexpected argument '-games'"));
    assert!(refused(&["runs", "--games", "2"]).contains("unexpected argument '--games'"));
    assert!(refused(&["show", "x"]).contains("invalid value 'x' for '<RUN>'"));
    assert!(refused(&["openings", "ten"]).contains("invalid value 'ten' for '[N]'"));
    assert!(refused(&["bench-record", "-rounds", "0"]).contains("'0' for '--rounds <N>'"));
    assert!(refused(&["stats", "--wdl", "1", "2"]).contains("'--wdl <W> <D> <L>'"));
    assert!(refused(&["slurm", "frob", "x"]).contains("'frob'"));
    assert!(refused(&["import"]).contains("<PGN>"));
}
