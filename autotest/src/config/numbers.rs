//! Numbers as the command line and course config files write them: whole
//! numbers, real numbers, seconds, and cutechess time controls. Every
//! parser of autotest reads its numbers here, so the same mistake gets the
//! same message wherever it is made.
//!
//! Each function takes the text and `what` it is (a flag, a key, a field)
//! and returns a message that names `what` and quotes the text; the caller
//! adds where it was (a line, an argument).

use crate::config::spec::Clock;
use std::fmt::Display;
use std::str::FromStr;

/// A whole number written with digits only (no sign, no spaces).
pub fn whole<T: FromStr>(s: &str, what: &str) -> Result<T, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} must be a whole number, got '{s}'"));
    }
    s.parse().map_err(|_| format!("{what} is too large: '{s}'"))
}

/// `n` if it is at least `min`.
pub fn at_least<T: PartialOrd + Display>(n: T, min: T, what: &str) -> Result<T, String> {
    if n < min {
        return Err(format!("{what} must be at least {min}"));
    }
    Ok(n)
}

/// `n` if it is at most `max`.
pub fn at_most<T: PartialOrd + Display>(n: T, max: T, what: &str) -> Result<T, String> {
    if n > max {
        return Err(format!("{what} must be at most {max}"));
    }
    Ok(n)
}

/// A finite real number, as Rust writes one (`-1.5`, `2`, `1e3`).
pub fn real(s: &str, what: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{what} must be a number, got '{s}'")),
    }
}

/// Seconds as a decimal number (`12`, `0.5`, `.25`, `3.`), in whole ms.
pub fn seconds_ms(s: &str, what: &str) -> Result<u64, String> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !digits(int) || !digits(frac) {
        return Err(format!("{what} must be a number of seconds, got '{s}'"));
    }
    let ms = (s
        .parse::<f64>()
        .map_err(|_| format!("{what}: bad number '{s}'"))?
        * 1000.0)
        .round();
    if ms >= u64::MAX as f64 {
        return Err(format!("{what} is too large: '{s}'"));
    }
    Ok(ms as u64)
}

/// A time in seconds or as `MINUTES:SECONDS`, in ms.
pub fn time_ms(s: &str, what: &str) -> Result<u64, String> {
    match s.split_once(':') {
        None => seconds_ms(s, what),
        Some((m, sec)) => {
            let minutes: u64 = whole(m, what)?;
            minutes
                .checked_mul(60_000)
                .and_then(|ms| ms.checked_add(seconds_ms(sec, what).ok()?))
                .ok_or_else(|| format!("{what} must be seconds or MINUTES:SECONDS, got '{s}'"))
        }
    }
}

/// A cutechess time control: `[MOVES/]BASE[+INC]` (seconds, decimals
/// allowed, BASE also `M:SS`), or `inf` for no clock (`None`). `MOVES`
/// gives a [`Clock::Period`]; without it (or with 0) it is a
/// [`Clock::Fischer`]. A period clock with an increment has no
/// [`Clock`] and is refused.
pub fn time_control(s: &str) -> Result<Option<Clock>, String> {
    if s.eq_ignore_ascii_case("inf") {
        return Ok(None);
    }
    let bad =
        |why: String| format!("bad time control '{s}' (want [MOVES/]SECONDS[+INC] or inf): {why}");
    let (moves, rest) = match s.split_once('/') {
        Some((m, rest)) => (whole::<u32>(m, "MOVES").map_err(bad)?, rest),
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = time_ms(base, "the base time").map_err(bad)?;
    let inc_ms = match inc {
        Some(i) => seconds_ms(i, "the increment").map_err(bad)?,
        None => 0,
    };
    if base_ms == 0 {
        return Err(bad("the base time must be positive".to_string()));
    }
    if moves == 0 {
        return Ok(Some(Clock::Fischer { base_ms, inc_ms }));
    }
    if inc_ms > 0 {
        return Err(bad(
            "moves per period with an increment is not supported".to_string()
        ));
    }
    Ok(Some(Clock::Period {
        moves,
        period_ms: base_ms,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base_ms: u64, inc_ms: u64) -> Option<Clock> {
        Some(Clock::Fischer { base_ms, inc_ms })
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(whole::<u32>("0", "depth"), Ok(0));
        assert_eq!(whole::<u64>("007", "nodes"), Ok(7));
        assert_eq!(
            whole::<u32>("4294967295", "depth"),
            Ok(u32::MAX),
            "the largest"
        );
        for bad in ["", "x", "-1", "+1", "1.5", "1e6", " 1", "1 ", "٣"] {
            assert_eq!(
                whole::<u32>(bad, "depth"),
                Err(format!("depth must be a whole number, got '{bad}'")),
                "{bad}"
            );
        }
        assert_eq!(
            whole::<u32>("4294967296", "depth"),
            Err("depth is too large: '4294967296'".to_string())
        );
        assert_eq!(
            whole::<u8>("256", "-games"),
            Err("-games is too large: '256'".to_string())
        );
    }

    #[test]
    fn bounds() {
        assert_eq!(at_least(1u32, 1, "cpus"), Ok(1));
        assert_eq!(
            at_least(0u32, 1, "cpus"),
            Err("cpus must be at least 1".to_string())
        );
        assert_eq!(at_most(5u32, 5, "score"), Ok(5));
        assert_eq!(
            at_most(6u32, 5, "score"),
            Err("score must be at most 5".to_string())
        );
    }

    #[test]
    fn real_numbers() {
        assert_eq!(real("-1.5", "elo0"), Ok(-1.5));
        assert_eq!(real("2", "elo1"), Ok(2.0));
        assert_eq!(real("1e3", "x"), Ok(1000.0));
        for bad in ["", "x", "nan", "inf", "-inf", "1e999", "1,5"] {
            assert_eq!(
                real(bad, "ALPHA"),
                Err(format!("ALPHA must be a number, got '{bad}'")),
                "{bad}"
            );
        }
    }

    #[test]
    fn seconds_and_times() {
        assert_eq!(seconds_ms("12", "st"), Ok(12_000));
        assert_eq!(seconds_ms("0.5", "st"), Ok(500));
        assert_eq!(seconds_ms(".25", "st"), Ok(250));
        assert_eq!(seconds_ms("3.", "st"), Ok(3_000));
        assert_eq!(seconds_ms("0.0004", "st"), Ok(0), "rounded to ms");
        for bad in ["", ".", "-1", "1e3", "1:00", "inf", "1.2.3", "x"] {
            assert_eq!(
                seconds_ms(bad, "st"),
                Err(format!("st must be a number of seconds, got '{bad}'")),
                "{bad}"
            );
        }
        let huge = "9".repeat(30);
        assert_eq!(
            seconds_ms(&huge, "st"),
            Err(format!("st is too large: '{huge}'"))
        );
        assert_eq!(time_ms("1:30", "base"), Ok(90_000));
        assert_eq!(time_ms("2:00.5", "base"), Ok(120_500));
        assert_eq!(time_ms("45", "base"), Ok(45_000));
        assert_eq!(
            time_ms("x:30", "base"),
            Err("base must be a whole number, got 'x'".to_string())
        );
        assert_eq!(
            time_ms("1:x", "base"),
            Err("base must be seconds or MINUTES:SECONDS, got '1:x'".to_string())
        );
    }

    #[test]
    fn time_controls() {
        let period = |moves, period_ms| Ok(Some(Clock::Period { moves, period_ms }));
        assert_eq!(time_control("40/60"), period(40, 60_000));
        assert_eq!(time_control("60+0.6"), Ok(fischer(60_000, 600)));
        assert_eq!(time_control("0.5+0.05"), Ok(fischer(500, 50)));
        assert_eq!(time_control("10+0.1"), Ok(fischer(10_000, 100)));
        assert_eq!(time_control("60"), Ok(fischer(60_000, 0)));
        assert_eq!(time_control(".5+.01"), Ok(fischer(500, 10)));
        assert_eq!(time_control("inf"), Ok(None));
        assert_eq!(time_control("INF"), Ok(None));
        assert_eq!(time_control("0/60+1"), Ok(fischer(60_000, 1000)));
        assert_eq!(time_control("40/2:00"), period(40, 120_000));
        assert_eq!(time_control("1:30+1"), Ok(fischer(90_000, 1000)));
        assert_eq!(time_control("40/60+0"), period(40, 60_000));
        for bad in [
            "",
            "abc",
            "60+",
            "+1",
            "/60",
            "40/",
            "x/60",
            "-60",
            "60+-1",
            "60s",
            "1e3",
            "nan",
            "infinity",
            "0",
            "0+1",
            "60++1",
            "40/60+0.6",
            "1:x",
            "40/60/2",
            "60+0.5+1",
        ] {
            let e = time_control(bad).expect_err(bad);
            assert!(e.contains("bad time control"), "{bad}: {e}");
        }
        assert!(time_control("40/60+0.6")
            .unwrap_err()
            .contains("not supported"));
        // The part at fault is named.
        assert_eq!(
            time_control("x/60"),
            Err("bad time control 'x/60' (want [MOVES/]SECONDS[+INC] or inf): MOVES must be a whole number, got 'x'".to_string())
        );
        assert!(time_control("60+x")
            .unwrap_err()
            .ends_with("the increment must be a number of seconds, got 'x'"));
    }
}
