//! `leiserchess fit-error`: fits the best-first search's error model
//! ([`crate::search::bestfirst::model`]) to self-play positions: how far a
//! score moves when the search goes deeper, the shape of that move, and
//! what a depth costs.
//!
//! `measure` searches positions of a `datagen` file and records each
//! one's score and nodes at every depth from 0 (the quiescence search) to
//! D, one line a position in the table of `table`; `fit` turns the rows
//! into the model (its doc says what is fitted and how); `plot` draws it.
//! The measurement is the slow part (at depth 8 about a second a position), so
//! `--table` keeps it: rows are appended as they are measured, a stopped
//! run (Ctrl-C) keeps its finished positions, the same command goes on
//! after them, and `--from-table` fits a table again without searching.

pub mod fit;
pub mod measure;
pub mod plot;
pub mod table;

use super::{data, Output};
use crate::search::bestfirst::model::ErrorModel;
use clap::builder::RangedU64ValueParser;
use clap::value_parser;
use fit::{Choice, Fit, MIN_POSITIONS, PLIES};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use table::Row;

/// Where the engine embeds the model from.
pub const DEFAULT_OUT: &str = "src/search/bestfirst/error-model.txt";

/// Fit the best-first search's error model to self-play positions.
///
/// Searches --positions positions spread through DATA to --depth on one
/// thread (the default parameters and table, a cleared table each),
/// recording every depth's score and nodes; fits how far the score moves
/// when the search goes k plies deeper, the shape of that move and the
/// nodes a depth costs; prints the numbers and writes the model to --out.
/// Give --table to keep the measurements: a stopped run keeps its
/// finished positions and the same command goes on after them.
#[derive(clap::Parser, Debug, PartialEq)]
#[command(name = "fit-error")]
pub struct Args {
    /// Self-play data (`datagen`'s records).
    #[arg(
        value_name = "DATA",
        required_unless_present = "from_table",
        conflicts_with = "from_table"
    )]
    pub data: Option<PathBuf>,
    /// Positions to search, 10..100000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 400,
        value_parser = RangedU64ValueParser::<usize>::new().range(MIN_POSITIONS as u64..=100_000),
        allow_negative_numbers = true,
        conflicts_with = "from_table"
    )]
    pub positions: usize,
    /// Depth of each search, 2..30.
    #[arg(
        long,
        value_name = "D",
        default_value_t = 8,
        value_parser = value_parser!(u32).range(2..=30),
        allow_negative_numbers = true,
        conflicts_with = "from_table"
    )]
    pub depth: u32,
    /// The model's file.
    #[arg(long, value_name = "PATH", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// Draw the fit to this SVG file.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Keep the measurements in this table (a line a position), or go on
    /// from the positions it already holds.
    #[arg(long, value_name = "PATH", conflicts_with = "from_table")]
    pub table: Option<PathBuf>,
    /// Fit the measurements of this table instead of searching.
    #[arg(long, value_name = "PATH")]
    pub from_table: Option<PathBuf>,
    /// The shape kept: normal, logistic, empirical, or best (the lowest
    /// Kolmogorov–Smirnov distance on held-out positions).
    #[arg(long, value_name = "NAME", default_value = "best", value_parser = Choice::parse)]
    pub family: Choice,
    /// Fit the spread over deepenings of 1 to K plies (at most the
    /// depth), 1..30.
    #[arg(
        long,
        value_name = "K",
        default_value_t = PLIES,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=30),
        allow_negative_numbers = true
    )]
    pub plies: usize,
}

impl Args {
    /// The fit's flags that are not their defaults, as typed.
    fn fit_flags(&self) -> String {
        let mut flags = String::new();
        if self.plies != PLIES {
            flags += &format!(" --plies {}", self.plies);
        }
        if let Choice::Only(f) = self.family {
            flags += &format!(" --family {}", f.name());
        }
        flags
    }
}

/// `leiserchess fit-error` (see [`Args`]).
pub fn command(a: &Args) -> Result<(), String> {
    let mut out = Output::open("--out", &a.out)?;
    let mut svg = a
        .svg
        .as_deref()
        .map(|path| Output::open("--svg", path))
        .transpose()?;
    let mut table_out = a
        .table
        .as_deref()
        .map(|path| Output::open("--table", path))
        .transpose()?;
    let (rows, name, source) = match (&a.from_table, &a.data) {
        (Some(path), _) => from_table(path, &a.fit_flags())?,
        (None, Some(data)) => {
            let rows = measure_data(a, data, table_out.as_mut())?;
            let source = vec![format!(
                "leiserchess fit-error {} --positions {} --depth {}{}",
                data.display(),
                a.positions,
                a.depth,
                a.fit_flags()
            )];
            (rows, data.display().to_string(), source)
        }
        (None, None) => return Err("fit-error: give DATA or --from-table".to_string()),
    };
    let f = fit::fit(&rows, a.family, a.plies).map_err(|e| format!("{name}: {e}"))?;
    print!("{}", report(&f));
    let text = model_text(&f, &source);
    // The engine embeds what is written: it must read back.
    ErrorModel::parse(&text).map_err(|e| format!("the fitted model does not parse: {e}"))?;
    out.replace(text.as_bytes())?;
    println!("wrote {}", out.path().display());
    if let Some(svg) = &mut svg {
        let title = format!(
            "Error model: spread {:.1} cp × k^{:.2}, family {}; {} positions, depths 0-{}",
            f.model.error_cp,
            f.model.growth,
            f.model.family.name(),
            f.positions,
            f.by_depth.len()
        );
        svg.replace(plot::svg(&f, &title)?.as_bytes())?;
        println!("wrote {}", svg.path().display());
    }
    Ok(())
}

/// The rows of the table at `path`, its name, and the command lines that
/// made the model: this one (with the fit's `flags`) and the one that
/// measured the table (its first comment line, if any).
fn from_table(path: &Path, flags: &str) -> Result<(Vec<Row>, String, Vec<String>), String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("--from-table {name}: {e}"))?;
    let t = table::parse(&text).map_err(|e| format!("{name}: {e}"))?;
    let mut source = vec![format!("leiserchess fit-error --from-table {name}{flags}")];
    source.extend(t.comments.first().map(|c| format!("from the table of {c}")));
    Ok((t.rows, name, source))
}

/// The rows `a` asks for from `data`, kept in `table` if given.
fn measure_data(a: &Args, data: &Path, table: Option<&mut Output>) -> Result<Vec<Row>, String> {
    let name = data.display();
    let samples = data::read(data)?;
    let boards = measure::select(&samples, a.positions).map_err(|have| {
        format!(
            "{name}: {have} positions with a legal move, fewer than --positions {}",
            a.positions
        )
    })?;
    eprintln!(
        "fit-error: {name}: {} positions; searching {} of them to depth {}",
        samples.len(),
        boards.len(),
        a.depth
    );
    let header = [
        format!(
            "leiserchess fit-error {name} --positions {} --depth {}",
            a.positions, a.depth
        ),
        format!(
            "a line a position: scores at depths 0..{d} | nodes at depths 0..{d} | FEN",
            d = a.depth
        ),
    ];
    measure::run(&boards, a.depth, &header, table)
}

/// Every number of the fit, as printed.
pub fn report(f: &Fit) -> String {
    let mut s = String::new();
    let m = &f.model;
    let changes: usize = f.by_plies.iter().map(|p| p.count).sum();
    let _ = writeln!(
        s,
        "{} positions, depths 0 to {}: {changes} changes over {} between non-mate scores",
        f.positions,
        f.by_depth.len(),
        match f.by_plies.len() {
            1 => "1 ply".to_string(),
            k => format!("1 to {k} plies"),
        }
    );
    let _ = writeln!(
        s,
        "the change by plies deepened k (spread: root mean square about 0):"
    );
    let _ = writeln!(s, "   k  changes  mean cp  spread cp  fit cp  residual");
    for (i, p) in f.by_plies.iter().enumerate() {
        let line = m.spread((i + 1) as f64);
        let _ = writeln!(
            s,
            "  {:2}  {:7}  {:+7.1}  {:9.1}  {line:6.1}  {:+8.1}",
            i + 1,
            p.count,
            p.mean,
            p.rms,
            p.rms - line
        );
    }
    let _ = writeln!(
        s,
        "error_cp {:.2} cp, growth {:.3}: s_k = error_cp × k^growth by least squares in logarithms",
        m.error_cp, m.growth
    );
    let _ = writeln!(
        s,
        "for comparison, the design's band linear in k (least squares through the origin): {:.2} cp a ply",
        f.line
    );
    let _ = writeln!(s, "one ply's change by the shallower depth d:");
    let _ = writeln!(s, "   d  changes  mean cp  spread cp");
    for (d, p) in f.by_depth.iter().enumerate() {
        let _ = writeln!(s, "  {d:2}  {:7}  {:+7.1}  {:9.1}", p.count, p.mean, p.rms);
    }
    let [even, odd] = f.parity;
    let _ = writeln!(
        s,
        "odd-even: one ply's change from even d mean {:+.1} cp (spread {:.1}), from odd d mean {:+.1} cp (spread {:.1})",
        even.mean, even.rms, odd.mean, odd.rms
    );
    let c = &f.cost;
    let _ = writeln!(
        s,
        "nodes by depth (geometric mean over the positions) and the line fitted over depths 1 up:"
    );
    let _ = writeln!(s, "   d         nodes          line  ratio");
    for (d, g) in c.geomean.iter().enumerate() {
        let line = c.nodes0 * c.ebf.powi(d as i32);
        let _ = writeln!(s, "  {d:2}  {g:12.1}  {line:12.1}  {:5.2}", g / line);
    }
    let _ = writeln!(
        s,
        "ebf {:.3}, nodes0 {:.1}, qnodes {:.1} (the quiescence search, measured)",
        c.ebf, c.nodes0, c.geomean[0]
    );
    let _ = writeln!(
        s,
        "the shape of z = change / (error_cp × k^growth), {} changes; held out: the odd-numbered positions",
        f.z.len()
    );
    let _ = writeln!(s, "  family     log-lik/change  KS all  KS held out");
    for sh in &f.shapes {
        let ll = sh
            .log_likelihood
            .map_or("-".to_string(), |l| format!("{l:.4}"));
        let _ = writeln!(
            s,
            "  {:<9}  {ll:>14}  {:6.4}  {:11.4}",
            sh.family.name(),
            sh.ks,
            sh.held_out
        );
    }
    let _ = writeln!(s, "family {}", f.model.family.name());
    s
}

/// The model file: comment lines saying what made it and its key numbers,
/// then the model.
pub fn model_text(f: &Fit, source: &[String]) -> String {
    let mut s = String::new();
    for (i, line) in source.iter().enumerate() {
        let by = if i == 0 { "Written by " } else { "" };
        let _ = writeln!(s, "# {by}{line}");
    }
    let _ = writeln!(
        s,
        "# (src/lab/error_fit): {} positions searched to depth {} on one thread.",
        f.positions,
        f.by_depth.len()
    );
    let spreads: Vec<String> = f
        .by_plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let k = (i + 1) as f64;
            format!("k={k} {:.1} (fit {:.1})", p.rms, f.model.spread(k))
        })
        .collect();
    let _ = writeln!(
        s,
        "# Spread (cp) of the score's change over k plies: {}.",
        spreads.join(", ")
    );
    let _ = writeln!(
        s,
        "# The design's band, linear in k, would be {:.1} cp a ply (not used).",
        f.line
    );
    let ks: Vec<String> = f
        .shapes
        .iter()
        .map(|sh| format!("{} {:.4}", sh.family.name(), sh.held_out))
        .collect();
    let _ = writeln!(
        s,
        "# Kolmogorov-Smirnov distance held out: {}.",
        ks.join(", ")
    );
    let _ = writeln!(
        s,
        "# Nodes at depth 0 measured {:.1} (the line's nodes0 below is fitted over depths 1 up).",
        f.cost.geomean[0]
    );
    s + &f.model.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bestfirst::model::Family;
    use clap::Parser;

    fn parse(s: &str) -> Result<Args, String> {
        Args::try_parse_from(std::iter::once("fit-error").chain(s.split_whitespace()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn flags_parse_and_bad_ones_are_named() {
        let a = parse("d.bin --positions 60 --depth 6 --table t.txt --family logistic --plies 2")
            .unwrap();
        assert_eq!(
            a,
            Args {
                data: Some("d.bin".into()),
                positions: 60,
                depth: 6,
                out: DEFAULT_OUT.into(),
                svg: None,
                table: Some("t.txt".into()),
                from_table: None,
                family: Choice::Only(Family::Logistic),
                plies: 2,
            }
        );
        assert_eq!(a.fit_flags(), " --plies 2 --family logistic");
        let a = parse("--from-table t.txt --out m.txt --svg e.svg").unwrap();
        assert_eq!(a.fit_flags(), "");
        assert_eq!((a.data, a.family, a.plies), (None, Choice::Best, PLIES));
        for (line, named) in [
            ("", "<DATA>"),
            ("d.bin --positions 9", "'9' for '--positions <N>'"),
            ("d.bin --depth 1", "'1' for '--depth <D>'"),
            ("d.bin --family cauchy", "'cauchy' for '--family <NAME>'"),
            ("d.bin --from-table t.txt", "'--from-table <PATH>'"),
            ("--from-table t.txt --depth 5", "'--depth <D>'"),
            ("--from-table t.txt --table u.txt", "'--table <PATH>'"),
            ("d.bin --plies 0", "'0' for '--plies <K>'"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(named), "{line}: {e}");
        }
        let e = parse("d.bin --family x").unwrap_err();
        assert!(
            e.contains("not one of normal, logistic, empirical, best"),
            "{e}"
        );
    }
}
