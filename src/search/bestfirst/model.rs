//! The best-first search's error model: how far a score may still move when
//! a position is searched deeper, and what a deeper search costs. Fitted on
//! self-play positions by `leiserchess fit-error`, which writes the text
//! this module parses; the engine embeds the committed fit
//! (`error-model.txt`).
//!
//! A score searched `d` plies deep differs from the same position's score
//! searched `d + k` plies deep by an error whose spread grows with the
//! missing depth: its root mean square is `error_cp × k^growth` (the
//! design this search comes from has `growth` 1, a band linear in the
//! missing depth; our data grows far slower, so the fit measures it). The
//! error's shape, once divided by that, is one standard distribution:
//! normal, logistic (both of standard deviation 1), or the measured one
//! itself (`empirical`, its quantiles). A search to depth `d ≥ 1` costs
//! about `nodes0 × ebf^d` nodes, the quiescence search alone (depth 0)
//! `qnodes`; deepening by one ply costs the difference (the shallower
//! search's work is in the table).

use crate::eval::logistic::{logistic, unit_scale};
use std::fmt;
use std::sync::OnceLock;

/// The shape of the standardised error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Normal,
    Logistic,
    Empirical,
}

impl Family {
    pub const NAMES: [&'static str; 3] = ["normal", "logistic", "empirical"];

    pub fn name(self) -> &'static str {
        Family::NAMES[self as usize]
    }

    pub fn parse(text: &str) -> Option<Family> {
        match text {
            "normal" => Some(Family::Normal),
            "logistic" => Some(Family::Logistic),
            "empirical" => Some(Family::Empirical),
            _ => None,
        }
    }
}

/// The fitted constants.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorModel {
    /// The spread (root mean square) of one ply's change of score, in cp.
    pub error_cp: f64,
    /// How the spread grows with the plies deepened: `k^growth`.
    pub growth: f64,
    /// The effective branching factor: a ply deeper costs this many times
    /// the nodes.
    pub ebf: f64,
    /// The cost line's nodes at depth 0: `nodes0 × ebf^d` for `d ≥ 1`.
    pub nodes0: f64,
    /// The nodes of a depth-0 search (the quiescence search alone).
    pub qnodes: f64,
    pub family: Family,
    /// The standardised error's quantiles at evenly spaced probabilities
    /// from 0 to 1, ascending (at least two): the `empirical` shape.
    pub quantiles: Vec<f64>,
}

/// The committed fit, as `leiserchess fit-error` wrote it.
const EMBEDDED: &str = include_str!("error-model.txt");

impl ErrorModel {
    /// The committed fit, parsed once.
    pub fn embedded() -> &'static ErrorModel {
        static MODEL: OnceLock<ErrorModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            ErrorModel::parse(EMBEDDED).expect("the committed error-model.txt parses")
        })
    }

    /// Reads the text [`fmt::Display`] writes: `key value…` lines, `#`
    /// starting a comment. Errors name the line.
    pub fn parse(text: &str) -> Result<ErrorModel, String> {
        let (mut error_cp, mut growth, mut ebf, mut nodes0, mut qnodes) =
            (None, None, None, None, None);
        let (mut family, mut quantiles) = (None, None);
        for (n, line) in text.lines().enumerate() {
            let at = |what: String| format!("line {}: {what}", n + 1);
            let line = line.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(key) = words.next() else { continue };
            let values: Vec<&str> = words.collect();
            let number = |v: &str| {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| at(format!("{key}: '{v}' is not a number")))
            };
            let one = || match values.as_slice() {
                [v] => number(v),
                _ => Err(at(format!("{key} takes one value, got {}", values.len()))),
            };
            match key {
                "error_cp" => error_cp = Some(one()?),
                "growth" => growth = Some(one()?),
                "ebf" => ebf = Some(one()?),
                "nodes0" => nodes0 = Some(one()?),
                "qnodes" => qnodes = Some(one()?),
                "family" => {
                    let name = values.first().copied().unwrap_or("");
                    family = Some(Family::parse(name).ok_or_else(|| {
                        at(format!(
                            "family '{name}' is not one of {}",
                            Family::NAMES.join(", ")
                        ))
                    })?);
                }
                "quantiles" => {
                    let q = values
                        .iter()
                        .map(|v| number(v))
                        .collect::<Result<Vec<_>, _>>()?;
                    if q.len() < 2 || q.windows(2).any(|w| w[0] > w[1]) {
                        return Err(at("quantiles: at least two, ascending".to_string()));
                    }
                    quantiles = Some(q);
                }
                _ => return Err(at(format!("unknown key '{key}'"))),
            }
        }
        let need = |v: Option<f64>, key: &str, min: f64| match v {
            Some(x) if x > min => Ok(x),
            Some(x) => Err(format!("{key} {x}: must be above {min}")),
            None => Err(format!("{key} is missing")),
        };
        Ok(ErrorModel {
            error_cp: need(error_cp, "error_cp", 0.0)?,
            growth: need(growth, "growth", 0.0)?,
            ebf: need(ebf, "ebf", 1.0)?,
            nodes0: need(nodes0, "nodes0", 0.0)?,
            qnodes: need(qnodes, "qnodes", 0.0)?,
            family: family.ok_or("family is missing")?,
            quantiles: quantiles.ok_or("quantiles is missing")?,
        })
    }

    /// The spread of the score's change over `plies` plies, cp.
    pub fn spread(&self, plies: f64) -> f64 {
        self.error_cp * plies.max(1e-9).powf(self.growth)
    }

    /// The probability that `plies` plies more move the score by at most
    /// `delta_cp`.
    pub fn cdf(&self, delta_cp: f64, plies: f64) -> f64 {
        let z = delta_cp / self.spread(plies);
        match self.family {
            Family::Normal => normal_cdf(z),
            Family::Logistic => logistic_cdf(z),
            Family::Empirical => empirical_cdf(&self.quantiles, z),
        }
    }

    /// The nodes of a search `depth` plies deep.
    pub fn nodes(&self, depth: u32) -> f64 {
        match depth {
            0 => self.qnodes,
            d => self.nodes0 * self.ebf.powi(d as i32),
        }
    }

    /// The nodes that deepen a search from `depth` to `depth + 1` plies
    /// (the shallower search's work is in the table).
    pub fn deepening(&self, depth: u32) -> f64 {
        self.nodes(depth + 1) - self.nodes(depth)
    }
}

impl fmt::Display for ErrorModel {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "error_cp {:.3}", self.error_cp)?;
        writeln!(f, "growth {:.4}", self.growth)?;
        writeln!(f, "ebf {:.4}", self.ebf)?;
        writeln!(f, "nodes0 {:.3}", self.nodes0)?;
        writeln!(f, "qnodes {:.3}", self.qnodes)?;
        writeln!(f, "family {}", self.family.name())?;
        write!(f, "quantiles")?;
        for q in &self.quantiles {
            write!(f, " {q:.4}")?;
        }
        writeln!(f)
    }
}

/// The standard normal's distribution function, from the complementary
/// error function's rational approximation (Numerical Recipes' `erfcc`,
/// relative error below 1.2e-7 everywhere).
pub fn normal_cdf(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// The logistic distribution of standard deviation 1.
pub fn logistic_cdf(z: f64) -> f64 {
    logistic(z / unit_scale())
}

/// The distribution whose quantiles at probabilities `i / (n − 1)` are
/// `q[i]`, linear between them, 0 below the first and 1 above the last.
pub fn empirical_cdf(q: &[f64], z: f64) -> f64 {
    let n = q.len();
    if n < 2 || z < q[0] {
        return 0.0;
    }
    if z >= q[n - 1] {
        return 1.0;
    }
    // The last quantile at or below z: ties take the highest probability.
    let i = q.partition_point(|&x| x <= z) - 1;
    let step = 1.0 / (n - 1) as f64;
    let width = q[i + 1] - q[i];
    let within = if width > 0.0 { (z - q[i]) / width } else { 0.0 };
    (i as f64 + within) * step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distributions_agree_with_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_75).abs() < 1e-6);
        assert!((normal_cdf(-1.96) - 0.024_997_9).abs() < 1e-6);
        assert!((logistic_cdf(0.0) - 0.5).abs() < 1e-12);
        // The logistic of standard deviation 1 has scale √3/π.
        assert!((logistic_cdf(3f64.sqrt() / std::f64::consts::PI) - 0.731_058_6).abs() < 1e-6);
        let q = [-2.0, -1.0, 0.0, 1.0, 2.0];
        assert_eq!(empirical_cdf(&q, -3.0), 0.0);
        assert_eq!(empirical_cdf(&q, 0.0), 0.5);
        assert!((empirical_cdf(&q, 0.5) - 0.625).abs() < 1e-12);
        assert_eq!(empirical_cdf(&q, 2.0), 1.0);
    }

    #[test]
    fn the_text_round_trips_and_errors_name_the_line() {
        let m = ErrorModel {
            error_cp: 41.5,
            growth: 0.5,
            ebf: 3.25,
            nodes0: 12.0,
            qnodes: 4.0,
            family: Family::Logistic,
            quantiles: vec![-3.0, -0.5, 0.0, 0.5, 3.0],
        };
        assert_eq!(ErrorModel::parse(&m.to_string()).unwrap(), m);
        let bad = m.to_string().replace("family logistic", "family cauchy");
        assert_eq!(
            ErrorModel::parse(&bad).unwrap_err(),
            "line 6: family 'cauchy' is not one of normal, logistic, empirical"
        );
        let missing = m.to_string().replace("ebf 3.2500\n", "");
        assert_eq!(ErrorModel::parse(&missing).unwrap_err(), "ebf is missing");
        assert!(ErrorModel::embedded().error_cp > 0.0);
    }

    #[test]
    fn a_ply_deeper_costs_the_difference() {
        let m = ErrorModel {
            error_cp: 40.0,
            growth: 0.5,
            ebf: 3.0,
            nodes0: 10.0,
            qnodes: 4.0,
            family: Family::Normal,
            quantiles: vec![0.0, 1.0],
        };
        assert_eq!(m.nodes(2), 90.0);
        assert_eq!(m.deepening(2), 180.0);
        assert_eq!(m.deepening(0), 26.0);
        assert!((m.cdf(40.0, 1.0) - normal_cdf(1.0)).abs() < 1e-12);
        // Four plies: twice the spread with growth ½.
        assert!((m.cdf(40.0, 4.0) - normal_cdf(0.5)).abs() < 1e-12);
    }
}
