//! The lab's datasets and nets in the store (`crate::object_store`), each
//! with its lineage record beside it (`meta/SHA256.json`): what it is,
//! the command and build that made it, where and when, and its parents
//! with their roles. The records live in the store, not only in the lab
//! database, because the nodes of a Slurm cluster share the store's
//! directory and SQLite is not safe over a network file system; autotest
//! indexes them (`autotest data`, `autotest nets`).
//!
//! `datagen`, `relabel` and `train` call [`register`] when they have
//! written their file (`src/main.rs`); [`open`] puts the embedded net in
//! with its committed record ([`embedded`]); `autotest loop` marks the
//! net it promotes ([`promote`]).

pub mod embedded;
mod generation5;

pub use crate::object_store::{Object, Store, StoreError};

use crate::config::EngineConfig;
use crate::lab::data;
use crate::object_store::{hex, NET_PREFIX};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// What an object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Self-play positions (`lab::data`'s format).
    Dataset,
    /// A net file (`eval::nnue`'s format).
    Net,
}

/// What a parent was to its child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The net (or the hand-written evaluation) that played a dataset's
    /// games; `datagen`'s scores are its searches' too.
    Played,
    /// The net (or the hand-written evaluation) that scored a dataset
    /// again (`relabel`).
    Labelled,
    /// A dataset a net was trained on.
    TrainedOn,
    /// What a run started from: the dataset `relabel` scored again, the
    /// net a training run went on from.
    StartedFrom,
    /// The net a new one was measured against (`train --against`, the
    /// SPRT that accepted it).
    Baseline,
}

/// Where a parent is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum Source {
    /// An object: in the store, or `lost` (known by its sha256 or a prefix
    /// of at least 8 digits only).
    Object {
        kind: Kind,
        sha256: String,
        #[serde(default)]
        lost: bool,
        /// The file it was known as, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file: Option<String>,
    },
    /// The hand-written evaluation (`--hand`, `use_nnue` off).
    HandWritten,
}

/// A parent and its role.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parent {
    pub role: Role,
    #[serde(flatten)]
    pub source: Source,
}

impl Parent {
    /// The object `sha256` of the store, of `kind`, as `role`.
    pub fn object(role: Role, kind: Kind, sha256: &str) -> Parent {
        Parent {
            role,
            source: Source::Object {
                kind,
                sha256: sha256.to_string(),
                lost: false,
                file: None,
            },
        }
    }
}

/// The build that made an object: the binary's sha256 and the commit
/// checked out where it lies (`git rev-parse HEAD` in its directory), each
/// if known.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    pub sha256: Option<String>,
    pub commit: Option<String>,
}

impl Build {
    /// This process's binary, best effort.
    pub fn this() -> Build {
        let Ok(exe) = std::env::current_exe() else {
            return Build::default();
        };
        let sha256 = std::fs::File::open(&exe).ok().and_then(|mut f| {
            let mut hasher = Sha256::new();
            std::io::copy(&mut f, &mut hasher).ok()?;
            Some(hex(&hasher.finalize()))
        });
        let commit = exe.parent().and_then(|dir| {
            let out = std::process::Command::new("git")
                .args(["rev-parse", "HEAD"])
                .current_dir(dir)
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output()
                .ok()?;
            let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
            (out.status.success() && !commit.is_empty()).then_some(commit)
        });
        Build { sha256, commit }
    }
}

/// An object's lineage record, `meta/SHA256.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub kind: Kind,
    pub sha256: String,
    pub bytes: u64,
    /// A dataset's positions.
    pub positions: Option<u64>,
    /// The command line that made it, word by word (empty: not known).
    pub command: Vec<String>,
    pub build: Build,
    /// The machine (the Slurm node's name, else the host's).
    pub host: Option<String>,
    /// When it was registered, Unix seconds.
    pub date: Option<u64>,
    /// The file it was registered from.
    pub file: Option<String>,
    /// What else is known, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A net that became the engine's embedded default: since when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded: Option<Embedded>,
    /// The SPRTs that made a net an `autotest loop`'s best.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub promoted: Vec<Promotion>,
    pub parents: Vec<Parent>,
}

/// An `autotest loop` generation whose SPRT made a net the loop's best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Promotion {
    /// The loop's folder, absolute.
    #[serde(rename = "loop")]
    pub loop_dir: String,
    pub generation: u32,
    /// The net it was played against, by sha256 (`None`: not known by
    /// hash).
    pub against: Option<String>,
    pub sprt: SprtSummary,
    /// The machine and the time (Unix seconds) of the promotion.
    pub host: Option<String>,
    pub date: u64,
}

/// An SPRT as a promotion records it: its bounds, its games' limits, the
/// candidate's wins, draws and losses, and the log-likelihood ratio after
/// its last game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSummary {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Each engine's limits, as autotest writes them (`nodes=40`,
    /// `tc=10+0.1`).
    pub limits: String,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub llr: f64,
}

/// The commit that made a net the embedded default
/// (`src/eval/nnue/default.nnue`), and that commit's date.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Embedded {
    pub commit: String,
    /// Unix seconds (the commit's date): the order of the defaults.
    pub date: u64,
}

impl Record {
    /// The record's text, as the store keeps it.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record is JSON") + "\n"
    }
}

/// Generation 5's committed record (`generation5.json`).
pub fn generation5_record() -> Record {
    generation5::record()
}

/// What is known of generation 5 beyond its record, written by hand
/// (`generation5.md`): the section `autotest nets default-md` carries
/// into `src/eval/nnue/default.md` after the net's own.
pub const GENERATION5_HISTORY: &str = include_str!("generation5.md");

/// The store `flag` (`--store DIR`) names, else the environment's or the
/// default, with the embedded net in it under its committed record.
pub fn open(flag: Option<&Path>) -> Result<Store, StoreError> {
    let store = Store::choose(flag)?;
    embedded::ensure(&store)?;
    Ok(store)
}

/// The record of `sha256` (a full hash), read and checked.
pub fn read_record(store: &Store, sha256: &str) -> Result<Record, StoreError> {
    let path = store.record_path(sha256);
    let bad = |error: String| StoreError::BadMetadata {
        path: path.clone(),
        error,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let record: Record = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    if record.sha256 != sha256 {
        return Err(bad(format!("it names sha256 {}", record.sha256)));
    }
    Ok(record)
}

/// Every record of the store, in order of hash.
pub fn records(store: &Store) -> Result<Vec<Record>, StoreError> {
    store
        .records()?
        .iter()
        .map(|sha| read_record(store, sha))
        .collect()
}

/// Puts `file` in the store with the record of a `kind` made by `command`
/// from `parents`, by this binary, here and now. Registering the same
/// bytes again keeps the first record, which is returned.
///
/// `leiserchess datagen`, `relabel` and `train` call it from
/// `src/main.rs` once their file is written.
pub fn register(
    store: &Store,
    file: &Path,
    kind: Kind,
    parents: Vec<Parent>,
    command: &[String],
) -> Result<Record, StoreError> {
    let object = store.put(file)?;
    if store.record_path(&object.sha256).is_file() {
        return read_record(store, &object.sha256);
    }
    let record = Record {
        kind,
        sha256: object.sha256.clone(),
        bytes: object.bytes,
        positions: (kind == Kind::Dataset).then(|| data::positions_held(file)),
        command: command.to_vec(),
        build: Build::this(),
        host: host(),
        date: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| d.as_secs()),
        file: Some(file.display().to_string()),
        note: None,
        embedded: None,
        promoted: Vec::new(),
        parents,
    };
    store.write_record(&record.sha256, record.to_json().as_bytes())?;
    Ok(record)
}

/// Marks the net `file` as promoted by `promotion` in its record (the
/// net put in the store with a record of no command or parents if it is
/// not there); a promotion of the same loop's generation already marked
/// is kept as it was. The record, rewritten whole as `register` writes
/// it, is returned.
pub fn promote(store: &Store, file: &Path, promotion: Promotion) -> Result<Record, StoreError> {
    let mut record = register(store, file, Kind::Net, Vec::new(), &[])?;
    let same =
        |p: &Promotion| p.loop_dir == promotion.loop_dir && p.generation == promotion.generation;
    if !record.promoted.iter().any(same) {
        record.promoted.push(promotion);
        store.write_record(&record.sha256, record.to_json().as_bytes())?;
    }
    Ok(record)
}

/// A parent `file` of `kind` (a run's input) in the store: registered
/// with no command or parents (its own lineage not known here) unless it
/// is there already.
pub fn input(store: &Store, role: Role, kind: Kind, file: &Path) -> Result<Parent, StoreError> {
    let record = register(store, file, kind, Vec::new(), &[])?;
    Ok(Parent::object(role, kind, &record.sha256))
}

/// The evaluation `engine` searches with, as a parent of `role`: the
/// hand-written one, the embedded net, a net of the store (`store:PREFIX`)
/// or a net file (put in the store by [`input`]).
pub fn evaluation(store: &Store, role: Role, engine: &EngineConfig) -> Result<Parent, StoreError> {
    if !engine.search.use_nnue {
        return Ok(Parent {
            role,
            source: Source::HandWritten,
        });
    }
    let file = Some(engine.eval_file.as_str()).filter(|f| !f.is_empty());
    net_parent(store, role, file)
}

/// The net `train --init` names, as a parent of `role`: the embedded
/// net (`embedded`), a net of the store (`store:PREFIX`) or a net file.
pub fn net(store: &Store, role: Role, name: &str) -> Result<Parent, StoreError> {
    let file = Some(name).filter(|n| *n != crate::lab::train::INIT_EMBEDDED);
    net_parent(store, role, file)
}

/// The net `file` names (a file or `store:PREFIX`; `None`: the embedded
/// one) as a parent of `role`.
fn net_parent(store: &Store, role: Role, file: Option<&str>) -> Result<Parent, StoreError> {
    let sha256 = match file {
        None => embedded::sha256(),
        Some(name) => match name.strip_prefix(NET_PREFIX) {
            Some(prefix) => store.find(prefix)?.sha256,
            None => return input(store, role, Kind::Net, Path::new(name)),
        },
    };
    Ok(Parent::object(role, Kind::Net, &sha256))
}

/// This machine's name: the Slurm node's in a task, else the kernel's
/// (autotest's logs and records name it so too).
pub fn host() -> Option<String> {
    std::env::var("SLURMD_NODENAME")
        .ok()
        .filter(|v| !v.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .map(|h| h.trim().to_string())
        })
}

#[cfg(test)]
mod tests;
