//! Opening the results database: WAL mode, so that `autotest runs` reads
//! while a run writes and two runs share a file; a busy timeout, so that
//! a writer waits for another instead of failing at once; the schema
//! brought up to date, and one newer than this program refused.

use crate::db::schema;
use rusqlite::{Connection, ErrorCode, TransactionBehavior};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a statement waits for another connection's lock.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Milliseconds that replace [`BUSY_TIMEOUT`] (the tests' short wait).
pub const BUSY_ENV: &str = "AUTOTEST_DB_BUSY_MS";

fn busy_timeout() -> Duration {
    std::env::var(BUSY_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(BUSY_TIMEOUT, Duration::from_millis)
}

/// The database at `path`, created if missing (its directory must be
/// there), ready to read and write. The error says what is wrong, not
/// where: the caller names the file.
pub fn open(path: &Path) -> Result<Connection, String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(format!("no directory {}", dir.display()));
        }
    }
    let mut conn = Connection::open(path).map_err(|e| e.to_string())?;
    let timeout = busy_timeout();
    conn.busy_timeout(timeout).map_err(|e| e.to_string())?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if version > schema::LATEST as i64 {
        return Err(format!(
            "its schema is version {version}, newer than this autotest's ({}): a newer autotest wrote it",
            schema::LATEST
        ));
    }
    wal(&conn, timeout)?;
    conn.pragma_update(None, "foreign_keys", true)
        .map_err(|e| e.to_string())?;
    // Later transactions take the write lock first, so that a reader
    // never has to become a writer midway.
    conn.set_transaction_behavior(TransactionBehavior::Immediate);
    let migrations = schema::migrations();
    if let Err(first) = migrations.to_latest(&mut conn) {
        // rusqlite_migration reads the version before its transaction:
        // another autotest opening the same new file may have migrated it
        // meanwhile, and then a second try finds nothing left to do.
        migrations
            .to_latest(&mut conn)
            .map_err(|_| migration_error(first))?;
    }
    Ok(conn)
}

/// A migration's error in one line: SQLite's words, without the SQL.
fn migration_error(e: rusqlite_migration::Error) -> String {
    match e {
        rusqlite_migration::Error::RusqliteError { err, .. } => err.to_string(),
        other => other.to_string(),
    }
}

/// Puts the database in WAL mode. Switching needs every other connection
/// gone for a moment, and SQLite answers "locked" at once rather than
/// waiting (two runs opening a new file together): tried again until
/// `timeout`.
fn wal(conn: &Connection, timeout: Duration) -> Result<(), String> {
    let deadline = Instant::now() + timeout;
    loop {
        let mode =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0));
        match mode {
            Ok(_) => return Ok(()),
            Err(e)
                if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy)
                    && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}
