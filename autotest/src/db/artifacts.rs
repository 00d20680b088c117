//! The lab store's datasets and nets in the results database: the index
//! of the store's lineage records (`sync`), which every command that reads
//! artifacts rebuilds first, and the rows `autotest data` and `autotest
//! nets` read. The records are the truth (they live beside the objects,
//! where every Slurm node sees them); these tables are rebuilt from them.

use crate::db::promotions;
use crate::db::text_enums::{ArtifactKind, ArtifactStatus, ParentRole};
use leiserchess::lab::store::{self, Kind, Record, Role, Source, Store};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::{BTreeMap, BTreeSet};

/// `artifact_parents.parent` of the hand-written evaluation.
pub const HAND_WRITTEN: &str = "hand-written";

/// The database's word for the engine's kind.
pub fn kind(k: Kind) -> ArtifactKind {
    match k {
        Kind::Dataset => ArtifactKind::Dataset,
        Kind::Net => ArtifactKind::Net,
    }
}

/// The database's word for the engine's role.
pub fn role(r: Role) -> ParentRole {
    match r {
        Role::Played => ParentRole::Played,
        Role::Labelled => ParentRole::Labelled,
        Role::TrainedOn => ParentRole::TrainedOn,
        Role::StartedFrom => ParentRole::StartedFrom,
        Role::Baseline => ParentRole::Baseline,
    }
}

fn sql(e: rusqlite::Error) -> String {
    format!("results database: {e}")
}

/// Rebuilds the artifact tables from `store`'s records: each record a row
/// (kept if its object is there, else lost), each parent a row of
/// `artifact_parents`, a lost parent a lost row of its own (its prefix
/// joined to a record's full hash when one starts with it), each
/// promotion a row of `artifact_promotions`. Returns the records indexed.
pub fn sync(conn: &mut Connection, store: &Store) -> Result<usize, String> {
    let records = store::records(store)?;
    let objects: BTreeSet<String> = store.objects()?.into_iter().collect();
    let full: Vec<&str> = records.iter().map(|r| r.sha256.as_str()).collect();
    let tx = conn.transaction().map_err(sql)?;
    tx.execute("DELETE FROM artifact_promotions", [])
        .map_err(sql)?;
    tx.execute("DELETE FROM artifacts", []).map_err(sql)?;
    for r in &records {
        let status = match objects.contains(&r.sha256) {
            true => ArtifactStatus::Kept,
            false => ArtifactStatus::Lost,
        };
        insert(&tx, r, status)?;
    }
    for r in &records {
        for p in &r.parents {
            let parent = match &p.source {
                Source::HandWritten => HAND_WRITTEN.to_string(),
                Source::Object {
                    kind: k,
                    sha256,
                    file,
                    ..
                } => match full.iter().find(|f| f.starts_with(sha256.as_str())) {
                    Some(f) => f.to_string(),
                    None => {
                        tx.execute(
                            "INSERT OR IGNORE INTO artifacts (sha256, kind, status, file)
                             VALUES (?1, ?2, ?3, ?4)",
                            params![sha256, kind(*k), ArtifactStatus::Lost, file],
                        )
                        .map_err(sql)?;
                        sha256.clone()
                    }
                },
            };
            tx.execute(
                "INSERT OR IGNORE INTO artifact_parents (child, parent, role) VALUES (?1, ?2, ?3)",
                params![r.sha256, parent, role(p.role)],
            )
            .map_err(sql)?;
        }
    }
    promotions::index(&tx, &records)?;
    tx.commit().map_err(sql)?;
    Ok(records.len())
}

fn insert(conn: &Connection, r: &Record, status: ArtifactStatus) -> Result<(), String> {
    let command =
        (!r.command.is_empty()).then(|| serde_json::to_string(&r.command).expect("words are JSON"));
    conn.execute(
        "INSERT INTO artifacts (sha256, kind, status, bytes, positions, command,
             build_commit, build_sha256, host, date, file, note, embedded_commit, embedded_date)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            r.sha256,
            kind(r.kind),
            status,
            sqlite_int(r.bytes),
            r.positions.map(sqlite_int),
            command,
            r.build.commit,
            r.build.sha256,
            r.host,
            r.date.map(sqlite_int),
            r.file,
            r.note,
            r.embedded.as_ref().map(|e| &e.commit),
            r.embedded.as_ref().map(|e| sqlite_int(e.date))
        ],
    )
    .map_err(sql)?;
    Ok(())
}

/// A count as SQLite's integers hold it (none of a record's comes near
/// 2^63).
fn sqlite_int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// An artifact's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Artifact {
    pub sha256: String,
    pub kind: ArtifactKind,
    pub status: ArtifactStatus,
    pub bytes: Option<i64>,
    pub positions: Option<i64>,
    /// The command's words.
    pub command: Option<Vec<String>>,
    pub build_commit: Option<String>,
    pub build_sha256: Option<String>,
    pub host: Option<String>,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub date: Option<String>,
    pub file: Option<String>,
    pub note: Option<String>,
    /// The commit that made a net the embedded default.
    pub embedded_commit: Option<String>,
    /// That commit's date, UTC, `YYYY-MM-DD HH:MM:SS`.
    pub embedded_date: Option<String>,
}

const COLUMNS: &str = "SELECT sha256, kind, status, bytes, positions, command, build_commit,
     build_sha256, host, datetime(date, 'unixepoch'), file, note, embedded_commit,
     datetime(embedded_date, 'unixepoch') FROM artifacts";

fn artifact(r: &rusqlite::Row) -> rusqlite::Result<Artifact> {
    let command: Option<String> = r.get(5)?;
    Ok(Artifact {
        sha256: r.get(0)?,
        kind: r.get(1)?,
        status: r.get(2)?,
        bytes: r.get(3)?,
        positions: r.get(4)?,
        command: command.and_then(|c| serde_json::from_str(&c).ok()),
        build_commit: r.get(6)?,
        build_sha256: r.get(7)?,
        host: r.get(8)?,
        date: r.get(9)?,
        file: r.get(10)?,
        note: r.get(11)?,
        embedded_commit: r.get(12)?,
        embedded_date: r.get(13)?,
    })
}

/// Every artifact of `kind`, the kept first, then by date and hash.
pub fn list(conn: &Connection, of: ArtifactKind) -> Result<Vec<Artifact>, String> {
    let query = [
        COLUMNS,
        " WHERE kind = ?1 ORDER BY status = ?2 DESC, date, sha256",
    ]
    .concat();
    let mut stmt = conn.prepare(&query).map_err(sql)?;
    let rows = stmt
        .query_map(params![of, ArtifactStatus::Kept], artifact)
        .map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// The nets that were the embedded default, in the order they became it
/// (their commits' dates).
pub fn embedded(conn: &Connection) -> Result<Vec<Artifact>, String> {
    let query = [
        COLUMNS,
        " WHERE embedded_commit IS NOT NULL ORDER BY embedded_date, sha256",
    ]
    .concat();
    let mut stmt = conn.prepare(&query).map_err(sql)?;
    let rows = stmt.query_map([], artifact).map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// The artifact whose sha256 (or lost prefix) is `sha256`, if any.
pub fn get(conn: &Connection, sha256: &str) -> Result<Option<Artifact>, String> {
    let query = [COLUMNS, " WHERE sha256 = ?1"].concat();
    conn.query_row(&query, [sha256], artifact)
        .optional()
        .map_err(sql)
}

/// The artifacts whose sha256 starts with `prefix`.
pub fn matching(conn: &Connection, prefix: &str) -> Result<Vec<String>, String> {
    let mut stmt = conn
        .prepare(
            "SELECT sha256 FROM artifacts WHERE substr(sha256, 1, length(?1)) = ?1 ORDER BY sha256",
        )
        .map_err(sql)?;
    let rows = stmt.query_map([prefix], |r| r.get(0)).map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// One edge of the lineage: the other end and its role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub sha256: String,
    pub role: ParentRole,
}

/// `child`'s parents, in the order they were recorded.
pub fn parents(conn: &Connection, child: &str) -> Result<Vec<Edge>, String> {
    edges(
        conn,
        "SELECT parent, role FROM artifact_parents WHERE child = ?1 ORDER BY rowid",
        child,
    )
}

/// `parent`'s children, by hash.
pub fn children(conn: &Connection, parent: &str) -> Result<Vec<Edge>, String> {
    edges(
        conn,
        "SELECT child, role FROM artifact_parents WHERE parent = ?1 ORDER BY child",
        parent,
    )
}

fn edges(conn: &Connection, query: &str, of: &str) -> Result<Vec<Edge>, String> {
    let mut stmt = conn.prepare(query).map_err(sql)?;
    let rows = stmt
        .query_map([of], |r| {
            Ok(Edge {
                sha256: r.get(0)?,
                role: r.get(1)?,
            })
        })
        .map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// The kept datasets that `gc` may delete: none that a net descends from
/// (every net's ancestors are kept), none that a run names, nor any
/// ancestor of one a run names. A run names an artifact by a word
/// `store:PREFIX` anywhere in its command line or its engines' commands
/// and options (`EvalFile=store:…`, `datagen --net store:…`).
pub fn collectable(conn: &Connection) -> Result<Vec<Artifact>, String> {
    let mut up: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stmt = conn
        .prepare("SELECT child, parent FROM artifact_parents")
        .map_err(sql)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .map_err(sql)?;
    for row in rows {
        let (child, parent) = row.map_err(sql)?;
        up.entry(child).or_default().push(parent);
    }
    let mut keep: Vec<String> = list(conn, ArtifactKind::Net)?
        .into_iter()
        .map(|a| a.sha256)
        .collect();
    for prefix in named_by_runs(conn)? {
        keep.extend(matching(conn, &prefix)?);
    }
    let mut kept = BTreeSet::new();
    while let Some(sha) = keep.pop() {
        if kept.insert(sha.clone()) {
            keep.extend(up.get(&sha).into_iter().flatten().cloned());
        }
    }
    Ok(list(conn, ArtifactKind::Dataset)?
        .into_iter()
        .filter(|a| a.status == ArtifactStatus::Kept && !kept.contains(&a.sha256))
        .collect())
}

/// Every `store:PREFIX` in the runs' command lines and engines.
fn named_by_runs(conn: &Connection) -> Result<BTreeSet<String>, String> {
    let mut stmt = conn
        .prepare("SELECT command, engines FROM runs")
        .map_err(sql)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .map_err(sql)?;
    let mut out = BTreeSet::new();
    for row in rows {
        let (command, engines) = row.map_err(sql)?;
        for text in [command, engines] {
            out.extend(store_prefixes(&text));
        }
    }
    Ok(out)
}

/// Each `store:` in `text` followed by 8 hex digits or more: those digits.
pub fn store_prefixes(text: &str) -> Vec<String> {
    text.match_indices(leiserchess::object_store::NET_PREFIX)
        .map(|(i, m)| {
            text[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
                .collect::<String>()
        })
        .filter(|p| leiserchess::object_store::is_prefix(p))
        .collect()
}

/// Removes `sha256`'s rows (the artifact and its links to its parents).
pub fn forget(conn: &Connection, sha256: &str) -> Result<(), String> {
    conn.execute("DELETE FROM artifacts WHERE sha256 = ?1", [sha256])
        .map_err(sql)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_named_in_text() {
        let text = r#"["EvalFile","store:ba3fde78"],"--net","store:abc","store:0123456789abcdefX""#;
        assert_eq!(
            store_prefixes(text),
            vec!["ba3fde78".to_string(), "0123456789abcdef".to_string()]
        );
    }

    /// Every engine kind and role has its database word, the same as the
    /// record's JSON word.
    #[test]
    fn the_engines_words_are_the_databases() {
        for k in [Kind::Dataset, Kind::Net] {
            assert_eq!(
                serde_json::to_value(k).unwrap(),
                serde_json::Value::from(kind(k).to_string())
            );
        }
        let roles = [
            Role::Played,
            Role::Labelled,
            Role::TrainedOn,
            Role::StartedFrom,
            Role::Baseline,
        ];
        for r in roles {
            assert_eq!(
                serde_json::to_value(r).unwrap(),
                serde_json::Value::from(role(r).to_string())
            );
        }
        assert_eq!(
            roles.len(),
            <ParentRole as crate::db::text_enums::TextEnum>::ALL.len()
        );
    }
}
