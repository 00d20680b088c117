//! `autotest data` and `autotest nets`: the lab store's datasets and nets
//! (the engine's `lab::store`, docs/STORE.md). Each command first indexes
//! the store's lineage records into the results database
//! (`db::artifacts::sync`), then reads it: `ls`, `show HASH` (the record
//! and its lineage, `show`), `verify` (every object re-hashed), and for
//! datasets `gc` (those nothing kept needs, deleted), for nets
//! `reproduce` (a net trained again from its record) and `default-md`
//! (`src/eval/nnue/default.md` made from its record, `default_md`).

mod default_md;
mod reproduce;
mod show;

use crate::db::artifacts::{self, Artifact};
use crate::db::path::{self, DbFlag};
use crate::db::promotions::{self, Promotion};
use crate::db::text_enums::{ArtifactKind, TextEnum};
use leiserchess::lab::store::{self, Store};
use rusqlite::Connection;
use std::path::PathBuf;

/// `--store DIR` and `--db PATH`, which every one of them takes.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct Places {
    /// The lab store [$LEISERCHESS_STORE, else
    /// $XDG_DATA_HOME/leiserchess/store]
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbFlag,
}

/// `nets reproduce`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ReproduceArgs {
    /// A net's sha256 or its prefix of 8 hex digits or more
    pub hash: String,
    #[command(flatten)]
    pub places: Places,
}

/// `nets default-md`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct DefaultMdArgs {
    /// The net's sha256 or its prefix of 8 hex digits or more
    pub hash: String,
    /// The `leiserchess bench` node total with this net
    /// (bench/signature-pvs.txt) [the row says it was not given]
    #[arg(long, value_name = "NODES")]
    pub bench: Option<u64>,
    #[command(flatten)]
    pub places: Places,
}

/// `show HASH`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ShowArgs {
    /// A sha256 or its prefix of 8 hex digits or more
    pub hash: String,
    #[command(flatten)]
    pub places: Places,
}

/// `data gc`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct GcArgs {
    /// List what would be deleted, and delete nothing
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub places: Places,
}

/// `autotest data …`.
#[derive(clap::Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum DataCommand {
    /// The datasets, kept and lost: hash, status, size, positions, date, file
    Ls(Places),
    /// A dataset's record and lineage: its parents, theirs, and its children
    Show(ShowArgs),
    /// Re-hash every dataset of the store; name each missing or changed one
    Verify(Places),
    /// Delete the datasets that no net descends from and no run names
    ///
    /// A run names an artifact by `store:PREFIX` in its command line or its
    /// engines' (EvalFile=store:PREFIX). Nets are never deleted.
    Gc(GcArgs),
}

/// `autotest nets …`.
#[derive(clap::Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum NetsCommand {
    /// The nets, kept and lost: hash, status, size, date, file; then the
    /// best net of each autotest loop
    Ls(Places),
    /// A net's record and lineage: its parents, theirs, and its children
    Show(ShowArgs),
    /// Re-hash every net of the store; name each missing or changed one
    Verify(Places),
    /// Train a net again as its record says, on the store's copies of its
    /// data, and check the result is the same file, byte for byte
    Reproduce(ReproduceArgs),
    /// src/eval/nnue/default.md for a net, from its record and the results
    /// database, on standard output
    ///
    /// Its generation, file, shape, store name and bench signature; its
    /// parents, training command and data; the SPRTs of autotest loop that
    /// promoted it, and the generations before it back to generation 5,
    /// whose history written by hand ends the file.
    DefaultMd(DefaultMdArgs),
}

/// The store and the database `places` name, the database brought up to
/// date with the store's records.
fn open(command: &str, places: &Places) -> Result<(Store, Connection), String> {
    let store = store::open(places.store.as_deref()).map_err(|e| format!("{command}: {e}"))?;
    let Some(choice) = path::choose(places.db.db.as_deref())? else {
        return Err(format!(
            "{command}: --db none: the store is indexed in a database"
        ));
    };
    if let Some(dir) = choice.path.parent().filter(|_| choice.per_user) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{command}: cannot create {}: {e}", dir.display()))?;
    }
    let file = choice.path.display();
    let mut conn =
        crate::db::open::open(&choice.path).map_err(|e| format!("results database {file}: {e}"))?;
    artifacts::sync(&mut conn, &store).map_err(|e| format!("{command}: {e}"))?;
    Ok((store, conn))
}

/// `autotest data …`: its output.
pub fn data(c: &DataCommand) -> Result<String, String> {
    let kind = ArtifactKind::Dataset;
    match c {
        DataCommand::Ls(p) => ls("data ls", kind, p),
        DataCommand::Show(a) => show("data show", kind, a),
        DataCommand::Verify(p) => verify("data verify", kind, p),
        DataCommand::Gc(a) => gc(a),
    }
}

/// `autotest nets …`: its output.
pub fn nets(c: &NetsCommand) -> Result<String, String> {
    let kind = ArtifactKind::Net;
    match c {
        NetsCommand::Ls(p) => ls("nets ls", kind, p),
        NetsCommand::Show(a) => show("nets show", kind, a),
        NetsCommand::Verify(p) => verify("nets verify", kind, p),
        NetsCommand::Reproduce(a) => {
            let (store, conn) = open("nets reproduce", &a.places)?;
            let sha = find(&conn, &store, &a.hash)?;
            reproduce::reproduce(&store, &sha)
        }
        NetsCommand::DefaultMd(a) => {
            let command = "nets default-md";
            let (store, conn) = open(command, &a.places)?;
            let sha = find(&conn, &store, &a.hash)?;
            default_md::page(&conn, &store, &sha, a.bench).map_err(|e| format!("{command}: {e}"))
        }
    }
}

fn ls(command: &str, kind: ArtifactKind, places: &Places) -> Result<String, String> {
    let (_, conn) = open(command, places)?;
    let rows = artifacts::list(&conn, kind)?;
    let mut out = table(&rows);
    if kind == ArtifactKind::Net {
        out += &bests(&promotions::bests(&conn)?);
    }
    Ok(out)
}

/// Each loop's best net, as the store marks it: a line a loop, none
/// without a promotion.
fn bests(rows: &[Promotion]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nthe best net of each autotest loop (its latest promotion):\n");
    for p in rows {
        let [w, d, l] = p.wdl;
        out += &format!(
            "{}  {}  generation {}, SPRT +{w} ={d} -{l}, llr {:.2}, {}\n",
            &p.sha256[..16],
            p.loop_dir,
            p.generation,
            p.llr,
            p.limits
        );
    }
    out
}

/// A line per artifact.
fn table(rows: &[Artifact]) -> String {
    let dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let line = |cells: [&str; 6]| {
        format!(
            "{:<16}  {:<6} {:>11} {:>10}  {:<19}  {}\n",
            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]
        )
    };
    let mut out = line(["sha256", "status", "bytes", "positions", "date", "file"]);
    for a in rows {
        out += &line([
            &a.sha256[..a.sha256.len().min(16)],
            a.status.as_str(),
            &dash(a.bytes.map(|b| b.to_string())),
            &dash(a.positions.map(|p| p.to_string())),
            &dash(a.date.clone()),
            &dash(a.file.clone()),
        ]);
    }
    out
}

fn show(command: &str, kind: ArtifactKind, a: &ShowArgs) -> Result<String, String> {
    let (store, conn) = open(command, &a.places)?;
    let sha = find(&conn, &store, &a.hash)?;
    let artifact = artifacts::get(&conn, &sha)?.ok_or(format!("{command}: no artifact {sha}"))?;
    if artifact.kind != kind {
        return Err(format!(
            "{command}: {sha} is a {} (autotest {} show)",
            artifact.kind,
            match artifact.kind {
                ArtifactKind::Dataset => "data",
                ArtifactKind::Net => "nets",
            }
        ));
    }
    show::page(&conn, &artifact)
}

/// The one artifact whose sha256 starts with `prefix`: a refusal names
/// the prefix and the candidates, or the store where there is none.
fn find(conn: &Connection, store: &Store, prefix: &str) -> Result<String, String> {
    if !leiserchess::object_store::is_prefix(prefix) {
        return Err(store::StoreError::BadPrefix {
            prefix: prefix.to_string(),
        }
        .to_string());
    }
    let found = artifacts::matching(conn, prefix)?;
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(store::StoreError::NotFound {
            prefix: prefix.to_string(),
            root: store.root().to_path_buf(),
        }
        .to_string()),
        _ => Err(store::StoreError::Ambiguous {
            prefix: prefix.to_string(),
            root: store.root().to_path_buf(),
            candidates: found,
        }
        .to_string()),
    }
}

/// Every kept artifact of `kind` re-hashed, and every one whose record
/// is there but not its object: a line each for what is wrong, and an
/// error if anything is.
fn verify(command: &str, kind: ArtifactKind, places: &Places) -> Result<String, String> {
    let (store, conn) = open(command, places)?;
    // What has a record: a lost parent known by its hash only is not
    // the store's to hold.
    let recorded: Vec<Artifact> = artifacts::list(&conn, kind)?
        .into_iter()
        .filter(|a| store.record_path(&a.sha256).is_file())
        .collect();
    let problems: Vec<String> = recorded
        .iter()
        .filter_map(|a| store.verify_object(&a.sha256).err())
        .map(|e| e.to_string())
        .collect();
    let checked = recorded.len();
    if problems.is_empty() {
        let objects = if checked == 1 { "object" } else { "objects" };
        return Ok(format!("{command}: {checked} {objects}, all whole\n"));
    }
    Err(format!(
        "{command}: {} of {checked} objects missing or changed:\n{}",
        problems.len(),
        problems.join("\n")
    ))
}

/// `autotest data gc [--dry-run]`.
fn gc(a: &GcArgs) -> Result<String, String> {
    let command = "data gc";
    let (store, conn) = open(command, &a.places)?;
    let mut out = String::new();
    let doomed = artifacts::collectable(&conn)?;
    for d in &doomed {
        let what = format!(
            "{} {} bytes {}",
            d.sha256,
            d.bytes.unwrap_or(0),
            d.file.as_deref().unwrap_or("-")
        );
        if a.dry_run {
            out += &format!("would delete {what}\n");
        } else {
            store
                .remove(&d.sha256)
                .map_err(|e| format!("{command}: {e}"))?;
            artifacts::forget(&conn, &d.sha256)?;
            out += &format!("deleted {what}\n");
        }
    }
    if doomed.is_empty() {
        out += "data gc: nothing to delete\n";
    }
    Ok(out)
}
