//! The Leiserchess UCI loop (PROTOCOL.md): reads commands line by line and
//! answers on the output. Bad input gets one `info string` line naming what
//! was wrong and changes nothing. `go` and `perft` run on a thread of their
//! own, so `isready` is answered and `stop` obeyed while they work.

mod book;
mod commands;
#[cfg(feature = "debug-commands")]
mod debug;
mod go;
mod info;
mod inspect;
pub mod latency;
mod net;
mod perft;
mod search;
mod searcher;
mod setoption;
mod table;
mod wait;

use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::eval::policy::Policy;
use crate::lab::book::Book;
use crate::rules::fen;
use crate::rules::game::Game;
use crate::search::algorithm::Memory;
use crate::search::Shared;
use crate::user_text::{escape_controls, quote};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;
use table::{new_shared, populate};

const RNG_SEED: u64 = 0x1e15_e4c4;

/// What the loop should do after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// Where the engine's lines go: shared by the command loop and the search
/// thread, one whole write at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes `bytes` and flushes; false if the output is gone.
    pub fn write(&self, bytes: &[u8]) -> bool {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        w.write_all(bytes).and_then(|_| w.flush()).is_ok()
    }
}

/// Work running on its own thread.
enum Running {
    /// A `go` on the kept thread: it hands the searches' memory back.
    Search { pending: searcher::Pending },
    /// A `perft`, on its own copy of the board, stopped by its own flag.
    Perft {
        thread: JoinHandle<()>,
        stop: Arc<AtomicBool>,
    },
}

impl Running {
    fn is_finished(&self) -> bool {
        match self {
            Running::Search { pending } => pending.is_finished(),
            Running::Perft { thread, .. } => thread.is_finished(),
        }
    }

    /// Whether `cmd` ends this work before it runs. A search is ended by
    /// every command that reads or changes the position, the options or
    /// the tables. A perft counts on its own copy of the board, so the
    /// loop stays free beside it: only `stop`, `quit` and a new `go` or
    /// `perft` (which would compete for the cores) end it.
    fn ended_by(&self, cmd: &str) -> bool {
        match self {
            Running::Search { .. } => !matches!(cmd, "isready" | "ponderhit" | "uci" | "help"),
            Running::Perft { .. } => matches!(cmd, "go" | "perft" | "stop" | "quit"),
        }
    }
}

/// The engine's state between commands.
pub struct Engine {
    game: Game,
    config: EngineConfig,
    shared: Arc<Shared>,
    /// What the searches keep between `go`s (move-ordering tables, the
    /// MCTS tree), while no search runs.
    memory: Memory,
    running: Option<Running>,
    /// The thread the searches run on, kept between `go`s.
    searcher: Option<searcher::Searcher>,
    /// The opening book (`BookFile`), played with `OwnBook`.
    book: Book,
    /// Chooses among the book's good moves; fixed seed.
    book_rng: fastrand::Rng,
    /// The learned evaluation's net (`EvalFile`).
    net: Arc<Network>,
    /// The move policy (`PolicyFile`).
    policy: Arc<Policy>,
    /// The thread freeing the last replaced table, joined before the
    /// next one is freed and at the end, so no thread outlives the engine.
    freeing: Option<JoinHandle<()>>,
    /// The thread backing the newest table's pages, joined by `isready`
    /// (while no search runs), and stopped and joined once the table is
    /// replaced and at the end; it holds the table only weakly, so it
    /// also ends soon after an engine is dropped.
    populating: Option<table::Populating>,
    output: Output,
    /// The latency benchmark's log of each move's times, while it runs.
    latency: Option<latency::Log>,
    /// When the last `position` line was read and when it was replayed,
    /// kept for the next `go` while the latency log runs.
    position_stamps: Option<(Instant, Instant)>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Output::new(std::io::stdout()))
    }
}

/// Runs the loop until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    // No option to set: nothing to refuse.
    let _ = run_with(&[], input, output);
}

/// Sets each of `options` (`NAME=VALUE`) as `setoption` would, without a
/// word on the output (a referee reads it from `uci` on), then runs the
/// loop. An option refused, or a file it names that does not load, is the
/// error, naming it, and no loop runs.
pub fn run_with(
    options: &[String],
    input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<(), String> {
    let output = Output::new(output);
    let mut engine = Engine::new(output.clone());
    for option in options {
        let refused = |why: &str| format!("--option '{}': {why}", quote(option));
        let (name, value) = option
            .split_once('=')
            .ok_or_else(|| refused("wants NAME=VALUE"))?;
        let mut said = Vec::new();
        engine.handle(&format!("setoption name {name} value {value}"), &mut said);
        let said = String::from_utf8_lossy(&said);
        if let Some(e) = said
            .lines()
            .find_map(|l| l.strip_prefix("info string error: "))
        {
            return Err(refused(e));
        }
    }
    for line in input.lines() {
        let Ok(line) = line else {
            // Not UTF-8: say so and keep reading.
            output.write(b"info string error: input line is not valid UTF-8\n");
            continue;
        };
        let mut out = Vec::new();
        let flow = engine.handle(&line, &mut out);
        if !output.write(&out) || flow == Flow::Quit {
            break;
        }
    }
    // The end of the input is a `quit`: a search stops and answers.
    engine.finish();
    Ok(())
}

impl Engine {
    /// An engine whose search thread writes to `output`.
    pub fn new(output: Output) -> Engine {
        let config = EngineConfig::default();
        let shared = Arc::new(new_shared(
            &config,
            Network::shared_embedded(),
            Policy::shared_embedded(),
        ));
        Engine {
            game: new_game(&config),
            book: Book::embedded(),
            book_rng: fastrand::Rng::with_seed(RNG_SEED),
            populating: Some(populate(&shared)),
            shared,
            net: Network::shared_embedded(),
            memory: Memory::default(),
            policy: Policy::shared_embedded(),
            running: None,
            searcher: None,
            freeing: None,
            config,
            output,
            latency: None,
            position_stamps: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// At the end of the input: stops a search (which prints its
    /// `bestmove`) and lets a `perft` finish.
    pub fn finish(&mut self) {
        self.end_job(false);
        if let Some(s) = self.searcher.take() {
            s.stop();
        }
        self.join_freeing();
        self.join_populating(true);
    }

    /// Ends the running work, if any, and takes back the search's tables: a
    /// search is stopped (its thread prints the `bestmove`); a `perft` is
    /// stopped only if `stop_perft`, else waited for.
    fn end_job(&mut self, stop_perft: bool) {
        match &self.running {
            Some(Running::Search { .. }) => self.shared.stop.store(true, Ordering::Relaxed),
            Some(Running::Perft { stop, .. }) if stop_perft => stop.store(true, Ordering::Relaxed),
            _ => {}
        }
        self.wait();
    }

    /// Joins work that has finished by itself.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(Running::is_finished) {
            self.end_job(false);
        }
    }

    /// Handles one line of input, writing the answer to `out`.
    pub fn handle(&mut self, line: &str, out: &mut Vec<u8>) -> Flow {
        let read = Instant::now();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = command_at(&tokens) else {
            if let Some(first) = tokens.first() {
                say(
                    out,
                    format!(
                        "error: unknown command '{}' (type 'help' for the list)",
                        quote(first)
                    ),
                );
            }
            return Flow::Continue;
        };
        if at > 0 {
            say(
                out,
                format!("ignoring unknown '{}'", quote(&tokens[..at].join(" "))),
            );
        }
        let (cmd, args) = (commands::canonical(tokens[at]), &tokens[at + 1..]);
        self.reap();
        if self.running.as_ref().is_some_and(|r| r.ended_by(cmd)) {
            self.end_job(true);
        }
        match cmd {
            "quit" => return Flow::Quit,
            "stop" => {}
            "ponderhit" => self.shared.pondering.store(false, Ordering::Relaxed),
            "go" => self.go(args, line, read, out),
            "uci" => self.uci(out),
            "isready" => {
                // Ready means the table is backed, unless a search runs
                // (then at once).
                if self.running.is_none() {
                    self.join_populating(false);
                }
                line_out(out, "readyok");
            }
            "setoption" => self.setoption(args, out),
            "ucinewgame" => {
                self.game = new_game(&self.config);
                self.renew_table();
                self.memory.clear();
            }
            "position" => self.position(args, read, out),
            "perft" => self.perft(args, out),
            "display" => self.display(out),
            "generate" => self.generate(out),
            "eval" => self.eval(args, out),
            "move" => self.play_one(args, out),
            "help" => commands::help(out),
            #[cfg(feature = "debug-commands")]
            "dump" => self.dump(args, out),
            #[cfg(feature = "debug-commands")]
            "debug" => self.debug(args, out),
            _ => unreachable!("every command of commands::COMMANDS is handled"),
        }
        Flow::Continue
    }

    /// Without the `debug-commands` feature there is nothing to check.
    #[cfg(not(feature = "debug-commands"))]
    fn check_game(&self) {}

    fn uci(&self, out: &mut Vec<u8>) {
        line_out(
            out,
            &format!("id name leiserchess {}", env!("CARGO_PKG_VERSION")),
        );
        line_out(out, "id author the leiserchess authors");
        for l in EngineConfig::uci_lines() {
            line_out(out, &l);
        }
        line_out(out, "uciok");
    }

    /// `position`, its line read at `read`.
    fn position(&mut self, args: &[&str], read: Instant, out: &mut Vec<u8>) {
        // A `go` usually follows at once: the search thread wakes while
        // the position is replayed.
        searcher::Searcher::wake(&self.searcher);
        let (setup, moves) = position_args(args);
        let text = match setup {
            Ok(text) => text,
            Err(setup) => {
                return say(
                    out,
                    format!(
                        "error: position wants startpos, endgame or fen <board> <W|B>, got '{}'; position unchanged",
                        quote(&setup)
                    ),
                )
            }
        };
        let mut game = match fen::parse(&text) {
            Ok(b) => Game::with_rules(b, self.config.draw_rules()),
            Err(e) => {
                return say(
                    out,
                    format!("error: bad FEN '{}': {e}; position unchanged", quote(&text)),
                )
            }
        };
        for (i, m) in moves.iter().enumerate() {
            if let Err(e) = game.play_text(m) {
                return say(
                    out,
                    format!("error: move {}: {e}; position unchanged", i + 1),
                );
            }
        }
        self.game = game;
        self.check_game();
        if self.latency.is_some() {
            self.position_stamps = Some((read, Instant::now()));
        }
    }
}

/// A game from the start position, under the options' draw limits.
fn new_game(c: &EngineConfig) -> Game {
    Game::with_rules(
        fen::parse(fen::STARTPOS).expect("the start position parses"),
        c.draw_rules(),
    )
}

/// Where a line's command is among its `tokens`: the first that names one
/// (unknown tokens before it are skipped, as in UCI).
pub fn command_at(tokens: &[&str]) -> Option<usize> {
    tokens.iter().position(|t| commands::is_command(t))
}

/// `position`'s arguments split in two: the FEN its setup names (`startpos`,
/// `endgame` or `fen <board> <side>`; else `Err` with the setup as given)
/// and the moves after `moves`.
pub fn position_args<'a>(args: &'a [&'a str]) -> (Result<String, String>, &'a [&'a str]) {
    let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (setup, moves) = match moves_at {
        Some(m) => (&args[..m], &args[m + 1..]),
        None => (args, &[][..]),
    };
    let text = match setup.first().map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("startpos") if setup.len() == 1 => Ok(fen::STARTPOS.to_string()),
        Some("endgame") if setup.len() == 1 => Ok(fen::ENDGAME.to_string()),
        Some("fen") => Ok(setup[1..].join(" ")),
        _ => Err(setup.join(" ")),
    };
    (text, moves)
}

fn line_out(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
    out.push(b'\n');
}

/// One `info string` line; control characters are escaped, so that no
/// echoed input can break the line.
fn say(out: &mut Vec<u8>, text: String) {
    line_out(out, &format!("info string {}", escape_controls(&text)));
}
