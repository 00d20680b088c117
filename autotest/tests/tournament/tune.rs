//! `autotest tune` end to end: a short run on the real engine (the
//! trajectory, the `-out` and `-state` files, a resumed run), a fault
//! scored and shown, a tune against an opponent, and bad flags rejected
//! with errors that name them.

use crate::common::{
    fake::{assert_no_leftovers, fake, pid_dir},
    programs::{leiserchess, strings},
    scratch,
};
use autotest::tune::command::parse;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tune(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        // Not about the results database: none kept in the user's home.
        .env("AUTOTEST_DB", "none")
        .arg("tune")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run autotest tune")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The iteration lines of a run's output.
fn iterations(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("iteration "))
        .collect()
}

#[test]
fn a_short_tune_of_the_real_engine_and_its_resumption() {
    let dir = scratch::dir("tune/real_engine");
    let engine = format!("cmd={}", leiserchess().display());
    let book = format!(
        "file={}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("openings.txt")
            .display()
    );
    let run = |iterations: &str| {
        let out = tune(
            &[
                "-engine",
                &engine,
                "-each",
                "nodes=200",
                "option.Search=pvs",
                "-openings",
                &book,
                "-param",
                "name=lmr_r1",
                "start=5",
                "min=1",
                "max=100",
                "c=2",
                "-param",
                "name=aspiration",
                "start=25",
                "min=0",
                "max=1000",
                "c=10",
                "-iterations",
                iterations,
                "-concurrency",
                "1",
                "-out",
                "tuned.txt",
                "-state",
                "state.txt",
            ],
            &dir,
        );
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{stdout}{stderr}");
        (stdout, stderr)
    };
    let (stdout, stderr) = run("3");
    let lines = iterations(&stdout);
    assert_eq!(lines.len(), 3, "{stdout}");
    for (k, line) in lines.iter().enumerate() {
        // "iteration 2/3: +1 (1.5-0.5) lmr_r1=5 aspiration=26"
        let rest = line
            .strip_prefix(&format!("iteration {}/3: ", k + 1))
            .unwrap_or_else(|| panic!("{stdout}"));
        let words: Vec<&str> = rest.split_whitespace().collect();
        let r: i32 = words[0].parse().unwrap_or_else(|_| panic!("{line}"));
        assert!((-2..=2).contains(&r), "{line}");
        assert!(
            words[1].starts_with('(') && words[1].ends_with(')'),
            "{line}"
        );
        assert!(words[2].starts_with("lmr_r1="), "{line}");
        assert!(words[3].starts_with("aspiration="), "{line}");
        assert!(!line.contains("loses"), "no faults: {line}");
    }
    assert!(stderr.contains("tune: 3/3 pairs"), "{stderr}");
    // The result: the tuned values, whole numbers in range.
    let tuned = std::fs::read_to_string(dir.join("tuned.txt")).unwrap();
    let values: Vec<(&str, i64)> = tuned
        .lines()
        .map(|l| {
            let (k, v) = l.split_once(' ').unwrap();
            (k, v.parse().unwrap_or_else(|_| panic!("{tuned}")))
        })
        .collect();
    assert_eq!(values.len(), 2, "{tuned}");
    assert!(values[0].0 == "lmr_r1" && (1..=100).contains(&values[0].1));
    assert!(values[1].0 == "aspiration" && (0..=1000).contains(&values[1].1));
    assert!(
        stdout.ends_with(&format!("tuned after 3 pairs:\n{tuned}")),
        "{stdout}"
    );
    let state = std::fs::read_to_string(dir.join("state.txt")).unwrap();
    assert!(state.contains("\niteration 3\n"), "{state}");
    // A rerun with the state file goes on: only the fourth pair.
    let (stdout, _) = run("4");
    let lines = iterations(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(lines[0].starts_with("iteration 4/4: "), "{stdout}");
    let state = std::fs::read_to_string(dir.join("state.txt")).unwrap();
    assert!(state.contains("\niteration 4\n"), "{state}");
    // And one with nothing left plays nothing.
    let (stdout, _) = run("4");
    assert!(iterations(&stdout).is_empty(), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.join("state.txt")).unwrap(),
        state
    );
}

/// A side that crashes loses its game, as in tournaments, and the
/// trajectory says so; the run goes on.
#[test]
fn a_crash_is_a_loss_and_is_shown() {
    let dir = scratch::dir("tune/crash");
    let pids = pid_dir("tune_crash");
    let engine = format!("cmd={} crash {}", fake().display(), pids.display());
    let out = tune(
        &[
            "-engine",
            &engine,
            "-each",
            "tc=2+0",
            "-param",
            "name=Hash",
            "start=16",
            "min=1",
            "max=64",
            "c=4",
            "-iterations",
            "2",
            "-concurrency",
            "1",
        ],
        &dir,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    let lines = iterations(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    // Both sides crash at their first move: white loses each game, so
    // the pair is even.
    for line in lines {
        assert!(line.contains(": +0 (1-1)"), "{line}");
        assert!(line.contains("scripted.sh+ loses: crash"), "{line}");
        assert!(line.contains("scripted.sh- loses: crash"), "{line}");
    }
    assert_no_leftovers(&pids);
}

/// Against an opponent each side plays it twice, colours swapped: a
/// tuned engine that crashes at its first move loses all four games, the
/// opponent (the real engine) winning each, and the pair is even.
#[test]
fn against_an_opponent_each_side_plays_it_twice() {
    let dir = scratch::dir("tune/opponent");
    let pids = pid_dir("tune_opponent");
    let tuned = format!("cmd={} crash {}", fake().display(), pids.display());
    let opponent = format!("cmd={}", leiserchess().display());
    let out = tune(
        &[
            "-engine",
            &tuned,
            "-engine",
            &opponent,
            "-each",
            "tc=2+0",
            "-param",
            "name=Hash",
            "start=16",
            "min=1",
            "max=64",
            "c=4",
            "-iterations",
            "2",
            "-concurrency",
            "1",
        ],
        &dir,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    let lines = iterations(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    for line in lines {
        assert!(line.contains(": +0 (0-0) Hash="), "{line}");
        assert_eq!(
            line.matches("scripted.sh+ loses: crash").count(),
            2,
            "{line}"
        );
        assert_eq!(
            line.matches("scripted.sh- loses: crash").count(),
            2,
            "{line}"
        );
    }
    assert_no_leftovers(&pids);
}

/// An option the engine does not have stops the run before any game.
#[test]
fn an_unknown_option_is_an_error() {
    let dir = scratch::dir("tune/unknown_option");
    let engine = format!("cmd={} good", fake().display());
    let out = tune(
        &[
            "-engine",
            &engine,
            "-param",
            "name=lmr_r1",
            "start=5",
            "min=1",
            "max=100",
            "c=2",
        ],
        &dir,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            " has no option 'lmr_r1': its 'uci' answer does not list it (its options: Hash)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.starts_with("autotest: engine 'scripted.sh' ("),
        "{stderr}"
    );
    assert!(iterations(&text(&out.stdout)).is_empty());
}

/// The error of `autotest tune ARGS` (parsing only).
fn error(args: &str) -> String {
    let args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    parse(&args).expect_err("an error").to_string()
}

#[test]
fn bad_flags_give_clear_errors() {
    let param = "-param name=x start=5 min=0 max=10 c=1";
    let ok = format!("-engine cmd=e {param}");
    assert!(parse(&strings(&ok.split(' ').collect::<Vec<_>>())).is_ok());
    let cases = [
        (
            format!("{ok} -games 4"),
            "argument 9 '-games': is a tournament flag, not one of autotest tune's",
        ),
        (format!("{ok} -bogus"), "argument 9 '-bogus': unknown flag"),
        (
            param.to_string(),
            "takes one -engine (the engine to tune; both sides run it) \
             or two (the engine to tune, then its opponent), got 0",
        ),
        (
            format!("-engine cmd=a -engine cmd=b -engine cmd=c {param}"),
            "or two (the engine to tune, then its opponent), got 3",
        ),
        ("-engine cmd=e".to_string(), "needs at least one -param"),
        (
            "-engine cmd=e -param name=x start=5 min=0 max=10".to_string(),
            "argument 3 '-param': parameter 'x' needs c=",
        ),
        (
            "-engine cmd=e -param name=x start=5 min=10 max=0 c=1".to_string(),
            "parameter 'x': min (10) must be less than max (0)",
        ),
        (
            "-engine cmd=e -param name=x start=50 min=0 max=10 c=1".to_string(),
            "parameter 'x': start (50) is outside [0, 10]",
        ),
        (
            "-engine cmd=e -param name=x start=5 min=0 max=10 c=0".to_string(),
            "c and a must be positive",
        ),
        (
            "-engine cmd=e -param name=x start=five min=0 max=10 c=1".to_string(),
            "argument 5 'start=five': start must be a number, got 'five'",
        ),
        (
            "-engine cmd=e -param name=x start=5 min=0 max=10 c=1 r=2".to_string(),
            "argument 9 'r=2': unknown -param setting 'r' (known: name, start, min, max, c, a)",
        ),
        (
            "-engine cmd=e -param start=5 min=0 max=10 c=1".to_string(),
            "argument 3 '-param': needs name=NAME",
        ),
        (
            format!("{ok} {param}"),
            "argument 9 '-param': parameter 'x' is given twice",
        ),
        (
            format!("{ok} -iterations 0"),
            "argument 10 '0': -iterations must be at least 1",
        ),
        (
            format!("{ok} -iterations -5"),
            "argument 9 '-iterations': needs a value after it",
        ),
        (format!("{ok} -out"), "argument 9 '-out': needs a value"),
    ];
    // Odd arguments are errors too, never a panic.
    for odd in [&["-engine", "cmd=e", ""][..], &["-é"], &["-"], &["tune"]] {
        assert!(parse(&strings(odd)).is_err(), "{odd:?}");
    }
    for (args, want) in cases {
        let got = error(&args);
        assert!(got.contains(want), "{args}: got '{got}', want '{want}'");
    }
}

/// The tune's flags and the shared ones parse into the spec.
#[test]
fn flags_parse_into_the_spec() {
    let args = "-engine cmd=eng option.hash=8 -each nodes=100 -concurrency 3 -seed 9 \
                -param name=a start=1 min=0 max=4 c=0.5 a=2 -param name=b start=-3 min=-10 max=0 c=1 \
                -iterations 50 -out o.txt -state s.txt -nozap 80 -timemargin 0";
    let spec = parse(&strings(&args.split_whitespace().collect::<Vec<_>>())).unwrap();
    assert_eq!(spec.iterations, 50);
    assert_eq!(spec.out, Some(PathBuf::from("o.txt")));
    assert_eq!(spec.state, Some(PathBuf::from("s.txt")));
    assert_eq!(spec.games.concurrency, 3);
    assert_eq!(spec.games.seed, 9);
    assert_eq!(spec.games.no_zap_plies, 80);
    assert_eq!(spec.games.time_margin_ms, 0);
    assert_eq!(spec.games.engines[0].limits.nodes, Some(100));
    let p: Vec<_> = spec
        .params
        .iter()
        .map(|p| (&p.name[..], p.start, p.min, p.max, p.c, p.a))
        .collect();
    assert_eq!(
        p,
        [
            ("a", 1.0, 0.0, 4.0, 0.5, Some(2.0)),
            ("b", -3.0, -10.0, 0.0, 1.0, None)
        ]
    );
}

/// `tune --help` lists the command and each of its own flags with a
/// default.
#[test]
fn help_lists_the_tune_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(["tune", "--help"])
        .output()
        .expect("run autotest tune --help");
    let help = text(&out.stdout);
    assert!(help.contains("\n  autotest tune -engine "), "{help}");
    let tune = help
        .split("\nautotest tune:")
        .nth(1)
        .expect("a tune section");
    for flag in autotest::tune::command::TUNE_FLAGS {
        let entry = tune
            .split("\n  -")
            .map(|e| format!("-{e}"))
            .find(|e| e.starts_with(&format!("{flag} ")))
            .unwrap_or_else(|| panic!("{flag} is not in the help:\n{help}"));
        let entry = entry.split("\n\n").next().unwrap_or_default();
        assert!(entry.contains('['), "{flag} has no default:\n{entry}");
    }
    for flag in autotest::tune::command::SHARED_FLAGS {
        let shared = tune.contains(&format!("{flag},")) || tune.contains(&format!("{flag} "));
        assert!(shared || *flag == "-srand", "{flag} is not in the help");
    }
}
