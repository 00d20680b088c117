//! `autotest tune`: SPSA tuning of an engine's UCI spin options by
//! self-play or against a second engine (`tune::spsa`, the method;
//! `tune::pair`, an iteration's games), with the tournament's flags for
//! the engines and their games (`config::flags`) and the tournament's referee
//! for every game, so faults (a crash, an illegal move, a time forfeit)
//! count as losses for the faulty side, as in tournaments.
//!
//! The tune's own flags: `-param name=NAME start=X min=LO max=HI c=C
//! [a=A]` (repeatable), `-iterations N` (pairs, the resumed ones
//! included; default 1000), `-out FILE` (the result, `NAME VALUE` lines,
//! rewritten after every pair), `-state FILE` (the iteration and `theta`,
//! rewritten after every pair; a run with an existing state file goes on
//! from it). `-seed` seeds both the perturbations and `order=random`.
//! Errors count arguments from the one after `tune`.

use crate::config::flags::{arg_error, key_values, parse_flags_with, value_of, FLAGS};
use crate::config::numbers::{at_least, real, whole};
use crate::config::spec::TournamentSpec;
use crate::config::ConfigError;
use crate::db::text_enums::Status;
use crate::db::tune::{self as record, by_name, TuneRecorder};
use crate::interrupt;
use crate::openings::{self, Opening};
use crate::referee::preflight;
use crate::tournament::progress::duration;
use crate::tune::pair::{self, side, Pair};
use crate::tune::spsa::{self, PairJob, PairOutcome, Param, Spsa, State};
use std::path::PathBuf;
use std::time::Instant;

/// The tune's own flags.
pub const TUNE_FLAGS: &[&str] = &["-param", "-iterations", "-out", "-state"];

/// The tournament flags a tune takes (the others, such as `-games` or
/// `-sprt`, have no meaning here).
pub const SHARED_FLAGS: &[&str] = &[
    "-engine",
    "-each",
    "-openings",
    "-concurrency",
    "-draw",
    "-resign",
    "-nozap",
    "-timemargin",
    "-maxmoves",
    "-seed",
    "-srand",
    "-db",
];

/// `autotest tune --help`.
pub const HELP: &str = "\
usage:
  autotest tune -engine ... -param ... [-param ...] [TUNE FLAGS]

autotest tune: SPSA (as fishtest) on one engine's UCI spin options, by
self-play of theta+c_k*delta against theta-c_k*delta, a colour-swapped pair
per iteration; a_k = a/(A+k+1)^0.602, c_k = c/(k+1)^0.101, A = iterations/10.
With a second -engine, the opponent: theta+ and theta- each play it a
colour-swapped pair on the iteration's opening (four games), and r is
theta+'s half-points less theta-'s (-4 to 4; in self-play its points less
theta-'s, -2 to 2). Takes -engine (the one to tune, then perhaps its
opponent), -each, -openings, -concurrency, -draw, -resign, -nozap,
-timemargin, -maxmoves, -seed and -db as a tournament does (autotest
--help), and:
  -param name=NAME start=X min=LO max=HI c=C [a=A]
                           one option to tune (repeatable); c: the
                           perturbation at iteration 0; a: the step's
                           numerator [the first step for a one-point pair
                           is c/20: a = c^2 (A+1)^0.602 / 10]
  -iterations N            game pairs, resumed ones included [1000]
  -out FILE                the tuned values, `NAME VALUE` lines, rewritten
                           after every pair [none]
  -state FILE              the iteration and theta, rewritten after every
                           pair; a run with an existing one resumes it [none]
One line per pair (its number, r, theta+'s and theta-'s points, theta
rounded); a progress line with the time left every 10 pairs (on stderr); at
the end the tuned values. The run and every pair's theta, step and r are
recorded in the results database; a resumed tune goes on in its own run.
Before the first pair the engine is checked as before a tournament's first
game (autotest --help).";

/// Pairs between progress lines.
pub const PROGRESS_EVERY: u64 = 10;

/// Default number of pairs.
pub const DEFAULT_ITERATIONS: u64 = 1000;

/// A tune as its flags describe it.
#[derive(Clone, PartialEq, Debug)]
pub struct TuneSpec {
    /// The games' rules, with the one engine to tune.
    pub games: TournamentSpec,
    pub params: Vec<Param>,
    pub iterations: u64,
    pub out: Option<PathBuf>,
    pub state: Option<PathBuf>,
}

/// Parses `autotest tune`'s arguments (those after `tune`).
pub fn parse(args: &[String]) -> Result<TuneSpec, ConfigError> {
    for (i, a) in args.iter().enumerate() {
        // A flag is any argument that starts with '-' (values never do,
        // but a negative number is left for its flag to reject).
        let Some(rest) = a.strip_prefix('-') else {
            continue;
        };
        let number = rest.starts_with(|c: char| c.is_ascii_digit() || c == '.');
        let known = TUNE_FLAGS.contains(&a.as_str()) || SHARED_FLAGS.contains(&a.as_str());
        if !rest.is_empty() && !number && !known {
            let why = if FLAGS.contains(&a.as_str()) {
                "is a tournament flag, not one of autotest tune's"
            } else {
                "unknown flag"
            };
            let all = [TUNE_FLAGS, SHARED_FLAGS].concat().join(" ");
            return Err(arg_error(args, i, &format!("{why} (known: {all})")));
        }
    }
    let mut params: Vec<Param> = Vec::new();
    let (mut iterations, mut out, mut state) = (DEFAULT_ITERATIONS, None, None);
    let games = parse_flags_with(args, |i| {
        let took = match args[i].as_str() {
            "-param" => {
                let p = parse_param(args, i)?;
                if params.iter().any(|o| o.name.eq_ignore_ascii_case(&p.name)) {
                    let m = format!("parameter '{}' is given twice", p.name);
                    return Err(arg_error(args, i, &m));
                }
                params.push(p);
                1 + key_values(args, i)?.len()
            }
            "-iterations" => {
                let v = value_of(args, i)?;
                iterations = whole(v, "-iterations")
                    .and_then(|n| at_least(n, 1, "-iterations"))
                    .map_err(|m| arg_error(args, i + 1, &m))?;
                2
            }
            "-out" => {
                out = Some(PathBuf::from(value_of(args, i)?));
                2
            }
            "-state" => {
                state = Some(PathBuf::from(value_of(args, i)?));
                2
            }
            _ => return Ok(None),
        };
        Ok(Some(took))
    })?;
    let invalid = |m: &str| Err(ConfigError::Invalid(m.to_string()));
    if !(1..=2).contains(&games.engines.len()) {
        let m = format!(
            "autotest tune takes one -engine (the engine to tune; both sides run it) \
             or two (the engine to tune, then its opponent), got {}",
            games.engines.len()
        );
        return invalid(&m);
    }
    if params.is_empty() {
        return invalid(
            "autotest tune needs at least one -param name=NAME start=X min=LO max=HI c=C",
        );
    }
    let title = "autotest tune".to_string();
    Ok(TuneSpec {
        games: TournamentSpec { title, ..games },
        params,
        iterations,
        out,
        state,
    })
}

/// `-param name=NAME start=X min=LO max=HI c=C [a=A]` at `i`.
fn parse_param(args: &[String], i: usize) -> Result<Param, ConfigError> {
    let (mut name, mut numbers) = (None, [None; 6]);
    const KEYS: [&str; 6] = ["name", "start", "min", "max", "c", "a"];
    for (j, key, value) in key_values(args, i)? {
        match KEYS.iter().position(|k| *k == key) {
            Some(0) if value.is_empty() => return Err(arg_error(args, j, "the name is empty")),
            Some(0) => name = Some(value.to_string()),
            Some(k) => numbers[k] = Some(real(value, key).map_err(|m| arg_error(args, j, &m))?),
            None => {
                let m = format!(
                    "unknown -param setting '{key}' (known: {})",
                    KEYS.join(", ")
                );
                return Err(arg_error(args, j, &m));
            }
        }
    }
    let err = |m: String| Err(arg_error(args, i, &m));
    let Some(name) = name else {
        return err("needs name=NAME".to_string());
    };
    let mut given = [0.0; 4];
    for (g, (n, key)) in given.iter_mut().zip(numbers[1..5].iter().zip(&KEYS[1..5])) {
        *g = n.ok_or_else(|| arg_error(args, i, &format!("parameter '{name}' needs {key}=")))?;
    }
    let [start, min, max, c] = given;
    if min >= max {
        return err(format!(
            "parameter '{name}': min ({min}) must be less than max ({max})"
        ));
    }
    if !(min..=max).contains(&start) {
        return err(format!(
            "parameter '{name}': start ({start}) is outside [{min}, {max}]"
        ));
    }
    if c <= 0.0 || numbers[5].is_some_and(|a| a <= 0.0) {
        return err(format!("parameter '{name}': c and a must be positive"));
    }
    Ok(Param {
        name,
        start,
        min,
        max,
        c,
        a: numbers[5],
    })
}

/// Checks the engine once with `theta`'s values, and the opponent if
/// there is one, as a tournament's engines are checked
/// (`referee::preflight`): each must start, the tuned one list every tuned
/// parameter among its options, and neither refuse a value.
fn check_engine(spec: &TuneSpec, theta: &[f64]) -> Result<(), String> {
    let values: Vec<i64> = spec
        .params
        .iter()
        .zip(theta)
        .map(|(p, t)| p.spin(*t))
        .collect();
    let mut engines = spec.games.engines.clone();
    engines[0] = side(&engines[0], "", &spec.params, &values);
    preflight::check(&TournamentSpec {
        engines,
        ..spec.games.clone()
    })
}

/// The trajectory line of a pair: its iteration, theta+'s points, `r`,
/// `theta` as it will be sent, and any fault.
fn trajectory_line(spec: &TuneSpec, job: &PairJob, pair: &Pair, state: &State) -> String {
    let (plus, minus) = pair.halves();
    let mut line = format!(
        "iteration {}/{}: {:+} ({}-{})",
        job.iteration + 1,
        spec.iterations,
        pair.r(),
        points(plus),
        points(minus)
    );
    for (p, t) in spec.params.iter().zip(&state.theta) {
        line += &format!(" {}={}", p.name, p.spin(*t));
    }
    for fault in pair.faults() {
        line += &format!(" [{fault}]");
    }
    line
}

/// Half-points as points: `1.5`, `2`.
fn points(halves: i32) -> String {
    if halves % 2 == 0 {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

/// `autotest tune`: parses, resumes from the state file if there is one,
/// checks the engine, tunes; prints the trajectory and, at the end (or
/// after a stop signal, once the pairs under way are in), the tuned values.
pub fn run(args: &[String]) -> Result<(), String> {
    let spec = parse(args).map_err(|e| format!("tune: {e}"))?;
    let book = openings::book(&spec.games)?;
    let spsa = Spsa::new(spec.params.clone(), spec.iterations, spec.games.seed);
    let loaded = match &spec.state {
        Some(path) => State::load(path, &spec.params)?,
        None => None,
    };
    let resumed = loaded.as_ref().map(|s| s.iteration);
    let mut state = loaded.unwrap_or_else(|| spsa.start());
    check_engine(&spec, &state.theta)?;
    let command: Vec<String> = ["autotest", "tune"]
        .iter()
        .map(|w| w.to_string())
        .chain(args.iter().cloned())
        .collect();
    let recorded = record::TuneSpec {
        games: &spec.games,
        params: &spec.params,
        iterations: spec.iterations,
        state: spec.state.as_deref(),
        out: spec.out.as_deref(),
    };
    let mut recorder = TuneRecorder::start(recorded, &command, resumed);
    let outcome = tune(&spec, &spsa, &book, &mut state, recorder.as_mut());
    if let Some(r) = recorder.as_mut() {
        r.finish(match (&outcome, interrupt::received()) {
            (Err(_), _) => Status::Failed,
            (Ok(()), Some(_)) if state.iteration < spec.iterations => Status::Stopped,
            (Ok(()), _) => Status::Finished,
        });
    }
    outcome
}

/// Plays the pairs from `state`, reporting and saving each, and recording
/// it with `recorder`; prints the end.
fn tune(
    spec: &TuneSpec,
    spsa: &Spsa,
    book: &[Opening],
    state: &mut State,
    mut recorder: Option<&mut TuneRecorder>,
) -> Result<(), String> {
    if state.iteration < spec.iterations {
        println!(
            "tune: pairs {}..{} of {}, A {:.1}",
            state.iteration + 1,
            spec.iterations,
            spec.iterations,
            spsa.stability()
        );
    } else {
        println!("tune: the state file has all {} pairs", spec.iterations);
    }
    for (i, p) in spec.params.iter().enumerate() {
        println!(
            "  {} theta {} in [{}, {}], c {}, a {:.3}",
            p.name,
            state.theta[i],
            p.min,
            p.max,
            p.c,
            spsa.a(i)
        );
    }
    let (first, started) = (state.iteration, Instant::now());
    // theta before the pair being reported: its step is the difference.
    let mut before = state.theta.clone();
    let save = |state: &State| -> Result<(), String> {
        if let Some(path) = &spec.out {
            spsa::write_file(path, &spsa::result_text(&spec.params, &state.theta))?;
        }
        if let Some(path) = &spec.state {
            spsa::write_file(path, &state.to_text(&spec.params))?;
        }
        Ok(())
    };
    spsa::run(
        spsa,
        state,
        spec.games.concurrency,
        |job| pair::play(&spec.games, &spec.params, book, job),
        |job, pair, state| {
            println!("{}", trajectory_line(spec, job, pair, state));
            if let Some(r) = recorder.as_deref_mut() {
                let step: Vec<f64> = state
                    .theta
                    .iter()
                    .zip(&before)
                    .map(|(t, b)| t - b)
                    .collect();
                r.iteration(
                    state.iteration,
                    &by_name(&spec.params, &state.theta),
                    &by_name(&spec.params, &step),
                    pair.r(),
                );
            }
            before.clone_from(&state.theta);
            let done = state.iteration - first;
            if done % PROGRESS_EVERY == 0 || state.iteration == spec.iterations {
                // The time left: this run's time per pair, pairs at once
                // included, times the pairs left.
                let elapsed = started.elapsed().as_millis() as u64;
                let left = spec.iterations - state.iteration;
                let mut line = format!(
                    "tune: {}/{} pairs, {} elapsed",
                    state.iteration,
                    spec.iterations,
                    duration(elapsed)
                );
                if left > 0 {
                    let ms = elapsed as f64 / done as f64 * left as f64;
                    line += &format!(", about {} left", duration(ms as u64));
                }
                eprintln!("{line}");
            }
            save(state)
        },
    )?;
    save(state)?;
    if let Some(signal) = interrupt::received() {
        eprintln!(
            "tune: stopped by {} after {} of {} pairs{}",
            interrupt::name(signal),
            state.iteration,
            spec.iterations,
            if spec.state.is_some() {
                "; run again with the same -state to go on"
            } else {
                ""
            }
        );
    }
    println!("tuned after {} pairs:", state.iteration);
    print!("{}", spsa::result_text(&spec.params, &state.theta));
    Ok(())
}
