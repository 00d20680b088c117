//! `leiserchess wdl`: fits the win/draw/loss model of [`crate::eval::wdl`]
//! to self-play data (the records of `data`: each position's search score
//! and its game's result) by maximum likelihood over the three outcomes,
//! and draws the data against the fit (`plot`).
//!
//! With `u = a / b` and `v = 1 / b` the model is an ordered logit: the side
//! to move wins when `v s − u` beats a logistic draw, loses when `−v s − u`
//! does. Its log-likelihood is concave in `(u, v)`, so Newton's method with
//! step halving finds the one maximum in a handful of steps from anywhere.

pub mod plot;

use super::data::{self, Sample};
use super::Output;
use crate::eval::logistic::logistic;
use crate::eval::wdl::Model;
use clap::value_parser;
use std::path::PathBuf;

/// A position as the fit sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The search's score, cp, side to move's view.
    pub score: f64,
    /// The game's result for the side to move: 0 win, 1 draw, 2 loss (the
    /// order of [`crate::eval::wdl::wdl`]'s triple).
    pub result: usize,
    /// Pieces on the board, Kings included: the game's phase.
    pub pieces: u32,
}

impl Point {
    /// Sample `s` as the fit sees it.
    pub fn of(s: &Sample) -> Point {
        // The result as a score, 1, ½ or 0, to 0, 1 or 2.
        let me = s.outcome.score_for(s.board.side());
        Point {
            score: f64::from(s.score),
            result: (2.0 * (1.0 - me)) as usize,
            pieces: s.board.occupied().count_ones(),
        }
    }
}

/// A fit and how good it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlFit {
    pub model: Model,
    /// The mean of `−ln P(result)` over the positions, nats.
    pub log_loss: f64,
    /// The same for the result frequencies alone, whatever the score.
    pub baseline: f64,
    /// Positions per result: wins, draws, losses.
    pub counts: [usize; 3],
    /// Newton steps taken.
    pub steps: usize,
}

/// Newton steps before a fit gives up.
const MAX_STEPS: usize = 100;

/// `ln σ(x)` without overflow at either end.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// The log-likelihood of `points` at `(u, v)`, with its gradient and
/// Hessian.
fn likelihood(points: &[Point], u: f64, v: f64) -> (f64, [f64; 2], [[f64; 2]; 2]) {
    let (mut ll, mut g, mut h) = (0.0, [0.0; 2], [[0.0; 2]; 2]);
    // Adds a term `value` whose argument, linear in (u, v), has gradient
    // `dx`, and whose first and negated second derivatives in that
    // argument are `slope` and `curve`.
    let mut add = |value: f64, slope: f64, curve: f64, dx: [f64; 2]| {
        ll += value;
        for i in 0..2 {
            g[i] += slope * dx[i];
            for j in 0..2 {
                h[i][j] -= curve * dx[i] * dx[j];
            }
        }
    };
    // The draw's `ln(1 − e^(−2u))`, the same for every draw.
    let band = (-(-2.0 * u).exp_m1()).ln();
    let c = 2.0 / (2.0 * u).exp_m1();
    for p in points {
        let s = p.score;
        // win = σ(x), loss = σ(y).
        let (x, y) = (v * s - u, -v * s - u);
        let (dx, dy) = ([-1.0, s], [-1.0, -s]);
        let (pw, pl) = (logistic(x), logistic(y));
        match p.result {
            0 => add(ln_sigmoid(x), 1.0 - pw, pw * (1.0 - pw), dx),
            2 => add(ln_sigmoid(y), 1.0 - pl, pl * (1.0 - pl), dy),
            _ => {
                // draw = σ(−x) σ(−y) (1 − e^(−2u)): no cancellation where
                // the draw is unlikely.
                add(ln_sigmoid(-x), -pw, pw * (1.0 - pw), dx);
                add(ln_sigmoid(-y), -pl, pl * (1.0 - pl), dy);
                add(band, c, c * (c + 2.0), [1.0, 0.0]);
            }
        }
    }
    (ll, g, h)
}

/// The maximum-likelihood model for `points`; an error if they lack a
/// result (no draws: no draw band to fit), or if Newton's method does not
/// settle (which a concave likelihood should not allow).
pub fn fit(points: &[Point]) -> Result<WdlFit, String> {
    let mut counts = [0usize; 3];
    for p in points {
        counts[p.result] += 1;
    }
    let n = points.len() as f64;
    if counts.contains(&0) {
        return Err(format!(
            "the fit needs wins, draws and losses; the data has {} wins, {} draws, {} losses",
            counts[0], counts[1], counts[2]
        ));
    }
    // Start from the score ignored (v ≈ 0), where the draw's share gives
    // u, and a slope of one over the typical score.
    let decisive = (counts[0] + counts[2]) as f64;
    let mut u = (2.0 * n / decisive - 1.0).ln();
    let mean_abs = points.iter().map(|p| p.score.abs()).sum::<f64>() / n;
    let mut v = 1.0 / (mean_abs + 1.0);
    let (mut ll, mut g, mut h) = likelihood(points, u, v);
    let mut steps = 0;
    loop {
        let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
        let du = -(h[1][1] * g[0] - h[0][1] * g[1]) / det;
        let dv = -(h[0][0] * g[1] - h[1][0] * g[0]) / det;
        // Newton's decrement, twice the gain it expects: done when that
        // is down at f64's resolution of the sum.
        if g[0] * du + g[1] * dv <= 1e-12 * n {
            break;
        }
        if steps == MAX_STEPS {
            return Err(format!(
                "the fit did not settle in {MAX_STEPS} Newton steps (at a {:.3e}, b {:.3e})",
                u / v,
                1.0 / v
            ));
        }
        steps += 1;
        let mut t = 1.0;
        let better = loop {
            let (u2, v2) = (u + t * du, v + t * dv);
            if u2 > 0.0 && v2 > 0.0 && (u2 / v2).is_finite() && (1.0 / v2).is_finite() {
                let next = likelihood(points, u2, v2);
                if next.0 >= ll {
                    break Some((u2, v2, next));
                }
            }
            t /= 2.0;
            if t < 1e-12 {
                break None;
            }
        };
        // No step gains: the maximum, as far as f64 can tell.
        let Some((u2, v2, next)) = better else { break };
        (u, v, (ll, g, h)) = (u2, v2, next);
    }
    let baseline = -counts
        .iter()
        .map(|&k| k as f64 * (k as f64 / n).ln())
        .sum::<f64>()
        / n;
    Ok(WdlFit {
        model: Model::new(u / v, 1.0 / v),
        log_loss: -ll / n,
        baseline,
        counts,
        steps,
    })
}

/// Whether the game's phase changes the model: a fit per piece count.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// Per piece count with at least [`MIN_GROUP`] positions, its fit.
    pub groups: Vec<(u32, WdlFit)>,
    /// The held-out log-loss of one fit for all and of a fit per piece
    /// count, over two folds of alternate [`FOLD_BLOCK`]-position
    /// stretches; `None` if neither fold could be fitted (too few
    /// positions).
    pub held_out: Option<[f64; 2]>,
}

/// Positions a piece count needs for a fit of its own.
pub const MIN_GROUP: usize = 1000;

/// A file holds its games one after another and a game's positions share
/// its result, so the folds are whole stretches of games (a game straddles
/// a stretch's edge only now and then), as `train` holds out.
pub const FOLD_BLOCK: usize = 4096;

/// The fit of each piece count of `points` with at least [`MIN_GROUP`]
/// positions and every result, lowest first.
fn per_pieces(points: &[Point]) -> Vec<(u32, WdlFit)> {
    let mut by_count = std::collections::BTreeMap::<u32, Vec<Point>>::new();
    for p in points {
        by_count.entry(p.pieces).or_default().push(*p);
    }
    by_count
        .into_iter()
        .filter(|(_, group)| group.len() >= MIN_GROUP)
        .filter_map(|(n, group)| Some((n, fit(&group).ok()?)))
        .collect()
}

/// `points` fitted per piece count, and whether that predicts held-out
/// positions better than one fit: with thousands of positions a game
/// sharing one result, a fit in-sample flatters itself.
pub fn phase(points: &[Point]) -> Phase {
    let (mut one, mut each, mut n) = (0.0, 0.0, 0);
    for fold in 0..2 {
        let (mut train, mut test) = (Vec::new(), Vec::new());
        for (i, p) in points.iter().enumerate() {
            if (i / FOLD_BLOCK) % 2 == fold {
                test.push(*p);
            } else {
                train.push(*p);
            }
        }
        let Ok(single) = fit(&train) else { continue };
        let groups = per_pieces(&train);
        for p in &test {
            let by_count = groups.iter().find(|(k, _)| *k == p.pieces);
            let model = by_count.map_or(&single.model, |(_, f)| &f.model);
            one -= single.model.probabilities(p.score)[p.result].ln();
            each -= model.probabilities(p.score)[p.result].ln();
            n += 1;
        }
    }
    Phase {
        groups: per_pieces(points),
        held_out: (n > 0).then(|| [one / n as f64, each / n as f64]),
    }
}

/// The mean `−ln P(result)` of `points` under `model`.
pub fn log_loss(points: &[Point], model: &Model) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|p| -model.probabilities(p.score)[p.result].ln())
        .sum();
    sum / points.len() as f64
}

/// Fit the win/draw/loss model (src/eval/wdl.rs) to self-play data.
///
/// A maximum-likelihood fit: prints the positions per result, the
/// constants a and b, the fit's log-loss beside that of the result
/// frequencies alone, and a fit per piece count with its held-out
/// log-loss.
#[derive(clap::Parser, Debug, PartialEq)]
#[command(name = "wdl")]
pub struct Args {
    /// Self-play data files (`datagen`'s).
    #[arg(value_name = "DATA", required = true)]
    pub files: Vec<PathBuf>,
    /// Draw the results per score bucket against the fitted curves to
    /// this SVG file.
    #[arg(long, value_name = "FILE")]
    pub out_svg: Option<PathBuf>,
    /// The chart's bucket width, cp, 1..10000.
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 25,
        value_parser = value_parser!(u32).range(1..=10_000),
        allow_negative_numbers = true,
    )]
    pub bucket: u32,
}

/// `leiserchess wdl` (see [`Args`]).
pub fn command(a: &Args) -> Result<(), String> {
    let mut svg = a
        .out_svg
        .as_deref()
        .map(|path| Output::open("--out-svg", path))
        .transpose()?;
    let mut points = Vec::new();
    for file in &a.files {
        let samples = data::read(file)?;
        eprintln!("{}: {} positions", file.display(), samples.len());
        points.extend(samples.iter().map(Point::of));
    }
    let names = super::names(&a.files);
    if points.is_empty() {
        return Err(format!("no positions in {names}"));
    }
    let f = fit(&points).map_err(|e| format!("{names}: {e}"))?;
    let [w, d, l] = f.counts;
    let share = |k: usize| 100.0 * k as f64 / points.len() as f64;
    println!(
        "{} positions: {w} wins, {d} draws, {l} losses for the side to move \
         ({:.1}% / {:.1}% / {:.1}%)",
        points.len(),
        share(w),
        share(d),
        share(l)
    );
    let (ma, mb) = (f.model.a(), f.model.b());
    println!("a {ma:.1} cp, b {mb:.1} cp ({} Newton steps)", f.steps);
    println!(
        "log-loss {:.5} nats a position; the result frequencies alone: {:.5}",
        f.log_loss, f.baseline
    );
    let phase = phase(&points);
    println!("by pieces on the board, each count fitted on its own:");
    if phase.groups.is_empty() {
        println!("  no piece count has {MIN_GROUP} positions");
    }
    for (pieces, g) in &phase.groups {
        let [gw, gd, gl] = g.counts;
        println!(
            "  {pieces:2} pieces: a {:6.1} b {:6.1}  ({gw} / {gd} / {gl})",
            g.model.a(),
            g.model.b(),
        );
    }
    match phase.held_out {
        Some([one, each]) => println!(
            "  held out (two folds of alternate {FOLD_BLOCK}-position stretches): \
             log-loss {one:.5} one fit, {each:.5} a fit per piece count"
        ),
        None => println!("  held out: too few positions for two folds of {FOLD_BLOCK}"),
    }
    println!("for src/eval/wdl.rs: pub const MODEL: Model = Model::new({ma:.1}, {mb:.1});");
    if let Some(out) = &mut svg {
        let title = format!(
            "WDL model: a {ma:.1} cp, b {mb:.1} cp; {} positions, W/D/L {:.1}/{:.1}/{:.1}%",
            points.len(),
            share(w),
            share(d),
            share(l)
        );
        let chart = plot::svg(
            &f.model,
            &plot::buckets(&points, f64::from(a.bucket)),
            &title,
        )?;
        out.replace(chart.as_bytes())?;
        println!("wrote {}", out.path().display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::data::Outcome;
    use crate::rules::fen;
    use clap::Parser;

    fn parse(s: &str) -> Result<Args, String> {
        Args::try_parse_from(std::iter::once("wdl").chain(s.split_whitespace()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn flags_parse_and_bad_ones_are_named() {
        let a = parse("a.bin b.bin --out-svg w.svg --bucket 50").unwrap();
        assert_eq!(
            a,
            Args {
                files: vec!["a.bin".into(), "b.bin".into()],
                out_svg: Some("w.svg".into()),
                bucket: 50
            }
        );
        for (line, named) in [
            ("", "<DATA>..."),
            ("a.bin --bucket 0", "'0' for '--bucket <CP>'"),
            ("a.bin --out-svg", "'--out-svg <FILE>'"),
            ("a.bin --nope 1", "'--nope'"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(named), "{line}: {e}");
        }
    }

    #[test]
    fn results_turn_to_the_side_to_move() {
        let point = |text: &str, outcome| {
            Point::of(&Sample {
                board: fen::parse(text).unwrap(),
                score: -40,
                outcome,
            })
        };
        let black = "8/8/8/8/8/8/8/nn6NN B";
        assert_eq!(point(black, Outcome::BlackWins).result, 0);
        assert_eq!(point(black, Outcome::WhiteWins).result, 2);
        assert_eq!(point(fen::STARTPOS, Outcome::WhiteWins).result, 0);
        assert_eq!(point(fen::STARTPOS, Outcome::Draw).result, 1);
        let p = point(black, Outcome::Draw);
        assert_eq!((p.score, p.pieces), (-40.0, 2));
    }

    #[test]
    fn the_derivatives_are_the_likelihoods() {
        let points: Vec<Point> = [(-300.0, 2), (-50.0, 1), (20.0, 0), (90.0, 1), (400.0, 0)]
            .iter()
            .map(|&(score, result)| Point {
                score,
                result,
                pieces: 16,
            })
            .collect();
        let (u, v) = (0.7, 0.006);
        let (ll, g, h) = likelihood(&points, u, v);
        let model = Model::new(u / v, 1.0 / v);
        assert!((ll + log_loss(&points, &model) * 5.0).abs() < 1e-12);
        // Central differences of the value and the gradient.
        let step = [1e-6, 1e-9];
        for i in 0..2 {
            let at = |sign: f64| {
                let mut x = [u, v];
                x[i] += sign * step[i];
                likelihood(&points, x[0], x[1])
            };
            let (hi, lo) = (at(1.0), at(-1.0));
            let slope = (hi.0 - lo.0) / (2.0 * step[i]);
            assert!((slope - g[i]).abs() < 1e-4 * g[i].abs().max(1.0), "{i}");
            for (j, row) in h.iter().enumerate() {
                let curve = (hi.1[j] - lo.1[j]) / (2.0 * step[i]);
                assert!(
                    (curve - row[i]).abs() < 1e-4 * row[i].abs().max(1.0),
                    "{i} {j}"
                );
            }
        }
    }

    #[test]
    fn a_missing_result_is_refused_and_separated_ones_fit_steeply() {
        let p = |score, result| Point {
            score,
            result,
            pieces: 16,
        };
        let e = fit(&[p(10.0, 0), p(-10.0, 2)]).unwrap_err();
        assert!(e.contains("0 draws"), "{e}");
        // The score separates the results: the fit steepens until its
        // gain is below f64's resolution, each result all but certain.
        let separated: Vec<Point> = (0..50)
            .flat_map(|i| [p(100.0 + i as f64, 0), p(-100.0 - i as f64, 2), p(0.0, 1)])
            .collect();
        let f = fit(&separated).unwrap();
        assert!(f.model.b() < 5.0 && f.log_loss < 1e-9, "{f:?}");
    }
}
