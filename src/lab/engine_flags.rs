//! The flags that choose the engine of a fixed-node lab search
//! (`datagen`'s and `relabel`'s): its evaluation and any engine option.
//! The search is PVS unless `--option Search=…` names another: a lab
//! search is counted in PVS's nodes, where the engine's default (the
//! hybrid) would read a node budget as its tree's playouts.

use crate::config::EngineConfig;
use std::path::PathBuf;

/// `--net`, `--hand` and `--option`, flattened into a command's flags.
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct EngineFlags {
    /// Search with this net (`train`'s) instead of the embedded one.
    #[arg(long, value_name = "FILE", conflicts_with = "hand")]
    pub net: Option<PathBuf>,
    /// Search with the hand-written evaluation instead.
    #[arg(long)]
    pub hand: bool,
    /// Any engine option, as `setoption` sets it (clamped or refused the
    /// same way); repeatable, e.g. `--option draw=-20 --option hash=16`.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = engine_option)]
    pub options: Vec<(String, String)>,
}

/// Table size of each search, MB, unless an option sets it: fixed-node
/// searches are small.
const HASH_MB: &str = "8";

impl EngineFlags {
    /// The engine the flags ask for; a clamped option is told on stderr
    /// with `setoption`'s report.
    pub fn engine(&self) -> Result<EngineConfig, String> {
        self.build(|r| eprintln!("{r}"))
    }

    /// The same engine, its clamped options not told (they were, when
    /// the command ran): what the store records as its evaluation.
    pub fn engine_quietly(&self) -> Result<EngineConfig, String> {
        self.build(|_| {})
    }

    fn build(&self, report: impl FnMut(String)) -> Result<EngineConfig, String> {
        let net = self.net.as_ref().map(|p| p.display().to_string());
        let mut flags: Vec<(&str, Option<&str>)> = vec![
            ("Search", Some("pvs")),
            ("hash", Some(HASH_MB)),
            ("EvalFile", net.as_deref()),
            ("use_nnue", self.hand.then_some("false")),
        ];
        flags.extend(
            self.options
                .iter()
                .map(|(n, v)| (n.as_str(), Some(v.as_str()))),
        );
        EngineConfig::from_flags(&flags, report).map_err(|e| e.to_string())
    }
}

/// `NAME=VALUE` for `--option`.
fn engine_option(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "wants NAME=VALUE, e.g. draw=-20".to_string())?;
    EngineConfig::default()
        .set(name, Some(value))
        .map_err(|e| e.to_string())?;
    Ok((name.to_string(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::algorithm::Algorithm;

    /// A lab search is PVS's whatever the engine's default, unless an
    /// option names another search.
    #[test]
    fn the_search_is_pvs_unless_an_option_names_another() {
        assert_ne!(EngineConfig::default().algorithm, Algorithm::Pvs);
        let plain = EngineFlags::default().engine_quietly().unwrap();
        assert_eq!(plain.algorithm, Algorithm::Pvs);
        let mcts = EngineFlags {
            options: vec![("Search".to_string(), "mcts".to_string())],
            ..EngineFlags::default()
        };
        assert_eq!(mcts.engine_quietly().unwrap().algorithm, Algorithm::Mcts);
    }
}
