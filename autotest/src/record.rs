//! A played game, as the referee records it.

/// Why a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Termination {
    /// A King was zapped (by either side).
    KingZapped,
    Repetition,
    NoZap,
    /// The adjudication ply limit was reached: a draw.
    Adjudicated,
    /// The opening could not be played (nobody's fault): scored a draw.
    Void(String),
    /// The engine at fault loses; `reason` says what it did.
    Fault {
        engine: String,
        kind: FaultKind,
        detail: String,
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
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::TimeForfeit => "time forfeit",
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Termination::KingZapped => f.write_str("King zapped"),
            Termination::Repetition => f.write_str("draw by repetition"),
            Termination::NoZap => f.write_str("draw by the no-zap rule"),
            Termination::Adjudicated => f.write_str("adjudicated draw (ply limit)"),
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

/// One move with what the engine said about it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveRecord {
    pub text: String,
    pub time_ms: u64,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

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
}
