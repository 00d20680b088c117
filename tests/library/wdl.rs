//! The win/draw/loss model (`eval::wdl`) and its fit (`lab::wdl`): the per
//! mille triple's sum, order and symmetry over every score the search
//! gives, mates decided; the fit's recovery of known constants from data
//! drawn from the model; the command on the committed sample
//! (`tests/data/wdl-sample.bin`) and its errors, each naming the file.

use crate::common::scratch;
use clap::Parser;
use leiserchess::eval::wdl::{wdl, win_probability, Model, MODEL};
use leiserchess::lab::data::{self, RECORD};
use leiserchess::lab::wdl::{command, fit, log_loss, phase, Args, Point};
use leiserchess::search::{MATE, MATE_BOUND};

/// Every score the search gives (±`MATE` and its ±1 infinity), and more.
const RANGE: std::ops::RangeInclusive<i32> = -(MATE + 1000)..=MATE + 1000;

/// The fitted model and corner cases: a wide draw band, one below f64's
/// resolution, a very gradual one.
fn models() -> [Model; 4] {
    [
        MODEL,
        Model::new(200.0, 60.0),
        Model::new(1e-20, 100.0),
        Model::new(0.3, 2000.0),
    ]
}

#[test]
fn per_mille_sums_to_1000_rises_with_the_score_and_mirrors() {
    for m in models() {
        let mut last = m.per_mille(*RANGE.start() - 1);
        for s in RANGE {
            let t @ [w, d, l] = m.per_mille(s);
            assert_eq!(
                u32::from(w) + u32::from(d) + u32::from(l),
                1000,
                "{m:?} {s}"
            );
            assert!(
                w >= last[0] && l <= last[2],
                "{m:?} {s}: {last:?} then {t:?}"
            );
            assert_eq!(m.per_mille(-s), [l, d, w], "{m:?} {s}");
            last = t;
        }
        for s in [i32::MIN, i32::MIN + 1, i32::MAX] {
            assert_eq!(m.per_mille(s).iter().sum::<u16>(), 1000, "{m:?} {s}");
        }
    }
    assert_eq!(wdl(i32::MAX), [1000, 0, 0]);
    assert_eq!(wdl(i32::MIN), [0, 0, 1000]);
}

#[test]
fn mates_are_decided() {
    for s in MATE_BOUND..=MATE + 1 {
        assert_eq!(wdl(s), [1000, 0, 0], "{s}");
        assert_eq!(wdl(-s), [0, 0, 1000], "{s}");
        assert!(win_probability(s) > 0.999_999 && win_probability(-s) < 1e-6);
    }
}

#[test]
fn win_probability_is_the_expected_result() {
    assert_eq!(win_probability(0), 0.5);
    let mut last = 0.0;
    for s in -3000..=3000 {
        let p = win_probability(s);
        assert!(p >= last, "{s}");
        assert!((p + win_probability(-s) - 1.0).abs() < 1e-12, "{s}");
        let [w, d, _] = MODEL.probabilities(f64::from(s));
        assert!((p - (w + d / 2.0)).abs() < 1e-12, "{s}");
        last = p;
    }
}

/// `n` positions with `pieces` pieces, scores around 0 (a triangle ±800
/// cp wide) and results drawn from `m`, seeded.
fn synthetic(m: &Model, n: usize, pieces: u32, seed: u64) -> Vec<Point> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| {
            let score = f64::from(rng.i32(-400..=400) + rng.i32(-400..=400));
            let [w, _, l] = m.probabilities(score);
            let r = rng.f64();
            let result = if r < w {
                0
            } else if r < w + l {
                2
            } else {
                1
            };
            Point {
                score,
                result,
                pieces,
            }
        })
        .collect()
}

#[test]
fn the_fit_recovers_known_constants() {
    // 100,000 positions: over eight seeds a and b came within 1.5% and
    // 0.7% (a standard error); 5% is three or more of them.
    for (a, b) in [(25.0, 135.0), (80.0, 100.0)] {
        let truth = Model::new(a, b);
        let points = synthetic(&truth, 100_000, 16, 7);
        let f = fit(&points).unwrap();
        let (fa, fb) = (f.model.a(), f.model.b());
        assert!((fa / a - 1.0).abs() < 0.05, "a {a}: fitted {fa}");
        assert!((fb / b - 1.0).abs() < 0.05, "b {b}: fitted {fb}");
        assert_eq!(f.counts.iter().sum::<usize>(), points.len());
        // The maximum: no worse than the truth, beaten by no neighbour.
        assert!(f.log_loss <= log_loss(&points, &truth) + 1e-12);
        assert!((f.log_loss - log_loss(&points, &f.model)).abs() < 1e-12);
        for (da, db) in [(1.01, 1.0), (0.99, 1.0), (1.0, 1.01), (1.0, 0.99)] {
            let near = Model::new(fa * da, fb * db);
            assert!(f.log_loss < log_loss(&points, &near), "{da} {db}");
        }
        assert!(f.log_loss < f.baseline);
    }
}

#[test]
fn a_phase_that_changes_the_model_shows_on_held_out_positions() {
    let (early, late) = (Model::new(10.0, 80.0), Model::new(60.0, 150.0));
    let mut points = synthetic(&early, 20_000, 16, 1);
    points.extend(synthetic(&late, 20_000, 10, 2));
    let p = phase(&points);
    let counts: Vec<u32> = p.groups.iter().map(|(n, _)| *n).collect();
    assert_eq!(counts, [10, 16]);
    for ((_, f), truth) in p.groups.iter().zip([late, early]) {
        assert!((f.model.b() / truth.b() - 1.0).abs() < 0.1, "{f:?}");
    }
    let [one, each] = p.held_out.unwrap();
    assert!(each < one - 0.01, "{one} {each}");
    // One model whatever the phase: fits per count gain nothing.
    let mut same = synthetic(&early, 20_000, 16, 3);
    same.extend(synthetic(&early, 20_000, 10, 4));
    let [one, each] = phase(&same).held_out.unwrap();
    assert!(each > one - 0.001, "{one} {each}");
    // Under two stretches: no fold to hold out.
    assert_eq!(phase(&same[..4000]).held_out, None);
}

fn sample() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wdl-sample.bin").to_string()
}

#[test]
fn the_sample_fits_near_the_engine_s_constants() {
    let points: Vec<Point> = data::read(sample())
        .unwrap()
        .iter()
        .map(Point::of)
        .collect();
    assert!(points.len() >= 2000);
    let f = fit(&points).unwrap();
    assert!(f.counts.iter().all(|&k| k > 0), "{:?}", f.counts);
    assert!(f.log_loss < f.baseline);
    // A fiftieth of the data MODEL was fitted to: near it, not equal.
    assert!((f.model.b() / MODEL.b() - 1.0).abs() < 0.1, "{f:?}");
    assert!((f.model.a() - MODEL.a()).abs() < 10.0, "{f:?}");
}

/// `wdl`'s command line `args`, parsed and run.
fn run(args: &[String]) -> Result<(), String> {
    let words = std::iter::once("wdl").chain(args.iter().map(String::as_str));
    command(&Args::try_parse_from(words).map_err(|e| e.to_string())?)
}

#[test]
fn the_command_reads_the_sample_and_draws_it() {
    let dir = scratch::dir("wdl-draw");
    let svg = dir.join("wdl.svg");
    let args = [sample(), "--out-svg".into(), svg.display().to_string()];
    run(&args).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.ends_with("</svg>\n"));
    // The three curves: lines of 201 points (the axes' and the legend's
    // have two).
    let curves = text
        .lines()
        .filter(|l| l.starts_with("<polyline") && l.matches(',').count() > 100);
    assert_eq!(curves.count(), 3, "{text}");
    assert!(text.matches("<circle").count() >= 3 * 10, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_files_are_named() {
    let dir = scratch::dir("wdl-bad");
    let path = |name: &str| dir.join(name).display().to_string();
    let record = std::fs::read(sample()).unwrap()[..RECORD].to_vec();
    let mut bad_result = record.clone();
    bad_result[18] = 7;
    let mut torn = record.clone();
    torn.push(0);
    for (name, bytes, what) in [
        ("result.bin", bad_result, "record 0: result byte 7"),
        ("torn.bin", torn, "ends 1 bytes into a record"),
        ("empty.bin", Vec::new(), "no positions in"),
    ] {
        std::fs::write(path(name), bytes).unwrap();
        let e = run(&[path(name)]).unwrap_err();
        assert!(e.contains(&path(name)) && e.contains(what), "{e}");
    }
    let missing = path("missing.bin");
    let e = run(std::slice::from_ref(&missing)).unwrap_err();
    assert!(e.starts_with(&format!("{missing}: ")), "{e}");
    // One result only: the file is named with the fit's complaint.
    std::fs::write(path("wins.bin"), record.repeat(10)).unwrap();
    let e = run(&[path("wins.bin")]).unwrap_err();
    assert!(e.contains(&path("wins.bin")) && e.contains("needs wins, draws and losses"));
    // A failed run leaves the chart it would have replaced as it was.
    std::fs::write(path("old.svg"), "old").unwrap();
    let args = [missing, "--out-svg".into(), path("old.svg")];
    assert!(run(&args).is_err());
    assert_eq!(std::fs::read_to_string(path("old.svg")).unwrap(), "old");
    let args = [sample(), "--out-svg".into(), path("no/such/dir.svg")];
    let e = run(&args).unwrap_err();
    assert!(e.starts_with(&format!("--out-svg {}: ", path("no/such/dir.svg"))));
    std::fs::remove_dir_all(&dir).unwrap();
}
