//! The SPSA loop (`autotest::spsa`) on a fake engine: a pair's result is
//! drawn from an Elo model in which the engine's strength depends on one
//! option, `-(x - 37)^2 / 10` Elo, so the tuner must find 37. Every draw
//! is seeded by the iteration, so runs are reproducible and a resumed run
//! can be compared with an unbroken one.

use crate::common::scratch;
use autotest::tune::spsa::{self, PairJob, Param, Spsa, State};
use std::collections::BTreeSet;

/// The optimum of the fake.
const OPTIMUM: f64 = 37.0;

/// The fake's strength at `x`, in Elo.
fn strength(x: i64) -> f64 {
    -((x as f64 - OPTIMUM).powi(2)) / 10.0
}

/// A pair under the Elo model: two games, each won by `theta+` with the
/// logistic probability of the strength difference (no draws); r is its
/// points minus `theta-`'s. The games' randomness comes from `seed` and
/// the iteration only.
fn fake_pair(seed: u64, job: &PairJob) -> i32 {
    let diff = strength(job.plus[0]) - strength(job.minus[0]);
    let p = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
    let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(1_000_003) ^ job.iteration);
    (0..2).map(|_| if rng.f64() < p { 1 } else { -1 }).sum()
}

fn param(start: f64) -> Param {
    Param {
        name: "x".to_string(),
        start,
        min: 0.0,
        max: 200.0,
        c: 10.0,
        a: None,
    }
}

/// A whole run of `iterations` pairs from `start`, one pair at a time.
fn tune(seed: u64, start: f64, iterations: u64) -> State {
    let s = Spsa::new(vec![param(start)], iterations, seed);
    let mut state = s.start();
    spsa::run(&s, &mut state, 1, |j| fake_pair(seed, j), |_, _, _| Ok(())).unwrap();
    state
}

/// From 150 (113 away), 3000 pairs with the default gains land near 37.
/// The tolerance: over 200 seeds, this model and these gains end at a mean
/// of 36.7 with a standard deviation of 5.3 (the noise of single pairs
/// that the late, small steps still carry), all of them within 19..53. So
/// each run must end within 20 (nearly 4 sd) and the mean of 10 runs
/// within 5 (3 sd of a mean of 10, 1.7); a tuner that does not converge,
/// or climbs the wrong way, ends far outside both.
#[test]
fn spsa_finds_the_optimum_of_an_elo_model() {
    let ends: Vec<f64> = (1..=10)
        .map(|seed| tune(seed, 150.0, 3000).theta[0])
        .collect();
    for end in &ends {
        assert!((end - OPTIMUM).abs() < 20.0, "{ends:?}");
    }
    let mean = ends.iter().sum::<f64>() / ends.len() as f64;
    assert!((mean - OPTIMUM).abs() < 5.0, "mean {mean}: {ends:?}");
    // And from below.
    let up = tune(11, 0.0, 3000).theta[0];
    assert!((up - OPTIMUM).abs() < 20.0, "{up}");
}

/// Runs are reproducible: the same seed gives the same trajectory.
#[test]
fn a_seed_gives_the_same_run() {
    assert_eq!(tune(5, 120.0, 300), tune(5, 120.0, 300));
    assert_ne!(tune(5, 120.0, 300), tune(6, 120.0, 300));
}

/// A run stopped after 40 pairs, saved as a state file and read back,
/// goes on from iteration 40 with the same theta, and ends where an
/// unbroken run ends.
#[test]
fn a_resumed_run_equals_an_unbroken_one() {
    let (seed, n) = (3, 100);
    let whole = tune(seed, 150.0, n);
    let s = Spsa::new(vec![param(150.0)], n, seed);
    let mut state = s.start();
    let stop = spsa::run(
        &s,
        &mut state,
        1,
        |j| fake_pair(seed, j),
        |_, _, st| {
            if st.iteration == 40 {
                Err("stopped".to_string())
            } else {
                Ok(())
            }
        },
    );
    assert_eq!(stop, Err("stopped".to_string()));
    assert_eq!(state.iteration, 40);
    let path = scratch::dir("spsa/resumed").join("state.txt");
    spsa::write_file(&path, &state.to_text(&s.params)).unwrap();
    let mut resumed = State::load(&path, &s.params).unwrap().unwrap();
    assert_eq!(resumed, state, "the state file keeps theta exactly");
    let mut first = None;
    spsa::run(
        &s,
        &mut resumed,
        1,
        |j| fake_pair(seed, j),
        |job, _, _| {
            first.get_or_insert(job.iteration);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(first, Some(40));
    assert_eq!(resumed, whole);
}

/// With several pairs at once, every iteration is played and applied
/// exactly once, and the result still lands near the optimum.
#[test]
fn concurrent_pairs_are_each_applied_once() {
    let s = Spsa::new(vec![param(150.0)], 3000, 9);
    let mut state = s.start();
    let mut seen = BTreeSet::new();
    spsa::run(
        &s,
        &mut state,
        4,
        |j| fake_pair(9, j),
        |job, _, _| {
            assert!(seen.insert(job.iteration), "{} twice", job.iteration);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(seen, (0..3000).collect());
    assert_eq!(state.iteration, 3000);
    assert!((state.theta[0] - OPTIMUM).abs() < 20.0, "{:?}", state.theta);
}
