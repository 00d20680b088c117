//! A played game, as the referee records it.

use leiserchess::rules::game::Outcome;

/// Why a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Termination {
    /// A King was zapped (by either side).
    KingZapped,
    Repetition,
    NoZap,
    /// The referee ended it on the tournament's settings.
    Adjudicated(Adjudication),
    /// The opening could not be played (nobody's fault): scored a draw.
    Void(String),
    /// The engine at fault loses; `reason` says what it did.
    Fault {
        engine: String,
        kind: FaultKind,
        detail: String,
    },
}

/// How the referee ended a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Adjudication {
    /// The game reached the move limit: a draw.
    MoveLimit,
    /// Both engines' last `move_count` scores were within `±score_cp`: a
    /// draw.
    DrawScores { move_count: u32, score_cp: i32 },
    /// `engine`'s last `move_count` scores were at most `-score_cp`: it
    /// loses.
    Resign {
        engine: String,
        move_count: u32,
        score_cp: i32,
    },
}

/// An engine's fault, each a loss for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum FaultKind {
    IllegalMove,
    Crash,
    Hang,
    TimeForfeit,
}

impl FaultKind {
    pub const ALL: [FaultKind; 4] = [
        FaultKind::IllegalMove,
        FaultKind::Crash,
        FaultKind::Hang,
        FaultKind::TimeForfeit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::TimeForfeit => "time forfeit",
        }
    }

    /// The fault a PGN `Termination` tag names, if it names one.
    pub fn from_pgn_tag(tag: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|&kind| {
            let t = Termination::Fault {
                engine: String::new(),
                kind,
                detail: String::new(),
            };
            t.pgn_tag() == tag
        })
    }
}

impl Termination {
    /// The value of the PGN `Termination` tag: the PGN standard's
    /// `normal`, `adjudication`, `rules infraction`, `time forfeit`,
    /// `abandoned` (a crash), `unterminated` (a void game), and
    /// cutechess's `stalled connection` (a hang).
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::KingZapped | Termination::Repetition | Termination::NoZap => "normal",
            Termination::Adjudicated(_) => "adjudication",
            Termination::Void(_) => "unterminated",
            Termination::Fault { kind, .. } => match kind {
                FaultKind::IllegalMove => "rules infraction",
                FaultKind::Crash => "abandoned",
                FaultKind::Hang => "stalled connection",
                FaultKind::TimeForfeit => "time forfeit",
            },
        }
    }
}

impl From<Outcome> for Termination {
    fn from(o: Outcome) -> Termination {
        match o {
            Outcome::KingZapped { .. } => Termination::KingZapped,
            Outcome::Repetition => Termination::Repetition,
            Outcome::NoZap => Termination::NoZap,
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Termination::KingZapped => f.write_str("King zapped"),
            Termination::Repetition => f.write_str("draw by repetition"),
            Termination::NoZap => f.write_str("draw by the no-zap rule"),
            Termination::Adjudicated(Adjudication::MoveLimit) => {
                f.write_str("adjudication: draw at the move limit")
            }
            Termination::Adjudicated(Adjudication::DrawScores {
                move_count,
                score_cp,
            }) => write!(
                f,
                "adjudication: draw, both engines' last {move_count} scores within ±{score_cp} cp"
            ),
            Termination::Adjudicated(Adjudication::Resign {
                engine,
                move_count,
                score_cp,
            }) => write!(
                f,
                "adjudication: {engine} loses, its last {move_count} scores at most -{score_cp} cp"
            ),
            Termination::Void(why) => write!(f, "void game: {why}"),
            Termination::Fault {
                engine,
                kind,
                detail,
            } => {
                write!(f, "{engine} loses: {}: {detail}", kind.name())
            }
        }
    }
}

/// One move with what the engine said about it: the engine library's PGN
/// record, which autotest writes through the same PGN writer.
pub use leiserchess::play::pgn::MoveRecord;

/// How a game started.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Start {
    StartPos,
    Fen(String),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    pub event: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub start: Start,
    /// Moves of the opening, played before the engines took over.
    pub opening: Vec<String>,
    pub moves: Vec<MoveRecord>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub termination: Termination,
    /// Unix time the game started (for the PGN date).
    pub started_unix: u64,
    /// Wall time of the whole game, engine start-up included.
    pub duration_ms: u64,
    /// The engines kept for the next game (`restart=off`), measured after
    /// this one.
    pub memory: Vec<EngineMemory>,
}

/// A kept engine's process after a game: which process, how many games
/// it has played, and its resident memory.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineMemory {
    /// `White` or `Black`: the side it played.
    pub side: &'static str,
    /// `HOST:PID`.
    pub process: String,
    /// Games the process has played, this one included.
    pub games: u32,
    /// Its resident set (`VmRSS`), kB; none where /proc does not say.
    pub rss_kb: Option<u64>,
}

impl GameRecord {
    /// Whether an engine lost it on time or by a hang: what a stop of the
    /// referee's process would look like.
    pub fn ended_on_time(&self) -> bool {
        matches!(
            self.termination,
            Termination::Fault {
                kind: FaultKind::Hang | FaultKind::TimeForfeit,
                ..
            }
        )
    }

    /// The PGN tags of the kept engines' memory (the Standard style's):
    /// `WhiteProcess "HOST:PID"`, `WhiteProcessGames "17"`, `WhiteRSS
    /// "45678"` (kB), and the same for Black.
    pub fn memory_tags(&self) -> Vec<(String, String)> {
        let mut tags = Vec::new();
        for m in &self.memory {
            tags.push((format!("{}Process", m.side), m.process.clone()));
            tags.push((format!("{}ProcessGames", m.side), m.games.to_string()));
            if let Some(kb) = m.rss_kb {
                tags.push((format!("{}RSS", m.side), kb.to_string()));
            }
        }
        tags
    }
}

/// Score of a game for white from its result: 2 win, 1 draw, 0 loss
/// (half-points).
pub fn white_halves(result: &str) -> u64 {
    match result {
        "1-0" => 2,
        "0-1" => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leiserchess::rules::piece::Color;

    /// A game ended by the rules closes its PGN with the rules' own words,
    /// as the browser GUI's games do.
    #[test]
    fn rule_endings_say_what_the_rules_say() {
        for o in [
            Outcome::KingZapped {
                winner: Color::Black,
            },
            Outcome::Repetition,
            Outcome::NoZap,
        ] {
            let t = Termination::from(o);
            assert_eq!(
                (t.to_string().as_str(), t.pgn_tag()),
                (o.reason(), "normal")
            );
        }
    }
}
