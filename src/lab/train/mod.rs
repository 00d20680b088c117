//! `leiserchess train`: fits the learned evaluation ([`crate::eval::nnue`])
//! to self-play data by plain mini-batch Adam in `f32` on all cores.
//!
//! Plain Rust rather than a tensor crate: the first layer sees at most a
//! few dozen of its thousand inputs per position, so a dense framework
//! would multiply a thousand zeros for every useful weight; the sparse
//! forward and backward passes here are a few loops the compiler
//! vectorises.
//!
//! The data is streamed, never held whole: a first pass ([`survey`])
//! counts the games and positions, fits `K` and scores the bars; then a
//! reader thread ([`stream`]) reads the files again for every epoch and
//! hands over windows of expanded positions, shuffled, while the last
//! ones are trained on. Resident memory stays within `--memory`
//! ([`plan`]), whatever the data's size; the order of the steps is the
//! recipe's (the seed, the epoch, `--window`) and not the memory's or the
//! threads', so the net is the same to the byte on any of them.
//!
//! A position's target is `λ × result + (1 − λ) × σ(K × search score)`
//! (side to move's view) and the loss the mean squared error of
//! `σ(K × net score)` against it, as `tune` does. `K` is fitted on
//! held-out positions to the hand-written evaluation's scores, whose loss
//! on the results is printed once as the bar the net must clear; each
//! epoch then prints the net's loss on the training target and on the
//! held-out results, the same measure. Held-out positions are whole games,
//! each held out with probability `--validation` drawn by the seed: a net
//! with thousands of weights learns a game's result from its other
//! positions.
//!
//! After an epoch whose held-out loss is the lowest so far the quantised
//! net goes to `--out` (so more epochs than the data bears do no harm);
//! after every epoch the whole state (weights, Adam's moments, the epoch,
//! the best loss) goes to `OUT.ckpt` and a line to `OUT.tsv` (the loss
//! curve, drawn to `OUT.svg`); `--resume` goes on from the checkpoint.
//! Shuffles are seeded by the seed and the epoch, so a resumed run makes
//! the same steps as an unbroken one.

mod args;
mod checkpoint;
pub mod mirror;
pub mod model;
mod plan;
pub mod plot;
mod set;
mod stream;
mod survey;

pub use args::Args;
pub use checkpoint::State;
pub use set::{add_losses, gradient, losses, Parts, Set};

use super::tune::held_out;
use crate::eval::logistic::logistic;
use crate::eval::nnue::Network;
use model::{Adam, Model};
use plan::Plan;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};
use stream::{Msg, Reader, Window};
use survey::Survey;

/// The training target of a position: its `result` blended with its
/// search `score` seen through `K`, with weight `--lambda` on the result.
fn blended(a: &Args, result: f64, score: f64, k: f64) -> f64 {
    a.lambda * result + (1.0 - a.lambda) * logistic(k * score)
}

/// Whether game `g` (counted over all the files, in the order named) is
/// held out.
fn held_out_game(g: usize, a: &Args) -> bool {
    held_out(g, a.seed, a.validation)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    // Written beside and renamed, so that a stop mid-write keeps the last
    // whole file.
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `12m 05s`.
pub(crate) fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m {:02}s", s / 60, s % 60)
}

/// The net `--init` names: a file, `store:PREFIX` or `embedded`.
pub fn init_net(name: &str) -> Result<Network, String> {
    if name == INIT_EMBEDDED {
        return Ok(Network::embedded());
    }
    let path =
        crate::object_store::Store::net_file(name).map_err(|e| format!("--init {name}: {e}"))?;
    Network::load(path).map_err(|e| format!("--init: {e}"))
}

/// `--init`'s name of the binary's own net.
pub const INIT_EMBEDDED: &str = "embedded";

/// The first weights: `--init`'s net's, else random ones from the seed.
fn first_model(a: &Args) -> Result<Model, String> {
    let Some(name) = &a.init else {
        return Ok(Model::random(a.beam, a.seed));
    };
    let net = init_net(name)?;
    if net.beam != a.beam {
        return Err(format!(
            "--init {name}: the net {} beam features; {} --beam",
            if net.beam { "has" } else { "has no" },
            if net.beam { "add" } else { "drop" }
        ));
    }
    Ok(Model::from_network(&net))
}

/// The state a run starts from: `OUT.ckpt`'s with `--resume`, else a
/// fresh one from `--init`'s net or random weights.
fn start_state(a: &Args) -> Result<State, String> {
    let ckpt = a.beside(".ckpt");
    let ckpt_name = ckpt.display();
    if !(a.resume && ckpt.exists()) {
        let model = first_model(a)?;
        let adam = Adam::new(model.params.len());
        return Ok(State {
            model,
            adam,
            epoch: 0,
            best: f64::INFINITY,
        });
    }
    let bytes = std::fs::read(&ckpt).map_err(|e| format!("cannot read {ckpt_name}: {e}"))?;
    let s = State::from_bytes(&bytes).map_err(|e| format!("{ckpt_name}: {e}"))?;
    if s.model.beam != a.beam {
        return Err(format!(
            "{ckpt_name}: its net {} beam features; drop or add --beam",
            if s.model.beam { "has" } else { "has no" }
        ));
    }
    eprintln!("train: resuming {ckpt_name} after epoch {}", s.epoch);
    Ok(s)
}

/// `leiserchess train` (see [`Args`]).
pub fn command(a: &Args) -> Result<(), String> {
    let mut state = start_state(a)?;
    let start = Instant::now();
    let against = a.against.as_deref().map(Network::load).transpose()?;
    let survey = survey::survey(a, against.as_ref())?;
    if survey.train_records() + survey.held_out() == 0 {
        return Err(format!("no positions in {}", super::names(&a.files)));
    }
    if let (Some(path), Some((t, r))) = (&a.against, survey.against) {
        println!(
            "net {}'s held-out loss: on the targets {t:.6}, on the results {r:.6}",
            path.display()
        );
    }
    let train = Plan::positions(a, survey.train_records());
    if train == 0 {
        return Err(format!(
            "--validation {} leaves no position to train on",
            a.validation
        ));
    }
    // The net kept is the one of the best held-out loss: with nothing
    // held out every epoch would score 0 and the first would be kept.
    if survey.held_out() == 0 {
        return Err(format!(
            "--validation {} holds out no position of {train}: whole games are held out (in a file of format 2, runs of 4,096 records), and the net kept is the one of the best held-out loss; give more positions or a larger --validation",
            a.validation,
        ));
    }
    let plan = plan::plan(a, &survey)?;
    let (k, bar, bar_target) = (survey.k, survey.bar, survey.bar_target);
    println!(
        "{train} positions to train on, {} held out ({:.1} s); K {k:.6}; the hand-written evaluation's held-out loss: on the targets {bar_target:.6}, on the results {bar:.6}",
        survey.held_out(),
        start.elapsed().as_secs_f64()
    );
    eprintln!(
        "train: {}",
        if plan.keep_all {
            "every window and the held-out positions kept after the first epoch".to_string()
        } else {
            format!(
                "{} windows in memory at once; the held-out positions {}",
                plan.slots,
                if plan.keep_held_out {
                    "kept"
                } else {
                    "read again after each epoch"
                }
            )
        }
    );
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let (free_tx, free) = mpsc::channel();
        for _ in 0..plan.slots {
            let _ = free_tx.send(Window::new(Plan::set(plan.slot)));
        }
        let reader = Reader {
            a,
            survey: &survey,
            plan: &plan,
            k,
            tx,
            free,
            kept: a.files.iter().map(|_| Vec::new()).collect(),
        };
        let first = state.epoch + 1;
        scope.spawn(move || reader.run(first));
        let run = Run {
            a,
            plan: &plan,
            survey: &survey,
            start,
            rx,
            free: free_tx,
        };
        // Returning drops the channels, which stops the reader.
        run.epochs(&mut state)
    })?;
    println!(
        "the net of the best held-out loss ({:.6}) is {}",
        state.best,
        a.out.display()
    );
    Ok(())
}

/// The trainer's side of a run.
struct Run<'a> {
    a: &'a Args,
    plan: &'a Plan,
    survey: &'a Survey,
    start: Instant,
    rx: Receiver<Msg>,
    /// Windows handed back to the reader.
    free: Sender<Window>,
}

impl Run<'_> {
    fn recv(&self) -> Result<Msg, String> {
        match self.rx.recv() {
            Ok(Msg::Failed(e)) => Err(e),
            Ok(m) => Ok(m),
            Err(_) => Err("train: the reader stopped".into()),
        }
    }

    /// Epochs from `state`'s on to `--epochs`, each followed by its
    /// held-out loss and the files written.
    fn epochs(&self, state: &mut State) -> Result<(), String> {
        let a = self.a;
        let (tsv_path, svg_path, ckpt) = (a.beside(".tsv"), a.beside(".svg"), a.beside(".ckpt"));
        let tsv_name = tsv_path.display();
        let out_name = a.out.display().to_string();
        let (bar, bar_target) = (self.survey.bar, self.survey.bar_target);
        let k = self.survey.k as f32;
        let train = Plan::positions(a, self.survey.train_records());
        let steps_per_epoch = Plan::steps_per_epoch(a, self.survey);
        let total_steps = (a.epochs * steps_per_epoch).max(1);
        // A fresh run starts a new curve; a resumed one goes on with it.
        let mut tsv = std::fs::OpenOptions::new()
            .create(true)
            .append(state.epoch > 0)
            .write(true)
            .truncate(state.epoch == 0)
            .open(&tsv_path)
            .map_err(|e| format!("cannot open {tsv_name}: {e}"))?;
        if state.epoch == 0 {
            writeln!(
                tsv,
                "epoch\ttrain\tvalid\tvalid_results\thand_written\thand_written_results"
            )
            .map_err(|e| format!("cannot write {tsv_name}: {e}"))?;
        }
        let run_start = Instant::now();
        let first = state.epoch;
        let mut parts = Parts::new(&state.model);
        let mut kept: Option<Vec<Window>> = None;
        while state.epoch < a.epochs {
            let epoch = state.epoch + 1;
            let (mut loss, mut shown, mut n, mut done) = (0.0, Instant::now(), 0, 0);
            while let Msg::Train(w) = self.recv()? {
                for batch in w.order.chunks(a.batch) {
                    let step = state.epoch * steps_per_epoch + n;
                    let rate = a.rate * (1.0 - 0.9 * step as f64 / total_steps as f64);
                    let (grad, l) = gradient(&state.model, &w.set, batch, k, a.threads, &mut parts);
                    loss += l;
                    state.adam.step(&mut state.model.params, &grad, rate as f32);
                    state.model.clip();
                    (n, done) = (n + 1, done + batch.len());
                    if shown.elapsed() >= Duration::from_secs(2) {
                        shown = Instant::now();
                        let part = n as f64 / steps_per_epoch as f64;
                        let so_far = (epoch - 1 - first) as f64 + part;
                        let left = run_start
                            .elapsed()
                            .mul_f64((a.epochs - first) as f64 / so_far - 1.0);
                        eprintln!(
                            "train: epoch {epoch}/{} {:.0}%, loss {:.6}, about {} left",
                            a.epochs,
                            100.0 * part,
                            loss / done as f64,
                            minutes(left)
                        );
                    }
                }
                let _ = self.free.send(w);
            }
            state.epoch = epoch;
            let (v, vr) = self.held_out_losses(&state.model, k, &mut kept)?;
            let t = loss / train as f64;
            let best = v < state.best;
            println!(
                "epoch {epoch} train {t:.6} valid {v:.6} valid-results {vr:.6} ({}){}",
                minutes(self.start.elapsed()),
                if best { ", best so far: written" } else { "" }
            );
            writeln!(
                tsv,
                "{epoch}\t{t:.6}\t{v:.6}\t{vr:.6}\t{bar_target:.6}\t{bar:.6}"
            )
            .map_err(|e| format!("cannot write {tsv_name}: {e}"))?;
            let curve = std::fs::read_to_string(&tsv_path)
                .map_err(|e| format!("cannot read {tsv_name}: {e}"))?;
            let chart = plot::svg(&plot::rows(&curve), &out_name)?;
            write(&svg_path, chart.as_bytes())?;
            if best {
                state.best = v;
                write(&a.out, &state.model.quantise().to_bytes())?;
            }
            write(&ckpt, &state.to_bytes())?;
        }
        Ok(())
    }

    /// The model's held-out loss on the targets and on the results: over
    /// the windows `kept` from an earlier epoch, else over those the reader
    /// sends (kept if the plan says so).
    fn held_out_losses(
        &self,
        m: &Model,
        k: f32,
        kept: &mut Option<Vec<Window>>,
    ) -> Result<(f64, f64), String> {
        let mut sums = (0.0, 0.0);
        if let Some(windows) = kept {
            for w in windows.iter() {
                add_losses(m, &w.set, k, &mut sums);
            }
        } else {
            let mut keep = Vec::new();
            while let Msg::HeldOut(w) = self.recv()? {
                add_losses(m, &w.set, k, &mut sums);
                if self.plan.keep_held_out {
                    keep.push(w);
                } else {
                    let _ = self.free.send(w);
                }
            }
            if self.plan.keep_held_out {
                *kept = Some(keep);
            }
        }
        let n = self.survey.held_out().max(1) as f64;
        Ok((sums.0 / n, sums.1 / n))
    }
}
