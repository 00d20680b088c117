//! `leiserchess data`: `expand` (a data file as format 2 records) and
//! `info` (what a data file holds).

use super::{chain, games, open, Format, HEADER};
use std::path::PathBuf;

/// Data files: expanded to format 2, or described.
#[derive(clap::Parser, Clone, Debug, PartialEq)]
#[command(name = "data", arg_required_else_help = false)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Clone, Debug, PartialEq)]
pub enum Command {
    Expand(ExpandArgs),
    Info(InfoArgs),
}

/// Write a data file's kept positions as format 2 records, in order.
///
/// IN is of format 3 (game chains) or 2; OUT is written whole, a 16-byte
/// header then 20 bytes a position.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct ExpandArgs {
    /// The data file read.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The format 2 file written (replaced).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
}

/// Say what a data file holds.
///
/// Prints its format, games, plies, positions kept and bytes a position;
/// every game and record is read and checked on the way.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct InfoArgs {
    /// The data file.
    pub file: PathBuf,
}

/// `leiserchess data …`.
pub fn command(a: &Args) -> Result<(), String> {
    match &a.command {
        Command::Expand(e) => {
            let n = expand(&e.input, &e.out)?;
            eprintln!("data: {n} positions written to {}", e.out.display());
            Ok(())
        }
        Command::Info(i) => {
            println!("{}", info(&i.file)?);
            Ok(())
        }
    }
}

/// Writes `input`'s kept positions to `out` as format 2; how many.
pub fn expand(input: &std::path::Path, out: &std::path::Path) -> Result<u64, String> {
    let games = games(input)?;
    let mut output = crate::lab::Output::open("OUT", out)?;
    output.replace(&HEADER)?;
    let (mut buf, mut n) = (Vec::with_capacity(1 << 20), 0u64);
    for g in games {
        for s in g?.samples {
            // A read sample has both Kings and 16 pieces at most.
            buf.extend_from_slice(&super::encode(&s).expect("a read sample encodes"));
            n += 1;
        }
        if buf.len() >= 1 << 20 {
            output.append(&buf)?;
            buf.clear();
        }
    }
    output.append(&buf)?;
    Ok(n)
}

/// What `data info` says of the file at `path`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Info {
    pub format: Format,
    /// Games (format 3 only).
    pub games: Option<u64>,
    /// Plies, kept or left out (format 3 only).
    pub plies: Option<u64>,
    pub positions: u64,
    pub bytes: u64,
}

impl std::fmt::Display for Info {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}", self.format)?;
        if let (Some(g), Some(p)) = (self.games, self.plies) {
            write!(f, ", {g} games, {p} plies")?;
        }
        let per = self.bytes as f64 / self.positions.max(1) as f64;
        write!(
            f,
            ", {} positions kept, {} bytes, {per:.2} bytes a position",
            self.positions, self.bytes
        )
    }
}

/// The file at `path` read whole and described.
pub fn info(path: &std::path::Path) -> Result<Info, String> {
    let name = path.display().to_string();
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("{name}: {e}"))?
        .len();
    let o = open(path)?;
    let (mut games_n, mut plies, mut positions) = (0, 0, 0);
    match o.format {
        Format::Records => {
            for g in games(path)? {
                positions += g?.samples.len() as u64;
            }
        }
        Format::Chains => {
            let mut r = chain::Reader::new(o.body);
            while let Some(c) = r.next_chain().map_err(|e| format!("{name}: {e}"))? {
                games_n += 1;
                plies += c.plies().len() as u64;
                positions += c.kept() as u64;
            }
        }
    }
    let chains = o.format == Format::Chains;
    Ok(Info {
        format: o.format,
        games: chains.then_some(games_n),
        plies: chains.then_some(plies),
        positions,
        bytes,
    })
}
