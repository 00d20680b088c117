//! UCI options: a table of typed options with defaults and ranges. Names
//! are case-insensitive; out-of-range values are clamped, and every change
//! is reported back as one line of text for an `info string`.

use crate::eval::{Weights, WEIGHTS};
use crate::quote::quote;
use crate::search::params::{Params, TableSize, DEBUG_PARAMS, PARAMS, TABLE};
use crate::search::time::{SearchLimits, TIME};
use crate::setting::{self, Setting};
use std::fmt;
use std::sync::LazyLock;

pub use crate::setting::Kind as OptionKind;

/// One option as the `uci` command lists it.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub default: i64,
}

impl<T> From<&Setting<T>> for OptionSpec {
    fn from(s: &Setting<T>) -> Self {
        OptionSpec {
            name: s.name,
            kind: s.kind,
            default: s.default,
        }
    }
}

/// The engine's own options, which land in the protocol loop rather than
/// in a structure below it.
const THREADS: OptionSpec = spin("threads", 1, 1, 64);
const ENGINE_LAST: &[OptionSpec] = &[
    OptionSpec {
        name: "OwnBook",
        kind: OptionKind::Check,
        default: 1,
    },
    OptionSpec {
        name: "BookFile",
        kind: OptionKind::Text,
        default: 0,
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::Text,
        default: 0,
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check,
        default: 0,
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button,
        default: 0,
    },
];

/// The engine's options in the order `uci` lists them: threads, the
/// evaluation weights, the search's parameters, the table's shape, then
/// the engine's own. Declared where they land (`eval::WEIGHTS`,
/// `search::params`); the options of the `debug-commands` feature,
/// `DEBUG_SPECS`, follow them (`specs` has both).
pub static SPECS: LazyLock<Vec<OptionSpec>> = LazyLock::new(|| {
    let mut v = vec![THREADS];
    v.extend(WEIGHTS.iter().map(OptionSpec::from));
    v.extend(PARAMS.iter().map(OptionSpec::from));
    v.extend(TABLE.iter().map(OptionSpec::from));
    v.extend(TIME.iter().map(OptionSpec::from));
    v.extend_from_slice(ENGINE_LAST);
    v
});

/// `check_rep` (see `crate::check`); empty without the `debug-commands`
/// feature.
pub static DEBUG_SPECS: LazyLock<Vec<OptionSpec>> =
    LazyLock::new(|| DEBUG_PARAMS.iter().map(OptionSpec::from).collect());

/// Every option of this build: `SPECS`, then `DEBUG_SPECS`.
pub fn specs() -> impl Iterator<Item = &'static OptionSpec> {
    SPECS.iter().chain(DEBUG_SPECS.iter())
}

const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin { min, max },
        default,
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionError {
    Unknown(String),
    MissingValue(&'static str),
    NotANumber { name: &'static str, value: String },
    NotABool { name: &'static str, value: String },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{}'", quote(n)),
            OptionError::MissingValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(
                    f,
                    "option '{name}' wants a whole number, got '{}'",
                    quote(value)
                )
            }
            OptionError::NotABool { name, value } => {
                write!(
                    f,
                    "option '{name}' wants true or false, got '{}'",
                    quote(value)
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}

#[derive(Clone, Debug)]
pub struct Options {
    values: Vec<i64>,
    /// The text options' values (empty for the others).
    texts: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            values: specs().map(|s| s.default).collect(),
            texts: specs().map(|_| String::new()).collect(),
        }
    }
}

fn find(name: &str) -> Option<(usize, &'static OptionSpec)> {
    specs()
        .enumerate()
        .find(|(_, s)| s.name.eq_ignore_ascii_case(name))
}

impl Options {
    /// The value of option `name`; panics on a name not in `specs()`, which
    /// is a programming error, never user input.
    pub fn get(&self, name: &str) -> i64 {
        let (i, _) = find(name).unwrap_or_else(|| panic!("no option named {name}"));
        self.values[i]
    }

    /// The value of text option `name` (empty if unset); panics on a name
    /// not in `specs()`, as `get` does.
    pub fn text(&self, name: &str) -> &str {
        let (i, _) = find(name).unwrap_or_else(|| panic!("no option named {name}"));
        &self.texts[i]
    }

    /// Sets option `name` from text; returns the report line.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<String, OptionError> {
        let (i, spec) = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let text = match (spec.kind, value) {
            (OptionKind::Button, _) => return Ok(format!("{} done", spec.name)),
            (_, Some(text)) => text,
            (_, None) => return Err(OptionError::MissingValue(spec.name)),
        };
        match spec.kind {
            OptionKind::Text => {
                self.texts[i] = text.to_string();
                Ok(format!("{} set to '{}'", spec.name, quote(text)))
            }
            OptionKind::Spin { min, max } => {
                let v = whole_number(text).ok_or_else(|| OptionError::NotANumber {
                    name: spec.name,
                    value: text.to_string(),
                })?;
                let clamped = v.clamp(min as i128, max as i128) as i64;
                self.values[i] = clamped;
                Ok(if clamped as i128 == v {
                    format!("{} set to {v}", spec.name)
                } else {
                    format!(
                        "{} set to {clamped} ({} is outside {min}..{max})",
                        spec.name,
                        quote(text)
                    )
                })
            }
            OptionKind::Check | OptionKind::Button => {
                let v = match text.to_ascii_lowercase().as_str() {
                    "true" => 1,
                    "false" => 0,
                    _ => {
                        return Err(OptionError::NotABool {
                            name: spec.name,
                            value: text.to_string(),
                        })
                    }
                };
                self.values[i] = v;
                Ok(format!("{} set to {text}", spec.name))
            }
        }
    }

    /// The options that command-line flags set: each `(name, value)` given
    /// is set exactly as `setoption` sets it, and `setoption`'s report line
    /// of every value clamped into its option's range goes to `clamped`.
    pub fn from_flags(
        flags: &[(&str, Option<&str>)],
        mut clamped: impl FnMut(String),
    ) -> Result<Options, OptionError> {
        let mut o = Options::default();
        for (name, text) in flags {
            if let Some(report) = text.map(|t| o.set_flag(name, t)).transpose()?.flatten() {
                clamped(report);
            }
        }
        Ok(o)
    }

    /// Sets option `name` from `text` as `setoption` does; returns the
    /// report line if the value was clamped.
    fn set_flag(&mut self, name: &str, text: &str) -> Result<Option<String>, OptionError> {
        let report = self.set(name, Some(text))?;
        let spin = find(name).is_some_and(|(_, s)| matches!(s.kind, OptionKind::Spin { .. }));
        // A number set as given reads back as itself; a clamped one does not.
        let clamped = spin && text.parse::<i64>().ok() != Some(self.get(name));
        Ok(clamped.then_some(report))
    }

    /// The search's parameters as these options set them.
    pub fn params(&self) -> Params {
        let weights = setting::apply(Weights::default(), WEIGHTS, |s| self.get(s.name));
        let p = Params {
            weights,
            ..Params::default()
        };
        let p = setting::apply(p, PARAMS, |s| self.get(s.name));
        setting::apply(p, DEBUG_PARAMS, |s| self.get(s.name))
    }

    /// `limits` with the clock's use as these options set it.
    pub fn time_use(&self, limits: SearchLimits) -> SearchLimits {
        setting::apply(limits, TIME, |s| self.get(s.name))
    }

    /// The table's shape as these options set it.
    pub fn table_size(&self) -> TableSize {
        setting::apply(TableSize::default(), TABLE, |s| self.get(s.name))
    }

    /// The `option name … type …` lines of the `uci` answer.
    pub fn uci_lines() -> Vec<String> {
        specs()
            .map(|s| match s.kind {
                OptionKind::Spin { min, max } => format!(
                    "option name {} type spin default {} min {min} max {max}",
                    s.name, s.default
                ),
                OptionKind::Check => format!(
                    "option name {} type check default {}",
                    s.name,
                    s.default != 0
                ),
                OptionKind::Button => format!("option name {} type button", s.name),
                OptionKind::Text => format!("option name {} type string default <empty>", s.name),
            })
            .collect()
    }
}

/// A command-line flag's value parser for option `name`: it refuses what
/// `setoption` refuses and keeps the text, so that a number out of range
/// is clamped, and reported, when [`Options::from_flags`] sets it.
pub fn flag_value(
    name: &'static str,
) -> impl Fn(&str) -> Result<String, OptionError> + Clone + Send + Sync + 'static {
    move |text| {
        Options::default()
            .set(name, Some(text))
            .map(|_| text.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_clamps_and_reports() {
        let mut o = Options::default();
        assert_eq!(o.get("threads"), 1);
        assert_eq!(o.set("Threads", Some("2")).unwrap(), "threads set to 2");
        assert_eq!(o.get("threads"), 2);
        assert!(o
            .set("threads", Some("999"))
            .unwrap()
            .contains("outside 1..64"));
        assert_eq!(o.get("threads"), 64);
        assert!(matches!(
            o.set("threads", Some("x")),
            Err(OptionError::NotANumber { .. })
        ));
        assert_eq!(
            o.set("hash", Some("99999999999999999999999999999999999999999"))
                .unwrap(),
            "hash set to 4096 (99999999999999999999999999999999999999999 is outside 1..4096)"
        );
        assert_eq!(o.get("hash"), 4096);
        assert_eq!(
            o.set("Hash", Some("-99999999999999999999")).unwrap(),
            "hash set to 1 (-99999999999999999999 is outside 1..4096)"
        );
        assert!(matches!(
            o.set("hash", Some("1e3")),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            o.set("nosuch", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            o.set("threads", None),
            Err(OptionError::MissingValue(_))
        ));
        assert_eq!(o.get("threads"), 64);
    }

    #[test]
    fn a_flag_sets_as_setoption_and_reports_only_a_clamp() {
        let mut o = Options::default();
        assert_eq!(o.set_flag("hash", "64"), Ok(None));
        assert_eq!(o.set_flag("hash", "+064"), Ok(None));
        assert_eq!(o.get("hash"), 64);
        assert_eq!(
            o.set_flag("hash", "0"),
            Ok(Some("hash set to 1 (0 is outside 1..4096)".to_string()))
        );
        assert_eq!(
            o.set_flag("threads", "99999999999999999999").unwrap(),
            Some("threads set to 64 (99999999999999999999 is outside 1..64)".to_string())
        );
        assert_eq!(o.set_flag("use_nnue", "false"), Ok(None));
        assert!(o.set_flag("hash", "x").is_err());
        let mut said = Vec::new();
        let o = Options::from_flags(
            &[
                ("hash", Some("5")),
                ("tt_ways", None),
                ("threads", Some("0")),
            ],
            |r| said.push(r),
        )
        .unwrap();
        assert_eq!(
            (o.get("hash"), o.get("tt_ways"), o.get("threads")),
            (5, 4, 1)
        );
        assert_eq!(said, ["threads set to 1 (0 is outside 1..64)"]);
        let check = flag_value("hash");
        assert_eq!(check("0"), Ok("0".to_string()));
        assert!(matches!(check("1.5"), Err(OptionError::NotANumber { .. })));
    }

    #[test]
    fn the_option_defaults_are_the_search_and_bench_defaults() {
        let o = Options::default();
        assert_eq!(o.params(), Params::default());
        assert_eq!(o.table_size(), TableSize::default());
        let none = SearchLimits::default();
        assert_eq!(o.time_use(none), none);
        assert_eq!(o.params().weights, Weights::default());
    }

    #[test]
    fn every_declared_setting_is_an_option_and_lands() {
        let mut o = Options::default();
        for s in specs().filter(|s| matches!(s.kind, OptionKind::Spin { .. })) {
            let OptionKind::Spin { min, max } = s.kind else {
                unreachable!()
            };
            let v = if s.default == max { min } else { max };
            o.set(s.name, Some(&v.to_string())).unwrap();
            let landed = o.params() != Params::default()
                || o.table_size() != TableSize::default()
                || o.time_use(SearchLimits::default()) != SearchLimits::default()
                || s.name == "threads";
            assert!(landed, "option {} changes nothing", s.name);
            o = Options::default();
        }
        let names: Vec<_> = specs().map(|s| s.name.to_ascii_lowercase()).collect();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "option {n} declared twice");
        }
    }
}
