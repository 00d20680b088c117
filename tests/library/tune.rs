//! The tuner (`lab::tune`): its linear model against `evaluate`, `K`'s and
//! the weights' recovery from synthetic targets over the 300 reference
//! positions, and the command's output and errors.

use crate::common::scratch;
use clap::Parser;
use leiserchess::declaration;
use leiserchess::eval::logistic::logistic;
use leiserchess::eval::{evaluate, Weights, WEIGHTS};
use leiserchess::lab::data;
use leiserchess::lab::tune::{
    bounds, command, defaults, fit, fit_k, held_out, Args, Config, Point, N,
};
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::piece::Color;
use std::path::Path;

/// The 300 reference positions (`perft/data/positions.txt`).
fn reference_boards() -> Vec<Board> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/data/positions.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let boards: Vec<Board> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| fen::parse(l.split('|').next().unwrap().trim()).unwrap())
        .collect();
    assert_eq!(boards.len(), 300);
    boards
}

/// Points for the reference positions with targets from weights `w`
/// at scale `k`.
fn synthetic(w: &[f64; N], k: f64) -> Vec<Point> {
    let mut points: Vec<Point> = reference_boards()
        .iter()
        .map(|b| Point::new(b, 0.0))
        .collect();
    for p in &mut points {
        p.target = logistic(k * p.model(w));
    }
    points
}

/// `w` as the evaluation's weights (rounded).
fn weights_of(w: &[f64; N]) -> Weights {
    declaration::apply(Weights::default(), WEIGHTS, |s| {
        let i = WEIGHTS.iter().position(|x| x.name == s.name).unwrap();
        w[i].round() as i64
    })
}

#[test]
fn the_linear_model_matches_evaluate() {
    let other = [-3000.0, 900.0, 100.0, 7000.0, 9000.0, 1500.0, -800.0, 600.0];
    for w in [defaults(), other] {
        for b in reference_boards() {
            let model = Point::new(&b, 0.0).model(&w);
            let exact = evaluate(&b, &weights_of(&w)).score_cp();
            assert!(
                (model - exact as f64).abs() < 2.0,
                "{}: model {model}, evaluate {exact}",
                fen::to_fen(&b)
            );
        }
    }
}

#[test]
fn k_fitting_recovers_a_known_k() {
    for k in [0.002, 0.0061, 0.03] {
        let points = synthetic(&defaults(), k);
        let got = fit_k(&points, &defaults());
        assert!((got / k - 1.0).abs() < 1e-3, "K {k}: fitted {got}");
    }
}

/// Where the recovery tests start: EVAL.md's weights and 0 for ours, not
/// the defaults, which move with every accepted fit.
const START: [f64; N] = [500.0, 250.0, 5000.0, 26000.0, 1600.0, 0.0, 0.0, 0.0];

#[test]
fn the_tuner_recovers_known_weights() {
    let truth = [
        900.0, -200.0, 3500.0, 20000.0, 2600.0, 1800.0, 1200.0, 400.0,
    ];
    let k = 0.006;
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, p) in synthetic(&truth, k).into_iter().enumerate() {
        let set = if held_out(i, 7, 0.2) {
            &mut valid
        } else {
            &mut train
        };
        set.push(p);
    }
    assert!(valid.len() > 30 && train.len() > 200);
    let config = Config {
        epochs: 80,
        rate: 200.0,
        batch: 16,
        seed: 3,
    };
    let mut epochs = Vec::new();
    let w = fit(&train, &valid, k, START, &bounds(), &config, |e| {
        epochs.push(*e)
    });
    // Within 0.1% (or 1 unit): thousands of units from where the fit
    // started, with features as entangled as the King's ring terms are
    // on 240 positions.
    for (got, want) in w.iter().zip(truth) {
        let tolerance = (want.abs() * 1e-3).max(1.0);
        assert!(
            (got - want).abs() < tolerance,
            "fitted {w:?}, true {truth:?}"
        );
    }
    assert_eq!(epochs.len(), config.epochs + 1);
    // Down epoch after epoch to a hundredth of the start, where Adam's
    // steps start to jitter, and below a millionth of it at the end.
    let floor = epochs[0].train * 1e-2;
    assert!(epochs[config.epochs].train < epochs[0].train * 1e-6);
    for e in epochs.windows(2) {
        assert!(
            e[1].train < e[0].train.max(floor) && e[1].valid < e[0].valid.max(floor),
            "loss up at epoch {}: {:?}",
            e[1].epoch,
            e
        );
    }
    // The same seed, the same run.
    let again = fit(&train, &valid, k, START, &bounds(), &config, |_| ());
    assert_eq!(again, w);
}

#[test]
fn weights_stay_in_their_ranges() {
    // True weights past kface's and lcoverage's floors of 0.
    let truth = [500.0, 250.0, -4000.0, 26000.0, -3000.0, 0.0, 0.0, 0.0];
    let points = synthetic(&truth, 0.006);
    let config = Config {
        epochs: 20,
        rate: 200.0,
        batch: 16,
        seed: 1,
    };
    let w = fit(&points, &[], 0.006, START, &bounds(), &config, |e| {
        assert!(e.valid.is_nan())
    });
    assert_eq!((w[2], w[4]), (0.0, 0.0), "{w:?}");
}

#[test]
fn the_split_is_a_seeded_fraction() {
    let count = |seed| (0..10_000).filter(|&i| held_out(i, seed, 0.25)).count();
    assert!((2300..2700).contains(&count(1)), "{}", count(1));
    assert_eq!(count(1), count(1));
    let differ = (0..100).any(|i| held_out(i, 1, 0.5) != held_out(i, 2, 0.5));
    assert!(differ, "seeds 1 and 2 split alike");
    assert!((0..1000).all(|i| !held_out(i, 1, 0.0)));
}

/// The file `name` in `dir`, holding `bytes`.
fn file_in(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// Records of the reference positions that fit one (16 pieces at most),
/// scored by the default evaluation, the results drawn from its odds.
fn records() -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut bytes = Vec::new();
    for board in reference_boards() {
        let score = evaluate(&board, &Weights::default()).score_cp();
        let white = match board.side() {
            Color::White => score,
            Color::Black => -score,
        };
        let (win, r) = (logistic(0.006 * f64::from(white)), rng.f64());
        let outcome = if r < win {
            data::Outcome::WhiteWins
        } else if r < win + 0.1 {
            data::Outcome::Draw
        } else {
            data::Outcome::BlackWins
        };
        let sample = data::Sample {
            board,
            score: score as i16,
            outcome,
        };
        bytes.extend(data::encode(&sample).into_iter().flatten());
    }
    assert!(bytes.len() > 100 * data::RECORD);
    bytes
}

/// `tune`'s command line `args`, parsed (clap's message if refused) and run.
fn run(args: &[&str]) -> Result<(), String> {
    let words = std::iter::once("tune").chain(args.iter().copied());
    command(&Args::try_parse_from(words).map_err(|e| e.to_string())?)
}

#[test]
fn a_run_writes_one_line_a_weight() {
    let dir = scratch::dir("tune-run");
    let file = file_in(&dir, "run.bin", &records());
    // An older, longer file is replaced whole.
    let out = file_in(&dir, "run.txt", &[b'x'; 1000]);
    run(&[&file, "--epochs", "2", "--lambda", "0.5", "--out", &out]).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let names: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(names, WEIGHTS.iter().map(|s| s.name).collect::<Vec<_>>());
    for l in text.lines() {
        l.split(' ').nth(1).unwrap().parse::<i64>().unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_and_data_are_named() {
    let records = records();
    let fails = |args: &[&str], want: &str| {
        let e = run(args).unwrap_err();
        assert!(e.contains(want), "{args:?}: {e}");
    };
    fails(&[], "<DATA>...");
    fails(&["x.bin", "--epochs", "0"], "'0' for '--epochs <N>'");
    fails(&["x.bin", "--lambda", "1.5"], "'1.5' for '--lambda <L>'");
    fails(
        &["x.bin", "--validation", "1"],
        "'1' for '--validation <F>'",
    );
    fails(&["x.bin", "--rate", "-2"], "'-2' for '--rate <R>'");
    fails(&["x.bin", "--seed", "s"], "'s' for '--seed <S>'");
    fails(&["x.bin", "--seed"], "a value is required for '--seed <S>'");
    fails(&["x.bin", "--bogus", "3"], "unexpected argument '--bogus'");
    fails(&["/nonexistent/x.bin"], "/nonexistent/x.bin");
    fails(
        &["x.bin", "--out", "/nonexistent/w.txt"],
        "--out /nonexistent/w.txt",
    );
    let dir = scratch::dir("tune-bad");
    let empty = file_in(&dir, "empty.bin", b"");
    let kept = file_in(&dir, "kept.txt", b"pcentral 1\n");
    fails(&[&empty, "--out", &kept], "no positions in");
    assert_eq!(std::fs::read(&kept).unwrap(), b"pcentral 1\n");
    let cut = file_in(&dir, "cut.bin", &records[..2 * data::RECORD + 7]);
    fails(&[&cut], &format!("{cut}: the data ends 7 bytes"));
    let mut bad = records[..3 * data::RECORD].to_vec();
    bad[2 * data::RECORD + 18] = 9;
    let bad = file_in(&dir, "bad.bin", &bad);
    fails(&[&bad], &format!("{bad}: record 2: result byte 9"));
    std::fs::remove_dir_all(&dir).unwrap();
}
