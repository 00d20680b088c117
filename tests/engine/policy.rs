//! The move policy behind the Monte-Carlo tree search's priors: the
//! embedded policy agrees with the PVS's best move more often than the
//! plain heuristic on held-out self-play positions
//! (`tests/data/policy-held-out.labels`); its priors are a distribution;
//! `train-policy` labels positions once, keeps the labels and writes a
//! policy the engine loads; and `PolicyFile` refuses a bad file, naming
//! it, while the engine searches on.

use leiserchess::eval::policy::features::candidates;
use leiserchess::eval::policy::Policy;
use leiserchess::lab::policy::{fit, labels};
use session::{Engine, PATIENCE};
use std::path::PathBuf;
use std::time::Duration;

use crate::common::{engine, scratch, session};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The held-out positions of the embedded policy's training, with the
/// moves a depth-5 PVS chose.
fn held_out() -> Vec<labels::Labelled> {
    labels::read(data("policy-held-out.labels")).unwrap()
}

#[test]
fn the_embedded_policy_agrees_with_the_search_more_than_the_heuristic() {
    let held = held_out();
    assert!(held.len() >= 1000, "{} positions", held.len());
    let mut set = fit::Set::default();
    for l in &held {
        assert!(set.push(&l.sample.board, l.best), "{}", l.best);
    }
    let heuristic = fit::agreement(Policy::heuristic().weights(), &set);
    let policy = fit::agreement(Policy::embedded().weights(), &set);
    // Measured (BENCHMARKS.md "MCTS policy"): top-1 10.6% against 2.1%,
    // top-3 24.9% against 5.2%, cross-entropy 3.56 against 4.37.
    let both = format!("policy {policy:?}, heuristic {heuristic:?}");
    assert!(policy.top1 > 0.10 && heuristic.top1 < 0.025, "{both}");
    assert!(policy.top3 > 0.24 && heuristic.top3 < 0.06, "{both}");
    assert!(policy.loss < heuristic.loss - 0.7, "{both}");
}

#[test]
fn the_embedded_priors_are_a_distribution_on_held_out_positions() {
    let policy = Policy::embedded();
    let (mut moves, mut priors) = (Vec::new(), Vec::new());
    for l in held_out().iter().step_by(10) {
        let b = &l.sample.board;
        candidates(b, &mut moves);
        policy.priors(b, &moves, &mut priors);
        assert_eq!(priors.len(), moves.len());
        assert!((priors.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(priors.iter().all(|&p| p > 0.0), "{priors:?}");
    }
}

#[test]
fn train_policy_labels_once_and_writes_a_policy_the_engine_loads() {
    let dir = scratch::dir("train-policy");
    let out = dir.join("p.policy");
    let sample = data("wdl-sample.bin");
    let run = || {
        let args = [
            "train-policy",
            sample.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--positions",
            "60",
            "--depth",
            "2",
            "--epochs",
            "3",
            "--validation",
            "0.5",
        ];
        let o = engine::run(&args, "");
        let (stdout, stderr) = (
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        );
        assert!(o.status.success(), "{stdout}\n{stderr}");
        (stdout, stderr)
    };
    let (first, progress) = run();
    assert!(progress.contains("60 to search at depth 2"), "{progress}");
    assert!(progress.contains("labelled 60 / 60 (100.0%)"), "{progress}");
    assert!(first.contains("held out, heuristic:"), "{first}");
    assert!(first.contains("held out, policy:"), "{first}");
    let labelled = labels::read(dir.join("p.policy.labels")).unwrap();
    assert_eq!(labelled.len(), 60);
    let policy = Policy::load(&out).unwrap();
    // Again: nothing to search, the same fit.
    let (second, progress) = run();
    assert!(progress.contains("60 labelled in"), "{progress}");
    assert!(progress.contains("0 to search"), "{progress}");
    let report = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("held out") || l.starts_with("training"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(report(&second), report(&first));
    assert_eq!(Policy::load(&out).unwrap(), policy);

    let mut e = Engine::spawn();
    e.send(&format!(
        "setoption name PolicyFile value {}",
        out.display()
    ));
    e.until(PATIENCE, |l| l.contains("features"));
    e.send("setoption name Search value mcts");
    e.send("position startpos");
    e.send("go nodes 2000");
    assert!(!e.answer(PATIENCE).best.is_empty());
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn policy_file_refuses_a_bad_file_and_the_engine_searches_on() {
    let dir = scratch::dir("policy-file");
    let bad = dir.join("bad.policy");
    let mut bytes = Policy::embedded().to_bytes();
    bytes.truncate(100);
    std::fs::write(&bad, &bytes).unwrap();
    let mut e = Engine::spawn();
    e.send(&format!(
        "setoption name PolicyFile value {}",
        bad.display()
    ));
    let (_, line) = e.until(PATIENCE, |l| l.contains("error:"));
    assert!(
        line.contains("bad.policy")
            && line.contains("header promises")
            && line.contains("policy unchanged"),
        "{line}"
    );
    e.send("setoption name PolicyFile value /no/such.policy");
    let (_, line) = e.until(PATIENCE, |l| l.contains("error:"));
    assert!(
        line.contains("policy file '/no/such.policy': cannot read"),
        "{line}"
    );
    for search in ["mcts", "pvs"] {
        e.send(&format!("setoption name Search value {search}"));
        e.send("position startpos");
        e.send("go nodes 3000");
        assert!(!e.answer(Duration::from_secs(60)).best.is_empty());
    }
    e.send("setoption name mcts_policy value false");
    e.send("setoption name Search value mcts");
    e.send("go nodes 3000");
    assert!(!e.answer(PATIENCE).best.is_empty());
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}
