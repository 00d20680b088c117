//! The Leiserchess UCI loop (PROTOCOL.md): reads commands line by line and
//! answers on the output. Bad input gets one `info string` line naming what
//! was wrong and changes nothing.

use crate::eval::{evaluate, Weights};
use crate::fen;
use crate::game::{Game, Outcome};
use crate::movegen::generate;
use crate::moves::MoveList;
use crate::options::Options;
use crate::perft::perft_threads;
use crate::square::Square;
use std::io::{BufRead, Write};

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
    ("perft [d]", "count leaf nodes to depth 1..d (default 4)"),
    ("display", "draw the board"),
    (
        "eval [move]",
        "print the evaluation terms and score (after move, if given)",
    ),
    ("generate", "list the moves of the position"),
    ("move <m>", "play one move"),
    ("help", "list the commands"),
    ("quit", "exit"),
];

const RNG_SEED: u64 = 0x1e15_e4c4;

/// What the loop should do after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine's state between commands.
pub struct Engine {
    game: Game,
    options: Options,
    /// Draws the `randomize` noise; fixed seed, so runs repeat.
    rng: fastrand::Rng,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            game: Game::from_fen(fen::STARTPOS).expect("the start position parses"),
            options: Options::default(),
            rng: fastrand::Rng::with_seed(RNG_SEED),
        }
    }
}

/// Runs the loop until `quit` or the end of the input.
pub fn run(input: impl BufRead, mut output: impl Write) {
    let mut engine = Engine::default();
    for line in input.lines() {
        let Ok(line) = line else {
            // Not UTF-8: say so and keep reading.
            let _ = writeln!(output, "info string error: input line is not valid UTF-8");
            continue;
        };
        let mut out = Vec::new();
        let flow = engine.handle(&line, &mut out);
        if output.write_all(&out).and_then(|_| output.flush()).is_err() || flow == Flow::Quit {
            break;
        }
    }
}

impl Engine {
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one line of input, writing the answer to `out`.
    pub fn handle(&mut self, line: &str, out: &mut Vec<u8>) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // Unknown tokens before a command are skipped, as in UCI.
        let Some(at) = tokens.iter().position(|t| is_command(t)) else {
            if let Some(first) = tokens.first() {
                say(
                    out,
                    format!("error: unknown command '{first}' (type 'help' for the list)"),
                );
            }
            return Flow::Continue;
        };
        if at > 0 {
            say(
                out,
                format!("ignoring unknown '{}'", tokens[..at].join(" ")),
            );
        }
        let (cmd, args) = (tokens[at], &tokens[at + 1..]);
        match cmd {
            "quit" => return Flow::Quit,
            "uci" => self.uci(out),
            "isready" => line_out(out, "readyok"),
            "setoption" => self.setoption(args, out),
            "ucinewgame" => self.game = Engine::default().game,
            "position" => self.position(args, out),
            "perft" => self.perft(args, out),
            "display" => self.display(out),
            "generate" => self.generate(out),
            "eval" => self.eval(args, out),
            "move" => self.play_one(args, out),
            "help" => {
                for (usage, what) in COMMANDS {
                    line_out(out, &format!("{usage:<64} {what}"));
                }
            }
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
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            return say(out, "error: setoption needs 'name <id>'".to_string());
        };
        let name = args[n + 1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|v| args[v + 1..].join(" "));
        match self.options.set(&name, value.as_deref()) {
            Ok(report) => say(out, report),
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
                        setup.join(" ")
                    ),
                )
            }
        };
        let mut game = match Game::from_fen(&text) {
            Ok(g) => g,
            Err(e) => {
                return say(
                    out,
                    format!("error: bad FEN '{text}': {e}; position unchanged"),
                )
            }
        };
        let moves = moves_at.map_or(&[][..], |m| &args[m + 1..]);
        for (i, m) in moves.iter().enumerate() {
            if let Err(e) = game.play_text(m) {
                return say(
                    out,
                    format!("error: move {} '{m}': {e}; position unchanged", i + 1),
                );
            }
        }
        self.game = game;
    }

    fn perft(&self, args: &[&str], out: &mut Vec<u8>) {
        let depth = match args.first() {
            None => 4,
            Some(d) => match d.parse::<u32>() {
                Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => d,
                _ => {
                    return say(
                        out,
                        format!(
                            "error: perft depth must be a number 1..{MAX_PERFT_DEPTH}, got '{d}'"
                        ),
                    )
                }
            },
        };
        let threads = self.options.get("threads") as usize;
        for k in 1..=depth {
            let n = perft_threads(self.game.board(), k, threads);
            line_out(out, &format!("perft {k} {n}"));
        }
    }

    fn display(&self, out: &mut Vec<u8>) {
        let b = self.game.board();
        line_out(out, "    a  b  c  d  e  f  g  h");
        for rank in (0..8).rev() {
            let mut row = format!("{rank}  ");
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match b.piece_at(sq) {
                    Some(p) => row.push_str(&format!(" {p}")),
                    None => row.push_str(" . "),
                }
            }
            line_out(out, row.trim_end());
        }
        let side = match b.side() {
            crate::piece::Color::White => "Tangerine (W)",
            crate::piece::Color::Black => "Lavender (B)",
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
            line_out(out, &format!("game over: {} {o}", o.score_text()));
        }
    }

    fn eval(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let mut game = self.game.clone();
        match args {
            [] => {}
            [m] => {
                if let Err(e) = game.play_text(m) {
                    return say(out, format!("error: eval {m}: {e}"));
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
        if let Err(e) = self.game.play_text(m) {
            say(out, format!("error: {e}; position unchanged"));
        } else if let Some(o) = self.game.outcome() {
            say(out, format!("game over: {} {o}", o.score_text()));
        }
    }
}

fn is_command(token: &str) -> bool {
    COMMANDS
        .iter()
        .any(|(usage, _)| usage.split(' ').next() == Some(token))
}

fn line_out(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
    out.push(b'\n');
}

fn say(out: &mut Vec<u8>, text: String) {
    line_out(out, &format!("info string {text}"));
}
