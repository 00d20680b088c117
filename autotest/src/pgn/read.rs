//! Reading PGN files back, as far as `-resume` and `autotest stats --pgn`
//! need: each game's tags and whether it was written whole.
//!
//! Tolerant: a game starts at a line beginning with `[Event `; its tags
//! are the `[Name "value"]` lines up to the first other line (`\"` and
//! `\\` escapes, as `pgn::write` writes them); the rest, up to the next
//! game, is its movetext, which is only looked at for its last token.
//! Text before the first game is ignored.

use std::path::Path;

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The line of its `[Event` tag, counted from 1.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// Its text as in the file, from its `[Event` line to the next game.
    pub text: String,
    /// Whether a line of its header was not a tag.
    bad_tag: bool,
    /// The last token of its movetext outside comments, if any.
    last_token: Option<String>,
}

impl PgnGame {
    /// The value of tag `name` (the first, if given twice).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's result, `1-0`, `0-1` or `1/2-1/2`, if it has one and was
    /// written whole: every header line a tag, and the movetext ending
    /// with that result. `None` for an unfinished game (`*`) or one cut
    /// short (a run killed while writing it).
    pub fn result(&self) -> Option<&str> {
        let r = self.tag("Result")?;
        let finished = matches!(r, "1-0" | "0-1" | "1/2-1/2");
        (finished && !self.bad_tag && self.last_token.as_deref() == Some(r)).then_some(r)
    }
}

/// The games of a PGN text.
pub fn parse(text: &str) -> Vec<PgnGame> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut in_header = false;
    let mut movetext = String::new();
    let finish = |game: Option<&mut PgnGame>, movetext: &mut String| {
        if let Some(g) = game {
            g.last_token = last_token(movetext);
        }
        movetext.clear();
    };
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with("[Event ") {
            finish(games.last_mut(), &mut movetext);
            games.push(PgnGame {
                line: i + 1,
                tags: Vec::new(),
                text: String::new(),
                bad_tag: false,
                last_token: None,
            });
            in_header = true;
        }
        let Some(game) = games.last_mut() else {
            continue;
        };
        game.text.push_str(line);
        let trimmed = line.trim();
        if in_header && trimmed.starts_with('[') {
            match parse_tag(trimmed) {
                Some(tag) => game.tags.push(tag),
                None => game.bad_tag = true,
            }
        } else {
            in_header = false;
            movetext.push_str(line);
        }
    }
    finish(games.last_mut(), &mut movetext);
    games
}

/// The games of the PGN file at `path`; an error names the file.
pub fn read(path: &Path) -> Result<Vec<PgnGame>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(parse(&String::from_utf8_lossy(&bytes)))
}

/// `[Name "value"]` (the line trimmed), its escapes undone.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let mut chars = rest.trim_start().strip_prefix('"')?.chars();
    let mut value = String::new();
    loop {
        match chars.next()? {
            '\\' => value.push(chars.next()?),
            '"' => break,
            c => value.push(c),
        }
    }
    let closed = chars.as_str().trim().is_empty();
    (closed && !name.is_empty()).then(|| (name.to_string(), value))
}

/// The last white-space separated token of `movetext` outside `{…}`
/// comments (an unclosed one runs to the end) and `;` line comments.
fn last_token(movetext: &str) -> Option<String> {
    let mut last = None;
    let mut token = String::new();
    let mut comment: Option<char> = None;
    for c in movetext.chars().chain(std::iter::once('\n')) {
        match comment {
            Some('{') if c == '}' => comment = None,
            Some(';') if c == '\n' => comment = None,
            Some(_) => {}
            None if c == '{' || c == ';' || c.is_whitespace() => {
                if !token.is_empty() {
                    last = Some(std::mem::take(&mut token));
                }
                if !c.is_whitespace() {
                    comment = Some(c);
                }
            }
            None => token.push(c),
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::PgnStyle;
    use crate::pgn::write::to_pgn;
    use crate::referee::record::{FaultKind, GameRecord, MoveRecord, Start, Termination};

    fn record(round: &str, white: &str, black: &str, result: &str) -> GameRecord {
        GameRecord {
            event: "Lab \"cup\" \\ 2".to_string(),
            round: round.to_string(),
            white: white.to_string(),
            black: black.to_string(),
            start: Start::StartPos,
            opening: vec!["g4L".to_string(), "b3L".to_string()],
            moves: vec![MoveRecord {
                text: "h0R".to_string(),
                time_ns: 5_000_000,
                depth: Some(3),
                nodes: None,
                score: None,
            }],
            result: result.to_string(),
            termination: Termination::KingZapped,
            started_unix: 1_543_492_800,
            duration_ms: 0,
            memory: Vec::new(),
        }
    }

    fn records() -> Vec<GameRecord> {
        let mut fault = record("1.2", "beta\\2", "al\"pha\"", "1-0");
        fault.termination = Termination::Fault {
            engine: "al\"pha\"".to_string(),
            kind: FaultKind::TimeForfeit,
            detail: "no move in 10 ms {really}".to_string(),
        };
        fault.start = Start::Fen("ss7/8/8/8/8/8/8/7NN B".to_string());
        fault.opening.clear();
        let mut unfinished = record("2.3", "al\"pha\"", "beta\\2", "");
        unfinished.termination = Termination::Void("opening move 'x'".to_string());
        vec![
            record("1.1", "al\"pha\"", "beta\\2", "1/2-1/2"),
            fault,
            unfinished,
            record("7", "x", "y", "0-1"),
        ]
    }

    /// Every tag `to_pgn` writes reads back as it was, escapes undone; the
    /// games' texts put together are the file again.
    #[test]
    fn round_trip_through_to_pgn() {
        for style in [PgnStyle::Standard, PgnStyle::Course] {
            let recs = records();
            let texts: Vec<String> = recs.iter().map(|r| to_pgn(r, style)).collect();
            let games = parse(&texts.concat());
            assert_eq!(games.len(), recs.len(), "{style:?}");
            let mut line = 1;
            for ((g, r), text) in games.iter().zip(&recs).zip(&texts) {
                assert_eq!(g.text, *text);
                assert_eq!(g.line, line);
                line += text.lines().count();
                assert_eq!(g.tag("Event"), Some(r.event.as_str()));
                assert_eq!(g.tag("Round"), Some(r.round.as_str()));
                assert_eq!(g.tag("White"), Some(r.white.as_str()));
                assert_eq!(g.tag("Black"), Some(r.black.as_str()));
                let fen = match &r.start {
                    Start::Fen(f) => Some(f.as_str()),
                    Start::StartPos => None,
                };
                assert_eq!(g.tag("FEN"), fen);
                let expected = Some(r.result.as_str()).filter(|r| !r.is_empty());
                assert_eq!(g.result(), expected, "{text}");
                if style == PgnStyle::Standard {
                    assert_eq!(g.tag("Termination"), Some(r.termination.pgn_tag()));
                    let opening = r.opening.join(" ");
                    assert_eq!(
                        g.tag("Opening"),
                        Some(opening.as_str()).filter(|o| !o.is_empty())
                    );
                }
            }
            assert_eq!(games[3].tag("Result"), Some("0-1"));
            assert_eq!(games[2].tag("Result"), Some("*"));
        }
    }

    /// A game cut short while being written has no result; a line that is
    /// not a tag spoils its game only.
    #[test]
    fn cut_short_and_bad_tags() {
        let full = to_pgn(&records()[0], PgnStyle::Standard);
        for cut in [full.len() - 4, full.len() / 2, full.find("\n\n").unwrap()] {
            let text = format!("junk before\n{full}{}", &full[..cut]);
            let games = parse(&text);
            assert_eq!(games.len(), 2);
            assert_eq!(games[0].result(), Some("1/2-1/2"));
            assert_eq!(games[0].line, 2);
            assert_eq!(games[1].result(), None, "cut at {cut}: {}", &full[..cut]);
        }
        let bad = full.replace("[Site \"?\"]", "[Site \"?]");
        let games = parse(&format!("{bad}{full}"));
        assert_eq!(games[0].result(), None);
        assert_eq!(games[0].tag("Site"), None);
        assert_eq!(games[1].result(), Some("1/2-1/2"));
        assert_eq!(
            parse_tag("[A \"x\\\"]\"]"),
            Some(("A".into(), "x\"]".into()))
        );
        assert_eq!(parse_tag("[A \"x\" y]"), None);
        assert_eq!(parse_tag("[ \"x\"]"), None);
        assert_eq!(last_token("1. a {b 1-0} 1-0 ; c\n"), Some("1-0".into()));
        assert_eq!(last_token("1. a {1-0"), Some("a".into()));
    }
}
