//! `train`'s command line.

pub const USAGE: &str =
    "  leiserchess train DATA... --out FILE [--epochs N] [--lambda L] [--validation F]
                   [--seed S] [--rate R] [--batch B] [--threads T] [--beam] [--mirror]
                   [--resume]
                              train the learned evaluation on self-play data files:
                              target = L × result + (1 − L) × sigmoid(K × search
                              score), L default 0.5; F (default 0.1) held out; N
                              epochs (default 20) of Adam, first step R (default
                              0.001) falling to a tenth; B positions a step
                              (default 16384) over T threads (default 2); --beam
                              adds the laser beams' squares to the inputs; --mirror
                              trains on each position reflected in the a7-h0
                              diagonal too (the same game, turned); the net
                              of the best held-out loss written to FILE, the state
                              after every epoch to FILE.ckpt (--resume goes on from
                              it), the loss curve to FILE.tsv and FILE.svg";

/// The command line of `train`.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    pub files: Vec<String>,
    pub out: String,
    pub epochs: usize,
    pub lambda: f64,
    pub validation: f64,
    pub seed: u64,
    pub rate: f64,
    pub batch: usize,
    pub threads: usize,
    pub beam: bool,
    /// Train on every position's reflection too ([`mirror`]).
    pub mirror: bool,
    pub resume: bool,
}

/// The flags that take a value.
const VALUE_FLAGS: [&str; 8] = [
    "--out",
    "--epochs",
    "--batch",
    "--threads",
    "--seed",
    "--lambda",
    "--validation",
    "--rate",
];

pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        files: Vec::new(),
        out: String::new(),
        epochs: 20,
        lambda: 0.5,
        validation: 0.1,
        seed: 1,
        rate: 0.001,
        batch: 16384,
        threads: 2,
        beam: false,
        mirror: false,
        resume: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--beam" => a.beam = true,
            "--mirror" => a.mirror = true,
            "--resume" => a.resume = true,
            flag if VALUE_FLAGS.contains(&flag) => {
                let value = it.next().ok_or(format!("{flag} needs a value"))?;
                let bad = |what: &str| format!("{flag} {value}: not {what}");
                match flag {
                    "--out" => a.out = value.clone(),
                    "--epochs" => a.epochs = crate::lab::whole(flag, value, 1, 10_000)? as usize,
                    "--batch" => a.batch = crate::lab::whole(flag, value, 1, 1 << 24)? as usize,
                    "--threads" => a.threads = crate::lab::whole(flag, value, 1, 256)? as usize,
                    "--seed" => a.seed = value.parse().map_err(|_| bad("a whole number"))?,
                    "--lambda" => a.lambda = crate::lab::lambda(flag, value)?,
                    "--validation" => a.validation = crate::lab::validation(flag, value)?,
                    _ => a.rate = crate::lab::real(flag, value, |x| x > 0.0, "a number above 0")?,
                }
            }
            flag if flag.starts_with("--") => {
                return Err(format!(
                    "train: unknown flag '{}'",
                    crate::user_text::quote(flag)
                ))
            }
            path => a.files.push(path.to_string()),
        }
    }
    if a.files.is_empty() {
        return Err("train needs at least one DATA file".into());
    }
    if a.out.is_empty() {
        return Err("train needs --out FILE".into());
    }
    Ok(a)
}
