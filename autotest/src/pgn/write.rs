//! PGN output, one game per call, in two styles ([`PgnStyle`]).
//!
//! # Standard
//!
//! The engine library's writer (`leiserchess::play::pgn`, which
//! documents the layout and also writes the browser GUI's games): the
//! record's tags, its book moves as the `Opening`, `Termination` from
//! [`Termination::pgn_tag`](crate::referee::record::Termination::pgn_tag)
//! and its words as the closing comment; engines kept between games
//! (`restart=off`) add their process and memory
//! ([`GameRecord::memory_tags`]).
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

use crate::config::spec::PgnStyle;
use crate::openings::Opening;
use crate::referee::record::{GameRecord, MoveRecord, Start};
use leiserchess::play::pgn::{self, black_starts, date, tag, MoveNumbers, Standard};

pub fn to_pgn(r: &GameRecord, style: PgnStyle) -> String {
    to_pgn_with(r, style, &[])
}

/// [`to_pgn`] with `tags` after the record's own in the standard style (a
/// cluster task's node speed, `pgn::time_control`); the course's style
/// keeps its seven.
pub fn to_pgn_with(r: &GameRecord, style: PgnStyle, tags: &[(String, String)]) -> String {
    let result = if r.result.is_empty() {
        "*"
    } else {
        r.result.as_str()
    };
    let fen = match &r.start {
        Start::StartPos => None,
        Start::Fen(f) => Some(f.as_str()),
    };
    match style {
        PgnStyle::Standard => pgn::standard(&Standard {
            event: &r.event,
            round: &r.round,
            white: &r.white,
            black: &r.black,
            fen,
            opening: &r.opening,
            moves: &r.moves,
            result,
            termination_tag: r.termination.pgn_tag(),
            termination: &r.termination.to_string(),
            started_unix: r.started_unix,
            extra: &[r.memory_tags(), tags.to_vec()].concat(),
        }),
        PgnStyle::Course => course(r, fen, result),
    }
}

/// The `FEN` and `Opening` tags [`to_pgn`] writes for a game from
/// `opening`.
pub fn start_tags(opening: &Opening) -> (Option<&str>, Option<String>) {
    let fen = match &opening.start {
        Start::Fen(f) => Some(f.as_str()),
        Start::StartPos => None,
    };
    (
        fen,
        (!opening.moves.is_empty()).then(|| opening.moves.join(" ")),
    )
}

/// The course referee's layout of `r`, which started from `fen` (`None`:
/// the start position) and ended with `result`.
fn course(r: &GameRecord, fen: Option<&str>, result: &str) -> String {
    let normal = r.termination.pgn_tag() == "normal";
    let mut out = String::new();
    tag(&mut out, "Event", &r.event);
    tag(&mut out, "Site", "Local");
    tag(&mut out, "Date", &course_date(r.started_unix));
    tag(&mut out, "Round", &r.round);
    tag(&mut out, "White", &r.white);
    tag(&mut out, "Black", &r.black);
    tag(&mut out, "Result", result);
    if let Some(f) = fen {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", f);
    }
    if !normal {
        tag(&mut out, "Termination", r.termination.pgn_tag());
    }
    out.push('\n');
    let mut numbers = MoveNumbers::new(fen.is_some_and(black_starts));
    let mut units = Vec::new();
    for m in &r.opening {
        units.push(numbers.next(m));
        units.push("{0 0 0}".to_string());
    }
    for m in &r.moves {
        units.push(numbers.next(&m.text));
        units.push(course_comment(m));
    }
    if !normal {
        units.push(format!("{{{}}}", r.termination));
    }
    units.push(result.to_string());
    out.push_str(&course_lines(&units));
    out.push_str("\n\n");
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::{Adjudication, FaultKind, Termination};

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
            memory: Vec::new(),
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
            memory: Vec::new(),
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
