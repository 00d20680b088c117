//! A course config file run the way the course referee (`lauto.jar`) runs
//! it: `autotest FILE.txt` appends the games to `FILE.pgn` beside the
//! config (the extension replaced) in the course's PGN layout, so the
//! course's `pgnrate.tcl` and BayesElo read it as before. Games are
//! numbered on from those already in the file, and a second run takes the
//! book's openings after those the file's game pairs used.
//!
//! Unlike the course referee, which takes relative paths from the current
//! directory, relative paths in the file (`book`, and an `invoke` program
//! written with a `/`) are taken from the config file's directory, so a
//! config works from anywhere. A program without a `/` is looked up in
//! `PATH`.

use crate::config::course_file::parse_course_config;
use crate::config::spec::{PgnStyle, TournamentSpec};
use std::path::{Path, PathBuf};

/// Reads and parses the config file at `path` (see the module
/// documentation); errors name the file.
pub fn load(path: &Path) -> Result<TournamentSpec, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut spec = parse_course_config(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    if let Some(book) = &mut spec.openings.file {
        *book = beside(dir, book);
    }
    for e in &mut spec.engines {
        if e.command[0].contains('/') {
            e.command[0] = beside(dir, Path::new(&e.command[0]))
                .to_string_lossy()
                .into_owned();
        }
    }
    spec.pgn_out = Some(pgn_path(path)?);
    spec.pgn_style = PgnStyle::Course;
    spec.pgn_append = true;
    Ok(spec)
}

/// `path` taken from `dir` when it is relative.
fn beside(dir: &Path, path: &Path) -> PathBuf {
    if path.is_relative() {
        dir.join(path)
    } else {
        path.to_path_buf()
    }
}

/// The PGN file of a config: its path with the extension replaced by
/// `pgn` (added when it has none).
pub fn pgn_path(config: &Path) -> Result<PathBuf, String> {
    if config
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        return Err(format!(
            "{}: a config file named .pgn would receive its own games; rename it (e.g. .txt)",
            config.display()
        ));
    }
    Ok(config.with_extension("pgn"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A config in a fresh temporary directory.
    fn config(test: &str, text: &str) -> PathBuf {
        let dir = crate::scratch::dir(&format!("course-{test}"));
        let path = dir.join("lab.txt");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn relative_paths_are_taken_from_the_config_directory() {
        let path = config(
            "relative",
            "book = books/open.txt\nplayer = a\ninvoke = ../bin/eng --x ./arg\n\
             player = b\ninvoke = leiserchess\nplayer = c\ninvoke = /opt/eng\n",
        );
        let dir = path.parent().unwrap();
        let spec = load(&path).unwrap();
        assert_eq!(spec.openings.file, Some(dir.join("books/open.txt")));
        let commands: Vec<Vec<String>> = spec.engines.iter().map(|e| e.command.clone()).collect();
        assert_eq!(
            commands[0],
            [
                dir.join("../bin/eng").to_string_lossy().as_ref(),
                "--x",
                "./arg"
            ]
        );
        assert_eq!(commands[1], ["leiserchess"], "a bare name goes to PATH");
        assert_eq!(commands[2], ["/opt/eng"]);
        assert_eq!(spec.pgn_out, Some(dir.join("lab.pgn")));
        assert_eq!((spec.pgn_style, spec.pgn_append), (PgnStyle::Course, true));
    }

    /// The shipped sample finds its book and our engine from wherever it
    /// is run.
    #[test]
    fn the_sample_config_resolves() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/selfplay.txt");
        let spec = load(&path).unwrap();
        let book = spec.openings.file.unwrap();
        assert!(book.is_file(), "{}", book.display());
        let engine = PathBuf::from(&spec.engines[0].command[0]);
        assert!(engine.ends_with("../../target/release/leiserchess"));
        assert_eq!(
            engine.parent().unwrap().canonicalize().ok(),
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../target/release")
                .canonicalize()
                .ok()
        );
        assert_eq!(spec.pgn_out, Some(path.with_extension("pgn")));
        assert_eq!((spec.max_games, spec.no_zap_plies), (Some(20), 200));
    }

    #[test]
    fn pgn_paths() {
        assert_eq!(
            pgn_path(Path::new("a/lab.txt")),
            Ok(PathBuf::from("a/lab.pgn"))
        );
        assert_eq!(pgn_path(Path::new("lab")), Ok(PathBuf::from("lab.pgn")));
        assert_eq!(
            pgn_path(Path::new("x.y.conf")),
            Ok(PathBuf::from("x.y.pgn"))
        );
        let e = pgn_path(Path::new("games.PGN")).unwrap_err();
        assert!(e.contains("games.PGN") && e.contains("rename"), "{e}");
    }

    #[test]
    fn errors_name_the_file() {
        let path = config("errors", "cpus = 2\nbogus = 1\n");
        let e = load(&path).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "{}: line 2: unknown global key 'bogus'",
                path.display()
            )),
            "{e}"
        );
        let missing = path.with_file_name("missing.txt");
        let e = load(&missing).unwrap_err();
        assert!(
            e.starts_with("cannot read") && e.contains("missing.txt"),
            "{e}"
        );
    }
}
