//! `autotest nets reproduce HASH`: a net's recorded training run again,
//! on the store's copies of its data, and the result compared with the
//! net byte for byte. The run is the trainer linked into this build, in
//! process; a net trained by another build of the trainer may differ, and
//! then the report says whose build made it.

use leiserchess::lab::store::{self, Kind, Record, Role, Source, Store};
use leiserchess::lab::train;
use std::path::PathBuf;

const COMMAND: &str = "nets reproduce";

/// Trains the net `sha` of `store` again from its record; an error
/// unless the result is the same file.
pub fn reproduce(store: &Store, sha: &str) -> Result<String, String> {
    let record = store::read_record(store, sha).map_err(|e| format!("{COMMAND}: {e}"))?;
    if record.kind != Kind::Net {
        return Err(format!("{COMMAND}: {sha} is a dataset, not a net"));
    }
    let mut args = recorded(&record)?;
    let data = inputs(store, &record, Role::TrainedOn)?;
    if data.len() != args.files.len() {
        return Err(format!(
            "{COMMAND}: {sha}'s record names {} datasets it was trained on, its command {}",
            data.len(),
            args.files.len()
        ));
    }
    let work = store
        .temporary()
        .map_err(|e| format!("{COMMAND}: {e}"))?
        .with_extension("reproduce");
    std::fs::create_dir(&work)
        .map_err(|e| format!("{COMMAND}: cannot create {}: {e}", work.display()))?;
    args.files = data;
    args.out = work.join("net.nnue");
    args.against = inputs(store, &record, Role::Baseline)?.pop();
    // The store's copy of the net it started from, whatever `--init` named.
    args.init = inputs(store, &record, Role::StartedFrom)?
        .pop()
        .map(|p| p.display().to_string());
    args.resume = false;
    let trained = train::command(&args).and_then(|()| {
        crate::db::provenance::sha256(&args.out)
            .ok_or_else(|| format!("cannot read {}", args.out.display()))
    });
    // The work directory goes whatever happened: a net that differs is
    // named by its hash.
    let _ = std::fs::remove_dir_all(&work);
    let made = trained.map_err(|e| format!("{COMMAND}: the training run failed: {e}"))?;
    if made == sha {
        let n = args.files.len();
        return Ok(format!(
            "{COMMAND}: {sha} reproduced byte for byte from {n} {}\n",
            if n == 1 { "dataset" } else { "datasets" }
        ));
    }
    let this = store::Build::this();
    let builds = if this.sha256 == record.build.sha256 {
        "the same build made both".to_string()
    } else {
        format!(
            "it was made by build {} (commit {}), this run by {} (commit {})",
            record.build.sha256.as_deref().unwrap_or("unknown"),
            record.build.commit.as_deref().unwrap_or("unknown"),
            this.sha256.as_deref().unwrap_or("unknown"),
            this.commit.as_deref().unwrap_or("unknown"),
        )
    };
    Err(format!(
        "{COMMAND}: the recorded run made {made}, not {sha}: {builds}"
    ))
}

/// The `train` command line of `record`, parsed as the trainer parses it
/// (`--store` and `--no-store`, the binary's own, left out).
fn recorded(record: &Record) -> Result<train::Args, String> {
    let words = &record.command;
    if words.get(1).map(String::as_str) != Some("train") {
        return Err(format!(
            "{COMMAND}: {} was not made by `leiserchess train` (its command: {})",
            record.sha256,
            if words.is_empty() {
                "not recorded".to_string()
            } else {
                words.join(" ")
            }
        ));
    }
    let mut kept = vec!["train".to_string()];
    let mut rest = words[2..].iter();
    while let Some(w) = rest.next() {
        match w.as_str() {
            "--no-store" => {}
            "--store" => {
                rest.next();
            }
            _ if w.starts_with("--store=") => {}
            _ => kept.push(w.clone()),
        }
    }
    <train::Args as clap::Parser>::try_parse_from(&kept).map_err(|e| {
        format!(
            "{COMMAND}: {}'s command does not parse as this build's `train`: {}",
            record.sha256,
            e.to_string().lines().next().unwrap_or_default()
        )
    })
}

/// The store's files of `record`'s parents of `role`, in their order,
/// each checked whole; a lost or missing one is an error naming it.
fn inputs(store: &Store, record: &Record, role: Role) -> Result<Vec<PathBuf>, String> {
    record
        .parents
        .iter()
        .filter(|p| p.role == role)
        .map(|p| match &p.source {
            Source::Object {
                sha256, lost: true, ..
            } => Err(format!(
                "{COMMAND}: {}'s parent {sha256} ({}) is lost: the run cannot be made again",
                record.sha256,
                role_name(role)
            )),
            Source::Object { sha256, .. } => store
                .verify_object(sha256)
                .map(|()| store.object_path(sha256))
                .map_err(|e| format!("{COMMAND}: {e}")),
            Source::HandWritten => Err(format!(
                "{COMMAND}: {}'s parent of role {} is the hand-written evaluation, not a file",
                record.sha256,
                role_name(role)
            )),
        })
        .collect()
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Played => "played",
        Role::Labelled => "labelled",
        Role::TrainedOn => "trained on",
        Role::StartedFrom => "started from",
        Role::Baseline => "baseline",
    }
}
