//! Games that end by the referee's settings rather than the engines'
//! faults, with the scripted fake engines (see `faults.rs` for their
//! moves: two good fakes draw by repetition after 8 plies, so every limit
//! here is set to act before that): score adjudication (`-draw`,
//! `-resign`), the move limit, the no-zap limit, and the `no_zap_plies`
//! option sent to engines that list it.

use crate::common::{
    fake::{
        assert_no_leftovers, bounded, engine, pid_dir, tournament_spec, GAME_LIMIT, GOOD_CLOCK_MS,
    },
    spec::fischer,
};
use autotest::config::spec::{
    DrawRule, EngineLimits, EngineSpec, PgnStyle, ResignRule, TournamentSpec,
};
use autotest::openings::Opening;
use autotest::pgn::write::to_pgn;
use autotest::referee;
use autotest::referee::record::{Adjudication, GameRecord, Start, Termination};
use std::path::Path;

/// Plays `white` against `black` from `opening` under `t`.
fn play(
    test: &str,
    white: EngineSpec,
    black: EngineSpec,
    t: TournamentSpec,
    opening: Opening,
) -> GameRecord {
    let (rec, elapsed) = bounded(GAME_LIMIT, move || {
        referee::play(&white, &black, &opening, &t, "1")
    });
    eprintln!(
        "{test}: {} after {} moves in {} ms: {}",
        rec.result,
        rec.moves.len(),
        elapsed.as_millis(),
        rec.termination
    );
    rec
}

fn good(name: &str, mode: &str, pids: &Path) -> EngineSpec {
    engine(name, mode, fischer(GOOD_CLOCK_MS), pids)
}

/// Both good fakes report `score cp 0`: from move 2 on, two moves each
/// within ±10 cp is a draw after Lavender's third move (ply 6).
#[test]
fn draw_adjudicated_from_scores() {
    let pids = pid_dir("draw_adjudicated");
    let t = TournamentSpec {
        draw: Some(DrawRule {
            move_number: 2,
            move_count: 2,
            score_cp: 10,
        }),
        ..tournament_spec(vec![])
    };
    let rec = play(
        "draw_adjudicated",
        good("a", "good", &pids),
        good("b", "good", &pids),
        t,
        Opening::startpos(),
    );
    assert_eq!(
        rec.termination,
        Termination::Adjudicated(Adjudication::DrawScores {
            move_count: 2,
            score_cp: 10
        })
    );
    assert_eq!((rec.result.as_str(), rec.moves.len()), ("1/2-1/2", 6));
    assert!(rec.moves.iter().all(|m| m.score == Some(0)));
    // Said so in the PGN's Termination tag and before the result.
    for style in [PgnStyle::Standard, PgnStyle::Course] {
        let pgn = to_pgn(&rec, style);
        assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
        assert!(
            pgn.contains("{adjudication: draw, both engines' last 2 scores within ±10 cp} 1/2-1/2"),
            "{pgn}"
        );
    }
    assert_no_leftovers(&pids);
}

/// Tangerine reports −500 cp: with `movecount=2 score=400` it loses at
/// its second move; two-sided, Lavender's 0 cp does not agree, and the
/// game goes on to its repetition.
#[test]
fn resign_adjudicated_from_scores() {
    let pids = pid_dir("resign_adjudicated");
    let rule = |two_sided| ResignRule {
        move_count: 2,
        score_cp: 400,
        two_sided,
    };
    let t = TournamentSpec {
        resign: Some(rule(false)),
        ..tournament_spec(vec![])
    };
    let rec = play(
        "resign",
        good("loser", "score:-500", &pids),
        good("winner", "good", &pids),
        t.clone(),
        Opening::startpos(),
    );
    assert_eq!(
        rec.termination,
        Termination::Adjudicated(Adjudication::Resign {
            engine: "loser".to_string(),
            move_count: 2,
            score_cp: 400
        })
    );
    assert_eq!((rec.result.as_str(), rec.moves.len()), ("0-1", 3));
    assert_eq!(rec.moves[0].score, Some(-500));

    let t = TournamentSpec {
        resign: Some(rule(true)),
        ..t
    };
    let rec = play(
        "resign_two_sided",
        good("loser", "score:-500", &pids),
        good("winner", "good", &pids),
        t.clone(),
        Opening::startpos(),
    );
    assert_eq!(rec.termination, Termination::Repetition);
    // With the winner's agreement (+500), two-sided resigns too: at the
    // winner's second move.
    let rec = play(
        "resign_two_sided_agreed",
        good("loser", "score:-500", &pids),
        good("winner", "score:500", &pids),
        t,
        Opening::startpos(),
    );
    assert_eq!((rec.result.as_str(), rec.moves.len()), ("0-1", 4));
    assert_no_leftovers(&pids);
}

/// The move limit counts the opening's plies: 2 book plies and a limit
/// of 2 moves each leave the engines 2 plies.
#[test]
fn move_limit_counts_the_opening() {
    let pids = pid_dir("move_limit");
    let t = TournamentSpec {
        max_plies: 4,
        ..tournament_spec(vec![])
    };
    let opening = Opening {
        start: Start::StartPos,
        moves: vec!["d1c1".to_string(), "e6f6".to_string()],
    };
    let rec = play(
        "move_limit",
        good("a", "good", &pids),
        good("b", "good", &pids),
        t,
        opening,
    );
    assert_eq!(
        rec.termination,
        Termination::Adjudicated(Adjudication::MoveLimit)
    );
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["c1d1", "f6e6"]);
    assert_no_leftovers(&pids);
}

/// A slow fake in `mode` under `limits` (White) against a good one, with
/// a margin of `margin_ms`: not late, the game ends at its 2-ply limit.
fn in_time(test: &str, mode: &str, limits: EngineLimits, margin_ms: u64) {
    let pids = pid_dir(test);
    let t = TournamentSpec {
        time_margin_ms: margin_ms,
        max_plies: 2,
        ..tournament_spec(vec![])
    };
    let slow = engine("slow", mode, limits, &pids);
    let rec = play(test, slow, good("b", "good", &pids), t, Opening::startpos());
    assert_eq!(
        rec.termination,
        Termination::Adjudicated(Adjudication::MoveLimit)
    );
    assert_eq!(rec.moves.len(), 2);
    assert_no_leftovers(&pids);
}

/// An engine on a fixed time per move has that time, the margin and a
/// second: answering 800 ms into a 100 ms move time, with a margin of 400
/// ms (more than the move time), is not late.
#[test]
fn a_move_time_allows_the_margin_and_a_second() {
    let limits = EngineLimits {
        movetime_ms: Some(100),
        ..EngineLimits::default()
    };
    in_time("movetime_allowance", "slow:800", limits, 400);
}

/// An engine on a clock has its time left and the margin: answering after
/// 1,000 ms with 300 ms on its clock and a margin of 1,500 ms is not late.
#[test]
fn a_clock_allows_the_margin() {
    in_time("clock_allowance", "slow:1000", fischer(300), 1_500);
}

/// The tournament's no-zap limit ends the game (4 plies without a zap).
#[test]
fn no_zap_limit_ends_the_game() {
    let pids = pid_dir("no_zap_limit");
    let t = TournamentSpec {
        no_zap_plies: 4,
        ..tournament_spec(vec![])
    };
    let rec = play(
        "no_zap_limit",
        good("a", "good", &pids),
        good("b", "good", &pids),
        t,
        Opening::startpos(),
    );
    assert_eq!(rec.termination, Termination::NoZap);
    assert_eq!((rec.result.as_str(), rec.moves.len()), ("1/2-1/2", 4));
    assert_no_leftovers(&pids);
}

/// The `setoption` lines an engine got, from its log.
fn setoptions(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("setoption"))
        .map(String::from)
        .collect()
}

/// An engine that lists `no_zap_plies` gets the tournament's limit, unless
/// the user set that option for it; an engine that does not list it never
/// gets it.
#[test]
fn no_zap_option_is_sent_when_listed_and_not_set() {
    let pids = pid_dir("no_zap_option");
    let logged = |name: &str, mode: &str, options: &[(&str, &str)]| {
        let log = pids.with_extension(format!("{name}.log"));
        let _ = std::fs::remove_file(&log);
        let mut e = good(name, mode, &pids);
        e.command.push(log.to_string_lossy().into_owned());
        e.options = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (e, log)
    };
    let t = TournamentSpec {
        no_zap_plies: 150,
        ..tournament_spec(vec![])
    };
    let (listed, listed_log) = logged("listed", "nozap-option", &[("Hash", "1")]);
    let (set, set_log) = logged("set", "nozap-option", &[("No_Zap_Plies", "77")]);
    play("no_zap_option", listed, set, t.clone(), Opening::startpos());
    // Asked to quit at the end, not only killed.
    for log in [&listed_log, &set_log] {
        let text = std::fs::read_to_string(log).unwrap();
        assert_eq!(text.lines().last(), Some("quit"), "{}", log.display());
    }
    assert_eq!(
        setoptions(&listed_log),
        [
            "setoption name Hash value 1",
            "setoption name no_zap_plies value 150"
        ]
    );
    assert_eq!(
        setoptions(&set_log),
        ["setoption name No_Zap_Plies value 77"]
    );
    let (unlisted, unlisted_log) = logged("unlisted", "good", &[]);
    let (listed, listed_log) = logged("listed", "nozap-option", &[]);
    play(
        "no_zap_option_unlisted",
        unlisted,
        listed,
        t,
        Opening::startpos(),
    );
    assert_eq!(setoptions(&unlisted_log), Vec::<String>::new());
    assert_eq!(
        setoptions(&listed_log),
        ["setoption name no_zap_plies value 150"]
    );
    assert_no_leftovers(&pids);
}
