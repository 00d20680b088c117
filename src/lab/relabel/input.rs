//! `relabel`'s inputs, of one format, and their stretches: format 2's
//! records in stretches of a fixed count, format 3's games whole (a
//! stretch ends at the first game that brings it to the count), so a
//! chain's structure goes to the output as it came.

use crate::lab::data::chain::Chain;
use crate::lab::data::{self, Format, Sample};
use std::ops::Range;
use std::path::PathBuf;

/// Every input file's positions, one file after another.
pub enum Input {
    Records(Vec<Sample>),
    Chains(Vec<Chain>),
}

impl Input {
    /// The inputs, each read whole and checked first, so that an error
    /// names its file and place before any search; refused if they are of
    /// more than one format.
    pub fn read(files: &[PathBuf]) -> Result<Input, String> {
        let first = data::format(&files[0])?;
        let mut input = match first {
            Format::Records => Input::Records(Vec::new()),
            Format::Chains => Input::Chains(Vec::new()),
        };
        for f in files {
            let format = data::format(f)?;
            if format != first {
                return Err(format!(
                    "{} is of {format} and {} of {first}: relabel's inputs are of one format",
                    f.display(),
                    files[0].display()
                ));
            }
            match &mut input {
                Input::Records(all) => all.extend(data::read(f)?),
                Input::Chains(all) => {
                    for c in data::chains(f)? {
                        all.push(c?);
                    }
                }
            }
        }
        Ok(input)
    }

    pub fn format(&self) -> Format {
        match self {
            Input::Records(_) => Format::Records,
            Input::Chains(_) => Format::Chains,
        }
    }

    /// The kept positions, all files together.
    pub fn positions(&self) -> usize {
        match self {
            Input::Records(r) => r.len(),
            Input::Chains(c) => c.iter().map(Chain::kept).sum(),
        }
    }

    /// The records or games before the first `done` positions' end; `None`
    /// if no record or game ends there.
    pub fn units_before(&self, done: usize) -> Option<usize> {
        match self {
            Input::Records(r) => (done <= r.len()).then_some(done),
            Input::Chains(chains) => {
                let mut sum = 0;
                for (g, c) in chains.iter().enumerate() {
                    if sum == done {
                        return Some(g);
                    }
                    sum += c.kept();
                }
                (sum == done).then_some(chains.len())
            }
        }
    }

    /// The stretches from record or game `from` on: the units of each and
    /// the positions they hold, each at least `stretch` but the last.
    pub fn stretches(&self, from: usize, stretch: usize) -> Vec<(Range<usize>, usize)> {
        let mut out = Vec::new();
        match self {
            Input::Records(r) => {
                let mut at = from;
                while at < r.len() {
                    let end = (at + stretch).min(r.len());
                    out.push((at..end, end - at));
                    at = end;
                }
            }
            Input::Chains(chains) => {
                let (mut start, mut n) = (from, 0);
                for (g, c) in chains.iter().enumerate().skip(from) {
                    n += c.kept();
                    if n >= stretch {
                        out.push((start..g + 1, n));
                        (start, n) = (g + 1, 0);
                    }
                }
                if start < chains.len() {
                    out.push((start..chains.len(), n));
                }
            }
        }
        out
    }
}
