//! The move policy: a distribution over a position's moves, the priors of
//! the Monte-Carlo tree search. Linear: a move's logit is `w · x`, `x` its
//! [`features`] (the zap score and one active binary feature per group),
//! and the distribution the softmax of the logits. `leiserchess
//! train-policy` fits `w` to the moves a fixed-depth PVS chooses.
//!
//! [`Policy::heuristic`] is the plain heuristic the weights start from:
//! the zap score alone, at [`TEMPERATURE`].
//!
//! File format (`.policy`, little endian): the 8-byte magic `LPOLICY\0`;
//! `u32` version (1); `u32` the feature count (must be
//! [`features::COUNT`]); that many `f32` weights, each finite and within
//! ±[`MAX_WEIGHT`], in feature order. Nothing after them.

pub mod features;

use crate::rules::board::Board;
use crate::user_text::quote;
use features::{Candidate, Position, ACTIVE, COUNT, HEURISTIC};
use std::fmt;
use std::sync::{Arc, LazyLock};

/// The heuristic's temperature, in the zap score's units. At 1 a move
/// that zaps an enemy Pawn is e² ≈ 7.4 times as likely a first pick as a
/// quiet one; a quiet move among a hundred still gets about 1%.
pub const TEMPERATURE: f64 = 1.0;

const MAGIC: &[u8; 8] = b"LPOLICY\0";

/// The format's version.
pub const VERSION: u32 = 1;

/// Bytes before the weights: magic, version, feature count.
const HEADER: usize = 16;

/// The largest weight a policy may have, either sign: far beyond any
/// trained policy's (the embedded one's largest is 3.2), far below where a
/// move's logit (the zap score times its weight, plus twelve more weights)
/// would overflow `f32` and make every prior NaN.
pub const MAX_WEIGHT: f32 = 1e6;

/// The largest policy file `load` reads: over a hundred times today's
/// (7.8 KB), so that a wrong file is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The policy embedded in the binary: the default of `PolicyFile`, from
/// `leiserchess train-policy` on 40,000 self-play positions labelled by
/// a depth-5 PVS (BENCHMARKS.md, "MCTS policy (issue 27)": the command,
/// the data and its held-out agreement).
const EMBEDDED: &[u8] = include_bytes!("default.policy");

/// A linear move policy: one weight a feature.
#[derive(Clone, PartialEq, Debug)]
pub struct Policy {
    weights: Vec<f32>,
}

/// Why bytes are not a policy.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PolicyError {
    BadMagic,
    Version(u32),
    /// The file's feature count, when this engine has [`COUNT`].
    Features(u32),
    /// The length the header promises, and the length found.
    Length {
        want: usize,
        got: usize,
    },
    /// The weight of this feature is a NaN or an infinity.
    NotFinite(usize),
    /// The weight of this feature is beyond [`MAX_WEIGHT`], either sign.
    TooLarge(usize),
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PolicyError::BadMagic => write!(f, "not a policy file (no LPOLICY header)"),
            PolicyError::Version(v) => {
                write!(f, "format version {v}, this engine reads version {VERSION}")
            }
            PolicyError::Features(n) => {
                write!(f, "the policy has {n} features, this engine {COUNT}")
            }
            PolicyError::Length { want, got } => {
                write!(f, "the file has {got} bytes, its header promises {want}")
            }
            PolicyError::NotFinite(i) => write!(
                f,
                "weight {i} (at byte {}) is not a finite number",
                HEADER + 4 * i
            ),
            PolicyError::TooLarge(i) => write!(
                f,
                "weight {i} (at byte {}) is beyond ±{MAX_WEIGHT}",
                HEADER + 4 * i
            ),
        }
    }
}

impl std::error::Error for PolicyError {}

impl Policy {
    /// The policy of these weights, one a feature.
    pub fn new(weights: Vec<f32>) -> Result<Policy, PolicyError> {
        if weights.len() != COUNT {
            return Err(PolicyError::Features(weights.len() as u32));
        }
        if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
            return Err(PolicyError::NotFinite(i));
        }
        if let Some(i) = weights.iter().position(|w| w.abs() > MAX_WEIGHT) {
            return Err(PolicyError::TooLarge(i));
        }
        Ok(Policy { weights })
    }

    /// The plain heuristic: the zap score at [`TEMPERATURE`], nothing else.
    pub fn heuristic() -> Policy {
        let mut weights = vec![0.0; COUNT];
        weights[HEURISTIC] = (1.0 / TEMPERATURE) as f32;
        Policy { weights }
    }

    /// The policy built into the engine.
    pub fn embedded() -> Policy {
        Policy::from_bytes(EMBEDDED).expect("the embedded policy is well formed")
    }

    /// The policy built into the engine, parsed once and shared.
    pub fn shared_embedded() -> Arc<Policy> {
        static POLICY: LazyLock<Arc<Policy>> = LazyLock::new(|| Arc::new(Policy::embedded()));
        POLICY.clone()
    }

    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The logit of a move of zap score `score` and active features
    /// `active`.
    #[inline(always)]
    fn logit(&self, score: f32, active: &[usize; ACTIVE]) -> f32 {
        let w = &self.weights;
        active
            .iter()
            .fold(w[HEURISTIC] * score, |sum, &i| sum + w[i])
    }

    /// The priors of `moves` (generated moves of `b`) into `out`, in their
    /// order: at least 0 (positive but for extreme weights), summing to 1.
    pub fn priors(&self, b: &Board, moves: &[Candidate], out: &mut Vec<f64>) {
        let position = Position::new(b);
        out.clear();
        out.extend(moves.iter().map(|c| {
            let (score, active) = position.indices(b, c);
            f64::from(self.logit(score, &active))
        }));
        softmax(out);
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 4 * COUNT);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(COUNT as u32).to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Parses and checks a policy file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Policy, PolicyError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(PolicyError::BadMagic);
        }
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        };
        let short = || PolicyError::Length {
            want: HEADER,
            got: bytes.len(),
        };
        let version = word(8).ok_or_else(short)?;
        if version != VERSION {
            return Err(PolicyError::Version(version));
        }
        let count = word(12).ok_or_else(short)?;
        if count as usize != COUNT {
            return Err(PolicyError::Features(count));
        }
        let want = HEADER + 4 * COUNT;
        if bytes.len() != want {
            return Err(PolicyError::Length {
                want,
                got: bytes.len(),
            });
        }
        let weights = bytes[HEADER..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        Policy::new(weights)
    }

    /// Reads a policy file; the error names the file.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Policy, String> {
        let path = path.as_ref();
        crate::user_file::read(path, MAX_FILE_BYTES)
            .and_then(|bytes| Policy::from_bytes(&bytes).map_err(|e| e.to_string()))
            .map_err(|e| format!("policy file '{}': {e}", quote(&path.display().to_string())))
    }
}

/// Replaces each of `xs` by its softmax: positive, summing to 1 (the
/// largest is taken off first so that no exponential overflows).
pub fn softmax(xs: &mut [f64]) {
    let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for x in xs.iter_mut() {
        *x = (*x - top).exp();
        sum += *x;
    }
    for x in xs.iter_mut() {
        *x /= sum;
    }
}

#[cfg(test)]
mod tests;
