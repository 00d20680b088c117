//! How a run shares `--memory`: the net's state and the reader's buffers
//! first, then two windows (the one trained on and the one read ahead),
//! then the held-out positions if they fit (else they are read again after
//! each epoch), then more windows read ahead. A window is counted at the
//! most features a position of the data has, so the bound holds whatever
//! positions a window gets; memory set aside and not written to is not
//! resident.

use super::model::Model;
use super::set::{Set, PARTS, POSITION_BYTES};
use super::survey::{Survey, K_SAMPLE};
use super::Args;
use crate::lab::data::Sample;
use crate::lab::tune::Point;
use std::mem::size_of;

const MB: usize = 1 << 20;

/// The process's own resident memory besides the trainer's data: the
/// allocator's, the threads' stacks, the files' buffers.
const BASELINE: usize = 4 * MB;

/// A game's positions as the reader holds them while it expands them:
/// games of format 2 have 4,096.
const GAME_POSITIONS: usize = 4096;

/// The run's share of the memory.
#[derive(Debug, PartialEq)]
pub struct Plan {
    /// Records a window holds: `--window`, or the most training records a
    /// file has if that is fewer.
    pub window: usize,
    /// Windows in memory at once, at least 2.
    pub slots: usize,
    /// Whether the held-out positions are kept from one epoch to the next.
    pub keep_held_out: bool,
}

impl Plan {
    /// Positions (mirrored too) in a window of `records`.
    pub fn positions(a: &Args, records: usize) -> usize {
        records * if a.mirror { 2 } else { 1 }
    }

    /// Bytes a window takes at most: its positions, their features and
    /// their order.
    fn window_bytes(a: &Args, s: &Survey, window: usize) -> usize {
        let n = Self::positions(a, window);
        n * (POSITION_BYTES + size_of::<usize>() + 2 * s.max_feats)
    }

    /// An empty window's set, its storage set aside.
    pub fn window_set(&self, a: &Args, s: &Survey) -> Set {
        let n = Self::positions(a, self.window);
        Set::with_capacity(n, n * s.max_feats)
    }

    /// The steps of an epoch: each window's positions cut into batches,
    /// its last batch what is left.
    pub fn steps_per_epoch(&self, a: &Args, s: &Survey) -> usize {
        let steps = |records: usize| Self::positions(a, records).div_ceil(a.batch);
        s.files
            .iter()
            .map(|&(_, train)| train / self.window * steps(self.window) + steps(train % self.window))
            .sum()
    }
}

/// The bytes every run takes besides its windows and held-out positions.
fn fixed(a: &Args) -> usize {
    let params = Model::len(a.beam) * size_of::<f32>();
    // The model, Adam's two moments, the parts' gradients, their sum.
    let state = params * (3 + PARTS + 1);
    let bars = K_SAMPLE * (size_of::<Point>() * 2 + 2 * size_of::<f64>());
    let game = 2 * GAME_POSITIONS * size_of::<Sample>();
    BASELINE + state + bars + game
}

/// The plan of a run over the data `s` describes, or why `--memory` cannot
/// hold it.
pub fn plan(a: &Args, s: &Survey) -> Result<Plan, String> {
    let largest = s.files.iter().map(|f| f.1).max().unwrap_or(0);
    let window = a.window.min(largest).max(1);
    let (memory, fixed) = (a.memory * MB, fixed(a));
    let per = Plan::window_bytes(a, s, window);
    let mb = |b: usize| b.div_ceil(MB);
    if memory < fixed + 2 * per {
        return Err(format!(
            "--memory {} cannot hold the net's state and the reader's buffers ({} MB) and two windows of {window} records ({} MB each at {} features a position{}): raise --memory to {} or lower --window",
            a.memory,
            mb(fixed),
            mb(per),
            s.max_feats,
            if a.mirror { ", mirrored" } else { "" },
            mb(fixed + 2 * per)
        ));
    }
    let held_out = s.held_out * POSITION_BYTES + 2 * s.held_out_feats;
    let keep_held_out = memory - fixed - 2 * per >= held_out;
    let left = memory - fixed - if keep_held_out { held_out } else { 0 };
    let windows: usize = s.files.iter().map(|f| f.1.div_ceil(window)).sum();
    Ok(Plan {
        window,
        slots: (left / per).min(windows + 1).max(2),
        keep_held_out,
    })
}
