//! `train`'s command line.

use clap::builder::RangedU64ValueParser;
use std::path::PathBuf;

/// Train the learned evaluation on self-play data.
///
/// Target = L × result + (1 − L) × sigmoid(K × search score). The net of
/// the best held-out loss is written to --out, the state after every epoch
/// to OUT.ckpt (--resume goes on from it), the loss curve to OUT.tsv and
/// OUT.svg. The data is read as it is needed, within --memory; the
/// held-out positions are whole games.
#[derive(clap::Parser, Clone, Debug, PartialEq)]
#[command(name = "train")]
pub struct Args {
    /// Self-play data files (`datagen`'s).
    #[arg(value_name = "DATA", required = true)]
    pub files: Vec<PathBuf>,
    /// The net file written.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the data, 1..10000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000),
        allow_negative_numbers = true,
    )]
    pub epochs: usize,
    /// The result's weight L in the target, 0 to 1.
    #[arg(
        long,
        value_name = "L",
        default_value_t = 0.5,
        value_parser = crate::lab::lambda,
        allow_negative_numbers = true,
    )]
    pub lambda: f64,
    /// The share of positions held out, 0 up to 1.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.1,
        value_parser = crate::lab::validation,
        allow_negative_numbers = true,
    )]
    pub validation: f64,
    /// Seeds the net, the split and the shuffles.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Adam's first step, falling to a tenth by the end.
    #[arg(
        long,
        value_name = "R",
        default_value_t = 0.001,
        value_parser = crate::lab::rate,
        allow_negative_numbers = true,
    )]
    pub rate: f64,
    /// Positions a step, 1..16777216.
    #[arg(
        long,
        value_name = "B",
        default_value_t = 16384,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=1 << 24),
        allow_negative_numbers = true,
    )]
    pub batch: usize,
    /// Threads a step is shared over, 1..256.
    #[arg(
        long,
        value_name = "T",
        default_value_t = 2,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=256),
        allow_negative_numbers = true,
    )]
    pub threads: usize,
    /// Positions a shuffle window holds (records read, before --mirror
    /// doubles them), 1..4194304: each file's training positions are cut
    /// into windows, shuffled within each; the files' order is shuffled
    /// each epoch. Part of the recipe: another window, another net.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1 << 20,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=1 << 22),
        allow_negative_numbers = true,
    )]
    pub window: usize,
    /// The resident memory, MB, the trainer keeps within, 16..1048576:
    /// windows read ahead, and the held-out positions held between epochs
    /// when they fit (else read again after each). It does not change the
    /// net.
    #[arg(
        long,
        value_name = "MB",
        default_value_t = 2048,
        value_parser = RangedU64ValueParser::<usize>::new().range(16..=1 << 20),
        allow_negative_numbers = true,
    )]
    pub memory: usize,
    /// Add the laser beams' squares to the inputs.
    #[arg(long)]
    pub beam: bool,
    /// Train on each position reflected in the a7-h0 diagonal too (the
    /// same game, turned).
    #[arg(long)]
    pub mirror: bool,
    /// Go on from OUT.ckpt.
    #[arg(long)]
    pub resume: bool,
    /// A net file (the default's, say) whose held-out loss on the same
    /// positions is printed beside the hand-written evaluation's: the bar
    /// a new generation must clear.
    #[arg(long, value_name = "NET")]
    pub against: Option<PathBuf>,
    /// Start from this net's weights instead of random ones: a net file,
    /// `store:PREFIX`, or `embedded` (this binary's own net). Its shape
    /// must be --beam's; Adam starts afresh (a lower --rate keeps more of
    /// it). With --resume, OUT.ckpt wins once it exists.
    #[arg(long, value_name = "NET")]
    pub init: Option<String>,
}

impl Args {
    /// The file beside `--out` with `suffix` added to its name
    /// (`net.nnue.ckpt`).
    pub fn beside(&self, suffix: &str) -> PathBuf {
        let mut name = self.out.clone().into_os_string();
        name.push(suffix);
        PathBuf::from(name)
    }
}
