//! How a run shares `--memory`. If every window and the held-out
//! positions fit beside the net's state and the reader's buffers, all are
//! kept after the first epoch reads them and later epochs read nothing.
//! Else come two windows (the one trained on and the one read ahead), then
//! the held-out positions if they fit (else they are read again after
//! each epoch), then more windows read ahead. The survey counts every
//! window's features, so each is set aside at the size it will take
//! (memory set aside and never written is not resident).

use super::model::Model;
use super::set::{Set, MAX_FEATS, PARTS, POSITION_BYTES};
use super::survey::{Survey, K_SAMPLE};
use super::Args;
use crate::lab::data::Sample;
use crate::lab::tune::Point;
use std::mem::size_of;

const MB: usize = 1 << 20;

/// The process's own resident memory besides the trainer's data: the
/// allocator's, the threads' stacks, the files' buffers.
const BASELINE: usize = 2 * MB;

/// A game's positions as the reader holds them while it expands them:
/// games of format 2 have 4,096.
const GAME_POSITIONS: usize = 4096;

/// A training window's bytes besides its set's: its order.
const ORDER_BYTES: usize = size_of::<usize>();

/// The run's share of the memory.
#[derive(Debug, PartialEq)]
pub struct Plan {
    /// Every window kept from the first epoch on.
    pub keep_all: bool,
    /// The held-out positions kept from the first epoch on.
    pub keep_held_out: bool,
    /// Windows read ahead and reused (none if all are kept), at least 2.
    pub slots: usize,
    /// A reused window's room: positions and features.
    pub slot: (usize, usize),
}

impl Plan {
    /// Positions (mirrored too) of `records`.
    pub fn positions(a: &Args, records: usize) -> usize {
        records * if a.mirror { 2 } else { 1 }
    }

    /// The positions and features of window `at` of file `f`.
    pub fn window(a: &Args, s: &Survey, f: usize, at: usize) -> (usize, usize) {
        let file = &s.files[f];
        let records = a.window.min(file.train - at * a.window);
        (Self::positions(a, records), file.windows[at])
    }

    /// The positions and features of run `at` of file `f`'s held-out
    /// positions.
    pub fn held_out_chunk(a: &Args, s: &Survey, f: usize, at: usize) -> (usize, usize) {
        let file = &s.files[f];
        let positions = a.window.min(file.held_out - at * a.window);
        (positions, file.held_out_chunks[at])
    }

    /// A new window's set with room for `(positions, features)`.
    pub fn set((positions, feats): (usize, usize)) -> Set {
        Set::with_capacity(positions, feats)
    }

    /// The steps of an epoch: each window's positions cut into batches,
    /// its last batch what is left.
    pub fn steps_per_epoch(a: &Args, s: &Survey) -> usize {
        windows(a, s)
            .map(|(positions, _)| positions.div_ceil(a.batch))
            .sum()
    }
}

/// Every training window's positions and features, file by file.
fn windows<'a>(a: &'a Args, s: &'a Survey) -> impl Iterator<Item = (usize, usize)> + 'a {
    s.files
        .iter()
        .enumerate()
        .flat_map(move |(f, file)| (0..file.windows.len()).map(move |at| Plan::window(a, s, f, at)))
}

/// The bytes every run takes besides its windows and held-out positions.
fn fixed(a: &Args) -> usize {
    let params = Model::len(a.beam) * size_of::<f32>();
    // The model, Adam's two moments, the parts' gradients, their sum.
    let state = params * (3 + PARTS + 1);
    let bars = K_SAMPLE * (size_of::<Point>() + 2 * size_of::<f64>());
    let game = 2 * GAME_POSITIONS * size_of::<Sample>();
    BASELINE + state + bars + game
}

/// The plan of a run over the data `s` describes, or why `--memory` cannot
/// hold it.
pub fn plan(a: &Args, s: &Survey) -> Result<Plan, String> {
    let (memory, fixed) = (a.memory * MB, fixed(a));
    let held_out: usize = s
        .files
        .iter()
        .map(|f| f.held_out * POSITION_BYTES + 2 * f.held_out_chunks.iter().sum::<usize>())
        .sum();
    let bytes =
        |(positions, feats): (usize, usize)| positions * (POSITION_BYTES + ORDER_BYTES) + 2 * feats;
    let all: usize = windows(a, s).map(bytes).sum();
    if fixed + held_out + all <= memory {
        return Ok(Plan {
            keep_all: true,
            keep_held_out: true,
            slots: 0,
            slot: (0, 0),
        });
    }
    let slot = windows(a, s).fold((0, MAX_FEATS), |(p, f), w| (p.max(w.0), f.max(w.1)));
    let per = bytes(slot);
    let mb = |b: usize| b.div_ceil(MB);
    if memory < fixed + 2 * per {
        return Err(format!(
            "--memory {} cannot hold the net's state and the reader's buffers ({} MB) and two windows of --window {} records ({} MB each with these positions{}): raise --memory to {} or lower --window",
            a.memory,
            mb(fixed),
            a.window,
            mb(per),
            if a.mirror { ", mirrored" } else { "" },
            mb(fixed + 2 * per)
        ));
    }
    let keep_held_out = memory - fixed - 2 * per >= held_out;
    let left = memory - fixed - if keep_held_out { held_out } else { 0 };
    Ok(Plan {
        keep_all: false,
        keep_held_out,
        slots: (left / per).min(windows(a, s).count() + 1),
        slot,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::train::survey::FileSurvey;
    use clap::Parser;

    /// Four windows of 1,024 records taking 1 MB each and 1,024 held-out
    /// positions taking 3 MB, planned in `fixed` + `mb` MB (rounded up).
    fn plan_in(mb: usize) -> Result<Plan, String> {
        let w = 1024;
        let a = Args::try_parse_from(["train", "d.bin", "--out", "n.nnue", "--window", "1024"])
            .unwrap();
        let file = FileSurvey {
            games: 10,
            train: 4 * w,
            held_out: w,
            held_out_chunks: vec![(3 * MB - w * POSITION_BYTES) / 2],
            windows: vec![(MB - w * (POSITION_BYTES + ORDER_BYTES)) / 2; 4],
        };
        let s = Survey {
            files: vec![file],
            k: 1.0,
            bar: 0.0,
            bar_target: 0.0,
            against: None,
        };
        let a = Args {
            memory: fixed(&a).div_ceil(MB) + mb,
            ..a
        };
        plan(&a, &s)
    }

    #[test]
    fn the_memory_keeps_what_fits_and_refuses_less_than_two_windows() {
        let plan = plan_in(7).unwrap();
        assert!(plan.keep_all && plan.keep_held_out, "{plan:?}");
        let plan = plan_in(6).unwrap();
        assert!(
            !plan.keep_all && plan.keep_held_out && plan.slots == 3,
            "{plan:?}"
        );
        let plan = plan_in(4).unwrap();
        assert!(!plan.keep_held_out && plan.slots == 4, "{plan:?}");
        assert_eq!(plan.slot.0, 1024);
        assert_eq!(
            plan_in(100).unwrap().slots,
            0,
            "nothing reused when all is kept"
        );
        assert_eq!(plan_in(50).unwrap(), plan_in(7).unwrap());
        let e = plan_in(1).unwrap_err();
        assert!(
            e.contains("two windows of --window 1024 records (1 MB each"),
            "{e}"
        );
        let a = Args::try_parse_from(["train", "d.bin", "--out", "n.nnue"]).unwrap();
        let need = fixed(&a).div_ceil(MB) + 2;
        assert!(
            e.ends_with(&format!(": raise --memory to {need} or lower --window")),
            "{e}"
        );
    }
}
