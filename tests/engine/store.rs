//! The lab store from the binary: `EvalFile=store:PREFIX` in the UCI loop
//! and on its command line, and `datagen`'s file registered with its
//! lineage (`--store DIR`, `--no-store`).

use crate::common::scratch;
use leiserchess::lab::store::{self, Kind, Parent, Role, Source};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The engine run with `args` on `input`, its store `store`.
fn engine(args: &[&str], input: &str, store: &Path) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(args)
        .env(leiserchess::object_store::ENV, store)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The store's net by prefix, through `setoption` and `--option`; a prefix
/// the store lacks is an error line naming it and the store, and the net
/// in use stays.
#[test]
fn eval_file_store_prefix_loads_the_stores_net() {
    let dir = scratch::dir("store-evalfile");
    let root = dir.join("store");
    store::open(Some(&root)).unwrap();
    let session = "setoption name EvalFile value store:ba3fde78\n\
                   setoption name EvalFile value store:00000000\n\
                   isready\nquit\n";
    let out = text(&engine(&[], session, &root).stdout);
    assert!(
        out.contains("info string net 'store:ba3fde78': 1152 inputs"),
        "{out}"
    );
    let refused = format!(
        "info string error: EvalFile 'store:00000000': no object with sha256 prefix '00000000' in the store {}; net unchanged",
        root.display()
    );
    assert!(out.contains(&refused), "{out}");
    assert!(out.contains("readyok"), "{out}");

    let out = engine(
        &["--option", "EvalFile=store:ba3fde78"],
        "isready\nquit\n",
        &root,
    );
    assert!(
        text(&out.stdout).contains("readyok"),
        "{}",
        text(&out.stderr)
    );
    let out = engine(&["--option", "EvalFile=store:ffffffff"], "quit\n", &root);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("'ffffffff'"),
        "{}",
        text(&out.stderr)
    );
}

/// `datagen` puts its file in the store (`--store DIR`) with the net that
/// played it as its parent (the embedded one; `--net
/// store:PREFIX` the same; `--hand` the hand-written evaluation), and
/// `--no-store` leaves it out (the environment's store is not opened).
#[test]
fn datagen_registers_its_file_with_the_net_that_played() {
    let dir = scratch::dir("store-datagen");
    let root = dir.join("store");
    let root_text = root.display().to_string();
    let elsewhere = dir.join("unused");
    store::open(Some(&root)).unwrap();
    let embedded_net = store::embedded::sha256();
    let run = |file: &str, extra: &[&str]| {
        let file = dir.join(file).display().to_string();
        let mut args = vec!["datagen", &file, "--positions", "20", "--nodes", "20"];
        args.extend(extra);
        let out = engine(&args, "", &elsewhere);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    let parents_of = |stderr: &str| -> Vec<Parent> {
        let sha = stderr
            .lines()
            .find_map(|l| l.strip_prefix("stored as "))
            .and_then(|l| l.split(' ').next())
            .unwrap_or_else(|| panic!("not stored: {stderr}"));
        let s = store::Store::at(&root);
        let r = store::read_record(&s, sha).unwrap();
        assert_eq!((r.kind, r.positions), (Kind::Dataset, Some(20)));
        assert!(r.command.iter().any(|w| w == "datagen"), "{:?}", r.command);
        r.parents
    };
    let embedded = run("a.bin", &["--store", &root_text]);
    let played = Parent::object(Role::Played, Kind::Net, &embedded_net);
    assert_eq!(parents_of(&embedded), vec![played.clone()]);
    let prefix = format!("store:{}", &embedded_net[..8]);
    let by_prefix = run("b.bin", &["--store", &root_text, "--net", &prefix]);
    assert_eq!(parents_of(&by_prefix), vec![played]);
    let hand = run("c.bin", &["--store", &root_text, "--hand"]);
    let hand_written = Parent {
        role: Role::Played,
        source: Source::HandWritten,
    };
    assert_eq!(parents_of(&hand), vec![hand_written]);
    let before = store::Store::at(&root).records().unwrap();
    let left_out = run("d.bin", &["--no-store"]);
    assert!(!left_out.contains("stored as"), "{left_out}");
    assert_eq!(store::Store::at(&root).records().unwrap(), before);
    assert!(!elsewhere.exists());
}
