//! The course's config files (`lauto.jar`'s format, so old lab files keep
//! working), parsed into a [`TournamentSpec`].
//!
//! Lines of `key = value` (split at the first `=`, both sides trimmed); `#`
//! outside "double quotes" starts a comment; blank lines are ignored. Keys
//! are matched case-insensitively, option names are kept as written.
//! `config::course` reads the file: relative paths in it are taken from
//! the config file's directory, and the games are appended to the
//! config's name with `.pgn` in the course referee's layout.
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

use super::{split_command, validate, ConfigError};
use crate::config::numbers::{at_least, seconds_ms, whole};
use crate::config::spec::{Clock, EngineLimits, EngineSpec, TournamentSpec, COURSE_NO_ZAP_PLIES};
use crate::referee::adjudication::{parse_draw, parse_resign, SettingError};
use std::path::PathBuf;

/// The keys before the first `player` line.
pub const GLOBAL_KEYS: [&str; 8] = [
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
            "depth" => limits.depth = Some(whole(value, "depth").map_err(err)?),
            "nodes" => limits.nodes = Some(whole(value, "nodes").map_err(err)?),
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
            restart: true,
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
            spec.concurrency = at_least(whole(value, "cpus")?, 1, "cpus")?;
        }
        "book" => spec.openings.file = Some(PathBuf::from(value)),
        "game_rounds" => {
            spec.max_games = Some(at_least(whole(value, "game_rounds")?, 1, "game_rounds")?);
        }
        "title" => spec.title = value.to_string(),
        "adjudicate" => {
            let moves: u32 = whole(value, "adjudicate")?;
            spec.max_plies = moves.checked_mul(2).ok_or("adjudicate: too many moves")?;
        }
        "nozap" => spec.no_zap_plies = whole(value, "nozap")?,
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
    let base_ms = seconds_ms(main, "the fis main time")?;
    let inc_ms = seconds_ms(inc, "the fis increment")?;
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
    let moves: u32 = whole(moves, "the tc moves")?;
    let period_ms = seconds_ms(secs, "the tc seconds")?;
    if moves == 0 || period_ms == 0 {
        return Err(format!(
            "'tc' wants a positive number of moves and of seconds, got '{value}'"
        ));
    }
    Ok(Clock::Period { moves, period_ms })
}
