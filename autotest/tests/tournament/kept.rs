//! Engines kept between games (`restart=off`): one process plays every
//! game of its engine on a worker, its games counted and its memory
//! measured after each; an engine at fault is started afresh for the next
//! game; a whole tournament records the processes in its PGN; nothing is
//! left running (the scripted fakes of `tests/fake/scripted.sh`).

use crate::common::{
    fake::{
        assert_no_leftovers, bounded, engine, pid_dir, started, tournament_spec, two_fakes,
        GAME_LIMIT, GOOD_CLOCK_MS,
    },
    programs::strings,
    scratch,
    spec::fischer,
};
use autotest::config::flags::parse_flags;
use autotest::config::spec::{EngineSpec, PgnStyle};
use autotest::openings::Opening;
use autotest::pgn::write::to_pgn;
use autotest::referee::game::play_kept;
use autotest::referee::kept::Kept;
use autotest::referee::record::{EngineMemory, FaultKind, GameRecord, Termination};
use autotest::tournament;
use std::path::Path;

fn kept(name: &str, mode: &str, pids: &Path) -> EngineSpec {
    EngineSpec {
        restart: false,
        ..engine(name, mode, fischer(GOOD_CLOCK_MS), pids)
    }
}

/// Plays `n` games between `a` and `b`, colours alternating, on one
/// worker's kept engines, then lets them go.
fn games(a: &EngineSpec, b: &EngineSpec, n: usize) -> Vec<GameRecord> {
    let t = tournament_spec(vec![]);
    let mut kept = Kept::default();
    let recs = (0..n)
        .map(|i| {
            let (w, bl) = if i % 2 == 0 { (a, b) } else { (b, a) };
            play_kept(w, bl, &Opening::startpos(), &t, &i.to_string(), &mut kept)
        })
        .collect();
    kept.quit_all();
    recs
}

/// The kept engine's memory record of `side` ("White" or "Black") in `r`.
fn side_memory<'a>(r: &'a GameRecord, side: &str) -> &'a EngineMemory {
    r.memory.iter().find(|m| m.side == side).expect("a side")
}

#[test]
fn one_process_plays_all_its_engines_games() {
    let pids = pid_dir("kept_one_process");
    let (a, b) = (kept("a", "good", &pids), kept("b", "good", &pids));
    let (recs, _) = bounded(GAME_LIMIT * 2, move || games(&a, &b, 4));
    assert_eq!(started(&pids), 2, "one process for each engine");
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.termination, Termination::Repetition, "game {i}");
        assert_eq!(r.memory.len(), 2, "game {i}: both engines kept");
        for m in &r.memory {
            assert_eq!(m.games, i as u32 + 1, "game {i}: {m:?}");
            assert!(m.rss_kb.is_some_and(|kb| kb > 0), "game {i}: {m:?}");
        }
    }
    // Engine a played White in the first game and Black in the second:
    // the same process both times.
    let process = |r: &GameRecord, side: &str| side_memory(r, side).process.clone();
    assert_eq!(process(&recs[0], "White"), process(&recs[1], "Black"));
    assert_ne!(process(&recs[0], "White"), process(&recs[0], "Black"));
    let pgn = to_pgn(&recs[1], PgnStyle::Standard);
    assert!(pgn.contains("[WhiteProcessGames \"2\"]"), "{pgn}");
    assert!(pgn.contains("[BlackRSS \""), "{pgn}");
    assert!(!to_pgn(&recs[1], PgnStyle::Course).contains("Process"));
    assert_no_leftovers(&pids);
}

/// The memory is read once the engine has answered `ucinewgame`: what a
/// game holds (the fake's 40 MB, an MCTS tree) is not counted, so that a
/// session's readings show only what the process keeps between games.
#[test]
fn memory_is_measured_after_the_game_is_dropped() {
    let pids = pid_dir("kept_game_memory");
    let (a, b) = (kept("a", "game-memory", &pids), kept("b", "good", &pids));
    let (recs, _) = bounded(GAME_LIMIT * 2, move || games(&a, &b, 2));
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.termination, Termination::Repetition, "game {i}");
        let kb = |side: &str| side_memory(r, side).rss_kb.expect("measured");
        let (holder, plain) = if i % 2 == 0 {
            (kb("White"), kb("Black"))
        } else {
            (kb("Black"), kb("White"))
        };
        assert!(
            holder < plain + 20_000,
            "game {i}: the game-memory fake measured {holder} kB, the plain one {plain} kB"
        );
    }
    assert_no_leftovers(&pids);
}

#[test]
fn an_engine_at_fault_starts_afresh_and_its_opponent_is_kept() {
    let pids = pid_dir("kept_fault");
    let (good, bad) = (kept("good", "good", &pids), kept("bad", "illegal", &pids));
    let (recs, _) = bounded(GAME_LIMIT * 2, move || games(&good, &bad, 3));
    for (i, r) in recs.iter().enumerate() {
        match &r.termination {
            Termination::Fault { engine, kind, .. } => {
                assert_eq!((engine.as_str(), *kind), ("bad", FaultKind::IllegalMove))
            }
            t => panic!("game {i}: {t:?}"),
        }
        let names: Vec<u32> = r.memory.iter().map(|m| m.games).collect();
        assert_eq!(
            names,
            [i as u32 + 1],
            "game {i}: only the good engine is kept"
        );
    }
    assert_eq!(
        started(&pids),
        1 + 3,
        "the good engine once, the bad one each game"
    );
    assert_no_leftovers(&pids);
}

#[test]
fn a_tournament_keeps_its_engines_and_writes_them_down() {
    let pids = pid_dir("kept_tournament");
    let dir = scratch::dir("kept/tournament");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_string_lossy();
    let rest = [
        "-each",
        "tc=2+0",
        "restart=off",
        "-games",
        "6",
        "-concurrency",
        "1",
        "-pgnout",
        &pgn_arg,
    ];
    let args = two_fakes("good", &pids, &rest);
    let spec = parse_flags(&args).expect("the flags parse");
    assert!(spec.engines.iter().all(|e| !e.restart));
    let (summary, _) = bounded(GAME_LIMIT * 3, move || {
        tournament::run::run(&spec, &[], |_, _, _, _| {}).map(|s| s.games.len())
    });
    assert_eq!(summary, Ok(6));
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let counts: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[WhiteProcessGames \""))
        .map(|l| l.trim_end_matches("\"]"))
        .collect();
    assert_eq!(counts, ["1", "2", "3", "4", "5", "6"], "{text}");
    // The start-up check (preflight) starts each engine once more.
    assert_eq!(started(&pids), 2 + 2);
    assert_no_leftovers(&pids);
}

#[test]
fn restart_takes_on_or_off() {
    let spec = |v: &str| {
        let restart = format!("restart={v}");
        parse_flags(&strings(&[
            "-engine", "cmd=x", &restart, "-engine", "cmd=y",
        ]))
    };
    let off = spec("off").expect("off");
    assert_eq!(
        (off.engines[0].restart, off.engines[1].restart),
        (false, true)
    );
    assert!(spec("on").expect("on").engines[0].restart);
    let err = spec("no").expect_err("no is neither").to_string();
    assert!(err.contains("restart is on or off, got 'no'"), "{err}");
}
