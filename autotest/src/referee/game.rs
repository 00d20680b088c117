//! The referee: plays one game between two engines on our own rules code,
//! with their clocks, and records it. Every fault of an engine (an illegal
//! or unparsable move, a crash or early exit, a hang, a time forfeit) ends
//! the game as a loss for that engine, with the reason.

use crate::config::spec::{Clock, EngineSpec, TournamentSpec};
use crate::openings::Opening;
use crate::referee::adjudication::{self, Adjudicator, Verdict};
use crate::referee::engine::{Engine, EngineError};
use crate::referee::kept::Kept;
use crate::referee::record::{Adjudication, FaultKind, GameRecord, MoveRecord, Start, Termination};
use crate::referee::stderr_log::StderrLog;
use leiserchess::rules::game::{DrawRules, Game, Outcome};
use leiserchess::rules::piece::Color;
use std::time::{Duration, Instant};

/// How long an engine with no clock (depth or node limits) may think
/// before it counts as hung.
pub const HANG_LIMIT: Duration = Duration::from_secs(60);
/// How long a late engine has to answer `isready`: one that does is slow
/// (a time forfeit), one that does not is hung.
const ALIVE_CHECK: Duration = Duration::from_millis(500);
/// The clock of an engine that was given no limits at all.
pub const DEFAULT_CLOCK: Clock = Clock::Fischer {
    base_ms: 10_000,
    inc_ms: 100,
};

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
struct ClockState {
    clock: Clock,
    left_ms: i64,
    /// Moves until the next period (period clocks).
    to_go: u32,
}

impl ClockState {
    fn new(clock: Clock) -> ClockState {
        match clock {
            Clock::Fischer { base_ms, .. } => ClockState {
                clock,
                left_ms: base_ms as i64,
                to_go: 0,
            },
            Clock::Period { moves, period_ms } => ClockState {
                clock,
                left_ms: period_ms as i64,
                to_go: moves.max(1),
            },
        }
    }

    /// Charges a move's time and adds the increment or the next period.
    fn charge(&mut self, ms: u64) {
        self.left_ms -= ms as i64;
        match self.clock {
            Clock::Fischer { inc_ms, .. } => self.left_ms += inc_ms as i64,
            Clock::Period { moves, period_ms } => {
                self.to_go -= 1;
                if self.to_go == 0 {
                    self.left_ms += period_ms as i64;
                    self.to_go = moves.max(1);
                }
            }
        }
    }

    fn inc_ms(&self) -> u64 {
        match self.clock {
            Clock::Fischer { inc_ms, .. } => inc_ms,
            Clock::Period { .. } => 0,
        }
    }
}

/// A side of the board: its spec, its process, its clock and where its
/// standard error goes.
struct Side<'a> {
    spec: &'a EngineSpec,
    engine: Option<Engine>,
    /// The games its process played before this one (a kept engine's).
    games: u32,
    clock: Option<ClockState>,
    log: Option<StderrLog>,
}

impl Side<'_> {
    fn fault(&self, kind: FaultKind, detail: impl Into<String>) -> Termination {
        Termination::Fault {
            engine: self.spec.name.clone(),
            kind,
            detail: detail.into(),
        }
    }
}

/// Plays `opening` with `white` and `black` under the tournament's rules,
/// each engine in a process of its own that ends with the game.
pub fn play(
    white: &EngineSpec,
    black: &EngineSpec,
    opening: &Opening,
    t: &TournamentSpec,
    round: &str,
) -> GameRecord {
    play_kept(white, black, opening, t, round, &mut Kept::default())
}

/// [`play`] with a worker's kept engines: an engine with `restart=off`
/// plays in its kept process if there is one, and is kept after the game
/// unless it was at fault.
pub fn play_kept(
    white: &EngineSpec,
    black: &EngineSpec,
    opening: &Opening,
    t: &TournamentSpec,
    round: &str,
    kept: &mut Kept,
) -> GameRecord {
    let started = Instant::now();
    let started_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut record = GameRecord {
        event: t.title.clone(),
        round: round.to_string(),
        white: white.name.clone(),
        black: black.name.clone(),
        start: opening.start.clone(),
        opening: opening.moves.clone(),
        moves: Vec::new(),
        result: "1/2-1/2".to_string(),
        termination: Termination::Adjudicated(Adjudication::MoveLimit),
        started_unix,
        duration_ms: 0,
        memory: Vec::new(),
    };
    // The log's header names the game as the PGN does: its Round tag.
    let what = format!("round {round}: {} vs {}", white.name, black.name);
    let mut sides = [white, black].map(|spec| Side {
        spec,
        engine: None,
        games: 0,
        clock: clock_of(spec),
        log: StderrLog::of(t, &spec.name, &what),
    });
    let (termination, winner) = run_game(&mut sides, opening, t, &mut record.moves, kept);
    record.result = match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
    .to_string();
    for (s, side) in sides.into_iter().zip(["White", "Black"]) {
        let Some(e) = s.engine else { continue };
        let at_fault =
            matches!(&termination, Termination::Fault { engine, .. } if *engine == s.spec.name);
        if s.spec.restart || at_fault {
            e.quit();
        } else {
            let memory = kept.keep(&s.spec.name, e, s.games + 1, side);
            record.memory.push(memory);
        }
    }
    record.termination = termination;
    record.duration_ms = started.elapsed().as_millis() as u64;
    record
}

/// The options an engine gets when it lists them and the user did not
/// set them: the tournament's no-zap limit, so that the engine plays to
/// the referee's rule.
pub fn option_defaults(t: &TournamentSpec) -> Vec<(&'static str, String)> {
    vec![("no_zap_plies", t.no_zap_plies.to_string())]
}

/// The clock an engine plays on: its own, or the default when it has no
/// limit at all.
fn clock_of(spec: &EngineSpec) -> Option<ClockState> {
    let l = &spec.limits;
    match l.clock {
        Some(c) => Some(ClockState::new(c)),
        None if l.movetime_ms.is_none() && l.depth.is_none() && l.nodes.is_none() => {
            Some(ClockState::new(DEFAULT_CLOCK))
        }
        None => None,
    }
}

/// Plays the game out; returns how it ended and the winner.
fn run_game(
    sides: &mut [Side; 2],
    opening: &Opening,
    t: &TournamentSpec,
    moves: &mut Vec<MoveRecord>,
    kept: &mut Kept,
) -> (Termination, Option<Color>) {
    let rules = DrawRules {
        repetitions: t.repetitions,
        no_zap_plies: t.no_zap_plies,
    };
    let mut game = match &opening.start {
        Start::StartPos => Game::with_rules(
            leiserchess::rules::fen::parse(leiserchess::rules::fen::STARTPOS).expect("startpos"),
            rules,
        ),
        Start::Fen(f) => match leiserchess::rules::fen::parse(f) {
            Ok(b) => Game::with_rules(b, rules),
            Err(e) => {
                return (
                    Termination::Void(format!("bad opening FEN '{f}': {e}")),
                    None,
                )
            }
        },
    };
    // Plies before the engines' first move, counted from a Tangerine move
    // (as PGN move numbers count them).
    let first_ply = usize::from(game.board().side() == Color::Black) + opening.moves.len();
    for m in &opening.moves {
        if let Err(e) = game.play_text(m) {
            return (Termination::Void(format!("opening move '{m}': {e}")), None);
        }
    }
    let colours = [Color::White, Color::Black];
    let defaults = option_defaults(t);
    for (i, side) in sides.iter_mut().enumerate() {
        // A kept engine was sent `ucinewgame` when it was kept.
        let started = match kept.take(&side.spec.name) {
            Some((mut e, games)) => {
                e.next_log(side.log.take());
                side.games = games;
                Ok((e, true))
            }
            None => Engine::start(side.spec, &defaults, side.log.take()).map(|e| (e, false)),
        };
        match started.and_then(|(mut e, renewed)| {
            if !renewed {
                e.send("ucinewgame")?;
            }
            e.sync()?;
            Ok(e)
        }) {
            Ok(e) => side.engine = Some(e),
            Err(err) => {
                let kind = match err {
                    EngineError::Timeout(_) => FaultKind::Hang,
                    _ => FaultKind::Crash,
                };
                return (side.fault(kind, err.to_string()), Some(colours[1 - i]));
            }
        }
    }
    let position_prefix = match &opening.start {
        Start::StartPos => "position startpos".to_string(),
        Start::Fen(f) => format!("position fen {f}"),
    };
    let mut played: Vec<String> = opening.moves.clone();
    let mut adjudicator = Adjudicator::new(t.draw, t.resign);
    loop {
        if let Some(o) = game.outcome() {
            let winner = match o {
                Outcome::KingZapped { winner } => Some(winner),
                Outcome::Repetition | Outcome::NoZap => None,
            };
            return (Termination::from(o), winner);
        }
        if t.max_plies > 0 && played.len() as u64 >= u64::from(t.max_plies) {
            return (Termination::Adjudicated(Adjudication::MoveLimit), None);
        }
        let mover = game.board().side();
        let me = mover.index();
        let clocks = [sides[0].clock, sides[1].clock];
        let position = if played.is_empty() {
            position_prefix.clone()
        } else {
            format!("{position_prefix} moves {}", played.join(" "))
        };
        let side = &mut sides[me];
        match ask(side, &position, clocks, t) {
            Err(fault) => return (fault, Some(mover.opp())),
            Ok(rec) => {
                if let Err(e) = game.play_text(&rec.text) {
                    let fault = side.fault(FaultKind::IllegalMove, format!("'{}': {e}", rec.text));
                    return (fault, Some(mover.opp()));
                }
                let move_number = ((first_ply + moves.len()) / 2 + 1) as u32;
                let verdict = adjudicator.record(me, move_number, rec.score);
                played.push(rec.text.clone());
                moves.push(rec);
                if game.outcome().is_none() {
                    if let Some(v) = verdict {
                        return adjudicated(v, t, sides);
                    }
                }
            }
        }
    }
}

/// The end of a game adjudicated on the engines' scores.
fn adjudicated(v: Verdict, t: &TournamentSpec, sides: &[Side; 2]) -> (Termination, Option<Color>) {
    match (v, t.draw, t.resign) {
        (Verdict::Draw, Some(d), _) => (
            Termination::Adjudicated(Adjudication::DrawScores {
                move_count: d.move_count,
                score_cp: d.score_cp,
            }),
            None,
        ),
        (Verdict::Resigns(loser), _, Some(r)) => (
            Termination::Adjudicated(Adjudication::Resign {
                engine: sides[loser].spec.name.clone(),
                move_count: r.move_count,
                score_cp: r.score_cp,
            }),
            Some([Color::Black, Color::White][loser]),
        ),
        _ => unreachable!("a verdict comes from a rule that is set"),
    }
}

/// Asks `side` for a move in `position` and times it.
fn ask(
    side: &mut Side,
    position: &str,
    clocks: [Option<ClockState>; 2],
    t: &TournamentSpec,
) -> Result<MoveRecord, Termination> {
    let go = go_command(side, clocks);
    let margin = Duration::from_millis(t.time_margin_ms);
    let allowed = match side.clock {
        Some(c) => Duration::from_millis(c.left_ms.max(0) as u64) + margin,
        None => side.spec.limits.movetime_ms.map_or(HANG_LIMIT, |ms| {
            Duration::from_millis(ms) + margin + Duration::from_secs(1)
        }),
    };
    let engine = side
        .engine
        .as_mut()
        .expect("engines start before the first move");
    let sent = engine.send(position).and_then(|_| engine.send(&go));
    let start = Instant::now();
    if let Err(e) = sent {
        return Err(side.fault(FaultKind::Crash, e.to_string()));
    }
    let deadline = start + allowed;
    let (mut depth, mut nodes, mut score) = (None, None, None);
    let answer = loop {
        match engine.read_line(deadline) {
            Ok(line) => {
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("info") => {
                        let (d, n) = info_depth_nodes(&line);
                        depth = d.or(depth);
                        nodes = n.or(nodes);
                        score = adjudication::info_score(&line).or(score);
                    }
                    Some("bestmove") => break Ok(words.next().unwrap_or("").to_string()),
                    _ => {}
                }
            }
            Err(e) => break Err(e),
        }
    };
    let elapsed = start.elapsed();
    let text = match answer {
        Ok(text) => text,
        Err(EngineError::Timeout(_)) => {
            // Too late: on a clock or a move time, slow if it still answers
            // (a time forfeit), hung if it does not.
            let alive = engine.answer("isready", "readyok", ALIVE_CHECK).is_ok();
            let timed = side.clock.is_some() || side.spec.limits.movetime_ms.is_some();
            let kind = if alive && timed {
                FaultKind::TimeForfeit
            } else {
                FaultKind::Hang
            };
            let detail = format!(
                "no move after {} ms (allowed {} ms)",
                elapsed.as_millis(),
                allowed.as_millis()
            );
            return Err(side.fault(kind, detail));
        }
        Err(e) => return Err(side.fault(FaultKind::Crash, e.to_string())),
    };
    if elapsed > allowed {
        let detail = format!(
            "moved after {} ms (allowed {} ms)",
            elapsed.as_millis(),
            allowed.as_millis()
        );
        return Err(side.fault(FaultKind::TimeForfeit, detail));
    }
    if let Some(c) = side.clock.as_mut() {
        c.charge(elapsed.as_millis() as u64);
    }
    Ok(MoveRecord {
        text,
        time_ns: elapsed.as_nanos() as u64,
        depth,
        nodes,
        score,
    })
}

/// `go` with the engine's limits: the course's `time`/`inc` and the
/// standard `wtime btime winc binc` for clocks, `movestogo` for periods,
/// and `movetime`, `depth`, `nodes`.
fn go_command(side: &Side, clocks: [Option<ClockState>; 2]) -> String {
    let mut go = String::from("go");
    if let Some(c) = side.clock {
        let left = |c: Option<ClockState>| c.map_or(0, |c| c.left_ms.max(1));
        go += &format!(" time {} inc {}", c.left_ms.max(1), c.inc_ms());
        go += &format!(
            " wtime {} btime {} winc {} binc {}",
            left(clocks[0]),
            left(clocks[1]),
            clocks[0].map_or(0, |c| c.inc_ms()),
            clocks[1].map_or(0, |c| c.inc_ms())
        );
        if let Clock::Period { .. } = c.clock {
            go += &format!(" movestogo {}", c.to_go);
        }
    }
    let l = &side.spec.limits;
    if let Some(ms) = l.movetime_ms {
        go += &format!(" movetime {ms}");
    }
    if let Some(d) = l.depth {
        go += &format!(" depth {d}");
    }
    if let Some(n) = l.nodes {
        go += &format!(" nodes {n}");
    }
    go
}

/// The `depth` and `nodes` fields of an `info` line.
fn info_depth_nodes(line: &str) -> (Option<u32>, Option<u64>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1))
    };
    (
        field("depth").and_then(|v| v.parse().ok()),
        field("nodes").and_then(|v| v.parse().ok()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A period clock is refilled after the period's last move and not
    /// before; a Fischer clock gets its increment after every move.
    #[test]
    fn clocks_charge_a_move_and_add_their_time() {
        let mut c = ClockState::new(Clock::Period {
            moves: 3,
            period_ms: 1_000,
        });
        let mut seen = Vec::new();
        for _ in 0..4 {
            c.charge(100);
            seen.push((c.left_ms, c.to_go));
        }
        assert_eq!(seen, [(900, 2), (800, 1), (1_700, 3), (1_600, 2)]);
        assert_eq!(c.inc_ms(), 0);
        let mut f = ClockState::new(Clock::Fischer {
            base_ms: 1_000,
            inc_ms: 10,
        });
        f.charge(100);
        f.charge(1_000);
        assert_eq!((f.left_ms, f.inc_ms()), (-80, 10));
    }
}
