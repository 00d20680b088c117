//! The fit as one SVG of two charts side by side (docs/error-fit.svg is
//! one), hand-written as `wdl::plot`'s: (a) the standardised changes'
//! histogram as a density, with the normal and the logistic of standard
//! deviation 1 over it; (b) the spread `s_k` against the plies `k`, with
//! the fitted law `error_cp · k^growth` and the design's line through
//! the origin.

use super::fit::Fit;
use crate::eval::logistic::unit_scale;

const W: f64 = 960.0;
const H: f64 = 380.0;
const PAD: f64 = 56.0;

/// The histogram's range and bin width, in standard deviations: bins are
/// centred on multiples of the width, so that the changes of 0 share one.
const LIMIT: f64 = 4.0;
const BIN: f64 = 0.25;

/// The histogram of `z`: each bin's centre and density (the share of all
/// changes in it over its width), and how many changes fall outside ±4.
pub fn histogram(z: &[f64]) -> (Vec<(f64, f64)>, usize) {
    let bins = (2.0 * LIMIT / BIN).round() as i64;
    let mut counts = vec![0usize; bins as usize + 1];
    let mut outside = 0;
    for &x in z {
        let i = (x / BIN).round() as i64 + bins / 2;
        match usize::try_from(i).ok().and_then(|i| counts.get_mut(i)) {
            Some(c) => *c += 1,
            None => outside += 1,
        }
    }
    let n = z.len().max(1) as f64;
    let bars = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| ((i as i64 - bins / 2) as f64 * BIN, c as f64 / n / BIN))
        .collect();
    (bars, outside)
}

fn normal_density(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

fn logistic_density(z: f64) -> f64 {
    let s = unit_scale();
    let e = (-z.abs() / s).exp();
    e / (s * (1.0 + e) * (1.0 + e))
}

/// The smallest of the usual steps that covers `top` in five ticks.
fn step(top: f64) -> f64 {
    (-3..)
        .flat_map(|e| [1.0, 2.0, 2.5, 5.0].map(|s| s * 10f64.powi(e)))
        .find(|s| s * 5.0 >= top)
        .expect("a step covers any finite top")
}

/// A tick's value without the float noise of adding up steps.
fn label(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// One chart's plot area and ranges.
struct Frame {
    left: f64,
    right: f64,
    x: (f64, f64),
    top: f64,
}

impl Frame {
    fn x(&self, v: f64) -> f64 {
        self.left + (v - self.x.0) / (self.x.1 - self.x.0) * (self.right - self.left)
    }

    fn y(&self, v: f64) -> f64 {
        H - PAD - v / self.top * (H - 2.0 * PAD)
    }

    /// The grid, the axes, their ticks and labels.
    fn axes(&self, xticks: &[f64], ystep: f64, xlabel: &str, ylabel: &str) -> String {
        let mut out = String::new();
        let ticks = (self.top / ystep).round() as usize;
        for i in 0..=ticks {
            let v = i as f64 * ystep;
            out += &format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n\
                 <line x1=\"{:.1}\" y1=\"{yv:.1}\" x2=\"{:.1}\" y2=\"{yv:.1}\" stroke=\"#ddd\"/>\n",
                self.left - 6.0,
                self.y(v) + 4.0,
                label(v),
                self.left,
                self.right,
                yv = self.y(v),
            );
        }
        for &v in xticks {
            out += &format!(
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{v}</text>\n",
                self.x(v),
                H - PAD + 16.0
            );
        }
        out + &format!(
            "<line x1=\"{l:.1}\" y1=\"{b}\" x2=\"{r:.1}\" y2=\"{b}\" stroke=\"black\"/>\n\
             <line x1=\"{l:.1}\" y1=\"{PAD}\" x2=\"{l:.1}\" y2=\"{b}\" stroke=\"black\"/>\n\
             <text x=\"{cx:.1}\" y=\"{lx}\" text-anchor=\"middle\">{xlabel}</text>\n\
             <text x=\"{l:.1}\" y=\"{ly}\">{ylabel}</text>\n",
            l = self.left,
            r = self.right,
            b = H - PAD,
            cx = (self.left + self.right) / 2.0,
            lx = H - 16.0,
            ly = PAD - 10.0,
        )
    }

    /// `f` drawn over the frame's x range.
    fn curve(&self, f: impl Fn(f64) -> f64, colour: &str) -> String {
        let points: Vec<String> = (0..=200)
            .map(|i| {
                let v = self.x.0 + (self.x.1 - self.x.0) * i as f64 / 200.0;
                format!("{:.1},{:.1}", self.x(v), self.y(f(v)))
            })
            .collect();
        format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" ")
        )
    }
}

/// A line of the legend at the frame's top left.
fn legend(f: &Frame, line: usize, colour: &str, text: &str) -> String {
    format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{colour}\">{text}</text>\n",
        f.left + 12.0,
        PAD + 16.0 + 16.0 * line as f64
    )
}

/// Both charts, under `title`.
pub fn svg(fit: &Fit, title: &str) -> String {
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{PAD}\" y=\"24\" font-size=\"14\">{title}</text>\n"
    );
    // (a) The shape.
    let (bars, outside) = histogram(&fit.z);
    let tallest = bars.iter().map(|b| b.1).fold(0.46, f64::max) * 1.05;
    let ystep = step(tallest);
    let a = Frame {
        left: PAD,
        right: W / 2.0 - PAD / 2.0,
        x: (-LIMIT - BIN / 2.0, LIMIT + BIN / 2.0),
        top: (tallest / ystep).ceil() * ystep,
    };
    let xticks: Vec<f64> = (-4..=4).map(f64::from).collect();
    out += &a.axes(
        &xticks,
        ystep,
        "z = change / (error_cp × k^growth)",
        "density",
    );
    for &(centre, density) in bars.iter().filter(|b| b.1 > 0.0) {
        let (x0, x1) = (a.x(centre - BIN / 2.0), a.x(centre + BIN / 2.0));
        out += &format!(
            "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#9ecae1\"/>\n",
            a.y(density),
            x1 - x0,
            a.y(0.0) - a.y(density)
        );
    }
    out += &a.curve(normal_density, "#d62728");
    out += &a.curve(logistic_density, "#2ca02c");
    out += &legend(&a, 0, "#d62728", "normal, sd 1");
    out += &legend(&a, 1, "#2ca02c", "logistic, sd 1");
    out += &legend(
        &a,
        2,
        "#555",
        &format!("bars: {} changes, {outside} beyond ±4", fit.z.len()),
    );
    // (b) The spread against the plies.
    let k = fit.by_plies.len();
    let m = &fit.model;
    let highest = fit.by_plies.iter().map(|s| s.rms).fold(0.0, f64::max);
    let top = highest.max(fit.line * (k as f64 + 0.5)) * 1.05;
    let ystep = step(top);
    let b = Frame {
        left: W / 2.0 + PAD,
        right: W - PAD / 2.0,
        x: (0.0, k as f64 + 0.5),
        top: (top / ystep).ceil() * ystep,
    };
    let xticks: Vec<f64> = (0..=k).map(|i| i as f64).collect();
    out += &b.axes(&xticks, ystep, "plies deepened, k", "spread s_k, cp");
    out += &b.curve(|x| m.spread(x), "#1f77b4");
    out += &b.curve(|x| fit.line * x, "#ff7f0e");
    for (i, s) in fit.by_plies.iter().enumerate() {
        out += &format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"black\"/>\n",
            b.x((i + 1) as f64),
            b.y(s.rms)
        );
    }
    out += &legend(
        &b,
        0,
        "#1f77b4",
        &format!("fit: {:.1} cp × k^{:.2}", m.error_cp, m.growth),
    );
    out += &legend(
        &b,
        1,
        "#ff7f0e",
        &format!("linear band: {:.1} cp × k", fit.line),
    );
    out += &legend(&b, 2, "black", "dots: root mean square change");
    out + "</svg>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_fall_in_bins_centred_on_multiples_of_the_width() {
        let (bars, outside) = histogram(&[0.0, 0.1, -0.12, 0.13, 3.9, 4.2, -7.0]);
        assert_eq!(outside, 2);
        assert_eq!(bars.len(), 33);
        let at = |z: f64| bars.iter().find(|b| (b.0 - z).abs() < 1e-9).unwrap().1;
        // 3 of 7 changes in a bin a quarter wide.
        assert!((at(0.0) - 3.0 / 7.0 / 0.25).abs() < 1e-12);
        assert!((at(0.25) - 1.0 / 7.0 / 0.25).abs() < 1e-12);
        assert!((at(4.0) - 1.0 / 7.0 / 0.25).abs() < 1e-12);
        // Both densities integrate to 1 and have standard deviation 1.
        for f in [normal_density, logistic_density] {
            let (mut mass, mut var) = (0.0, 0.0);
            for i in -20_000..20_000 {
                let z = (i as f64 + 0.5) * 1e-3;
                mass += f(z) * 1e-3;
                var += z * z * f(z) * 1e-3;
            }
            assert!((mass - 1.0).abs() < 1e-6 && (var - 1.0).abs() < 1e-6);
        }
        for (top, want) in [(0.46, 0.1), (1.3, 0.5), (130.0, 50.0), (0.02, 0.005)] {
            assert!((step(top) / want - 1.0).abs() < 1e-12, "{top}");
        }
        assert_eq!(label(3.0 * 0.1), 0.3);
    }
}
