//! PGN output: one game per call, in chess PGN's export layout adapted to
//! Leiserchess.
//!
//! Tags: the seven-tag roster (`Event`, `Site`, `Date`, `Round`, `White`,
//! `Black`, `Result`), then `SetUp "1"` and `FEN` when the game started from
//! a FEN, `Termination`, `PlyCount` and, when the game had book moves,
//! `Opening` (the book moves separated by spaces).
//!
//! Movetext: the book moves (a `{book}` comment after the last one), then
//! the engines' moves, each followed by `{time depth nodes}` (seconds with
//! three decimals; `-` for what the engine did not say), numbered as in
//! chess (`1. g4L {book} b3L {0.512 7 12345} 2. ...`; a game starting with
//! Lavender to move begins `1... m`). The result ends the movetext, lines
//! are at most 80 columns, and a blank line ends the game.

use crate::record::{GameRecord, MoveRecord, Start};

/// Movetext lines are at most this long.
const WIDTH: usize = 80;

pub fn to_pgn(r: &GameRecord) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    let result = if r.result.is_empty() {
        "*"
    } else {
        r.result.as_str()
    };
    tag("Event", &r.event);
    tag("Site", "?");
    tag("Date", &date(r.started_unix));
    tag("Round", &r.round);
    tag("White", &r.white);
    tag("Black", &r.black);
    tag("Result", result);
    if let Start::Fen(f) = &r.start {
        tag("SetUp", "1");
        tag("FEN", f);
    }
    tag("Termination", &r.termination.to_string());
    tag("PlyCount", &(r.opening.len() + r.moves.len()).to_string());
    if !r.opening.is_empty() {
        tag("Opening", &r.opening.join(" "));
    }
    out.push('\n');
    let units = movetext(r, result);
    out.push_str(&wrap(&units));
    out.push_str("\n\n");
    out
}

/// The movetext as unbreakable units (a numbered move, a comment, the
/// result), in order.
fn movetext(r: &GameRecord, result: &str) -> Vec<String> {
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
        if i + 1 == r.opening.len() {
            units.push("{book}".to_string());
        }
    }
    for m in &r.moves {
        push_move(&mut units, &m.text);
        units.push(comment(m));
    }
    units.push(result.to_string());
    units
}

/// `{time depth nodes}` for one engine move.
fn comment(m: &MoveRecord) -> String {
    let secs = format!("{}.{:03}", m.time_ms / 1000, m.time_ms % 1000);
    let depth = m.depth.map_or("-".to_string(), |d| d.to_string());
    let nodes = m.nodes.map_or("-".to_string(), |n| n.to_string());
    format!("{{{secs} {depth} {nodes}}}")
}

/// Whether the game starts with Lavender (Black) to move: a FEN whose side
/// is `B`.
fn black_starts(start: &Start) -> bool {
    match start {
        Start::StartPos => false,
        Start::Fen(f) => match leiserchess::fen::parse(f) {
            Ok(b) => b.side() == leiserchess::piece::Color::Black,
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
    use crate::record::{FaultKind, Termination};

    fn mv(text: &str, time_ms: u64, depth: Option<u32>, nodes: Option<u64>) -> MoveRecord {
        MoveRecord {
            text: text.to_string(),
            time_ms,
            depth,
            nodes,
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
[Termination \"King zapped\"]
[PlyCount \"5\"]
[Opening \"g4L b3L\"]

1. g4L b3L {book} 2. h0R {0.512 7 12345} a7L {1.003 - -} 3. f1g2 {0.000 3 -} 1-0

";
        assert_eq!(to_pgn(&record()), expected);
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
[Termination \"alpha loses: time forfeit: no move in 1000 ms\"]
[PlyCount \"3\"]

1... a7b7 {0.020 9 1000} 2. h0g0 {0.030 8 2000} b7b6 {0.040 10 3000} 0-1

";
        assert_eq!(to_pgn(&r), expected);
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
        let pgn = to_pgn(&r);
        let body = pgn.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 10);
        assert!(body
            .lines()
            .all(|l| l.len() <= WIDTH && !l.ends_with(' ') && !l.starts_with(' ')));
        // Nothing is lost or reordered by the wrapping.
        let joined = body.lines().collect::<Vec<_>>().join(" ");
        assert_eq!(joined, movetext(&r, "1-0").join(" "));
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
}
