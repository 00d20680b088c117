//! UCI options: a table of typed options with defaults and ranges. Names
//! are case-insensitive; out-of-range values are clamped, and every change
//! is reported back as one line of text for an `info string`.

use crate::quote::quote;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    Spin {
        min: i64,
        max: i64,
    },
    Check,
    /// An action, no value (`Clear Hash`).
    Button,
}

#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub default: i64,
}

const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin { min, max },
        default,
    }
}

/// The engine's options; the evaluation weights have EVAL.md's defaults
/// and ranges. The options of the `debug-commands` feature, `DEBUG_SPECS`,
/// follow them (`specs` has both).
pub const SPECS: &[OptionSpec] = &[
    spin("threads", 1, 1, 64),
    spin("pcentral", 500, -10000, 10000),
    spin("pbetween", 250, -10000, 10000),
    spin("kface", 5000, 0, 10000),
    spin("kaggressive", 26000, 0, 30000),
    spin("mobility", 800, 0, 10000),
    spin("lcoverage", 1600, 0, 10000),
    spin("randomize", 0, 0, 10000),
    spin("hash", 16, 1, 4096),
    spin("tt_ways", 4, 1, 16),
    spin("lmr_r1", 5, 1, 100),
    spin("lmr_r2", 20, 1, 100),
    spin("fut_depth", 3, 0, 3),
    check("use_nmm", true),
    spin("draw", -7, -1000, 1000),
    spin("hmb", 3, -100, 100),
    spin("aspiration", 25, 0, 1000),
    spin("seed", 0, 0, i32::MAX as i64),
    spin("no_zap_plies", 100, 0, 10000),
    spin("move_overhead", 30, 0, 5000),
    button("Clear Hash"),
];

/// `check_rep`: check every data structure's invariants during the search
/// (see `debug`); only in builds with the `debug-commands` feature.
#[cfg(feature = "debug-commands")]
pub const DEBUG_SPECS: &[OptionSpec] = &[check("check_rep", false)];
#[cfg(not(feature = "debug-commands"))]
pub const DEBUG_SPECS: &[OptionSpec] = &[];

/// Every option of this build: `SPECS`, then `DEBUG_SPECS`.
pub fn specs() -> impl Iterator<Item = &'static OptionSpec> {
    SPECS.iter().chain(DEBUG_SPECS)
}

const fn button(name: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Button,
        default: 0,
    }
}

const fn check(name: &'static str, default: bool) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Check,
        default: default as i64,
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

#[derive(Clone, Debug)]
pub struct Options {
    values: Vec<i64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            values: specs().map(|s| s.default).collect(),
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

    /// Sets option `name` from text; returns the report line.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<String, OptionError> {
        let (i, spec) = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let text = match (spec.kind, value) {
            (OptionKind::Button, _) => return Ok(format!("{} done", spec.name)),
            (_, Some(text)) => text,
            (_, None) => return Err(OptionError::MissingValue(spec.name)),
        };
        match spec.kind {
            OptionKind::Spin { min, max } => {
                let v: i64 = text.parse().map_err(|_| OptionError::NotANumber {
                    name: spec.name,
                    value: text.to_string(),
                })?;
                let clamped = v.clamp(min, max);
                self.values[i] = clamped;
                Ok(if clamped == v {
                    format!("{} set to {v}", spec.name)
                } else {
                    format!(
                        "{} set to {clamped} ({v} is outside {min}..{max})",
                        spec.name
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
            })
            .collect()
    }
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
}
