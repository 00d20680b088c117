//! The `info` lines of a search's completed iteration: one line, or with
//! `MultiPV` above 1 one line a root move, best first, each with its
//! `multipv k`; with `UCI_ShowWDL` each score is followed by `wdl W D L`,
//! per mille from the fitted model (`eval::wdl`). With the defaults the
//! line is exactly the one referees have always read.

use crate::eval::wdl::wdl;
use crate::search::score_text;
use crate::search::Iteration;

/// How the lines are written: the `MultiPV` and `UCI_ShowWDL` options.
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    pub multipv: bool,
    pub wdl: bool,
}

/// The iteration's lines, each ending in a newline.
pub(super) fn lines(it: &Iteration, style: Style, ms: u64, nodes: u64, hashfull: u32) -> String {
    let mut out = String::new();
    for (k, line) in it.lines.iter().enumerate() {
        let multipv = if style.multipv {
            format!(" multipv {}", k + 1)
        } else {
            String::new()
        };
        let wdl = if style.wdl {
            // A King zap's score is far past the model's range: 1000 0 0.
            let [w, d, l] = wdl(line.score);
            format!(" wdl {w} {d} {l}")
        } else {
            String::new()
        };
        let pv: Vec<String> = line.pv.iter().map(|m| m.to_string()).collect();
        out += &format!(
            "info depth {} seldepth {}{multipv} score {}{wdl} nodes {nodes} nps {} time {ms} hashfull {hashfull} pv {}\n",
            it.depth,
            it.seldepth,
            score_text(line.score),
            nodes * 1000 / ms.max(1),
            pv.join(" ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;
    use crate::search::Line;
    use crate::search::MATE;

    fn iteration(scores: &[i32]) -> Iteration {
        let mv = |t: &str| Move::parse(t).unwrap();
        let lines: Vec<Line> = scores
            .iter()
            .zip(["h0L", "g4f5", "h0g0"])
            .map(|(&score, m)| Line {
                score,
                pv: vec![mv(m), mv("b3L")],
                visits: None,
            })
            .collect();
        Iteration {
            depth: 7,
            seldepth: 9,
            score: lines[0].score,
            nodes: 0,
            pv: lines[0].pv.clone(),
            lines,
        }
    }

    #[test]
    fn one_line_by_default_as_referees_read_it() {
        let style = Style {
            multipv: false,
            wdl: false,
        };
        assert_eq!(
            lines(&iteration(&[31]), style, 2000, 5000, 7),
            "info depth 7 seldepth 9 score cp 31 nodes 5000 nps 2500 time 2000 hashfull 7 pv h0L b3L\n"
        );
    }

    #[test]
    fn multipv_and_wdl_lines() {
        let style = Style {
            multipv: true,
            wdl: true,
        };
        let text = lines(&iteration(&[MATE - 3, 0, -40]), style, 10, 10, 0);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 3);
        for (k, row) in rows.iter().enumerate() {
            assert!(row.contains(&format!(" multipv {} score ", k + 1)), "{row}");
            let w: Vec<u32> = row
                .split(" wdl ")
                .nth(1)
                .unwrap()
                .split(' ')
                .take(3)
                .map(|n| n.parse().unwrap())
                .collect();
            assert_eq!(w.iter().sum::<u32>(), 1000, "{row}");
        }
        assert!(
            rows[0].contains("score mate 2 wdl 1000 0 0 "),
            "{}",
            rows[0]
        );
        assert!(rows[2].contains("score cp -40 wdl "), "{}", rows[2]);
        let [w, _, l] = wdl(0);
        assert_eq!(w, l, "an even score is as likely won as lost");
    }
}
