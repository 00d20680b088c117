//! Where a leaf's value leans, measured on trees grown from the bench
//! positions. A quiescence (`mcts_ab` 1) scores a
//! position well above the evaluation for the side to move: it stands pat
//! or zaps, and every move fires a laser. Deeper searches do not swing
//! with the depth's parity. What does lean is an edge's second value: its
//! first came from a leaf search that assumed the opponent's best reply,
//! the second from the reply PUCT tried first, the policy's, often worse
//! for the opponent; so an edge's mean rose with its visits. Giving the
//! leaf search's best move the first try (`mcts_pv_prior`) levels it.
//!
//! `cargo test --release --lib mcts::playout::bias -- --include-ignored
//! --nocapture` prints the figures; BENCHMARKS.md has them.

use super::tests::fresh;
use super::*;
use crate::rules::fen;
use crate::search::bench::POSITIONS;
use crate::search::pvs::search_depth;

/// Over the first `positions` bench positions, `playouts` each: the mean
/// of each edge's second backed-up value minus its first, from its
/// mover's view, and the edges measured.
fn second_minus_first(params: Params, positions: usize, playouts: usize) -> (f64, usize) {
    let shared = Shared::new(16, 4);
    let (mut sum, mut count) = (0.0, 0);
    for text in &POSITIONS[..positions] {
        let root = Root::new(fen::parse(text).unwrap());
        let mut order = Order::default();
        let mut s = fresh(&root, params, &shared, &mut order);
        let mut first = std::collections::HashMap::new();
        for _ in 0..playouts {
            if s.tree.solve(ROOT).is_some() {
                break;
            }
            s.playout();
            for &(_, e) in &s.path {
                let edge = s.tree.edges[e];
                match (edge.proof(), edge.visits) {
                    (None, 1) => {
                        first.insert(e, edge.w);
                    }
                    (None, 2) => {
                        if let Some(f) = first.get(&e) {
                            sum += edge.w - 2.0 * f;
                            count += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    (sum / count as f64, count)
}

fn with(mcts_ab: u32, mcts_pv_prior: u32) -> Params {
    Params {
        mcts_ab,
        mcts_pv_prior,
        mcts_ab_visits: 0,
        ..Params::default()
    }
}

/// The second value minus the first, by leaf value.
fn second_values(positions: usize, playouts: usize) -> Vec<f64> {
    let settings = [
        ("the evaluation", with(0, 0)),
        ("mcts_ab 1", with(1, 0)),
        ("mcts_ab 2", with(2, 0)),
        ("mcts_ab 2, mcts_pv_prior 50", with(2, 50)),
    ];
    let mut means = Vec::new();
    for (name, params) in settings {
        let (mean, edges) = second_minus_first(params, positions, playouts);
        println!("second value minus first, {name}: {mean:+.4} over {edges} edges");
        means.push(mean);
    }
    means
}

#[test]
fn the_search_s_best_move_tried_first_levels_an_edge_s_values() {
    let m = second_values(6, 600);
    // Measured: +0.007, +0.064, +0.070, +0.007.
    assert!(m[0].abs() < 0.03, "{m:?}");
    assert!(m[1] > 0.05 && m[2] > 0.05, "{m:?}");
    assert!(m[3].abs() < 0.03, "{m:?}");
}

#[test]
#[ignore = "a measurement (BENCHMARKS.md): 24 positions, 3,000 playouts each"]
fn second_values_in_full() {
    second_values(POSITIONS.len(), 3000);
}

/// The positions an MCTS tree reaches from each bench position, one every
/// 20 playouts of 400.
fn tree_positions(params: Params, shared: &Shared) -> Vec<Root> {
    let mut roots = Vec::new();
    for text in POSITIONS {
        let root = Root::new(fen::parse(text).unwrap());
        let mut order = Order::default();
        let mut s = fresh(&root, params, shared, &mut order);
        for i in 0..400 {
            if s.tree.solve(ROOT).is_some() {
                break;
            }
            s.playout();
            if i % 20 == 0 && s.path.len() > 1 {
                let mut order = Order::default();
                let mut w = Walker::new(&root, params, shared, &mut order, Plan::unbounded());
                for &(_, e) in &s.path {
                    w.play(s.tree.edges[e].mv);
                }
                if !w.is_draw() {
                    let mut r = Root::new(w.board.clone());
                    r.history = w.trail.keys().to_vec();
                    roots.push(r);
                }
            }
        }
    }
    roots
}

/// The expected result of `r` for its side to move: the evaluation's
/// (`None`), or a PVS of `d` plies (0: the quiescence alone).
fn value(r: &Root, d: Option<u32>, params: Params, shared: &Shared) -> f64 {
    let mut order = Order::default();
    let Some(d) = d else {
        let w = Walker::new(r, params, shared, &mut order, Plan::unbounded());
        return expected(w.static_cp());
    };
    if d > 0 {
        return expected(search_depth(r, d, params, 16, 4).last.unwrap().score);
    }
    let q = Params {
        mcts_ab: 1,
        ..params
    };
    let mut leaf =
        super::super::leaf::LeafSearch::new(r, q, shared, &mut order, Plan::unbounded()).unwrap();
    let (cp, _) = leaf
        .score(
            super::Ask::Leaf,
            &r.board,
            &r.history,
            0,
            None,
            r.board.side(),
        )
        .unwrap();
    expected(cp)
}

#[test]
fn the_quiescence_leans_to_the_side_to_move_and_depth_parity_does_not() {
    // Trees grown from the evaluation alone, as measured.
    let params = Params {
        mcts_ab: 0,
        ..Params::default()
    };
    let shared = Shared::new(16, 4);
    let roots = tree_positions(params, &shared);
    let depths = [None, Some(0), Some(1), Some(2), Some(3)];
    let mut diffs = Vec::new();
    for pair in depths.windows(2) {
        let sum: f64 = roots
            .iter()
            .map(|r| value(r, pair[0], params, &shared) - value(r, pair[1], params, &shared))
            .sum();
        let mean = sum / roots.len() as f64;
        println!(
            "depth {:?} minus {:?}: {mean:+.4} over {} positions",
            pair[0],
            pair[1],
            roots.len()
        );
        diffs.push(mean);
    }
    // Measured: −0.070, +0.001, +0.002, +0.005 over 291 positions.
    assert!(diffs[0] < -0.04, "{diffs:?}");
    assert!(diffs[1..].iter().all(|d| d.abs() < 0.02), "{diffs:?}");
}
