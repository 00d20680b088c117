//! Why a value was refused: every message names the option and quotes what
//! was given.

use crate::user_text::quote;
use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionError {
    Unknown(String),
    MissingValue(&'static str),
    NotANumber {
        name: &'static str,
        value: String,
    },
    NotABool {
        name: &'static str,
        value: String,
    },
    NotAChoice {
        name: &'static str,
        value: String,
        choices: &'static [&'static str],
    },
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
            OptionError::NotAChoice {
                name,
                value,
                choices,
            } => {
                write!(
                    f,
                    "option '{name}' wants one of {}, got '{}'",
                    choices.join(", "),
                    quote(value)
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}
