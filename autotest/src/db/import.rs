//! `autotest import [--db PATH] PGN...`: each PGN file recorded as a
//! finished run of kind `tournament` (a PGN file has no SPRT parameters),
//! so that `autotest runs` and `autotest show` know games played
//! elsewhere: by an older autotest, by the course referee (`lauto.jar`),
//! or on another machine.
//!
//! The run's title is the first game's `Event`; its engines are the
//! `White` and `Black` players in order of first appearance in the
//! schedule; its start the earliest `Date` of its games (with the time of
//! day where it has one, as the course layout does), else the file's
//! modification time, which is also its end. A game's schedule index is N
//! of its `Round "R.N"` (autotest's own files), or K + 1 of the course
//! layout's `Round "K"`, where every game has a distinct one, else its
//! place in the file; its pair
//! is found as `autotest stats --pgn` finds it (`pgn::player_results`);
//! its termination and reason are read as `-resume` reads them
//! (`write::played_before`). Games without a result are left out.
//!
//! A file whose content (SHA-256) is in the database already is not
//! imported again. A file that cannot be read or is not PGN is named with
//! the line at fault; the other files are imported all the same.

use crate::db::open;
use crate::db::path::{self, DbFlag};
use crate::db::text_enums::{RunKind, Status};
use crate::db::write::{self, pgn_key, GameRow};
use crate::pgn::read::{self, PgnGame};
use crate::referee::record::FaultKind;
use crate::tournament::played::PlayedGame;
use crate::tournament::schedule::Job;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::UNIX_EPOCH;

/// `autotest import`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ImportArgs {
    #[command(flatten)]
    pub db: DbFlag,
    /// The PGN files, each a run
    #[arg(required = true, value_name = "PGN")]
    pub files: Vec<String>,
}

/// What became of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Imported {
    /// A new run with this many games, and games without a result left out.
    New {
        run: i64,
        games: usize,
        skipped: usize,
    },
    /// The same content was imported before, as this run.
    Already(i64),
}

/// `autotest import`, started by `command` (every word): a line per file
/// on standard output, or its error on standard error; an error at the
/// end if a file was not imported.
pub fn command(args: &ImportArgs, command: &[String]) -> Result<(), String> {
    let files = &args.files;
    let Some(choice) = path::choose(args.db.db.as_deref())? else {
        return Err("import: --db none: there is no database to write".to_string());
    };
    if let Some(dir) = choice.path.parent().filter(|_| choice.per_user) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("import: cannot create {}: {e}", dir.display()))?;
    }
    let mut conn = open::open(&choice.path)
        .map_err(|e| format!("results database {}: {e}", choice.path.display()))?;
    let mut failed = 0;
    for file in files {
        match import(&mut conn, Path::new(file), command) {
            Ok(Imported::New {
                run,
                games,
                skipped,
            }) => {
                let left = match skipped {
                    0 => String::new(),
                    n => format!(" ({n} without a result left out)"),
                };
                println!("{file}: run {run}, {games} games{left}");
            }
            Ok(Imported::Already(run)) => println!("{file}: already imported as run {run}"),
            Err(e) => {
                eprintln!("autotest: import: {e}");
                failed += 1;
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("import: {n} of {} files not imported", files.len())),
    }
}

/// Imports the PGN file at `file` into `conn`, recording `command`.
pub fn import(conn: &mut Connection, file: &Path, command: &[String]) -> Result<Imported, String> {
    let name = file.display();
    let bytes = std::fs::read(file).map_err(|e| format!("{name}: cannot read it: {e}"))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        format!("{name}, line {line}: not PGN (not UTF-8 text)")
    })?;
    let sha: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let sql = |e: rusqlite::Error| format!("{name}: {e}");
    let before: Option<i64> = conn
        .query_row(
            "SELECT id FROM runs WHERE json_extract(detail, '$.pgn_sha256') = ?1 ORDER BY id",
            [&sha],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql)?;
    if let Some(run) = before {
        return Ok(Imported::Already(run));
    }
    let games = read::parse(text);
    check(text, &games).map_err(|(line, what)| format!("{name}, line {line}: {what}"))?;
    let finished: Vec<&PgnGame> = games.iter().filter(|g| g.result().is_some()).collect();
    if finished.is_empty() {
        return Err(format!(
            "{name}: no game with a result (1-0, 0-1 or 1/2-1/2) among its {}",
            games.len()
        ));
    }
    let (rows, engines) = rows(&games, &finished);
    let engines: Vec<serde_json::Value> = engines
        .iter()
        .map(|n| json!({"name": n, "command": [], "options": [], "limits": "-", "sha256": null, "commit": null}))
        .collect();
    let modified = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_secs() as i64);
    let first = finished[0];
    let started = finished
        .iter()
        .filter_map(|g| unix_time(g.tag("Date")?, g.tag("Time")))
        .min();
    let Some(started) = started.or(modified) else {
        return Err(format!("{name}: no Date tag and no modification time"));
    };
    let title = first
        .tag("Event")
        .map_or_else(|| name.to_string(), str::to_string);
    let time_control = first.tag("TimeControl");
    let repeat = rows
        .iter()
        .any(|r| rows.iter().filter(|s| s.pair == r.pair).count() == 2);
    let tx = conn.transaction().map_err(sql)?;
    tx.execute(
        "INSERT INTO runs (kind, command, engines, title, time_control, repeat, seed, status,
             started, ended, pgn_path, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?9, ?10, ?11)",
        params![
            RunKind::Tournament,
            json!(command).to_string(),
            json!(engines).to_string(),
            title,
            time_control,
            repeat,
            Status::Finished,
            started,
            modified,
            pgn_key(file),
            json!({"pgn_sha256": sha}).to_string(),
        ],
    )
    .map_err(sql)?;
    let run = tx.last_insert_rowid();
    for row in &rows {
        write::insert_game(&tx, run, row)
            .map_err(|e| format!("{name}: game {} (schedule index): {e}", row.schedule_index))?;
    }
    tx.commit().map_err(sql)?;
    Ok(Imported::New {
        run,
        games: rows.len(),
        skipped: games.len() - finished.len(),
    })
}

/// Whether `text` (parsed as `games`) is PGN: nothing but blank lines
/// before the first game, every header line a tag, White and Black named.
/// The line at fault and what is wrong.
fn check(text: &str, games: &[PgnGame]) -> Result<(), (usize, String)> {
    let first = games.first().map_or(usize::MAX, |g| g.line);
    if let Some((i, _)) = text
        .lines()
        .enumerate()
        .take_while(|(i, _)| i + 1 < first)
        .find(|(_, l)| !l.trim().is_empty())
    {
        return Err((i + 1, "not PGN: a game starts with an [Event tag".into()));
    }
    if games.is_empty() {
        return Err((
            1,
            "not PGN: no game (a game starts with an [Event tag)".into(),
        ));
    }
    for g in games {
        let header = g
            .text
            .lines()
            .take_while(|l| l.trim_start().starts_with('['));
        for (i, l) in header.enumerate() {
            if !is_tag(l.trim()) {
                return Err((g.line + i, format!("not a PGN tag: {}", l.trim())));
            }
        }
        for t in ["White", "Black"] {
            if g.tag(t).is_none() {
                return Err((g.line, format!("the game has no {t} tag")));
            }
        }
    }
    Ok(())
}

/// `[Name "value"]`, with `\"` and `\\` escapes in the value.
fn is_tag(line: &str) -> bool {
    let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
        return false;
    };
    let Some((name, rest)) = inner.split_once(char::is_whitespace) else {
        return false;
    };
    let Some(value) = rest.trim_start().strip_prefix('"') else {
        return false;
    };
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.next().is_none() => return false,
            '"' => return !name.is_empty() && chars.as_str().trim().is_empty(),
            _ => {}
        }
    }
    false
}

/// Where a game may find its pair, as `autotest stats --pgn` has it: its
/// round in a flag tournament's file, or its couple 2k/2k+1 in a course
/// file (numbered from 0, a pair per opening).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Round<'a> {
    Flag(&'a str),
    Course(u64),
}

/// The round of a `Round` tag and the game's number in it.
fn round_of(tag: &str) -> Option<(Round<'_>, u64)> {
    match tag.split_once('.') {
        Some((round, n)) => Some((Round::Flag(round), n.parse().ok()?)),
        None => tag.parse().ok().map(|k: u64| (Round::Course(k / 2), k)),
    }
}

/// The rows of the `finished` games among the file's `games`, and the
/// players in order of first appearance in the schedule.
fn rows<'a>(games: &[PgnGame], finished: &[&'a PgnGame]) -> (Vec<GameRow>, Vec<&'a str>) {
    // Schedule indices: N of `Round "R.N"` (K + 1 of the course layout's
    // `Round "K"`) if every game has a distinct one, else the place in the
    // file.
    let numbered: Vec<Option<usize>> = finished
        .iter()
        .map(|g| match round_of(g.tag("Round")?)? {
            (Round::Flag(_), n) => usize::try_from(n).ok(),
            (Round::Course(_), k) => usize::try_from(k).ok()?.checked_add(1),
        })
        .collect();
    let mut distinct: Vec<usize> = numbered.iter().flatten().copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let index: Vec<usize> = if distinct.len() == finished.len() {
        numbered.iter().flatten().copied().collect()
    } else {
        finished
            .iter()
            .map(|g| 1 + games.iter().position(|h| h.line == g.line).unwrap_or(0))
            .collect()
    };
    let pairs = pairs(finished);
    let mut order: Vec<usize> = (0..finished.len()).collect();
    order.sort_by_key(|&k| index[k]);
    let mut engines: Vec<&str> = Vec::new();
    for &k in &order {
        for p in ["White", "Black"].map(|t| finished[k].tag(t).unwrap_or("?")) {
            if !engines.contains(&p) {
                engines.push(p);
            }
        }
    }
    let mut starts: Vec<(Option<&str>, Option<&str>)> = Vec::new();
    let mut rows = Vec::new();
    for (k, g) in finished.iter().enumerate() {
        let (white, black) = (g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
        let id = |p: &str| engines.iter().position(|e| *e == p).unwrap_or(0);
        let (w, b) = (id(white), id(black));
        let start = (g.tag("FEN"), g.tag("Opening"));
        let opening = starts.iter().position(|s| *s == start).unwrap_or_else(|| {
            starts.push(start);
            starts.len() - 1
        });
        let result = g.result().unwrap_or("*").to_string();
        let fault = (result != "1/2-1/2")
            .then(|| g.tag("Termination").and_then(FaultKind::from_pgn_tag))
            .flatten();
        let round = g
            .tag("Round")
            .and_then(|r| r.split_once('.')?.0.parse().ok());
        let played = PlayedGame {
            job: Job {
                number: index[k],
                round: round.unwrap_or(0),
                white: w,
                black: b,
                opening,
                pair: pairs[k],
            },
            white: white.to_string(),
            black: black.to_string(),
            result,
            fault,
        };
        rows.push(GameRow {
            plies: g.tag("PlyCount").and_then(|p| p.parse().ok()),
            ..write::played_before(&played, &g.text)
        });
    }
    (rows, engines)
}

/// Each game's pair id: two games share one when `autotest stats --pgn`
/// would count them a pair (the same round, players and start, colours
/// swapped; a game pairs with the latest unpaired one numbered before
/// it); a game in no pair has an id of its own.
fn pairs(finished: &[&PgnGame]) -> Vec<usize> {
    type Key<'a> = (Round<'a>, [&'a str; 2], Option<&'a str>, Option<&'a str>);
    let mut rounds: BTreeMap<Key, Vec<(u64, usize)>> = BTreeMap::new();
    for (k, g) in finished.iter().enumerate() {
        let (w, b) = (g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
        if let Some((round, number)) = g.tag("Round").and_then(round_of) {
            let players = if w <= b { [w, b] } else { [b, w] };
            rounds
                .entry((round, players, g.tag("FEN"), g.tag("Opening")))
                .or_default()
                .push((number, k));
        }
    }
    let mut pair: Vec<Option<usize>> = vec![None; finished.len()];
    let mut next = 0;
    for mut games in rounds.into_values() {
        games.sort_unstable();
        let mut open: Vec<(u64, usize)> = Vec::new();
        for g in games {
            let white = |k: usize| finished[k].tag("White");
            match open.iter().rposition(|o| white(o.1) != white(g.1)) {
                Some(i) => {
                    let o = open.remove(i);
                    pair[o.1] = Some(next);
                    pair[g.1] = Some(next);
                    next += 1;
                }
                None => open.push(g),
            }
        }
    }
    pair.into_iter()
        .map(|p| {
            p.unwrap_or_else(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Unix time of a `Date` tag (`2026.11.29`, or the course layout's `Sun
/// 2026.11.29 at 09:18:04 AM UTC`) at the time of day it or `time` (a
/// `Time` tag, `HH:MM:SS`) gives, else at midnight UTC.
fn unix_time(date: &str, time: Option<&str>) -> Option<i64> {
    let words: Vec<&str> = date.split_whitespace().collect();
    let day = words.iter().find_map(|w| {
        let mut p = w.split('.').map(|x| x.parse::<i64>().ok());
        let (y, m, d) = (p.next()??, p.next()??, p.next()??);
        (p.next().is_none() && (1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
    })?;
    let clock = |w: &str| -> Option<i64> {
        let mut p = w.split(':').map(|x| x.parse::<i64>().ok());
        let (h, m, s) = (p.next()??, p.next()??, p.next()??);
        (p.next().is_none() && h < 24 && m < 60 && s < 61).then_some(h * 3600 + m * 60 + s)
    };
    let mut secs = 0;
    if let Some(i) = words.iter().position(|w| clock(w).is_some()) {
        let t = clock(words[i]).unwrap_or(0);
        secs = match words.get(i + 1) {
            // 12:xx AM is just past midnight, 12:xx PM just past noon.
            Some(&"AM") => t % 43_200,
            Some(&"PM") => t % 43_200 + 43_200,
            _ => t,
        };
    } else if let Some(t) = time.and_then(clock) {
        secs = t;
    }
    Some(days_from_civil(day.0, day.1, day.2) * 86_400 + secs)
}

/// Days from 1970-01-01 to the date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_both_layouts() {
        assert_eq!(unix_time("1970.01.01", None), Some(0));
        assert_eq!(
            unix_time("2018.11.29", Some("12:00:00")),
            Some(1_543_492_800)
        );
        assert_eq!(
            unix_time("Thu 2018.11.29 at 12:00:00 PM UTC", None),
            Some(1_543_492_800)
        );
        assert_eq!(
            unix_time("Thu 1970.01.01 at 12:00:05 AM UTC", None),
            Some(5)
        );
        assert_eq!(unix_time("????.??.??", None), None);
    }

    #[test]
    fn tags_and_what_is_not() {
        assert!(is_tag("[Event \"a \\\"b\\\" c\"]"));
        assert!(!is_tag("[Event \"a]"));
        assert!(!is_tag("[Event a]"));
        assert!(!is_tag("[ \"a\"]"));
    }

    /// Two colour-swapped games of a round pair up; a third is alone.
    #[test]
    fn pairs_as_stats_finds_them() {
        let game = |round: &str, w: &str, b: &str| {
            format!("[Event \"e\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"1-0\"]\n\n1. a 1-0\n\n")
        };
        let text = [
            game("1.1", "x", "y"),
            game("1.2", "y", "x"),
            game("1.3", "x", "y"),
        ]
        .concat();
        let games = read::parse(&text);
        let all: Vec<&PgnGame> = games.iter().collect();
        let p = pairs(&all);
        assert_eq!(p[0], p[1]);
        assert_ne!(p[2], p[0]);
        let (r, engines) = rows(&games, &all);
        let numbers: Vec<usize> = r.iter().map(|g| g.schedule_index).collect();
        assert_eq!(numbers, [1, 2, 3]);
        assert_eq!(engines, ["x", "y"]);
    }
}
