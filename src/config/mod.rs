//! The engine's configuration: [`EngineConfig`], a typed field for every
//! setting, and the options that set it, each declared once (name, kind,
//! default, range, effect) beside the structure its value lands in:
//! `eval::WEIGHTS`, `search::params::PARAMS`, `search::tt::TABLE`,
//! `search::time::TIME`, and the engine's own here ([`ENGINE_FIRST`],
//! [`ENGINE_LAST`]). `setoption`, the command line's engine flags and the
//! GUI all go through [`EngineConfig::set`], so a value is parsed, clamped
//! and refused the same way everywhere; the caller then carries out the
//! returned [`Effect`]. Adding an option is one declaration and its use.
//! Which searches read an option is in `scope`.
//! Names are case-insensitive.

mod entry;
mod error;
mod flags;
pub mod listing;
mod scope;

use crate::declaration::{
    self, bool_field, number_field, text_field, Declaration, Effect, Kind, Store,
};
use crate::eval::nnue::Network;
use crate::eval::policy::Policy;
use crate::object_store;
use crate::rules::game::DrawRules;
use crate::search::algorithm::{self, Algorithm, Setup};
use crate::search::params::Params;
use crate::search::time::{ClockUse, SearchLimits};
use crate::search::tt::TableSize;
use crate::user_text::quote;
pub use entry::{options, Entry, Value};
pub use error::OptionError;
pub use flags::flag_value;
use std::sync::Arc;

/// Everything a user can set about the engine.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineConfig {
    /// Search threads (`Threads`).
    pub threads: usize,
    /// The search's parameters, the evaluation's weights among them.
    pub search: Params,
    /// The transposition table's shape.
    pub table: TableSize,
    /// How the clock is used.
    pub clock: ClockUse,
    /// Whether `go` on the clock plays the book's moves (`OwnBook`).
    pub own_book: bool,
    /// The book file (`BookFile`; empty: the embedded book).
    pub book_file: String,
    /// The net file (`EvalFile`; empty: the embedded net).
    pub eval_file: String,
    /// The move policy file (`PolicyFile`; empty: the embedded policy).
    pub policy_file: String,
    /// Whether `info` lines carry `wdl` (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// The search a `go` runs (`Search`: pvs, mcts, bestfirst or hybrid).
    pub algorithm: Algorithm,
    /// The Monte-Carlo tree's memory budget in MB (`mcts_tree_mb`).
    pub tree_mb: usize,
}

/// The engine's own options that `uci` lists first.
pub const ENGINE_FIRST: &[Declaration<EngineConfig>] = &[
    Declaration::spin(
        "threads",
        1,
        1,
        64,
        number_field!(threads),
        "Search threads",
    ),
    Declaration::combo(
        "Search",
        3,
        algorithm::NAMES,
        Store::Number {
            set: |c, v| c.algorithm = Algorithm::from_index(v),
            get: |c| c.algorithm as i64,
        },
        "The search a `go` runs: PVS, Monte-Carlo tree search, best-first, or the hybrid (an MCTS tree, then a final PVS)",
    ),
    Declaration::spin(
        "mcts_tree_mb",
        256,
        1,
        65536,
        number_field!(tree_mb),
        "MCTS: the tree's memory in MB; a full tree stops growing and says so",
    ),
];

/// The engine's own options that `uci` lists after the search's.
pub const ENGINE_LAST: &[Declaration<EngineConfig>] = &[
    Declaration::check(
        "OwnBook",
        true,
        bool_field!(own_book),
        "Play book moves unsearched when `go` sets no depth, nodes, mate or infinite",
    ),
    Effect::LoadBook.on(Declaration::text(
        "BookFile",
        text_field!(book_file),
        "An opening book from `leiserchess book` (empty: the built-in one)",
    )),
    Effect::LoadNet.on(Declaration::text(
        "EvalFile",
        text_field!(eval_file),
        "A net from `leiserchess train`, or `store:PREFIX` the store's net of that sha256 prefix (empty: the built-in one)",
    )),
    Effect::LoadPolicy.on(Declaration::text(
        "PolicyFile",
        text_field!(policy_file),
        "A move policy from `leiserchess train-policy` (empty: the built-in one)",
    )),
    Declaration::check(
        "UCI_ShowWDL",
        false,
        bool_field!(show_wdl),
        "Add `wdl W D L` (per mille) after each score",
    ),
    Effect::NewTable.on(Declaration::button(
        "Clear Hash",
        "Empty the transposition table",
    )),
];

impl Default for EngineConfig {
    fn default() -> Self {
        let zero = EngineConfig {
            threads: 0,
            search: Params::default(),
            table: TableSize::default(),
            clock: ClockUse::default(),
            own_book: false,
            book_file: String::new(),
            eval_file: String::new(),
            policy_file: String::new(),
            show_wdl: false,
            algorithm: Algorithm::Pvs,
            tree_mb: 0,
        };
        let first = declaration::defaults(zero, ENGINE_FIRST);
        declaration::defaults(first, ENGINE_LAST)
    }
}

/// What a successful `set` did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Change {
    /// One line for the user (`hash set to 64`, `… (999 is outside 1..64)`).
    pub report: String,
    /// Whether the number given was outside the option's range.
    pub clamped: bool,
    /// What the engine must now do.
    pub effect: Effect,
}

impl EngineConfig {
    /// Sets option `name` from text: numbers are clamped to the option's
    /// range, anything else unparsable is refused and changes nothing.
    /// The report says when the option does nothing under the search
    /// chosen (`scope`).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        let entry = Entry::find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let (mut report, clamped) = entry.set(self, value)?;
        report.extend(scope::note(self, entry));
        Ok(Change {
            report,
            clamped,
            effect: entry.effect(),
        })
    }

    /// `go`'s limits with the clock used as configured.
    pub fn limits(&self, go: SearchLimits) -> SearchLimits {
        SearchLimits {
            clock: self.clock,
            ..go
        }
    }

    /// The search chosen, its threads and its tree's size.
    pub fn setup(&self) -> Setup {
        Setup {
            algorithm: self.algorithm,
            threads: self.threads,
            tree_mb: self.tree_mb,
        }
    }

    /// The rules' draw limits, the no-zap one as configured.
    pub fn draw_rules(&self) -> DrawRules {
        DrawRules {
            no_zap_plies: self.search.no_zap_plies,
            ..DrawRules::default()
        }
    }

    /// The net `eval_file` names (the embedded one when empty; `store:PREFIX`
    /// the store's net of that sha256 prefix), for the evaluation when
    /// `search.use_nnue`.
    pub fn net(&self) -> Result<Arc<Network>, String> {
        if self.eval_file.is_empty() {
            return Ok(Network::shared_embedded());
        }
        let file = object_store::Store::net_file(&self.eval_file)
            .map_err(|e| format!("EvalFile '{}': {e}", quote(&self.eval_file)))?;
        Network::load(file).map(Arc::new)
    }

    /// The move policy `policy_file` names (the embedded one when empty),
    /// the Monte-Carlo tree search's priors with `search.mcts_policy`.
    pub fn policy(&self) -> Result<Arc<Policy>, String> {
        if self.policy_file.is_empty() {
            Ok(Policy::shared_embedded())
        } else {
            Policy::load(&self.policy_file).map(Arc::new)
        }
    }

    /// The `option name … type …` lines of the `uci` answer.
    pub fn uci_lines() -> Vec<String> {
        options()
            .map(|o| match o.kind() {
                Kind::Spin { min, max } => format!(
                    "option name {} type spin default {} min {min} max {max}",
                    o.name(),
                    o.default()
                ),
                Kind::Check => format!(
                    "option name {} type check default {}",
                    o.name(),
                    o.default() != 0
                ),
                Kind::Button => format!("option name {} type button", o.name()),
                Kind::Text => format!("option name {} type string default <empty>", o.name()),
                Kind::Combo { choices } => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!(
                        "option name {} type combo default {} {}",
                        o.name(),
                        choices[o.default() as usize],
                        vars.join(" ")
                    )
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
