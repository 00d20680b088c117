//! The dashboard's SVG charts, drawn with the engine crate's
//! `lab::chart` (plotters' SVG backend, no fonts read): a run's LLR
//! between its bounds, a benchmark measure by record, and the
//! cumulative Elo of the accepted SPRTs.

use leiserchess::lab::chart::{self, legend, line_mark, rgb, DrawError, Plane};
use plotters::prelude::*;

const SIZE: (u32, u32) = (720, 300);
const BLUE: RGBColor = rgb(0x1f77b4);
const RED: RGBColor = rgb(0xd62728);
const GREY: RGBColor = rgb(0x888888);

/// `lo..hi` widened by a twentieth on each side (by 1 when empty).
fn padded(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let pad = if hi > lo { (hi - lo) / 20.0 } else { 1.0 };
    lo - pad..hi + pad
}

fn mesh(
    c: &mut Plane,
    x: &str,
    y: &str,
    x_label: &dyn Fn(&f64) -> String,
) -> Result<(), DrawError> {
    c.configure_mesh()
        .max_light_lines(0)
        .x_desc(x)
        .y_desc(y)
        .x_label_formatter(x_label)
        .draw()
}

/// The LLR after each game (`llr[i]` after game i + 1) between the
/// SPRT's bounds `lo` and `hi`.
pub fn llr(llr: &[f64], (lo, hi): (f64, f64)) -> Result<String, String> {
    let low = llr.iter().copied().fold(lo, f64::min);
    let high = llr.iter().copied().fold(hi, f64::max);
    chart::svg(SIZE, |area| {
        let mut c = chart::plane(
            area,
            "",
            52,
            0.0..(llr.len().max(1) as f64),
            padded(low, high),
        )?;
        mesh(&mut c, "games", "LLR", &|x| format!("{x:.0}"))?;
        let n = llr.len() as f64;
        for (bound, name) in [(hi, "H1 bound"), (lo, "H0 bound")] {
            let style = RED.stroke_width(1);
            c.draw_series(LineSeries::new([(0.0, bound), (n.max(1.0), bound)], style))?
                .label(format!("{name} {bound:.2}"))
                .legend(line_mark(style));
        }
        let style = BLUE.stroke_width(2);
        let points = std::iter::once((0.0, 0.0))
            .chain(llr.iter().enumerate().map(|(i, &v)| ((i + 1) as f64, v)));
        c.draw_series(LineSeries::new(points, style))?
            .label("LLR")
            .legend(line_mark(style));
        legend(&mut c, SeriesLabelPosition::UpperLeft)
    })
}

/// One benchmark record on a chart.
pub struct Point {
    /// The x axis's label (a commit).
    pub label: String,
    /// Each round's value.
    pub rounds: Vec<f64>,
    pub median: f64,
    /// Its signature differs from the record before.
    pub signature_changed: bool,
    /// Flagged (a drop in nps).
    pub flagged: bool,
}

/// `points` in order: each round as a dot, the range of the rounds as a
/// bar, the medians joined; a signature change as a grey vertical line,
/// a flagged record ringed in red.
pub fn records(points: &[Point], y_name: &str) -> Result<String, String> {
    let all = points.iter().flat_map(|p| p.rounds.iter().copied());
    let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let (low, high) = if low.is_finite() {
        (low, high)
    } else {
        (0.0, 1.0)
    };
    let y = padded(low, high);
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-9 || i < 0.0 {
            return String::new();
        }
        points
            .get(i as usize)
            .map_or(String::new(), |p| p.label.clone())
    };
    chart::svg(SIZE, |area| {
        let n = points.len() as f64;
        let mut c = chart::plane(area, "", 72, -0.5..n.max(1.0) - 0.5, y.clone())?;
        c.configure_mesh()
            .max_light_lines(0)
            .x_labels(points.len().clamp(2, 12))
            .x_desc("commit")
            .y_desc(y_name)
            .x_label_formatter(&label)
            .draw()?;
        for (i, p) in points.iter().enumerate() {
            let x = i as f64;
            if p.signature_changed {
                c.draw_series(std::iter::once(PathElement::new(
                    [(x - 0.5, y.start), (x - 0.5, y.end)],
                    GREY.stroke_width(2),
                )))?;
            }
            let (lo, hi) = p
                .rounds
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                    (a.min(v), b.max(v))
                });
            if lo.is_finite() {
                c.draw_series(std::iter::once(PathElement::new(
                    [(x, lo), (x, hi)],
                    BLUE.stroke_width(1),
                )))?;
            }
            c.draw_series(
                p.rounds
                    .iter()
                    .map(|&v| Circle::new((x, v), 2, BLUE.filled())),
            )?;
            if p.flagged {
                c.draw_series(std::iter::once(Circle::new(
                    (x, p.median),
                    7,
                    RED.stroke_width(2),
                )))?;
            }
        }
        let style = BLUE.stroke_width(1);
        c.draw_series(LineSeries::new(
            points.iter().enumerate().map(|(i, p)| (i as f64, p.median)),
            style,
        ))?
        .label("median of the rounds (bar: min–max)")
        .legend(line_mark(style));
        legend(&mut c, SeriesLabelPosition::LowerLeft)
    })
}

/// The cumulative Elo after each accepted SPRT, `(label, total)` in order.
pub fn cumulative(points: &[(String, f64)]) -> Result<String, String> {
    let low = points.iter().map(|p| p.1).fold(0.0, f64::min);
    let high = points.iter().map(|p| p.1).fold(0.0, f64::max);
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-9 || i < 1.0 {
            return String::new();
        }
        points
            .get(i as usize - 1)
            .map_or(String::new(), |p| p.0.clone())
    };
    chart::svg(SIZE, |area| {
        let n = points.len() as f64;
        let mut c = chart::plane(area, "", 52, 0.0..n.max(1.0), padded(low, high))?;
        mesh(&mut c, "accepted SPRT (run)", "Elo, summed", &label)?;
        let style = BLUE.stroke_width(2);
        let line = std::iter::once((0.0, 0.0)).chain(
            points
                .iter()
                .enumerate()
                .map(|(i, p)| ((i + 1) as f64, p.1)),
        );
        c.draw_series(LineSeries::new(line, style))?;
        c.draw_series(
            points
                .iter()
                .enumerate()
                .map(|(i, p)| Circle::new(((i + 1) as f64, p.1), 3, BLUE.filled())),
        )?;
        Ok(())
    })
}
