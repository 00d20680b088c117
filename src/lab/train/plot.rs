//! The loss curve as an SVG line chart: `train` redraws `OUT.svg` from
//! `OUT.tsv` after every epoch (docs/nnue-loss.svg is one).

use crate::lab::chart::{self, legend, line_mark, rgb};
use plotters::prelude::*;

/// One epoch's line of the TSV.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub epoch: f64,
    pub train: f64,
    pub valid: f64,
    pub hand_written: f64,
}

/// The rows of a loss-curve TSV (its header and any unreadable line
/// skipped).
pub fn rows(tsv: &str) -> Vec<Row> {
    tsv.lines()
        .filter_map(|line| {
            let f: Vec<f64> = line
                .split('\t')
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?;
            (f.len() >= 5).then(|| Row {
                epoch: f[0],
                train: f[1],
                valid: f[2],
                hand_written: f[4],
            })
        })
        .collect()
}

/// A line of the chart: its name, colour, whether dashed, and value.
type Series = (&'static str, RGBColor, bool, fn(&Row) -> f64);

/// The chart: the training and held-out losses by epoch, and the
/// hand-written evaluation's held-out loss as a dashed line.
pub fn svg(rows: &[Row], title: &str) -> Result<String, String> {
    let ys = rows.iter().flat_map(|r| [r.train, r.valid, r.hand_written]);
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    let (lo, hi) = if lo < hi {
        (lo, hi)
    } else {
        (lo - 0.01, lo + 0.01)
    };
    let last = rows.iter().map(|r| r.epoch).fold(1.0, f64::max);
    let series: [Series; 3] = [
        ("training", rgb(0x1f77b4), false, |r| r.train),
        ("held out", rgb(0xd62728), false, |r| r.valid),
        ("hand-written, held out", rgb(0x555555), true, |r| {
            r.hand_written
        }),
    ];
    chart::svg((640, 360), |root| {
        let mut c = chart::plane(root, title, 56, 0.0..last, lo..hi)?;
        c.configure_mesh()
            .max_light_lines(0)
            .x_desc("epoch")
            .y_desc("loss")
            .y_label_formatter(&|v| format!("{v:.4}"))
            .draw()?;
        for (name, colour, dashed, pick) in series {
            let style = colour.stroke_width(2);
            let points = rows.iter().map(move |r| (r.epoch, pick(r)));
            let drawn = if dashed {
                c.draw_series(DashedLineSeries::new(points, 6, 4, style))?
            } else {
                c.draw_series(LineSeries::new(points, style))?
            };
            drawn.label(name).legend(line_mark(style));
        }
        legend(&mut c, SeriesLabelPosition::UpperRight)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "epoch\ttrain\tvalid\tvalid_results\thand_written\thand_written_results\n\
        1\t0.04\t0.03\t0.18\t0.02\t0.17\n2\t0.02\t0.025\t0.177\t0.02\t0.17\n";

    #[test]
    fn the_tsv_reads_and_draws() {
        let r = rows(TSV);
        assert_eq!(r.len(), 2);
        assert_eq!(
            r[1],
            Row {
                epoch: 2.0,
                train: 0.02,
                valid: 0.025,
                hand_written: 0.02
            }
        );
        let s = svg(&r, "net").unwrap();
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("\nnet\n</text>"), "{s}");
        // Each series is drawn in its colour and named in the legend.
        for (name, colour) in [
            ("training", "#1F77B4"),
            ("held out", "#D62728"),
            ("hand-written, held out", "#555555"),
        ] {
            assert!(s.contains(&format!("\n{name}\n</text>")), "{name}: {s}");
            assert!(s.contains(&format!("stroke=\"{colour}\"")), "{colour}: {s}");
        }
        assert!(s.contains("\nepoch\n</text>"), "{s}");
    }
}
