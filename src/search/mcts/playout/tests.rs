//! The playout's own tests: a leaf valued by alpha-beta (`mcts_ab`) with
//! its best move's prior, and a node searched once it has earned its
//! visits (`mcts_ab_visits`), and again as they grow (`mcts_ab_grow`);
//! the priors the policy gives, or not (`mcts_policy`).

use super::*;
use crate::rules::fen;
use crate::rules::game::Game;

/// A search of `root` over a new 64 MB tree, without a clock.
pub(super) fn fresh<'a>(
    root: &Root,
    params: Params,
    shared: &'a Shared,
    order: &'a mut Order,
) -> Search<'a> {
    Search::new(
        root,
        params,
        shared,
        64 << 20,
        None,
        order,
        Plan::unbounded(),
    )
}

/// With `mcts_ab` 2, a new node's value is a one-ply PVS's score from
/// its side to move, and with `mcts_pv_prior` that search's best move
/// gets that share of the priors, which still sum to 1.
#[test]
fn a_leaf_is_valued_by_a_pvs_and_its_best_move_is_tried_first() {
    let b = fen::parse(crate::search::bench::POSITIONS[3]).unwrap();
    let root = Root::new(b);
    let params = Params {
        mcts_ab: 2,
        mcts_pv_prior: 60,
        mcts_ab_visits: 0,
        ..Params::default()
    };
    let shared = Shared::new(16, 4);
    let mut order = Order::default();
    let mut s = fresh(&root, params, &shared, &mut order);
    s.playout();
    let &(_, e) = s.path.last().unwrap();
    let edge = s.tree.edges[e];
    let child = edge.child().expect("the playout made a node");
    let mut leaf = Game::new(root.board.clone());
    leaf.play(edge.mv).unwrap();
    let pvs = crate::search::pvs::search_depth(&Root::from_game(&leaf), 1, params, 16, 4);
    let it = pvs.last.unwrap();
    assert!(
        (edge.w - (1.0 - expected(it.score))).abs() < 1e-9,
        "{} {}",
        edge.w,
        it.score
    );
    let edges = &s.tree.edges[s.tree.range(child)];
    let best = edges
        .iter()
        .find(|c| Some(c.mv) == it.pv.first().copied())
        .unwrap();
    // Each prior is kept within 2^-8 of itself (`Edge::set_prior`).
    let sum: f32 = edges.iter().map(|c| c.prior()).sum();
    assert!((sum - 1.0).abs() < 1.0 / 256.0, "{sum}");
    // Off, the same node's priors are the policy's alone.
    let plain = Params {
        mcts_pv_prior: 0,
        ..params
    };
    let mut order = Order::default();
    let shared = Shared::new(16, 4);
    let mut s = fresh(&root, plain, &shared, &mut order);
    s.playout();
    let policy = &s.tree.edges[s.tree.range(child)];
    let alone = policy.iter().find(|c| c.mv == best.mv).unwrap().prior();
    let want = 0.4 * alone + 0.6;
    assert!(
        (best.prior() - want).abs() <= want / 256.0,
        "{} {alone}",
        best.prior()
    );
}

/// With `mcts_ab_visits` N, new leaves are valued by the evaluation, and
/// a node is searched once, by the playout that finds N playouts through
/// it: the search's best move gets `mcts_pv_prior` of its priors.
#[test]
fn a_node_is_searched_once_it_has_earned_its_visits() {
    let b = fen::parse(crate::search::bench::POSITIONS[3]).unwrap();
    let root = Root::new(b);
    let params = Params {
        mcts_ab: 2,
        mcts_ab_visits: 4,
        mcts_pv_prior: 60,
        ..Params::default()
    };
    let plain = Params {
        mcts_ab: 0,
        ..params
    };
    let shared = Shared::new(16, 4);
    let (mut order, mut plain_order) = (Order::default(), Order::default());
    let mut s = fresh(&root, params, &shared, &mut order);
    let mut p = fresh(&root, plain, &shared, &mut plain_order);
    let prior = |s: &Search, mv| {
        let edges = &s.tree.edges[s.tree.range(ROOT)];
        edges.iter().find(|e| e.mv == mv).unwrap().prior()
    };
    let pvs = crate::search::pvs::search_depth(&root, 1, params, 16, 4);
    let best = *pvs.last.unwrap().pv.first().unwrap();
    for _ in 0..4 {
        s.playout();
        p.playout();
        let (ws, wp) = (s.tree.edges[s.path[0].1].w, p.tree.edges[p.path[0].1].w);
        assert_eq!(ws, wp, "a new leaf is valued by the evaluation");
        assert_eq!(prior(&s, best), prior(&p, best), "searched too soon");
    }
    s.playout();
    let alone = prior(&p, best);
    let want = 0.4 * alone + 0.6;
    assert!(
        (prior(&s, best) - want).abs() <= want / 256.0,
        "{} {alone}",
        prior(&s, best)
    );
}

/// With `mcts_ab_grow` 200, a node is searched again each time its visits
/// have doubled, a ply deeper each time: the root at 4, 8, 16 and 32
/// playouts.
#[test]
fn a_node_is_searched_again_as_its_visits_grow() {
    let root = Root::new(fen::parse(crate::search::bench::POSITIONS[3]).unwrap());
    let params = Params {
        mcts_ab: 1,
        mcts_ab_visits: 4,
        mcts_ab_grow: 200,
        ..Params::default()
    };
    let shared = Shared::new(16, 4);
    let mut order = Order::default();
    let mut s = fresh(&root, params, &shared, &mut order);
    let mut searched_at = Vec::new();
    for _ in 0..40 {
        let (visits, searches) = (s.tree.nodes[0].visits, s.tree.nodes[0].searches);
        s.playout();
        if s.tree.nodes[0].searches > searches {
            searched_at.push(visits);
        }
    }
    assert_eq!(searched_at, vec![4, 8, 16, 32]);
}

/// With `mcts_policy` the root's priors are the trained policy's, which
/// tells quiet moves apart; off, the plain heuristic's, which scores a
/// move only by what its shot zaps: a handful of values at most.
#[test]
fn the_priors_come_from_the_policy_only_with_mcts_policy() {
    let root = Root::new(fen::parse(crate::search::bench::POSITIONS[3]).unwrap());
    let shared = Shared::new(16, 4);
    let distinct = |mcts_policy| {
        let params = Params {
            mcts_policy,
            ..Params::default()
        };
        let mut order = Order::default();
        let s = fresh(&root, params, &shared, &mut order);
        let mut priors: Vec<u32> = s.tree.edges[s.tree.range(ROOT)]
            .iter()
            .map(|e| e.prior().to_bits())
            .collect();
        priors.sort_unstable();
        priors.dedup();
        priors.len()
    };
    let (policy, plain) = (distinct(true), distinct(false));
    assert!(plain <= 5, "{plain} distinct plain priors");
    assert!(policy > 2 * plain, "{policy} distinct priors of the policy");
}
