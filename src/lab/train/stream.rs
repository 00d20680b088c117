//! The reader: a thread that reads the data for every epoch and hands the
//! trainer windows of expanded positions while it trains on the last ones.
//!
//! An epoch takes the files in an order shuffled by the seed and the
//! epoch; each file's training positions (its games not held out, in
//! order) are cut into windows of `--window` records, each window's
//! positions (with `--mirror` each followed by its reflection) shuffled by
//! the seed, the epoch, the file and the window. The order is the
//! recipe's alone: the memory ([`Plan`]) decides only how many windows are
//! read ahead and what is kept rather than read again. After the training
//! windows come the held-out positions, in the files' order.

use super::plan::Plan;
use super::set::{Set, MAX_FEATS};
use super::survey::Survey;
use super::{blended, held_out_game, mirror, Args};
use crate::lab::data::games;
use crate::lab::data::Sample;
use std::sync::mpsc::{Receiver, Sender};

/// Positions with the order they are trained in.
pub struct Window {
    pub set: Set,
    pub order: Vec<usize>,
    /// The file (its place among those named) and the window's place in it.
    pub key: (usize, usize),
}

impl Window {
    pub fn new(set: Set) -> Window {
        Window {
            set,
            order: Vec::new(),
            key: (0, 0),
        }
    }
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
    /// Per file, its windows when all are kept.
    pub kept: Vec<Vec<Window>>,
}

impl Reader<'_> {
    /// Reads epochs `first..=--epochs`, or until the trainer stops.
    pub fn run(mut self, first: usize) {
        for epoch in first..=self.a.epochs {
            match self.epoch(epoch, epoch == first) {
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

    /// An empty window for window `at` of file `f`: a new one of its size
    /// when all are kept, else one the trainer is done with.
    fn window(&self, f: usize, at: usize) -> Result<Window, Stop> {
        if self.plan.keep_all {
            let room = Plan::window(self.a, self.survey, f, at);
            return Ok(Window::new(Plan::set(room)));
        }
        self.reused()
    }

    fn reused(&self) -> Result<Window, Stop> {
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

    /// Window `w`, shuffled for `epoch`, sent.
    fn send_train(&self, mut w: Window, epoch: usize) -> Result<(), Stop> {
        let (f, at) = w.key;
        let seed = self.a.seed
            ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (f as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9)
            ^ (at as u64 + 1).wrapping_mul(0x94d0_49bb_1331_11eb);
        w.order.clear();
        w.order.extend(0..w.set.len());
        fastrand::Rng::with_seed(seed).shuffle(&mut w.order);
        self.send(Msg::Train(w))
    }

    /// Every window of the last epoch back from the trainer, to be kept.
    fn gather(&mut self) -> Result<(), Stop> {
        let windows: usize = self.survey.files.iter().map(|f| f.windows.len()).sum();
        for _ in 0..windows {
            let w = self.free.recv().map_err(|_| Stop::Gone)?;
            self.kept[w.key.0].push(w);
        }
        for file in &mut self.kept {
            file.sort_by_key(|w| w.key.1);
        }
        Ok(())
    }

    /// Epoch `epoch`'s training windows, then its held-out positions
    /// unless the trainer keeps them from an earlier epoch of this run.
    fn epoch(&mut self, epoch: usize, first: bool) -> Result<(), Stop> {
        let a = self.a;
        if self.plan.keep_all && !first {
            self.gather()?;
        }
        let mut files: Vec<usize> = (0..a.files.len()).collect();
        fastrand::Rng::with_seed(a.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .shuffle(&mut files);
        // Kept held-out positions are gathered in the first epoch's pass.
        let gather_held_out = self.plan.keep_held_out && first;
        let mut held_out: Vec<Vec<Set>> = (0..a.files.len()).map(|_| Vec::new()).collect();
        for f in files {
            if !self.kept[f].is_empty() {
                for w in std::mem::take(&mut self.kept[f]) {
                    self.send_train(w, epoch)?;
                }
                continue;
            }
            let held = gather_held_out.then_some(&mut held_out[f]);
            self.read_file(f, epoch, held)?;
        }
        self.send(Msg::TrainEnd)?;
        if gather_held_out {
            for set in held_out.into_iter().flatten() {
                self.send(Msg::HeldOut(Window::new(set)))?;
            }
            self.send(Msg::HeldOutEnd)?;
        } else if !self.plan.keep_held_out {
            self.held_out()?;
        }
        Ok(())
    }

    /// File `f`'s training windows for `epoch`, sent; its held-out
    /// positions into `held` if given, in sets of `--window` positions
    /// each of the size the survey found.
    fn read_file(
        &self,
        f: usize,
        epoch: usize,
        mut held: Option<&mut Vec<Set>>,
    ) -> Result<(), Stop> {
        let a = self.a;
        let first = self.survey.first_game(f);
        let (mut window, mut at, mut in_window) = (None, 0, 0);
        let (mut count, mut train) = (0, 0);
        for g in games(&a.files[f])? {
            let g = g?;
            count += 1;
            if held_out_game(first + count - 1, a) {
                if let Some(held) = held.as_mut() {
                    for s in &g.samples {
                        if held.last().is_none_or(|set| set.len() == a.window) {
                            if held.len() == self.survey.files[f].held_out_chunks.len() {
                                return Err(self.changed(f, "more held-out positions"));
                            }
                            let room = Plan::held_out_chunk(a, self.survey, f, held.len());
                            held.push(Plan::set(room));
                        }
                        let set = held.last_mut().expect("a held-out set");
                        self.push(set, s, false);
                    }
                }
                continue;
            }
            train += g.samples.len();
            for s in &g.samples {
                let w = match &mut window {
                    Some(w) => w,
                    None if at == self.survey.files[f].windows.len() => {
                        return Err(self.changed(f, "more training positions"));
                    }
                    None => window.insert(self.window(f, at)?),
                };
                self.push(&mut w.set, s, a.mirror);
                in_window += 1;
                if in_window == a.window {
                    let mut w = window.take().expect("a window being filled");
                    w.key = (f, at);
                    self.send_train(w, epoch)?;
                    (at, in_window) = (at + 1, 0);
                }
            }
        }
        if let Some(mut w) = window {
            w.key = (f, at);
            self.send_train(w, epoch)?;
        }
        let had = &self.survey.files[f];
        if (count, train) != (had.games, had.train) {
            let now = format!(
                "{count} games and {train} training positions, {} and {} before",
                had.games, had.train
            );
            return Err(self.changed(f, &now));
        }
        Ok(())
    }

    /// The error of file `f` found other than the survey found it.
    fn changed(&self, f: usize, how: &str) -> Stop {
        let name = self.a.files[f].display();
        Stop::Failed(format!("{name}: changed while training: {how}"))
    }

    /// The held-out positions read again, in reused windows, each sent
    /// before it could overflow.
    fn held_out(&self) -> Result<(), Stop> {
        let (positions, feats) = self.plan.slot;
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
                        None => window.insert(self.reused()?),
                    };
                    self.push(&mut w.set, s, false);
                    if w.set.len() == positions || w.set.feats_len() + MAX_FEATS > feats {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::data::{encode, Outcome, HEADER};
    use crate::lab::train::survey::survey;
    use crate::rules::fen;
    use clap::Parser;
    use std::collections::BTreeSet;

    /// Games of format 2 (4,096 records each) told apart by their search
    /// score, the game's number.
    fn data(path: &std::path::Path, games: std::ops::Range<i16>) {
        let mut bytes = HEADER.to_vec();
        for g in games {
            let s = Sample {
                board: fen::parse(fen::STARTPOS).unwrap(),
                score: g,
                outcome: Outcome::Draw,
            };
            let r = encode(&s).unwrap();
            for _ in 0..4096 {
                bytes.extend_from_slice(&r);
            }
        }
        std::fs::write(path, bytes).unwrap();
    }

    /// The epochs as the reader sends them under `plan`: the game of
    /// every training position in order, and of every held-out one; or
    /// the error it sends.
    fn epochs(a: &Args, s: &Survey, plan: &Plan) -> Result<(Vec<usize>, Vec<usize>), String> {
        // Games 12 and 13 are the grown file's.
        let targets: Vec<f32> = (0..14)
            .map(|g| blended(a, 0.5, g as f64, s.k) as f32)
            .collect();
        let game = |t: f32| targets.iter().position(|&x| x == t).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let (free_tx, free) = std::sync::mpsc::channel();
        for _ in 0..plan.slots {
            free_tx.send(Window::new(Plan::set(plan.slot))).unwrap();
        }
        let reader = Reader {
            a,
            survey: s,
            plan,
            k: s.k,
            tx,
            free,
            kept: a.files.iter().map(|_| Vec::new()).collect(),
        };
        let (mut train, mut held_out) = (Vec::new(), Vec::new());
        std::thread::scope(|scope| {
            scope.spawn(move || reader.run(1));
            for m in rx {
                match m {
                    Msg::Train(w) => {
                        train.extend(w.order.iter().map(|&i| game(w.set.targets[i])));
                        let _ = free_tx.send(w);
                    }
                    Msg::HeldOut(w) => {
                        held_out.extend(w.set.targets.iter().map(|&t| game(t)));
                        if !plan.keep_held_out {
                            let _ = free_tx.send(w);
                        }
                    }
                    Msg::TrainEnd | Msg::HeldOutEnd => {}
                    Msg::Failed(e) => return Err(e),
                }
            }
            Ok((train, held_out))
        })
    }

    #[test]
    fn held_out_games_are_whole_and_the_order_is_the_same_whatever_the_memory() {
        let dir = crate::scratch::dir("train-stream");
        let (one, two) = (dir.join("one.bin"), dir.join("two.bin"));
        data(&one, 0..7);
        data(&two, 7..12);
        let words = [
            "train",
            "--out",
            "n.nnue",
            "--lambda",
            "0",
            "--validation",
            "0.3",
        ];
        let words = words.iter().chain(&["--epochs", "2"]);
        let files = [one.to_str().unwrap(), two.to_str().unwrap()];
        let a = Args::try_parse_from(words.chain(&files).chain(&["--window", "1000"])).unwrap();
        let s = survey(&a, None).unwrap();
        let kept = Plan {
            keep_all: true,
            keep_held_out: true,
            slots: 0,
            slot: (0, 0),
        };
        let streamed = Plan {
            keep_all: false,
            keep_held_out: false,
            slots: 2,
            slot: (1000, 1000 * 32),
        };
        let (train, held_out) = epochs(&a, &s, &streamed).unwrap();
        let held_out = held_out[..held_out.len() / 2].to_vec();
        let (train, second) = train.split_at(train.len() / 2);
        assert_ne!(train, second, "the second epoch shuffled anew");
        let games = |v: &[usize]| v.iter().copied().collect::<BTreeSet<usize>>();
        let want: BTreeSet<usize> = (0..12).filter(|&g| held_out_game(g, &a)).collect();
        assert!(!want.is_empty() && want.len() < 12, "{want:?}");
        assert_eq!(games(&held_out), want);
        assert_eq!(
            games(train),
            (0..12).filter(|g| !want.contains(g)).collect()
        );
        assert_eq!(
            train.len() + held_out.len(),
            12 * 4096,
            "every position once"
        );
        assert_eq!(held_out.len(), want.len() * 4096, "whole games held out");
        let (kept_train, kept_held_out) = epochs(&a, &s, &kept).unwrap();
        assert_eq!(kept_train, [train, second].concat(), "kept as streamed");
        assert_eq!(kept_held_out, held_out, "held out once, kept");
        data(&two, 7..11);
        let e = epochs(&a, &s, &streamed).unwrap_err();
        let changed = format!("{}: changed while training: ", two.display());
        assert!(e.starts_with(&format!("{changed}4 games")), "{e}");
        // Grown: named before its windows outgrow what was set aside.
        data(&two, 7..14);
        for plan in [&streamed, &kept] {
            let e = epochs(&a, &s, plan).unwrap_err();
            assert!(e.starts_with(&changed), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
