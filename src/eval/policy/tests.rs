use super::features::{zap_score, Candidate};
use super::*;
use crate::rules::fen;
use crate::rules::moves::MoveList;

/// Every move of `b` as a candidate.
fn candidates(b: &Board) -> Vec<Candidate> {
    let mut out = Vec::new();
    features::candidates(b, &mut out);
    out
}

/// Positions of random playouts from the start, no King zapped.
pub(super) fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    for seed in 0..20 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        for _ in 0..60 {
            out.push(b.clone());
            let mut list = MoveList::new();
            crate::rules::movegen::generate(&b, &mut list);
            let m = list.as_slice()[rng.usize(..list.len())];
            if b.make(m).king_zapped() {
                break;
            }
        }
    }
    out
}

fn random_policy(seed: u64) -> Policy {
    let mut rng = fastrand::Rng::with_seed(seed);
    Policy::new((0..COUNT).map(|_| rng.f32() * 6.0 - 3.0).collect()).unwrap()
}

#[test]
fn a_policy_round_trips_through_its_file() {
    let p = random_policy(3);
    let bytes = p.to_bytes();
    assert_eq!(bytes.len(), HEADER + 4 * COUNT);
    assert_eq!(Policy::from_bytes(&bytes).unwrap(), p);
}

#[test]
fn bad_files_are_named() {
    let bytes = random_policy(4).to_bytes();
    assert_eq!(Policy::from_bytes(b""), Err(PolicyError::BadMagic));
    assert_eq!(
        Policy::from_bytes(b"LNNUE1\0\0\x01\0\0\0"),
        Err(PolicyError::BadMagic)
    );
    assert_eq!(
        Policy::from_bytes(&bytes[..10]).unwrap_err().to_string(),
        "the file has 10 bytes, its header promises 16"
    );
    let mut version = bytes.clone();
    version[8] = 2;
    assert_eq!(
        Policy::from_bytes(&version).unwrap_err().to_string(),
        format!("format version 2, this engine reads version {VERSION}")
    );
    let mut count = bytes.clone();
    count[12..16].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        Policy::from_bytes(&count).unwrap_err().to_string(),
        format!("the policy has 7 features, this engine {COUNT}")
    );
    let short = &bytes[..bytes.len() - 3];
    assert_eq!(
        Policy::from_bytes(short),
        Err(PolicyError::Length {
            want: bytes.len(),
            got: short.len()
        })
    );
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        Policy::from_bytes(&long),
        Err(PolicyError::Length { .. })
    ));
    let mut nan = bytes.clone();
    let at = HEADER + 4 * 5;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(
        Policy::from_bytes(&nan).unwrap_err().to_string(),
        format!("weight 5 (at byte {at}) is not a finite number")
    );
}

#[test]
fn a_file_is_named_in_the_error() {
    let e = Policy::load("/no/such.policy").unwrap_err();
    assert!(
        e.starts_with("policy file '/no/such.policy': cannot read"),
        "{e}"
    );
    assert_eq!(
        Policy::load("/dev/zero").unwrap_err(),
        "policy file '/dev/zero': not a regular file (a FIFO, socket or device)"
    );
}

#[test]
fn priors_are_a_distribution() {
    let policies = [Policy::embedded(), Policy::heuristic(), random_policy(5)];
    let mut out = Vec::new();
    for b in positions() {
        let moves = candidates(&b);
        for p in &policies {
            p.priors(&b, &moves, &mut out);
            assert_eq!(out.len(), moves.len());
            assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(out.iter().all(|&x| x > 0.0 && x.is_finite()), "{out:?}");
        }
    }
}

/// The heuristic policy is the zap score's softmax at the temperature.
#[test]
fn the_heuristic_is_the_zap_scores_softmax() {
    let mut out = Vec::new();
    for b in positions().into_iter().step_by(7) {
        let moves = candidates(&b);
        let side = b.side();
        let mut want: Vec<f64> = moves
            .iter()
            .map(|c| zap_score(side, c.victim.map(|v| v.1)) / TEMPERATURE)
            .collect();
        softmax(&mut want);
        Policy::heuristic().priors(&b, &moves, &mut out);
        for (a, w) in out.iter().zip(&want) {
            assert!((a - w).abs() < 1e-6, "{a} {w}");
        }
    }
}

#[test]
fn softmax_is_a_distribution() {
    let mut s = vec![0.0, 2.0, 0.0, -8.0, 800.0];
    softmax(&mut s);
    assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(s.iter().all(|&p| p >= 0.0 && p.is_finite()));
    let mut t = vec![0.0, 2.0];
    softmax(&mut t);
    assert!((t[1] / t[0] - 2f64.exp()).abs() < 1e-9);
}

#[test]
fn the_embedded_policy_loads() {
    assert_eq!(Policy::embedded().weights().len(), COUNT);
    assert_eq!(Policy::embedded(), *Policy::shared_embedded());
}

/// A weight so large that a move's logit overflowed `f32` made every prior
/// NaN (the fuzz target `policy` found it): such a file is refused, naming
/// the weight; weights at the bound give a distribution.
#[test]
fn weights_beyond_the_bound_are_refused() {
    let mut bytes = Policy::embedded().to_bytes();
    bytes[HEADER..HEADER + 4].copy_from_slice(&(-2.5e38f32).to_le_bytes());
    assert_eq!(
        Policy::from_bytes(&bytes).unwrap_err().to_string(),
        format!("weight 0 (at byte {HEADER}) is beyond ±1000000")
    );
    let mut rng = fastrand::Rng::with_seed(9);
    let extreme = (0..COUNT).map(|_| if rng.bool() { MAX_WEIGHT } else { -MAX_WEIGHT });
    let policy = Policy::new(extreme.collect()).unwrap();
    let mut out = Vec::new();
    for b in positions().into_iter().step_by(5) {
        policy.priors(&b, &candidates(&b), &mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{out:?}");
        assert!(out.iter().all(|&x| x >= 0.0 && x.is_finite()), "{out:?}");
    }
}
