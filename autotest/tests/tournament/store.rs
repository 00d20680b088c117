//! `autotest data` and `autotest nets` on a store the engine's library
//! fills (`leiserchess::lab::store`): the records indexed in the results
//! database, `show`'s lineage, `verify`'s failures, and `gc`, which keeps
//! every ancestor of a net and whatever a run names.

use crate::common::scratch;
use autotest::db::artifacts;
use autotest::db::open;
use autotest::db::text_enums::{ArtifactKind, ArtifactStatus, ParentRole};
use leiserchess::lab::data::{HEADER, RECORD};
use leiserchess::lab::store::{self, Kind, Parent, Role, Store};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// autotest with `args`, its store and database under `dir`.
fn autotest(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(args)
        .env(leiserchess::object_store::ENV, dir.join("store"))
        .env("AUTOTEST_DB", dir.join("lab.db"))
        .env_remove(open::BUSY_ENV)
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A dataset file of `n` records of `fill`.
fn dataset(dir: &Path, name: &str, fill: u8, n: usize) -> PathBuf {
    let path = dir.join(name);
    let mut bytes = HEADER.to_vec();
    bytes.extend(std::iter::repeat_n(fill, n * RECORD));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The store's hashes of a small lineage: `played` by generation 5,
/// `relabelled` from it, `net` trained on `relabelled`; `named` (started
/// from `named_parent`) is what a run names; `loose` nothing needs.
struct Lineage {
    played: String,
    relabelled: String,
    net: String,
    named: String,
    named_parent: String,
    loose: String,
}

fn lineage(dir: &Path) -> (Store, Lineage) {
    let s = store::open(Some(&dir.join("store"))).unwrap();
    let generation5 = s.find("ba3fde78").unwrap().sha256;
    let command: Vec<String> = vec!["leiserchess".to_string(), "test".to_string()];
    let put = |name: &str, fill: u8, kind: Kind, parents: Vec<Parent>| {
        let file = dataset(dir, name, fill, 2);
        store::register(&s, &file, kind, parents, &command)
            .unwrap()
            .sha256
    };
    let data = |role: Role, sha: &str| Parent::object(role, Kind::Dataset, sha);
    let played = put(
        "played.bin",
        1,
        Kind::Dataset,
        vec![Parent::object(Role::Played, Kind::Net, &generation5)],
    );
    let relabelled = put(
        "relabelled.bin",
        2,
        Kind::Dataset,
        vec![data(Role::StartedFrom, &played)],
    );
    let net = put(
        "net.nnue",
        3,
        Kind::Net,
        vec![data(Role::TrainedOn, &relabelled)],
    );
    let named_parent = put("named-parent.bin", 4, Kind::Dataset, vec![]);
    let named = put(
        "named.bin",
        5,
        Kind::Dataset,
        vec![data(Role::StartedFrom, &named_parent)],
    );
    let loose = put(
        "loose.bin",
        6,
        Kind::Dataset,
        vec![data(Role::StartedFrom, &played)],
    );
    let lineage = Lineage {
        played,
        relabelled,
        net,
        named,
        named_parent,
        loose,
    };
    (s, lineage)
}

/// Every record becomes a row (kept), every parent an edge with its role,
/// and a lost parent a lost row of its own; a record whose object is gone
/// is lost.
#[test]
fn sync_indexes_the_stores_records() {
    let dir = scratch::dir("store-sync");
    let (s, l) = lineage(&dir);
    let mut conn = open::open(&dir.join("lab.db")).unwrap();
    let records = artifacts::sync(&mut conn, &s).unwrap();
    // The lineage's six, and the committed nets every store holds.
    assert_eq!(records, 6 + store::embedded::committed().len());
    let net = artifacts::get(&conn, &l.net).unwrap().unwrap();
    assert_eq!(
        (net.kind, net.status),
        (ArtifactKind::Net, ArtifactStatus::Kept)
    );
    assert_eq!(
        net.command,
        Some(vec!["leiserchess".to_string(), "test".to_string()])
    );
    let edges = artifacts::parents(&conn, &l.net).unwrap();
    assert_eq!(
        edges,
        vec![artifacts::Edge {
            sha256: l.relabelled.clone(),
            role: ParentRole::TrainedOn
        }]
    );
    let children = artifacts::children(&conn, &l.played).unwrap();
    assert_eq!(children.len(), 2);
    // Generation 5's 37 shards and generation 4, lost, and the data
    // generation 6 was trained on, not in this store.
    let lost = |kind| {
        artifacts::list(&conn, kind)
            .unwrap()
            .into_iter()
            .filter(|a| a.status == ArtifactStatus::Lost)
            .count()
    };
    assert_eq!(
        (lost(ArtifactKind::Dataset), lost(ArtifactKind::Net)),
        (38, 1)
    );

    std::fs::remove_file(s.object_path(&l.loose)).unwrap();
    artifacts::sync(&mut conn, &s).unwrap();
    let loose = artifacts::get(&conn, &l.loose).unwrap().unwrap();
    assert_eq!(loose.status, ArtifactStatus::Lost);
}

/// `gc --dry-run` lists only the dataset nothing needs and deletes
/// nothing; `gc` deletes it (object, record, row) and keeps every
/// ancestor of the net, what a run names and its ancestors, and nets.
#[test]
fn gc_keeps_every_ancestor_of_a_net_and_what_a_run_names() {
    let dir = scratch::dir("store-gc");
    let (s, l) = lineage(&dir);
    let ls = autotest(&["data", "ls"], &dir);
    assert!(ls.status.success(), "{}", text(&ls.stderr));
    let conn = open::open(&dir.join("lab.db")).unwrap();
    let engines = format!(
        r#"[{{"options":[["EvalFile","store:{}"]]}}]"#,
        &l.named[..12]
    );
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started)
         VALUES ('tournament', '[]', ?1, 't', 1, 1, 'finished', 0)",
        [engines],
    )
    .unwrap();
    let dry = autotest(&["data", "gc", "--dry-run"], &dir);
    let out = text(&dry.stdout);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with(&format!("would delete {}", l.loose)),
        "{out}"
    );
    assert!(s.object_path(&l.loose).is_file());

    let gc = autotest(&["data", "gc"], &dir);
    assert!(text(&gc.stdout).starts_with(&format!("deleted {}", l.loose)));
    assert!(!s.object_path(&l.loose).exists() && !s.record_path(&l.loose).exists());
    for kept in [&l.played, &l.relabelled, &l.net, &l.named, &l.named_parent] {
        assert!(s.object_path(kept).is_file(), "{kept}");
    }
    let ls = text(&autotest(&["data", "ls"], &dir).stdout);
    assert!(
        !ls.contains(&l.loose[..16]) && ls.contains(&l.played[..16]),
        "{ls}"
    );
    let again = text(&autotest(&["data", "gc"], &dir).stdout);
    assert_eq!(again, "data gc: nothing to delete\n");
}

/// `verify` names a changed object and a missing one and fails; a whole
/// store passes.
#[test]
fn verify_names_changed_and_missing_objects() {
    let dir = scratch::dir("store-verify");
    let (s, l) = lineage(&dir);
    let ok = autotest(&["data", "verify"], &dir);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout), "data verify: 5 objects, all whole\n");
    std::fs::write(s.object_path(&l.played), "changed").unwrap();
    std::fs::remove_file(s.object_path(&l.loose)).unwrap();
    let bad = autotest(&["data", "verify"], &dir);
    let err = text(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("2 of 5 objects missing or changed"), "{err}");
    let changed = format!("changed object {}", s.object_path(&l.played).display());
    let missing = format!("missing object {}", s.object_path(&l.loose).display());
    assert!(err.contains(&changed) && err.contains(&missing), "{err}");
    let nets = autotest(&["nets", "verify"], &dir);
    // The lineage's net and the committed ones.
    let nets_said = format!(
        "nets verify: {} objects, all whole\n",
        1 + store::embedded::committed().len()
    );
    assert_eq!(text(&nets.stdout), nets_said);
}

/// `nets show ba3fde78` on a new store prints generation 5's record and
/// its lineage: the 37 lost shards, generation 4 as its baseline, and the
/// datasets it played; a prefix of nothing, or of a dataset, is refused.
#[test]
fn nets_show_prints_generation_5s_lineage() {
    let dir = scratch::dir("store-show");
    let (s, l) = lineage(&dir);
    let show = autotest(&["nets", "show", "ba3fde78"], &dir);
    let out = text(&show.stdout);
    assert!(show.status.success(), "{}", text(&show.stderr));
    assert!(out.starts_with("net ba3fde787486a2e8"), "{out}");
    assert!(out.contains("commit     1805b40\n"), "{out}");
    assert_eq!(out.matches("  trained-on   dataset ").count(), 37, "{out}");
    assert!(
        out.contains("  trained-on   dataset f13818f1 (lost) target/data/gen2-data/shard-0.bin")
    );
    assert!(out.contains("  baseline     net 7950a5516d0a2404"), "{out}");
    let child = format!("children\n  played       dataset {} (kept)", l.played);
    assert!(out.contains(&child), "{out}");

    let deep = text(&autotest(&["nets", "show", &l.net[..8]], &dir).stdout);
    assert!(deep.contains("\n      played       net ba3fde78"), "{deep}");

    let none = autotest(&["nets", "show", "00000000"], &dir);
    let root = s.root().display().to_string();
    let err = text(&none.stderr);
    assert!(err.contains("'00000000'") && err.contains(&root), "{err}");
    let wrong = autotest(&["nets", "show", &l.played[..8]], &dir);
    assert!(text(&wrong.stderr).contains("is a dataset (autotest data show)"));
}

/// The engine with `args`, its store under `dir`.
fn engine(args: &[&str], dir: &Path) -> Output {
    Command::new(crate::common::programs::leiserchess())
        .args(args)
        .env(leiserchess::object_store::ENV, dir.join("store"))
        .output()
        .expect("run leiserchess")
}

/// A net trained by `leiserchess train` from a dataset `datagen` put in
/// the store is made again by `nets reproduce`, byte for byte; a record
/// whose command no longer makes its net is named with both hashes, and
/// generation 5, whose data is lost, is refused.
#[test]
fn nets_reproduce_trains_a_net_again_byte_for_byte() {
    let dir = scratch::dir("store-reproduce");
    let data = dir.join("d.bin");
    let data = data.to_str().unwrap();
    let made = engine(
        &["datagen", data, "--positions", "1500", "--nodes", "40"],
        &dir,
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let net = dir.join("n.nnue");
    let net = net.to_str().unwrap();
    let trained = engine(
        &[
            "train",
            data,
            "--out",
            net,
            "--epochs",
            "2",
            "--validation",
            "0.3",
        ],
        &dir,
    );
    assert!(trained.status.success(), "{}", text(&trained.stderr));
    let bytes = std::fs::read(net).unwrap();
    let s = Store::at(dir.join("store"));
    let sha = s.put_bytes(&bytes).unwrap().sha256;
    // The working copies go: the run is made from the store's.
    std::fs::remove_file(data).unwrap();
    std::fs::remove_file(net).unwrap();

    let again = autotest(&["nets", "reproduce", &sha[..12]], &dir);
    let out = text(&again.stdout);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let said = format!("\nnets reproduce: {sha} reproduced byte for byte from 1 dataset\n");
    assert!(out.ends_with(&said), "{out}");

    let record = s.record_path(&sha);
    let text_of = std::fs::read_to_string(&record).unwrap();
    std::fs::write(&record, text_of.replace("\"2\"", "\"1\"")).unwrap();
    let changed = autotest(&["nets", "reproduce", &sha[..12]], &dir);
    let err = text(&changed.stderr);
    assert_eq!(changed.status.code(), Some(2), "{err}");
    assert!(err.contains("the recorded run made "), "{err}");
    assert!(
        err.contains(&format!(", not {sha}: the same build"))
            || err.contains(&format!(", not {sha}: it was made by")),
        "{err}"
    );

    let lost = autotest(&["nets", "reproduce", "ba3fde78"], &dir);
    let err = text(&lost.stderr);
    assert!(
        err.contains("is lost: the run cannot be made again"),
        "{err}"
    );
}

/// A net trained `--init` from another names it as the net it started
/// from, and `nets reproduce` trains it again from the store's copy of
/// that net, byte for byte.
#[test]
fn a_net_started_from_another_is_reproduced_from_the_stores_copy() {
    let dir = scratch::dir("store-reproduce-init");
    let path = |name: &str| dir.join(name).display().to_string();
    let (data, first, second) = (path("d.bin"), path("a.nnue"), path("b.nnue"));
    let made = engine(
        &["datagen", &data, "--positions", "1500", "--nodes", "40"],
        &dir,
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let train = |out: &str, more: &[&str]| {
        let words = [
            "train",
            &data,
            "--out",
            out,
            "--epochs",
            "1",
            "--validation",
            "0.3",
        ];
        let run = engine(&[&words[..], more].concat(), &dir);
        assert!(run.status.success(), "{}", text(&run.stderr));
    };
    train(&first, &[]);
    train(&second, &["--init", &first, "--rate", "0.0001"]);
    let s = Store::at(dir.join("store"));
    let sha = |file: &str| s.put_bytes(&std::fs::read(file).unwrap()).unwrap().sha256;
    let (a, b) = (sha(&first), sha(&second));
    let record = store::read_record(&s, &b).unwrap();
    let started: Vec<_> = record
        .parents
        .iter()
        .filter(|p| p.role == Role::StartedFrom)
        .map(|p| match &p.source {
            store::Source::Object { sha256, .. } => sha256.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(started, vec![a]);
    for file in [&data, &first, &second] {
        std::fs::remove_file(file).unwrap();
    }
    let again = autotest(&["nets", "reproduce", &b[..12]], &dir);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains(&format!("{b} reproduced byte for byte")));
}

/// A promotion of generation `g` of the loop in `dir`, with `wins`.
fn promotion(dir: &str, g: u32, date: u64, wins: u64) -> store::Promotion {
    store::Promotion {
        loop_dir: dir.to_string(),
        generation: g,
        against: None,
        sprt: store::SprtSummary {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            limits: "nodes=40".to_string(),
            wins,
            draws: 2,
            losses: 1,
            llr: 2.96,
        },
        host: None,
        date,
    }
}

/// `nets ls` names each loop's best net, its latest promotion, from the
/// store's marks; without one it adds nothing to the table.
#[test]
fn nets_ls_names_each_loop_s_best() {
    let dir = scratch::dir("store-loop-best");
    let (s, l) = lineage(&dir);
    // Before these promotions: only the embedded net's, in its committed
    // record.
    let plain = text(&autotest(&["nets", "ls"], &dir).stdout);
    let loops = plain
        .split("autotest loop")
        .nth(1)
        .unwrap_or_else(|| panic!("{plain}"));
    assert_eq!(loops.lines().count(), 2, "{plain}");
    let file = |sha: &str| {
        let path = dir.join(format!("{sha}.copy"));
        std::fs::write(&path, std::fs::read(s.object_path(sha)).unwrap()).unwrap();
        path
    };
    let first = file(&l.net);
    let second = dataset(&dir, "second.nnue", 9, 2);
    store::promote(&s, &first, promotion("/loops/a", 1, 1000, 7)).unwrap();
    let later = store::promote(&s, &second, promotion("/loops/a", 3, 2000, 8)).unwrap();
    let gen5 = s.find("ba3fde78").unwrap().sha256;
    let embedded = file(&gen5);
    store::promote(&s, &embedded, promotion("/loops/b", 1, 1500, 9)).unwrap();
    let ls = autotest(&["nets", "ls"], &dir);
    assert!(ls.status.success(), "{}", text(&ls.stderr));
    let out = text(&ls.stdout);
    let tail = format!(
        "\nthe best net of each autotest loop (its latest promotion):\n\
         {}  /loops/a  generation 3, SPRT +8 =2 -1, llr 2.96, nodes=40\n\
         {}  /loops/b  generation 1, SPRT +9 =2 -1, llr 2.96, nodes=40\n",
        &later.sha256[..16],
        &gen5[..16]
    );
    // The embedded net's committed record carries the promotion that
    // made it, its loop's line after these.
    let embedded = store::embedded::record().unwrap();
    let line = format!(
        "\n{}  {}  generation 1, ",
        &embedded.sha256[..16],
        embedded.promoted[0].loop_dir
    );
    let (ours, rest) = out.split_at(out.find(&line).unwrap_or_else(|| panic!("{out}")));
    assert!(ours.ends_with(&tail[..tail.len() - 1]), "{out}");
    assert_eq!(rest.lines().count(), 2, "{out}");
}
