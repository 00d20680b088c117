//! One option of the engine, wherever its value lands, and the list of
//! them in the order `uci` answers: threads, the evaluation's weights, the
//! search's parameters (MCTS's and the hybrid's last), the table's shape,
//! the clock's use, the engine's own, then `check_rep` (only with the
//! `debug-commands` feature).

use super::{EngineConfig, OptionError, ENGINE_FIRST, ENGINE_LAST};
use crate::declaration::{Declaration, Effect, Kind, Store};
use crate::eval::{Weights, WEIGHTS};
use crate::search::params::{Params, DEBUG_PARAMS, HYBRID_PARAMS, MCTS_PARAMS, PARAMS};
use crate::search::time::{ClockUse, TIME};
use crate::search::tt::{TableSize, TABLE};
use crate::user_text::quote;

/// A declaration and the part of [`EngineConfig`] it sets.
#[derive(Clone, Copy)]
pub enum Entry {
    Engine(&'static Declaration<EngineConfig>),
    Weights(&'static Declaration<Weights>),
    Search(&'static Declaration<Params>),
    Table(&'static Declaration<TableSize>),
    Clock(&'static Declaration<ClockUse>),
}

/// An option's value as read back (booleans as 0 or 1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value<'a> {
    Number(i64),
    Text(&'a str),
    /// A button's: none.
    None,
}

/// Every option of this build, in the order `uci` lists them.
pub fn options() -> impl Iterator<Item = Entry> {
    let engine = |list: &'static [Declaration<EngineConfig>]| list.iter().map(Entry::Engine);
    engine(ENGINE_FIRST)
        .chain(WEIGHTS.iter().map(Entry::Weights))
        .chain(PARAMS.iter().map(Entry::Search))
        .chain(MCTS_PARAMS.iter().map(Entry::Search))
        .chain(HYBRID_PARAMS.iter().map(Entry::Search))
        .chain(TABLE.iter().map(Entry::Table))
        .chain(TIME.iter().map(Entry::Clock))
        .chain(engine(ENGINE_LAST))
        .chain(DEBUG_PARAMS.iter().map(Entry::Search))
}

/// The fields every declaration has, whatever its structure.
macro_rules! each {
    ($self:expr, $d:ident => $body:expr) => {
        match $self {
            Entry::Engine($d) => $body,
            Entry::Weights($d) => $body,
            Entry::Search($d) => $body,
            Entry::Table($d) => $body,
            Entry::Clock($d) => $body,
        }
    };
}

impl Entry {
    /// The option named `name`, in any case.
    pub fn find(name: &str) -> Option<Entry> {
        options().find(|o| o.name().eq_ignore_ascii_case(name))
    }

    pub fn name(self) -> &'static str {
        each!(self, d => d.name)
    }

    pub fn kind(self) -> Kind {
        each!(self, d => d.kind)
    }

    /// The default (booleans as 0 or 1; 0 for text and buttons).
    pub fn default(self) -> i64 {
        each!(self, d => d.default)
    }

    pub fn effect(self) -> Effect {
        each!(self, d => d.effect)
    }

    /// What the option does, in a line.
    pub fn about(self) -> &'static str {
        each!(self, d => d.about)
    }

    /// Parses `value` for this option and stores it in `c`; returns the
    /// report line and whether the number given was clamped into range.
    /// Nothing changes on an error.
    pub(super) fn set(
        self,
        c: &mut EngineConfig,
        value: Option<&str>,
    ) -> Result<(String, bool), OptionError> {
        let name = self.name();
        let text = match (self.kind(), value) {
            (Kind::Button, _) => return Ok((format!("{name} done"), false)),
            (_, Some(text)) => text,
            (_, None) => return Err(OptionError::MissingValue(name)),
        };
        match self.kind() {
            Kind::Text => {
                self.store_text(c, text);
                Ok((format!("{name} set to '{}'", quote(text)), false))
            }
            Kind::Spin { min, max } => {
                let v = whole_number(text).ok_or_else(|| OptionError::NotANumber {
                    name,
                    value: text.to_string(),
                })?;
                let clamped = v.clamp(min as i128, max as i128) as i64;
                self.store_number(c, clamped);
                Ok(if clamped as i128 == v {
                    (format!("{name} set to {v}"), false)
                } else {
                    let report = format!(
                        "{name} set to {clamped} ({} is outside {min}..{max})",
                        quote(text)
                    );
                    (report, true)
                })
            }
            Kind::Combo { choices } => {
                let index = choices
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(text))
                    .ok_or_else(|| OptionError::NotAChoice {
                        name,
                        value: text.to_string(),
                        choices,
                    })?;
                self.store_number(c, index as i64);
                Ok((format!("{name} set to {}", choices[index]), false))
            }
            Kind::Check | Kind::Button => {
                let v = match text.to_ascii_lowercase().as_str() {
                    "true" => 1,
                    "false" => 0,
                    _ => {
                        return Err(OptionError::NotABool {
                            name,
                            value: text.to_string(),
                        })
                    }
                };
                self.store_number(c, v);
                Ok((format!("{name} set to {text}"), false))
            }
        }
    }

    fn store_number(self, c: &mut EngineConfig, v: i64) {
        match self {
            Entry::Engine(d) => d.set_number(c, v),
            Entry::Weights(d) => d.set_number(&mut c.search.weights, v),
            Entry::Search(d) => d.set_number(&mut c.search, v),
            Entry::Table(d) => d.set_number(&mut c.table, v),
            Entry::Clock(d) => d.set_number(&mut c.clock, v),
        }
    }

    /// Text options are the engine's own (file names).
    fn store_text(self, c: &mut EngineConfig, text: &str) {
        if let Entry::Engine(Declaration {
            store: Store::Text { set, .. },
            ..
        }) = self
        {
            set(c, text);
        }
    }

    /// The option's value in `c`, read back from its field.
    pub fn value(self, c: &EngineConfig) -> Value<'_> {
        fn read<'c, T>(d: &Declaration<T>, t: &'c T) -> Value<'c> {
            match d.store {
                Store::Number { get, .. } => Value::Number(get(t)),
                Store::Text { get, .. } => Value::Text(get(t)),
                Store::Nothing => Value::None,
            }
        }
        match self {
            Entry::Engine(d) => read(d, c),
            Entry::Weights(d) => read(d, &c.search.weights),
            Entry::Search(d) => read(d, &c.search),
            Entry::Table(d) => read(d, &c.table),
            Entry::Clock(d) => read(d, &c.clock),
        }
    }
}

/// A whole number, however many digits: one past any spin's range is
/// clamped like any other, not refused.
fn whole_number(text: &str) -> Option<i128> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let huge = if text.starts_with('-') {
        i128::MIN
    } else {
        i128::MAX
    };
    Some(text.parse().unwrap_or(huge))
}
