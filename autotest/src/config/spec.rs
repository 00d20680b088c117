//! What a tournament is: the engines with their limits and options, the
//! openings, the schedule and the rules. Both configuration forms (the
//! course's config files and cutechess-style flags) parse into this.

use leiserchess::rules::game::NO_ZAP_PLIES;
use std::ops::Range;
use std::path::PathBuf;

/// The course referee's no-zap limit, a course config's default (the
/// flags' default is the rules' own, `leiserchess::rules::game::NO_ZAP_PLIES`).
pub const COURSE_NO_ZAP_PLIES: u32 = 200;

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

/// A cluster task's node speed (`crate::slurm::node_speed`): its engines'
/// clocks were scaled by `scale`, and each game's PGN says so.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct NodeSpeed {
    /// The node's bench, nodes per second.
    pub nps: f64,
    /// The reference speed over `nps`, to three decimals: what every
    /// clock was multiplied by.
    pub scale: f64,
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
    /// A fresh process for every game (`restart=on`, the default); with
    /// `restart=off` a worker keeps the process from game to game
    /// (`referee::kept`), as cutechess-cli does.
    pub restart: bool,
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

/// How games are written to the PGN file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PgnStyle {
    /// Chess PGN's export layout (see `pgn::write`): `{seconds depth nodes}`
    /// comments, the opening marked `{book}`.
    #[default]
    Standard,
    /// The course referee's layout, which the course's `pgnrate.tcl` and
    /// BayesElo read: `{nanoseconds depth nodes}` comments,
    /// book moves as `{0 0 0}`, games numbered from 0 across the file.
    Course,
}

/// Draw adjudication from the engines' reported scores (cutechess's
/// `-draw`): a draw once, from move `move_number` on, each engine's last
/// `move_count` scores are all within `±score_cp`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score_cp: i32,
}

/// Resign adjudication (cutechess's `-resign`): an engine whose last
/// `move_count` scores are all at most `-score_cp` loses; with
/// `two_sided`, only if its opponent's last `move_count` scores are also
/// all at least `+score_cp`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ResignRule {
    pub move_count: u32,
    pub score_cp: i32,
    pub two_sided: bool,
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
    pub pgn_style: PgnStyle,
    /// Add to an existing PGN file (else it is replaced).
    pub pgn_append: bool,
    /// Go on from the games already in `pgn_out`, written by an earlier
    /// run with the same settings (`tournament::resume`).
    pub resume: bool,
    pub sprt: Option<SprtSpec>,
    /// Play at most this many games in all, repeating the rounds as
    /// needed (the course config's `game_rounds`); `None`: `rounds` rounds.
    pub max_games: Option<u32>,
    /// Adjudicate a draw once the game has this many plies, the opening's
    /// included (0: never).
    pub max_plies: u32,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// The draw rules: occurrences of a position, plies without a zap
    /// (0: never; also sent to engines that have a `no_zap_plies` option).
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
    /// Play only the games of these pairs (by [`Job::pair`]): one shard of
    /// a run spread over a cluster (`crate::slurm`). `None`: every game.
    ///
    /// [`Job::pair`]: crate::tournament::schedule::Job::pair
    pub only_pairs: Option<Range<usize>>,
    /// The speed of the node a cluster task plays on, if its clocks were
    /// scaled by it: the games' PGN (the standard style) gets `NodeNps`,
    /// `TimeScale` and the clocks played (`pgn::time_control`).
    pub node_speed: Option<NodeSpeed>,
    /// The results database as `-db` named it (a path, or `none`); `None`:
    /// the environment's or the default (`crate::db::path`).
    pub db: Option<String>,
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
            pgn_style: PgnStyle::Standard,
            pgn_append: false,
            resume: false,
            sprt: None,
            max_games: None,
            max_plies: 0,
            draw: None,
            resign: None,
            repetitions: 3,
            no_zap_plies: NO_ZAP_PLIES,
            time_margin_ms: 50,
            recover: true,
            seed: 1,
            family: Vec::new(),
            only_pairs: None,
            node_speed: None,
            db: None,
        }
    }
}
