//! The `autotest` program end to end, with the scripted fake engines: a
//! broken engine stops the run with an error and a non-zero exit; a course
//! config file runs as the course referee runs it (the PGN appended beside
//! it, paths taken from its directory, the course's no-zap limit); the
//! running score; the help, a page per subcommand, `--version`, the
//! subcommands' one-dash spellings and their refusals by name.

use crate::common::{
    fake::{assert_no_leftovers, fake, pid_dir},
    scratch,
};
use autotest::config::course_file::GLOBAL_KEYS;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn autotest(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        // Not about the results database: none kept in the user's home.
        .env("AUTOTEST_DB", "none")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty directory for one test.
fn work_dir(test: &str) -> PathBuf {
    scratch::dir(&format!("cli/{test}"))
}

#[test]
fn missing_engine_stops_the_run_with_an_error() {
    let dir = work_dir("missing_engine");
    let pids = pid_dir("cli_missing_engine");
    let good = format!("cmd={} good {}", fake().display(), pids.display());
    let out = autotest(
        &[
            "-engine",
            "cmd=./no-such-engine",
            "name=ghost",
            "-engine",
            &good,
            "-games",
            "4",
            "-pgnout",
            "games.pgn",
        ],
        &dir,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{stderr}");
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.starts_with("autotest: could not start engine 'ghost' (./no-such-engine): "),
        "{stderr}"
    );
    assert!(!stderr.contains("game 1/"), "{stderr}");
    assert_eq!(stdout, "", "no table");
    assert!(!dir.join("games.pgn").exists());
    assert_no_leftovers(&pids);
}

/// The first game of `pgn` with what varies from run to run (the date and
/// the move times) replaced by `…`.
fn first_game_without_times(pgn: &str) -> String {
    let game = pgn.split("\n\n[Event").next().unwrap_or_default();
    game.lines()
        .map(|l| {
            if l.starts_with("[Date ") {
                return "[Date \"…\"]".to_string();
            }
            // `{nanoseconds depth nodes}`: keep depth and nodes, and a 0.
            l.split('{')
                .enumerate()
                .map(|(i, part)| match (i, part.split_once(' ')) {
                    (i, Some((ns, rest))) if i > 0 && ns != "0" => format!("… {rest}"),
                    _ => part.to_string(),
                })
                .collect::<Vec<_>>()
                .join("{")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Games of a PGN text: (Round, White, Result).
fn games(pgn: &str) -> Vec<(String, String, String)> {
    let tag = |game: &str, name: &str| {
        game.lines()
            .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
            .and_then(|v| v.strip_suffix("\"]"))
            .unwrap_or("?")
            .to_string()
    };
    pgn.split("[Event ")
        .skip(1)
        .map(|g| (tag(g, "Round"), tag(g, "White"), tag(g, "Result")))
        .collect()
}

/// `autotest sub/lab.txt` from another directory: the engines and the
/// book are found beside the config, `sub/lab.pgn` gets the games in the
/// course layout, a second run appends numbered on, each engine that
/// lists `no_zap_plies` gets the course's 200, and the running score is
/// printed after each game.
#[test]
fn course_config_runs_as_the_course_referee() {
    let dir = work_dir("course_config");
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(fake(), sub.join("fake.sh")).unwrap();
    // The fakes' own cycle, so that they go on from it: 2 and 4 plies.
    std::fs::write(sub.join("book.txt"), "d1c1 e6f6\nd1c1 e6f6 c1d1 f6e6\n").unwrap();
    let pids = pid_dir("cli_course_config");
    let log = dir.join("a.log");
    let config = format!(
        "# two fakes\ncpus = 1\nbook = book.txt\ngame_rounds = 5\n\n\
         player = a\ninvoke = ./fake.sh nozap-option {pids} {log}\nfis = 2 0.1\n\n\
         player = b\ninvoke = ./fake.sh good {pids}\nfis = 2 0.1\n",
        pids = pids.display(),
        log = log.display()
    );
    std::fs::write(sub.join("lab.txt"), config).unwrap();

    let out = autotest(&["sub/lab.txt"], &dir);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{stderr}{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let pgn = std::fs::read_to_string(sub.join("lab.pgn")).expect("sub/lab.pgn is written");
    let expected: Vec<(String, String, String)> = (0..5)
        .map(|i| {
            let white = if i % 2 == 0 { "a" } else { "b" };
            (i.to_string(), white.to_string(), "1/2-1/2".to_string())
        })
        .collect();
    assert_eq!(games(&pgn), expected, "{pgn}");
    assert_eq!(
        first_game_without_times(&pgn),
        "\
[Event \"Autotest\"]
[Site \"Local\"]
[Date \"…\"]
[Round \"0\"]
[White \"a\"]
[Black \"b\"]
[Result \"1/2-1/2\"]

1. d1c1 {0 0 0} e6f6 {0 0 0} 2. c1d1 {… 1 1} f6e6 {… 1 1} 3. d1c1 {… 1 1} e6f6 {… 1 1} 4. c1d1 {… 1 1} f6e6 {… 1 1} 1/2-1/2"
    );
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("setoption"))
        .map(String::from)
        .collect();
    assert!(
        !sent.is_empty()
            && sent
                .iter()
                .all(|l| l == "setoption name no_zap_plies value 200"),
        "{sent:?}"
    );
    // The running score, with the time left in a 5-game run.
    assert!(
        stderr.contains("Score of a vs b: 0 - 0 - 1  [0.500] 1\n")
            && stderr.contains("Score of a vs b: 0 - 0 - 5  [0.500] 5\n"),
        "{stderr}"
    );
    assert!(
        stderr.starts_with("game 1/5: a vs b: 1/2-1/2 (draw by repetition), about "),
        "{stderr}"
    );
    assert!(stdout.starts_with("Autotest\n"), "{stdout}");

    // Again: appended, numbered on, and the openings go on after the
    // pairs already played (3, the last one half played).
    let out = autotest(&["sub/lab.txt"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let pgn = std::fs::read_to_string(sub.join("lab.pgn")).unwrap();
    let rounds: Vec<String> = games(&pgn).into_iter().map(|g| g.0).collect();
    assert_eq!(rounds, (0..10).map(|i| i.to_string()).collect::<Vec<_>>());
    let book_plies: Vec<usize> = pgn
        .split("[Event ")
        .skip(1)
        .map(|g| g.matches("{0 0 0}").count())
        .collect();
    assert_eq!(book_plies, [2, 2, 4, 4, 2, 4, 4, 2, 2, 4]);
    assert_no_leftovers(&pids);
}

/// Bad config files name the file and the line; nothing is played.
#[test]
fn course_config_errors_name_the_file() {
    let dir = work_dir("course_errors");
    std::fs::write(dir.join("lab.txt"), "cpus = 2\nplayer = a\n").unwrap();
    let out = autotest(&["lab.txt"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "autotest: lab.txt: line 2: player 'a' has no 'invoke' line\n"
    );
    assert!(!dir.join("lab.pgn").exists());
}

/// Every subcommand's `--help` (or `-h`) prints its own page, not the
/// tournament's, with exit status 0; after `--` the words are the
/// engine's, not a request for help.
#[test]
fn every_subcommand_answers_help() {
    for sub in [
        "stats",
        "openings",
        "runs",
        "show",
        "tune",
        "datagen",
        "slurm",
        "bench-record",
        "report",
        "import",
        "serve",
    ] {
        for flag in ["--help", "-h"] {
            let out = autotest(&[sub, flag], Path::new("."));
            assert_eq!(
                out.status.code(),
                Some(0),
                "{sub} {flag}: {}",
                text(&out.stderr)
            );
            let page = text(&out.stdout);
            assert!(
                page.contains(&format!("autotest {sub}")),
                "{sub} {flag}: {page}"
            );
            assert!(
                !page.contains("Course config files"),
                "{sub} {flag}: {page}"
            );
        }
    }
    let out = autotest(
        &["-games", "2", "-engine", "cmd=x", "--help"],
        Path::new("."),
    );
    assert_eq!(out.status.code(), Some(0));
    let out = autotest(
        &["datagen", "-slurm", "dir=x", "--", "x", "--help"],
        Path::new("."),
    );
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

/// `--help` lists every flag the parser knows, each with its default in
/// brackets.
#[test]
fn help_lists_every_flag_with_its_default() {
    let out = autotest(&["--help"], Path::new("."));
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    let flags_part = help
        .split("\nFlags")
        .nth(1)
        .and_then(|f| f.split("\nCourse config files").next())
        .expect("a Flags section before the config files");
    for flag in autotest::config::flags::FLAGS {
        // An entry runs from its line to the next flag's.
        let entry = flags_part
            .split("\n  -")
            .map(|e| format!("-{e}"))
            .find(|e| e.starts_with(&format!("{flag} ")) || e.contains(&format!("alias {flag})")));
        let entry = entry.unwrap_or_else(|| panic!("{flag} is not in the help:\n{help}"));
        assert!(
            entry.contains('[') && entry.trim_end().ends_with(']'),
            "{flag} has no default:\n{entry}"
        );
    }
    let player_keys = ["player", "invoke", "fis", "tc", "depth", "family"];
    for key in GLOBAL_KEYS.iter().chain(&player_keys) {
        assert!(help.contains(&format!("  {key} = ")), "{key}:\n{help}");
    }
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
    let mut names: Vec<String> = autotest::subcommands::summaries()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
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
    let dir = work_dir("one_dash");
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
