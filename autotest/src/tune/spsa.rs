//! SPSA (simultaneous perturbation stochastic approximation), as fishtest
//! tunes engine parameters: every iteration moves all parameters at once
//! by a random ±1 vector `delta` scaled by `c_k`, plays the engine with
//! `theta + c_k·delta` against the engine with `theta − c_k·delta` (a
//! colour-swapped game pair), and steps `theta` along the estimated
//! gradient, `theta += a_k · r / (2 c_k · delta)`, where `r` is the pair's
//! points of `theta+` minus those of `theta−` (−2..2).
//!
//! The gains are Spall's, as fishtest uses them: `a_k = a / (A + k + 1)^0.602`
//! and `c_k = c / (k + 1)^0.101`, `A` a tenth of the iterations. `c` is the
//! perturbation at iteration 0; `a`, unless given, is [`default_a`]: the
//! first step for a one-point pair (`r = ±1`) is `c/20`. That is bolder
//! than fishtest's `r_end = 0.002` (a first step of about `c/600`), which
//! assumes tens of thousands of games; runs here are a thousand pairs.
//!
//! This module knows nothing of engines: [`run`] takes the pair to play as
//! a function, so that the tests drive it with an Elo model. UCI numeric
//! options are spins (whole numbers), so the values a pair is played with
//! are rounded; `theta` itself stays real, and the state file keeps it
//! exactly, so that a stopped run resumes where it was.

use crate::interrupt;
use std::path::Path;
use std::sync::{mpsc, Mutex};

/// The exponent of the step gain `a_k` (Spall's, fishtest's).
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation gain `c_k`.
pub const GAMMA: f64 = 0.101;
/// `A`, the step gain's stability constant, as a share of the iterations.
pub const A_SHARE: f64 = 0.1;

/// One tuned parameter (a UCI spin option).
#[derive(Clone, PartialEq, Debug)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at iteration 0.
    pub c: f64,
    /// The step gain's numerator; `None`: [`default_a`].
    pub a: Option<f64>,
}

impl Param {
    /// `x` in range and rounded, as the engine is sent it.
    pub fn spin(&self, x: f64) -> i64 {
        x.clamp(self.min, self.max).round() as i64
    }
}

/// The step gain's numerator that makes the first step for `r = ±1`
/// (`a_0 / (2c)`) a twentieth of `c`: big enough that a thousand pairs
/// move `theta` across a range of a few `c`, small enough that the noise
/// of single pairs averages out (see the module documentation).
pub fn default_a(c: f64, stability: f64) -> f64 {
    c * c * (stability + 1.0).powf(ALPHA) / 10.0
}

/// The tuner: the parameters, their gains and the random perturbations.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub params: Vec<Param>,
    /// Pairs in the whole run (resumed ones included).
    pub iterations: u64,
    seed: u64,
    /// `A`.
    stability: f64,
    /// Each parameter's `a`.
    a: Vec<f64>,
}

/// Where a run is: pairs applied, and the parameters now.
#[derive(Clone, PartialEq, Debug)]
pub struct State {
    pub iteration: u64,
    pub theta: Vec<f64>,
}

/// One pair to play: iteration `iteration`, the engine with `plus` against
/// the engine with `minus` (values in [`Spsa::params`] order).
#[derive(Clone, PartialEq, Debug)]
pub struct PairJob {
    pub iteration: u64,
    /// ±1 per parameter.
    pub delta: Vec<f64>,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
}

/// What a played pair gives the tuner.
pub trait PairOutcome: Send {
    /// Points of `theta+` minus points of `theta−`, −2..2.
    fn r(&self) -> i32;
}

impl PairOutcome for i32 {
    fn r(&self) -> i32 {
        *self
    }
}

impl Spsa {
    /// The tuner for `iterations` pairs; `seed` makes the perturbations.
    pub fn new(params: Vec<Param>, iterations: u64, seed: u64) -> Spsa {
        let stability = A_SHARE * iterations as f64;
        let a = params
            .iter()
            .map(|p| p.a.unwrap_or_else(|| default_a(p.c, stability)))
            .collect();
        Spsa {
            params,
            iterations,
            seed,
            stability,
            a,
        }
    }

    /// `A`.
    pub fn stability(&self) -> f64 {
        self.stability
    }

    /// Parameter `i`'s step gain numerator `a`.
    pub fn a(&self, i: usize) -> f64 {
        self.a[i]
    }

    /// `a_k` of parameter `i`.
    pub fn a_k(&self, i: usize, k: u64) -> f64 {
        self.a[i] / (self.stability + k as f64 + 1.0).powf(ALPHA)
    }

    /// `c_k` of parameter `i`.
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        self.params[i].c / (k as f64 + 1.0).powf(GAMMA)
    }

    /// The state before the first pair.
    pub fn start(&self) -> State {
        State {
            iteration: 0,
            theta: self.params.iter().map(|p| p.start).collect(),
        }
    }

    /// Iteration `k`'s pair from `theta`. Its `delta` depends only on the
    /// seed and `k`, so a resumed run perturbs as an unbroken one would.
    pub fn job(&self, theta: &[f64], k: u64) -> PairJob {
        let mut rng = fastrand::Rng::with_seed(
            self.seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let delta: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.bool() { 1.0 } else { -1.0 })
            .collect();
        let side = |sign: f64| -> Vec<i64> {
            (0..self.params.len())
                .map(|i| self.params[i].spin(theta[i] + sign * self.c_k(i, k) * delta[i]))
                .collect()
        };
        PairJob {
            iteration: k,
            plus: side(1.0),
            minus: side(-1.0),
            delta,
        }
    }

    /// `theta` after `job`'s pair scored `r`, each parameter kept in range.
    pub fn update(&self, theta: &mut [f64], job: &PairJob, r: i32) {
        let k = job.iteration;
        for (i, p) in self.params.iter().enumerate() {
            let step = self.a_k(i, k) * f64::from(r) / (2.0 * self.c_k(i, k) * job.delta[i]);
            theta[i] = (theta[i] + step).clamp(p.min, p.max);
        }
    }
}

/// Plays the pairs from `state.iteration` to `spsa.iterations`,
/// `concurrency` at a time, each from `theta` as it was when the pair
/// began, and applies each as it finishes (fishtest's way: results come
/// in from pairs started on older `theta`s; one at a time, each pair
/// starts from the last one's result). After each, `report` gets the
/// pair, its outcome and the new state; an error from it stops the run
/// (pairs under way are finished and dropped) and is returned. After a
/// stop signal (`crate::interrupt`) no new pair starts; those under way
/// are applied and reported.
pub fn run<T: PairOutcome>(
    spsa: &Spsa,
    state: &mut State,
    concurrency: usize,
    play: impl Fn(&PairJob) -> T + Sync,
    mut report: impl FnMut(&PairJob, &T, &State) -> Result<(), String>,
) -> Result<(), String> {
    let left = spsa.iterations.saturating_sub(state.iteration);
    let workers = (concurrency.max(1) as u64).min(left);
    let (job_tx, job_rx) = mpsc::channel::<PairJob>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(PairJob, T)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (job_rx, done_tx, play) = (&job_rx, done_tx.clone(), &play);
            scope.spawn(move || loop {
                let job = job_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok(job) = job else { break };
                let outcome = play(&job);
                if done_tx.send((job, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        // The jobs are made here, from `theta` as it is when a player is
        // free, so that they start from every result applied so far.
        let mut next = state.iteration;
        // It owns `job_tx`: returning drops it, and the players, finishing
        // their pairs, find no more and end. Nothing new is handed out
        // after a stop signal; it says whether it handed out a pair.
        let mut hand_out = move |theta: &[f64]| {
            let go = next < spsa.iterations && interrupt::received().is_none();
            if go {
                let _ = job_tx.send(spsa.job(theta, next));
                next += 1;
            }
            go
        };
        let mut in_flight = 0;
        for _ in 0..workers {
            in_flight += usize::from(hand_out(&state.theta));
        }
        while in_flight > 0 {
            let Ok((job, outcome)) = done_rx.recv() else {
                break;
            };
            in_flight -= 1;
            spsa.update(&mut state.theta, &job, outcome.r());
            state.iteration += 1;
            report(&job, &outcome, state)?;
            in_flight += usize::from(hand_out(&state.theta));
        }
        Ok(())
    })
}

impl State {
    /// The state file: `iteration K`, then `NAME VALUE` per parameter,
    /// `theta` exactly (Rust prints the shortest text that reads back to
    /// the same number).
    pub fn to_text(&self, params: &[Param]) -> String {
        let mut out = format!(
            "# autotest tune: pairs applied, then each parameter's theta\niteration {}\n",
            self.iteration
        );
        for (p, t) in params.iter().zip(&self.theta) {
            out += &format!("{} {t}\n", p.name);
        }
        out
    }

    /// Reads [`State::to_text`]'s form; it must name exactly `params`
    /// (in any order). Values are brought into range, in case the range
    /// changed between runs.
    pub fn parse(text: &str, params: &[Param]) -> Result<State, String> {
        let mut iteration = None;
        let mut theta: Vec<Option<f64>> = vec![None; params.len()];
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |m: String| format!("line {}: {m}", n + 1);
            let Some((key, value)) = line.rsplit_once(char::is_whitespace) else {
                return Err(bad(format!("expected 'NAME VALUE', got '{line}'")));
            };
            let key = key.trim_end();
            if key == "iteration" {
                iteration =
                    Some(crate::config::numbers::whole::<u64>(value, "iteration").map_err(bad)?);
                continue;
            }
            let Some(i) = params.iter().position(|p| p.name == key) else {
                return Err(bad(format!("'{key}' is not a -param of this run")));
            };
            let v = crate::config::numbers::real(value, key).map_err(bad)?;
            theta[i] = Some(v.clamp(params[i].min, params[i].max));
        }
        let iteration = iteration.ok_or("no 'iteration' line")?;
        let theta = theta
            .iter()
            .zip(params)
            .map(|(t, p)| t.ok_or_else(|| format!("no line for -param '{}'", p.name)))
            .collect::<Result<_, _>>()?;
        Ok(State { iteration, theta })
    }

    /// The state in `path`, or `None` if there is no such file.
    pub fn load(path: &Path, params: &[Param]) -> Result<Option<State>, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => State::parse(&text, params)
                .map(Some)
                .map_err(|e| format!("state file {}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }
}

/// The result: `NAME VALUE` per parameter, the value as the engine would
/// be sent it.
pub fn result_text(params: &[Param], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, t)| format!("{} {}\n", p.name, p.spin(*t)))
        .collect()
}

/// Writes `text` to `path` through a temporary file beside it, so that a
/// run stopped mid-write leaves the old file whole.
pub fn write_file(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64, c: f64) -> Param {
        Param {
            name: name.to_string(),
            start,
            min: 0.0,
            max: 100.0,
            c,
            a: None,
        }
    }

    #[test]
    fn gains_follow_the_standard_schedule() {
        let s = Spsa::new(vec![param("x", 50.0, 4.0)], 1000, 1);
        assert_eq!(s.stability(), 100.0);
        assert_eq!(s.c_k(0, 0), 4.0);
        assert!((s.c_k(0, 999) - 4.0 / 1000f64.powf(0.101)).abs() < 1e-12);
        // The default a: the first step for r = 1 is c/20.
        let first = s.a_k(0, 0) / (2.0 * s.c_k(0, 0));
        assert!((first - 4.0 / 20.0).abs() < 1e-12, "{first}");
    }

    #[test]
    fn a_pair_moves_theta_towards_the_winner_and_stays_in_range() {
        let mut p = param("x", 50.0, 10.0);
        p.a = Some(1000.0);
        let s = Spsa::new(vec![p], 10, 7);
        let job = s.job(&[50.0], 0);
        let d = job.delta[0];
        assert_eq!(job.plus[0], (50.0 + 10.0 * d) as i64);
        assert_eq!(job.minus[0], (50.0 - 10.0 * d) as i64);
        let mut theta = vec![50.0];
        s.update(&mut theta, &job, 2);
        // theta moves towards theta+ (by a_0·2/(2c)), and no further
        // than the range allows.
        let step = 1000.0 / 2f64.powf(ALPHA) / 10.0;
        assert!((theta[0] - (50.0 + d * step).clamp(0.0, 100.0)).abs() < 1e-9);
        let job = s.job(&[99.5], 1);
        assert!(job.plus[0] <= 100 && job.minus[0] <= 100);
    }

    #[test]
    fn state_text_round_trips_exactly() {
        let params = vec![param("x", 1.0, 1.0), param("y z", 2.0, 1.0)];
        let state = State {
            iteration: 41,
            theta: vec![0.1 + 0.2, 99.999_999_999_9],
        };
        let text = state.to_text(&params);
        assert_eq!(State::parse(&text, &params), Ok(state));
        let wrong = [param("x", 1.0, 1.0)];
        assert!(State::parse(&text, &wrong).unwrap_err().contains("'y z'"));
        assert!(State::parse("iteration 1\n", &params)
            .unwrap_err()
            .contains("-param 'x'"));
        assert!(State::parse("x 1\ny z 2\n", &params)
            .unwrap_err()
            .contains("iteration"));
        assert!(State::parse("iteration -1\n", &params).is_err());
    }
}
