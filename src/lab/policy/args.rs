//! `train-policy`'s command line.

use clap::builder::RangedU64ValueParser;
use clap::value_parser;
use std::path::PathBuf;

/// Train the move policy behind the Monte-Carlo tree search's priors.
///
/// Positions are taken evenly from the self-play data, labelled with the
/// move a fixed-depth PVS chooses (kept in the labels file, so that a
/// stopped or repeated run searches each position once), and the policy
/// is fitted to the labels by softmax cross-entropy. Prints the held-out
/// top-1 and top-3 agreement of the plain heuristic and of the policy,
/// and writes the policy of the best held-out loss to --out.
#[derive(clap::Parser, Clone, Debug, PartialEq)]
#[command(name = "train-policy")]
pub struct Args {
    /// Self-play data files (`datagen`'s).
    #[arg(value_name = "DATA", required = true)]
    pub files: Vec<PathBuf>,
    /// The policy file written.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The labels file, read and appended to (default: OUT.labels).
    #[arg(long, value_name = "FILE")]
    pub labels: Option<PathBuf>,
    /// Positions to label and train on, taken evenly from the data.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 40_000,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000_000),
        allow_negative_numbers = true,
    )]
    pub positions: usize,
    /// The depth of the PVS that labels a position, 1..20.
    #[arg(
        long,
        value_name = "D",
        default_value_t = 5,
        value_parser = value_parser!(u32).range(1..=20),
        allow_negative_numbers = true,
    )]
    pub depth: u32,
    /// Positions labelled at once, 1..256.
    #[arg(
        long,
        value_name = "T",
        default_value_t = 1,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=256),
        allow_negative_numbers = true,
    )]
    pub threads: usize,
    /// Passes over the training positions, 1..10000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 40,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000),
        allow_negative_numbers = true,
    )]
    pub epochs: usize,
    /// Adam's first step, falling to nothing by the end.
    #[arg(
        long,
        value_name = "R",
        default_value_t = 0.02,
        value_parser = crate::lab::rate,
        allow_negative_numbers = true,
    )]
    pub rate: f64,
    /// Positions a step, 1..1000000.
    #[arg(
        long,
        value_name = "B",
        default_value_t = 256,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000),
        allow_negative_numbers = true,
    )]
    pub batch: usize,
    /// The L2 penalty on the weights (the zap score's aside), 0 up to 1.
    #[arg(
        long,
        value_name = "L",
        default_value_t = 0.0001,
        value_parser = crate::lab::validation,
        allow_negative_numbers = true,
    )]
    pub l2: f64,
    /// The share of positions held out, 0 up to 1 (whole stretches of
    /// games).
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.1,
        value_parser = crate::lab::validation,
        allow_negative_numbers = true,
    )]
    pub validation: f64,
    /// Seeds the split and the shuffles.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Also write the held-out positions with their labels here (the
    /// labels file's format).
    #[arg(long, value_name = "FILE")]
    pub held_out: Option<PathBuf>,
}

impl Args {
    /// The labels file: `--labels`, or `OUT.labels`.
    pub fn labels_path(&self) -> PathBuf {
        self.labels.clone().unwrap_or_else(|| {
            let mut name = self.out.clone().into_os_string();
            name.push(".labels");
            PathBuf::from(name)
        })
    }
}
