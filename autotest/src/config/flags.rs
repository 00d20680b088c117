//! The command-line flags, parsed into a [`TournamentSpec`]: cutechess-cli's,
//! as far as they make sense here (arguments are counted from 1 after the
//! program name in errors):
//!
//! * `-engine k=v ...` with `cmd=` (a command line, split like `invoke`
//!   when the shell passed it as one argument), `name=` (default: the file
//!   name of the program; repeated names get `-2`, `-3`, …), `dir=`,
//!   `option.NAME=VALUE`, `tc=[MOVES/]BASE[+INC]` (seconds, decimals
//!   allowed, BASE also as `M:SS`; `inf`: no clock; `MOVES` 0 means the
//!   whole game), `st=SECONDS` (time per move), `depth=`, `nodes=`, and
//!   `proto=uci` (accepted for compatibility; nothing else is).
//! * `-each k=v ...`: the same keys for every engine; an engine's own
//!   settings win, key by key (`tc=inf` removes a clock given by `-each`;
//!   an `option.X` of the engine replaces `-each`'s option of that name).
//! * `-concurrency N`, `-games N`, `-rounds N`, `-tournament
//!   round-robin|gauntlet`, `-pgnout FILE`, `-event TITLE` (or `-title`),
//!   `-seed N` (or `-srand`), `-maxmoves N` (a draw once the game has N
//!   moves of both sides, i.e. `max_plies = 2N`), `-nozap PLIES` (the
//!   no-zap draw limit; default 100, the rules'; 0: never), `-timemargin
//!   MS` (how late past its clock a move may come; default 50).
//! * `-openings file=F [order=sequential|random] [plies=K] [format=…]`
//!   (the format is ignored: the file's lines say what they are).
//! * `-sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]` (alpha and beta default
//!   to 0.05).
//! * `-draw movenumber=N movecount=M score=S`, `-resign movecount=M
//!   score=S [twosided=true]`: adjudication from the engines' scores (see
//!   `referee::adjudication`).
//! * `-repeat` (or `-repeat 2`): colour-swapped game pairs. This is the
//!   default anyway; `-norepeat` turns it off.
//! * `-recover`: restart crashed engines and go on; also the default.
//! * `-resume` (needs `-pgnout FILE`): go on from the games an earlier run
//!   with the same flags wrote to FILE, adding the new ones to it (see
//!   `tournament::resume`); without it FILE is replaced.
//! * `-db PATH`: the results database the run is recorded in (`none`: no
//!   record; see `crate::db::path` for the default).
//!
//! Unknown flags and keys are errors, and so is a key given twice in one
//! `-engine`, `-each`, `-openings`, `-sprt`, `-draw` or `-resign`. A
//! repeated flag replaces the earlier one; several `-each` merge, the later
//! winning.

use super::{split_command, validate, ConfigError};
use crate::config::numbers::{at_least, real, seconds_ms, time_control, whole};
use crate::config::spec::{
    Clock, EngineLimits, EngineSpec, OpeningsSpec, Schedule, SprtSpec, TournamentSpec,
};
use crate::referee::adjudication::{parse_draw, parse_resign, SettingError};
use std::fmt;
use std::path::{Path, PathBuf};

/// The settings of one `-engine` or of `-each`; `None` is "not given".
#[derive(Clone, Default)]
struct EngineDraft {
    /// Index (from 1) of the `-engine` flag.
    index: usize,
    name: Option<String>,
    command: Option<Vec<String>>,
    dir: Option<PathBuf>,
    options: Vec<(String, String)>,
    /// `Some(None)` is `tc=inf`.
    clock: Option<Option<Clock>>,
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    restart: Option<bool>,
}

impl EngineDraft {
    /// `self`'s settings where given, else `base`'s; options: `base`'s that
    /// `self` does not set (names compared case-insensitively, as in UCI),
    /// then `self`'s.
    fn over(&self, base: &EngineDraft) -> EngineDraft {
        let mut options: Vec<(String, String)> = base
            .options
            .iter()
            .filter(|(k, _)| !self.options.iter().any(|(o, _)| o.eq_ignore_ascii_case(k)))
            .cloned()
            .collect();
        options.extend(self.options.iter().cloned());
        EngineDraft {
            index: self.index,
            name: self.name.clone().or_else(|| base.name.clone()),
            command: self.command.clone().or_else(|| base.command.clone()),
            dir: self.dir.clone().or_else(|| base.dir.clone()),
            options,
            clock: self.clock.or(base.clock),
            movetime_ms: self.movetime_ms.or(base.movetime_ms),
            depth: self.depth.or(base.depth),
            nodes: self.nodes.or(base.nodes),
            restart: self.restart.or(base.restart),
        }
    }
}

/// The arguments of a flag: those after `i` up to the next flag.
fn group(args: &[String], i: usize) -> std::ops::Range<usize> {
    let end = (i + 1..args.len())
        .find(|&j| args[j].starts_with('-'))
        .unwrap_or(args.len());
    i + 1..end
}

/// `(index, key, value)` of each `key=value` of the group after flag `i`;
/// a key given twice is an error.
pub(crate) fn key_values(
    args: &[String],
    i: usize,
) -> Result<Vec<(usize, &str, &str)>, ConfigError> {
    let range = group(args, i);
    if range.is_empty() {
        return Err(arg_error(args, i, "needs key=value settings after it"));
    }
    let mut out: Vec<(usize, &str, &str)> = Vec::new();
    for j in range {
        let Some((k, v)) = args[j].split_once('=') else {
            return Err(arg_error(args, j, "expected key=value"));
        };
        if out.iter().any(|(_, o, _)| *o == k) {
            return Err(arg_error(args, j, &format!("'{k}' is given twice")));
        }
        out.push((j, k, v));
    }
    Ok(out)
}

/// An error about argument `i`.
pub(crate) fn arg_error(args: &[String], i: usize, message: &str) -> ConfigError {
    ConfigError::Arg {
        index: i + 1,
        arg: args[i].clone(),
        message: message.to_string(),
    }
}

/// The settings of the `-engine` or `-each` at `i`.
fn parse_engine(args: &[String], i: usize) -> Result<EngineDraft, ConfigError> {
    let mut e = EngineDraft {
        index: i + 1,
        ..EngineDraft::default()
    };
    for (j, key, value) in key_values(args, i)? {
        let err = |m: String| arg_error(args, j, &m);
        if let Some(name) = key.strip_prefix("option.") {
            if name.is_empty() {
                return Err(err("option. needs a name: option.NAME=VALUE".to_string()));
            }
            e.options.push((name.to_string(), value.to_string()));
            continue;
        }
        match key {
            "cmd" => e.command = Some(split_command(value).map_err(err)?),
            "name" if value.is_empty() => return Err(err("the name is empty".to_string())),
            "name" => e.name = Some(value.to_string()),
            "dir" => e.dir = Some(PathBuf::from(value)),
            "tc" => e.clock = Some(time_control(value).map_err(err)?),
            "st" => {
                let ms = seconds_ms(value, "st").map_err(err)?;
                if ms == 0 {
                    return Err(err("st must be at least 0.001 seconds".to_string()));
                }
                e.movetime_ms = Some(ms);
            }
            "depth" => e.depth = Some(whole(value, "depth").map_err(err)?),
            "nodes" => e.nodes = Some(whole(value, "nodes").map_err(err)?),
            "restart" => {
                e.restart = Some(match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err(format!("restart is on or off, got '{value}'"))),
                })
            }
            "proto" if value == "uci" => {}
            "proto" => return Err(err(format!("only proto=uci is supported, got '{value}'"))),
            _ => {
                return Err(err(format!(
                    "unknown engine setting '{key}' (known: cmd, name, dir, option.NAME, tc, st, depth, nodes, restart, proto)"
                )))
            }
        }
    }
    Ok(e)
}

/// The single value of the flag at `i`.
pub(crate) fn value_of(args: &[String], i: usize) -> Result<&str, ConfigError> {
    match args.get(i + 1) {
        Some(v) if !v.starts_with('-') || v.len() == 1 => Ok(v),
        _ => Err(arg_error(args, i, "needs a value after it")),
    }
}

/// The whole number after the flag at `i`, at least `min`.
fn count_of<T: std::str::FromStr + PartialOrd + fmt::Display>(
    args: &[String],
    i: usize,
    min: T,
) -> Result<T, ConfigError> {
    let v = value_of(args, i)?;
    whole(v, &args[i])
        .and_then(|n| at_least(n, min, &args[i]))
        .map_err(|m| arg_error(args, i + 1, &m))
}

/// Every flag [`parse_flags`] knows (aliases after their flag).
pub const FLAGS: &[&str] = &[
    "-engine",
    "-each",
    "-concurrency",
    "-games",
    "-rounds",
    "-tournament",
    "-openings",
    "-repeat",
    "-norepeat",
    "-recover",
    "-pgnout",
    "-resume",
    "-sprt",
    "-maxmoves",
    "-nozap",
    "-timemargin",
    "-draw",
    "-resign",
    "-event",
    "-title",
    "-seed",
    "-srand",
    "-db",
];

/// Parses cutechess-style flags (see the module documentation); `args`
/// excludes the program name.
pub fn parse_flags(args: &[String]) -> Result<TournamentSpec, ConfigError> {
    let spec = parse_flags_with(args, |_| Ok(None))?;
    validate(&spec)?;
    Ok(spec)
}

/// The flags of [`parse_flags`] among a command's own (`autotest tune`'s),
/// so that errors count arguments as the user wrote them: `own(i)` is
/// asked about each flag at `i` that is not in [`FLAGS`] and returns how
/// many arguments it took, itself included (`None`: it is unknown). The
/// spec is not validated: the command knows how many engines it needs.
pub fn parse_flags_with(
    args: &[String],
    mut own: impl FnMut(usize) -> Result<Option<usize>, ConfigError>,
) -> Result<TournamentSpec, ConfigError> {
    let mut spec = TournamentSpec::default();
    let mut engines: Vec<EngineDraft> = Vec::new();
    let mut each = EngineDraft::default();
    let mut resume_at = None;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        // How many arguments the flag took, itself included.
        let mut took = 2;
        match flag {
            "-engine" => {
                engines.push(parse_engine(args, i)?);
                took = 1 + group(args, i).len();
            }
            "-each" => {
                each = parse_engine(args, i)?.over(&each);
                took = 1 + group(args, i).len();
            }
            "-concurrency" => spec.concurrency = count_of(args, i, 1)?,
            "-games" => spec.games = count_of(args, i, 1)?,
            "-rounds" => spec.rounds = count_of(args, i, 1)?,
            "-tournament" => {
                spec.schedule = match value_of(args, i)? {
                    "round-robin" => Schedule::RoundRobin,
                    "gauntlet" => Schedule::Gauntlet,
                    _ => {
                        return Err(arg_error(
                            args,
                            i + 1,
                            "the tournament is round-robin or gauntlet",
                        ))
                    }
                }
            }
            "-openings" => {
                spec.openings = parse_openings(args, i)?;
                took = 1 + group(args, i).len();
            }
            "-repeat" => {
                took = 1;
                if let Some(n) = args.get(i + 1).filter(|a| !a.starts_with('-')) {
                    if n != "2" {
                        return Err(arg_error(
                            args,
                            i + 1,
                            "-repeat plays each opening twice (-repeat or -repeat 2)",
                        ));
                    }
                    took = 2;
                }
                spec.repeat = true;
            }
            "-norepeat" => {
                spec.repeat = false;
                took = 1;
            }
            "-recover" => {
                spec.recover = true;
                took = 1;
            }
            "-pgnout" => spec.pgn_out = Some(PathBuf::from(value_of(args, i)?)),
            "-resume" => {
                spec.resume = true;
                resume_at = Some(i);
                took = 1;
            }
            "-sprt" => {
                spec.sprt = Some(parse_sprt(args, i)?);
                took = 1 + group(args, i).len();
            }
            "-maxmoves" => {
                let moves: u32 = count_of(args, i, 0)?;
                spec.max_plies = moves
                    .checked_mul(2)
                    .ok_or_else(|| arg_error(args, i + 1, "too many moves"))?;
            }
            "-event" | "-title" => spec.title = value_of(args, i)?.to_string(),
            "-seed" | "-srand" => spec.seed = count_of(args, i, 0)?,
            "-db" => spec.db = Some(value_of(args, i)?.to_string()),
            "-nozap" => spec.no_zap_plies = count_of(args, i, 0)?,
            "-timemargin" => spec.time_margin_ms = count_of(args, i, 0)?,
            "-draw" | "-resign" => {
                let settings = key_values(args, i)?;
                let pairs: Vec<(&str, &str)> = settings.iter().map(|&(_, k, v)| (k, v)).collect();
                let located =
                    |(at, m): SettingError| arg_error(args, at.map_or(i, |at| settings[at].0), &m);
                if flag == "-draw" {
                    spec.draw = Some(parse_draw(&pairs).map_err(located)?);
                } else {
                    spec.resign = Some(parse_resign(&pairs).map_err(located)?);
                }
                took = 1 + group(args, i).len();
            }
            f if f.starts_with('-') => match own(i)? {
                Some(n) => took = n,
                None => {
                    return Err(arg_error(
                        args,
                        i,
                        &format!("unknown flag (known: {})", FLAGS.join(" ")),
                    ))
                }
            },
            _ => {
                return Err(arg_error(
                    args,
                    i,
                    "unexpected argument (flags start with '-')",
                ))
            }
        }
        i += took;
    }
    if let (Some(i), None) = (resume_at, &spec.pgn_out) {
        return Err(arg_error(
            args,
            i,
            "needs -pgnout FILE: the games to go on from are read from it",
        ));
    }
    spec.engines = finish_engines(args, &engines, &each)?;
    Ok(spec)
}

/// The engines with `-each` applied, checked, named.
fn finish_engines(
    args: &[String],
    engines: &[EngineDraft],
    each: &EngineDraft,
) -> Result<Vec<EngineSpec>, ConfigError> {
    let mut out: Vec<EngineSpec> = Vec::new();
    for draft in engines {
        let e = draft.over(each);
        let Some(command) = e.command else {
            return Err(arg_error(args, e.index - 1, "this engine has no cmd="));
        };
        let name = e.name.unwrap_or_else(|| {
            Path::new(&command[0])
                .file_name()
                .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned())
        });
        out.push(EngineSpec {
            name,
            command,
            dir: e.dir,
            options: e.options,
            limits: EngineLimits {
                clock: e.clock.flatten(),
                movetime_ms: e.movetime_ms,
                depth: e.depth,
                nodes: e.nodes,
            },
            restart: e.restart.unwrap_or(true),
        });
    }
    // Repeated names: the first keeps it, the others get the first free
    // `-2`, `-3`, … suffix (free of every name, given or made).
    let given: Vec<String> = out.iter().map(|e| e.name.clone()).collect();
    let mut taken: Vec<String> = Vec::new();
    for e in &mut out {
        if taken.contains(&e.name) {
            let base = e.name.clone();
            e.name = (2..)
                .map(|k| format!("{base}-{k}"))
                .find(|n| !taken.contains(n) && !given.contains(n))
                .expect("some suffix is free");
        }
        taken.push(e.name.clone());
    }
    Ok(out)
}

/// `-openings file=F [order=sequential|random] [plies=K] [format=…]`.
fn parse_openings(args: &[String], i: usize) -> Result<OpeningsSpec, ConfigError> {
    let mut o = OpeningsSpec::default();
    for (j, key, value) in key_values(args, i)? {
        match key {
            "file" if value.is_empty() => return Err(arg_error(args, j, "the file name is empty")),
            "file" => o.file = Some(PathBuf::from(value)),
            "order" => {
                o.random = match value {
                    "sequential" => false,
                    "random" => true,
                    _ => return Err(arg_error(args, j, "order is sequential or random")),
                }
            }
            "plies" => {
                let plies = whole(value, "plies").and_then(|n| at_least(n, 1, "plies"));
                o.plies = Some(plies.map_err(|m| arg_error(args, j, &m))?);
            }
            "format" => {}
            _ => {
                return Err(arg_error(
                    args,
                    j,
                    &format!(
                        "unknown openings setting '{key}' (known: file, order, plies, format)"
                    ),
                ))
            }
        }
    }
    if o.file.is_none() {
        return Err(arg_error(args, i, "needs file=F"));
    }
    Ok(o)
}

/// `-sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]`.
fn parse_sprt(args: &[String], i: usize) -> Result<SprtSpec, ConfigError> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for (j, key, value) in key_values(args, i)? {
        let slot = match key {
            "elo0" => elo0.insert(0.0),
            "elo1" => elo1.insert(0.0),
            "alpha" => &mut alpha,
            "beta" => &mut beta,
            _ => {
                return Err(arg_error(
                    args,
                    j,
                    &format!("unknown SPRT setting '{key}' (known: elo0, elo1, alpha, beta)"),
                ))
            }
        };
        *slot = real(value, key).map_err(|m| arg_error(args, j, &m))?;
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(arg_error(args, i, "needs elo0= and elo1="));
    };
    Ok(SprtSpec {
        elo0,
        elo1,
        alpha,
        beta,
    })
}
