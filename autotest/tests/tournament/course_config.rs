//! The course config file format (`autotest::config::course_file`): every
//! key and its default, comments and quoting, and errors that name the
//! line.

use crate::common::{
    programs::strings,
    spec::{fischer_clock, options},
};
use autotest::config::course_file::parse_course_config;
use autotest::config::spec::{
    Clock, DrawRule, EngineLimits, EngineSpec, OpeningsSpec, ResignRule, Schedule, TournamentSpec,
};
use autotest::config::ConfigError;
use std::path::PathBuf;

/// The line of a course config error (panics on other errors).
fn line_of(text: &str) -> (usize, String) {
    match parse_course_config(text) {
        Err(ConfigError::Line { line, message }) => (line, message),
        other => panic!("expected a line error, got {other:?}"),
    }
}

const TWO: &str = "player = a\ninvoke = ./a\nplayer = b\ninvoke = ./b\n";

#[test]
fn full_course_config() {
    let text = "\
# A lab test.
cpus = 4
book = ../tests/book.dta   # the course's book
game_rounds = 50
title = My funky test
adjudicate = 400
nozap = 300
draw = movenumber=30 movecount=4 score=5
resign = movecount=3 score=500 twosided=true

# now the players
player = reference
invoke = ../player/leiserchess --uci
fis = 60 0.5

player = myLeiserchess-test
invoke = \"../my player/leiserchess\"
fis = 6 0.1
depth = 8
hash = 64
lmr_r1 = 5
";
    let expected = TournamentSpec {
        title: "My funky test".to_string(),
        engines: vec![
            EngineSpec {
                name: "reference".to_string(),
                command: strings(&["../player/leiserchess", "--uci"]),
                dir: None,
                options: Vec::new(),
                limits: EngineLimits {
                    clock: fischer_clock(60_000, 500),
                    ..EngineLimits::default()
                },
                restart: true,
            },
            EngineSpec {
                name: "myLeiserchess-test".to_string(),
                command: strings(&["../my player/leiserchess"]),
                dir: None,
                options: options(&[("hash", "64"), ("lmr_r1", "5")]),
                limits: EngineLimits {
                    clock: fischer_clock(6_000, 100),
                    depth: Some(8),
                    ..EngineLimits::default()
                },
                restart: true,
            },
        ],
        schedule: Schedule::RoundRobin,
        games: 2,
        rounds: 1,
        max_games: Some(50),
        concurrency: 4,
        openings: OpeningsSpec {
            file: Some(PathBuf::from("../tests/book.dta")),
            random: false,
            plies: None,
        },
        repeat: true,
        pgn_out: None,
        sprt: None,
        max_plies: 800,
        no_zap_plies: 300,
        draw: Some(DrawRule {
            move_number: 30,
            move_count: 4,
            score_cp: 5,
        }),
        resign: Some(ResignRule {
            move_count: 3,
            score_cp: 500,
            two_sided: true,
        }),
        family: vec![None, None],
        ..TournamentSpec::default()
    };
    assert_eq!(parse_course_config(text).unwrap(), expected);
}

#[test]
fn course_families_never_meet() {
    let text = "player = a1\ninvoke = e\nfamily = a\nplayer = a2\ninvoke = e\nfamily = a\nplayer = b\ninvoke = e\n";
    let spec = parse_course_config(text).unwrap();
    assert_eq!(
        spec.family,
        vec![Some("a".to_string()), Some("a".to_string()), None]
    );
    let jobs = autotest::tournament::schedule(&spec, 1);
    assert!(jobs
        .iter()
        .all(|j| (j.white.min(j.black), j.white.max(j.black)) != (0, 1)));
    assert_eq!(jobs.len(), 4);
}

#[test]
fn course_defaults_and_other_limits() {
    let text = "\
player = depth_1
invoke = eng
depth = 1
player = by_nodes
invoke = eng
nodes = 100000
tc = 40 60.5
Player = p3
INVOKE = eng a\"b c\"d \"\"
Fis = 1 0
Hash = 16
";
    let spec = parse_course_config(text).unwrap();
    let d = TournamentSpec::default();
    assert_eq!(
        (spec.rounds, spec.games, spec.repeat, spec.max_plies),
        (1, 2, true, 0)
    );
    // The course referee's title and no-zap limit; no game limit.
    assert_eq!(
        (spec.max_games, spec.no_zap_plies, spec.draw, spec.resign),
        (None, 200, None, None)
    );
    assert_eq!(
        (
            spec.title.as_str(),
            spec.concurrency,
            spec.openings.file.clone()
        ),
        ("Autotest", d.concurrency, None)
    );
    let e = &spec.engines;
    assert_eq!(e.len(), 3);
    assert_eq!(
        e[0].limits,
        EngineLimits {
            depth: Some(1),
            ..EngineLimits::default()
        }
    );
    assert_eq!(
        e[1].limits,
        EngineLimits {
            clock: Some(Clock::Period {
                moves: 40,
                period_ms: 60_500
            }),
            nodes: Some(100_000),
            ..EngineLimits::default()
        }
    );
    // Keys are case-insensitive, option names kept as written.
    assert_eq!(e[2].name, "p3");
    assert_eq!(e[2].command, strings(&["eng", "ab cd", ""]));
    assert_eq!(e[2].limits.clock, fischer_clock(1_000, 0));
    assert_eq!(e[2].options, options(&[("Hash", "16")]));
}

#[test]
fn course_comments_and_equals_in_values() {
    let text = "\u{feff}  # comment\r\n\r\ntitle = a = b\r\nplayer = x\r\ninvoke = eng --opt=1 \"#not a comment\" # a comment\r\nplayer = y\r\ninvoke = eng\r\n";
    let spec = parse_course_config(text).unwrap();
    assert_eq!(spec.title, "a = b");
    assert_eq!(
        spec.engines[0].command,
        strings(&["eng", "--opt=1", "#not a comment"])
    );
}

#[test]
fn course_line_without_equals() {
    let (line, msg) = line_of("cpus = 2\n\nplayer x\n");
    assert_eq!(line, 3);
    assert!(msg.contains("key = value"), "{msg}");
    let (line, msg) = line_of("= 3\n");
    assert_eq!(line, 1);
    assert!(msg.contains("no key"), "{msg}");
    let (line, msg) = line_of("title =\n");
    assert_eq!(line, 1);
    assert!(msg.contains("no value"), "{msg}");
}

#[test]
fn course_unknown_global_key() {
    let (line, msg) = line_of("cpus = 2\nhash = 64\n");
    assert_eq!(line, 2);
    assert!(msg.contains("unknown global key 'hash'"), "{msg}");
}

#[test]
fn course_player_key_before_any_player() {
    for key in [
        "invoke = eng",
        "depth = 3",
        "nodes = 9",
        "fis = 1 1",
        "tc = 40 60",
    ] {
        let (line, msg) = line_of(&format!("# x\n{key}\n{TWO}"));
        assert_eq!(line, 2, "{key}");
        assert!(
            msg.contains("no 'player = NAME' line comes before"),
            "{msg}"
        );
    }
}

#[test]
fn course_missing_invoke() {
    // In the middle (reported at the player's line) and at the end.
    let (line, msg) = line_of("player = a\ndepth = 2\nplayer = b\ninvoke = e\n");
    assert_eq!(line, 1);
    assert!(msg.contains("player 'a' has no 'invoke'"), "{msg}");
    let (line, msg) = line_of("player = a\ninvoke = e\n\nplayer = b\ndepth = 2\n");
    assert_eq!(line, 4);
    assert!(msg.contains("player 'b' has no 'invoke'"), "{msg}");
    let (line, msg) = line_of("player = a\ninvoke = \"\"\"\n");
    assert_eq!(line, 2);
    assert!(msg.contains("unterminated"), "{msg}");
}

#[test]
fn course_bad_numbers() {
    let cases = [
        ("cpus = x\n", 1, "cpus must be a whole number"),
        ("cpus = 0\n", 1, "cpus must be at least 1"),
        (
            "game_rounds = -3\n",
            1,
            "game_rounds must be a whole number",
        ),
        ("game_rounds = 0\n", 1, "game_rounds must be at least 1"),
        ("adjudicate = 1.5\n", 1, "adjudicate must be a whole number"),
        ("cpus = 99999999999999999999999\n", 1, "too large"),
        ("nozap = -1\n", 1, "nozap must be a whole number"),
        (
            "draw = movenumber=1 movecount=2\n",
            1,
            "draw: -draw needs movenumber=N movecount=M score=S",
        ),
        ("draw = 40 8 10\n", 1, "draw: expected key=value, got '40'"),
        (
            "resign = movecount=0 score=1\n",
            1,
            "resign: movecount must be at least 1",
        ),
        (
            "resign = movecount=2 score=1 sides=2\n",
            1,
            "unknown -resign setting 'sides'",
        ),
        (
            "player = a\ninvoke = e\ndepth = -1\n",
            3,
            "depth must be a whole number",
        ),
        (
            "player = a\ninvoke = e\nnodes = 1e6\n",
            3,
            "nodes must be a whole number",
        ),
        (
            "player = a\ninvoke = e\nfis = 60\n",
            3,
            "'fis' wants 'MAIN INC'",
        ),
        (
            "player = a\ninvoke = e\nfis = 60 1 2\n",
            3,
            "'fis' wants 'MAIN INC'",
        ),
        (
            "player = a\ninvoke = e\nfis = a 1\n",
            3,
            "must be a number of seconds",
        ),
        (
            "player = a\ninvoke = e\nfis = 6 -1\n",
            3,
            "must be a number of seconds",
        ),
        ("player = a\ninvoke = e\nfis = 0 1\n", 3, "must be positive"),
        (
            "player = a\ninvoke = e\ntc = 0 60\n",
            3,
            "positive number of moves",
        ),
        (
            "player = a\ninvoke = e\ntc = 40\n",
            3,
            "'tc' wants 'MOVES SECONDS'",
        ),
        (
            "player = a\ninvoke = e\ntc = 40 inf\n",
            3,
            "must be a number of seconds",
        ),
    ];
    for (text, want_line, want) in cases {
        let (line, msg) = line_of(text);
        assert_eq!(line, want_line, "{text}");
        assert!(msg.contains(want), "{text}: {msg}");
    }
}

#[test]
fn course_duplicate_player_names() {
    let (line, msg) =
        line_of("player = a\ninvoke = e\nplayer = b\ninvoke = e\nplayer = a\ninvoke = e\n");
    assert_eq!(line, 5);
    assert!(msg.contains("'a' is already used on line 1"), "{msg}");
}

#[test]
fn course_fewer_than_two_players() {
    for text in ["", "cpus = 2\n", "# nothing\n"] {
        match parse_course_config(text) {
            Err(ConfigError::Invalid(m)) => assert!(m.contains("at least two"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    match parse_course_config("cpus = 1\nplayer = solo\ninvoke = e\n") {
        Err(e @ ConfigError::Invalid(_)) => {
            let m = e.to_string();
            assert!(m.contains("only one player ('solo', line 2)"), "{m}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn course_misplaced_and_repeated_keys() {
    let (line, msg) = line_of(&format!("{TWO}cpus = 4\n"));
    assert_eq!(line, 5);
    assert!(msg.contains("global key"), "{msg}");
    let (line, msg) = line_of("player = a\ninvoke = e\ndepth = 2\nDepth = 3\n");
    assert_eq!(line, 4);
    assert!(
        msg.contains("given twice") && msg.contains("line 3"),
        "{msg}"
    );
    let (line, msg) = line_of("player = a\ninvoke = e\nhash = 2\nhash = 3\n");
    assert_eq!(line, 4);
    assert!(msg.contains("given twice"), "{msg}");
    let (line, msg) = line_of("cpus = 2\ncpus = 3\n");
    assert_eq!(line, 2);
    assert!(msg.contains("given twice"), "{msg}");
    let (line, msg) = line_of("player = a\ninvoke = e\nfis = 1 1\ntc = 40 60\n");
    assert_eq!(line, 4);
    assert!(msg.contains("not both"), "{msg}");
    // The same key in two players' sections is fine.
    assert!(parse_course_config(
        "player = a\ninvoke = e\ndepth = 2\nplayer = b\ninvoke = e\ndepth = 3\n"
    )
    .is_ok());
}

#[test]
fn course_errors_display_the_line() {
    let e = parse_course_config("cpus = 2\nbogus = 1\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("line 2: unknown global key 'bogus'"),
        "{e}"
    );
}
