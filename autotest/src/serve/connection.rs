//! The database as the requests read it: a read-only connection of its
//! own per request (WAL lets it read while a run writes), used on
//! tokio's blocking threads so that a slow read holds up no other
//! request.

use super::answer::Answer;
use crate::db::open::BUSY_TIMEOUT;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What every request shares: the database file.
pub struct Database {
    pub path: PathBuf,
    /// The lab store the nets and data pages index (`--store`; `None`:
    /// `LEISERCHESS_STORE`'s or the default).
    pub store: Option<PathBuf>,
}

pub type Db = Arc<Database>;

/// A read-only connection to the database at `path`.
pub fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// `read` on a new connection to `db`, on a blocking thread.
pub async fn read<T: Send + 'static>(
    db: Db,
    read: impl FnOnce(&Connection) -> Result<T, Answer> + Send + 'static,
) -> Result<T, Answer> {
    tokio::task::spawn_blocking(move || {
        let conn = connect(&db.path).map_err(|e| Answer::database(&e.to_string()))?;
        read(&conn)
    })
    .await
    .map_err(|e| Answer::database(&format!("the read did not finish: {e}")))?
}
