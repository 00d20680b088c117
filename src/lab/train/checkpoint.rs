//! The trainer's checkpoint: everything `--resume` needs, in one file
//! (little endian): the magic `LTRAIN2\0`, the beam byte, the epochs done
//! (`u64`), Adam's step count (`u64`), the best held-out loss (`f64`), then
//! the parameters, Adam's first and second moments (`f32` each).

use super::model::{Adam, Model};

/// The trainer's state between epochs: what the checkpoint holds.
#[derive(Clone, PartialEq, Debug)]
pub struct State {
    pub model: Model,
    pub adam: Adam<f32>,
    /// Epochs done.
    pub epoch: usize,
    /// The lowest held-out loss after an epoch so far (infinite before the
    /// first): the net at `--out` is that epoch's.
    pub best: f64,
}

const CKPT_MAGIC: &[u8; 8] = b"LTRAIN2\0";

/// The checkpoint's header: magic, beam byte, epoch, Adam's step, best loss.
const CKPT_HEADER: usize = 33;

impl State {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = CKPT_MAGIC.to_vec();
        out.push(u8::from(self.model.beam));
        out.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        out.extend_from_slice(&self.adam.t.to_le_bytes());
        out.extend_from_slice(&self.best.to_le_bytes());
        for x in self
            .model
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<State, String> {
        if bytes.len() < CKPT_HEADER || &bytes[..8] != CKPT_MAGIC {
            return Err("not a training checkpoint (no LTRAIN2 header)".into());
        }
        let beam = match bytes[8] {
            0 => false,
            1 => true,
            x => return Err(format!("beam byte {x}, not 0 or 1")),
        };
        let len = Model::len(beam);
        let want = CKPT_HEADER + 3 * 4 * len;
        if bytes.len() != want {
            return Err(format!(
                "{} bytes, a checkpoint of this net has {want}",
                bytes.len()
            ));
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let floats: Vec<f32> = bytes[CKPT_HEADER..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        Ok(State {
            model: Model {
                beam,
                params: floats[..len].to_vec(),
            },
            adam: Adam::resume(
                floats[len..2 * len].to_vec(),
                floats[2 * len..].to_vec(),
                u64_at(17),
            ),
            epoch: u64_at(9) as usize,
            best: f64::from_bits(u64_at(25)),
        })
    }
}
