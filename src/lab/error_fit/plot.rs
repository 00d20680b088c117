//! The fit as one SVG of two charts side by side (docs/error-fit.svg is
//! one): (a) the standardised changes'
//! histogram as a density, with the normal and the logistic of standard
//! deviation 1 over it; (b) the spread `s_k` against the plies `k`, with
//! the fitted law `error_cp · k^growth` and the design's line through
//! the origin.

use super::fit::Fit;
use crate::eval::logistic::unit_scale;
use crate::lab::chart::{self, legend, line_mark, rgb, Area, DrawError, Plane, FONT};
use plotters::prelude::*;

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

/// One chart: its frame and mesh, on `area`, up to `top` on the y axis.
fn frame<'a, 'b: 'a>(
    area: &'a Area<'b>,
    x: std::ops::Range<f64>,
    top: f64,
    (xlabel, ylabel): (&str, &str),
) -> Result<Plane<'a, 'b>, DrawError> {
    let mut c = chart::plane(area, "", 52, x, 0.0..top)?;
    c.configure_mesh()
        .max_light_lines(0)
        .x_desc(xlabel)
        .y_desc(ylabel)
        .draw()?;
    Ok(c)
}

/// `f` drawn over `c`'s x range as a named line of `colour`.
fn curve<'a, 'b: 'a>(
    c: &mut Plane<'a, 'b>,
    f: impl Fn(f64) -> f64,
    colour: RGBColor,
    name: &str,
) -> Result<(), DrawError> {
    let (x0, x1) = (c.x_range().start, c.x_range().end);
    let style = colour.stroke_width(2);
    let points = (0..=200).map(|i| {
        let v = x0 + (x1 - x0) * f64::from(i) / 200.0;
        (v, f(v))
    });
    c.draw_series(LineSeries::new(points, style))?
        .label(name)
        .legend(line_mark(style));
    Ok(())
}

/// Both charts, under `title`.
pub fn svg(fit: &Fit, title: &str) -> Result<String, String> {
    chart::svg((960, 380), |root| {
        let area = root.titled(title, (FONT, 14))?;
        let (left, right) = area.split_horizontally(480);
        shape(&left, fit)?;
        spread(&right, fit)
    })
}

/// (a) The shape: the histogram and the two densities.
fn shape(area: &Area, fit: &Fit) -> Result<(), DrawError> {
    let (bars, outside) = histogram(&fit.z);
    let tallest = bars.iter().map(|b| b.1).fold(0.46, f64::max) * 1.05;
    let ystep = step(tallest);
    let top = (tallest / ystep).ceil() * ystep;
    let x = -LIMIT - BIN / 2.0..LIMIT + BIN / 2.0;
    let labels = ("z = change / (error_cp × k^growth)", "density");
    let mut c = frame(area, x, top, labels)?;
    let fill = rgb(0x9ecae1).filled();
    c.draw_series(bars.iter().filter(|b| b.1 > 0.0).map(|&(centre, density)| {
        Rectangle::new(
            [(centre - BIN / 2.0, 0.0), (centre + BIN / 2.0, density)],
            fill,
        )
    }))?
    .label(format!(
        "bars: {} changes, {outside} beyond ±4",
        fit.z.len()
    ))
    .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], fill));
    curve(&mut c, normal_density, rgb(0xd62728), "normal, sd 1")?;
    curve(&mut c, logistic_density, rgb(0x2ca02c), "logistic, sd 1")?;
    legend(&mut c, SeriesLabelPosition::UpperLeft)
}

/// (b) The spread against the plies, the fitted law and the linear band.
fn spread(area: &Area, fit: &Fit) -> Result<(), DrawError> {
    let k = fit.by_plies.len();
    let m = &fit.model;
    let highest = fit.by_plies.iter().map(|s| s.rms).fold(0.0, f64::max);
    let top = highest.max(fit.line * (k as f64 + 0.5)) * 1.05;
    let ystep = step(top);
    let top = (top / ystep).ceil() * ystep;
    let labels = ("plies deepened, k", "spread s_k, cp");
    let mut c = frame(area, 0.0..k as f64 + 0.5, top, labels)?;
    let fitted = format!("fit: {:.1} cp × k^{:.2}", m.error_cp, m.growth);
    curve(&mut c, |x| m.spread(x), rgb(0x1f77b4), &fitted)?;
    let band = format!("linear band: {:.1} cp × k", fit.line);
    curve(&mut c, |x| fit.line * x, rgb(0xff7f0e), &band)?;
    let dots = fit.by_plies.iter().enumerate();
    c.draw_series(dots.map(|(i, s)| Circle::new(((i + 1) as f64, s.rms), 4, BLACK.filled())))?
        .label("dots: root mean square change")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, BLACK.filled()));
    legend(&mut c, SeriesLabelPosition::UpperLeft)
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
    }
}
