//! The nets and data pages read the lab store as `autotest data ls`
//! does: its lineage records indexed anew into the results database
//! (`db::artifacts::sync`, the records being the truth) on every
//! request, then the tables read on the same connection. A page shows
//! the store as it is now, not as some earlier command left the tables.

use super::answer::Answer;
use super::connection::Db;
use crate::db::{artifacts, open};
use axum::http::StatusCode;
use leiserchess::lab::store;
use rusqlite::Connection;

/// The store or the records in it could not be read: 409, as for an
/// unreadable database (the same request may succeed later).
fn unreadable(error: String) -> Answer {
    Answer {
        status: StatusCode::CONFLICT,
        message: format!("the lab store cannot be indexed now: {error}"),
    }
}

/// `read` on a read-write connection to `db`'s database, once the store
/// (`db.store`, else `LEISERCHESS_STORE`'s or the default) is indexed in
/// it; on a blocking thread.
pub async fn synced<T: Send + 'static>(
    db: Db,
    read: impl FnOnce(&Connection) -> Result<T, Answer> + Send + 'static,
) -> Result<T, Answer> {
    tokio::task::spawn_blocking(move || {
        let store = store::open(db.store.as_deref()).map_err(|e| unreadable(e.to_string()))?;
        let mut conn = open::open(&db.path).map_err(|e| Answer::database(&e))?;
        artifacts::sync(&mut conn, &store).map_err(unreadable)?;
        read(&conn)
    })
    .await
    .map_err(|e| Answer::database(&format!("the read did not finish: {e}")))?
}
