//! MCTS on the reference tactics (`perft/data/tactics.txt`: a King zap
//! forced in 1 or 3 plies): within a playout cap it plays a winning move on
//! every one, and its solver's proofs agree with PVS's mate scores.
//!
//! The ignored `measure_against_pvs_at_equal_time` is BENCHMARKS.md's
//! "MCTS tactics": MCTS within 100,000 playouts, then PVS with
//! `go movetime` equal to MCTS's time on each position:
//!
//! ```sh
//! cargo test --release --test library -- mcts_tactics:: --ignored --nocapture
//! ```

use crate::common::mcts_search::Mcts;
use leiserchess::config::EngineConfig;
use leiserchess::rules::fen;
use leiserchess::rules::game::{Game, Outcome};
use leiserchess::rules::moves::Move;
use leiserchess::search::mcts;
use leiserchess::search::pvs::{self, order::Order};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Answer, Root, Shared, MATE, MATE_BOUND};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A forced King zap: the position and the plies until the zap.
struct Tactic {
    fen: String,
    plies: u32,
}

/// The rows of `perft/data/tactics.txt`.
fn tactics() -> Vec<Tactic> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("perft/data/tactics.txt");
    let text = std::fs::read_to_string(&path).expect("perft/data/tactics.txt");
    let rows: Vec<Tactic> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<&str> = l.split('|').map(str::trim).collect();
            Tactic {
                fen: fields[0].to_string(),
                plies: fields[1]
                    .parse()
                    .unwrap_or_else(|e| panic!("tactics.txt: plies of {l}: {e}")),
            }
        })
        .collect();
    assert_eq!(rows.len(), 38, "tactics.txt: 38 positions expected");
    rows
}

/// Whether `m` forces a zap of the opponent's King within `plies` plies
/// (1 or 3), whatever the opponent replies.
fn wins_within(g: &Game, m: Move, plies: u32) -> bool {
    let mover = g.board().side();
    let mut after = g.clone();
    after.play(m).expect("a legal move");
    match after.outcome() {
        Some(o) => return o == Outcome::KingZapped { winner: mover },
        None if plies < 3 => return false,
        None => {}
    }
    let replies = after.legal_moves();
    !replies.is_empty()
        && replies.into_iter().all(|r| {
            let mut then = after.clone();
            then.play(r).expect("a legal reply");
            match then.outcome() {
                Some(o) => o == Outcome::KingZapped { winner: mover },
                None => then
                    .legal_moves()
                    .into_iter()
                    .any(|z| wins_within(&then, z, plies - 2)),
            }
        })
}

/// The plies to the zap a score proves, if it is a win.
fn proven_plies(score: i32) -> Option<u32> {
    (score >= MATE_BOUND).then(|| (MATE - score) as u32)
}

/// What one search found on a tactic.
struct Found {
    /// Its move forces the zap in the tactic's plies.
    wins: bool,
    /// The plies to the zap its score proves.
    proven: Option<u32>,
    elapsed: Duration,
}

impl Found {
    fn of(t: &Tactic, answer: &Answer) -> Found {
        let mut game = Game::from_fen(&t.fen).expect("tactics parse");
        let wins = answer.best.is_some_and(|m| {
            assert!(game.legal_moves().contains(&m), "{}: {m} illegal", t.fen);
            wins_within(&game, m, t.plies)
        });
        Found {
            wins,
            proven: answer.last.as_ref().and_then(|it| proven_plies(it.score)),
            elapsed: answer.elapsed,
        }
    }
}

fn root(t: &Tactic) -> Root {
    Root::new(fen::parse(&t.fen).expect("tactics parse"))
}

/// MCTS with the engine's defaults, at most `cap` playouts, a fresh tree.
fn mcts_search(t: &Tactic, cap: u64) -> Answer {
    let config = EngineConfig::default();
    let engine = Mcts {
        params: config.search,
        resources: mcts::Resources {
            bytes: config.tree_mb << 20,
            threads: 1,
        },
    };
    engine.search(&root(t), &SearchLimits::nodes(cap)).answer
}

/// PVS with the engine's defaults, one thread, a fresh table, within
/// `limits`.
fn pvs_search(t: &Tactic, limits: &SearchLimits) -> Answer {
    let config = EngineConfig::default();
    let shared = Shared::new(config.table.hash_mb, config.table.ways);
    shared.stop.store(false, Ordering::Relaxed);
    let mut order = [Order::default()];
    pvs::think(
        &root(t),
        limits,
        config.search,
        &shared,
        &mut order,
        |_, _, _| {},
    )
}

/// About twice the most playouts MCTS needed to prove a tactic, as
/// measured (the ignored test prints them): the 30 zaps in 1 are proven
/// before the first playout, the 8 zaps in 3 plies in 42 to 10,200.
const CAP: u64 = 20_000;

/// PVS's depth in `tests/search/search.rs`: with the default pruning it proves
/// every tactic there, at the tactic's distance.
const PVS_DEPTH: u32 = 6;

#[test]
fn mcts_plays_a_winning_move_and_proves_what_pvs_proves() {
    for t in tactics() {
        let pvs = pvs_search(&t, &SearchLimits::depth(PVS_DEPTH));
        let pvs = Found::of(&t, &pvs);
        assert!(pvs.wins, "{}: PVS does not play a winning move", t.fen);
        assert_eq!(pvs.proven, Some(t.plies), "{}: PVS's mate", t.fen);
        let answer = mcts_search(&t, CAP);
        let mcts = Found::of(&t, &answer);
        assert!(mcts.wins, "{}: MCTS does not play a winning move", t.fen);
        // Measured: every tactic is proven within the cap, at the
        // distance PVS proves; a proven root ends the search.
        assert_eq!(mcts.proven, pvs.proven, "{}: MCTS's proof", t.fen);
        assert!(answer.nodes < CAP, "{}: a proven root stops", t.fen);
    }
}

/// MCTS's playouts on the tactics, as BENCHMARKS.md measures them.
const MEASURED_PLAYOUTS: u64 = 100_000;

/// Counts over the tactics: found, proven, time.
#[derive(Default)]
struct Tally {
    found: usize,
    proven: usize,
    elapsed: Duration,
}

impl Tally {
    fn add(&mut self, t: &Tactic, f: &Found) {
        self.found += usize::from(f.wins);
        self.proven += usize::from(f.proven == Some(t.plies));
        self.elapsed += f.elapsed;
    }

    fn line(&self, n: usize) -> String {
        format!(
            "found {}/{n}, proven {}/{n}, {:.1} ms",
            self.found,
            self.proven,
            self.elapsed.as_secs_f64() * 1000.0
        )
    }
}

#[test]
#[ignore = "a measurement for BENCHMARKS.md; run with --ignored --nocapture"]
fn measure_against_pvs_at_equal_time() {
    let rows = tactics();
    let (mut by_mcts, mut by_pvs, mut to_proof) =
        (Tally::default(), Tally::default(), Tally::default());
    let ms = |f: &Found| f.elapsed.as_secs_f64() * 1000.0;
    let proof = |f: &Found| f.proven.map_or("-".to_string(), |d| d.to_string());
    println!(
        "plies | MCTS playouts | ms | found | proven | PVS movetime | found | proven | \
         PVS unlimited nodes | ms | FEN"
    );
    for t in &rows {
        let answer = mcts_search(t, MEASURED_PLAYOUTS);
        let mcts = Found::of(t, &answer);
        // Equal time, in whole milliseconds and at least one: `go
        // movetime` takes no less.
        let movetime = (mcts.elapsed.as_micros().div_ceil(1000) as u64).max(1);
        let limits = SearchLimits::movetime(movetime);
        let pvs = Found::of(t, &pvs_search(t, &limits));
        // Without a limit PVS stops at its first proven mate: the time
        // it needs on this machine, in the same run.
        let unlimited = pvs_search(t, &SearchLimits::default());
        let proven = Found::of(t, &unlimited);
        println!(
            "{} | {} | {:.2} | {} | {} | {movetime} | {} | {} | {} | {:.2} | {}",
            t.plies,
            answer.nodes,
            ms(&mcts),
            mcts.wins,
            proof(&mcts),
            pvs.wins,
            proof(&pvs),
            unlimited.nodes,
            ms(&proven),
            t.fen
        );
        by_mcts.add(t, &mcts);
        by_pvs.add(t, &pvs);
        to_proof.add(t, &proven);
    }
    let n = rows.len();
    println!(
        "MCTS, {MEASURED_PLAYOUTS} playouts at most: {}",
        by_mcts.line(n)
    );
    println!("PVS, movetime MCTS's time: {}", by_pvs.line(n));
    println!("PVS, no limit: {}", to_proof.line(n));
}
