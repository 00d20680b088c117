//! Tournament configuration: the course's config files (`lauto.jar`'s
//! format, so old lab files keep working) and cutechess-style flags, both
//! parsed into a [`TournamentSpec`] and checked by [`validate`].
//!
//! # Course config files
//!
//! Lines of `key = value` (split at the first `=`, both sides trimmed); `#`
//! outside "double quotes" starts a comment; blank lines are ignored. Keys
//! are matched case-insensitively, option names are kept as written.
//! `crate::course` reads the file: relative paths in it are taken from the
//! config file's directory, and the games are appended to the config's
//! name with `.pgn` in the course referee's layout.
//!
//! Global keys, before the first `player` line:
//!
//! * `cpus = N`: games played at once (`concurrency`; default: the number
//!   of CPUs).
//! * `book = PATH`: the openings file (`openings.file`), taken in file order.
//! * `game_rounds = N`: N games in all (`max_games`), as the course
//!   referee plays them: each pairing in turn plays a colour-swapped game
//!   pair on the next opening, until N games. Without it, every pairing
//!   plays one pair (the course referee plays on until stopped).
//! * `title = TEXT`: the title (PGN `Event`; default `Autotest`, as the
//!   course referee's).
//! * `adjudicate = N`: a draw once the game has N moves of both sides, the
//!   book's included (`max_plies = 2N`; 0: never).
//! * `nozap = PLIES`: the no-zap draw limit (`no_zap_plies`; default 200,
//!   as the course referee; 0: never).
//! * `draw = movenumber=N movecount=M score=S` and `resign = movecount=M
//!   score=S [twosided=true]`: adjudication from the engines' scores, as
//!   the `-draw` and `-resign` flags.
//!
//! Then one section per engine, opened by `player = NAME` (names unique):
//!
//! * `invoke = COMMAND LINE` (required): split on white space, "double
//!   quotes" grouping (no escapes).
//! * `depth = N`, `nodes = N`.
//! * `fis = MAIN INC`: a Fischer clock, seconds (decimals allowed).
//! * `tc = MOVES SECONDS`: `SECONDS` for every `MOVES` moves.
//! * `family = NAME`: players of one family never meet each other
//!   (`TournamentSpec::family`).
//! * any other `key = value`: a UCI option, sent as `setoption` in order.
//!
//! A key given twice in one section, a global key inside a player section,
//! and `fis` together with `tc` are errors.
//!
//! # Flags
//!
//! cutechess-cli's, as far as they make sense here (arguments are counted
//! from 1 after the program name in errors):
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
//!   no-zap draw limit; default 100, the rules'; 0: never).
//! * `-openings file=F [order=sequential|random] [plies=K] [format=…]`
//!   (the format is ignored: the file's lines say what they are).
//! * `-sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]` (alpha and beta default
//!   to 0.05).
//! * `-draw movenumber=N movecount=M score=S`, `-resign movecount=M
//!   score=S [twosided=true]`: adjudication from the engines' scores (see
//!   `crate::adjudication`).
//! * `-repeat` (or `-repeat 2`): colour-swapped game pairs. This is the
//!   default anyway; `-norepeat` turns it off.
//! * `-recover`: restart crashed engines and go on; also the default.
//!
//! Unknown flags and keys are errors, and so is a key given twice in one
//! `-engine`, `-each`, `-openings`, `-sprt`, `-draw` or `-resign`. A
//! repeated flag replaces the earlier one; several `-each` merge, the later
//! winning.

use crate::adjudication::{parse_draw, parse_resign, SettingError};
use crate::spec::{
    Clock, EngineLimits, EngineSpec, OpeningsSpec, Schedule, SprtSpec, TournamentSpec,
    COURSE_NO_ZAP_PLIES,
};
use std::fmt;
use std::path::{Path, PathBuf};

/// What is wrong with a configuration, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ConfigError {
    /// A line of a course config file (counted from 1).
    Line { line: usize, message: String },
    /// A command-line argument (counted from 1 after the program name).
    Arg {
        index: usize,
        arg: String,
        message: String,
    },
    /// The configuration as a whole.
    Invalid(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ConfigError::Line { line, message } => write!(f, "line {line}: {message}"),
            ConfigError::Arg {
                index,
                arg,
                message,
            } => write!(f, "argument {index} '{arg}': {message}"),
            ConfigError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The checks both forms share: at least two engines, each with a command
/// and a distinct name; concurrency, games and rounds at least 1; an SPRT
/// with alpha and beta in (0, 1) and elo0 < elo1.
pub fn validate(spec: &TournamentSpec) -> Result<(), ConfigError> {
    let invalid = |m: String| Err(ConfigError::Invalid(m));
    if spec.engines.len() < 2 {
        return invalid(format!(
            "a tournament needs at least two engines, got {}",
            spec.engines.len()
        ));
    }
    for (i, e) in spec.engines.iter().enumerate() {
        if e.command.is_empty() || e.command[0].is_empty() {
            return invalid(format!("engine '{}' has no command", e.name));
        }
        if spec.engines[..i].iter().any(|o| o.name == e.name) {
            return invalid(format!("two engines are named '{}'", e.name));
        }
    }
    if spec.concurrency < 1 {
        return invalid("concurrency must be at least 1".to_string());
    }
    if spec.games < 1 {
        return invalid("games must be at least 1".to_string());
    }
    if spec.rounds < 1 {
        return invalid("rounds must be at least 1".to_string());
    }
    if let Some(s) = spec.sprt {
        for (name, v) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(v > 0.0 && v < 1.0) {
                return invalid(format!(
                    "SPRT {name} must be between 0 and 1 (exclusive), got {v}"
                ));
            }
        }
        if s.elo0.partial_cmp(&s.elo1) != Some(std::cmp::Ordering::Less) {
            return invalid(format!(
                "SPRT elo0 ({}) must be less than elo1 ({})",
                s.elo0, s.elo1
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Shared value parsers. They return a message; callers add the place.

/// Splits a command line on white space; "double quotes" group (and may
/// sit inside a word: `a"b c"d` is `ab cd`); `""` is an empty argument.
/// There are no escapes.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(format!("unterminated \" in command line '{line}'"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the command line is empty".to_string());
    }
    Ok(words)
}

/// A whole number written with digits only.
fn parse_count<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} must be a whole number, got '{s}'"));
    }
    s.parse().map_err(|_| format!("{what} is too large: '{s}'"))
}

/// Seconds as a decimal number (`12`, `0.5`, `.25`, `3.`) in whole ms.
fn parse_seconds_ms(s: &str, what: &str) -> Result<u64, String> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !digits(int) || !digits(frac) {
        return Err(format!("{what} must be a number of seconds, got '{s}'"));
    }
    let ms = (s
        .parse::<f64>()
        .map_err(|_| format!("{what}: bad number '{s}'"))?
        * 1000.0)
        .round();
    if ms >= u64::MAX as f64 {
        return Err(format!("{what} is too large: '{s}'"));
    }
    Ok(ms as u64)
}

/// A time in seconds or as `MINUTES:SECONDS`, in ms.
fn parse_time_ms(s: &str, what: &str) -> Result<u64, String> {
    match s.split_once(':') {
        None => parse_seconds_ms(s, what),
        Some((m, sec)) => {
            let minutes: u64 = parse_count(m, what)?;
            minutes
                .checked_mul(60_000)
                .and_then(|ms| ms.checked_add(parse_seconds_ms(sec, what).ok()?))
                .ok_or_else(|| format!("{what} must be seconds or MINUTES:SECONDS, got '{s}'"))
        }
    }
}

/// A real number (for the SPRT).
fn parse_real(s: &str, what: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{what} must be a number, got '{s}'")),
    }
}

/// A cutechess time control: `[MOVES/]BASE[+INC]` (seconds, decimals
/// allowed, BASE also `M:SS`), or `inf` for no clock (`None`). `MOVES`
/// gives a [`Clock::Period`]; without it (or with 0) it is a
/// [`Clock::Fischer`]. A period clock with an increment has no
/// [`Clock`] and is refused.
pub fn parse_tc(s: &str) -> Result<Option<Clock>, String> {
    if s.eq_ignore_ascii_case("inf") {
        return Ok(None);
    }
    let bad =
        |why: String| format!("bad time control '{s}' (want [MOVES/]SECONDS[+INC] or inf): {why}");
    let (moves, rest) = match s.split_once('/') {
        Some((m, rest)) => (parse_count::<u32>(m, "MOVES").map_err(bad)?, rest),
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = parse_time_ms(base, "the base time").map_err(bad)?;
    let inc_ms = match inc {
        Some(i) => parse_seconds_ms(i, "the increment").map_err(bad)?,
        None => 0,
    };
    if base_ms == 0 {
        return Err(bad("the base time must be positive".to_string()));
    }
    if moves == 0 {
        return Ok(Some(Clock::Fischer { base_ms, inc_ms }));
    }
    if inc_ms > 0 {
        return Err(bad(
            "moves per period with an increment is not supported".to_string()
        ));
    }
    Ok(Some(Clock::Period {
        moves,
        period_ms: base_ms,
    }))
}

// ---------------------------------------------------------------------------
// Course config files.

const GLOBAL_KEYS: [&str; 8] = [
    "cpus",
    "book",
    "game_rounds",
    "title",
    "adjudicate",
    "nozap",
    "draw",
    "resign",
];

/// A player section being read.
struct Player {
    line: usize,
    name: String,
    command: Option<Vec<String>>,
    options: Vec<(String, String)>,
    limits: EngineLimits,
    family: Option<String>,
}

/// The text of a line without its comment (`#` outside double quotes).
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Parses a course config file (see the module documentation).
pub fn parse_course_config(text: &str) -> Result<TournamentSpec, ConfigError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut spec = TournamentSpec {
        title: "Autotest".to_string(),
        games: 2,
        repeat: true,
        no_zap_plies: COURSE_NO_ZAP_PLIES,
        ..TournamentSpec::default()
    };
    let mut players: Vec<Player> = Vec::new();
    // Keys of the current section (global or the last player's), lower
    // case, with their lines.
    let mut seen: Vec<(String, usize)> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let err = |message: String| ConfigError::Line { line, message };
        let content = strip_comment(raw).trim();
        if content.is_empty() {
            continue;
        }
        let Some((key, value)) = content.split_once('=') else {
            return Err(err(format!("expected 'key = value', got '{content}'")));
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() {
            return Err(err(format!("no key before '=' in '{content}'")));
        }
        if value.is_empty() {
            return Err(err(format!("'{key}' has no value")));
        }
        let lower = key.to_ascii_lowercase();
        if lower == "player" {
            if let Some(p) = players.last() {
                if p.command.is_none() {
                    return Err(missing_invoke(p));
                }
            }
            if let Some(p) = players.iter().find(|p| p.name == value) {
                return Err(err(format!(
                    "player name '{value}' is already used on line {}",
                    p.line
                )));
            }
            players.push(Player {
                line,
                name: value.to_string(),
                command: None,
                options: Vec::new(),
                limits: EngineLimits::default(),
                family: None,
            });
            seen.clear();
            continue;
        }
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == lower) {
            return Err(err(format!(
                "'{key}' is given twice in this section (also on line {first})"
            )));
        }
        seen.push((lower.clone(), line));
        let Some(player) = players.last_mut() else {
            set_global(&mut spec, &lower, value).map_err(err)?;
            continue;
        };
        let limits = &mut player.limits;
        match lower.as_str() {
            "invoke" => player.command = Some(split_command(value).map_err(err)?),
            "depth" => limits.depth = Some(parse_count(value, "depth").map_err(err)?),
            "nodes" => limits.nodes = Some(parse_count(value, "nodes").map_err(err)?),
            "fis" | "tc" => {
                if limits.clock.is_some() {
                    return Err(err(
                        "a player has either 'fis' or 'tc', not both".to_string()
                    ));
                }
                let clock = if lower == "fis" {
                    parse_fis(value)
                } else {
                    parse_period(value)
                };
                limits.clock = Some(clock.map_err(err)?);
            }
            "family" => player.family = Some(value.to_string()),
            k if GLOBAL_KEYS.contains(&k) => {
                return Err(err(format!(
                    "'{key}' is a global key: it must come before the first 'player' line"
                )))
            }
            _ => player.options.push((key.to_string(), value.to_string())),
        }
    }
    if let Some(p) = players.last() {
        if p.command.is_none() {
            return Err(missing_invoke(p));
        }
    }
    match players.as_slice() {
        [] => {
            return Err(ConfigError::Invalid(
                "no players: a tournament needs at least two 'player' sections".to_string(),
            ))
        }
        [p] => {
            return Err(ConfigError::Invalid(format!(
                "only one player ('{}', line {}): a tournament needs at least two",
                p.name, p.line
            )))
        }
        _ => {}
    }
    spec.family = players.iter().map(|p| p.family.clone()).collect();
    spec.engines = players
        .into_iter()
        .map(|p| EngineSpec {
            name: p.name,
            command: p.command.unwrap_or_default(),
            dir: None,
            options: p.options,
            limits: p.limits,
        })
        .collect();
    validate(&spec)?;
    Ok(spec)
}

fn missing_invoke(p: &Player) -> ConfigError {
    ConfigError::Line {
        line: p.line,
        message: format!("player '{}' has no 'invoke' line", p.name),
    }
}

/// A key before the first player.
fn set_global(spec: &mut TournamentSpec, key: &str, value: &str) -> Result<(), String> {
    match key {
        "cpus" => {
            spec.concurrency = parse_count(value, "cpus")?;
            if spec.concurrency < 1 {
                return Err("cpus must be at least 1".to_string());
            }
        }
        "book" => spec.openings.file = Some(PathBuf::from(value)),
        "game_rounds" => {
            let games: u32 = parse_count(value, "game_rounds")?;
            if games < 1 {
                return Err("game_rounds must be at least 1".to_string());
            }
            spec.max_games = Some(games);
        }
        "title" => spec.title = value.to_string(),
        "adjudicate" => {
            let moves: u32 = parse_count(value, "adjudicate")?;
            spec.max_plies = moves.checked_mul(2).ok_or("adjudicate: too many moves")?;
        }
        "nozap" => spec.no_zap_plies = parse_count(value, "nozap")?,
        "draw" | "resign" => {
            let settings = value
                .split_whitespace()
                .map(|kv| {
                    kv.split_once('=')
                        .ok_or_else(|| format!("{key}: expected key=value, got '{kv}'"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let located = |(_, m): SettingError| format!("{key}: {m}");
            if key == "draw" {
                spec.draw = Some(parse_draw(&settings).map_err(located)?);
            } else {
                spec.resign = Some(parse_resign(&settings).map_err(located)?);
            }
        }
        "invoke" | "depth" | "nodes" | "fis" | "tc" => {
            return Err(format!("'{key}' belongs to a player, but no 'player = NAME' line comes before it"))
        }
        _ => {
            return Err(format!(
                "unknown global key '{key}' (global keys: {}; engine settings and options go after a 'player = NAME' line)",
                GLOBAL_KEYS.join(", ")
            ))
        }
    }
    Ok(())
}

/// `fis = MAIN INC`, seconds.
fn parse_fis(value: &str) -> Result<Clock, String> {
    let [main, inc] = value.split_whitespace().collect::<Vec<_>>()[..] else {
        return Err(format!("'fis' wants 'MAIN INC' in seconds, got '{value}'"));
    };
    let base_ms = parse_seconds_ms(main, "the fis main time")?;
    let inc_ms = parse_seconds_ms(inc, "the fis increment")?;
    if base_ms == 0 {
        return Err("the fis main time must be positive".to_string());
    }
    Ok(Clock::Fischer { base_ms, inc_ms })
}

/// `tc = MOVES SECONDS`.
fn parse_period(value: &str) -> Result<Clock, String> {
    let [moves, secs] = value.split_whitespace().collect::<Vec<_>>()[..] else {
        return Err(format!("'tc' wants 'MOVES SECONDS', got '{value}'"));
    };
    let moves: u32 = parse_count(moves, "the tc moves")?;
    let period_ms = parse_seconds_ms(secs, "the tc seconds")?;
    if moves == 0 || period_ms == 0 {
        return Err(format!(
            "'tc' wants a positive number of moves and of seconds, got '{value}'"
        ));
    }
    Ok(Clock::Period { moves, period_ms })
}

// ---------------------------------------------------------------------------
// Flags.

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
fn key_values(args: &[String], i: usize) -> Result<Vec<(usize, &str, &str)>, ConfigError> {
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

fn arg_error(args: &[String], i: usize, message: &str) -> ConfigError {
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
            "tc" => e.clock = Some(parse_tc(value).map_err(err)?),
            "st" => {
                let ms = parse_seconds_ms(value, "st").map_err(err)?;
                if ms == 0 {
                    return Err(err("st must be at least 0.001 seconds".to_string()));
                }
                e.movetime_ms = Some(ms);
            }
            "depth" => e.depth = Some(parse_count(value, "depth").map_err(err)?),
            "nodes" => e.nodes = Some(parse_count(value, "nodes").map_err(err)?),
            "proto" if value == "uci" => {}
            "proto" => return Err(err(format!("only proto=uci is supported, got '{value}'"))),
            _ => {
                return Err(err(format!(
                    "unknown engine setting '{key}' (known: cmd, name, dir, option.NAME, tc, st, depth, nodes, proto)"
                )))
            }
        }
    }
    Ok(e)
}

/// The single value of the flag at `i`.
fn value_of(args: &[String], i: usize) -> Result<&str, ConfigError> {
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
    let n: T = parse_count(v, &args[i]).map_err(|m| arg_error(args, i + 1, &m))?;
    if n < min {
        return Err(arg_error(
            args,
            i + 1,
            &format!("{} must be at least {min}", args[i]),
        ));
    }
    Ok(n)
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
    "-sprt",
    "-maxmoves",
    "-nozap",
    "-draw",
    "-resign",
    "-event",
    "-title",
    "-seed",
    "-srand",
];

/// Parses cutechess-style flags (see the module documentation); `args`
/// excludes the program name.
pub fn parse_flags(args: &[String]) -> Result<TournamentSpec, ConfigError> {
    let mut spec = TournamentSpec::default();
    let mut engines: Vec<EngineDraft> = Vec::new();
    let mut each = EngineDraft::default();
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
            "-nozap" => spec.no_zap_plies = count_of(args, i, 0)?,
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
            f if f.starts_with('-') => {
                return Err(arg_error(
                    args,
                    i,
                    &format!("unknown flag (known: {})", FLAGS.join(" ")),
                ))
            }
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
    spec.engines = finish_engines(args, &engines, &each)?;
    validate(&spec)?;
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
                let plies: usize =
                    parse_count(value, "plies").map_err(|m| arg_error(args, j, &m))?;
                if plies == 0 {
                    return Err(arg_error(args, j, "plies must be at least 1"));
                }
                o.plies = Some(plies);
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
        *slot = parse_real(value, key).map_err(|m| arg_error(args, j, &m))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{DrawRule, ResignRule};

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|a| a.to_string()).collect()
    }

    fn flags(line: &str) -> Result<TournamentSpec, ConfigError> {
        parse_flags(&split_command(line).unwrap_or_default())
    }

    fn opts(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(k, x)| (k.to_string(), x.to_string()))
            .collect()
    }

    /// The line of a course config error (panics on other errors).
    fn line_of(text: &str) -> (usize, String) {
        match parse_course_config(text) {
            Err(ConfigError::Line { line, message }) => (line, message),
            other => panic!("expected a line error, got {other:?}"),
        }
    }

    /// The argument index of a flags error (panics on other errors).
    fn arg_of(line: &str) -> (usize, String, String) {
        match flags(line) {
            Err(ConfigError::Arg {
                index,
                arg,
                message,
            }) => (index, arg, message),
            other => panic!("expected an argument error, got {other:?}"),
        }
    }

    fn fischer(base_ms: u64, inc_ms: u64) -> Option<Clock> {
        Some(Clock::Fischer { base_ms, inc_ms })
    }

    const TWO: &str = "player = a\ninvoke = ./a\nplayer = b\ninvoke = ./b\n";

    // ----- course config files

    #[test]
    fn full_course_config() {
        let text = "\
# A lab test.
cpus = 4
book = ../tests/book.dta   # the course's book
game_rounds = 50
title = My funky test
adjudicate = 400
nozap = 300
draw = movenumber=30 movecount=4 score=5
resign = movecount=3 score=500 twosided=true

# now the players
player = reference
invoke = ../player/leiserchess --uci
fis = 60 0.5

player = myLeiserchess-test
invoke = \"../my player/leiserchess\"
fis = 6 0.1
depth = 8
hash = 64
lmr_r1 = 5
";
        let expected = TournamentSpec {
            title: "My funky test".to_string(),
            engines: vec![
                EngineSpec {
                    name: "reference".to_string(),
                    command: s(&["../player/leiserchess", "--uci"]),
                    dir: None,
                    options: Vec::new(),
                    limits: EngineLimits {
                        clock: fischer(60_000, 500),
                        ..EngineLimits::default()
                    },
                },
                EngineSpec {
                    name: "myLeiserchess-test".to_string(),
                    command: s(&["../my player/leiserchess"]),
                    dir: None,
                    options: opts(&[("hash", "64"), ("lmr_r1", "5")]),
                    limits: EngineLimits {
                        clock: fischer(6_000, 100),
                        depth: Some(8),
                        ..EngineLimits::default()
                    },
                },
            ],
            schedule: Schedule::RoundRobin,
            games: 2,
            rounds: 1,
            max_games: Some(50),
            concurrency: 4,
            openings: OpeningsSpec {
                file: Some(PathBuf::from("../tests/book.dta")),
                random: false,
                plies: None,
            },
            repeat: true,
            pgn_out: None,
            sprt: None,
            max_plies: 800,
            no_zap_plies: 300,
            draw: Some(DrawRule {
                move_number: 30,
                move_count: 4,
                score_cp: 5,
            }),
            resign: Some(ResignRule {
                move_count: 3,
                score_cp: 500,
                two_sided: true,
            }),
            family: vec![None, None],
            ..TournamentSpec::default()
        };
        assert_eq!(parse_course_config(text).unwrap(), expected);
    }

    #[test]
    fn course_families_never_meet() {
        let text = "player = a1\ninvoke = e\nfamily = a\nplayer = a2\ninvoke = e\nfamily = a\nplayer = b\ninvoke = e\n";
        let spec = parse_course_config(text).unwrap();
        assert_eq!(
            spec.family,
            vec![Some("a".to_string()), Some("a".to_string()), None]
        );
        let jobs = crate::tournament::schedule(&spec, 1);
        assert!(jobs
            .iter()
            .all(|j| (j.white.min(j.black), j.white.max(j.black)) != (0, 1)));
        assert_eq!(jobs.len(), 4);
    }

    #[test]
    fn course_defaults_and_other_limits() {
        let text = "\
player = depth_1
invoke = eng
depth = 1
player = by_nodes
invoke = eng
nodes = 100000
tc = 40 60.5
Player = p3
INVOKE = eng a\"b c\"d \"\"
Fis = 1 0
Hash = 16
";
        let spec = parse_course_config(text).unwrap();
        let d = TournamentSpec::default();
        assert_eq!(
            (spec.rounds, spec.games, spec.repeat, spec.max_plies),
            (1, 2, true, 0)
        );
        // The course referee's title and no-zap limit; no game limit.
        assert_eq!(
            (spec.max_games, spec.no_zap_plies, spec.draw, spec.resign),
            (None, 200, None, None)
        );
        assert_eq!(
            (
                spec.title.as_str(),
                spec.concurrency,
                spec.openings.file.clone()
            ),
            ("Autotest", d.concurrency, None)
        );
        let e = &spec.engines;
        assert_eq!(e.len(), 3);
        assert_eq!(
            e[0].limits,
            EngineLimits {
                depth: Some(1),
                ..EngineLimits::default()
            }
        );
        assert_eq!(
            e[1].limits,
            EngineLimits {
                clock: Some(Clock::Period {
                    moves: 40,
                    period_ms: 60_500
                }),
                nodes: Some(100_000),
                ..EngineLimits::default()
            }
        );
        // Keys are case-insensitive, option names kept as written.
        assert_eq!(e[2].name, "p3");
        assert_eq!(e[2].command, s(&["eng", "ab cd", ""]));
        assert_eq!(e[2].limits.clock, fischer(1_000, 0));
        assert_eq!(e[2].options, opts(&[("Hash", "16")]));
    }

    #[test]
    fn course_comments_and_equals_in_values() {
        let text = "\u{feff}  # comment\r\n\r\ntitle = a = b\r\nplayer = x\r\ninvoke = eng --opt=1 \"#not a comment\" # a comment\r\nplayer = y\r\ninvoke = eng\r\n";
        let spec = parse_course_config(text).unwrap();
        assert_eq!(spec.title, "a = b");
        assert_eq!(
            spec.engines[0].command,
            s(&["eng", "--opt=1", "#not a comment"])
        );
    }

    #[test]
    fn course_line_without_equals() {
        let (line, msg) = line_of("cpus = 2\n\nplayer x\n");
        assert_eq!(line, 3);
        assert!(msg.contains("key = value"), "{msg}");
        let (line, msg) = line_of("= 3\n");
        assert_eq!(line, 1);
        assert!(msg.contains("no key"), "{msg}");
        let (line, msg) = line_of("title =\n");
        assert_eq!(line, 1);
        assert!(msg.contains("no value"), "{msg}");
    }

    #[test]
    fn course_unknown_global_key() {
        let (line, msg) = line_of("cpus = 2\nhash = 64\n");
        assert_eq!(line, 2);
        assert!(msg.contains("unknown global key 'hash'"), "{msg}");
    }

    #[test]
    fn course_player_key_before_any_player() {
        for key in [
            "invoke = eng",
            "depth = 3",
            "nodes = 9",
            "fis = 1 1",
            "tc = 40 60",
        ] {
            let (line, msg) = line_of(&format!("# x\n{key}\n{TWO}"));
            assert_eq!(line, 2, "{key}");
            assert!(
                msg.contains("no 'player = NAME' line comes before"),
                "{msg}"
            );
        }
    }

    #[test]
    fn course_missing_invoke() {
        // In the middle (reported at the player's line) and at the end.
        let (line, msg) = line_of("player = a\ndepth = 2\nplayer = b\ninvoke = e\n");
        assert_eq!(line, 1);
        assert!(msg.contains("player 'a' has no 'invoke'"), "{msg}");
        let (line, msg) = line_of("player = a\ninvoke = e\n\nplayer = b\ndepth = 2\n");
        assert_eq!(line, 4);
        assert!(msg.contains("player 'b' has no 'invoke'"), "{msg}");
        let (line, msg) = line_of("player = a\ninvoke = \"\"\"\n");
        assert_eq!(line, 2);
        assert!(msg.contains("unterminated"), "{msg}");
    }

    #[test]
    fn course_bad_numbers() {
        let cases = [
            ("cpus = x\n", 1, "cpus must be a whole number"),
            ("cpus = 0\n", 1, "cpus must be at least 1"),
            (
                "game_rounds = -3\n",
                1,
                "game_rounds must be a whole number",
            ),
            ("game_rounds = 0\n", 1, "game_rounds must be at least 1"),
            ("adjudicate = 1.5\n", 1, "adjudicate must be a whole number"),
            ("cpus = 99999999999999999999999\n", 1, "too large"),
            ("nozap = -1\n", 1, "nozap must be a whole number"),
            (
                "draw = movenumber=1 movecount=2\n",
                1,
                "draw: -draw needs movenumber=N movecount=M score=S",
            ),
            ("draw = 40 8 10\n", 1, "draw: expected key=value, got '40'"),
            (
                "resign = movecount=0 score=1\n",
                1,
                "resign: movecount must be at least 1",
            ),
            (
                "resign = movecount=2 score=1 sides=2\n",
                1,
                "unknown -resign setting 'sides'",
            ),
            (
                "player = a\ninvoke = e\ndepth = -1\n",
                3,
                "depth must be a whole number",
            ),
            (
                "player = a\ninvoke = e\nnodes = 1e6\n",
                3,
                "nodes must be a whole number",
            ),
            (
                "player = a\ninvoke = e\nfis = 60\n",
                3,
                "'fis' wants 'MAIN INC'",
            ),
            (
                "player = a\ninvoke = e\nfis = 60 1 2\n",
                3,
                "'fis' wants 'MAIN INC'",
            ),
            (
                "player = a\ninvoke = e\nfis = a 1\n",
                3,
                "must be a number of seconds",
            ),
            (
                "player = a\ninvoke = e\nfis = 6 -1\n",
                3,
                "must be a number of seconds",
            ),
            ("player = a\ninvoke = e\nfis = 0 1\n", 3, "must be positive"),
            (
                "player = a\ninvoke = e\ntc = 0 60\n",
                3,
                "positive number of moves",
            ),
            (
                "player = a\ninvoke = e\ntc = 40\n",
                3,
                "'tc' wants 'MOVES SECONDS'",
            ),
            (
                "player = a\ninvoke = e\ntc = 40 inf\n",
                3,
                "must be a number of seconds",
            ),
        ];
        for (text, want_line, want) in cases {
            let (line, msg) = line_of(text);
            assert_eq!(line, want_line, "{text}");
            assert!(msg.contains(want), "{text}: {msg}");
        }
    }

    #[test]
    fn course_duplicate_player_names() {
        let (line, msg) =
            line_of("player = a\ninvoke = e\nplayer = b\ninvoke = e\nplayer = a\ninvoke = e\n");
        assert_eq!(line, 5);
        assert!(msg.contains("'a' is already used on line 1"), "{msg}");
    }

    #[test]
    fn course_fewer_than_two_players() {
        for text in ["", "cpus = 2\n", "# nothing\n"] {
            match parse_course_config(text) {
                Err(ConfigError::Invalid(m)) => assert!(m.contains("at least two"), "{m}"),
                other => panic!("{other:?}"),
            }
        }
        match parse_course_config("cpus = 1\nplayer = solo\ninvoke = e\n") {
            Err(e @ ConfigError::Invalid(_)) => {
                let m = e.to_string();
                assert!(m.contains("only one player ('solo', line 2)"), "{m}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn course_misplaced_and_repeated_keys() {
        let (line, msg) = line_of(&format!("{TWO}cpus = 4\n"));
        assert_eq!(line, 5);
        assert!(msg.contains("global key"), "{msg}");
        let (line, msg) = line_of("player = a\ninvoke = e\ndepth = 2\nDepth = 3\n");
        assert_eq!(line, 4);
        assert!(
            msg.contains("given twice") && msg.contains("line 3"),
            "{msg}"
        );
        let (line, msg) = line_of("player = a\ninvoke = e\nhash = 2\nhash = 3\n");
        assert_eq!(line, 4);
        assert!(msg.contains("given twice"), "{msg}");
        let (line, msg) = line_of("cpus = 2\ncpus = 3\n");
        assert_eq!(line, 2);
        assert!(msg.contains("given twice"), "{msg}");
        let (line, msg) = line_of("player = a\ninvoke = e\nfis = 1 1\ntc = 40 60\n");
        assert_eq!(line, 4);
        assert!(msg.contains("not both"), "{msg}");
        // The same key in two players' sections is fine.
        assert!(parse_course_config(
            "player = a\ninvoke = e\ndepth = 2\nplayer = b\ninvoke = e\ndepth = 3\n"
        )
        .is_ok());
    }

    #[test]
    fn course_errors_display_the_line() {
        let e = parse_course_config("cpus = 2\nbogus = 1\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 2: unknown global key 'bogus'"),
            "{e}"
        );
    }

    // ----- flags

    #[test]
    fn full_flags() {
        let args = s(&[
            "-engine",
            "cmd=./leiserchess --uci",
            "name=new",
            "option.hash=64",
            "tc=60+0.6",
            "-engine",
            "cmd=/opt/old/leiserchess",
            "dir=/opt/old",
            "tc=40/60",
            "st=0.5",
            "depth=12",
            "nodes=1000000",
            "proto=uci",
            "-concurrency",
            "3",
            "-games",
            "4",
            "-rounds",
            "10",
            "-tournament",
            "gauntlet",
            "-openings",
            "file=book.txt",
            "order=random",
            "plies=6",
            "format=epd",
            "-repeat",
            "-pgnout",
            "out.pgn",
            "-sprt",
            "elo0=0",
            "elo1=5",
            "alpha=0.05",
            "beta=0.1",
            "-maxmoves",
            "150",
            "-recover",
            "-event",
            "Lab test",
            "-seed",
            "42",
            "-nozap",
            "150",
            "-draw",
            "movenumber=40",
            "movecount=8",
            "score=10",
            "-resign",
            "score=400",
            "movecount=3",
        ]);
        let expected = TournamentSpec {
            title: "Lab test".to_string(),
            engines: vec![
                EngineSpec {
                    name: "new".to_string(),
                    command: s(&["./leiserchess", "--uci"]),
                    dir: None,
                    options: opts(&[("hash", "64")]),
                    limits: EngineLimits {
                        clock: fischer(60_000, 600),
                        ..EngineLimits::default()
                    },
                },
                EngineSpec {
                    name: "leiserchess".to_string(),
                    command: s(&["/opt/old/leiserchess"]),
                    dir: Some(PathBuf::from("/opt/old")),
                    options: Vec::new(),
                    limits: EngineLimits {
                        clock: Some(Clock::Period {
                            moves: 40,
                            period_ms: 60_000,
                        }),
                        movetime_ms: Some(500),
                        depth: Some(12),
                        nodes: Some(1_000_000),
                    },
                },
            ],
            schedule: Schedule::Gauntlet,
            games: 4,
            rounds: 10,
            concurrency: 3,
            openings: OpeningsSpec {
                file: Some(PathBuf::from("book.txt")),
                random: true,
                plies: Some(6),
            },
            repeat: true,
            pgn_out: Some(PathBuf::from("out.pgn")),
            sprt: Some(SprtSpec {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.1,
            }),
            max_plies: 300,
            no_zap_plies: 150,
            draw: Some(DrawRule {
                move_number: 40,
                move_count: 8,
                score_cp: 10,
            }),
            resign: Some(ResignRule {
                move_count: 3,
                score_cp: 400,
                two_sided: false,
            }),
            recover: true,
            seed: 42,
            ..TournamentSpec::default()
        };
        assert_eq!(parse_flags(&args).unwrap(), expected);
    }

    #[test]
    fn flags_defaults() {
        let spec = flags("-engine cmd=a -engine cmd=b").unwrap();
        let d = TournamentSpec::default();
        assert_eq!(spec.engines.len(), 2);
        assert_eq!(
            TournamentSpec {
                engines: Vec::new(),
                ..spec.clone()
            },
            d
        );
        assert_eq!(spec.engines[0].limits, EngineLimits::default());
        // -title, -srand, -norepeat, -repeat 2; a later flag wins.
        let spec =
            flags("-engine cmd=a -engine cmd=b -title T -srand 7 -norepeat -games 3 -games 5")
                .unwrap();
        assert_eq!(
            (spec.title.as_str(), spec.seed, spec.repeat, spec.games),
            ("T", 7, false, 5)
        );
        let spec = flags("-norepeat -repeat 2 -engine cmd=a -engine cmd=b -maxmoves 0").unwrap();
        assert!(spec.repeat);
        assert_eq!(spec.max_plies, 0);
        let spec = flags("-engine cmd=a -engine cmd=b -openings file=o.txt").unwrap();
        assert_eq!(
            spec.openings,
            OpeningsSpec {
                file: Some(PathBuf::from("o.txt")),
                random: false,
                plies: None
            }
        );
        let spec = flags("-engine cmd=a -engine cmd=b -sprt elo0=-1.5 elo1=2.5").unwrap();
        assert_eq!(
            spec.sprt,
            Some(SprtSpec {
                elo0: -1.5,
                elo1: 2.5,
                alpha: 0.05,
                beta: 0.05
            })
        );
    }

    #[test]
    fn each_precedence() {
        let spec = flags(
            "-each tc=10+0.1 depth=6 option.hash=32 option.threads=2 dir=/tmp \
             -engine cmd=a option.HASH=64 -engine cmd=b tc=inf nodes=5000 \
             -engine cmd=c tc=40/20 depth=9 dir=/c -each st=0.25 depth=7",
        )
        .unwrap();
        let [a, b, c] = &spec.engines[..] else {
            panic!()
        };
        // A's own option replaces -each's of that name (UCI names are
        // case-insensitive); -each's others come first.
        assert_eq!(a.options, opts(&[("threads", "2"), ("HASH", "64")]));
        assert_eq!(
            a.limits,
            EngineLimits {
                clock: fischer(10_000, 100),
                movetime_ms: Some(250),
                depth: Some(7),
                nodes: None,
            }
        );
        assert_eq!(a.dir, Some(PathBuf::from("/tmp")));
        // tc=inf removes -each's clock.
        assert_eq!(b.options, opts(&[("hash", "32"), ("threads", "2")]));
        assert_eq!(
            b.limits,
            EngineLimits {
                clock: None,
                movetime_ms: Some(250),
                depth: Some(7),
                nodes: Some(5000),
            }
        );
        assert_eq!(
            c.limits,
            EngineLimits {
                clock: Some(Clock::Period {
                    moves: 40,
                    period_ms: 20_000
                }),
                movetime_ms: Some(250),
                depth: Some(9),
                nodes: None,
            }
        );
        assert_eq!(c.dir, Some(PathBuf::from("/c")));
        // -each can supply the command too.
        let spec = flags("-each cmd=./eng -engine name=x -engine name=y depth=3").unwrap();
        assert_eq!(spec.engines[1].command, s(&["./eng"]));
    }

    #[test]
    fn engine_names() {
        let spec = flags(
            "-engine cmd=/bin/eng -engine cmd=\"./eng --x\" -engine cmd=eng name=eng-2 -engine cmd=other/eng -engine cmd=x name=solo",
        )
        .unwrap();
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        // "eng-2" is taken by a given name, so the copies skip it.
        assert_eq!(names, ["eng", "eng-3", "eng-2", "eng-4", "solo"]);
        let spec = flags("-engine cmd=a -engine cmd=a -engine cmd=a").unwrap();
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "a-2", "a-3"]);
    }

    #[test]
    fn quoting_in_commands() {
        assert_eq!(split_command("  a  b\tc ").unwrap(), s(&["a", "b", "c"]));
        assert_eq!(
            split_command("\"/my dir/eng\" -x \"two words\"").unwrap(),
            s(&["/my dir/eng", "-x", "two words"])
        );
        assert_eq!(
            split_command("a\"b c\"d \"\" e").unwrap(),
            s(&["ab cd", "", "e"])
        );
        assert!(split_command("a \"b").unwrap_err().contains("unterminated"));
        assert!(split_command("   ").unwrap_err().contains("empty"));
        assert!(split_command("").is_err());
        // cmd= passed by the shell as one argument with spaces.
        let spec = parse_flags(&s(&[
            "-engine",
            "cmd=\"/opt/my engine/run\" --fast",
            "-engine",
            "cmd=b",
        ]))
        .unwrap();
        assert_eq!(
            spec.engines[0].command,
            s(&["/opt/my engine/run", "--fast"])
        );
        assert_eq!(spec.engines[0].name, "run");
        let (index, _, msg) = arg_of("-engine cmd= -engine cmd=b");
        assert_eq!(index, 2);
        assert!(msg.contains("empty"), "{msg}");
    }

    #[test]
    fn tc_parsing() {
        let period = |moves, period_ms| Ok(Some(Clock::Period { moves, period_ms }));
        assert_eq!(parse_tc("40/60"), period(40, 60_000));
        assert_eq!(parse_tc("60+0.6"), Ok(fischer(60_000, 600)));
        assert_eq!(parse_tc("0.5+0.05"), Ok(fischer(500, 50)));
        assert_eq!(parse_tc("10+0.1"), Ok(fischer(10_000, 100)));
        assert_eq!(parse_tc("60"), Ok(fischer(60_000, 0)));
        assert_eq!(parse_tc(".5+.01"), Ok(fischer(500, 10)));
        assert_eq!(parse_tc("inf"), Ok(None));
        assert_eq!(parse_tc("INF"), Ok(None));
        assert_eq!(parse_tc("0/60+1"), Ok(fischer(60_000, 1000)));
        assert_eq!(parse_tc("40/2:00"), period(40, 120_000));
        assert_eq!(parse_tc("1:30+1"), Ok(fischer(90_000, 1000)));
        assert_eq!(parse_tc("40/60+0"), period(40, 60_000));
        for bad in [
            "",
            "abc",
            "60+",
            "+1",
            "/60",
            "40/",
            "x/60",
            "-60",
            "60+-1",
            "60s",
            "1e3",
            "nan",
            "infinity",
            "0",
            "0+1",
            "60++1",
            "40/60+0.6",
            "1:x",
            "40/60/2",
            "60+0.5+1",
        ] {
            let e = parse_tc(bad).expect_err(bad);
            assert!(e.contains("bad time control"), "{bad}: {e}");
        }
        assert!(parse_tc("40/60+0.6").unwrap_err().contains("not supported"));
        // Through the flags, with the argument named.
        let (index, arg, msg) = arg_of("-engine cmd=a tc=60+x -engine cmd=b");
        assert_eq!((index, arg.as_str()), (3, "tc=60+x"));
        assert!(msg.contains("bad time control"), "{msg}");
    }

    #[test]
    fn flag_errors_name_the_argument() {
        let two = "-engine cmd=a -engine cmd=b";
        let cases: &[(String, usize, &str, &str)] = &[
            (format!("{two} -bogus 3"), 5, "-bogus", "unknown flag"),
            (
                format!("-engine cmd=a ponder=on {two}"),
                3,
                "ponder=on",
                "unknown engine setting 'ponder'",
            ),
            (
                format!("-each bogus=1 {two}"),
                2,
                "bogus=1",
                "unknown engine setting",
            ),
            (
                format!("-engine cmd=a depth {two}"),
                3,
                "depth",
                "expected key=value",
            ),
            (
                format!("-engine cmd=a depth=1 depth=2 {two}"),
                4,
                "depth=2",
                "given twice",
            ),
            (format!("-engine {two}"), 1, "-engine", "needs key=value"),
            (format!("-engine name=x {two}"), 1, "-engine", "no cmd="),
            (
                format!("{two} -draw movenumber=40"),
                5,
                "-draw",
                "needs movenumber=N movecount=M score=S",
            ),
            (
                format!("{two} -draw movenumber=40 movecount=x score=1"),
                7,
                "movecount=x",
                "movecount must be a whole number",
            ),
            (format!("{two} -draw"), 5, "-draw", "needs key=value"),
            (
                format!("{two} -resign movecount=3 score=4 twosided=1"),
                8,
                "twosided=1",
                "true or false",
            ),
            (
                format!("{two} -resign movecount=0 score=4"),
                6,
                "movecount=0",
                "at least 1",
            ),
            (
                format!("{two} -resign movecount=3 score=4 movecount=4"),
                8,
                "movecount=4",
                "given twice",
            ),
            (format!("{two} -nozap x"), 6, "x", "whole number"),
            (format!("{two} -nozap"), 5, "-nozap", "needs a value"),
            (
                format!("{two} -games 2 stray"),
                7,
                "stray",
                "unexpected argument",
            ),
            (format!("stray {two}"), 1, "stray", "unexpected argument"),
            (format!("{two} -games"), 5, "-games", "needs a value"),
            (
                format!("{two} -games -rounds 2"),
                5,
                "-games",
                "needs a value",
            ),
            (format!("{two} -games x"), 6, "x", "must be a whole number"),
            (format!("{two} -games 0"), 6, "0", "at least 1"),
            (format!("{two} -concurrency 0"), 6, "0", "at least 1"),
            (format!("{two} -rounds 0"), 6, "0", "at least 1"),
            (
                format!("{two} -maxmoves -1"),
                5,
                "-maxmoves",
                "needs a value",
            ),
            (
                format!("{two} -maxmoves 3000000000"),
                6,
                "3000000000",
                "too many moves",
            ),
            (
                format!("{two} -tournament knockout"),
                6,
                "knockout",
                "round-robin or gauntlet",
            ),
            (format!("{two} -repeat 3"), 6, "3", "twice"),
            (
                format!("{two} -openings order=random"),
                5,
                "-openings",
                "needs file=",
            ),
            (
                format!("{two} -openings file=o order=shuffled"),
                7,
                "order=shuffled",
                "sequential or random",
            ),
            (
                format!("{two} -openings file=o plies=0"),
                7,
                "plies=0",
                "at least 1",
            ),
            (
                format!("{two} -openings file=o start=3"),
                7,
                "start=3",
                "unknown openings setting",
            ),
            (
                format!("{two} -sprt elo0=0 elo1=5 gamma=1"),
                8,
                "gamma=1",
                "unknown SPRT setting",
            ),
            (
                format!("{two} -sprt elo0=0 elo1=x"),
                7,
                "elo1=x",
                "must be a number",
            ),
            (
                format!("{two} -sprt elo0=0"),
                5,
                "-sprt",
                "needs elo0= and elo1=",
            ),
            (
                format!("-engine cmd=a proto=xboard {two}"),
                3,
                "proto=xboard",
                "only proto=uci",
            ),
            (format!("-engine cmd=a st=0 {two}"), 3, "st=0", "at least"),
            (
                format!("-engine cmd=a option.=1 {two}"),
                3,
                "option.=1",
                "needs a name",
            ),
            (
                format!("-engine cmd=a nodes=-5 {two}"),
                3,
                "nodes=-5",
                "whole number",
            ),
        ];
        for (line, want_index, want_arg, want) in cases {
            let (index, arg, msg) = arg_of(line);
            assert_eq!(
                (index, arg.as_str()),
                (*want_index, *want_arg),
                "{line}: {msg}"
            );
            assert!(msg.contains(want), "{line}: {msg}");
        }
        let e = flags(&format!("{two} -bogus")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("argument 5 '-bogus': unknown flag (known: -engine -each"),
            "{e}"
        );
    }

    #[test]
    fn shared_validation() {
        let invalid = |line: &str| match flags(line) {
            Err(ConfigError::Invalid(m)) => m,
            other => panic!("{line}: {other:?}"),
        };
        assert!(invalid("").contains("at least two engines, got 0"));
        assert!(invalid("-engine cmd=a -games 2").contains("at least two engines, got 1"));
        let two = "-engine cmd=a -engine cmd=b";
        for (sprt, want) in [
            ("elo0=0 elo1=5 alpha=0", "alpha"),
            ("elo0=0 elo1=5 alpha=1", "alpha"),
            ("elo0=0 elo1=5 beta=1.5", "beta"),
            ("elo0=0 elo1=5 beta=-0.1", "beta"),
            ("elo0=5 elo1=5", "elo0"),
            ("elo0=5 elo1=0", "elo0"),
        ] {
            let m = invalid(&format!("{two} -sprt {sprt}"));
            assert!(m.contains(want), "{sprt}: {m}");
        }
        // validate itself, on specs neither parser would make.
        let mut spec = flags(two).unwrap();
        assert_eq!(validate(&spec), Ok(()));
        spec.concurrency = 0;
        assert!(validate(&spec)
            .unwrap_err()
            .to_string()
            .contains("concurrency"));
        spec.concurrency = 1;
        spec.games = 0;
        assert!(validate(&spec).unwrap_err().to_string().contains("games"));
        spec.games = 1;
        spec.engines[1].name = "a".to_string();
        assert!(validate(&spec)
            .unwrap_err()
            .to_string()
            .contains("two engines are named 'a'"));
        spec.engines[1].name = "b".to_string();
        spec.engines[1].command.clear();
        assert!(validate(&spec)
            .unwrap_err()
            .to_string()
            .contains("no command"));
    }
}
