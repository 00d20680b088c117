//! The fit as an SVG chart (docs/wdl.svg is one): the data's win, draw and
//! loss shares per score bucket as dots, the model's curves as lines.

use super::Point;
use crate::eval::wdl::Model;
use crate::lab::chart::{self, legend, line_mark, rgb};
use plotters::prelude::*;

/// The positions whose score falls in one bucket.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    /// The bucket's middle score, cp.
    pub score: f64,
    /// Positions per result: wins, draws, losses.
    pub counts: [usize; 3],
}

/// Buckets with fewer positions are left out of the chart: their shares
/// are noise.
pub const MIN_BUCKET: usize = 30;

/// `points` in `width`-cp score buckets, lowest first, each with at least
/// [`MIN_BUCKET`] positions.
pub fn buckets(points: &[Point], width: f64) -> Vec<Bucket> {
    let mut by_index = std::collections::BTreeMap::<i64, [usize; 3]>::new();
    for p in points {
        by_index
            .entry((p.score / width).floor() as i64)
            .or_default()[p.result] += 1;
    }
    by_index
        .into_iter()
        .filter(|(_, c)| c.iter().sum::<usize>() >= MIN_BUCKET)
        .map(|(i, counts)| Bucket {
            score: (i as f64 + 0.5) * width,
            counts,
        })
        .collect()
}

/// Each result's name and colour, in the triple's order.
const SERIES: [(&str, RGBColor); 3] = [
    ("win", rgb(0x2ca02c)),
    ("draw", rgb(0x7f7f7f)),
    ("loss", rgb(0xd62728)),
];

/// The chart: shares 0 to 1 over scores symmetric about 0, wide enough
/// for every bucket.
pub fn svg(model: &Model, buckets: &[Bucket], title: &str) -> Result<String, String> {
    let widest = buckets.iter().map(|b| b.score.abs()).fold(0.0, f64::max);
    let step = [50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0]
        .into_iter()
        .find(|s| s * 4.0 >= widest)
        .unwrap_or(10_000.0);
    let half = (widest / step).ceil().max(1.0) * step;
    let ticks = (2.0 * half / step).round() as usize + 1;
    chart::svg((640, 360), |root| {
        let mut c = chart::plane(root, title, 48, -half..half, 0.0..1.0)?;
        c.configure_mesh()
            .max_light_lines(0)
            .x_labels(ticks)
            .y_labels(5)
            .x_desc("search score, cp, side to move's view")
            .y_desc("share")
            .x_label_formatter(&|s| format!("{s}"))
            .y_label_formatter(&|v| format!("{v:.2}"))
            .draw()?;
        for (k, (name, colour)) in SERIES.into_iter().enumerate() {
            let style = colour.stroke_width(2);
            let curve = (0..=200).map(|i| {
                let s = -half + 2.0 * half * f64::from(i) / 200.0;
                (s, model.probabilities(s)[k])
            });
            c.draw_series(LineSeries::new(curve, style))?
                .label(name)
                .legend(line_mark(style));
            c.draw_series(buckets.iter().map(|b| {
                let share = b.counts[k] as f64 / b.counts.iter().sum::<usize>() as f64;
                Circle::new((b.score, share), 3, colour.mix(0.6).filled())
            }))?;
        }
        // A legend line without a mark: how to read the chart.
        c.draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
            .label("dots: the data, lines: the fit");
        // Middle left: where the losing side's curve has left the top and
        // the winning side's not yet risen.
        legend(&mut c, SeriesLabelPosition::MiddleLeft)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(score: f64, result: usize) -> Point {
        Point {
            score,
            result,
            pieces: 16,
        }
    }

    #[test]
    fn scores_fall_in_buckets_and_thin_ones_are_left_out() {
        let mut points = vec![point(-1.0, 2); MIN_BUCKET];
        points.extend(vec![point(10.0, 0); MIN_BUCKET - 5]);
        points.extend(vec![point(24.0, 1); 5]);
        points.push(point(300.0, 0));
        assert_eq!(
            buckets(&points, 25.0),
            [
                Bucket {
                    score: -12.5,
                    counts: [0, 0, MIN_BUCKET]
                },
                Bucket {
                    score: 12.5,
                    counts: [MIN_BUCKET - 5, 5, 0]
                }
            ]
        );
    }

    #[test]
    fn the_chart_draws_dots_and_curves() {
        let b = [
            Bucket {
                score: -12.5,
                counts: [0, 0, 40],
            },
            Bucket {
                score: 130.0,
                counts: [30, 10, 0],
            },
        ];
        let s = svg(&Model::new(100.0, 50.0), &b, "t").unwrap();
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("\nt\n</text>"), "{s}");
        // A curve and a dot per bucket for each result, in its colour.
        for (name, colour) in [("win", "#2CA02C"), ("draw", "#7F7F7F"), ("loss", "#D62728")] {
            assert!(s.contains(&format!("\n{name}\n</text>")), "{name}: {s}");
            assert!(s.contains(&format!("stroke=\"{colour}\"")), "{colour}: {s}");
            let dots = s
                .lines()
                .filter(|l| l.starts_with("<circle") && l.contains(&format!("fill=\"{colour}\"")));
            assert_eq!(dots.count(), 2, "{colour}: {s}");
        }
        // 130 cp needs ±150 (steps of 50).
        assert!(
            s.contains("\n-150\n</text>") && s.contains("\n150\n</text>"),
            "{s}"
        );
    }
}
