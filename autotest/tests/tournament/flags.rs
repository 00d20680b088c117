//! The cutechess-style flags (`autotest::config::flags`): every flag,
//! the defaults, `-each`, engine names, errors that name the argument,
//! and the checks both configuration forms share.

use crate::common::{
    programs::strings,
    spec::{fischer_clock, options},
};
use autotest::config::flags::parse_flags;
use autotest::config::spec::{
    Clock, DrawRule, EngineLimits, EngineSpec, OpeningsSpec, ResignRule, Schedule, SprtSpec,
    TournamentSpec,
};
use autotest::config::{split_command, validate, ConfigError};
use std::path::PathBuf;

/// The flags of a command line, split as `cmd=` values are.
fn flags(line: &str) -> Result<TournamentSpec, ConfigError> {
    parse_flags(&split_command(line).unwrap_or_default())
}

/// The argument index of a flags error (panics on other errors).
fn arg_of(line: &str) -> (usize, String, String) {
    match flags(line) {
        Err(ConfigError::Arg {
            index,
            arg,
            message,
        }) => (index, arg, message),
        other => panic!("expected an argument error, got {other:?}"),
    }
}

#[test]
fn full_flags() {
    let args = strings(&[
        "-engine",
        "cmd=./leiserchess --uci",
        "name=new",
        "option.hash=64",
        "tc=60+0.6",
        "-engine",
        "cmd=/opt/old/leiserchess",
        "dir=/opt/old",
        "tc=40/60",
        "st=0.5",
        "depth=12",
        "nodes=1000000",
        "proto=uci",
        "-concurrency",
        "3",
        "-games",
        "4",
        "-rounds",
        "10",
        "-tournament",
        "gauntlet",
        "-openings",
        "file=book.txt",
        "order=random",
        "plies=6",
        "format=epd",
        "-repeat",
        "-pgnout",
        "out.pgn",
        "-resume",
        "-sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.05",
        "beta=0.1",
        "-maxmoves",
        "150",
        "-recover",
        "-event",
        "Lab test",
        "-seed",
        "42",
        "-nozap",
        "150",
        "-timemargin",
        "0",
        "-draw",
        "movenumber=40",
        "movecount=8",
        "score=10",
        "-resign",
        "score=400",
        "movecount=3",
    ]);
    let expected = TournamentSpec {
        title: "Lab test".to_string(),
        engines: vec![
            EngineSpec {
                name: "new".to_string(),
                command: strings(&["./leiserchess", "--uci"]),
                dir: None,
                options: options(&[("hash", "64")]),
                limits: EngineLimits {
                    clock: fischer_clock(60_000, 600),
                    ..EngineLimits::default()
                },
                restart: true,
            },
            EngineSpec {
                name: "leiserchess".to_string(),
                command: strings(&["/opt/old/leiserchess"]),
                dir: Some(PathBuf::from("/opt/old")),
                options: Vec::new(),
                limits: EngineLimits {
                    clock: Some(Clock::Period {
                        moves: 40,
                        period_ms: 60_000,
                    }),
                    movetime_ms: Some(500),
                    depth: Some(12),
                    nodes: Some(1_000_000),
                },
                restart: true,
            },
        ],
        schedule: Schedule::Gauntlet,
        games: 4,
        rounds: 10,
        concurrency: 3,
        openings: OpeningsSpec {
            file: Some(PathBuf::from("book.txt")),
            random: true,
            plies: Some(6),
        },
        repeat: true,
        pgn_out: Some(PathBuf::from("out.pgn")),
        resume: true,
        sprt: Some(SprtSpec {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
        }),
        max_plies: 300,
        no_zap_plies: 150,
        time_margin_ms: 0,
        draw: Some(DrawRule {
            move_number: 40,
            move_count: 8,
            score_cp: 10,
        }),
        resign: Some(ResignRule {
            move_count: 3,
            score_cp: 400,
            two_sided: false,
        }),
        recover: true,
        seed: 42,
        ..TournamentSpec::default()
    };
    assert_eq!(parse_flags(&args).unwrap(), expected);
}

#[test]
fn flags_defaults() {
    let spec = flags("-engine cmd=a -engine cmd=b").unwrap();
    let d = TournamentSpec::default();
    assert_eq!(spec.engines.len(), 2);
    assert_eq!(
        TournamentSpec {
            engines: Vec::new(),
            ..spec.clone()
        },
        d
    );
    assert_eq!(spec.engines[0].limits, EngineLimits::default());
    // -title, -srand, -norepeat, -repeat 2; a later flag wins.
    let spec =
        flags("-engine cmd=a -engine cmd=b -title T -srand 7 -norepeat -games 3 -games 5").unwrap();
    assert_eq!(
        (spec.title.as_str(), spec.seed, spec.repeat, spec.games),
        ("T", 7, false, 5)
    );
    let spec = flags("-norepeat -repeat 2 -engine cmd=a -engine cmd=b -maxmoves 0").unwrap();
    assert!(spec.repeat);
    assert_eq!(spec.max_plies, 0);
    let spec = flags("-engine cmd=a -engine cmd=b -openings file=o.txt").unwrap();
    assert_eq!(
        spec.openings,
        OpeningsSpec {
            file: Some(PathBuf::from("o.txt")),
            random: false,
            plies: None
        }
    );
    let spec = flags("-engine cmd=a -engine cmd=b -sprt elo0=-1.5 elo1=2.5").unwrap();
    assert_eq!(
        spec.sprt,
        Some(SprtSpec {
            elo0: -1.5,
            elo1: 2.5,
            alpha: 0.05,
            beta: 0.05
        })
    );
}

#[test]
fn each_precedence() {
    let spec = flags(
        "-each tc=10+0.1 depth=6 option.hash=32 option.threads=2 dir=/tmp \
         -engine cmd=a option.HASH=64 -engine cmd=b tc=inf nodes=5000 \
         -engine cmd=c tc=40/20 depth=9 dir=/c -each st=0.25 depth=7",
    )
    .unwrap();
    let [a, b, c] = &spec.engines[..] else {
        panic!()
    };
    // A's own option replaces -each's of that name (UCI names are
    // case-insensitive); -each's others come first.
    assert_eq!(a.options, options(&[("threads", "2"), ("HASH", "64")]));
    assert_eq!(
        a.limits,
        EngineLimits {
            clock: fischer_clock(10_000, 100),
            movetime_ms: Some(250),
            depth: Some(7),
            nodes: None,
        }
    );
    assert_eq!(a.dir, Some(PathBuf::from("/tmp")));
    // tc=inf removes -each's clock.
    assert_eq!(b.options, options(&[("hash", "32"), ("threads", "2")]));
    assert_eq!(
        b.limits,
        EngineLimits {
            clock: None,
            movetime_ms: Some(250),
            depth: Some(7),
            nodes: Some(5000),
        }
    );
    assert_eq!(
        c.limits,
        EngineLimits {
            clock: Some(Clock::Period {
                moves: 40,
                period_ms: 20_000
            }),
            movetime_ms: Some(250),
            depth: Some(9),
            nodes: None,
        }
    );
    assert_eq!(c.dir, Some(PathBuf::from("/c")));
    // -each can supply the command too.
    let spec = flags("-each cmd=./eng -engine name=x -engine name=y depth=3").unwrap();
    assert_eq!(spec.engines[1].command, strings(&["./eng"]));
}

#[test]
fn engine_names() {
    let spec = flags(
        "-engine cmd=/bin/eng -engine cmd=\"./eng --x\" -engine cmd=eng name=eng-2 -engine cmd=other/eng -engine cmd=x name=solo",
    )
    .unwrap();
    let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
    // "eng-2" is taken by a given name, so the copies skip it.
    assert_eq!(names, ["eng", "eng-3", "eng-2", "eng-4", "solo"]);
    let spec = flags("-engine cmd=a -engine cmd=a -engine cmd=a").unwrap();
    let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["a", "a-2", "a-3"]);
}

/// cmd= passed by the shell as one argument with spaces.
#[test]
fn cmd_with_spaces() {
    let spec = parse_flags(&strings(&[
        "-engine",
        "cmd=\"/opt/my engine/run\" --fast",
        "-engine",
        "cmd=b",
    ]))
    .unwrap();
    assert_eq!(
        spec.engines[0].command,
        strings(&["/opt/my engine/run", "--fast"])
    );
    assert_eq!(spec.engines[0].name, "run");
    let (index, _, msg) = arg_of("-engine cmd= -engine cmd=b");
    assert_eq!(index, 2);
    assert!(msg.contains("empty"), "{msg}");
}

/// A bad time control names its argument.
#[test]
fn tc_errors_name_the_argument() {
    let (index, arg, msg) = arg_of("-engine cmd=a tc=60+x -engine cmd=b");
    assert_eq!((index, arg.as_str()), (3, "tc=60+x"));
    assert!(msg.contains("bad time control"), "{msg}");
}

/// `-resume` reads the `-pgnout` file: without one it is an error, with
/// one, wherever the flags are, it is not.
#[test]
fn resume_needs_pgnout() {
    let (index, arg, message) = arg_of("-engine cmd=a -resume -engine cmd=b");
    assert_eq!((index, arg.as_str()), (3, "-resume"));
    assert!(message.contains("needs -pgnout FILE"), "{message}");
    assert!(flags("-engine cmd=a -engine cmd=b -pgnout g.pgn").is_ok_and(|s| !s.resume));
    let spec = flags("-resume -engine cmd=a -engine cmd=b -pgnout g.pgn").unwrap();
    assert!(spec.resume && spec.pgn_out == Some(PathBuf::from("g.pgn")));
}

#[test]
fn flag_errors_name_the_argument() {
    let two = "-engine cmd=a -engine cmd=b";
    let cases: &[(String, usize, &str, &str)] = &[
        (format!("{two} -bogus 3"), 5, "-bogus", "unknown flag"),
        (
            format!("-engine cmd=a ponder=on {two}"),
            3,
            "ponder=on",
            "unknown engine setting 'ponder'",
        ),
        (
            format!("-each bogus=1 {two}"),
            2,
            "bogus=1",
            "unknown engine setting",
        ),
        (
            format!("-engine cmd=a depth {two}"),
            3,
            "depth",
            "expected key=value",
        ),
        (
            format!("-engine cmd=a depth=1 depth=2 {two}"),
            4,
            "depth=2",
            "given twice",
        ),
        (format!("-engine {two}"), 1, "-engine", "needs key=value"),
        (format!("-engine name=x {two}"), 1, "-engine", "no cmd="),
        (
            format!("{two} -draw movenumber=40"),
            5,
            "-draw",
            "needs movenumber=N movecount=M score=S",
        ),
        (
            format!("{two} -draw movenumber=40 movecount=x score=1"),
            7,
            "movecount=x",
            "movecount must be a whole number",
        ),
        (format!("{two} -draw"), 5, "-draw", "needs key=value"),
        (
            format!("{two} -resign movecount=3 score=4 twosided=1"),
            8,
            "twosided=1",
            "true or false",
        ),
        (
            format!("{two} -resign movecount=0 score=4"),
            6,
            "movecount=0",
            "at least 1",
        ),
        (
            format!("{two} -resign movecount=3 score=4 movecount=4"),
            8,
            "movecount=4",
            "given twice",
        ),
        (format!("{two} -nozap x"), 6, "x", "whole number"),
        (format!("{two} -nozap"), 5, "-nozap", "needs a value"),
        (
            format!("{two} -timemargin -5"),
            5,
            "-timemargin",
            "needs a value",
        ),
        (format!("{two} -timemargin 0.5"), 6, "0.5", "whole number"),
        (
            format!("{two} -games 2 stray"),
            7,
            "stray",
            "unexpected argument",
        ),
        (format!("stray {two}"), 1, "stray", "unexpected argument"),
        (format!("{two} -games"), 5, "-games", "needs a value"),
        (
            format!("{two} -games -rounds 2"),
            5,
            "-games",
            "needs a value",
        ),
        (format!("{two} -games x"), 6, "x", "must be a whole number"),
        (format!("{two} -games 0"), 6, "0", "at least 1"),
        (format!("{two} -concurrency 0"), 6, "0", "at least 1"),
        (format!("{two} -rounds 0"), 6, "0", "at least 1"),
        (
            format!("{two} -maxmoves -1"),
            5,
            "-maxmoves",
            "needs a value",
        ),
        (
            format!("{two} -maxmoves 3000000000"),
            6,
            "3000000000",
            "too many moves",
        ),
        (
            format!("{two} -tournament knockout"),
            6,
            "knockout",
            "round-robin or gauntlet",
        ),
        (format!("{two} -repeat 3"), 6, "3", "twice"),
        (
            format!("{two} -openings order=random"),
            5,
            "-openings",
            "needs file=",
        ),
        (
            format!("{two} -openings file=o order=shuffled"),
            7,
            "order=shuffled",
            "sequential or random",
        ),
        (
            format!("{two} -openings file=o plies=0"),
            7,
            "plies=0",
            "at least 1",
        ),
        (
            format!("{two} -openings file=o start=3"),
            7,
            "start=3",
            "unknown openings setting",
        ),
        (
            format!("{two} -sprt elo0=0 elo1=5 gamma=1"),
            8,
            "gamma=1",
            "unknown SPRT setting",
        ),
        (
            format!("{two} -sprt elo0=0 elo1=x"),
            7,
            "elo1=x",
            "must be a number",
        ),
        (
            format!("{two} -sprt elo0=0"),
            5,
            "-sprt",
            "needs elo0= and elo1=",
        ),
        (
            format!("-engine cmd=a proto=xboard {two}"),
            3,
            "proto=xboard",
            "only proto=uci",
        ),
        (format!("-engine cmd=a st=0 {two}"), 3, "st=0", "at least"),
        (
            format!("-engine cmd=a option.=1 {two}"),
            3,
            "option.=1",
            "needs a name",
        ),
        (
            format!("-engine cmd=a nodes=-5 {two}"),
            3,
            "nodes=-5",
            "whole number",
        ),
    ];
    for (line, want_index, want_arg, want) in cases {
        let (index, arg, msg) = arg_of(line);
        assert_eq!(
            (index, arg.as_str()),
            (*want_index, *want_arg),
            "{line}: {msg}"
        );
        assert!(msg.contains(want), "{line}: {msg}");
    }
    let e = flags(&format!("{two} -bogus")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("argument 5 '-bogus': unknown flag (known: -engine -each"),
        "{e}"
    );
}

#[test]
fn shared_validation() {
    let invalid = |line: &str| match flags(line) {
        Err(ConfigError::Invalid(m)) => m,
        other => panic!("{line}: {other:?}"),
    };
    assert!(invalid("").contains("at least two engines, got 0"));
    assert!(invalid("-engine cmd=a -games 2").contains("at least two engines, got 1"));
    let two = "-engine cmd=a -engine cmd=b";
    for (sprt, want) in [
        ("elo0=0 elo1=5 alpha=0", "alpha"),
        ("elo0=0 elo1=5 alpha=1", "alpha"),
        ("elo0=0 elo1=5 beta=1.5", "beta"),
        ("elo0=0 elo1=5 beta=-0.1", "beta"),
        ("elo0=5 elo1=5", "elo0"),
        ("elo0=5 elo1=0", "elo0"),
    ] {
        let m = invalid(&format!("{two} -sprt {sprt}"));
        assert!(m.contains(want), "{sprt}: {m}");
    }
    // validate itself, on specs neither parser would make.
    let mut spec = flags(two).unwrap();
    assert_eq!(validate(&spec), Ok(()));
    spec.concurrency = 0;
    assert!(validate(&spec)
        .unwrap_err()
        .to_string()
        .contains("concurrency"));
    spec.concurrency = 1;
    spec.games = 0;
    assert!(validate(&spec).unwrap_err().to_string().contains("games"));
    spec.games = 1;
    spec.engines[1].name = "a".to_string();
    assert!(validate(&spec)
        .unwrap_err()
        .to_string()
        .contains("two engines are named 'a'"));
    spec.engines[1].name = "b".to_string();
    spec.engines[1].command.clear();
    assert!(validate(&spec)
        .unwrap_err()
        .to_string()
        .contains("no command"));
}
