//! A tree edge: a node's move with its prior, its playouts' count and sum,
//! its child and its proof, packed into 24 bytes.

use crate::rules::moves::Move;

/// No child yet.
pub const NONE: u32 = u32::MAX;
/// No child yet, and one on its way: the position is being evaluated for
/// a playout on another thread (`parallel`).
pub const PENDING: u32 = u32::MAX - 1;

/// A proven result, from the view of the side that plays the edge's move;
/// a King zap with the plies until it, the edge's own move the first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proof {
    Win(u16),
    Loss(u16),
    Draw,
}

impl Proof {
    /// The exact expected result.
    pub fn value(self) -> f64 {
        match self {
            Proof::Win(_) => 1.0,
            Proof::Loss(_) => 0.0,
            Proof::Draw => 0.5,
        }
    }
}

/// A move from a node, in 24 bytes: the tree holds every move of each
/// node it makes, about 80, so an edge's size is most of a node's.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub mv: Move,
    /// [`Edge::prior`] as the upper half of its `f32` (a `bfloat16`: 8
    /// bits of mantissa, within 0.4%).
    prior: u16,
    /// [`Edge::proof`] packed by [`pack_proof`].
    proof: u16,
    /// Playouts through this edge still on their way (on other threads):
    /// selection counts them as visits that lost, so that the playouts in
    /// flight spread over the tree.
    pub in_flight: u16,
    pub visits: u32,
    pub child: u32,
    /// The sum of the playouts' values through this edge (each 0 to 1,
    /// the mover's expected result).
    pub w: f64,
}

impl Edge {
    pub fn new(mv: Move, prior: f32, proof: Option<Proof>) -> Edge {
        let mut e = Edge {
            mv,
            prior: 0,
            proof: pack_proof(proof),
            in_flight: 0,
            visits: 0,
            child: NONE,
            w: 0.0,
        };
        e.set_prior(prior);
        e
    }

    /// The move's prior probability.
    pub fn prior(&self) -> f32 {
        f32::from_bits(u32::from(self.prior) << 16)
    }

    /// Sets the prior (a finite, non-negative share), rounded to the
    /// nearest `bfloat16`.
    pub fn set_prior(&mut self, prior: f32) {
        let bits = prior.to_bits();
        let round = 0x7FFF + ((bits >> 16) & 1);
        self.prior = (bits.saturating_add(round) >> 16) as u16;
    }

    /// The edge's proven result, if any.
    pub fn proof(&self) -> Option<Proof> {
        unpack_proof(self.proof)
    }

    pub fn set_proof(&mut self, proof: Option<Proof>) {
        self.proof = pack_proof(proof);
    }

    /// The child node, if one has been made.
    pub fn child(&self) -> Option<u32> {
        (self.child < PENDING).then_some(self.child)
    }

    /// The mean value for the mover: exact when proven.
    pub fn q(&self) -> Option<f64> {
        match self.proof() {
            Some(p) => Some(p.value()),
            None if self.visits > 0 => Some(self.w / f64::from(self.visits)),
            None => None,
        }
    }
}

/// The most plies a packed proof counts (more are counted as this many).
const PROOF_PLIES: u16 = u16::MAX >> 2;

/// A proof in 16 bits: 0 none, else the plies above the two low bits,
/// which tell a win (1), a loss (2) or a draw (3).
fn pack_proof(proof: Option<Proof>) -> u16 {
    match proof {
        None => 0,
        Some(Proof::Win(k)) => k.min(PROOF_PLIES) << 2 | 1,
        Some(Proof::Loss(k)) => k.min(PROOF_PLIES) << 2 | 2,
        Some(Proof::Draw) => 3,
    }
}

fn unpack_proof(bits: u16) -> Option<Proof> {
    match bits & 3 {
        0 => None,
        1 => Some(Proof::Win(bits >> 2)),
        2 => Some(Proof::Loss(bits >> 2)),
        _ => Some(Proof::Draw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn an_edge_keeps_its_proof_and_its_prior_in_24_bytes() {
        let h0l = Move::parse("h0L").unwrap();
        assert_eq!(size_of::<Edge>(), 24);
        let proofs = [
            None,
            Some(Proof::Draw),
            Some(Proof::Win(1)),
            Some(Proof::Loss(2)),
            Some(Proof::Win(PROOF_PLIES)),
            Some(Proof::Loss(977)),
        ];
        for proof in proofs {
            let mut e = Edge::new(h0l, 0.25, proof);
            assert_eq!(e.proof(), proof);
            e.set_proof(Some(Proof::Draw));
            assert_eq!(e.proof(), Some(Proof::Draw));
        }
        let long = Edge::new(h0l, 0.25, Some(Proof::Loss(u16::MAX)));
        assert_eq!(long.proof(), Some(Proof::Loss(PROOF_PLIES)));
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..10_000 {
            let p = rng.f32().powi(4);
            let e = Edge::new(h0l, p, None);
            assert!((e.prior() - p).abs() <= p / 256.0, "{p} {}", e.prior());
        }
        assert_eq!(Edge::new(h0l, 0.0, None).prior(), 0.0);
        assert_eq!(Edge::new(h0l, 1.0, None).prior(), 1.0);
    }
}
