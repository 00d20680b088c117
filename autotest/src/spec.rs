//! What a tournament is: the engines with their limits and options, the
//! openings, the schedule and the rules. Both configuration forms (the
//! course's config files and cutechess-style flags) parse into this.

use std::path::PathBuf;

/// A chess-style clock.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Clock {
    /// `base_ms` for the game, `inc_ms` added after every move.
    Fischer { base_ms: u64, inc_ms: u64 },
    /// `period_ms` for every `moves` moves (the clock is refilled then).
    Period { moves: u32, period_ms: u64 },
}

/// How an engine is asked to move. Any combination may be given; with none,
/// the tournament's default clock applies.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct EngineLimits {
    pub clock: Option<Clock>,
    /// Fixed time per move (`st=` / `movetime`), ms.
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// One engine of the tournament.
#[derive(Clone, PartialEq, Debug)]
pub struct EngineSpec {
    /// Its name in tables and PGN headers (unique in a tournament).
    pub name: String,
    /// The program and its arguments (a command line split on white space,
    /// with "double quotes" grouping).
    pub command: Vec<String>,
    /// Working directory, if not the current one.
    pub dir: Option<PathBuf>,
    /// UCI options sent as `setoption name <k> value <v>` at start.
    pub options: Vec<(String, String)>,
    pub limits: EngineLimits,
}

/// Where openings come from and in which order.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct OpeningsSpec {
    /// A file of openings, one a line: a move list (the course's book
    /// format) or a FEN (`<board> <W|B>`, optionally `moves …`).
    pub file: Option<PathBuf>,
    /// Take them in random order (else in file order).
    pub random: bool,
    /// Play only the first `plies` moves of each move-list opening.
    pub plies: Option<usize>,
}

/// A sequential probability ratio test on the first engine against the
/// others, in normalized Elo (fishtest's convention).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Schedule {
    /// Every engine meets every other.
    #[default]
    RoundRobin,
    /// The first engine meets each of the others.
    Gauntlet,
}

/// The whole tournament.
#[derive(Clone, PartialEq, Debug)]
pub struct TournamentSpec {
    pub title: String,
    pub engines: Vec<EngineSpec>,
    pub schedule: Schedule,
    /// Games per encounter (pairing of two engines) per round.
    pub games: u32,
    pub rounds: u32,
    /// Games played at once.
    pub concurrency: usize,
    pub openings: OpeningsSpec,
    /// Play each opening twice with colours swapped (a game pair).
    pub repeat: bool,
    pub pgn_out: Option<PathBuf>,
    pub sprt: Option<SprtSpec>,
    /// Adjudicate a draw after this many plies (0: never).
    pub max_plies: u32,
    /// The draw rules: occurrences of a position, plies without a zap.
    pub repetitions: u32,
    pub no_zap_plies: u32,
    /// Grace allowed past a clock before a loss on time, ms.
    pub time_margin_ms: u64,
    /// Restart an engine that crashed and go on (else stop the tournament).
    pub recover: bool,
    /// Seed for random opening order.
    pub seed: u64,
    /// Per engine (by index; missing means none): engines of one family
    /// never meet in a round-robin.
    pub family: Vec<Option<String>>,
}

impl Default for TournamentSpec {
    fn default() -> Self {
        TournamentSpec {
            title: "autotest".to_string(),
            engines: Vec::new(),
            schedule: Schedule::RoundRobin,
            games: 2,
            rounds: 1,
            concurrency: std::thread::available_parallelism().map_or(1, |n| n.get()),
            openings: OpeningsSpec::default(),
            repeat: true,
            pgn_out: None,
            sprt: None,
            max_plies: 0,
            repetitions: 3,
            no_zap_plies: 100,
            time_margin_ms: 50,
            recover: true,
            seed: 1,
            family: Vec::new(),
        }
    }
}
