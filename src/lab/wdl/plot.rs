//! The fit as an SVG chart (docs/wdl.svg is one): the data's win, draw and
//! loss shares per score bucket as dots, the model's curves as lines. The
//! layout is `train::plot`'s loss chart's.

use super::Point;
use crate::eval::wdl::Model;

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

const W: f64 = 640.0;
const H: f64 = 360.0;
const PAD: f64 = 56.0;

/// The legend's first line, at the left a fifth of the way down the plot:
/// where the losing side's curve has left the top and the winning side's
/// not yet risen.
const LEGEND: f64 = PAD + 0.2 * (H - 2.0 * PAD);

/// Each result's name and colour, in the triple's order.
const SERIES: [(&str, &str); 3] = [("win", "#2ca02c"), ("draw", "#7f7f7f"), ("loss", "#d62728")];

/// The chart: shares 0 to 1 over scores symmetric about 0, wide enough
/// for every bucket.
pub fn svg(model: &Model, buckets: &[Bucket], title: &str) -> String {
    let widest = buckets.iter().map(|b| b.score.abs()).fold(0.0, f64::max);
    let step = [50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0]
        .into_iter()
        .find(|s| s * 4.0 >= widest)
        .unwrap_or(10_000.0);
    let half = (widest / step).ceil().max(1.0) * step;
    let x = |s: f64| PAD + (s + half) / (2.0 * half) * (W - 2.0 * PAD);
    let y = |v: f64| H - PAD - v * (H - 2.0 * PAD);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{PAD}\" y=\"24\" font-size=\"14\">{title}</text>\n"
    );
    // The grid first, so that the axes are drawn over its bottom line.
    for i in 0..=4 {
        let v = i as f64 / 4.0;
        out += &format!(
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{v:.2}</text>\n\
             <line x1=\"{PAD}\" y1=\"{yv:.1}\" x2=\"{}\" y2=\"{yv:.1}\" stroke=\"#ddd\"/>\n",
            PAD - 6.0,
            y(v) + 4.0,
            W - PAD,
            yv = y(v),
        );
    }
    out += &format!(
        "<line x1=\"{PAD}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"black\"/>\n\
         <line x1=\"{PAD}\" y1=\"{PAD}\" x2=\"{PAD}\" y2=\"{b}\" stroke=\"black\"/>\n\
         <text x=\"{cx}\" y=\"{lx}\" text-anchor=\"middle\">search score, cp, side to move's view</text>\n",
        b = H - PAD,
        r = W - PAD,
        cx = W / 2.0,
        lx = H - 16.0,
    );
    let ticks = (2.0 * half / step).round() as i64;
    for i in 0..=ticks {
        let s = -half + i as f64 * step;
        out += &format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{s}</text>\n",
            x(s),
            H - PAD + 16.0
        );
    }
    for (k, (name, colour)) in SERIES.into_iter().enumerate() {
        let curve: Vec<String> = (0..=200)
            .map(|i| {
                let s = -half + 2.0 * half * i as f64 / 200.0;
                format!("{:.1},{:.1}", x(s), y(model.probabilities(s)[k]))
            })
            .collect();
        out += &format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            curve.join(" ")
        );
        for b in buckets {
            let share = b.counts[k] as f64 / b.counts.iter().sum::<usize>() as f64;
            out += &format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{colour}\" fill-opacity=\"0.6\"/>\n",
                x(b.score),
                y(share)
            );
        }
        out += &format!(
            "<text x=\"{}\" y=\"{:.1}\" fill=\"{colour}\">{name}</text>\n",
            PAD + 12.0,
            LEGEND + 16.0 * k as f64
        );
    }
    out += &format!(
        "<text x=\"{}\" y=\"{:.1}\" fill=\"#555\">dots: the data, lines: the fit</text>\n",
        PAD + 12.0,
        LEGEND + 48.0
    );
    out + "</svg>\n"
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
        let s = svg(&Model::new(100.0, 50.0), &b, "t");
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert_eq!(s.matches("<polyline").count(), 3);
        assert_eq!(s.matches("<circle").count(), 6);
        // 130 cp needs ±150 (steps of 50): the win share 3/4 of the
        // bucket at 130 is drawn at its place.
        let cx = PAD + (130.0 + 150.0) / 300.0 * (W - 2.0 * PAD);
        let cy = H - PAD - 0.75 * (H - 2.0 * PAD);
        assert!(s.contains(&format!("cx=\"{cx:.1}\" cy=\"{cy:.1}\"")), "{s}");
        assert!(s.contains(">-150<") && s.contains(">150<"), "{s}");
    }
}
