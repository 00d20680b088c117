//! The loss curve as an SVG line chart: `train` redraws `OUT.svg` from
//! `OUT.tsv` after every epoch (docs/nnue-loss.svg is one).

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

/// A line of the chart: its name, colour, dash attribute and value.
type Series = (&'static str, &'static str, &'static str, fn(&Row) -> f64);

const W: f64 = 640.0;
const H: f64 = 360.0;
const PAD: f64 = 56.0;

/// The chart: the training and held-out losses by epoch, and the
/// hand-written evaluation's held-out loss as a dashed line.
pub fn svg(rows: &[Row], title: &str) -> String {
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
    let x = |e: f64| PAD + (e / last) * (W - 2.0 * PAD);
    let y = |v: f64| H - PAD - (v - lo) / (hi - lo) * (H - 2.0 * PAD);
    let line = |pick: fn(&Row) -> f64| -> String {
        rows.iter()
            .map(|r| format!("{:.1},{:.1}", x(r.epoch), y(pick(r))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{PAD}\" y=\"24\" font-size=\"14\">{title}</text>\n\
         <line x1=\"{PAD}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"black\"/>\n\
         <line x1=\"{PAD}\" y1=\"{PAD}\" x2=\"{PAD}\" y2=\"{b}\" stroke=\"black\"/>\n\
         <text x=\"{cx}\" y=\"{lx}\" text-anchor=\"middle\">epoch</text>\n",
        b = H - PAD,
        r = W - PAD,
        cx = W / 2.0,
        lx = H - 16.0,
    );
    for i in 0..=4 {
        let v = lo + (hi - lo) * i as f64 / 4.0;
        out += &format!(
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{v:.4}</text>\n",
            PAD - 6.0,
            y(v) + 4.0
        );
    }
    for r in rows {
        out += &format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            x(r.epoch),
            H - PAD + 16.0,
            r.epoch
        );
    }
    let series: [Series; 3] = [
        ("training", "#1f77b4", "", |r| r.train),
        ("held out", "#d62728", "", |r| r.valid),
        (
            "hand-written, held out",
            "#555",
            " stroke-dasharray=\"6 4\"",
            |r| r.hand_written,
        ),
    ];
    for (i, (name, colour, dash, pick)) in series.into_iter().enumerate() {
        out += &format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash} points=\"{}\"/>\n\
             <text x=\"{}\" y=\"{}\" fill=\"{colour}\">{name}</text>\n",
            line(pick),
            W - PAD - 150.0,
            PAD + 16.0 * i as f64
        );
    }
    out + "</svg>\n"
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
        let s = svg(&r, "net");
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert_eq!(s.matches("<polyline").count(), 3);
        // The highest loss (training, epoch 1 of 2) is drawn at the top of
        // the plot area, halfway across; the lowest along its bottom.
        let top = format!("{:.1},{PAD:.1}", PAD + (W - 2.0 * PAD) / 2.0);
        assert!(s.contains(&format!("points=\"{top} ")), "{s}");
        assert!(
            s.contains(&format!("{:.1},{:.1}\"", W - PAD, H - PAD)),
            "{s}"
        );
    }
}
