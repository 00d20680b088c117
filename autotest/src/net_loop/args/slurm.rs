//! `--slurm`'s value: the base of the Slurm runs' directories and the
//! `-slurm` settings the loop's datagen and SPRT runs are given
//! (`net_loop::slurm` runs them).

use crate::config::flags::key_values;
use crate::config::{split_command, ConfigError};
use crate::slurm::options::{parse_options, FLAG};
use std::path::PathBuf;

/// `--slurm`'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopSlurm {
    /// The base of the run directories, absolute.
    pub dir: PathBuf,
    /// The other `key=value` settings, as given and in order.
    pub settings: Vec<String>,
}

impl LoopSlurm {
    /// `--slurm`'s value: `dir=RUN` and `-slurm`'s settings (`tasks=`
    /// for datagen, `pairs=` for the SPRT, the others for both), checked
    /// by `-slurm`'s own parser; `dir` made absolute.
    pub fn parse(text: &str) -> Result<LoopSlurm, String> {
        let bad = |m: &str| format!("--slurm '{text}': {m}");
        let words = split_command(text).map_err(|e| bad(&e))?;
        let args: Vec<String> = std::iter::once(FLAG.to_string()).chain(words).collect();
        let named = |e: ConfigError| match e {
            ConfigError::Arg { arg, message, .. } if arg != FLAG => {
                bad(&format!("{arg}: {message}"))
            }
            ConfigError::Arg { message, .. } => bad(&message),
            other => bad(&other.to_string()),
        };
        let kv = key_values(&args, 0).map_err(named)?;
        if let Some(word) = args.get(kv.len() + 1) {
            return Err(bad(&format!("{word}: expected key=value")));
        }
        let opts = parse_options(&args, &kv).map_err(named)?;
        let dir = std::path::absolute(&opts.dir)
            .map_err(|e| bad(&format!("dir={}: {e}", opts.dir.display())))?;
        let settings = kv
            .iter()
            .filter(|(_, k, _)| *k != "dir")
            .map(|&(j, ..)| args[j].clone())
            .collect();
        Ok(LoopSlurm { dir, settings })
    }

    /// The value as the state file keeps it, which [`LoopSlurm::parse`]
    /// reads back: `dir=` absolute, a setting with a space quoted.
    pub fn text(&self) -> String {
        let quoted = |w: &String| match w.contains(char::is_whitespace) {
            true => format!("\"{w}\""),
            false => w.clone(),
        };
        std::iter::once(format!("dir={}", self.dir.display()))
            .chain(self.settings.iter().cloned())
            .map(|w| quoted(&w))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_are_slurm_s_and_read_back_from_their_text() {
        let s = LoopSlurm::parse("dir=runs tasks=4 sbatch=\"-p main --time=30\" pairs=2").unwrap();
        assert_eq!(s.dir, std::env::current_dir().unwrap().join("runs"));
        assert_eq!(
            s.settings,
            ["tasks=4", "sbatch=-p main --time=30", "pairs=2"]
        );
        assert_eq!(
            s.text(),
            format!(
                "dir={} tasks=4 \"sbatch=-p main --time=30\" pairs=2",
                s.dir.display()
            )
        );
        assert_eq!(LoopSlurm::parse(&s.text()).unwrap(), s);
    }

    #[test]
    fn bad_settings_are_refused_naming_the_flag_and_the_setting() {
        let refused = |text: &str| LoopSlurm::parse(text).unwrap_err();
        assert_eq!(
            refused("tasks=4"),
            "--slurm 'tasks=4': needs dir=RUN, the run directory"
        );
        assert_eq!(
            refused("dir=r pairs=0"),
            "--slurm 'dir=r pairs=0': pairs=0: pairs must be at least 1"
        );
        assert!(refused("dir=r colour=red")
            .starts_with("--slurm 'dir=r colour=red': colour=red: unknown -slurm key 'colour'"));
        assert_eq!(
            refused("dir=r cpus"),
            "--slurm 'dir=r cpus': cpus: expected key=value"
        );
        assert_eq!(
            refused("dir=r --cpus=2"),
            "--slurm 'dir=r --cpus=2': --cpus=2: expected key=value"
        );
        assert_eq!(
            refused("dir=r dir=s"),
            "--slurm 'dir=r dir=s': dir=s: 'dir' is given twice"
        );
        assert!(
            refused("dir=r sbatch=\"-p").starts_with("--slurm 'dir=r sbatch=\"-p': unterminated")
        );
        assert_eq!(refused(""), "--slurm '': the command line is empty");
    }
}
