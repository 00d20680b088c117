//! Tournament configuration: what a tournament is ([`spec`]), in two
//! forms that fill the same [`TournamentSpec`] and are checked by the same
//! [`validate`]:
//!
//! * [`course_file`]: the course's config files (`lauto.jar`'s format, so
//!   old lab files keep working); [`course`] reads one from disk and runs
//!   it as the course referee does;
//! * [`flags`]: cutechess-style command-line flags.
//!
//! Both read their numbers with [`numbers`] and split command lines with
//! [`split_command`]; both report a [`ConfigError`] that says where.

pub mod course;
pub mod course_file;
pub mod flags;
pub mod numbers;
pub mod spec;

use crate::config::spec::TournamentSpec;
use std::fmt;

/// What is wrong with a configuration, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ConfigError {
    /// A line of a course config file (counted from 1).
    Line { line: usize, message: String },
    /// A command-line argument (counted from 1 after the program name).
    Arg {
        index: usize,
        arg: String,
        message: String,
    },
    /// The configuration as a whole.
    Invalid(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ConfigError::Line { line, message } => write!(f, "line {line}: {message}"),
            ConfigError::Arg {
                index,
                arg,
                message,
            } => write!(f, "argument {index} '{arg}': {message}"),
            ConfigError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The checks both forms share: at least two engines, each with a command
/// and a distinct name; concurrency, games and rounds at least 1; an SPRT
/// with alpha and beta in (0, 1) and elo0 < elo1.
pub fn validate(spec: &TournamentSpec) -> Result<(), ConfigError> {
    let invalid = |m: String| Err(ConfigError::Invalid(m));
    if spec.engines.len() < 2 {
        return invalid(format!(
            "a tournament needs at least two engines, got {}",
            spec.engines.len()
        ));
    }
    for (i, e) in spec.engines.iter().enumerate() {
        if e.command.is_empty() || e.command[0].is_empty() {
            return invalid(format!("engine '{}' has no command", e.name));
        }
        if spec.engines[..i].iter().any(|o| o.name == e.name) {
            return invalid(format!("two engines are named '{}'", e.name));
        }
    }
    if spec.concurrency < 1 {
        return invalid("concurrency must be at least 1".to_string());
    }
    if spec.games < 1 {
        return invalid("games must be at least 1".to_string());
    }
    if spec.rounds < 1 {
        return invalid("rounds must be at least 1".to_string());
    }
    if let Some(s) = spec.sprt {
        for (name, v) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(v > 0.0 && v < 1.0) {
                return invalid(format!(
                    "SPRT {name} must be between 0 and 1 (exclusive), got {v}"
                ));
            }
        }
        if s.elo0.partial_cmp(&s.elo1) != Some(std::cmp::Ordering::Less) {
            return invalid(format!(
                "SPRT elo0 ({}) must be less than elo1 ({})",
                s.elo0, s.elo1
            ));
        }
    }
    Ok(())
}

/// Splits a command line on white space; "double quotes" group (and may
/// sit inside a word: `a"b c"d` is `ab cd`); `""` is an empty argument.
/// There are no escapes.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(format!("unterminated \" in command line '{line}'"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the command line is empty".to_string());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn quoting_in_commands() {
        assert_eq!(
            split_command("  a  b\tc ").unwrap(),
            words(&["a", "b", "c"])
        );
        assert_eq!(
            split_command("\"/my dir/eng\" -x \"two words\"").unwrap(),
            words(&["/my dir/eng", "-x", "two words"])
        );
        assert_eq!(
            split_command("a\"b c\"d \"\" e").unwrap(),
            words(&["ab cd", "", "e"])
        );
        assert!(split_command("a \"b").unwrap_err().contains("unterminated"));
        assert!(split_command("   ").unwrap_err().contains("empty"));
        assert!(split_command("").is_err());
    }
}
