//! The final table: one line per engine (games, W/D/L, score, Elo with
//! its 95% interval, LOS, draws, faults), and the SPRT's result.

use crate::config::spec::TournamentSpec;
use crate::stats::elo;
use crate::stats::sprt::sprt_bounds;
use crate::tournament::run::Summary;
use crate::tournament::standings::Standing;

/// The Elo estimate the table shows for `st`: the pentanomial one where
/// there are pairs, unless all of them scored the same while the games
/// did not. The dashboard and `autotest report` show the same.
pub fn estimate(st: &Standing) -> Option<elo::Estimate> {
    let wdl = elo::estimate_wdl(st.wins, st.draws, st.losses);
    match elo::estimate_penta(st.pairs) {
        Some(p) if p.hi > p.lo || wdl.is_some_and(|w| w.hi <= w.lo) => Some(p),
        _ => wdl,
    }
}

/// The final table: one line per engine.
pub fn table(spec: &TournamentSpec, s: &Summary) -> String {
    let mut out = format!(
        "{:<16} {:>6} {:>6} {:>6} {:>6} {:>7} {:>17} {:>6} {:>6}  {}\n",
        "engine", "games", "wins", "draws", "losses", "score", "Elo ±95%", "LOS", "draws", "faults"
    );
    for (e, st) in spec.engines.iter().zip(&s.standings) {
        let est = estimate(st);
        let games = st.games().max(1) as f64;
        let score = (st.wins as f64 + st.draws as f64 / 2.0) / games;
        let (elo, los) = match est {
            Some(est) => (
                elo::elo_shown(&est, st.games(), 1),
                format!("{:.1}%", est.los * 100.0),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        let faults: Vec<String> = st.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        out += &format!(
            "{:<16} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>17} {:>6} {:>5.1}%  {}\n",
            e.name,
            st.games(),
            st.wins,
            st.draws,
            st.losses,
            score * 100.0,
            elo,
            los,
            st.draws as f64 / games * 100.0,
            if faults.is_empty() {
                "none".to_string()
            } else {
                faults.join(", ")
            }
        );
    }
    if let Some((llr, d)) = s.sprt {
        let t = spec.sprt.expect("an SPRT result comes from an SPRT spec");
        let (lo, hi) = sprt_bounds(t.alpha, t.beta);
        out += &format!(
            "SPRT elo0 {} elo1 {}: LLR {llr:.2} [{lo:.2}, {hi:.2}] {d:?}\n",
            t.elo0, t.elo1
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::course_file::parse_course_config;
    use crate::tournament::standings::Standing;

    fn summary(standings: Vec<Standing>) -> Summary {
        Summary {
            standings,
            games: Vec::new(),
            sprt: None,
        }
    }

    fn two_engines() -> TournamentSpec {
        parse_course_config("player = a\ninvoke = e\nplayer = b\ninvoke = e\n").unwrap()
    }

    /// A clean sweep shows a one-sided bound, never `± 0.0`.
    #[test]
    fn table_shows_bounds_at_0_and_100_percent() {
        let won = Standing {
            wins: 10,
            pairs: [0, 0, 0, 0, 5],
            ..Standing::default()
        };
        let lost = Standing {
            losses: 10,
            pairs: [5, 0, 0, 0, 0],
            ..Standing::default()
        };
        let table = table(&two_engines(), &summary(vec![won, lost]));
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[1].contains("> +182.7"), "{table}");
        assert!(lines[2].contains("< -182.7"), "{table}");
        assert!(
            !table.contains("± 0.0") && !table.contains("inf"),
            "{table}"
        );
    }

    /// Pairs that all scored the same (a win and a draw each) show the
    /// games' interval instead of a zero-width one; all draws say so.
    #[test]
    fn table_without_spread_in_the_pairs() {
        let even = Standing {
            wins: 4,
            draws: 4,
            pairs: [0, 0, 0, 4, 0],
            ..Standing::default()
        };
        let drawn = Standing {
            draws: 8,
            pairs: [0, 0, 4, 0, 0],
            ..Standing::default()
        };
        let table = table(&two_engines(), &summary(vec![even, drawn]));
        let lines: Vec<&str> = table.lines().collect();
        let wdl = elo::estimate_wdl(4, 4, 0).unwrap();
        assert!(
            lines[1].contains(&elo::elo_shown(&wdl, 8, 1)) && wdl.hi > wdl.lo,
            "{table}"
        );
        assert!(lines[2].contains("+0.0 (no spread)"), "{table}");
        assert!(!table.contains("± 0.0"), "{table}");
    }
}
