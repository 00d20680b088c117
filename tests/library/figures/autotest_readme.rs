//! autotest/README.md's sample of `autotest bench-record`: each measure's
//! signature is the engine's (the bench signatures in `bench/`, perft's
//! leaves from the fourth bench position, evalbench's checksum), its
//! round time is the sample's, and the commit it was measured at is in
//! the history.

use leiserchess::eval::bench as evalbench;
use leiserchess::eval::Weights;
use leiserchess::search::bench::POSITIONS;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

const DOC: &str = "autotest/README.md";

/// The sample's rows: measure → (seconds, signature).
fn sample(text: &str) -> BTreeMap<String, (f64, u64)> {
    let start = text
        .find("| measure | rounds | median |")
        .unwrap_or_else(|| panic!("{DOC}: no bench-record sample"));
    text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let number = |i: usize| -> f64 {
                cells[i]
                    .parse()
                    .unwrap_or_else(|e| panic!("{DOC}: {l}: cell {i}: {e}"))
            };
            (cells[1].to_string(), (number(5), number(6) as u64))
        })
        .collect()
}

/// `leiserchess perft 5` from the fourth bench position: its leaves.
fn perft_leaves() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(["perft", "5", "--fen", POSITIONS[3]])
        .output()
        .expect("run the engine");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("");
    line.strip_prefix("perft 5 ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("leiserchess perft 5: {text}"))
}

#[test]
fn bench_record_sample_signatures_are_the_engines() {
    let text = super::read(DOC);
    let rows = sample(&text);
    let signature = |m: &str| rows.get(m).unwrap_or_else(|| panic!("{DOC}: no {m} row")).1;
    assert_eq!(
        signature("bench-pvs"),
        super::signature("signature-pvs.txt"),
        "bench-pvs"
    );
    assert_eq!(
        signature("bench-mcts"),
        super::signature("signature-mcts.txt"),
        "bench-mcts"
    );
    assert_eq!(signature("perft"), perft_leaves(), "perft");
    let positions = evalbench::parse_positions(evalbench::DEFAULT_POSITIONS).unwrap();
    let checksum = evalbench::run(&positions, &Weights::default(), Duration::ZERO).checksum;
    assert_eq!(signature("evalbench") as i64, checksum, "evalbench");
}

#[test]
fn bench_record_round_time_is_the_samples_and_its_commit_is_in_the_history() {
    let text = super::read(DOC);
    let round: f64 = sample(&text).values().map(|(seconds, _)| seconds).sum();
    const SAYS: &str = "A record takes about ";
    let at = text
        .find(SAYS)
        .unwrap_or_else(|| panic!("{DOC}: no {SAYS:?}"));
    let said: f64 = text[at + SAYS.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{DOC}: {SAYS:?} without a number"));
    assert!(
        (said - round).abs() <= round * 0.2,
        "{DOC} says about {said} s a round; its sample's measures take {round:.1} s"
    );
    const MEASURED: &str = "measured at ";
    let at = text
        .find(MEASURED)
        .unwrap_or_else(|| panic!("{DOC}: the sample's commit"));
    let commit = text[at + MEASURED.len()..]
        .split(|c: char| !c.is_ascii_hexdigit())
        .next()
        .unwrap();
    super::benchmarks_md::assert_in_history(&[commit.to_string()], DOC);
}
