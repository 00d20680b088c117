//! PUCT's selection reads only a node's edges up to the first untried one;
//! the oracle reads them all. Over random nodes grown by random playouts
//! (values, playouts in flight, edges proven on the way, King zaps proven
//! from the start, priors given anew to a searched move) both pick the
//! same edge every time.

use leiserchess::rules::moves::Move;
use leiserchess::search::mcts::tree::{Edge, Proof, Tree, ROOT};

/// A root of `n` random moves with random priors summing to 1; some moves
/// zap the mover's own King (proven lost from the start).
fn random_root(rng: &mut fastrand::Rng, n: usize) -> Tree {
    let mut priors: Vec<f32> = (0..n).map(|_| rng.f32().powi(3) + 1e-4).collect();
    // Some exact ties: the order among them must not matter.
    if n > 3 {
        priors[2] = priors[1];
    }
    let sum: f32 = priors.iter().sum();
    let mut edges = Vec::new();
    let mut bits = 1u16..;
    while edges.len() < n {
        let Some(mv) = Move::from_bits(bits.next().unwrap()) else {
            continue;
        };
        let i = edges.len();
        let proof = (rng.u8(..20) == 0).then_some(Proof::Loss(1));
        edges.push(Edge::new(mv, priors[i] / sum, proof));
    }
    let mut t = Tree::new(1 << 20);
    t.add_root(&edges);
    t
}

#[test]
fn select_reads_fewer_edges_and_picks_as_the_oracle() {
    let mut rng = fastrand::Rng::with_seed(27);
    for case in 0..300 {
        let n = rng.usize(1..160);
        let mut t = random_root(&mut rng, n);
        let mut flying: Vec<usize> = Vec::new();
        let mut leads = 0;
        for step in 0..rng.usize(1..400) {
            let e = t.select(ROOT);
            assert_eq!(e, t.select_plain(ROOT), "case {case} step {step}");
            if rng.u8(..40) == 0 {
                let mv = t.edges[rng.usize(..n)].mv;
                t.lead(ROOT, mv, rng.f32());
                // Each lead rounds every prior to within 2^-8 of itself.
                leads += 1;
                let sum: f32 = t.edges.iter().map(|e| e.prior()).sum();
                let within = leads as f32 / 256.0 + 1e-4;
                assert!(
                    (sum - 1.0).abs() < within,
                    "case {case}: priors sum to {sum}"
                );
                continue;
            }
            match rng.u8(..10) {
                // A playout in flight through it, landing later.
                0 | 1 => {
                    t.edges[e].in_flight += 1;
                    flying.push(e);
                }
                // A playout landing at once.
                _ => {
                    if t.edges[e].proof().is_none() && rng.u8(..30) == 0 {
                        t.edges[e].set_proof(Some(if rng.bool() {
                            Proof::Draw
                        } else {
                            Proof::Loss(3)
                        }));
                    }
                    t.backup(&[(ROOT, e)], rng.f64());
                }
            }
            if !flying.is_empty() && rng.u8(..3) == 0 {
                let f = flying.swap_remove(rng.usize(..flying.len()));
                t.release(&[(ROOT, f)]);
                t.backup(&[(ROOT, f)], rng.f64());
            }
        }
    }
}
