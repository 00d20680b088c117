//! A run an older autotest recorded in `lab.db` beside its PGN file (or a
//! tune's state file), when that was the default, taken over by the
//! per-user database as `-resume` goes on with it: its row copied with
//! every row that names it (its games, a tune's iterations), so that the
//! run goes on there with its start, its command and its games, and every
//! reader finds it without `-db`. The older file is brought to the
//! current schema (so that its rows copy column for column) and its rows
//! are left as they were; a run whose start and command line the per-user
//! database has already is not taken again.

use crate::db::{open, path};
use rusqlite::{params, Connection};
use std::path::Path;

/// Finds the run to go on with in a database: its id.
pub type Find<'a> = &'a dyn Fn(&Connection) -> rusqlite::Result<Option<i64>>;

/// If `find` finds nothing in `conn` (the per-user database) but finds a
/// run in `lab.db` beside `file`, copies that run into `conn` and says so
/// on standard error; its new id. A failure is said on standard error and
/// is no error: the run goes on as a new one.
pub fn take_over(conn: &mut Connection, file: &Path, find: Find) -> Option<i64> {
    let old = path::beside(file);
    let old = std::path::absolute(&old).unwrap_or(old);
    if !old.is_file() || matches!(find(conn), Ok(Some(_))) {
        return None;
    }
    let name = old.display();
    match copy_found(conn, &old, find) {
        Ok(Some((from, to))) => {
            eprintln!(
                "autotest: run {from} of {name} (where an older autotest recorded it) goes on as run {to} of the per-user results database"
            );
            Some(to)
        }
        Ok(None) => None,
        Err(e) => {
            eprintln!("autotest: results database {name}: {e}; its run is not taken over, the run is recorded anew");
            None
        }
    }
}

/// The run `find` finds in the database at `old`, copied into `conn`:
/// its id there and here.
fn copy_found(conn: &mut Connection, old: &Path, find: Find) -> Result<Option<(i64, i64)>, String> {
    // The same schema as `conn`'s, so that rows copy column for column.
    let from = open::open(old)?;
    let text = |e: rusqlite::Error| e.to_string();
    let Some(id) = find(&from).map_err(text)? else {
        return Ok(None);
    };
    // A run taken over before and since ended here is not taken again:
    // the same start and command line are the same run.
    let (started, command): (i64, String) = from
        .query_row(
            "SELECT started, command FROM runs WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(text)?;
    drop(from);
    let here: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM runs WHERE started = ?1 AND command = ?2",
            params![started, command],
            |r| r.get(0),
        )
        .map_err(text)?;
    if here > 0 {
        return Ok(None);
    }
    conn.execute("ATTACH DATABASE ?1 AS older", [old.to_string_lossy()])
        .map_err(text)?;
    let copied = copy_run(conn, id);
    let detached = conn.execute("DETACH DATABASE older", []);
    let copied = copied.map_err(text)?;
    detached.map_err(text)?;
    Ok(Some((id, copied)))
}

/// Each table whose rows name a run, but those the triggers keep: its
/// rows of run `?1` in `older` into the temporary table `moving`, and
/// those into `main`.
const CHILDREN: [[&str; 2]; 3] = [
    [
        "CREATE TEMP TABLE moving AS SELECT * FROM older.games WHERE run_id = ?1",
        "INSERT INTO main.games SELECT * FROM temp.moving",
    ],
    [
        "CREATE TEMP TABLE moving AS SELECT * FROM older.tune_iterations WHERE run_id = ?1",
        "INSERT INTO main.tune_iterations SELECT * FROM temp.moving",
    ],
    [
        "CREATE TEMP TABLE moving AS SELECT * FROM older.benchmarks WHERE run_id = ?1",
        "INSERT INTO main.benchmarks SELECT * FROM temp.moving",
    ],
];

/// Copies run `id` of the attached `older` into `conn`'s main database,
/// in one transaction, with its rows in every table that names it (the
/// triggers count the games); the copy's id.
fn copy_run(conn: &mut Connection, id: i64) -> rusqlite::Result<i64> {
    let tx = conn.transaction()?;
    tx.execute(
        "CREATE TEMP TABLE moving AS SELECT * FROM older.runs WHERE id = ?1",
        [id],
    )?;
    tx.execute(
        "UPDATE temp.moving SET id = (SELECT COALESCE(MAX(id), 0) + 1 FROM main.runs)",
        [],
    )?;
    tx.execute("INSERT INTO main.runs SELECT * FROM temp.moving", [])?;
    let copy: i64 = tx.query_row("SELECT id FROM temp.moving", [], |r| r.get(0))?;
    tx.execute("DROP TABLE temp.moving", [])?;
    for [take, put] in CHILDREN {
        tx.execute(take, [id])?;
        tx.execute("UPDATE temp.moving SET run_id = ?1", [copy])?;
        tx.execute(put, [])?;
        tx.execute("DROP TABLE temp.moving", [])?;
    }
    tx.commit()?;
    Ok(copy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::schema;

    /// Every table whose rows name a run is copied or kept by the
    /// triggers: a schema step that adds one must add it to `CHILDREN`.
    #[test]
    fn every_table_of_a_run_is_copied() {
        let path = crate::scratch::dir("take-over-tables").join("lab.db");
        let conn = open::open(&path).unwrap();
        let mut stmt = conn
            .prepare(
                "SELECT m.name FROM sqlite_schema m, pragma_table_info(m.name) c
                 WHERE m.type = 'table' AND c.name = 'run_id' ORDER BY m.name",
            )
            .unwrap();
        let named: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut handled: Vec<String> = CHILDREN
            .iter()
            .map(|[take, _]| {
                take.split("older.")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .chain(schema::DERIVED.iter().map(|t| t.to_string()))
            .collect();
        handled.sort();
        assert_eq!(named, handled);
    }
}
