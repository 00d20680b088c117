//! A run an older autotest recorded in `lab.db` beside its PGN file (or a
//! tune's state file), when that was the default, taken over by the
//! per-user database as `-resume` goes on with it: its row copied with
//! every row that names it (its games, a tune's iterations), so that the
//! run goes on there with its start, its command and its games, and every
//! reader finds it without `-db`. The older file is only read: its row is
//! left as it was, and a run whose start and command line the per-user
//! database has already is not taken again.

use crate::db::{path, schema};
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter, Connection, OpenFlags};
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
fn copy_found(
    conn: &mut Connection,
    old: &Path,
    find: Find,
) -> rusqlite::Result<Option<(i64, i64)>> {
    let from = Connection::open_with_flags(old, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let Some(id) = find(&from)? else {
        return Ok(None);
    };
    // A run taken over before and since ended here is not taken again:
    // the same start and command line are the same run.
    let (started, command): (i64, String) = from.query_row(
        "SELECT started, command FROM runs WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let here: i64 = conn.query_row(
        "SELECT COUNT(*) FROM runs WHERE started = ?1 AND command = ?2",
        params![started, command],
        |r| r.get(0),
    )?;
    if here > 0 {
        return Ok(None);
    }
    let copied = copy_run(&from, id, conn)?;
    Ok(Some((id, copied)))
}

/// The columns of `table` in `conn`; none if it has no such table.
fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt.query_map([table], |r| r.get(0))?;
    names.collect()
}

/// Copies run `id` of `from` into `to`, in one transaction, with the rows
/// of every table of both that has a `run_id` (but those the triggers
/// keep): the columns both have (an older file may have fewer); the
/// copy's id.
fn copy_run(from: &Connection, id: i64, to: &mut Connection) -> rusqlite::Result<i64> {
    let tx = to.transaction()?;
    let shared = |table: &str, leave: &str| -> rusqlite::Result<Vec<String>> {
        let here = columns(&tx, table)?;
        Ok(columns(from, table)?
            .into_iter()
            .filter(|c| c != leave && here.contains(c))
            .collect())
    };
    copy_rows(from, &tx, "runs", &shared("runs", "id")?, ("id", id), None)?;
    let copy = tx.last_insert_rowid();
    let mut stmt = tx.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
    let tables: Vec<String> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    drop(stmt);
    // The triggers count the games copied.
    let copied = |t: &&String| *t != "runs" && !schema::DERIVED.contains(&t.as_str());
    for table in tables.iter().filter(copied) {
        let has_run = |c: &Connection| -> rusqlite::Result<bool> {
            Ok(columns(c, table)?.iter().any(|c| c == "run_id"))
        };
        let cols = shared(table, "run_id")?;
        if has_run(&tx)? && has_run(from)? && !cols.is_empty() {
            copy_rows(from, &tx, table, &cols, ("run_id", id), Some(copy))?;
        }
    }
    tx.commit()?;
    Ok(copy)
}

/// Inserts into `to`'s `table` the `cols` of `from`'s rows whose `key`
/// column is the value given, with `run_id` set to `run` if given.
fn copy_rows(
    from: &Connection,
    to: &Connection,
    table: &str,
    cols: &[String],
    key: (&str, i64),
    run: Option<i64>,
) -> rusqlite::Result<()> {
    let quoted: Vec<String> = cols.iter().map(|c| format!("\"{c}\"")).collect();
    let list = quoted.join(", ");
    let mut read = from.prepare(&format!(
        "SELECT {list} FROM \"{table}\" WHERE \"{}\" = ?1",
        key.0
    ))?;
    let (names, marks) = match run {
        Some(_) => (format!("run_id, {list}"), cols.len() + 1),
        None => (list, cols.len()),
    };
    let marks: Vec<String> = (1..=marks).map(|i| format!("?{i}")).collect();
    let mut write = to.prepare(&format!(
        "INSERT INTO \"{table}\" ({names}) VALUES ({})",
        marks.join(", ")
    ))?;
    let mut rows = read.query([key.1])?;
    while let Some(r) = rows.next()? {
        let mut values: Vec<Value> = run.map(Value::Integer).into_iter().collect();
        for i in 0..cols.len() {
            values.push(r.get(i)?);
        }
        write.execute(params_from_iter(values))?;
    }
    Ok(())
}
