//! `-resume` end to end with the scripted fake engines, which play the
//! same game every time: a run stopped after a few games (its PGN cut, the
//! last game half written) and resumed with more rounds ends with the
//! file, the standings and the running score of one uninterrupted run; a
//! changed tournament is refused before anything is played.

use crate::common::{
    fake::{assert_no_leftovers, fake, pid_dir, started},
    programs::strings,
    scratch,
};
use autotest::pgn::read::{self as pgn_read, PgnGame};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn autotest(args: &[String], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        // Not about the results database: none kept in the user's home.
        .env("AUTOTEST_DB", "none")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two good fakes, which draw, and one that makes an illegal move and
/// loses: `rounds` rounds of a round-robin, two games a pairing, from a
/// book of the fakes' own moves in random order, into `pgn`.
fn flags(dir: &Path, pids: &Path, first: &str, rounds: u32, pgn: &str) -> Vec<String> {
    let cmd = |mode: &str| format!("cmd={} {mode} {}", fake().display(), pids.display());
    let book = dir.join("book.txt");
    std::fs::write(&book, "d1c1 e6f6\nd1c1 e6f6 c1d1 f6e6\n").unwrap();
    let mut args = strings(&["-engine", &cmd("good"), &format!("name={first}")]);
    args.extend(strings(&["-engine", &cmd("good"), "name=b"]));
    args.extend(strings(&["-engine", &cmd("illegal"), "name=c"]));
    args.extend(strings(&[
        "-openings",
        &format!("file={}", book.display()),
        "order=random",
        "-seed",
        "3",
        "-concurrency",
        "2",
        "-rounds",
        &rounds.to_string(),
        "-pgnout",
        pgn,
    ]));
    args
}

/// The games of a PGN file by their number N of `Round "R.N"`: White,
/// Black, the result and the opening.
fn by_number(games: &[PgnGame]) -> Vec<(usize, [String; 4])> {
    let mut out: Vec<(usize, [String; 4])> = games
        .iter()
        .map(|g| {
            let tag = |t: &str| g.tag(t).unwrap_or("-").to_string();
            let round = tag("Round");
            let n = round.split_once('.').and_then(|(_, n)| n.parse().ok());
            let result = g.result().unwrap_or("unfinished").to_string();
            let fields = [tag("White"), tag("Black"), result, tag("Opening")];
            (n.unwrap_or_else(|| panic!("Round {round}")), fields)
        })
        .collect();
    out.sort();
    out
}

fn read_games(path: &Path) -> Vec<PgnGame> {
    pgn_read::read(path).expect("the PGN file is there")
}

#[test]
fn a_resumed_run_ends_as_an_unbroken_one() {
    let dir = scratch::dir("resume/unbroken");
    let pids = pid_dir("resume_unbroken");
    let games_pgn: PathBuf = dir.join("games.pgn");

    // One round, then the file cut to its first three games and half of
    // the fourth, as if killed while writing it.
    let out = autotest(&flags(&dir, &pids, "a", 1, "games.pgn"), &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = read_games(&games_pgn);
    assert_eq!(first.len(), 6);
    let half = &first[3].text[..first[3].text.len() / 2];
    let cut: String = first[..3].iter().map(|g| g.text.as_str()).collect();
    std::fs::write(&games_pgn, cut.clone() + half).unwrap();

    let mut args = flags(&dir, &pids, "a", 2, "games.pgn");
    args.push("-resume".to_string());
    let out = autotest(&args, &dir);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let resumed_line = stderr.lines().next().unwrap_or_default();
    assert!(
        resumed_line.starts_with("resumed 3 games from games.pgn (")
            && resumed_line.ends_with("; 1 without a result dropped from it, to be played again"),
        "{stderr}"
    );
    // Numbered on from the resumed games, to the schedule's 12.
    let numbers: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("game ")?.split(':').next())
        .collect();
    let expected: Vec<String> = (4..=12).map(|k| format!("{k}/12")).collect();
    assert_eq!(numbers, expected, "{stderr}");
    // The last score of each pairing counts all its 4 games.
    for line in [
        "Score of a vs b: 0 - 0 - 4  [0.500] 4\n",
        "Score of a vs c: 4 - 0 - 0  [1.000] 4\n",
        "Score of b vs c: 4 - 0 - 0  [1.000] 4\n",
    ] {
        assert!(stderr.contains(line), "{line}{stderr}");
    }

    // The file: the three games kept as they were, then every other game
    // once, each whole.
    let after = std::fs::read_to_string(&games_pgn).unwrap();
    assert!(after.starts_with(&cut), "{after}");
    let games = by_number(&read_games(&games_pgn));
    let numbers: Vec<usize> = games.iter().map(|g| g.0).collect();
    assert_eq!(numbers, (1..=12).collect::<Vec<_>>());

    // One uninterrupted run: the same games and the same table.
    let out = autotest(&flags(&dir, &pids, "a", 2, "unbroken.pgn"), &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(games, by_number(&read_games(&dir.join("unbroken.pgn"))));
    assert_eq!(stdout, text(&out.stdout));
    assert!(
        stdout.contains("faults") && stdout.contains("illegal move 8"),
        "{stdout}"
    );
    assert_no_leftovers(&pids);
}

/// Other engines than the file's, or no file to resume from: an error
/// before any game, and the file as it was.
#[test]
fn a_changed_tournament_is_refused() {
    let dir = scratch::dir("resume/changed");
    let pids = pid_dir("resume_changed");
    let out = autotest(&flags(&dir, &pids, "a", 1, "games.pgn"), &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let before = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let started_before = started(&pids);

    let mut args = flags(&dir, &pids, "x", 2, "games.pgn");
    args.push("-resume".to_string());
    let out = autotest(&args, &dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // The first game of the file (game 1 or 2, a's against b) is refused.
    let first = &read_games(&dir.join("games.pgn"))[0];
    let (n, white, black) = (
        &by_number(std::slice::from_ref(first))[0].0,
        first.tag("White").unwrap(),
        first.tag("Black").unwrap(),
    );
    let renamed = |name: &str| if name == "a" { "x" } else { name }.to_string();
    assert_eq!(
        stderr,
        format!(
            "autotest: games.pgn: game {n} (line 1) is {white} (White) vs {black} (Black), but \
             game {n} of this schedule is {} vs {}: did the engines, their names or the flags \
             change?\n",
            renamed(white),
            renamed(black)
        )
    );
    assert!(!stderr.contains("game 1/"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("games.pgn")).unwrap(),
        before
    );
    assert_eq!(started(&pids), started_before, "no engine was started");

    // -resume without -pgnout.
    let mut args = flags(&dir, &pids, "a", 1, "games.pgn");
    args.truncate(args.len() - 2);
    args.push("-resume".to_string());
    let out = autotest(&args, &dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("'-resume': needs -pgnout FILE"), "{stderr}");
    assert_no_leftovers(&pids);
}
