//! A PVS search stopped before depth 1 has scored a root move answers
//! with the static pick: the root move whose position one ply down has the
//! best static score. It does not finish depth 1 first: with its zap
//! extensions and quiescence, one root move can take tens of thousands of
//! nodes (seconds in a dev build with `check_rep` on, as a soak game that
//! lost on time showed).

use leiserchess::config::EngineConfig;
use leiserchess::eval::evaluator::Evaluator;
use leiserchess::eval::nnue::accumulator::Accumulator;
use leiserchess::rules::game::{Game, Outcome};
use leiserchess::rules::moves::Move;
use leiserchess::search::bench::POSITIONS;
use leiserchess::search::pvs::{self, order::Order};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{Answer, Params, Root, Shared, MATE};
use std::sync::atomic::Ordering;

/// The soak game's position (dev build, `check_rep` on): its depth 1
/// searched 30,295 nodes, 29,652 of them before its first root move
/// was scored.
const SLOW_DEPTH_ONE: &str = "e1d0 c5b6 e2L b6a5 e2d2 e6f6 d1e2 b3c3 g4L c3L h0g1 f6g6 d0L a7b6 \
     d2c3U b4c5 c3c4b3 c3b3a2 c3b3 a5b5 f3L a2b3L a2b3b4 d5R b4b5a4 d6L f2f1 b4c3 a4b4 c5b4a5 \
     c5d6e5 a5R e5R a5b5 f1R d5e5f4 f3f4L f3g4h3 g1g2 c5d5e5";

fn game_after(moves: &str) -> Game {
    let mut g = Game::from_fen(leiserchess::rules::fen::STARTPOS).unwrap();
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// PVS with `params` on one thread within `limits`, with `stop` set
/// before it starts if `stopped`.
fn search(g: &Game, params: Params, limits: &SearchLimits, stopped: bool) -> Answer {
    let shared = Shared::new(1, 4);
    shared.stop.store(stopped, Ordering::Relaxed);
    let mut order = [Order::default()];
    pvs::think(
        &Root::from_game(g),
        limits,
        params,
        &shared,
        &mut order,
        |_, _, _| {},
    )
}

/// PVS with `params` and no limit, `stop` already set.
fn stopped_search(g: &Game, params: Params) -> Answer {
    search(g, params, &SearchLimits::default(), true)
}

/// The plain oracle: the mover's score of `m` by playing it on a copy of
/// the game, a King zap as won or lost at ply 1, else the static score of
/// the position after it, from scratch.
fn one_ply_score(g: &Game, m: Move, params: Params, shared: &Shared) -> i32 {
    let mover = g.board().side();
    let mut after = g.clone();
    after.play(m).unwrap();
    if let Some(Outcome::KingZapped { winner }) = after.outcome() {
        return if winner == mover {
            MATE - 1
        } else {
            -(MATE - 1)
        };
    }
    let ev = Evaluator::choose(params.use_nnue, &shared.net, params.weights);
    let acc = ev.net().map(|net| Accumulator::refresh(net, after.board()));
    -(ev.score_cp(after.board(), acc.as_ref()) + params.hmb)
}

#[test]
fn a_stop_before_depth_one_is_answered_without_searching_it() {
    let mut g = game_after(SLOW_DEPTH_ONE);
    let legal = g.legal_moves();
    let answer = stopped_search(&g, EngineConfig::default().search);
    let best = answer.best.expect("a move");
    assert!(legal.contains(&best), "{best} is not legal");
    assert!(answer.last.is_none(), "no iteration was completed");
    // A node a root move for the pick, and the root and its first child,
    // counted before they see the stop.
    assert!(
        answer.nodes <= legal.len() as u64 + 2,
        "{} nodes for {} root moves: depth 1 was searched",
        answer.nodes,
        legal.len()
    );
}

#[test]
fn the_static_pick_is_the_best_move_one_ply_down() {
    let params = EngineConfig::default().search;
    let shared = Shared::new(1, 4);
    let tactics = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("perft/data/tactics.txt"),
    )
    .unwrap();
    let zaps_in_one: Vec<String> = tactics
        .lines()
        .filter(|l| l.contains("| 1 |"))
        .map(|l| l.split('|').next().unwrap().trim().to_string())
        .collect();
    assert!(zaps_in_one.len() >= 10);
    let mut games: Vec<Game> = POSITIONS
        .iter()
        .copied()
        .chain(zaps_in_one.iter().map(String::as_str))
        .map(|f| Game::from_fen(f).unwrap())
        .collect();
    games.push(game_after(SLOW_DEPTH_ONE));
    for (i, g) in games.iter_mut().enumerate() {
        let legal = g.legal_moves();
        let scores: Vec<i32> = legal
            .iter()
            .map(|&m| one_ply_score(g, m, params, &shared))
            .collect();
        let top = *scores.iter().max().unwrap();
        let pick = stopped_search(g, params).best.expect("a move");
        let at = legal.iter().position(|&m| m == pick).expect("a legal pick");
        assert_eq!(
            scores[at], top,
            "position {i}: picked {pick} scoring {}, the best one ply down scores {top}",
            scores[at]
        );
        if i >= POSITIONS.len() && i < POSITIONS.len() + zaps_in_one.len() {
            assert_eq!(top, MATE - 1, "position {i}: a zap in 1 is listed");
        }
    }
}

/// The main thread looks at the clock and the node limit every 64 nodes:
/// at 1024, the dev build with `check_rep` on (about 11,000 nodes a
/// second) overran a 67 ms clock by a whole check's interval.
#[test]
fn a_node_limit_is_kept_within_64_nodes() {
    let g = game_after(SLOW_DEPTH_ONE);
    for limit in [100, 300, 700] {
        let limits = SearchLimits::nodes(limit);
        let answer = search(&g, EngineConfig::default().search, &limits, false);
        assert!(answer.best.is_some());
        // Depth 1 needs thousands of nodes here, so the static pick answers,
        // at a node for each of the 85 root moves.
        assert!(
            (limit..limit + 64 + 85).contains(&answer.nodes),
            "go nodes {limit}: {} nodes",
            answer.nodes
        );
    }
}
