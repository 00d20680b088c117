//! Which file the results are recorded in and read from, one rule for
//! every subcommand: `-db PATH`, else the environment variable
//! `AUTOTEST_DB`, else the per-user database
//! `$XDG_DATA_HOME/leiserchess/lab.db` (`~/.local/share` without it).
//! `none`, as either, records nothing. The subcommands take `-db` as
//! `--db` ([`DbFlag`]). Older autotests recorded a run with a PGN file in
//! `lab.db` beside it ([`beside`]): `-resume` takes such a run over
//! (`db::take_over`).

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
    /// Whether it is the per-user default, its directory made if missing
    /// (a directory the user named must be there).
    pub per_user: bool,
}

/// The database `flag` (the value of `-db`) names, or the environment's,
/// or the per-user default; `None`: recording is off.
pub fn choose(flag: Option<&str>) -> Result<Option<Choice>, String> {
    let named = flag
        .map(str::to_string)
        .or_else(|| std::env::var(ENV).ok().filter(|v| !v.is_empty()));
    if let Some(v) = named {
        return Ok((v != "none").then(|| Choice {
            path: PathBuf::from(v),
            per_user: false,
        }));
    }
    let data = leiserchess::object_store::lab_home()
        .ok_or("no default results database: neither XDG_DATA_HOME nor HOME is set (use -db PATH, or -db none)")?;
    Ok(Some(Choice {
        path: data.join(FILE_NAME),
        per_user: true,
    }))
}

/// Why the database `choice` is missing, for a reader's error: where an
/// older autotest's file may be found instead.
pub fn missing(choice: &Choice) -> String {
    let file = choice.path.display();
    if choice.per_user {
        format!("no results database at {file} (nothing recorded without -db yet; a lab.db an older autotest wrote beside a PGN file is read with --db PATH)")
    } else {
        format!("no results database at {file}")
    }
}

/// Where an older autotest recorded a run writing `file` (its PGN file,
/// or a tune's state file) without `-db`: `lab.db` beside it.
pub fn beside(file: &Path) -> PathBuf {
    file.with_file_name(FILE_NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flag wins, `none` is off; an older run's file is beside its PGN.
    #[test]
    fn the_flag_then_the_environment() {
        let at = |p: &str| {
            Some(Choice {
                path: PathBuf::from(p),
                per_user: false,
            })
        };
        assert_eq!(choose(Some("x.db")), Ok(at("x.db")));
        assert_eq!(choose(Some("none")), Ok(None));
        if std::env::var_os(ENV).is_none() {
            let default = choose(None).unwrap().unwrap();
            assert!(default.per_user);
            assert!(default.path.ends_with("leiserchess/lab.db"), "{default:?}");
        }
        assert_eq!(
            beside(Path::new("runs/games.pgn")),
            Path::new("runs/lab.db")
        );
        assert_eq!(beside(Path::new("games.pgn")), Path::new("lab.db"));
    }
}
