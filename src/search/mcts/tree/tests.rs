//! The searches' schedule (`due`), their values (`revalue`), their priors
//! (`lead`), selection among proven edges and the implicit minimax values.

use super::*;
use crate::check_rep::CheckRep;

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

/// A root with two moves, the first grown into a node with two moves, the
/// first of those into a node with one, each by the playout that reached
/// it: the path of three edges, and the playouts' values so far on its
/// last edge.
fn chain() -> (Tree, Vec<(u32, usize)>) {
    let mut t = Tree::new(1 << 20);
    t.add_root(&[
        Edge::new(mv("h0L"), 0.5, None),
        Edge::new(mv("g4L"), 0.5, None),
    ]);
    let path = vec![(ROOT, 0), (1, 2), (2, 4)];
    let a = t.add(
        &[
            Edge::new(mv("b3L"), 0.5, None),
            Edge::new(mv("b4L"), 0.5, None),
        ],
        0,
        0.4,
    );
    t.edges[0].child = a.unwrap();
    t.backup(&path[..1], 0.6);
    let b = t.add(&[Edge::new(mv("h1L"), 1.0, None)], 0, 0.7);
    t.edges[2].child = b.unwrap();
    t.backup(&path[..2], 0.3);
    for n in &mut t.nodes {
        n.ordered = n.len;
    }
    (t, path)
}

#[test]
fn a_node_is_due_once_without_growth_and_at_each_growth_with_it() {
    let (mut t, _) = chain();
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

/// The edge into the searched node takes the search's value for `share`
/// of its mean; each edge above moves by as much, the other way at each
/// ply, and the tree's invariants hold.
#[test]
fn a_search_revalues_its_edge_and_moves_its_ancestors_alike() {
    for share in [1.0, 0.5] {
        let (mut t, path) = chain();
        for v in [0.2, 0.4] {
            t.backup(&path, v);
        }
        t.backup(&[(ROOT, 0), (1, 3)], 0.9);
        let before: Vec<f64> = path.iter().map(|&(_, e)| t.edges[e].w).collect();
        let (n, w) = (f64::from(t.edges[4].visits), t.edges[4].w);
        let delta = share * (n * 0.8 - w);
        t.revalue(&path, 0.8, share);
        for (i, &(_, e)) in path.iter().enumerate() {
            let sign = if (path.len() - 1 - i) % 2 == 0 {
                1.0
            } else {
                -1.0
            };
            let want = before[i] + sign * delta;
            assert!((t.edges[e].w - want).abs() < 1e-12, "edge {e} at {share}");
        }
        let q = t.edges[4].q().unwrap();
        assert!(
            (q - (share * 0.8 + (1.0 - share) * 0.3)).abs() < 1e-12,
            "{q}"
        );
        assert_eq!(t.check_rep(), Ok(()));
    }
}

#[test]
fn a_proven_or_unvisited_edge_is_not_revalued() {
    let (mut t, path) = chain();
    let w: Vec<f64> = t.edges.iter().map(|e| e.w).collect();
    t.revalue(&path, 0.8, 1.0);
    t.revalue(&[], 0.8, 1.0);
    assert_eq!(t.edges.iter().map(|e| e.w).collect::<Vec<_>>(), w);
    t.backup(&path, 0.4);
    t.edges[4].set_proof(Some(Proof::Draw));
    let proven: Vec<f64> = t.edges.iter().map(|e| e.w).collect();
    t.revalue(&path, 0.8, 1.0);
    assert_eq!(t.edges.iter().map(|e| e.w).collect::<Vec<_>>(), proven);
    assert_eq!(proven[4], 0.4);
}

/// A node searched again with the same best move keeps its priors: the
/// PV's share does not compound towards 1; a new best move gets it.
#[test]
fn leading_twice_with_one_move_gives_its_share_once() {
    let (mut t, _) = chain();
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
    let (mut t, _) = chain();
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

/// With `mcts_minimax`, each backup sets the nodes on its path to the
/// best of their edges' minimax values: one strong reply found below a
/// move takes its value down at once, where its mean moves by half, and
/// PUCT (here without exploration) turns to the other move.
#[test]
fn minimax_backs_up_the_best_reply_and_steers_selection() {
    let grow = |t: &mut Tree, e: usize, own: f64| {
        let child = t.add(&[Edge::new(mv("b3L"), 1.0, None)], 0, own).unwrap();
        t.edges[e].child = child;
        child
    };
    for minimax in [0.0, 0.5] {
        let mut t = Tree::new(1 << 20);
        t.puct.c = 0.0;
        t.puct.minimax = minimax;
        t.add_root(&[
            Edge::new(mv("h0L"), 0.5, None),
            Edge::new(mv("g4L"), 0.5, None),
        ]);
        let a = grow(&mut t, 0, 0.4);
        let up = |t: &mut Tree, path: &[(u32, usize)], value: f64| {
            t.backup(path, value);
            t.minimax_up(path);
        };
        up(&mut t, &[(ROOT, 0)], 0.6);
        grow(&mut t, 1, 0.7);
        up(&mut t, &[(ROOT, 1)], 0.3);
        // Below h0L the reply b3L leaves the root's side with 0.1.
        let b3l = t.range(a).start;
        grow(&mut t, b3l, 0.1);
        up(&mut t, &[(ROOT, 0), (a, b3l)], 0.9);
        assert!((t.edges[0].q().unwrap() - 0.35).abs() < 1e-9);
        if minimax == 0.0 {
            assert_eq!(t.nodes[ROOT as usize].minimax, 0.5);
            assert_eq!(t.select_plain(ROOT), 0);
            continue;
        }
        assert!((t.nodes[a as usize].minimax - 0.9).abs() < 1e-6);
        assert!((t.edge_minimax(&t.edges[0]).unwrap() - 0.1).abs() < 1e-6);
        assert!((t.nodes[ROOT as usize].minimax - 0.3).abs() < 1e-6);
        assert_eq!(t.select_plain(ROOT), 1);
    }
}

/// The move at a node (`Search=mcts`'s at the root): the quickest
/// proven win whatever the visits, else the most visited edge not proven
/// lost, else, all lost, the longest defence.
#[test]
fn the_move_is_a_proven_win_else_the_most_visited_edge_not_lost() {
    let (mut t, _) = chain();
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

/// With `mcts_ab_minimax`, a searched node's minimax value is its search's
/// score whatever its edges back up, and its ancestors take it by minimax;
/// without, the search leaves the minimax alone.
#[test]
fn a_search_s_score_is_its_node_s_minimax_when_asked() {
    for asked in [false, true] {
        let (mut t, path) = chain();
        t.puct.minimax = 0.5;
        t.puct.searched_minimax = asked;
        t.score(1, 0.4);
        t.backup(&path, 0.9);
        t.minimax_up(&path);
        let below = t.best_minimax(1).unwrap();
        let node = f64::from(t.nodes[1].minimax);
        if asked {
            assert!((node - 0.4).abs() < 1e-6);
            let root = f64::from(t.nodes[ROOT as usize].minimax);
            assert!((root - 0.6).abs() < 1e-6);
        } else {
            assert!((node - below).abs() < 1e-6);
        }
        assert!((below - 0.4).abs() > 0.1);
    }
}
