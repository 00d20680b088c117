//! The Leiserchess UCI loop (PROTOCOL.md): reads commands line by line and
//! answers on the output. Bad input gets one `info string` line naming what
//! was wrong and changes nothing. `go` and `perft` run on a thread of their
//! own, so `isready` is answered and `stop` obeyed while they work.

mod go;

use crate::eval::{evaluate, Weights};
use crate::protocol::options::Options;
use crate::quote::{escape_controls, quote};
use crate::rules::fen;
use crate::rules::game::{self, Game, Outcome};
use crate::rules::movegen::generate;
use crate::rules::moves::MoveList;
use crate::rules::perft::perft_threads_until;
use crate::search::order::Order;
use crate::search::think::think;
use crate::search::{score_text, Params, Root, Shared};
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Deepest `perft` the loop runs, so that a typo can not hang the engine.
const MAX_PERFT_DEPTH: u32 = 7;

const COMMANDS: &[(&str, &str)] = &[
    ("uci", "identify the engine and list its options"),
    ("isready", "answer readyok"),
    ("setoption name <id> [value <x>]", "set an option"),
    ("ucinewgame", "start a new game from the start position"),
    (
        "position startpos|endgame|fen <board> <W|B> [moves m1 m2 ...]",
        "set the position",
    ),
    (
        "go [depth d] [nodes n] [movetime ms] [time ms] [inc ms] [movestogo n] [mate n] [infinite] [ponder] [searchmoves m ...]",
        "search (also wtime btime winc binc); a bad word refuses the go",
    ),
    ("stop", "end the search and answer bestmove"),
    (
        "ponderhit",
        "the pondered move was played: search on the clock",
    ),
    ("perft [d]", "count leaf nodes to depth 1..d (default 4)"),
    ("display", "draw the board (also: d)"),
    (
        "eval [move]",
        "print the evaluation terms and score (after move, if given)",
    ),
    ("generate", "list the moves of the position"),
    ("move <m>", "play one move"),
    ("help", "list the commands"),
    ("quit", "exit"),
];

/// The commands of the `debug-commands` feature, listed by `help` after
/// `COMMANDS`.
#[cfg(feature = "debug-commands")]
const DEBUG_COMMANDS: &[(&str, &str)] = &[(
    "dump [name]",
    "print a named structure (board tt killers history coverage); no name: list them",
)];
#[cfg(not(feature = "debug-commands"))]
const DEBUG_COMMANDS: &[(&str, &str)] = &[];

/// Commands that exist but are not listed: `debug corrupt board [how]`
/// breaks the current board on purpose, a testing aid for `check_rep`.
#[cfg(feature = "debug-commands")]
const HIDDEN_COMMANDS: &[&str] = &["debug"];
#[cfg(not(feature = "debug-commands"))]
const HIDDEN_COMMANDS: &[&str] = &[];

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
    /// A `go`: its thread hands the move-ordering tables back.
    Search { thread: JoinHandle<Vec<Order>> },
    /// A `perft`: a count the user asked for, so other commands wait for
    /// it; only `stop` and `quit` cut it short.
    Perft { thread: JoinHandle<()> },
}

impl Running {
    fn is_finished(&self) -> bool {
        match self {
            Running::Search { thread } => thread.is_finished(),
            Running::Perft { thread } => thread.is_finished(),
        }
    }
}

/// The engine's state between commands.
pub struct Engine {
    game: Game,
    options: Options,
    /// Draws the `randomize` noise of the `eval` command; fixed seed.
    rng: fastrand::Rng,
    shared: Arc<Shared>,
    /// One move-ordering table per search thread, while no search runs.
    orders: Vec<Order>,
    running: Option<Running>,
    /// The thread freeing the last replaced table, joined before the
    /// next one is freed and at the end, so no thread outlives the engine.
    freeing: Option<JoinHandle<()>>,
    output: Output,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Output::new(std::io::stdout()))
    }
}

/// Runs the loop until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    let output = Output::new(output);
    let mut engine = Engine::new(output.clone());
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
}

impl Engine {
    /// An engine whose search thread writes to `output`.
    pub fn new(output: Output) -> Engine {
        let options = Options::default();
        Engine {
            game: new_game(&options),
            rng: fastrand::Rng::with_seed(RNG_SEED),
            shared: Arc::new(new_shared(&options)),
            orders: vec![Order::default()],
            running: None,
            freeing: None,
            options,
            output,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// At the end of the input: stops a search (which prints its
    /// `bestmove`) and lets a `perft` finish.
    pub fn finish(&mut self) {
        self.end_job(false);
        self.join_freeing();
    }

    fn join_freeing(&mut self) {
        if let Some(t) = self.freeing.take() {
            // Dropping a table can not fail; a panic there has nothing to say.
            let _ = t.join();
        }
    }

    /// Ends the running work, if any, and takes back the search's tables: a
    /// search is stopped (its thread prints the `bestmove`); a `perft` is
    /// stopped only if `stop_perft`, else waited for.
    fn end_job(&mut self, stop_perft: bool) {
        match self.running.take() {
            None => {}
            Some(Running::Search { thread }) => {
                self.shared.stop.store(true, Ordering::Relaxed);
                if let Ok(orders) = thread.join() {
                    self.orders = orders;
                }
            }
            Some(Running::Perft { thread }) => {
                if stop_perft {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
                // A perft thread that panicked has nothing to hand back.
                let _ = thread.join();
            }
        }
    }

    /// Joins work that has finished by itself.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(Running::is_finished) {
            self.end_job(false);
        }
    }

    /// A new, empty transposition table (sized by the options). The old
    /// one is freed on a thread of its own: unmapping gigabytes takes a
    /// while, and `ucinewgame` must answer at once.
    fn renew_table(&mut self) {
        self.join_freeing();
        let old = std::mem::replace(&mut self.shared, Arc::new(new_shared(&self.options)));
        self.freeing = Some(std::thread::spawn(move || drop(old)));
    }

    /// Handles one line of input, writing the answer to `out`.
    pub fn handle(&mut self, line: &str, out: &mut Vec<u8>) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // Unknown tokens before a command are skipped, as in UCI.
        let Some(at) = tokens.iter().position(|t| is_command(t)) else {
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
        let (cmd, args) = (canonical(tokens[at]), &tokens[at + 1..]);
        self.reap();
        // Commands that read or change the position, the options or the
        // tables end running work first.
        if !matches!(cmd, "isready" | "ponderhit" | "uci" | "help") {
            self.end_job(matches!(cmd, "stop" | "quit"));
        }
        match cmd {
            "quit" => return Flow::Quit,
            "stop" => {}
            "ponderhit" => self.shared.pondering.store(false, Ordering::Relaxed),
            "go" => self.go(args, out),
            "uci" => self.uci(out),
            "isready" => line_out(out, "readyok"),
            "setoption" => self.setoption(args, out),
            "ucinewgame" => {
                self.game = new_game(&self.options);
                self.renew_table();
                self.orders.iter_mut().for_each(Order::clear);
            }
            "position" => self.position(args, out),
            "perft" => self.perft(args, out),
            "display" => self.display(out),
            "generate" => self.generate(out),
            "eval" => self.eval(args, out),
            "move" => self.play_one(args, out),
            "help" => {
                for (usage, what) in COMMANDS.iter().chain(DEBUG_COMMANDS) {
                    line_out(out, &format!("{usage:<64} {what}"));
                }
            }
            #[cfg(feature = "debug-commands")]
            "dump" => self.dump(args, out),
            #[cfg(feature = "debug-commands")]
            "debug" => self.debug(args, out),
            _ => unreachable!("every command of COMMANDS is handled"),
        }
        Flow::Continue
    }

    fn uci(&self, out: &mut Vec<u8>) {
        line_out(
            out,
            &format!("id name leiserchess {}", env!("CARGO_PKG_VERSION")),
        );
        line_out(out, "id author the leiserchess authors");
        for l in Options::uci_lines() {
            line_out(out, &l);
        }
        line_out(out, "uciok");
    }

    fn setoption(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
        let Some(n) = name_at else {
            return say(out, "error: setoption needs 'name <id>'".to_string());
        };
        // `value` counts only after the name (`setoption value 1 name x`
        // names the option "x" and gives it no value).
        let value_at = args[n + 1..]
            .iter()
            .position(|t| t.eq_ignore_ascii_case("value"))
            .map(|v| n + 1 + v);
        let name = args[n + 1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|v| args[v + 1..].join(" "));
        match self.options.set(&name, value.as_deref()) {
            Ok(report) => {
                if ["hash", "tt_ways", "Clear Hash"]
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(&name))
                {
                    self.renew_table();
                }
                say(out, report)
            }
            Err(e) => say(out, format!("error: {e}")),
        }
    }

    fn position(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let text = match setup.first().map(|s| s.to_ascii_lowercase()).as_deref() {
            Some("startpos") if setup.len() == 1 => fen::STARTPOS.to_string(),
            Some("endgame") if setup.len() == 1 => fen::ENDGAME.to_string(),
            Some("fen") => setup[1..].join(" "),
            _ => {
                return say(
                    out,
                    format!(
                        "error: position wants startpos, endgame or fen <board> <W|B>, got '{}'; position unchanged",
                        quote(&setup.join(" "))
                    ),
                )
            }
        };
        let mut game = match fen::parse(&text) {
            Ok(b) => Game::with_rules(b, draw_rules(&self.options)),
            Err(e) => {
                return say(
                    out,
                    format!("error: bad FEN '{}': {e}; position unchanged", quote(&text)),
                )
            }
        };
        let moves = moves_at.map_or(&[][..], |m| &args[m + 1..]);
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
    }

    /// `go`: a legal move whenever the position has one, drawn or not (the
    /// referee decides draws); `bestmove 0000` only once a King is zapped.
    fn go(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let request = match go::parse(args, self.game.board().side()) {
            Ok(r) => r,
            Err(e) => return say(out, format!("error: {e}; no search")),
        };
        self.check_game();
        let legal = self.game.legal_moves();
        if let Some(m) = request.searchmoves.iter().find(|m| !legal.contains(m)) {
            return say(
                out,
                format!("error: go searchmoves: '{m}' is not a legal move here; no search"),
            );
        }
        let Some(&fallback) = request.searchmoves.first().or(legal.first()) else {
            say(out, "error: no legal move: a King is zapped".to_string());
            return line_out(out, "bestmove 0000");
        };
        let mut root = Root::from_game(&self.game);
        root.searchmoves = request.searchmoves;
        let mut limits = request.limits;
        limits.overhead = self.options.get("move_overhead") as u64;
        let params = params_from(&self.options);
        let threads = self.options.get("threads") as usize;
        let mut orders = std::mem::take(&mut self.orders);
        orders.resize_with(threads, Order::default);
        orders.truncate(threads);
        self.shared.stop.store(false, Ordering::Relaxed);
        self.shared
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let (shared, output) = (self.shared.clone(), self.output.clone());
        let thread = std::thread::spawn(move || {
            let answer = think(
                &root,
                &limits,
                params,
                &shared,
                &mut orders,
                |it, elapsed, nodes| {
                    let ms = elapsed.as_millis() as u64;
                    let pv: Vec<String> = it.pv.iter().map(|m| m.to_string()).collect();
                    let line = format!(
                    "info depth {} seldepth {} score {} nodes {nodes} nps {} time {ms} hashfull {} pv {}\n",
                    it.depth,
                    it.seldepth,
                    score_text(it.score),
                    nodes * 1000 / ms.max(1),
                    shared.tt.hashfull(),
                    pv.join(" ")
                );
                    output.write(line.as_bytes());
                },
            );
            let best = answer.best.unwrap_or(fallback);
            let line = match answer.ponder.filter(|_| answer.best.is_some()) {
                Some(p) => format!("bestmove {best} ponder {p}\n"),
                None => format!("bestmove {best}\n"),
            };
            output.write(line.as_bytes());
            orders
        });
        self.running = Some(Running::Search { thread });
    }

    /// `perft [d]`: counts depth 1..d on a thread of its own, one line a
    /// depth; `stop` or `quit` cut it short.
    fn perft(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let depth = match args {
            [] => 4,
            [d] => match d.parse::<u32>() {
                Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => d,
                _ => {
                    return say(
                        out,
                        format!(
                            "error: perft depth must be a number 1..{MAX_PERFT_DEPTH}, got '{}'",
                            quote(d)
                        ),
                    )
                }
            },
            _ => return say(out, "error: perft takes at most one depth".to_string()),
        };
        let threads = self.options.get("threads") as usize;
        let board = self.game.board().clone();
        self.shared.stop.store(false, Ordering::Relaxed);
        let (shared, output) = (self.shared.clone(), self.output.clone());
        let thread = std::thread::spawn(move || {
            for k in 1..=depth {
                let n = (!shared.stop.load(Ordering::Relaxed))
                    .then(|| perft_threads_until(&board, k, threads, &shared.stop))
                    .flatten();
                let Some(n) = n else {
                    output.write(format!("info string perft stopped at depth {k}\n").as_bytes());
                    break;
                };
                output.write(format!("perft {k} {n}\n").as_bytes());
            }
        });
        self.running = Some(Running::Perft { thread });
    }

    fn display(&self, out: &mut Vec<u8>) {
        let b = self.game.board();
        for line in b.diagram().lines() {
            line_out(out, line);
        }
        let side = match b.side() {
            crate::rules::piece::Color::White => "Tangerine (W)",
            crate::rules::piece::Color::Black => "Lavender (B)",
        };
        line_out(out, &format!("fen {}", fen::to_fen(b)));
        line_out(
            out,
            &format!(
                "{side} to move, ply {}, plies since zap {}, key {:016x}",
                self.game.moves().len(),
                self.game.plies_since_zap(),
                b.key()
            ),
        );
        if let Some(o) = self.game.outcome() {
            line_out(out, &verdict(o));
        }
    }

    fn eval(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let mut game = self.game.clone();
        match args {
            [] => {}
            [m] => {
                if let Err(e) = game.play_text(m) {
                    return say(out, format!("error: eval {}: {e}", quote(m)));
                }
            }
            _ => return say(out, "error: eval takes at most one move".to_string()),
        }
        if let Some(o) = game
            .outcome()
            .filter(|o| matches!(o, Outcome::KingZapped { .. }))
        {
            return say(
                out,
                format!("no evaluation: the game is over ({} {o})", o.score_text()),
            );
        }
        let terms = evaluate(game.board(), &Weights::from_options(&self.options));
        line_out(
            out,
            &format!(
                "info string {:<12} {:>10} {:>10}",
                "term", "tangerine", "lavender"
            ),
        );
        let [w, b] = terms.sides.map(|t| t.named());
        for ((name, wv), (_, bv)) in w.iter().zip(b) {
            line_out(out, &format!("info string {name:<12} {wv:>10} {bv:>10}"));
        }
        let totals = terms.sides.map(|t| t.total());
        line_out(
            out,
            &format!(
                "info string {:<12} {:>10} {:>10}",
                "total", totals[0], totals[1]
            ),
        );
        let r = self.options.get("randomize") as i32;
        let noise = if r > 0 { self.rng.i32(-r..=r) } else { 0 };
        if r > 0 {
            say(out, format!("randomize noise {noise} ev"));
        }
        line_out(out, &format!("info score cp {}", terms.score_cp(noise)));
    }

    fn generate(&self, out: &mut Vec<u8>) {
        let mut list = MoveList::new();
        generate(self.game.board(), &mut list);
        let texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        line_out(out, &texts.join(" "));
    }

    fn play_one(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let [m] = args else {
            return say(
                out,
                "error: move wants exactly one move, e.g. 'move h0L'".to_string(),
            );
        };
        self.check_game();
        if let Err(e) = self.game.play_text(m) {
            say(out, format!("error: {e}; position unchanged"));
        } else if let Some(o) = self.game.outcome() {
            say(out, verdict(o));
        }
        self.check_game();
    }

    /// With the `check_rep` option on, checks the game's board (a board
    /// whose King was zapped is the end of a game, and allowed).
    #[cfg(feature = "debug-commands")]
    fn check_game(&self) {
        if self.options.get("check_rep") != 0 {
            let zapped = matches!(self.game.outcome(), Some(Outcome::KingZapped { .. }));
            crate::check::report("board", self.game.board().check_rep_with(zapped));
        }
    }

    #[cfg(not(feature = "debug-commands"))]
    fn check_game(&self) {}

    /// `dump [name]`: lists the dumps, or prints one.
    #[cfg(feature = "debug-commands")]
    fn dump(&self, args: &[&str], out: &mut Vec<u8>) {
        use crate::protocol::dump::{find_dump, Context, DUMPS};
        match args {
            [] => {
                for d in DUMPS {
                    line_out(out, &format!("{:<10} {}", d.name, d.what));
                }
            }
            [name] => match find_dump(name) {
                Some(d) => {
                    let cx = Context {
                        board: self.game.board(),
                        tt: &self.shared.tt,
                        orders: &self.orders,
                    };
                    out.extend_from_slice((d.run)(&cx).as_bytes());
                }
                None => {
                    let names: Vec<&str> = DUMPS.iter().map(|d| d.name).collect();
                    say(
                        out,
                        format!(
                            "error: unknown dump '{}'; the dumps are {}",
                            quote(name),
                            names.join(" ")
                        ),
                    )
                }
            },
            _ => say(
                out,
                "error: dump takes at most one name ('dump' lists them)".to_string(),
            ),
        }
    }

    /// `debug corrupt board [how]`: breaks the current board (a new game
    /// from it, history dropped) so that tests can see `check_rep` catch
    /// it. A testing aid: with `check_rep` off, what the engine does with
    /// such a board is undefined (it may panic).
    #[cfg(feature = "debug-commands")]
    fn debug(&mut self, args: &[&str], out: &mut Vec<u8>) {
        use crate::rules::board::Corruption;
        let names: Vec<&str> = Corruption::ALL.iter().map(|c| c.name()).collect();
        let how = match args {
            ["corrupt", "board"] => Some(Corruption::Key),
            ["corrupt", "board", how] => Corruption::parse(how),
            _ => None,
        };
        let Some(how) = how else {
            return say(
                out,
                format!(
                    "error: debug wants 'corrupt board [{}]', got '{}'",
                    names.join("|"),
                    quote(&args.join(" "))
                ),
            );
        };
        let mut board = self.game.board().clone();
        board.corrupt_for_test(how);
        self.game = Game::new(board);
        say(
            out,
            format!(
                "board corrupted ({}), a testing aid for check_rep",
                how.name()
            ),
        );
    }
}

/// The rules' verdict on the game's position: a zapped King ends it; a
/// draw is reported, and play may go on (the referee decides).
fn verdict(o: Outcome) -> String {
    match o {
        Outcome::KingZapped { .. } => format!("game over: {} {o}", o.score_text()),
        _ => format!("{} {o} by the rules; play may go on", o.score_text()),
    }
}

/// The rules' draw limits, the no-zap one from the `no_zap_plies` option.
fn draw_rules(o: &Options) -> game::DrawRules {
    game::DrawRules {
        no_zap_plies: o.get("no_zap_plies") as u32,
        ..game::DrawRules::default()
    }
}

/// A game from the start position, under the options' draw limits.
fn new_game(o: &Options) -> Game {
    Game::with_rules(
        fen::parse(fen::STARTPOS).expect("the start position parses"),
        draw_rules(o),
    )
}

/// The search's table and flags, sized by the `hash` and `tt_ways` options.
fn new_shared(o: &Options) -> Shared {
    Shared::new(o.get("hash") as usize, o.get("tt_ways") as usize)
}

fn params_from(o: &Options) -> Params {
    Params {
        weights: Weights::from_options(o),
        lmr_r1: o.get("lmr_r1") as usize,
        lmr_r2: o.get("lmr_r2") as usize,
        fut_depth: o.get("fut_depth") as i32,
        use_nmm: o.get("use_nmm") != 0,
        draw: o.get("draw") as i32,
        no_zap_plies: o.get("no_zap_plies") as u32,
        hmb: o.get("hmb") as i32,
        randomize: o.get("randomize") as i32,
        aspiration: o.get("aspiration") as i32,
        seed: o.get("seed") as u64,
        #[cfg(feature = "debug-commands")]
        check_rep: o.get("check_rep") != 0,
        #[cfg(not(feature = "debug-commands"))]
        check_rep: false,
    }
}

/// Short names of commands, as other engines accept them.
const ALIASES: &[(&str, &str)] = &[("d", "display")];

/// The command an alias stands for, or `token` itself.
fn canonical(token: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == token)
        .map_or(token, |(_, cmd)| cmd)
}

fn is_command(token: &str) -> bool {
    ALIASES.iter().any(|(alias, _)| *alias == token)
        || COMMANDS
            .iter()
            .chain(DEBUG_COMMANDS)
            .any(|(usage, _)| usage.split(' ').next() == Some(token))
        || HIDDEN_COMMANDS.contains(&token)
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
