//! The logistic function σ(x) = 1 / (1 + e^−x), the one definition behind
//! every score-to-expected-result mapping (the WDL model, the tuner, the
//! WDL fit, the net's trainer) and the logistic error distribution of the
//! best-first search and its fit.

/// σ(x).
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// σ(x) in `f32`, for the trainer's net.
pub fn logistic_f32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale `s` of the logistic distribution of standard deviation 1
/// (its variance is s²π²/3): its distribution function is σ(z / s).
pub fn unit_scale() -> f64 {
    3f64.sqrt() / std::f64::consts::PI
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_is_symmetric_and_bounded() {
        assert_eq!(logistic(0.0), 0.5);
        assert_eq!(logistic_f32(0.0), 0.5);
        for x in [0.25, 1.0, 3.0, 40.0] {
            assert!((logistic(x) + logistic(-x) - 1.0).abs() < 1e-15);
            assert!((logistic_f32(x as f32) + logistic_f32(-x as f32) - 1.0).abs() < 1e-6);
        }
        assert!((logistic(1.0) - 0.731_058_578_630_004_9).abs() < 1e-15);
        assert_eq!(logistic(-800.0), 0.0);
        assert_eq!(logistic(800.0), 1.0);
    }

    #[test]
    fn the_unit_scale_gives_standard_deviation_one() {
        // The variance s²π²/3, by the midpoint rule over ±40 deviations of
        // the density σ'(z / s) / s.
        let s = unit_scale();
        let h = 1e-3;
        let var: f64 = (-40_000..40_000)
            .map(|i| {
                let z = (f64::from(i) + 0.5) * h;
                let p = logistic(z / s);
                z * z * p * (1.0 - p) / s * h
            })
            .sum();
        assert!((var - 1.0).abs() < 1e-6, "variance {var}");
    }
}
