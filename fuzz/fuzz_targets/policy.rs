//! The move policy loader (`PolicyFile`): `Policy::from_bytes` on any
//! bytes. A policy that loads must write back exactly the input, and its
//! priors on the positions of an opening must be what MCTS takes them
//! for: a distribution, every prior finite and at least 0, summing to 1.

#![no_main]

use leiserchess::eval::policy::features::candidates;
use leiserchess::eval::policy::Policy;
use leiserchess_fuzz::walk;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let policy = match Policy::from_bytes(data) {
        Ok(p) => p,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    assert_eq!(policy.to_bytes(), data);
    let (mut moves, mut priors) = (Vec::new(), Vec::new());
    for game in walk() {
        let b = game.board();
        moves.clear();
        candidates(b, &mut moves);
        policy.priors(b, &moves, &mut priors);
        assert_eq!(priors.len(), moves.len());
        assert!(
            priors.iter().all(|p| p.is_finite() && *p >= 0.0),
            "priors {priors:?}"
        );
        let sum: f64 = priors.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "priors sum to {sum}");
    }
});
