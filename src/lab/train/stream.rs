//! The reader: a thread that reads the data again for every epoch and
//! hands the trainer windows of expanded positions while it trains on the
//! last ones.
//!
//! An epoch takes the files in an order shuffled by the seed and the
//! epoch; each file's training positions (its games not held out, in
//! order) are cut into windows of `--window` records, each window's
//! positions (with `--mirror` each followed by its reflection) shuffled by
//! the seed, the epoch, the file and the window. The order is the
//! recipe's alone: `--memory` decides only how many windows are read
//! ahead. After the training windows come the held-out positions, in the
//! files' order, unless the trainer keeps them from the first epoch.

use super::games::games;
use super::plan::Plan;
use super::set::Set;
use super::survey::Survey;
use super::{blended, held_out_game, mirror, Args};
use crate::lab::data::Sample;
use std::sync::mpsc::{Receiver, Sender};

/// Positions with the order they are trained in.
pub struct Window {
    pub set: Set,
    pub order: Vec<usize>,
}

/// What the reader sends.
pub enum Msg {
    /// A window of training positions.
    Train(Window),
    /// The epoch's training windows are all sent.
    TrainEnd,
    /// Held-out positions, in the data's order.
    HeldOut(Window),
    /// The held-out positions are all sent.
    HeldOutEnd,
    /// A file could not be read.
    Failed(String),
}

/// Why the reader stops early.
enum Stop {
    /// The trainer stopped listening.
    Gone,
    Failed(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Failed(e)
    }
}

/// The reader's view of the run.
pub struct Reader<'a> {
    pub a: &'a Args,
    pub survey: &'a Survey,
    pub plan: &'a Plan,
    pub k: f64,
    pub tx: Sender<Msg>,
    /// Windows the trainer is done with.
    pub free: Receiver<Window>,
}

impl Reader<'_> {
    /// Reads epochs `first..=--epochs`, or until the trainer stops.
    pub fn run(self, first: usize) {
        for epoch in first..=self.a.epochs {
            let held_out = !self.plan.keep_held_out || epoch == first;
            match self.epoch(epoch, held_out) {
                Ok(()) => {}
                Err(Stop::Gone) => return,
                Err(Stop::Failed(e)) => {
                    let _ = self.tx.send(Msg::Failed(e));
                    return;
                }
            }
        }
    }

    fn send(&self, m: Msg) -> Result<(), Stop> {
        self.tx.send(m).map_err(|_| Stop::Gone)
    }

    /// An empty window: one the trainer is done with, or, for held-out
    /// positions it keeps, a new one.
    fn window(&self, new: bool) -> Result<Window, Stop> {
        if new {
            return Ok(Window {
                set: self.plan.window_set(self.a, self.survey),
                order: Vec::new(),
            });
        }
        let mut w = self.free.recv().map_err(|_| Stop::Gone)?;
        w.set.clear();
        w.order.clear();
        Ok(w)
    }

    fn push(&self, set: &mut Set, s: &Sample, mirrored: bool) {
        let result = s.outcome.score_for(s.board.side());
        let target = blended(self.a, result, f64::from(s.score), self.k) as f32;
        set.push(s, self.a.beam, target);
        if mirrored {
            let m = Sample {
                board: mirror::mirror(&s.board),
                ..s.clone()
            };
            set.push(&m, self.a.beam, target);
        }
    }

    /// Window `at` of file `f` in `epoch`, shuffled, sent.
    fn send_train(&self, mut w: Window, epoch: usize, f: usize, at: usize) -> Result<(), Stop> {
        let seed = self.a.seed
            ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (f as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9)
            ^ (at as u64 + 1).wrapping_mul(0x94d0_49bb_1331_11eb);
        w.order.extend(0..w.set.len());
        fastrand::Rng::with_seed(seed).shuffle(&mut w.order);
        self.send(Msg::Train(w))
    }

    fn epoch(&self, epoch: usize, held_out: bool) -> Result<(), Stop> {
        let a = self.a;
        let mut files: Vec<usize> = (0..a.files.len()).collect();
        fastrand::Rng::with_seed(a.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .shuffle(&mut files);
        for f in files {
            let first = self.survey.first_game(f);
            let (mut window, mut at, mut in_window) = (None, 0, 0);
            let (mut count, mut train) = (0, 0);
            for g in games(&a.files[f])? {
                let g = g?;
                count += 1;
                if held_out_game(first + count - 1, a) {
                    continue;
                }
                train += g.samples.len();
                for s in &g.samples {
                    let w = match &mut window {
                        Some(w) => w,
                        None => window.insert(self.window(false)?),
                    };
                    self.push(&mut w.set, s, a.mirror);
                    in_window += 1;
                    if in_window == self.plan.window {
                        let w = window.take().expect("a window being filled");
                        self.send_train(w, epoch, f, at)?;
                        (at, in_window) = (at + 1, 0);
                    }
                }
            }
            if let Some(w) = window {
                self.send_train(w, epoch, f, at)?;
            }
            if (count, train) != self.survey.files[f] {
                return Err(Stop::Failed(format!(
                    "{}: changed while training: {count} games and {train} training positions, {} and {} before",
                    a.files[f].display(),
                    self.survey.files[f].0,
                    self.survey.files[f].1
                )));
            }
        }
        self.send(Msg::TrainEnd)?;
        if held_out {
            self.held_out(self.plan.keep_held_out)?;
        }
        Ok(())
    }

    /// The held-out positions, in windows new (to be kept) or reused.
    fn held_out(&self, new: bool) -> Result<(), Stop> {
        let mut window: Option<Window> = None;
        let mut game = 0;
        for path in &self.a.files {
            for g in games(path)? {
                let g = g?;
                game += 1;
                if !held_out_game(game - 1, self.a) {
                    continue;
                }
                for s in &g.samples {
                    let w = match &mut window {
                        Some(w) => w,
                        None => window.insert(self.window(new)?),
                    };
                    self.push(&mut w.set, s, false);
                    if w.set.len() == self.plan.window {
                        self.send(Msg::HeldOut(window.take().expect("a window")))?;
                    }
                }
            }
        }
        if let Some(w) = window {
            self.send(Msg::HeldOut(w))?;
        }
        self.send(Msg::HeldOutEnd)
    }
}
