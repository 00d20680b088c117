//! The measured table's text: `#` comment lines (the first names the
//! command that measured it), then one line a position,
//!
//! ```text
//! s0 s1 … sD | n0 n1 … nD | FEN
//! ```
//!
//! the position's score (cp, side to move's view; mates as the search
//! gives them, beyond ±`MATE_BOUND`) at each depth 0 to D, its nodes at
//! each depth (depth 0: the quiescence search's; depth d ≥ 1: the
//! iterative deepening's total up to d), and the position. Every line has
//! the same depths.

use crate::rules::fen;

/// One position measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The score at each depth 0..=D.
    pub scores: Vec<i32>,
    /// The nodes at each depth 0..=D.
    pub nodes: Vec<u64>,
    pub fen: String,
}

impl Row {
    /// The deepest depth, D.
    pub fn depth(&self) -> usize {
        self.scores.len() - 1
    }

    /// The row's line, without its newline.
    pub fn line(&self) -> String {
        let words = |v: Vec<String>| v.join(" ");
        format!(
            "{} | {} | {}",
            words(self.scores.iter().map(i32::to_string).collect()),
            words(self.nodes.iter().map(u64::to_string).collect()),
            self.fen
        )
    }
}

/// A table read back: its comment lines (without `#`) and its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub comments: Vec<String>,
    pub rows: Vec<Row>,
}

/// Parses a table; an error names the line (1-based).
pub fn parse(text: &str) -> Result<Table, String> {
    let mut table = Table {
        comments: Vec::new(),
        rows: Vec::new(),
    };
    for (n, line) in text.lines().enumerate() {
        let at = |what: String| format!("line {}: {what}", n + 1);
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            table.comments.push(comment.trim().to_string());
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let row = parse_row(line).map_err(at)?;
        if let Some(first) = table.rows.first() {
            if first.depth() != row.depth() {
                return Err(at(format!(
                    "depths 0 to {}, the first line's 0 to {}",
                    row.depth(),
                    first.depth()
                )));
            }
        }
        table.rows.push(row);
    }
    Ok(table)
}

fn parse_row(line: &str) -> Result<Row, String> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let [scores, nodes, position] = parts[..] else {
        return Err(format!(
            "want 'scores | nodes | FEN', got {} '|'-separated fields",
            parts.len()
        ));
    };
    let scores: Vec<i32> = numbers(scores, "score")?;
    let nodes: Vec<u64> = numbers(nodes, "node count")?;
    if scores.len() < 2 || scores.len() != nodes.len() {
        return Err(format!(
            "{} scores and {} node counts: want the same number, at least 2 (depths 0 and 1)",
            scores.len(),
            nodes.len()
        ));
    }
    fen::parse(position).map_err(|e| format!("bad FEN '{position}': {e}"))?;
    Ok(Row {
        scores,
        nodes,
        fen: position.to_string(),
    })
}

fn numbers<T: std::str::FromStr>(text: &str, what: &str) -> Result<Vec<T>, String> {
    text.split_whitespace()
        .map(|w| w.parse().map_err(|_| format!("'{w}' is not a {what}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_ones_are_named() {
        let row = Row {
            scores: vec![12, -3, 31999],
            nodes: vec![5, 40, 900],
            fen: fen::to_fen(&fen::parse(fen::STARTPOS).unwrap()),
        };
        let text = format!("# made by hand\n\n{}\n{}\n", row.line(), row.line());
        let t = parse(&text).unwrap();
        assert_eq!(t.comments, ["made by hand"]);
        assert_eq!(t.rows, [row.clone(), row.clone()]);
        let start = &row.fen;
        for (bad, what) in [
            (
                "1 2 | 3 4".to_string(),
                "line 3: want 'scores | nodes | FEN', got 2",
            ),
            (format!("1 x | 3 4 | {start}"), "line 3: 'x' is not a score"),
            (
                format!("1 2 | 3 -4 | {start}"),
                "line 3: '-4' is not a node count",
            ),
            (
                format!("1 2 | 3 | {start}"),
                "line 3: 2 scores and 1 node counts",
            ),
            (
                format!("1 | 3 | {start}"),
                "line 3: 1 scores and 1 node counts",
            ),
            (
                "1 2 | 3 4 | nonsense".to_string(),
                "line 3: bad FEN 'nonsense'",
            ),
            (
                format!("1 2 | 3 4 | {start}"),
                "line 3: depths 0 to 1, the first line's 0 to 2",
            ),
        ] {
            let e = parse(&format!("# c\n{}\n{bad}\n", row.line())).unwrap_err();
            assert!(e.starts_with(what), "{bad}: {e}");
        }
    }
}
