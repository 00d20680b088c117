//! Engine options given as command-line flags (`bench --hash`, `perft
//! --threads`, `datagen --option`, …): parsed and clamped exactly as
//! `setoption` does, and a clamp told with `setoption`'s report line.

use super::{EngineConfig, OptionError};

impl EngineConfig {
    /// The configuration with each `(name, value)` given set as `setoption`
    /// sets it, in order; `setoption`'s report line of every value clamped
    /// into its option's range goes to `clamped`.
    pub fn from_flags(
        flags: &[(&str, Option<&str>)],
        mut clamped: impl FnMut(String),
    ) -> Result<EngineConfig, OptionError> {
        let mut c = EngineConfig::default();
        for (name, text) in flags {
            if let Some(text) = text {
                let change = c.set(name, Some(text))?;
                if change.clamped {
                    clamped(change.report);
                }
            }
        }
        Ok(c)
    }
}

/// A command-line flag's value parser for option `name`: it refuses what
/// `setoption` refuses and keeps the text, so that a number out of range
/// is clamped, and reported, when [`EngineConfig::from_flags`] sets it.
pub fn flag_value(
    name: &'static str,
) -> impl Fn(&str) -> Result<String, OptionError> + Clone + Send + Sync + 'static {
    move |text| {
        EngineConfig::default()
            .set(name, Some(text))
            .map(|_| text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_set_as_setoption_and_report_only_a_clamp() {
        let mut said = Vec::new();
        let c = EngineConfig::from_flags(
            &[
                ("hash", Some("+064")),
                ("tt_ways", None),
                ("threads", Some("0")),
                ("use_nnue", Some("false")),
            ],
            |r| said.push(r),
        )
        .unwrap();
        assert_eq!((c.table.hash_mb, c.table.ways, c.threads), (64, 4, 1));
        assert!(!c.search.use_nnue);
        assert_eq!(said, ["threads set to 1 (0 is outside 1..64)"]);
        let huge = EngineConfig::from_flags(&[("threads", Some("99999999999999999999"))], |r| {
            said.push(r)
        })
        .unwrap();
        assert_eq!(huge.threads, 64);
        assert_eq!(
            said.last().unwrap(),
            "threads set to 64 (99999999999999999999 is outside 1..64)"
        );
        assert!(EngineConfig::from_flags(&[("hash", Some("x"))], |_| {}).is_err());
        let check = flag_value("hash");
        assert_eq!(check("0"), Ok("0".to_string()));
        assert!(matches!(check("1.5"), Err(OptionError::NotANumber { .. })));
    }
}
