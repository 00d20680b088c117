//! The UCI loop under random input (issue 10). A seeded generator feeds the
//! engine binary a mix of valid and invalid lines, while a model of its
//! position (the library's `Game`, changed exactly as the engine's is)
//! predicts what it may answer. A fault is: a panic (on stdout or stderr,
//! or exit status 101), an `isready` without `readyok` within 5 s, a
//! `bestmove` that is not a legal move of the position its `go` searched
//! (`0000` exactly when there is none), a bounded `go` or a stopped search
//! without its `bestmove`, a `bestmove` after a refused `go`, a malformed
//! `go` accepted or a well-formed one refused, `display` showing another
//! position than the model's, a control character in an output line, an
//! error line quoting much more than 80 characters of input, or an exit
//! before `quit`.
//!
//! After a fault the engine is restarted and the run goes on; every fault
//! is reported with the seed, the last lines sent, and the whole input of
//! its engine written to a file that `leiserchess < FILE` replays.
//!
//! `cargo test --test engine -- fuzz_uci::` runs a short fixed-seed run; the full run
//! is `scripts/fuzz_uci.sh [LINES] [SEED]` (`FUZZ_LINES`, `FUZZ_SEED`).

use crate::common::{engine, rng};

use leiserchess::config::options;
use leiserchess::declaration::Kind as OptionKind;
use leiserchess::play::client::{Client, ClientError, Stderr};
use leiserchess::protocol::uci::position_args;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::rules::movegen::generate;
use leiserchess::rules::moves::MoveList;
use leiserchess::rules::piece::Color;
use rng::Rng;
use std::collections::VecDeque;
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The seed of the default run and of the full run without `FUZZ_SEED`.
const DEFAULT_SEED: u64 = 0x00f0_2210;

/// The default run's size: about 1.5 s on a 2-core machine.
const DEFAULT_LINES: usize = 1500;

/// The run stops after this many different faults (each reported in full
/// once), or this many faults in all.
const MAX_KINDS_OF_FAULT: usize = 5;
const MAX_FAULTS: usize = 1000;

/// The longest error line allowed: input is quoted up to 80 characters,
/// and the longest line seen is under 300 (the summary's figure).
const MAX_ERROR_LINE: usize = 400;

/// The lines of input shown with a fault.
const SHOWN_LINES: usize = 20;

/// The issue's limits: `readyok` within 5 s of `isready`, a bounded search
/// answered within 5 s (the slowest one measured takes under 0.5 s, see
/// the summary's latency), the exit within 5 s of `quit`.
const LIMITS: Timeouts = Timeouts {
    ready: Duration::from_secs(5),
    bestmove: Duration::from_secs(5),
    quit: Duration::from_secs(5),
};

#[derive(Clone, Copy)]
struct Timeouts {
    ready: Duration,
    bestmove: Duration,
    quit: Duration,
}

/// The commands of PROTOCOL.md, `display`'s alias `d`, and the
/// `debug-commands` build's `dump` and hidden `debug`.
const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "perft",
    "display",
    "d",
    "eval",
    "generate",
    "move",
    "help",
    "quit",
    "dump",
    "debug",
];

/// The engine's commands: `COMMANDS` and every one its `help` lists (the
/// first word of each line), so that no garbage line reads as a command
/// added later. A line's command is its first token that is one of them,
/// as in the engine.
fn commands() -> &'static [String] {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        let out = engine::run(&[], "help\nquit\n");
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut list: Vec<String> = COMMANDS.iter().map(|c| c.to_string()).collect();
        for word in help.lines().filter_map(|l| l.split_whitespace().next()) {
            if !list.iter().any(|c| c == word) {
                list.push(word.to_string());
            }
        }
        list
    })
}

fn is_command(token: &str) -> bool {
    commands().iter().any(|c| c == token)
}

#[test]
fn fuzz_uci_short() {
    fuzz(DEFAULT_LINES, DEFAULT_SEED);
}

#[test]
#[ignore = "the full run, about 20 s: scripts/fuzz_uci.sh"]
fn fuzz_uci_full() {
    let lines = std::env::var("FUZZ_LINES").map_or(20_000, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("FUZZ_LINES wants a count, got '{v}'"))
    });
    let seed = std::env::var("FUZZ_SEED").map_or(DEFAULT_SEED, |v| {
        let hex = v.strip_prefix("0x").map(|h| u64::from_str_radix(h, 16));
        hex.unwrap_or_else(|| v.parse())
            .unwrap_or_else(|_| panic!("FUZZ_SEED wants a number (or 0x hex), got '{v}'"))
    });
    fuzz(lines, seed);
}

/// Runs `lines` generated lines from `seed` through the engine, prints the
/// summary and fails with every fault's report.
fn fuzz(lines: usize, seed: u64) {
    let start = Instant::now();
    let mut gen = Gen(Rng(seed));
    // One report for each fault signature, with how often it was seen.
    let mut reports: Vec<(String, String, usize)> = Vec::new();
    let record = |reports: &mut Vec<(String, String, usize)>, session: &Session, f: &Fault| {
        let sig = signature(f);
        match reports.iter_mut().find(|(s, _, _)| *s == sig) {
            Some((_, _, n)) => *n += 1,
            None => reports.push((sig, session.report(f, seed, reports.len()), 1)),
        }
    };
    let mut stats = Stats::default();
    let mut session = Session::start(engine_command(), LIMITS, stats);
    while session.stats.lines < lines
        && session.stats.faults() < MAX_FAULTS
        && reports.len() < MAX_KINDS_OF_FAULT
    {
        let line = gen.line(&session.model, session.awaiting_stop());
        let choice = Choice {
            sync: gen.one_in(2),
            wait: gen.one_in(2),
        };
        if let Err(f) = session.feed(&line, choice) {
            record(&mut reports, &session, &f);
            stats = session.end(f.kind);
            stats.restarts += 1;
            session = Session::start(engine_command(), LIMITS, stats);
        }
    }
    stats = match session.quit() {
        Ok(()) => session.end_clean(),
        Err(f) => {
            record(&mut reports, &session, &f);
            session.end(f.kind)
        }
    };
    let summary = stats.summary(seed, start.elapsed());
    println!("{summary}");
    for (_, report, n) in &reports {
        eprintln!("{report}\n  (this fault: {n} times)");
    }
    assert!(
        reports.is_empty(),
        "{} different fault(s) with seed {seed:#x}; {summary}",
        reports.len()
    );
}

/// What tells faults apart: a panic's place in the source, or the kind
/// and the first words of the description.
fn signature(f: &Fault) -> String {
    match f.what.split_once("panicked at ") {
        Some((_, at)) => at.split_whitespace().next().unwrap_or("").to_string(),
        None => {
            // Without the quoted input and the move lists.
            let mut plain = String::new();
            let mut inside = None;
            for c in f.what.chars() {
                match (inside, c) {
                    (None, '\'' | '[') => inside = Some(if c == '[' { ']' } else { c }),
                    (Some(end), _) if c == end => inside = None,
                    (None, _) => plain.push(c),
                    _ => {}
                }
            }
            let words: Vec<&str> = plain.split_whitespace().take(6).collect();
            format!("{:?} {}", f.kind, words.join(" "))
        }
    }
}

fn engine_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_leiserchess"))
}

// ---------------------------------------------------------------------------
// The oracle's checks on scripted fakes: each must report its planted fault.

/// A fake engine: a shell loop answering `isready` and `go` as `script`
/// says (it reads each line into `$l`).
fn fake(script: &str) -> Command {
    let mut c = Command::new("sh");
    c.args(["-c", &format!("while read -r l; do {script}; done")]);
    c
}

/// Short limits, so that the planted hangs are seen at once.
const FAKE_LIMITS: Timeouts = Timeouts {
    ready: Duration::from_millis(300),
    bestmove: Duration::from_millis(300),
    quit: Duration::from_millis(300),
};

/// Feeds `lines` (each synced) to `engine` and returns the first fault.
fn first_fault(engine: Command, lines: &[&str]) -> Option<Fault> {
    let mut s = Session::start(engine, FAKE_LIMITS, Stats::default());
    let choice = Choice {
        sync: true,
        wait: true,
    };
    let fault = lines
        .iter()
        .find_map(|l| s.feed(l.as_bytes(), choice).err())
        .or_else(|| s.quit().err());
    s.end_clean();
    fault
}

const READY: &str = r#"case "$l" in isready) echo readyok;; esac"#;

#[test]
fn oracle_catches_an_illegal_bestmove() {
    let f = first_fault(
        fake(r#"case "$l" in isready) echo readyok;; go*) echo "bestmove a0a0";; esac"#),
        &["position startpos", "go depth 1"],
    );
    assert_eq!(f.map(|f| f.kind), Some(Kind::Illegal));
}

#[test]
fn oracle_catches_a_null_bestmove_with_legal_moves() {
    let f = first_fault(
        fake(r#"case "$l" in isready) echo readyok;; go*) echo "bestmove 0000";; esac"#),
        &["go movetime 5"],
    );
    assert_eq!(f.map(|f| f.kind), Some(Kind::Illegal));
}

#[test]
fn oracle_catches_a_missing_bestmove_and_a_hang() {
    let f = first_fault(fake(READY), &["go depth 2"]);
    assert_eq!(f.map(|f| f.kind), Some(Kind::Missing));
    let f = first_fault(fake(":"), &["uci"]);
    assert_eq!(f.map(|f| f.kind), Some(Kind::Hang));
}

#[test]
fn oracle_catches_a_bestmove_after_a_refused_go() {
    let f = first_fault(
        fake(
            r#"case "$l" in isready) echo readyok;; go*) echo "info string error: go depth wants a number"; echo "bestmove h0L";; esac"#,
        ),
        &["go depth abc"],
    );
    assert_eq!(f.map(|f| f.kind), Some(Kind::Other));
    // The same fake without its error line accepts a malformed go.
    let f = first_fault(
        fake(r#"case "$l" in isready) echo readyok;; go*) echo "bestmove h0L";; esac"#),
        &["go movetime 1.5"],
    );
    assert!(f.is_some_and(|f| f.what.contains("malformed go")));
}

#[test]
fn oracle_catches_a_panic_and_an_early_exit() {
    let f = first_fault(
        fake(r#"echo "thread 'main' panicked at src/uci.rs:1:1" >&2; exit 101"#),
        &["uci"],
    );
    assert_eq!(f.map(|f| f.kind), Some(Kind::Panic));
    let f = first_fault(fake(r#"echo readyok; echo "panicked""#), &["isready"]);
    assert_eq!(f.map(|f| f.kind), Some(Kind::Panic));
    let f = first_fault(fake("exit 0"), &["display"]);
    assert_eq!(f.map(|f| f.kind), Some(Kind::Exit));
}

#[test]
fn oracle_catches_a_position_the_model_does_not_have() {
    let f = first_fault(
        fake(
            r#"case "$l" in isready) echo readyok;; display) echo "fen ss7/8/8/8/8/8/8/7NN W";; esac"#,
        ),
        &["position startpos moves h0L", "display"],
    );
    assert!(f.is_some_and(|f| f.kind == Kind::Other && f.what.contains("display")));
}

// ---------------------------------------------------------------------------
// The model: what the engine's position is, and what a line does to it.

/// What a line asks of the engine, as far as the oracle is concerned.
enum Effect {
    Ready,
    Go(GoPlan),
    Stop,
    PonderHit,
    /// `display`: the FEN it must show.
    Display(String),
    Other,
}

/// Whether a `go` must be accepted: `Bad` has a malformed limit and must
/// be refused, `Either` has something the protocol leaves open (an unknown
/// token, a limit out of range or too large to be a number).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Intent {
    Good,
    Either,
    Bad,
}

struct GoPlan {
    intent: Intent,
    /// A limit that ends the search on its own, soon: depth ≤ 4,
    /// nodes ≤ 1000 (MCTS and the hybrid read `nodes` as playouts, and
    /// with `mcts_ab_visits` 0 each runs a PVS of its own: 10,000 took
    /// seconds), movetime ≤ 100 ms or the mover's clock ≤ 5 s.
    limited: bool,
    infinite: bool,
    ponder: bool,
    /// The legal moves of the position searched, as the engine writes them.
    legal: Vec<String>,
    /// Whether the position is a draw by the rules (play may go on).
    drawn: bool,
}

impl GoPlan {
    /// Reads `go`'s arguments as PROTOCOL.md has them: the numeric limits
    /// take the next token; the last of a repeated limit counts.
    fn new(args: &[&str], game: &Game) -> GoPlan {
        let white = game.board().side() == Color::White;
        let mut intent = Intent::Good;
        let (mut depth, mut nodes, mut movetime, mut clock) = (None, None, None, None);
        let (mut infinite, mut ponder) = (false, false);
        let mut i = 0;
        while i < args.len() {
            let word = args[i].to_ascii_lowercase();
            i += 1;
            let numeric = [
                "depth",
                "nodes",
                "movetime",
                "time",
                "inc",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
            ];
            if numeric.contains(&word.as_str()) {
                let Some(v) = args.get(i) else {
                    intent = intent.max(Intent::Bad);
                    continue;
                };
                i += 1;
                let n = match v.parse::<u64>() {
                    Ok(n) if !v.starts_with('+') => n,
                    // Too large for the engine's number, or a '+': open.
                    _ if v
                        .trim_start_matches('+')
                        .bytes()
                        .all(|b| b.is_ascii_digit())
                        && !v.trim_start_matches('+').is_empty() =>
                    {
                        intent = intent.max(Intent::Either);
                        continue;
                    }
                    _ => {
                        intent = intent.max(Intent::Bad);
                        continue;
                    }
                };
                match word.as_str() {
                    "depth" => depth = Some(n),
                    "nodes" => nodes = Some(n),
                    "movetime" => movetime = Some(n),
                    "time" => clock = Some(n),
                    "wtime" if white => clock = Some(n),
                    "btime" if !white => clock = Some(n),
                    _ => {}
                }
                if (word == "depth" || word == "nodes") && n == 0 {
                    intent = intent.max(Intent::Either);
                }
            } else if word == "infinite" {
                infinite = true;
            } else if word == "ponder" {
                ponder = true;
            } else {
                intent = intent.max(Intent::Either);
            }
        }
        let limited = depth.is_some_and(|d| (1..=4).contains(&d))
            || nodes.is_some_and(|n| (1..=1_000).contains(&n))
            || movetime.is_some_and(|t| t <= 100)
            || clock.is_some_and(|t| t <= 5000);
        let legal: Vec<String> = game
            .clone()
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        GoPlan {
            intent,
            limited,
            infinite,
            ponder,
            drawn: game.outcome().is_some() && !legal.is_empty(),
            legal,
        }
    }
}

struct Model {
    game: Game,
}

impl Model {
    fn new() -> Model {
        Model {
            game: Game::from_fen(fen::STARTPOS).expect("the start position parses"),
        }
    }

    /// Applies `line` as the engine does: a line that is not UTF-8, or has
    /// no command token, does nothing; a `position` applies entirely or not
    /// at all.
    fn apply(&mut self, line: &[u8]) -> Effect {
        let Ok(text) = std::str::from_utf8(line) else {
            return Effect::Other;
        };
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some(at) = tokens.iter().position(|t| is_command(t)) else {
            return Effect::Other;
        };
        let args = &tokens[at + 1..];
        match tokens[at] {
            "isready" => Effect::Ready,
            "go" => Effect::Go(GoPlan::new(args, &self.game)),
            "stop" => Effect::Stop,
            "ponderhit" => Effect::PonderHit,
            "display" | "d" => Effect::Display(fen::to_fen(self.game.board())),
            "ucinewgame" => {
                *self = Model::new();
                Effect::Other
            }
            "position" => {
                if let Some(g) = position(args) {
                    self.game = g;
                }
                Effect::Other
            }
            "move" => {
                if let [m] = args {
                    // A refused move changes nothing.
                    let _ = self.game.play_text(m);
                }
                Effect::Other
            }
            _ => Effect::Other,
        }
    }
}

/// The game `position <args>` sets, or `None` if the engine must refuse it.
fn position(args: &[&str]) -> Option<Game> {
    let (setup, moves) = position_args(args);
    let mut game = Game::from_fen(&setup.ok()?).ok()?;
    for m in moves {
        game.play_text(m).ok()?;
    }
    Some(game)
}

// ---------------------------------------------------------------------------
// The engine process and the checks on what it writes.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Panic,
    Hang,
    Illegal,
    Missing,
    Exit,
    Other,
}

#[derive(Debug)]
struct Fault {
    kind: Kind,
    what: String,
}

fn fault(kind: Kind, what: impl Into<String>) -> Fault {
    Fault {
        kind,
        what: what.into(),
    }
}

#[derive(Default)]
struct Stats {
    lines: usize,
    syncs: usize,
    gos: usize,
    answered: usize,
    refused: usize,
    errors: usize,
    panics: usize,
    hangs: usize,
    illegal: usize,
    missing: usize,
    other: usize,
    restarts: usize,
    /// `bestmove 0000` with a King zapped; legal answers in drawn positions.
    null_answers: usize,
    drawn_answers: usize,
    /// `display` lines that showed the model's position.
    displays: usize,
    /// The slowest bounded search's answer, from its `go` (or `ponderhit`).
    slowest: Duration,
    longest_error: usize,
}

impl Stats {
    fn faults(&self) -> usize {
        self.panics + self.hangs + self.illegal + self.missing + self.other
    }

    fn summary(&self, seed: u64, elapsed: Duration) -> String {
        format!(
            "fuzz_uci: seed {seed:#x}: {} lines sent (+{} isready syncs), {} gos: {} answered \
             ({} with 0000 after a King zap, {} in drawn positions), {} refused; \
             {} displays matched the model; {} error lines; panics {}, hangs {}, illegal bestmoves {}, missing bestmoves {}, other faults {}; \
             {} restarts; slowest bounded go {} ms; longest error line {} characters; {:.1} s",
            self.lines,
            self.syncs,
            self.gos,
            self.answered,
            self.null_answers,
            self.drawn_answers,
            self.refused,
            self.displays,
            self.errors,
            self.panics,
            self.hangs,
            self.illegal,
            self.missing,
            self.other,
            self.restarts,
            self.slowest.as_millis(),
            self.longest_error,
            elapsed.as_secs_f64()
        )
    }
}

/// A search the engine owes a `bestmove`.
struct Pending {
    id: usize,
    go: String,
    legal: Vec<String>,
    /// When its deadline started: the `go`, or the `ponderhit`.
    since: Instant,
    limited: bool,
    infinite: bool,
    ponder: bool,
    /// A `stop` was sent after it: answered by the next `readyok`.
    must_end: bool,
    drawn: bool,
    /// `Stats::lines` when it started.
    at_line: usize,
}

impl Pending {
    /// Whether it must answer on its own within `Timeouts::bestmove`.
    fn bounded(&self) -> bool {
        self.legal.is_empty() || (self.limited && !self.infinite && !self.ponder)
    }
}

/// After a line: sync with `isready` now, and after a bounded `go`, wait
/// for its `bestmove` before the next line.
#[derive(Clone, Copy)]
struct Choice {
    sync: bool,
    wait: bool,
}

struct Session {
    engine: Client,
    limits: Timeouts,
    model: Model,
    stats: Stats,
    /// Every line sent, for the reproduction.
    sent: Vec<Vec<u8>>,
    /// When each unanswered `isready` was sent.
    ready: VecDeque<Instant>,
    pending: VecDeque<Pending>,
    next_id: usize,
    /// The FENs the `display`s sent must show, in order.
    fens: VecDeque<String>,
    /// Lines sent since the last `readyok` of a sync.
    unsynced: bool,
    /// While a `go` waits for its `readyok`: whether an error line about
    /// `go` came.
    go_window: Option<bool>,
}

impl Session {
    fn start(engine: Command, limits: Timeouts, stats: Stats) -> Session {
        Session {
            engine: Client::start(engine, Stderr::Capture).expect("the engine starts"),
            limits,
            model: Model::new(),
            stats,
            sent: Vec::new(),
            ready: VecDeque::new(),
            pending: VecDeque::new(),
            next_id: 0,
            fens: VecDeque::new(),
            unsynced: false,
            go_window: None,
        }
    }

    /// How many lines ago a search that only ends on `stop` started.
    fn awaiting_stop(&self) -> Option<(usize, bool)> {
        self.pending
            .iter()
            .find(|p| !p.bounded())
            .map(|p| (self.stats.lines - p.at_line, p.ponder && p.limited))
    }

    /// Sends one generated line and follows it up as `choice` says.
    fn feed(&mut self, line: &[u8], choice: Choice) -> Result<(), Fault> {
        let effect = self.model.apply(line);
        if matches!(effect, Effect::Go(_)) && self.unsynced {
            // A go's error lines must not mix with earlier lines' errors.
            self.sync()?;
        }
        self.send(line)?;
        self.stats.lines += 1;
        self.unsynced = true;
        match effect {
            Effect::Go(plan) => return self.go(line, plan, choice.wait),
            Effect::Ready => self.ready.push_back(Instant::now()),
            Effect::Stop => self.pending.iter_mut().for_each(|p| p.must_end = true),
            Effect::PonderHit => {
                if let Some(p) = self.pending.back_mut().filter(|p| p.ponder) {
                    p.ponder = false;
                    p.since = Instant::now();
                }
            }
            Effect::Display(fen) => self.fens.push_back(fen),
            Effect::Other => {}
        }
        if choice.sync {
            self.sync()?;
        }
        self.check_deadlines()
    }

    /// A `go` just sent: `isready` tells whether it was refused (an error
    /// line about `go` before `readyok`); an accepted one is owed a
    /// `bestmove`, which a bounded one may be waited for.
    fn go(&mut self, line: &[u8], plan: GoPlan, wait: bool) -> Result<(), Fault> {
        let id = self.next_id;
        self.next_id += 1;
        let text = String::from_utf8_lossy(line).into_owned();
        self.pending.push_back(Pending {
            id,
            go: text.clone(),
            legal: plan.legal,
            since: Instant::now(),
            limited: plan.limited,
            infinite: plan.infinite,
            ponder: plan.ponder,
            must_end: false,
            drawn: plan.drawn,
            at_line: self.stats.lines,
        });
        self.stats.gos += 1;
        self.go_window = Some(false);
        let synced = self.sync();
        let refused = self.go_window.take() == Some(true);
        synced?;
        let still_pending = self.pending.iter().position(|p| p.id == id);
        if refused {
            self.stats.refused += 1;
            if plan.intent == Intent::Good {
                return Err(fault(
                    Kind::Other,
                    format!("a well-formed go was refused: {text}"),
                ));
            }
            let Some(i) = still_pending else {
                return Err(fault(
                    Kind::Other,
                    format!("a bestmove after a refused go: {text}"),
                ));
            };
            self.pending.remove(i);
            return Ok(());
        }
        if plan.intent == Intent::Bad {
            return Err(fault(
                Kind::Other,
                format!(
                    "a malformed go was accepted (no error line about go before readyok): {text}"
                ),
            ));
        }
        if let Some(p) = self.pending.front().filter(|p| p.id < id) {
            return Err(fault(
                Kind::Missing,
                format!("no bestmove for '{}' before the next go was answered", p.go),
            ));
        }
        while wait && self.pending.iter().any(|p| p.id == id && p.bounded()) {
            let p = self.pending.back().expect("the go is pending");
            if !self.read_until(p.since + self.limits.bestmove)? {
                return Err(fault(
                    Kind::Missing,
                    format!("no bestmove within {:?} of '{text}'", self.limits.bestmove),
                ));
            }
        }
        Ok(())
    }

    /// Sends `isready` and reads until every `isready` sent is answered;
    /// then every `display` must have shown its position, every stopped
    /// search must have answered, and stderr must show no panic.
    fn sync(&mut self) -> Result<(), Fault> {
        self.send(b"isready")?;
        self.stats.syncs += 1;
        self.ready.push_back(Instant::now());
        while let Some(&asked) = self.ready.front() {
            if !self.read_until(asked + self.limits.ready)? {
                return Err(fault(
                    Kind::Hang,
                    format!("no readyok within {:?} of isready", self.limits.ready),
                ));
            }
        }
        self.unsynced = false;
        if let Some(fen) = self.fens.pop_front() {
            return Err(fault(
                Kind::Other,
                format!("display showed no fen line (expected {fen})"),
            ));
        }
        if let Some(p) = self.pending.iter().find(|p| p.must_end) {
            return Err(fault(
                Kind::Missing,
                format!("no bestmove for '{}' after stop", p.go),
            ));
        }
        self.check_stderr()?;
        self.check_deadlines()
    }

    /// A bounded search past its deadline, once every line already
    /// written is read, is missing its `bestmove`.
    fn check_deadlines(&mut self) -> Result<(), Fault> {
        loop {
            match self.engine.read_line(Instant::now()) {
                Ok(line) => self.check_line(&line.text())?,
                Err(ClientError::Timeout { .. }) => break,
                Err(_) => return Err(self.exited()),
            }
        }
        match self
            .pending
            .iter()
            .find(|p| p.bounded() && p.since.elapsed() > self.limits.bestmove)
        {
            Some(p) => Err(fault(
                Kind::Missing,
                format!(
                    "no bestmove within {:?} of '{}'",
                    self.limits.bestmove, p.go
                ),
            )),
            None => Ok(()),
        }
    }

    fn check_stderr(&self) -> Result<(), Fault> {
        let text = self.stderr_text();
        if text.contains("panicked") {
            return Err(fault(
                Kind::Panic,
                format!("stderr: {}", shown_stderr(&text)),
            ));
        }
        Ok(())
    }

    fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.engine.stderr()).into_owned()
    }

    fn send(&mut self, line: &[u8]) -> Result<(), Fault> {
        self.sent.push(line.to_vec());
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        match self.engine.send_raw(&bytes) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited()),
        }
    }

    /// Reads and checks one line; false if none came before `deadline`.
    fn read_until(&mut self, deadline: Instant) -> Result<bool, Fault> {
        match self.engine.read_line(deadline) {
            Ok(line) => self.check_line(&line.text()).map(|_| true),
            Err(ClientError::Timeout { .. }) => Ok(false),
            Err(_) => Err(self.exited()),
        }
    }

    /// Checks one line the engine wrote against the model.
    fn check_line(&mut self, line: &str) -> Result<(), Fault> {
        if line.contains("panicked") {
            return Err(fault(Kind::Panic, format!("stdout: {line}")));
        }
        if line.chars().any(char::is_control) {
            return Err(fault(
                Kind::Other,
                format!(
                    "a control character in an output line: {}",
                    shown_line(line.as_bytes())
                ),
            ));
        }
        if line == "readyok" {
            if self.ready.pop_front().is_none() {
                return Err(fault(Kind::Other, "readyok with no isready"));
            }
        } else if let Some(rest) = line.strip_prefix("bestmove") {
            self.stats.answered += 1;
            let Some(p) = self.pending.pop_front() else {
                return Err(fault(
                    Kind::Other,
                    format!("'{line}' with no accepted go pending"),
                ));
            };
            if p.bounded() {
                self.stats.slowest = self.stats.slowest.max(p.since.elapsed());
            }
            let m = rest.split_whitespace().next().unwrap_or("");
            let ok = match p.legal.is_empty() {
                true => m == "0000",
                false => p.legal.iter().any(|l| l == m),
            };
            self.stats.null_answers += (ok && p.legal.is_empty()) as usize;
            self.stats.drawn_answers += (ok && p.drawn) as usize;
            if !ok {
                return Err(fault(
                    Kind::Illegal,
                    format!(
                        "'{line}' answers '{}'; the legal moves are [{}]",
                        p.go,
                        p.legal.join(" ")
                    ),
                ));
            }
        } else if line.starts_with("info string error") {
            self.stats.errors += 1;
            let chars = line.chars().count();
            self.stats.longest_error = self.stats.longest_error.max(chars);
            if chars > MAX_ERROR_LINE {
                return Err(fault(
                    Kind::Other,
                    format!(
                        "an error line of {chars} characters (input is quoted up to 80): {}",
                        shown_line(line.as_bytes())
                    ),
                ));
            }
            let about_go = line
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case("go"));
            if let Some(w) = self.go_window.as_mut() {
                *w |= about_go;
            }
        } else if let Some(shown) = line.strip_prefix("fen ") {
            match self.fens.pop_front() {
                Some(fen) if fen == shown => self.stats.displays += 1,
                Some(fen) => {
                    return Err(fault(
                        Kind::Other,
                        format!("display shows '{shown}', the model has '{fen}'"),
                    ))
                }
                None => {
                    return Err(fault(
                        Kind::Other,
                        format!("a fen line '{shown}' with no display sent"),
                    ))
                }
            }
        }
        Ok(())
    }

    /// The fault of an engine whose output ended before `quit`.
    fn exited(&mut self) -> Fault {
        let status = self.engine.wait(Instant::now() + self.limits.quit).ok();
        let stderr = shown_stderr(&self.stderr_text());
        let status_text = status.map_or("still running".to_string(), |s| s.to_string());
        let kind = match status.and_then(|s| s.code()) == Some(101) || stderr.contains("panicked") {
            true => Kind::Panic,
            false => Kind::Exit,
        };
        fault(
            kind,
            format!("the engine's output ended before quit ({status_text}); stderr: {stderr}"),
        )
    }

    /// Sends `quit`: every search answers, and the engine exits at once
    /// with status 0.
    fn quit(&mut self) -> Result<(), Fault> {
        self.sync()?;
        self.send(b"quit")?;
        let deadline = Instant::now() + self.limits.quit;
        loop {
            match self.engine.read_line(deadline) {
                Ok(line) => self.check_line(&line.text())?,
                Err(ClientError::Timeout { .. }) => {
                    return Err(fault(
                        Kind::Hang,
                        format!("still writing {:?} after quit", self.limits.quit),
                    ))
                }
                Err(_) => break,
            }
        }
        match self.engine.wait(deadline).ok() {
            Some(s) if s.success() => {}
            Some(s) => {
                return Err(fault(
                    Kind::Exit,
                    format!(
                        "quit ended with {s}; stderr: {}",
                        shown_stderr(&self.stderr_text())
                    ),
                ))
            }
            None => {
                return Err(fault(
                    Kind::Hang,
                    format!("no exit within {:?} of quit", self.limits.quit),
                ))
            }
        }
        if let Some(p) = self.pending.front() {
            return Err(fault(
                Kind::Missing,
                format!("no bestmove for '{}' before the exit", p.go),
            ));
        }
        self.check_stderr()
    }

    /// The report of fault number `n`: what, the last lines sent, and the
    /// whole input written to a file.
    fn report(&self, f: &Fault, seed: u64, n: usize) -> String {
        let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("fuzz_uci-{seed:#x}-{n}.txt"));
        let mut input = Vec::new();
        for l in &self.sent {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        input.extend_from_slice(b"quit\n");
        let saved = match std::fs::write(&file, input) {
            Ok(()) => format!(
                "the whole input ({} lines): {}",
                self.sent.len(),
                file.display()
            ),
            Err(e) => format!(
                "the whole input could not be saved to {}: {e}",
                file.display()
            ),
        };
        let shown: Vec<String> = self.sent[self.sent.len().saturating_sub(SHOWN_LINES)..]
            .iter()
            .map(|l| format!("    > {}", shown_line(l)))
            .collect();
        format!(
            "fuzz_uci FAULT ({:?}) with seed {seed:#x}: {}\n  last lines sent:\n{}\n  {saved}",
            f.kind,
            f.what,
            shown.join("\n")
        )
    }

    /// Counts `kind` and stops the engine; returns the stats.
    fn end(mut self, kind: Kind) -> Stats {
        let count = match kind {
            Kind::Panic => &mut self.stats.panics,
            Kind::Hang => &mut self.stats.hangs,
            Kind::Illegal => &mut self.stats.illegal,
            Kind::Missing => &mut self.stats.missing,
            Kind::Exit | Kind::Other => &mut self.stats.other,
        };
        *count += 1;
        self.end_clean()
    }

    /// Stops the engine (dropping its client kills it); returns the stats.
    fn end_clean(mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }
}

/// The start of the engine's stderr: a panic's message, not its backtrace.
fn shown_stderr(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("stack backtrace"))
        .take(10)
        .collect();
    lines.join("\n")
}

/// A line as bytes, escaped, cut at 200 characters.
fn shown_line(l: &[u8]) -> String {
    let text = l.escape_ascii().to_string();
    match text.len() > 200 {
        true => format!("{}… ({} bytes)", &text[..200], l.len()),
        false => text,
    }
}

// ---------------------------------------------------------------------------
// The generator.

struct Gen(Rng);

/// Words that are no command in any case, for the garbage lines.
const JUNK: &[&str] = &[
    "xyzzy",
    "hello",
    "bestmove",
    "readyok",
    "uciok",
    "info",
    "score",
    "cp",
    "name",
    "value",
    "startpos",
    "endgame",
    "fen",
    "moves",
    "depth",
    "wtime",
    "infinite",
    "searchmoves",
    "e2e4",
    "0000",
    "-1",
    "3.14",
    "NaN",
    "1e9",
    "--",
    "@@",
    "isready?",
    "gogo",
    "stopp",
    "Position2",
    "ñandú",
    "日本",
    "∞",
    "\u{feff}",
    "\u{202e}",
    "setopt",
    "perfect",
];

/// Kinds of line, with their weights.
type Maker = fn(&mut Gen, &Model) -> Vec<u8>;
const MAKERS: &[(usize, Maker)] = &[
    (5, |_, _| b"isready".to_vec()),
    (1, |_, _| b"uci".to_vec()),
    (1, |_, _| b"help".to_vec()),
    (2, |_, _| b"ucinewgame".to_vec()),
    (3, |g, _| g.pick(&["display", "d"]).as_bytes().to_vec()),
    (2, |_, _| b"generate".to_vec()),
    (3, |_, _| b"stop".to_vec()),
    (2, |_, _| b"ponderhit".to_vec()),
    (12, |g, m| g.position(m).into_bytes()),
    (14, |g, _| g.go().into_bytes()),
    (6, |g, _| g.setoption().into_bytes()),
    (3, |g, m| g.eval(m).into_bytes()),
    (6, |g, m| g.play(m).into_bytes()),
    (2, |g, _| g.perft().into_bytes()),
    (3, |g, m| g.junk_prefix(m).into_bytes()),
    (4, |g, _| {
        let n = 1 + g.below(6);
        g.junk_words(n).into_bytes()
    }),
    (5, |g, m| g.truncated(m)),
    (3, |g, m| g.with_control(m)),
    (5, |g, _| g.random_bytes()),
    (2, |g, m| g.overlong(m)),
    (6, |g, _| g.bad_fen().into_bytes()),
    (1, |g, _| g.blank().into_bytes()),
];

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.0.below(n) == 0
    }

    /// A value in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.0.next() % (hi - lo + 1) as u64) as i64
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        self.0.pick(xs).expect("a choice")
    }

    /// The next line: a `stop` (or `ponderhit`) soon after a search that
    /// needs one, otherwise a line of a random kind that is safe to send.
    fn line(&mut self, model: &Model, awaiting: Option<(usize, bool)>) -> Vec<u8> {
        if let Some((age, ponders)) = awaiting {
            if age >= 6 || self.one_in(3) {
                let hit = ponders && self.one_in(2);
                return if hit {
                    b"ponderhit".to_vec()
                } else {
                    b"stop".to_vec()
                };
            }
        }
        let total: usize = MAKERS.iter().map(|(w, _)| w).sum();
        loop {
            let mut r = self.below(total);
            let (_, make) = MAKERS
                .iter()
                .find(|(w, _)| {
                    let here = r < *w;
                    r = r.saturating_sub(*w);
                    here
                })
                .expect("a kind");
            let line = make(self, model);
            if safe(&line) {
                return line;
            }
        }
    }

    fn junk_words(&mut self, n: usize) -> String {
        let words: Vec<&str> = (0..n).map(|_| self.pick(JUNK)).collect();
        words.join(" ")
    }

    /// A move of the model's position, or one that is not.
    fn move_text(&mut self, model: &Model) -> String {
        let legal = model.game.clone().legal_moves();
        match self.0.pick(&legal) {
            Some(m) if !self.one_in(4) => {
                let text = m.to_string();
                // Input is case-insensitive.
                match self.one_in(8) {
                    true => text.to_ascii_uppercase(),
                    false => text,
                }
            }
            _ => self.bad_move(&model.game),
        }
    }

    /// A move text `game` refuses (or, by chance, one it takes): a Ko
    /// move, a well-formed move that is not available, a garbled one.
    fn bad_move(&mut self, game: &Game) -> String {
        match self.below(4) {
            0 => {
                let mut g = game.clone();
                let mut list = MoveList::new();
                generate(g.board(), &mut list);
                let ko: Vec<_> = list.iter().filter(|&m| g.breaks_ko(m)).collect();
                match self.0.pick(&ko) {
                    Some(m) => m.to_string(),
                    None => "h0h1".to_string(),
                }
            }
            1 => {
                let sq =
                    |g: &mut Gen| format!("{}{}", (b'a' + g.below(8) as u8) as char, g.below(8));
                match self.below(2) {
                    0 => format!("{}{}", sq(self), self.pick(&["R", "U", "L"])),
                    _ => format!("{}{}", sq(self), sq(self)),
                }
            }
            2 => self
                .pick(&[
                    "h0", "h0X", "z9z8", "a0a0", "i1R", "h0h2", "a7b6c5", "0000", "", "h0LL",
                ])
                .to_string(),
            _ => self.pick(JUNK).to_string(),
        }
    }

    /// `position` with a start and moves from a random playout: sometimes
    /// long (past the no-zap limit), a threefold repetition, ending with a
    /// King zapped (and one move more), or with a bad move inside.
    fn position(&mut self, model: &Model) -> String {
        if self.one_in(12) {
            // Kings walking a square round and round repeat the position.
            let cycle = "h0g0 a7b7 g0g1 b7b6 g1h1 b6a6 h1h0 a6a7";
            let n = 2 + self.below(3);
            let mut game = position(&["endgame"]).expect("endgame");
            let mut moves = vec![cycle; n].join(" ");
            for m in moves.clone().split(' ') {
                game.play_text(m).expect("the cycle is legal");
            }
            let tail = self.below(6);
            for m in self.playout(&mut game, tail, false) {
                moves.push(' ');
                moves.push_str(&m);
            }
            return format!("position endgame moves {moves}");
        }
        if self.one_in(8) {
            if let Some(line) = self.zapped() {
                return line;
            }
        }
        let setup = match self.below(12) {
            0..=4 => "startpos".to_string(),
            5 => "endgame".to_string(),
            6 | 7 => format!("fen {}", fen::to_fen(model.game.board())),
            8 | 9 => {
                let (w, b) = (self.below(8), self.below(8));
                format!("fen {}", self.random_fen(w, b))
            }
            _ => {
                // Few pieces: Kings in each other's line of fire.
                let (w, b) = (self.below(3), self.below(3));
                format!("fen {}", self.random_fen(w, b))
            }
        };
        let Some(mut game) = position(&setup.split(' ').collect::<Vec<_>>()) else {
            return format!("position {setup}");
        };
        let plies = match self.below(9) {
            0 | 1 => 0,
            2..=5 => 1 + self.below(10),
            6 | 7 => 10 + self.below(50),
            _ => 100 + self.below(300),
        };
        let zap = self.one_in(4);
        let mut moves = self.playout(&mut game, plies, zap);
        if zap && self.one_in(3) {
            // After a King zap no move may follow.
            moves.push(self.move_text(&Model { game }));
        } else if self.one_in(5) {
            let at = self.below(moves.len() + 1);
            let bad = self.bad_move(&game);
            moves.insert(at, bad);
        }
        match (moves.is_empty(), self.one_in(6)) {
            (true, false) => format!("position {setup}"),
            _ => format!("position {setup} moves {}", moves.join(" ")),
        }
    }

    /// `position` of a few-piece board whose side to move zaps a King
    /// (random play seldom does): the game is over; sometimes one more
    /// move follows, which refuses the whole command.
    fn zapped(&mut self) -> Option<String> {
        for _ in 0..100 {
            let (w, b) = (self.below(3), self.below(3));
            let text = self.random_fen(w, b);
            let Ok(mut game) = Game::from_fen(&text) else {
                continue;
            };
            let mut moves = self.playout(&mut game, 0, true);
            if moves.is_empty() {
                continue;
            }
            if self.one_in(3) {
                moves.push(self.move_text(&Model { game }));
            }
            return Some(format!("position fen {text} moves {}", moves.join(" ")));
        }
        None
    }

    /// Plays up to `plies` random legal moves on `game` and returns them;
    /// King zaps are avoided, except for a last move that zaps one when
    /// `zap` and one exists.
    fn playout(&mut self, game: &mut Game, plies: usize, zap: bool) -> Vec<String> {
        let mut moves = Vec::new();
        let zaps_king = |game: &Game, m| {
            let mut b = game.board().clone();
            b.make(m).king_zapped()
        };
        for _ in 0..plies {
            let legal = game.legal_moves();
            let quiet: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| !zaps_king(game, m))
                .collect();
            let Some(m) = self.0.pick(&quiet) else { break };
            game.play(m).expect("a legal move plays");
            moves.push(m.to_string());
        }
        if zap {
            let legal = game.legal_moves();
            let killers: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| zaps_king(game, m))
                .collect();
            if let Some(m) = self.0.pick(&killers) {
                game.play(m).expect("a legal move plays");
                moves.push(m.to_string());
            }
        }
        moves
    }

    /// A random board: each side's King and `w`, `b` Pawns, every piece
    /// turned at random; `kings` says how many Kings each side has.
    fn board(&mut self, w: usize, b: usize, kings: [usize; 2]) -> [Option<String>; 64] {
        let mut squares: Vec<usize> = (0..64).collect();
        for i in (1..64).rev() {
            squares.swap(i, self.below(i + 1));
        }
        let mut board: [Option<String>; 64] = std::array::from_fn(|_| None);
        let mut free = squares.into_iter();
        for (side, pawns) in [(0, w), (1, b)] {
            for n in 0..kings[side] + pawns {
                let code = match n < kings[side] {
                    true => self.pick(&["NN", "EE", "SS", "WW"]),
                    false => self.pick(&["NW", "NE", "SE", "SW"]),
                };
                let code = match side {
                    0 => code.to_string(),
                    _ => code.to_ascii_lowercase(),
                };
                board[free.next().expect("at most 64 pieces")] = Some(code);
            }
        }
        board
    }

    /// The 8 rank texts of `board`, rank 7 first.
    fn ranks(board: &[Option<String>; 64]) -> Vec<String> {
        (0..8)
            .rev()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match &board[rank * 8 + file] {
                        Some(p) => {
                            if empty > 0 {
                                text += &empty.to_string();
                            }
                            empty = 0;
                            text += p;
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect()
    }

    fn side(&mut self) -> &'static str {
        self.pick(&["W", "B"])
    }

    fn random_fen(&mut self, w: usize, b: usize) -> String {
        let board = self.board(w, b, [1, 1]);
        format!("{} {}", Gen::ranks(&board).join("/"), self.side())
    }

    /// `position fen` with a FEN the parser must refuse.
    fn bad_fen(&mut self) -> String {
        let (w, b) = (self.below(8), self.below(8));
        let mut ranks = Gen::ranks(&self.board(w, b, [1, 1]));
        let mut side = self.side().to_string();
        let r = self.below(8);
        match self.below(12) {
            0 => {
                // More than 8 pieces a side.
                let many = 8 + self.range(1, 4) as usize;
                let (w, b) = match self.one_in(2) {
                    true => (many, self.below(8)),
                    false => (self.below(8), many),
                };
                ranks = Gen::ranks(&self.board(w, b, [1, 1]));
            }
            1 => ranks = Gen::ranks(&self.board(w, b, [2, 1])),
            2 => ranks = Gen::ranks(&self.board(w, b, [1, 0])),
            3 => ranks[r].push('1'),
            4 => {
                ranks[r].pop();
            }
            5 => ranks.push("8".to_string()),
            6 => {
                ranks.pop();
            }
            7 => {
                let c = self.pick(&["x", "#", "é", "\u{1}", "Z", "9", "0", "Nn"]);
                ranks[r] = format!("{c}{}", ranks[r]);
            }
            8 => ranks[r] = "7N".to_string(),
            9 => side = String::new(),
            10 => side = self.pick(&["X", "white", "Ww", "-", "W B"]).to_string(),
            _ => side = format!("{side} {}", self.junk_words(1)),
        }
        let moves = match self.one_in(4) {
            true => " moves h0L",
            false => "",
        };
        format!("position fen {} {side}{moves}", ranks.join("/"))
    }

    fn go(&mut self) -> String {
        let clock = |g: &mut Gen| g.range(0, 2000);
        let inc = |g: &mut Gen| g.range(0, 100);
        let args = match self.below(20) {
            0..=3 => format!("depth {}", self.range(1, 3)),
            4 | 5 => format!(
                "nodes {}",
                10i64.pow(self.range(0, 4) as u32) * self.range(1, 5)
            ),
            6..=8 => format!("movetime {}", self.range(5, 50)),
            9..=11 => {
                let mut s = format!(
                    "wtime {} btime {} winc {} binc {}",
                    clock(self),
                    clock(self),
                    inc(self),
                    inc(self)
                );
                if self.one_in(3) {
                    s += &format!(" movestogo {}", self.range(1, 40));
                }
                s
            }
            12 => format!("time {} inc {}", clock(self), inc(self)),
            13 => self.pick(&["infinite", "depth 2 infinite"]).to_string(),
            14 => {
                let limit = self.pick(&["depth 2", "movetime 30", "wtime 500 btime 500", ""]);
                format!("ponder {limit}")
            }
            15 => String::new(),
            16 => self
                .pick(&[
                    "depth 3 movetime 20",
                    "nodes 5000 movetime 30",
                    "movetime 10 depth 2",
                ])
                .to_string(),
            17 | 18 => self
                .pick(&[
                    "depth abc",
                    "movetime 1.5",
                    "wtime -5",
                    "wtime 100 btime -5 winc 0 binc 0",
                    "nodes 1e3",
                    "depth",
                    "depth 2 movetime x",
                    "depth -1",
                    "movetime 20 nodes",
                    "time 1,000",
                    "depth ２",
                ])
                .to_string(),
            _ => self
                .pick(&[
                    "foo depth 2",
                    "depth 0 movetime 20",
                    "nodes 0",
                    "depth 99999999999999999999 movetime 20",
                    "movetime +20",
                    "searchmoves h0L depth 2",
                ])
                .to_string(),
        };
        format!("go {args}").trim_end().to_string()
    }

    /// `setoption` of a real option (any case) with a value in or out of
    /// its range (`hash` and `mcts_tree_mb` at most 64 MB and `threads` at
    /// most 4, whatever the range), a bogus name or value, or a malformed
    /// command.
    fn setoption(&mut self) -> String {
        let options: Vec<_> = options().filter(|o| o.name() != "check_rep").collect();
        let option = self.pick(&options);
        let name = match self.one_in(5) {
            true => option.name().to_ascii_uppercase(),
            false => option.name().to_string(),
        };
        match self.below(10) {
            0..=5 => {
                let value = match (option.kind(), option.name()) {
                    (_, "hash" | "mcts_tree_mb") => self.range(-2, 64).to_string(),
                    (_, "threads") => self.range(-1, 4).to_string(),
                    (OptionKind::Spin { min, max }, _) => match self.below(4) {
                        0 => (min - self.range(1, 1000)).to_string(),
                        1 => (max + self.range(1, 1000)).to_string(),
                        _ => self.range(min, max).to_string(),
                    },
                    (OptionKind::Check, _) => self
                        .pick(&["true", "false", "TRUE", "yes", "1"])
                        .to_string(),
                    (OptionKind::Combo { choices }, _) => match self.below(4) {
                        0 => "alphabeta".to_string(),
                        _ => self.pick(choices).to_ascii_uppercase(),
                    },
                    (OptionKind::Text, _) => self
                        .pick(&["", "/nonexistent/book.bin", "/etc/hostname", "a b"])
                        .to_string(),
                    _ => return format!("setoption name {name}"),
                };
                format!("setoption name {name} value {value}")
            }
            6 => {
                let n = 1 + self.below(3);
                format!("setoption name {} value 1", self.junk_words(n))
            }
            7 => {
                let value = self.pick(&["abc", "1.5", "", "-", "1e3", "true", "7 8"]);
                format!("setoption name {name} value {value}")
            }
            8 => format!("setoption value {} name {name}", self.range(1, 8)),
            _ => self
                .pick(&[
                    "setoption",
                    "setoption name",
                    "setoption hash 8",
                    "setoption name value 3",
                    "setoption name threads value",
                    "setoption value",
                    "setoption name name value value",
                ])
                .to_string(),
        }
    }

    fn eval(&mut self, model: &Model) -> String {
        match self.below(5) {
            0 | 1 => "eval".to_string(),
            2 | 3 => format!("eval {}", self.move_text(model)),
            _ => format!("eval {} {}", self.move_text(model), self.move_text(model)),
        }
    }

    fn play(&mut self, model: &Model) -> String {
        match self.below(10) {
            0 => "move".to_string(),
            1 => format!("move {} {}", self.move_text(model), self.move_text(model)),
            _ => format!("move {}", self.move_text(model)),
        }
    }

    /// `perft` to depth 1..3, or with a depth it must refuse (never the
    /// default 4, which may take seconds in a wide position).
    fn perft(&mut self) -> String {
        match self.below(4) {
            0 => "perft 1".to_string(),
            1 => format!("perft {}", self.range(2, 3)),
            _ => {
                let bad = self.pick(&["0", "8", "99", "abc", "-1", "2.5", "4294967296"]);
                format!("perft {bad}")
            }
        }
    }

    /// Unknown words, then a command (UCI skips the words).
    fn junk_prefix(&mut self, model: &Model) -> String {
        let command = match self.below(6) {
            0 => "isready".to_string(),
            1 => "display".to_string(),
            2 => "stop".to_string(),
            3 => "position startpos moves h0L".to_string(),
            4 => format!("move {}", self.move_text(model)),
            _ => "generate".to_string(),
        };
        let n = 1 + self.below(2);
        format!("{} {command}", self.junk_words(n))
    }

    /// A valid-looking line cut short.
    fn truncated(&mut self, model: &Model) -> Vec<u8> {
        let line = match self.below(6) {
            0 => self.position(model),
            1 => self.setoption(),
            2 => self.go(),
            3 => self.play(model),
            4 => self.bad_fen(),
            _ => self
                .pick(&["isready", "ucinewgame", "display", "ponderhit", "generate"])
                .to_string(),
        };
        let mut bytes = line.into_bytes();
        bytes.truncate(1 + self.below(bytes.len().max(1)));
        bytes
    }

    /// A line (not a `go`) with a control byte inside an argument, or
    /// white space the protocol allows (tabs, form feeds, CR).
    fn with_control(&mut self, model: &Model) -> Vec<u8> {
        let line = match self.below(3) {
            0 => self.position(model),
            1 => self.setoption(),
            _ => self.play(model),
        };
        let mut bytes = line.into_bytes();
        let first = bytes.iter().position(|&b| b == b' ').unwrap_or(bytes.len());
        let at = first + self.below(bytes.len() - first + 1);
        let c = self.pick(&[0u8, 1, 7, 8, 0x1b, 0x1f, 0x7f, b'\t', 0x0c, b'\r']);
        bytes.insert(at, c);
        bytes
    }

    /// Raw bytes (any but newline), junk words between odd white space and
    /// control bytes, escape sequences.
    fn random_bytes(&mut self) -> Vec<u8> {
        match self.below(3) {
            0 => (0..self.range(1, 80))
                .map(|_| self.range(0, 255) as u8)
                .filter(|&b| b != b'\n')
                .collect(),
            1 => {
                let mut s = String::new();
                for _ in 0..self.range(1, 8) {
                    s += self.pick(JUNK);
                    s += self.pick(&[
                        " ", "\t", "\u{b}", "\u{c}", "\r", "\u{85}", "\u{a0}", "\u{3000}", "\0",
                        "\u{7f}",
                    ]);
                }
                s.into_bytes()
            }
            _ => self
                .pick(&[
                    &b"\x1b[2J\x1b[H"[..],
                    b"\x00\x00\x00",
                    b"\x7f\x08\x08",
                    b"\xff\xfe",
                    b"\xc3",
                    b"\xed\xa0\x80",
                ])
                .to_vec(),
        }
    }

    /// A line of a few KB: words, a long game, a long FEN, a long option
    /// name or move.
    fn overlong(&mut self, model: &Model) -> Vec<u8> {
        let size = self.range(2000, 6000) as usize;
        let long = |g: &mut Gen, unit: &[&str]| {
            let mut s = String::new();
            while s.len() < size {
                s += g.pick(unit);
            }
            s
        };
        let line = match self.below(5) {
            0 => long(self, &["xyzzy ", "0000 ", "info ", "∞"]),
            1 => {
                let mut game = model.game.clone();
                let plies = 400 + self.below(200);
                let moves = self.playout(&mut game, plies, false);
                format!(
                    "position fen {} moves {}",
                    fen::to_fen(model.game.board()),
                    moves.join(" ")
                )
            }
            2 => format!("position fen {} W", long(self, &["nw", "8/", "NN", "x"])),
            3 => format!("setoption name {} value 1", long(self, &["hash", "x", " "])),
            _ => format!("eval {}", long(self, &["h0L", "a"])),
        };
        line.into_bytes()
    }

    fn blank(&mut self) -> String {
        self.pick(&["", " ", "\t", "\r", "   \t  "]).to_string()
    }
}

/// Whether `line` may be sent: no `quit` or hidden `debug` anywhere (read
/// with any separator, any case), no `check_rep`, a `perft` no deeper than
/// 3, `hash` at most 64 MB and `threads` at most 4.
fn safe(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let lower = text.to_ascii_lowercase();
    let words = lower.split(|c: char| !c.is_alphanumeric() && c != '_');
    if lower.contains("check_rep")
        || words
            .clone()
            .any(|w| w == "quit" || w == "debug" || w == "dump")
    {
        return false;
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some(at) = tokens.iter().position(|t| is_command(t)) else {
        // Garbage must not read as a command in any case or with other
        // separators either.
        return !words.into_iter().any(is_command);
    };
    let args = &tokens[at + 1..];
    match tokens[at] {
        "perft" => args
            .first()
            .is_some_and(|d| !matches!(d.parse::<u32>(), Ok(4..=7))),
        "setoption" => {
            // Whatever the order of its words, no number above the limit.
            let has = |w: &str| args.iter().any(|t| t.eq_ignore_ascii_case(w));
            let limit = match (has("hash"), has("threads")) {
                (true, _) => 64,
                (_, true) => 4,
                _ => i64::MAX,
            };
            args.iter()
                .filter_map(|t| t.parse::<i64>().ok())
                .all(|n| n <= limit)
        }
        _ => true,
    }
}
