//! The options listed for people (`leiserchess options`): in `uci` order,
//! each with its default, range and what it does. docs/OPTIONS.md's
//! table is the `--markdown` form, which a test keeps equal to it.

use super::entry::options;
use crate::declaration::Kind;

/// An option as a person reads it.
pub struct Row {
    pub name: &'static str,
    pub default: String,
    pub range: String,
    pub about: &'static str,
}

/// Every option of this build, in `uci` order.
pub fn rows() -> Vec<Row> {
    options()
        .map(|o| {
            let (default, range) = match o.kind() {
                Kind::Spin { min, max } => (o.default().to_string(), format!("{min}..{max}")),
                Kind::Check => ((o.default() != 0).to_string(), "true, false".to_string()),
                Kind::Combo { choices } => (
                    choices[o.default() as usize].to_string(),
                    choices.join(", "),
                ),
                Kind::Text => ("(empty)".to_string(), "a file".to_string()),
                Kind::Button => (String::new(), "(a button)".to_string()),
            };
            Row {
                name: o.name(),
                default,
                range,
                about: o.about(),
            }
        })
        .collect()
}

/// The rows as a Markdown table.
pub fn markdown() -> String {
    let mut out = String::from("| option | default | range | what it does |\n|---|---|---|---|\n");
    for r in rows() {
        out += &format!(
            "| `{}` | {} | {} | {} |\n",
            r.name, r.default, r.range, r.about
        );
    }
    out
}

/// The rows as aligned text, for a terminal.
pub fn plain() -> String {
    let rows = rows();
    let width = |f: fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0);
    let (n, d, g) = (
        width(|r| r.name.len()),
        width(|r| r.default.len()),
        width(|r| r.range.len()),
    );
    let mut out = format!(
        "{:n$}  {:d$}  {:g$}  what it does\n",
        "option", "default", "range"
    );
    for r in &rows {
        out += &format!(
            "{:n$}  {:d$}  {:g$}  {}\n",
            r.name, r.default, r.range, r.about
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_a_row_with_its_default_and_range() {
        let table = markdown();
        let rows: Vec<&str> = table.lines().skip(2).collect();
        assert_eq!(rows.len(), options().count());
        assert!(rows.contains(&"| `threads` | 1 | 1..64 | Search threads |"));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("| `Search` | hybrid | pvs, mcts, bestfirst, hybrid |")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("| `use_nnue` | true | true, false |")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("| `EvalFile` | (empty) | a file |")));
        assert_eq!(plain().lines().count(), rows.len() + 1);
    }

    #[test]
    fn every_option_says_what_it_does() {
        for o in options() {
            assert!(!o.about().is_empty(), "{} has no `about`", o.name());
            assert!(
                !o.about().contains('|'),
                "{}'s `about` breaks the table",
                o.name()
            );
        }
    }
}
