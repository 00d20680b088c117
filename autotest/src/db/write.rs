//! Writing the results database: a run's row, its status, and its games,
//! each game once (`UNIQUE (run_id, schedule_index)`).

use crate::config::spec::{Schedule, TournamentSpec};
use crate::db::provenance;
use crate::db::text_enums::{RunKind, Status};
use crate::referee::record::{GameRecord, Start, Termination};
use crate::tournament::played::PlayedGame;
use crate::tournament::schedule::Job;
use rusqlite::{params, Connection};
use serde_json::json;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// What kind of run `spec` is.
pub fn kind(spec: &TournamentSpec) -> RunKind {
    match (spec.sprt, spec.schedule) {
        (Some(_), _) => RunKind::Sprt,
        (None, Schedule::Gauntlet) => RunKind::Gauntlet,
        (None, Schedule::RoundRobin) => RunKind::Tournament,
    }
}

/// The PGN file as the database names it: an absolute path.
pub fn pgn_key(pgn: &Path) -> String {
    std::path::absolute(pgn)
        .unwrap_or_else(|_| pgn.to_path_buf())
        .display()
        .to_string()
}

/// A new run of `spec`, started by `command` (every word, the program's
/// first), with status `running`; its id.
pub fn insert_run(
    conn: &Connection,
    spec: &TournamentSpec,
    command: &[String],
) -> rusqlite::Result<i64> {
    let engines: Vec<serde_json::Value> = spec
        .engines
        .iter()
        .map(|e| {
            let binary = provenance::binary(e);
            json!({
                "name": e.name,
                "command": e.command,
                "options": e.options,
                "limits": provenance::limits_text(&e.limits),
                "sha256": binary.as_deref().and_then(provenance::sha256),
                "commit": binary.as_deref().and_then(provenance::git_commit),
            })
        })
        .collect();
    let mut controls: Vec<String> = Vec::new();
    for e in &spec.engines {
        let text = provenance::limits_text(&e.limits);
        if !controls.contains(&text) {
            controls.push(text);
        }
    }
    let sprt = spec.sprt.map(|t| {
        json!({"elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta}).to_string()
    });
    let book = spec.openings.file.as_deref();
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, time_control, repeat, sprt,
             openings_file, openings_sha256, seed, status, started, cpu_model, cores,
             slurm_job_id, pgn_path)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        params![
            kind(spec),
            json!(command).to_string(),
            json!(engines).to_string(),
            spec.title,
            controls.join(" / "),
            spec.repeat,
            sprt,
            book.map(|b| b.display().to_string()),
            book.and_then(provenance::sha256),
            spec.seed as i64,
            Status::Running,
            now(),
            provenance::cpu_model(),
            provenance::cores() as i64,
            provenance::slurm_job_id(),
            spec.pgn_out.as_deref().map(pgn_key),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The command's words without `-resume`: a resumed run's command is its
/// first run's with that flag added.
fn without_resume(words: &[String]) -> Vec<&String> {
    words.iter().filter(|w| *w != "-resume").collect()
}

/// The newest running or stopped run that wrote `pgn` with `command`
/// (`-resume` aside): its id.
pub fn resumable(
    conn: &Connection,
    pgn: &Path,
    command: &[String],
) -> rusqlite::Result<Option<i64>> {
    let mut stmt = conn.prepare(
        "SELECT id, command FROM runs WHERE pgn_path = ?1 AND status IN (?2, ?3)
         ORDER BY id DESC",
    )?;
    let rows = stmt.query_map(
        params![pgn_key(pgn), Status::Running, Status::Stopped],
        |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
    )?;
    let wanted = without_resume(command);
    for row in rows {
        let (id, text) = row?;
        let words: Vec<String> = serde_json::from_str(&text).unwrap_or_default();
        if without_resume(&words) == wanted {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// The run [`resumable`] finds, made `running` again; its id.
pub fn resume_run(
    conn: &Connection,
    pgn: &Path,
    command: &[String],
) -> rusqlite::Result<Option<i64>> {
    let found = resumable(conn, pgn, command)?;
    if let Some(id) = found {
        conn.execute(
            "UPDATE runs SET status = ?2, ended = NULL WHERE id = ?1",
            params![id, Status::Running],
        )?;
    }
    Ok(found)
}

/// Sets the run's status; any but `running` ends it now.
pub fn set_status(conn: &Connection, run: i64, status: Status) -> rusqlite::Result<()> {
    let ended = (status != Status::Running).then(now);
    conn.execute(
        "UPDATE runs SET status = ?2, ended = ?3 WHERE id = ?1",
        params![run, status, ended],
    )?;
    Ok(())
}

/// One game's row.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub schedule_index: usize,
    pub pair: usize,
    pub opening: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub termination: String,
    pub plies: Option<usize>,
    /// Each side's thinking time, ms.
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub pgn: String,
    pub llr: Option<f64>,
    /// How it ended, in words (the PGN's last comment).
    pub reason: Option<String>,
}

/// How a game ended, as the `termination` column says it.
pub fn termination_text(t: &Termination) -> &'static str {
    match t {
        Termination::KingZapped | Termination::Repetition | Termination::NoZap => "normal",
        Termination::Adjudicated(_) => "adjudication",
        Termination::Void(_) => "void",
        Termination::Fault { kind, .. } => kind.name(),
    }
}

/// The row of a game the runner played as `job`, written as `pgn`.
pub fn played_now(job: &Job, rec: &GameRecord, pgn: String, llr: Option<f64>) -> GameRow {
    // The engines' moves follow the opening's: who moves first.
    let black_starts =
        matches!(&rec.start, Start::Fen(f) if f.split_whitespace().nth(1) == Some("B"));
    let offset = usize::from(black_starts) + rec.opening.len();
    let mut ns = [0u64; 2];
    for (i, m) in rec.moves.iter().enumerate() {
        ns[(i + offset) % 2] += m.time_ns;
    }
    let ms = ns.map(|t| t / 1_000_000);
    GameRow {
        schedule_index: job.number,
        pair: job.pair,
        opening: job.opening,
        white: rec.white.clone(),
        black: rec.black.clone(),
        result: rec.result.clone(),
        termination: termination_text(&rec.termination).to_string(),
        plies: Some(rec.opening.len() + rec.moves.len()),
        white_ms: Some(ms[0]),
        black_ms: Some(ms[1]),
        pgn,
        llr,
        reason: Some(rec.termination.to_string()),
    }
}

/// The row of a game read back from a PGN file (by `-resume`): what its
/// tags say; its plies and times are not known.
pub fn played_before(game: &PlayedGame, pgn: &str) -> GameRow {
    let tag = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[Termination \"")?.strip_suffix("\"]"));
    let termination = match (game.fault, tag) {
        (Some(kind), _) => kind.name(),
        (None, Some("adjudication")) => "adjudication",
        (None, Some("unterminated")) => "void",
        (None, _) => "normal",
    };
    GameRow {
        schedule_index: game.job.number,
        pair: game.job.pair,
        opening: game.job.opening,
        white: game.white.clone(),
        black: game.black.clone(),
        result: game.result.clone(),
        termination: termination.to_string(),
        plies: None,
        white_ms: None,
        black_ms: None,
        pgn: pgn.to_string(),
        llr: None,
        // Only an abnormal ending is written as a comment of its own.
        reason: (termination != "normal")
            .then(|| last_comment(pgn))
            .flatten(),
    }
}

/// The text of the last `{comment}` of a game's PGN (where the writer
/// puts how an abnormal game ended), if its movetext ends with one, its
/// line breaks made spaces again.
fn last_comment(pgn: &str) -> Option<String> {
    let body = pgn.trim_end();
    let body = body
        .rsplit_once(char::is_whitespace)
        .map_or(body, |(before, _result)| before.trim_end());
    let inner = body.strip_suffix('}')?;
    let open = inner.rfind('{')?;
    Some(
        inner[open + 1..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

const INSERT_GAME: &str = "INSERT INTO games (run_id, schedule_index, pair, opening, white, black,
     result, termination, plies, white_ms, black_ms, pgn, llr, reason)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";

fn insert(conn: &Connection, sql: &str, run: i64, g: &GameRow) -> rusqlite::Result<usize> {
    conn.execute(
        sql,
        params![
            run,
            g.schedule_index as i64,
            g.pair as i64,
            g.opening as i64,
            g.white,
            g.black,
            g.result,
            g.termination,
            g.plies.map(|p| p as i64),
            g.white_ms.map(|t| t as i64),
            g.black_ms.map(|t| t as i64),
            g.pgn,
            g.llr,
            g.reason,
        ],
    )
}

/// Adds a game to the run (one statement: a transaction of its own). A
/// game already there is an error.
pub fn insert_game(conn: &Connection, run: i64, g: &GameRow) -> rusqlite::Result<()> {
    insert(conn, INSERT_GAME, run, g).map(|_| ())
}

/// Makes the run's games exactly `games` (a resumed run's PGN file):
/// games the file lost are removed, games missing are added.
pub fn keep_only(conn: &mut Connection, run: i64, games: &[GameRow]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    let mut stored: Vec<i64> = tx
        .prepare("SELECT schedule_index FROM games WHERE run_id = ?1")?
        .query_map([run], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    stored.retain(|n| !games.iter().any(|g| g.schedule_index as i64 == *n));
    for n in stored {
        tx.execute(
            "DELETE FROM games WHERE run_id = ?1 AND schedule_index = ?2",
            [run, n],
        )?;
    }
    let or_ignore = INSERT_GAME.replacen("INSERT", "INSERT OR IGNORE", 1);
    for g in games {
        insert(&tx, &or_ignore, run, g)?;
    }
    tx.commit()
}

/// Adds those of `games` the run does not have yet (by schedule index), in
/// one transaction; how many were new.
pub fn insert_games_once(
    conn: &mut Connection,
    run: i64,
    games: &[GameRow],
) -> rusqlite::Result<usize> {
    let tx = conn.transaction()?;
    let or_ignore = INSERT_GAME.replacen("INSERT", "INSERT OR IGNORE", 1);
    let mut added = 0;
    for g in games {
        added += insert(&tx, &or_ignore, run, g)?;
    }
    tx.commit()?;
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::last_comment;

    #[test]
    fn the_last_comment_is_how_the_game_ended() {
        let pgn = "[Result \"0-1\"]\n\n1. e1e2 {1 2 3} {b loses: crash: the\nlast line} 0-1\n";
        assert_eq!(
            last_comment(pgn).as_deref(),
            Some("b loses: crash: the last line")
        );
        assert_eq!(last_comment("[Result \"1-0\"]\n\n1. e1e2 1-0\n"), None);
    }
}
