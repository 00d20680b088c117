//! `autotest import`: a PGN file becomes a finished run whose table
//! (`autotest show`) is the one the run that wrote the file printed, and
//! whose W/D/L and game pairs are those `autotest stats --pgn` finds in
//! the file; the same content is imported once; a file that is not PGN
//! is named with its line while the others are imported; a course-layout
//! file (the course referee's, as `autotest CONFIG.txt` writes it)
//! imports too. The games are played by the engine at small depths.

use crate::common::{programs::leiserchess, scratch};
use rusqlite::Connection;
use std::path::Path;
use std::process::{Command, Output};

fn autotest(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(args)
        .current_dir(cwd)
        .env("AUTOTEST_DB", "none")
        .output()
        .expect("run autotest")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// `a` (depth 3) against `b` (depth 1), 4 colour-swapped pairs from the
/// committed openings, into `t.pgn` in `dir`; the table the run printed.
fn played(dir: &Path) -> String {
    let engine = leiserchess().display().to_string();
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let a = format!("cmd={engine}");
    let book = format!("file={}", book.display());
    ok(&autotest(
        &[
            "-engine",
            &a,
            "name=a",
            "depth=3",
            "-engine",
            &a,
            "name=b",
            "depth=1",
            "-games",
            "2",
            "-rounds",
            "4",
            "-maxmoves",
            "40",
            "-openings",
            &book,
            "order=random",
            "-seed",
            "3",
            "-concurrency",
            "2",
            "-pgnout",
            "t.pgn",
        ],
        dir,
    ))
}

/// The numbers of `a`'s line in a table: games, wins, draws, losses.
fn table_wdl(table: &str, engine: &str) -> [u64; 3] {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(engine))
        .unwrap_or_else(|| panic!("no line of {engine} in:\n{table}"));
    let n: Vec<u64> = line
        .split_whitespace()
        .skip(2)
        .take(3)
        .map(|x| x.parse().expect("a count"))
        .collect();
    [n[0], n[1], n[2]]
}

/// `stats --pgn`'s W/D/L and pentanomial counts for `player`.
fn stats(pgn: &str, player: &str, dir: &Path) -> ([u64; 3], [u64; 5]) {
    let out = ok(&autotest(&["stats", "--pgn", pgn, "--player", player], dir));
    let numbers = |line: &str, after: &str| -> Vec<u64> {
        line.split(after)
            .nth(1)
            .unwrap_or("")
            .split(|c: char| !c.is_ascii_digit())
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let wdl_line = out.lines().next().expect("a W/D/L line");
    let wdl = numbers(wdl_line, ":");
    let penta = out
        .lines()
        .find(|l| l.contains("pentanomial"))
        .map(|l| numbers(l, "pentanomial"))
        .unwrap_or_else(|| panic!("no pentanomial in:\n{out}"));
    (
        [wdl[0], wdl[1], wdl[2]],
        [penta[0], penta[1], penta[2], penta[3], penta[4]],
    )
}

/// `player`'s pentanomial counts from the database's games of `run`:
/// its points in each pair of two games.
fn db_penta(db: &Path, run: i64, player: &str) -> [u64; 5] {
    let conn = Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT pair, white, result FROM games WHERE run_id = ?1 ORDER BY pair")
        .unwrap();
    let games: Vec<(i64, String, String)> = stmt
        .query_map([run], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut penta = [0; 5];
    for w in games.chunk_by(|x, y| x.0 == y.0) {
        if w.len() != 2 {
            continue;
        }
        let points: usize = w
            .iter()
            .map(
                |(_, white, result)| match (result.as_str(), white == player) {
                    ("1/2-1/2", _) => 1,
                    ("1-0", true) | ("0-1", false) => 2,
                    _ => 0,
                },
            )
            .sum();
        penta[points] += 1;
    }
    penta
}

fn runs(db: &Path) -> i64 {
    let conn = Connection::open(db).unwrap();
    conn.query_row("SELECT COUNT(*) FROM runs", [], |r| r.get(0))
        .unwrap()
}

/// The run's table is the one its own run printed; W/D/L and pairs are
/// those of `stats --pgn` (the table does not print the pairs: they are
/// counted from the stored games).
#[test]
fn an_import_has_the_table_and_pairs_of_stats_pgn() {
    let dir = scratch::dir("db_import/table");
    let table = played(&dir);
    let out = ok(&autotest(&["import", "-db", "x.db", "t.pgn"], &dir));
    assert_eq!(out, "t.pgn: run 1, 8 games\n");
    let shown = ok(&autotest(&["show", "1", "-db", "x.db"], &dir));
    assert_eq!(shown, table);
    for player in ["a", "b"] {
        let (wdl, penta) = stats("t.pgn", player, &dir);
        assert_eq!(table_wdl(&shown, player), wdl, "{player}");
        assert_eq!(db_penta(&dir.join("x.db"), 1, player), penta, "{player}");
        assert_eq!(penta.iter().sum::<u64>(), 4);
    }
    let listed = ok(&autotest(&["runs", "-db", "x.db"], &dir));
    let line = listed.lines().nth(1).expect("a run");
    assert!(line.contains("tournament finished  a vs b"), "{listed}");
}

/// The same content again, under its own name or another, adds nothing.
#[test]
fn a_second_import_of_the_same_content_is_refused() {
    let dir = scratch::dir("db_import/again");
    played(&dir);
    std::fs::copy(dir.join("t.pgn"), dir.join("copy.pgn")).unwrap();
    ok(&autotest(&["import", "-db", "x.db", "t.pgn"], &dir));
    let out = ok(&autotest(
        &["import", "-db", "x.db", "t.pgn", "copy.pgn"],
        &dir,
    ));
    assert_eq!(
        out,
        "t.pgn: already imported as run 1\ncopy.pgn: already imported as run 1\n"
    );
    assert_eq!(runs(&dir.join("x.db")), 1);
}

/// A file that is not PGN, one with a bad tag, one missing: each named
/// (with the line where there is one), and the good file still imported.
#[test]
fn a_bad_file_is_named_with_its_line_and_the_others_import() {
    let dir = scratch::dir("db_import/bad");
    played(&dir);
    let good = std::fs::read_to_string(dir.join("t.pgn")).unwrap();
    let bad = good.replacen("[Site \"?\"]", "[Site \"?]", 2);
    let bad = bad.replacen("[Site \"?]", "[Site \"?\"]", 1);
    let line = 1 + bad.lines().position(|l| l == "[Site \"?]").unwrap();
    std::fs::write(dir.join("tags.pgn"), &bad).unwrap();
    std::fs::write(dir.join("notes.txt"), "\nsome notes\n[Event \"x\"]\n").unwrap();
    let out = autotest(
        &[
            "import",
            "-db",
            "x.db",
            "notes.txt",
            "tags.pgn",
            "gone.pgn",
            "t.pgn",
        ],
        &dir,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("notes.txt, line 2: not PGN"), "{err}");
    assert!(
        err.contains(&format!("tags.pgn, line {line}: not a PGN tag: [Site \"?]")),
        "{err}"
    );
    assert!(err.contains("gone.pgn: cannot read it"), "{err}");
    assert!(err.contains("3 of 4 files not imported"), "{err}");
    assert_eq!(text(&out.stdout), "t.pgn: run 1, 8 games\n");
    assert_eq!(runs(&dir.join("x.db")), 1);
}

/// A course config's PGN file (the course referee's layout: `Round "K"`
/// from 0, a pair per opening) imports with the table its run printed.
#[test]
fn a_course_layout_pgn_imports() {
    let dir = scratch::dir("db_import/course");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let engine = leiserchess();
    let config = format!(
        "cpus = 2\nbook = {}\ngame_rounds = 6\nadjudicate = 40\n\n\
         player = a\ninvoke = {e}\ndepth = 3\n\nplayer = b\ninvoke = {e}\ndepth = 1\n",
        book.display(),
        e = engine.display()
    );
    std::fs::write(dir.join("lab.txt"), config).unwrap();
    let table = ok(&autotest(&["lab.txt"], &dir));
    let pgn = std::fs::read_to_string(dir.join("lab.pgn")).unwrap();
    assert!(pgn.contains("[Site \"Local\"]") && pgn.contains("[Round \"5\"]"));
    let out = ok(&autotest(&["import", "-db", "x.db", "lab.pgn"], &dir));
    assert_eq!(out, "lab.pgn: run 1, 6 games\n");
    let shown = ok(&autotest(&["show", "1", "-db", "x.db"], &dir));
    assert_eq!(shown, table);
    let (wdl, penta) = stats("lab.pgn", "a", &dir);
    assert_eq!(table_wdl(&shown, "a"), wdl);
    assert_eq!(db_penta(&dir.join("x.db"), 1, "a"), penta);
    assert_eq!(penta.iter().sum::<u64>(), 3);
    // The start is the earliest game's date and time of day.
    let conn = Connection::open(dir.join("x.db")).unwrap();
    let started: String = conn
        .query_row(
            "SELECT strftime('%Y.%m.%d at %H:%M:%S', started, 'unixepoch') FROM runs",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let clock = |d: &str| -> String {
        // `Sun 2026.11.29 at 09:18:04 AM UTC` in 24 hours.
        let w: Vec<&str> = d.split_whitespace().collect();
        let h: u32 = w[3][..2].parse().unwrap();
        let h = h % 12 + if w[4] == "PM" { 12 } else { 0 };
        format!("{} at {h:02}{}", w[1], &w[3][2..])
    };
    let first = pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[Date \""))
        .map(clock)
        .min()
        .unwrap();
    assert_eq!(started, first);
}
