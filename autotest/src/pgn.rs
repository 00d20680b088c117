//! PGN output, one game per call, in two styles ([`PgnStyle`]).
//!
//! # Standard
//!
//! Chess PGN's export layout adapted to Leiserchess. Tags: the seven-tag
//! roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`),
//! then `SetUp "1"` and `FEN` when the game started from a FEN,
//! `Termination` (see [`crate::record::Termination::pgn_tag`]), `PlyCount` and, when the
//! game had book moves, `Opening` (the book moves separated by spaces).
//!
//! Movetext: the book moves (a `{book}` comment after the last one), then
//! the engines' moves, each followed by `{time depth nodes}` (seconds with
//! three decimals; `-` for what the engine did not say), numbered as in
//! chess (`1. g4L {book} b3L {0.512 7 12345} 2. ...`; a game starting with
//! Lavender to move begins `1... m`); then how the game ended as a comment
//! and the result. Lines are at most 80 columns, and a blank line ends the
//! game.
//!
//! # Course
//!
//! The course referee's layout (measured on `lauto.jar`'s output; see
//! BENCHMARKS.md), so that the course's tools read our files unchanged:
//! the seven tags only, with `Site "Local"`, the date as `Mon 2026.11.23
//! at 09:18:04 AM UTC` and `Round` the game's number in the file from 0;
//! `SetUp`/`FEN` for a FEN start; `Termination` only when the game did not
//! end by the rules. Every move, book moves included, is followed by
//! `{nanoseconds depth nodes}` (`{0 0 0}` for a book move, 0 for what the
//! engine did not say); a new line starts at every fifth move number
//! (6, 11, …); a game not ended by the rules has its reason as a comment
//! before the result.

use crate::record::{GameRecord, MoveRecord, Start};
use crate::spec::PgnStyle;

/// Standard movetext lines are at most this long.
const WIDTH: usize = 80;

pub fn to_pgn(r: &GameRecord, style: PgnStyle) -> String {
    let result = if r.result.is_empty() {
        "*"
    } else {
        r.result.as_str()
    };
    let normal = r.termination.pgn_tag() == "normal";
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", &r.event);
    match style {
        PgnStyle::Standard => {
            tag("Site", "?");
            tag("Date", &date(r.started_unix));
        }
        PgnStyle::Course => {
            tag("Site", "Local");
            tag("Date", &course_date(r.started_unix));
        }
    }
    tag("Round", &r.round);
    tag("White", &r.white);
    tag("Black", &r.black);
    tag("Result", result);
    if let Start::Fen(f) = &r.start {
        tag("SetUp", "1");
        tag("FEN", f);
    }
    match style {
        PgnStyle::Standard => {
            tag("Termination", r.termination.pgn_tag());
            tag("PlyCount", &(r.opening.len() + r.moves.len()).to_string());
            if !r.opening.is_empty() {
                tag("Opening", &r.opening.join(" "));
            }
        }
        PgnStyle::Course if !normal => tag("Termination", r.termination.pgn_tag()),
        PgnStyle::Course => {}
    }
    out.push('\n');
    match style {
        PgnStyle::Standard => {
            let mut units = movetext(r, false, comment);
            units.push(format!("{{{}}}", r.termination));
            units.push(result.to_string());
            out.push_str(&wrap(&units));
        }
        PgnStyle::Course => {
            let mut units = movetext(r, true, course_comment);
            if !normal {
                units.push(format!("{{{}}}", r.termination));
            }
            units.push(result.to_string());
            out.push_str(&course_lines(&units));
        }
    }
    out.push_str("\n\n");
    out
}

/// The movetext's moves and comments as unbreakable units (a numbered
/// move, a comment), in order: `{book}` after the last book move, or with
/// `course`, `{0 0 0}` after every one; `note` after every engine move.
fn movetext(r: &GameRecord, course: bool, note: fn(&MoveRecord) -> String) -> Vec<String> {
    let mut units = Vec::new();
    // Plies are counted from 0 = Tangerine's first move of move 1.
    let mut ply = usize::from(black_starts(&r.start));
    let mut first = true;
    let mut push_move = |units: &mut Vec<String>, text: &str| {
        let number = ply / 2 + 1;
        if ply % 2 == 0 {
            units.push(format!("{number}. {text}"));
        } else if first {
            units.push(format!("{number}... {text}"));
        } else {
            units.push(text.to_string());
        }
        first = false;
        ply += 1;
    };
    for (i, m) in r.opening.iter().enumerate() {
        push_move(&mut units, m);
        if course {
            units.push("{0 0 0}".to_string());
        } else if i + 1 == r.opening.len() {
            units.push("{book}".to_string());
        }
    }
    for m in &r.moves {
        push_move(&mut units, &m.text);
        units.push(note(m));
    }
    units
}

/// `{time depth nodes}` for one engine move, standard style.
fn comment(m: &MoveRecord) -> String {
    let ms = m.time_ns / 1_000_000;
    let secs = format!("{}.{:03}", ms / 1000, ms % 1000);
    let depth = m.depth.map_or("-".to_string(), |d| d.to_string());
    let nodes = m.nodes.map_or("-".to_string(), |n| n.to_string());
    format!("{{{secs} {depth} {nodes}}}")
}

/// `{nanoseconds depth nodes}` for one engine move, course style.
fn course_comment(m: &MoveRecord) -> String {
    format!(
        "{{{} {} {}}}",
        m.time_ns,
        m.depth.unwrap_or(0),
        m.nodes.unwrap_or(0)
    )
}

/// Whether the game starts with Lavender (Black) to move: a FEN whose side
/// is `B`.
fn black_starts(start: &Start) -> bool {
    match start {
        Start::StartPos => false,
        Start::Fen(f) => match leiserchess::rules::fen::parse(f) {
            Ok(b) => b.side() == leiserchess::rules::piece::Color::Black,
            // An unparsable FEN (a void game): trust its side letter.
            Err(_) => f
                .split_whitespace()
                .nth(1)
                .is_some_and(|s| s.eq_ignore_ascii_case("b")),
        },
    }
}

/// Joins `units` with spaces into lines of at most `WIDTH` columns (a unit
/// longer than that gets a line of its own).
fn wrap(units: &[String]) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for u in units {
        if line_len > 0 && line_len + 1 + u.len() > WIDTH {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(u);
        line_len += u.len();
    }
    out
}

/// Joins `units` with spaces, starting a new line at move numbers 6, 11,
/// 16, … (the course referee's layout).
fn course_lines(units: &[String]) -> String {
    let mut out = String::new();
    for u in units {
        let number = u
            .split_once(". ")
            .and_then(|(n, _)| n.parse::<usize>().ok());
        if !out.is_empty() {
            let new_line = number.is_some_and(|n| n > 1 && n % 5 == 1);
            out.push(if new_line { '\n' } else { ' ' });
        }
        out.push_str(u);
    }
    out
}

/// A tag value: `\` and `"` escaped, line breaks and tabs made spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The UTC civil date of a Unix time, as `YYYY.MM.DD`.
fn date(unix: u64) -> String {
    let (y, m, d) = civil_from_days((unix / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The course referee's date: `Mon 2026.11.23 at 09:18:04 AM UTC` (a
/// 12-hour clock; always UTC here).
fn course_date(unix: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    let secs = unix % 86_400;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let (h12, half) = match h {
        0 => (12, "AM"),
        1..=11 => (h, "AM"),
        12 => (12, "PM"),
        _ => (h - 12, "PM"),
    };
    format!(
        "{} {} at {h12:02}:{m:02}:{s:02} {half} UTC",
        DAYS[(unix / 86_400 % 7) as usize],
        date(unix)
    )
}

/// (year, month, day) of the day `days` after 1970-01-01 in the proleptic
/// Gregorian calendar (H. Hinnant's `civil_from_days`: 400-year eras of
/// 146097 days, years starting on March 1).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Adjudication, FaultKind, Termination};

    fn mv(text: &str, time_ms: u64, depth: Option<u32>, nodes: Option<u64>) -> MoveRecord {
        MoveRecord {
            text: text.to_string(),
            // Sub-millisecond digits that the standard style drops.
            time_ns: time_ms * 1_000_000 + 123,
            depth,
            nodes,
            score: None,
        }
    }

    fn record() -> GameRecord {
        GameRecord {
            event: "Test \"cup\"".to_string(),
            round: "1.2".to_string(),
            white: "alpha".to_string(),
            black: "beta\\2".to_string(),
            start: Start::StartPos,
            opening: vec!["g4L".to_string(), "b3L".to_string()],
            moves: vec![
                mv("h0R", 512, Some(7), Some(12345)),
                mv("a7L", 1003, None, None),
                mv("f1g2", 0, Some(3), None),
            ],
            result: "1-0".to_string(),
            termination: Termination::KingZapped,
            // 2018-11-29 12:00:00 UTC.
            started_unix: 1_543_492_800,
            duration_ms: 0,
        }
    }

    #[test]
    fn start_position_game() {
        let expected = "\
[Event \"Test \\\"cup\\\"\"]
[Site \"?\"]
[Date \"2018.11.29\"]
[Round \"1.2\"]
[White \"alpha\"]
[Black \"beta\\\\2\"]
[Result \"1-0\"]
[Termination \"normal\"]
[PlyCount \"5\"]
[Opening \"g4L b3L\"]

1. g4L b3L {book} 2. h0R {0.512 7 12345} a7L {1.003 - -} 3. f1g2 {0.000 3 -}
{King zapped} 1-0

";
        assert_eq!(to_pgn(&record(), PgnStyle::Standard), expected);
    }

    #[test]
    fn fen_start_with_black_to_move_and_a_fault() {
        let mut r = record();
        r.start = Start::Fen("ss7/8/8/8/8/8/8/7NN B".to_string());
        r.opening.clear();
        r.moves = vec![
            mv("a7b7", 20, Some(9), Some(1000)),
            mv("h0g0", 30, Some(8), Some(2000)),
            mv("b7b6", 40, Some(10), Some(3000)),
        ];
        r.result = "0-1".to_string();
        r.termination = Termination::Fault {
            engine: "alpha".to_string(),
            kind: FaultKind::TimeForfeit,
            detail: "no move in 1000 ms".to_string(),
        };
        r.started_unix = 0;
        let expected = "\
[Event \"Test \\\"cup\\\"\"]
[Site \"?\"]
[Date \"1970.01.01\"]
[Round \"1.2\"]
[White \"alpha\"]
[Black \"beta\\\\2\"]
[Result \"0-1\"]
[SetUp \"1\"]
[FEN \"ss7/8/8/8/8/8/8/7NN B\"]
[Termination \"time forfeit\"]
[PlyCount \"3\"]

1... a7b7 {0.020 9 1000} 2. h0g0 {0.030 8 2000} b7b6 {0.040 10 3000}
{alpha loses: time forfeit: no move in 1000 ms} 0-1

";
        assert_eq!(to_pgn(&r, PgnStyle::Standard), expected);
    }

    #[test]
    fn long_games_wrap_at_80_columns() {
        let mut r = record();
        r.moves = (0..60)
            .map(|i| {
                mv(
                    if i % 2 == 0 { "h0R" } else { "a7L" },
                    123_456,
                    Some(12),
                    Some(9_876_543),
                )
            })
            .collect();
        let pgn = to_pgn(&r, PgnStyle::Standard);
        let body = pgn.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 10);
        assert!(body
            .lines()
            .all(|l| l.len() <= WIDTH && !l.ends_with(' ') && !l.starts_with(' ')));
        // Nothing is lost or reordered by the wrapping.
        let joined = body.lines().collect::<Vec<_>>().join(" ");
        assert_eq!(
            joined,
            movetext(&r, false, comment).join(" ") + " {King zapped} 1-0"
        );
        assert!(joined.contains("31. h0R {123.456 12 9876543} a7L"));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(951_782_400), "2000.02.29");
        assert_eq!(date(951_868_800), "2000.03.01");
        assert_eq!(date(1_704_067_199), "2023.12.31");
        assert_eq!(date(1_704_067_200), "2024.01.01");
        assert_eq!(date(4_107_542_400), "2100.03.01");
    }

    /// The course referee's layout: its seven tags, every move commented,
    /// book moves `{0 0 0}`, nanoseconds, a line per five moves.
    fn course_record() -> GameRecord {
        let book = "g4R b4a4 g3f4 c4c3 f4e5 c5R e5e4 a7a6";
        let ns = |text: &str, time_ns, depth, nodes| MoveRecord {
            text: text.to_string(),
            time_ns,
            depth,
            nodes,
            score: Some(0),
        };
        GameRecord {
            event: "Autotest".to_string(),
            round: "0".to_string(),
            white: "ref".to_string(),
            black: "ours".to_string(),
            start: Start::StartPos,
            opening: book.split(' ').map(String::from).collect(),
            moves: vec![
                ns("g4U", 20_773_828, Some(3), Some(16312)),
                ns("d5e4R", 21_009_471, Some(3), Some(6499)),
                ns("g4h5", 29_716_410, Some(2), Some(11039)),
                ns("e4d5c4", 18_920_992, None, None),
            ],
            result: "0-1".to_string(),
            termination: Termination::KingZapped,
            started_unix: 1_543_492_800,
            duration_ms: 0,
        }
    }

    #[test]
    fn course_style() {
        let expected = "\
[Event \"Autotest\"]
[Site \"Local\"]
[Date \"Thu 2018.11.29 at 12:00:00 PM UTC\"]
[Round \"0\"]
[White \"ref\"]
[Black \"ours\"]
[Result \"0-1\"]

1. g4R {0 0 0} b4a4 {0 0 0} 2. g3f4 {0 0 0} c4c3 {0 0 0} 3. f4e5 {0 0 0} c5R {0 0 0} 4. e5e4 {0 0 0} a7a6 {0 0 0} 5. g4U {20773828 3 16312} d5e4R {21009471 3 6499}
6. g4h5 {29716410 2 11039} e4d5c4 {18920992 0 0} 0-1

";
        assert_eq!(to_pgn(&course_record(), PgnStyle::Course), expected);
    }

    /// A game not ended by the rules says why, in a `Termination` tag and
    /// a comment before the result; a FEN start gets its tags.
    #[test]
    fn course_style_adjudication_and_fen() {
        let mut r = course_record();
        r.termination = Termination::Adjudicated(Adjudication::Resign {
            engine: "ref".to_string(),
            move_count: 3,
            score_cp: 400,
        });
        r.opening.clear();
        r.start = Start::Fen("ss7/8/8/8/8/8/8/7NN B".to_string());
        r.started_unix = 0;
        let expected = "\
[Event \"Autotest\"]
[Site \"Local\"]
[Date \"Thu 1970.01.01 at 12:00:00 AM UTC\"]
[Round \"0\"]
[White \"ref\"]
[Black \"ours\"]
[Result \"0-1\"]
[SetUp \"1\"]
[FEN \"ss7/8/8/8/8/8/8/7NN B\"]
[Termination \"adjudication\"]

1... g4U {20773828 3 16312} 2. d5e4R {21009471 3 6499} g4h5 {29716410 2 11039} 3. e4d5c4 {18920992 0 0} {adjudication: ref loses, its last 3 scores at most -400 cp} 0-1

";
        assert_eq!(to_pgn(&r, PgnStyle::Course), expected);
        // A line per five move numbers, however long the game.
        r.start = Start::StartPos;
        r.moves = (0..30).map(|_| r.moves[0].clone()).collect();
        let pgn = to_pgn(&r, PgnStyle::Course);
        let body: Vec<&str> = pgn.split("\n\n").nth(1).unwrap().lines().collect();
        assert_eq!(body.len(), 3, "{pgn}");
        assert!(body[1].starts_with("6. g4U") && body[2].starts_with("11. g4U"));
        assert!(body[2].ends_with("} 0-1"));
    }

    #[test]
    fn course_dates() {
        assert_eq!(course_date(0), "Thu 1970.01.01 at 12:00:00 AM UTC");
        assert_eq!(course_date(3_599), "Thu 1970.01.01 at 12:59:59 AM UTC");
        assert_eq!(course_date(3_600 + 61), "Thu 1970.01.01 at 01:01:01 AM UTC");
        assert_eq!(course_date(13 * 3_600), "Thu 1970.01.01 at 01:00:00 PM UTC");
        assert_eq!(course_date(86_399), "Thu 1970.01.01 at 11:59:59 PM UTC");
        // 2026-11-23 09:18:04 UTC, a Monday.
        assert_eq!(
            course_date(1_795_425_484),
            "Mon 2026.11.23 at 09:18:04 AM UTC"
        );
    }
}
