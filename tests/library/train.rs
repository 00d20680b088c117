//! `leiserchess train` is reproducible: the same data and seed give the
//! same net to the byte on any number of threads and any `--memory` (every
//! window kept, or read again each epoch), a run killed after an epoch and
//! resumed gives the net of an unbroken one, another seed another net; a
//! run that would hold out nothing is refused, and one that `--memory`
//! cannot hold names the flags to change; `--init` starts from a net's
//! weights.

use crate::common::scratch;
use clap::Parser;
use leiserchess::lab::train::{command, Args, State};
use std::path::Path;

/// The committed 4,000-position sample (tests/data/README.md) eight
/// times over in `dir`: eight of the trainer's held-out blocks.
fn data(dir: &Path) -> String {
    let sample = std::fs::read(format!(
        "{}/tests/data/wdl-sample.bin",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let path = dir.join("d.bin");
    std::fs::write(&path, sample.repeat(8)).unwrap();
    path.display().to_string()
}

/// The settings every run here has besides its own: small steps.
const SMALL: [&str; 3] = ["--beam", "--batch", "2048"];

/// `train`'s command line `args` with [`SMALL`], parsed and run.
fn train(data: &str, out: &Path, args: &[&str]) -> Result<(), String> {
    let out = out.display().to_string();
    let words = ["train", data, "--out", &out].into_iter().chain(SMALL);
    command(&Args::try_parse_from(words.chain(args.iter().copied())).map_err(|e| e.to_string())?)
}

/// `train` run as a user runs it, to its end; what it printed to stderr.
fn train_binary(data: &str, out: &Path, args: &[&str]) -> String {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args([
            "train",
            "--no-store",
            data,
            "--out",
            &out.display().to_string(),
        ])
        .args(SMALL)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    assert!(run.status.success(), "{stderr}");
    stderr
}

/// The plan the trainer prints when every window is kept.
const KEPT: &str = "train: every window and the held-out positions kept";

/// The plan it prints when the windows are read again each epoch.
const STREAMED: &str = "windows in memory at once";

/// `train` run as a user runs it and killed as soon as its first epoch's
/// checkpoint is written; the epoch the checkpoint holds.
fn killed_after_the_first_epoch(data: &str, out: &Path, args: &[&str]) -> usize {
    let ckpt = out.with_extension("nnue.ckpt");
    let _ = std::fs::remove_file(&ckpt);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args([
            "train",
            "--no-store",
            data,
            "--out",
            &out.display().to_string(),
        ])
        .args(SMALL)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The checkpoint is written beside and renamed: once it is there it
    // is whole.
    while !ckpt.exists() {
        assert!(child.try_wait().unwrap().is_none(), "train ended early");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    State::from_bytes(&std::fs::read(&ckpt).unwrap())
        .unwrap()
        .epoch
}

#[test]
fn the_same_data_and_seed_train_the_same_net_and_a_resumed_run_the_unbroken_one() {
    let dir = scratch::dir("train-same");
    let d = data(&dir);
    let (a, b, c, other) = (
        dir.join("a.nnue"),
        dir.join("b.nnue"),
        dir.join("c.nnue"),
        dir.join("other.nnue"),
    );
    // Eleven windows of training positions.
    let two = ["--epochs", "2", "--validation", "0.3", "--window", "2048"];
    // The default memory keeps every window; 17 MB holds three.
    let small = ["--memory", "17"];
    assert!(train_binary(&d, &a, &two).contains(KEPT));
    let bytes = |p: &Path| std::fs::read(p).unwrap();
    // The checkpoints hold the float weights, which the quantised net may
    // round alike when they differ.
    let ckpt = |p: &Path| bytes(&p.with_extension("nnue.ckpt"));
    for threads in ["1", "3"] {
        let args = [&two[..], &small, &["--threads", threads]].concat();
        assert!(train_binary(&d, &b, &args).contains(STREAMED));
        assert_eq!(bytes(&a), bytes(&b), "{threads} threads, 17 MB");
        assert!(
            ckpt(&a) == ckpt(&b),
            "the float weights, {threads} threads, 17 MB"
        );
    }
    train(&d, &b, &[&two[..], &["--threads", "3"]].concat()).unwrap();
    assert!(ckpt(&a) == ckpt(&b), "3 threads, every window kept");
    // An epoch takes far longer than the poll, so the kill lands in the
    // second; should a loaded machine let the second end first, run again.
    let stopped = (0..5).any(|_| killed_after_the_first_epoch(&d, &c, &two) == 1);
    assert!(
        stopped,
        "five runs ended their second epoch before the kill"
    );
    train(&d, &c, &[&two[..], &small, &["--resume"]].concat()).unwrap();
    assert_eq!(
        bytes(&a),
        bytes(&c),
        "killed after an epoch and resumed in 17 MB"
    );
    let curve = |p: &Path| std::fs::read_to_string(p.with_extension("nnue.tsv")).unwrap();
    assert_eq!(curve(&a), curve(&c));
    assert_eq!(curve(&a).lines().count(), 1 + 2, "a header and two epochs");
    train(&d, &other, &[&two[..], &["--seed", "2"]].concat()).unwrap();
    assert_ne!(bytes(&a), bytes(&other), "another seed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_that_holds_out_nothing_is_refused() {
    let dir = scratch::dir("train-none");
    let d = data(&dir);
    let e = train(&d, &dir.join("n.nnue"), &["--validation", "0"]).unwrap_err();
    assert!(
        e.contains("--validation 0 holds out no position of 32000"),
        "{e}"
    );
    assert!(!dir.join("n.nnue").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_the_memory_cannot_hold_names_the_flags() {
    let dir = scratch::dir("train-memory");
    let d = data(&dir);
    let e = train(
        &d,
        &dir.join("n.nnue"),
        &["--memory", "16", "--validation", "0.3"],
    )
    .unwrap_err();
    assert!(
        e.starts_with("--memory 16 cannot hold the net's state")
            && e.contains("two windows of --window 1048576 records")
            && e.contains(": raise --memory to ")
            && e.ends_with(" or lower --window"),
        "{e}"
    );
    train(
        &d,
        &dir.join("n.nnue"),
        &[
            "--memory",
            "17",
            "--window",
            "2048",
            "--epochs",
            "1",
            "--validation",
            "0.3",
        ],
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The line `train --against NET` prints, run as a user runs it: NET's
/// held-out loss on the targets.
fn against_loss(data: &str, out: &Path, net: &str) -> f64 {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(["train", data, "--out", &out.display().to_string()])
        .arg("--no-store")
        .args(SMALL)
        .args(["--epochs", "1", "--validation", "0.3", "--against", net])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("net {net}'s held-out loss: on the targets ")))
        .unwrap_or_else(|| panic!("no --against line in {stdout}"));
    line.split(' ')
        .nth(7)
        .unwrap()
        .trim_end_matches(',')
        .parse()
        .unwrap()
}

/// Each epoch's held-out loss, from the loss curve `train` wrote beside
/// `net` (`NET.tsv`).
fn held_out_losses(net: &Path) -> Vec<f64> {
    let curve = std::fs::read_to_string(net.with_extension("nnue.tsv")).unwrap();
    curve
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(2).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn against_scores_a_net_on_the_same_held_out_positions() {
    let dir = scratch::dir("train-against");
    let d = data(&dir);
    let a = dir.join("a.nnue");
    train(&d, &a, &["--epochs", "2", "--validation", "0.3"]).unwrap();
    // The loss of the epoch whose net was written, from the float model.
    let best = held_out_losses(&a)
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let own = against_loss(&d, &dir.join("b.nnue"), &a.display().to_string());
    assert!(
        (own - best).abs() < 0.02 * best,
        "the quantised net {own} against its float model's {best}"
    );
    let embedded = format!("{}/src/eval/nnue/default.nnue", env!("CARGO_MANIFEST_DIR"));
    let other = against_loss(&d, &dir.join("c.nnue"), &embedded);
    assert!((other - best).abs() > 0.02 * best, "{other} {best}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--init NET` starts from NET's weights: at a rate too small to move a
/// weight by half a quantisation step the net written is NET's file, and
/// its first epoch scores what `--against NET` scores; a random start
/// scores far from it. A net of the other shape is refused naming
/// `--beam`.
#[test]
fn init_starts_from_a_nets_weights() {
    let dir = scratch::dir("train-init");
    let d = data(&dir);
    let a = dir.join("a.nnue");
    train(&d, &a, &["--epochs", "1", "--validation", "0.3"]).unwrap();
    let a_name = a.display().to_string();
    let b = dir.join("b.nnue");
    let still = ["--epochs", "1", "--validation", "0.3", "--rate", "1e-9"];
    train(&d, &b, &[&still[..], &["--init", &a_name]].concat()).unwrap();
    assert_eq!(std::fs::read(&b).unwrap(), std::fs::read(&a).unwrap());
    let first_loss = |net: &Path| held_out_losses(net)[0];
    let embedded = format!("{}/src/eval/nnue/default.nnue", env!("CARGO_MANIFEST_DIR"));
    let bar = against_loss(&d, &dir.join("x.nnue"), &embedded);
    let from_embedded = dir.join("c.nnue");
    train(
        &d,
        &from_embedded,
        &[&still[..], &["--init", "embedded"]].concat(),
    )
    .unwrap();
    let warm = first_loss(&from_embedded);
    assert!((warm - bar).abs() < 0.01 * bar, "{warm} against {bar}");
    let random = dir.join("r.nnue");
    train(&d, &random, &still).unwrap();
    let cold = first_loss(&random);
    assert!((cold - bar).abs() > 0.1 * bar, "{cold} against {bar}");
    let out = dir.join("n.nnue").display().to_string();
    let words = ["train", &d, "--out", &out, "--init", "embedded"];
    let err = command(&Args::try_parse_from(words).unwrap()).unwrap_err();
    assert_eq!(
        err,
        "--init embedded: the net has beam features; add --beam"
    );
    let words = [
        "train",
        &d,
        "--out",
        &out,
        "--beam",
        "--init",
        "missing.nnue",
    ];
    let err = command(&Args::try_parse_from(words).unwrap()).unwrap_err();
    assert!(
        err.starts_with("--init: net file 'missing.nnue': "),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
