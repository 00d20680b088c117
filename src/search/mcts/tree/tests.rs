//! The searches' schedule (`due`), their priors (`lead`), selection among
//! proven edges and by PUCT's constants (`mcts_cpuct`, `mcts_fpu`), and
//! the move played at the root.

use super::*;

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

/// A root with two moves, the first grown into a node with two moves, the
/// first of those into a node with one, each by the playout that reached
/// it.
fn chain() -> Tree {
    let mut t = Tree::new(1 << 20);
    t.add_root(&[
        Edge::new(mv("h0L"), 0.5, None),
        Edge::new(mv("g4L"), 0.5, None),
    ]);
    let path = [(ROOT, 0), (1, 2)];
    let a = t.add(
        &[
            Edge::new(mv("b3L"), 0.5, None),
            Edge::new(mv("b4L"), 0.5, None),
        ],
        0,
    );
    t.edges[0].child = a.unwrap();
    t.backup(&path[..1], 0.6);
    let b = t.add(&[Edge::new(mv("h1L"), 1.0, None)], 0);
    t.edges[2].child = b.unwrap();
    t.backup(&path, 0.3);
    for n in &mut t.nodes {
        n.ordered = n.len;
    }
    t
}

/// A node is 24 bytes, as an edge is: the arena's budget holds about
/// 80 edges to each node (BENCHMARKS.md, "Playouts per second").
#[test]
fn a_node_takes_24_bytes() {
    assert_eq!(size_of::<Node>(), 24);
}

#[test]
fn a_node_is_due_once_without_growth_and_at_each_growth_with_it() {
    let mut t = chain();
    let due_at = |t: &mut Tree, grow: f64| {
        (1..=300)
            .filter_map(|v| {
                t.nodes[1].visits = v;
                t.due(1, Some(4), grow).map(|k| (v, k))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(due_at(&mut t, 0.0), vec![(4, 0)]);
    t.nodes[1].searches = 0;
    assert_eq!(due_at(&mut t, 1.0), vec![(4, 0)]);
    t.nodes[1].searches = 0;
    assert_eq!(
        due_at(&mut t, 4.0),
        vec![(4, 0), (16, 1), (64, 2), (256, 3)]
    );
    t.nodes[1].searches = 0;
    let half = [(4, 0), (6, 1), (9, 2), (14, 3), (21, 4), (31, 5), (46, 6)];
    assert_eq!(due_at(&mut t, 1.5)[..7], half[..], "at 4·1.5^k, rounded up");
    t.nodes[1].searches = 0;
    assert_eq!(
        t.due(1, None, 4.0),
        None,
        "no searches without mcts_ab_visits"
    );
    t.nodes[1].searches = MAX_SEARCHES as u8 + 1;
    t.nodes[1].visits = u32::MAX;
    assert_eq!(
        t.due(1, Some(1), 2.0),
        None,
        "no more than MAX_SEARCHES again"
    );
}

/// A node searched again with the same best move keeps its priors: the
/// PV's share does not compound towards 1; a new best move gets it.
#[test]
fn leading_twice_with_one_move_gives_its_share_once() {
    let mut t = chain();
    t.lead(1, mv("b3L"), 0.7);
    let once: Vec<f32> = t.edges[2..4].iter().map(|e| e.prior()).collect();
    assert!((once[0] - 0.85).abs() < 0.01, "{once:?}");
    t.lead(1, mv("b3L"), 0.7);
    let twice: Vec<f32> = t.edges[2..4].iter().map(|e| e.prior()).collect();
    assert_eq!(once, twice);
    t.lead(1, mv("b4L"), 0.7);
    assert!(t.edges[3].prior() > 0.7, "{:?}", t.edges[3]);
}

/// PUCT never picks a proven loss for the mover while an edge without
/// a proof is in reach, however high the loss's prior and low the
/// other's; with only losses left it picks one.
#[test]
fn selection_passes_over_a_proven_loss() {
    let mut t = chain();
    t.edges[2].set_prior(0.99);
    t.edges[3].set_prior(0.01);
    t.edges[2].set_proof(Some(Proof::Loss(1)));
    t.edges[2].visits = 500;
    t.nodes[1].visits = 501;
    assert_eq!(t.select(1), 3);
    assert_eq!(t.select_plain(1), 3);
    t.edges[3].set_proof(Some(Proof::Loss(3)));
    assert!([2, 3].contains(&t.select(1)));
}

/// The move at a node (`Search=mcts`'s at the root): the quickest
/// proven win whatever the visits, else the most visited edge not proven
/// lost, else, all lost, the longest defence.
#[test]
fn the_move_is_a_proven_win_else_the_most_visited_edge_not_lost() {
    let mut t = chain();
    assert_eq!(t.best(ROOT), Some(0), "h0L has the playouts");
    t.edges[1].visits = 5;
    assert_eq!(t.best(ROOT), Some(1), "g4L has more");
    t.edges[1].set_proof(Some(Proof::Loss(2)));
    assert_eq!(t.best(ROOT), Some(0), "g4L is proven lost");
    t.edges[1].set_proof(None);
    t.edges[0].set_proof(Some(Proof::Win(3)));
    assert_eq!(t.best(ROOT), Some(0), "h0L is proven won");
    t.edges[0].set_proof(Some(Proof::Loss(1)));
    t.edges[1].set_proof(Some(Proof::Loss(4)));
    assert_eq!(t.best(ROOT), Some(1), "g4L holds out longest");
}

/// A root whose two moves `h0L` and `g4L` have priors `priors`, and
/// (visits, summed value) `played` each; one more playout made the root.
fn two_moves(priors: [f32; 2], played: [(u32, f64); 2]) -> Tree {
    let mut t = Tree::new(1 << 20);
    t.add_root(&[
        Edge::new(mv("h0L"), priors[0], None),
        Edge::new(mv("g4L"), priors[1], None),
    ]);
    for (e, (visits, w)) in t.edges.iter_mut().zip(played) {
        e.visits = visits;
        e.w = w;
    }
    t.nodes[0].visits = 1 + played[0].0 + played[1].0;
    t
}

/// The move PUCT picks at the root under `params`' constants.
fn picked(mut t: Tree, params: crate::search::Params) -> Move {
    t.puct = Puct::of(&params);
    let i = t.select(ROOT);
    t.edges[i].mv
}

/// `mcts_cpuct` weighs the priors against the means: a low constant
/// plays the move of the better mean (h0L, 0.6 over 20 playouts), the
/// default explores the move of the larger prior (g4L, 0.3 over one).
#[test]
fn the_exploration_constant_trades_the_mean_for_the_prior() {
    let t = || two_moves([0.2, 0.8], [(20, 12.0), (1, 0.3)]);
    let with = |c| crate::search::Params {
        mcts_cpuct: c,
        ..Default::default()
    };
    assert_eq!(picked(t(), with(10)), mv("h0L"));
    assert_eq!(picked(t(), with(150)), mv("g4L"));
}

/// `mcts_fpu` values an untried move below its node's mean (0.7 here):
/// at the default 0.1 below, the untried g4L is tried; a whole point
/// below, the tried h0L is played again.
#[test]
fn first_play_urgency_decides_whether_an_untried_move_comes_next() {
    let t = || two_moves([0.7, 0.3], [(4, 2.8), (0, 0.0)]);
    let with = |fpu| crate::search::Params {
        mcts_fpu: fpu,
        ..Default::default()
    };
    assert_eq!(picked(t(), with(10)), mv("g4L"));
    assert_eq!(picked(t(), with(100)), mv("h0L"));
}
