//! The learned evaluation: a small network trained on self-play
//! (`leiserchess train`), integer-quantised for the search.
//!
//! Shape: the inputs of [`features`] (piece features, and beam features
//! when the net has them) seen from each side feed one shared layer of
//! [`HIDDEN`] units (the accumulator, kept up to date move by move by
//! [`accumulator`]); the side to move's units then the other side's, each
//! clipped to `0..=1`, feed one output. The output times [`SCALE`] is the
//! score in cp for the side to move.
//!
//! Quantisation: first-layer weights and biases are `round(QA × w)` in
//! `i16`, so a unit is clipped to `0..=QA`; output weights are
//! `round(QB × w)` and the output bias `round(QA × QB × b)` in `i32`.
//!
//! File format (`.nnue`, little endian): the 8-byte magic `LNNUE1\0\0`;
//! `u32` hidden units (H, 1 to [`HIDDEN`]: a net of fewer is widened with
//! units of zero weights, which add nothing); `u32` flags (bit 0: beam
//! features); the first layer's weights, `i16`, feature by feature, each
//! a row of H; its biases, `i16` × H; the output weights, `i16` × 2 H
//! (side to move's units first); the output bias, `i32`. Nothing after
//! it. This build writes H = [`HIDDEN`].

pub mod accumulator;
pub mod features;
pub mod kernels;

use crate::rules::board::Board;
use crate::user_text::quote;
use accumulator::Accumulator;
use kernels::Kernels;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// Units of the first layer, per perspective: 256 in a build with the
/// `hidden256` feature (an experiment's build; it plays the 128-unit nets,
/// the embedded one included, widened with units that add nothing).
pub const HIDDEN: usize = if cfg!(feature = "hidden256") {
    256
} else {
    128
};

/// A first-layer unit's clip, the quantisation of its weights.
pub const QA: i32 = 255;

/// The quantisation of the output weights.
pub const QB: i32 = 1024;

/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"LNNUE1\0\0";

/// The largest net file `load` reads: ten times today's largest net (all
/// inputs, 296 KB), so that a wrong file is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The net embedded in the binary: the default of `EvalFile`.
const EMBEDDED: &[u8] = include_bytes!("default.nnue");

/// A row of [`HIDDEN`] first-layer weights or sums, aligned so that the
/// vector kernels load it in whole cache lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Whether the inputs include the beam features.
    pub beam: bool,
    /// Per feature, its [`HIDDEN`] first-layer weights.
    pub ft_weights: Vec<Row>,
    pub ft_bias: Row,
    /// The side to move's [`HIDDEN`] units' weights, then the other side's.
    pub out_weights: [i16; 2 * HIDDEN],
    pub out_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "Network {{ beam: {}, {} inputs }}",
            self.beam,
            self.inputs()
        )
    }
}

/// Why bytes are not a network.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NetError {
    BadMagic,
    /// The file's hidden units, when this build takes 1 to [`HIDDEN`].
    Hidden(u32),
    UnknownFlags(u32),
    /// The length the header promises, and the length found.
    Length {
        want: usize,
        got: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a network file (no LNNUE1 header)"),
            NetError::Hidden(n) => {
                write!(f, "the net has {n} hidden units, this engine 1 to {HIDDEN}")
            }
            NetError::UnknownFlags(x) => write!(f, "unknown flags {x:#x} in the header"),
            NetError::Length { want, got } => {
                write!(f, "the file has {got} bytes, its header promises {want}")
            }
        }
    }
}

impl std::error::Error for NetError {}

impl Network {
    /// The net built into the engine.
    pub fn embedded() -> Network {
        Network::from_bytes(EMBEDDED).expect("the embedded net is well formed")
    }

    /// The embedded net's file (`default.nnue`), as the lab's store keeps
    /// it.
    pub fn embedded_bytes() -> &'static [u8] {
        EMBEDDED
    }

    /// The net built into the engine, parsed once and shared.
    pub fn shared_embedded() -> Arc<Network> {
        static NET: LazyLock<Arc<Network>> = LazyLock::new(|| Arc::new(Network::embedded()));
        NET.clone()
    }

    /// The number of input features.
    pub fn inputs(&self) -> usize {
        features::count(self.beam)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::length(self.beam, HIDDEN));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&u32::from(self.beam).to_le_bytes());
        let words = self.ft_weights.iter().flat_map(|r| &r.0);
        for w in words.chain(&self.ft_bias.0).chain(&self.out_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// The length of a file with or without the beam features, of
    /// `hidden` units.
    fn length(beam: bool, hidden: usize) -> usize {
        let inputs = features::count(beam);
        MAGIC.len() + 8 + 2 * (inputs * hidden + hidden + 2 * hidden) + 4
    }

    /// Parses and checks a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let hidden = word(8);
        if !(1..=HIDDEN).contains(&(hidden as usize)) {
            return Err(NetError::Hidden(hidden));
        }
        let h = hidden as usize;
        let beam = match word(12) {
            0 => false,
            1 => true,
            x => return Err(NetError::UnknownFlags(x)),
        };
        let want = Self::length(beam, h);
        if bytes.len() != want {
            return Err(NetError::Length {
                want,
                got: bytes.len(),
            });
        }
        let mut halves = bytes[16..want - 4]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        // A row of the file's `h` units, the rest of this build's zero.
        let mut row = || -> Row {
            Row(std::array::from_fn(|i| match i < h {
                true => halves.next().expect("the length was checked"),
                false => 0,
            }))
        };
        let inputs = features::count(beam);
        let ft_weights = (0..inputs).map(|_| row()).collect();
        let ft_bias = row();
        let (a, b) = (row(), row());
        let mut out_weights = [0; 2 * HIDDEN];
        out_weights[..HIDDEN].copy_from_slice(&a.0);
        out_weights[HIDDEN..].copy_from_slice(&b.0);
        let out_bias = i32::from_le_bytes(bytes[want - 4..].try_into().expect("4 bytes"));
        Ok(Network {
            beam,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// Reads a network file; the error names the file.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Network, String> {
        let path = path.as_ref();
        crate::user_file::read(path, MAX_FILE_BYTES)
            .and_then(|bytes| Network::from_bytes(&bytes).map_err(|e| e.to_string()))
            .map_err(|e| format!("net file '{}': {e}", quote(&path.display().to_string())))
    }

    /// The score in cp for the side to move of `b`, from an accumulator
    /// that holds `b`'s piece features: the beam features added and the
    /// output taken by the fastest [`Kernels`].
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, b: &Board) -> i32 {
        let k = Kernels::detect();
        let side = b.side();
        let paths = if self.beam {
            features::beam_squares(b)
        } else {
            [0; 2]
        };
        let mut rows = [0; features::BEAM_FEATURES];
        let [us, them] = [side, side.opp()].map(|view| {
            let n = features::beam_rows(paths, view, &mut rows);
            k.sum_rows(acc.row(view), &self.ft_weights, &rows[..n], &[])
        });
        Self::to_cp(
            k.output(&us, &them, &self.out_weights)
                .wrapping_add(self.out_bias),
        )
    }

    /// The oracle of [`Network::evaluate`]: the beam features from their
    /// plain iterator, added and output by the scalar kernels (which
    /// kernels.rs checks the vector ones against).
    pub fn evaluate_plain(&self, acc: &Accumulator, b: &Board) -> i32 {
        let side = b.side();
        let paths = features::beam_squares(b);
        let [us, them] = [side, side.opp()].map(|view| {
            let rows: Vec<u16> = match self.beam {
                true => features::beams_of(paths, view).map(|f| f as u16).collect(),
                false => Vec::new(),
            };
            kernels::scalar::sum_rows(acc.row(view), &self.ft_weights, &rows, &[])
        });
        let sum = kernels::scalar::output(&us, &them, &self.out_weights);
        Self::to_cp(sum.wrapping_add(self.out_bias))
    }

    /// The output layer's sum in cp.
    #[inline]
    fn to_cp(sum: i32) -> i32 {
        (sum as i64 * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(beam: bool) -> Network {
        let mut rng = fastrand::Rng::with_seed(7);
        let inputs = features::count(beam);
        Network {
            beam,
            ft_weights: (0..inputs)
                .map(|_| Row(std::array::from_fn(|_| rng.i16(-300..300))))
                .collect(),
            ft_bias: Row(std::array::from_fn(|_| rng.i16(-50..50))),
            out_weights: std::array::from_fn(|_| rng.i16(-100..100)),
            out_bias: rng.i32(-1000..1000),
        }
    }

    #[test]
    fn a_net_round_trips_through_its_file() {
        for beam in [false, true] {
            let n = tiny(beam);
            let bytes = n.to_bytes();
            assert_eq!(bytes.len(), Network::length(beam, HIDDEN));
            assert_eq!(Network::from_bytes(&bytes).unwrap(), n);
        }
    }

    #[test]
    fn bad_files_are_named() {
        let bytes = tiny(false).to_bytes();
        assert_eq!(
            Network::from_bytes(b"LBOOK1\0\0........"),
            Err(NetError::BadMagic)
        );
        for n in [0, HIDDEN as u32 + 1] {
            let mut hidden = bytes.clone();
            hidden[8..12].copy_from_slice(&n.to_le_bytes());
            assert_eq!(Network::from_bytes(&hidden), Err(NetError::Hidden(n)));
        }
        let mut flags = bytes.clone();
        flags[12] = 6;
        assert_eq!(Network::from_bytes(&flags), Err(NetError::UnknownFlags(6)));
        let short = &bytes[..bytes.len() - 1];
        let err = Network::from_bytes(short).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "the file has {} bytes, its header promises {}",
                short.len(),
                bytes.len()
            )
        );
        assert_eq!(Network::from_bytes(&[]), Err(NetError::BadMagic));
    }

    /// A file of fewer units loads as this build's width, the units it
    /// lacks all zero (a unit of zero weights and bias is 0, and its zero
    /// output weights add nothing).
    #[test]
    fn a_narrower_net_is_widened_with_units_of_zeros() {
        let h = HIDDEN / 2;
        let mut n = tiny(true);
        let mut file = MAGIC.to_vec();
        file.extend_from_slice(&(h as u32).to_le_bytes());
        file.extend_from_slice(&1u32.to_le_bytes());
        let rows = n.ft_weights.iter().chain([&n.ft_bias]);
        let halves = n.out_weights.chunks(HIDDEN);
        for w in rows
            .flat_map(|r| &r.0[..h])
            .chain(halves.flat_map(|o| &o[..h]))
        {
            file.extend_from_slice(&w.to_le_bytes());
        }
        file.extend_from_slice(&n.out_bias.to_le_bytes());
        for row in n.ft_weights.iter_mut().chain([&mut n.ft_bias]) {
            row.0[h..].fill(0);
        }
        for half in n.out_weights.chunks_mut(HIDDEN) {
            half[h..].fill(0);
        }
        assert_eq!(file.len(), Network::length(true, h));
        assert_eq!(Network::from_bytes(&file).unwrap(), n);
    }

    #[test]
    fn the_embedded_net_loads() {
        let n = Network::embedded();
        assert_eq!(n.inputs(), n.ft_weights.len());
    }
}
