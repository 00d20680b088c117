//! Which file the results are recorded in: `-db PATH`, else the
//! environment variable `AUTOTEST_DB`, else `lab.db` beside the PGN file
//! (`-pgnout`, or a course config's `CONFIG.pgn`), else
//! `$XDG_DATA_HOME/leiserchess/lab.db` (`~/.local/share` without it).
//! `none`, as either, records nothing. The subcommands take `-db` as
//! `--db` ([`DbFlag`]).

use std::path::{Path, PathBuf};

/// The environment variable that names the database.
pub const ENV: &str = "AUTOTEST_DB";

/// The file name of the default database.
pub const FILE_NAME: &str = "lab.db";

/// `--db PATH`, as the subcommands that read or write the results
/// database take it.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct DbFlag {
    /// The results database [$AUTOTEST_DB, else
    /// $XDG_DATA_HOME/leiserchess/lab.db]
    #[arg(long, value_name = "PATH")]
    pub db: Option<String>,
}

/// The database to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub path: PathBuf,
    /// Whether its directory is the per-user default, made if missing (a
    /// directory the user named must be there).
    pub make_dir: bool,
}

/// The database `flag` (the value of `-db`) names, or the environment's,
/// or the default for a run writing `pgn`; `None`: recording is off.
pub fn choose(flag: Option<&str>, pgn: Option<&Path>) -> Result<Option<Choice>, String> {
    let named = flag
        .map(str::to_string)
        .or_else(|| std::env::var(ENV).ok().filter(|v| !v.is_empty()));
    if let Some(v) = named {
        return Ok((v != "none").then(|| Choice {
            path: PathBuf::from(v),
            make_dir: false,
        }));
    }
    if let Some(pgn) = pgn {
        return Ok(Some(Choice {
            path: pgn.with_file_name(FILE_NAME),
            make_dir: false,
        }));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".local/share"))
        })
        .ok_or("no default results database: neither XDG_DATA_HOME nor HOME is set (use -db PATH, or -db none)")?;
    Ok(Some(Choice {
        path: data.join("leiserchess").join(FILE_NAME),
        make_dir: true,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flag wins; `none` is off; a PGN file's database is beside it.
    #[test]
    fn the_flag_then_beside_the_pgn() {
        let at = |p: &str| {
            Some(Choice {
                path: PathBuf::from(p),
                make_dir: false,
            })
        };
        let pgn = Path::new("runs/games.pgn");
        assert_eq!(choose(Some("x.db"), Some(pgn)), Ok(at("x.db")));
        assert_eq!(choose(Some("none"), Some(pgn)), Ok(None));
        if std::env::var_os(ENV).is_none() {
            assert_eq!(choose(None, Some(pgn)), Ok(at("runs/lab.db")));
            assert_eq!(choose(None, Some(Path::new("games.pgn"))), Ok(at("lab.db")));
        }
    }
}
