//! The Monte-Carlo tree search as a library: a legal answer on varied
//! positions, the same tree for the same `go nodes N`, King zaps found
//! and proven (the solver agrees with PVS), the arena's byte budget kept,
//! a stop answered at once, `bench --search mcts`'s signature, and
//! `datagen` playing its games by MCTS when the `Search` option says so.

use clap::Parser;
use leiserchess::config::EngineConfig;
use leiserchess::lab::data::{self, Sample};
use leiserchess::lab::datagen;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::search::algorithm::Algorithm;
use leiserchess::search::bench;
use leiserchess::search::mcts::{self, Outcome};
use leiserchess::search::time::SearchLimits;
use leiserchess::search::{pvs, Params, Root, Shared, MATE, MATE_BOUND};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::common::mcts_search::Mcts;
use crate::common::{reference, scratch};

/// Asserts that the answer is one of the game's legal moves.
fn assert_legal(game: &mut Game, o: &Outcome, what: &str) {
    let best = o.answer.best.unwrap_or_else(|| panic!("{what}: no move"));
    assert!(game.legal_moves().contains(&best), "{what}: {best} illegal");
}

#[test]
fn a_legal_move_on_reference_positions_and_random_games() {
    legal_moves_on(1);
}

#[test]
fn a_legal_move_on_the_same_positions_with_two_threads() {
    legal_moves_on(2);
}

/// Searches over a hundred varied positions on `threads`: each answer is
/// legal, the first move of the reported line, after the playouts asked.
fn legal_moves_on(threads: usize) {
    let mut games: Vec<Game> = reference::fens("positions.txt")
        .iter()
        .step_by(3)
        .map(|f| Game::from_fen(f).unwrap())
        .collect();
    // Random games from the start, Ko respected, stopped before a King falls.
    let mut rng = fastrand::Rng::with_seed(7);
    for plies in (2..60).step_by(3) {
        let mut g = Game::from_fen(fen::STARTPOS).unwrap();
        for _ in 0..plies {
            let moves = g.legal_moves();
            let m = moves[rng.usize(..moves.len())];
            let mut next = g.clone();
            next.play(m).unwrap();
            if next.is_over() {
                break;
            }
            g = next;
        }
        games.push(g);
    }
    assert!(games.len() >= 110, "{}", games.len());
    for (i, g) in games.iter_mut().enumerate() {
        let o = Mcts::on(threads, mcts::DEFAULT_BUDGET)
            .search(&Root::from_game(g), &SearchLimits::nodes(48));
        assert!(o.answer.nodes <= 48);
        let it = o.answer.last.as_ref().expect("a report");
        assert_eq!(it.pv.first().copied(), o.answer.best);
        assert_legal(g, &o, &format!("game {i} ({})", fen::to_fen(g.board())));
    }
}

#[test]
fn the_same_nodes_grow_the_same_tree() {
    let root = Root::new(fen::parse(fen::STARTPOS).unwrap());
    let a = Mcts::default().search(&root, &SearchLimits::nodes(1500));
    let b = Mcts::default().search(&root, &SearchLimits::nodes(1500));
    assert_eq!(a.answer.nodes, 1500);
    assert_eq!(a.answer.best, b.answer.best);
    assert_eq!(a.answer.last, b.answer.last);
    assert_eq!(a.root_edges, b.root_edges);
    let visits: u32 = a.root_edges.iter().map(|e| e.1).sum();
    assert_eq!(visits, 1500);
}

#[test]
fn a_king_zap_in_one_is_played_and_proven() {
    for text in reference::fens("tactics.txt").iter().take(5) {
        let mut game = Game::from_fen(text).unwrap();
        let o = Mcts::default().search(&Root::from_game(&game), &SearchLimits::nodes(1000));
        assert_eq!(o.answer.last.as_ref().unwrap().score, MATE - 1, "{text}");
        assert_legal(&mut game, &o, text);
        game.play(o.answer.best.unwrap()).unwrap();
        assert!(game.is_over(), "{text}: the move does not zap the King");
    }
}

#[test]
fn the_solver_proves_what_pvs_proves() {
    // Without the pruning that can miss a line, depth 3 proves them all.
    let params = Params {
        use_nnue: false,
        ..Params::default()
    }
    .exhaustive();
    let mut proven = 0;
    for text in reference::fens("tactics.txt").iter().skip(30) {
        let root = Root::new(fen::parse(text).unwrap());
        let pvs_score = pvs::search_depth(&root, 3, params, 1, 4)
            .last
            .unwrap()
            .score;
        assert_eq!(pvs_score, MATE - 3, "{text}");
        proven += 1;
        let o = Mcts::default().search(&root, &SearchLimits::nodes(30_000));
        let it = o.answer.last.as_ref().unwrap();
        assert_eq!(it.score, MATE - 3, "{text}");
        assert!(o.answer.nodes < 30_000, "{text}: a proven root stops");
        let mut game = Game::from_fen(text).unwrap();
        assert_legal(&mut game, &o, text);
    }
    assert_eq!(proven, 8);
}

#[test]
fn a_tiny_budget_is_kept_and_reported() {
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    let budget = 64 << 10;
    let o = Mcts::on(1, budget).search(&Root::from_game(&game), &SearchLimits::nodes(3000));
    assert!(o.tree_full);
    assert!(o.bytes <= budget, "{} bytes", o.bytes);
    assert_eq!(o.answer.nodes, 3000);
    assert_legal(&mut game, &o, "start");
    let roomy = Mcts::default().search(&Root::from_game(&game), &SearchLimits::nodes(300));
    assert!(!roomy.tree_full);
}

#[test]
fn a_stop_or_a_deadline_is_answered_at_once_with_a_move() {
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    let root = Root::from_game(&game);
    let shared = Shared::new(1, 1);
    shared.stop.store(true, Ordering::Relaxed);
    let answer = mcts::think(
        &root,
        &SearchLimits::default(),
        Params::default(),
        &shared,
        |_, _, _| {},
    );
    assert_eq!(answer.nodes, 0);
    assert!(game.legal_moves().contains(&answer.best.unwrap()));
    let limits = SearchLimits::movetime(100);
    shared.stop.store(false, Ordering::Relaxed);
    let t = Instant::now();
    let answer = mcts::think(&root, &limits, Params::default(), &shared, |_, _, _| {});
    assert!(
        t.elapsed() < Duration::from_millis(400),
        "{:?}",
        t.elapsed()
    );
    assert!(answer.nodes > 0);
    assert!(game.legal_moves().contains(&answer.best.unwrap()));
    let depth = SearchLimits::depth(3);
    let answer = mcts::think(
        &root,
        &depth,
        Params::default(),
        &Shared::new(1, 1),
        |_, _, _| {},
    );
    assert_eq!(answer.last.unwrap().depth, 3);
}

/// `Search=mcts` plays by visits: on the bench's positions, unproven,
/// after 600 playouts on a clock of a minute (no time share kept for any
/// other search), the move is the most visited root move (ties to the
/// better mean), the one its last report leads with; a proven root's is a
/// proven result's.
#[test]
fn the_move_is_the_most_visited_unless_the_solver_proved_the_root() {
    let limits = SearchLimits {
        nodes: Some(600),
        ..SearchLimits::movetime(60_000)
    };
    let (mut visited, mut proven) = (0, 0);
    for text in bench::POSITIONS {
        let o = Mcts::default().search(&Root::new(fen::parse(text).unwrap()), &limits);
        let best = o.answer.best.unwrap_or_else(|| panic!("{text}: no move"));
        let last = o.answer.last.as_ref().expect("a report");
        assert_eq!(last.pv.first(), Some(&best), "{text}");
        if o.proven.is_some() {
            assert!(last.score.abs() >= MATE_BOUND || last.score == 0, "{text}");
            proven += 1;
            continue;
        }
        let key = |e: &(_, u32, Option<f64>)| (e.1, e.2.unwrap_or(0.0));
        let most = o
            .root_edges
            .iter()
            .max_by(|a, b| key(a).partial_cmp(&key(b)).unwrap())
            .unwrap();
        assert_eq!(best, most.0, "{text}: {:?}", o.root_edges);
        visited += 1;
    }
    assert!(
        visited > 10 && proven > 0,
        "{visited} by visits, {proven} proven"
    );
}

/// The test build grows the release build's trees: the bench's signature
/// is `bench/signature-mcts.txt`, which `make signature` checks in release.
#[test]
fn the_bench_signature_is_the_committed_one() {
    let config = EngineConfig::default();
    let lines = bench::run_mcts(bench::DEFAULT_PLAYOUTS, config.search, config.tree_mb);
    assert_eq!(lines.len(), bench::POSITIONS.len());
    for l in &lines {
        let mut game = Game::from_fen(l.fen).unwrap();
        let best = l.best.unwrap_or_else(|| panic!("{}: no move", l.fen));
        assert!(game.legal_moves().contains(&best), "{}: {best}", l.fen);
        assert!(l.playouts <= bench::DEFAULT_PLAYOUTS, "{}", l.fen);
    }
    let total: u64 = lines.iter().map(|l| l.signature).sum();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/signature-mcts.txt");
    let want: u64 = std::fs::read_to_string(&path)
        .expect("bench/signature-mcts.txt")
        .trim()
        .parse()
        .expect("a number");
    assert_eq!(
        total, want,
        "the MCTS bench's trees changed: the search's behaviour changed; if on purpose, \
         update bench/signature-mcts.txt"
    );
}

/// `datagen --option Search=mcts` writes whole, valid positions, the same
/// ones each run (MCTS by playouts repeats itself), and not PVS's.
#[test]
fn datagen_plays_by_mcts_when_the_option_says_so() {
    let dir = scratch::dir("mcts-datagen");
    let data = |flags: &str| {
        let out = dir.join("d.bin");
        let _ = std::fs::remove_file(&out);
        let line = format!(
            "datagen {} --positions 40 --nodes 300 {flags}",
            out.display()
        );
        let args = datagen::Args::try_parse_from(line.split_whitespace()).unwrap();
        let config = datagen::Config::new(&args).unwrap();
        datagen::run(&config).unwrap();
        (config.engine.algorithm, data::read(&out).unwrap())
    };
    let (algorithm, by_mcts) = data("--option Search=mcts");
    assert_eq!(algorithm, Algorithm::Mcts);
    assert_eq!(by_mcts.len(), 40);
    for s in &by_mcts {
        assert!(s.score.abs() < MATE_BOUND as i16, "{}", s.score);
        assert!(!Game::from_fen(&fen::to_fen(&s.board)).unwrap().is_over());
    }
    assert_eq!(data("--option search=MCTS").1, by_mcts);
    let (algorithm, by_pvs) = data("");
    assert_eq!(algorithm, Algorithm::Pvs);
    let scores = |d: &[Sample]| d.iter().map(|s| s.score).collect::<Vec<_>>();
    assert_ne!(scores(&by_mcts), scores(&by_pvs));
    std::fs::remove_dir_all(&dir).unwrap();
}
