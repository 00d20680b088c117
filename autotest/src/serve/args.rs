//! The command line of `autotest serve`: `-db PATH`, `-port N`, `-host
//! ADDR`, each also spelt with two dashes.

use std::net::{IpAddr, Ipv4Addr};

/// The port served when `-port` is not given.
pub const DEFAULT_PORT: u16 = 8090;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `-db`: as `autotest runs` takes it.
    pub db: Option<String>,
    pub port: u16,
    pub host: IpAddr,
}

/// The options in `words` (the words after `serve`).
pub fn parse(words: &[String]) -> Result<Options, String> {
    let mut opts = Options {
        db: None,
        port: DEFAULT_PORT,
        host: IpAddr::V4(Ipv4Addr::LOCALHOST),
    };
    let mut i = 0;
    while i < words.len() {
        let flag = words[i].as_str();
        let name = flag.strip_prefix("--").or(flag.strip_prefix('-'));
        let value = |what: &str| {
            words
                .get(i + 1)
                .ok_or(format!("serve: {flag} needs {what}"))
        };
        match name {
            Some("db") => opts.db = Some(value("a PATH")?.clone()),
            Some("port") => {
                let v = value("a port number")?;
                opts.port = v.parse().map_err(|_| {
                    format!("serve: {flag} takes a port number from 0 to 65535, not '{v}'")
                })?;
            }
            Some("host") => {
                let v = value("an address")?;
                opts.host = v.parse().map_err(|_| {
                    format!(
                        "serve: {flag} takes an IP address (127.0.0.1, 0.0.0.0, ::1), not '{v}'"
                    )
                })?;
            }
            _ => {
                return Err(format!(
                    "serve: unexpected argument '{flag}' (only -db PATH, -port N, -host ADDR)"
                ))
            }
        }
        i += 2;
    }
    Ok(opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn both_spellings_and_the_defaults() {
        let o = parse(&words("--db x.db -port 0 --host 0.0.0.0")).unwrap();
        assert_eq!(o.db.as_deref(), Some("x.db"));
        assert_eq!((o.port, o.host.to_string().as_str()), (0, "0.0.0.0"));
        let d = parse(&[]).unwrap();
        assert_eq!(
            (d.db, d.port, d.host.to_string()),
            (None, DEFAULT_PORT, "127.0.0.1".into())
        );
    }

    #[test]
    fn bad_values_are_named() {
        assert!(parse(&words("-port 70000"))
            .unwrap_err()
            .contains("'70000'"));
        assert!(parse(&words("-host nowhere"))
            .unwrap_err()
            .contains("'nowhere'"));
        assert!(parse(&words("-port")).unwrap_err().contains("needs"));
        assert!(parse(&words("-games 2")).unwrap_err().contains("'-games'"));
    }
}
