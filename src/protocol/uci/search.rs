//! `go`: the search started on a thread of its own and answered, its
//! `info` lines and `bestmove` written by that thread, and the move's
//! timestamps handed to the latency benchmark's log when it runs.

use super::latency::MoveTimes;
use super::searcher::{Job, Searcher};
use super::{go, info, line_out, say, Engine, Running};
use crate::search::algorithm;
use crate::search::time::SearchLimits;
use crate::search::Root;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

impl Engine {
    /// `go`: a legal move whenever the position has one, drawn or not (the
    /// referee decides draws); `bestmove 0000` only once a King is zapped.
    /// `received`: when its line was read, where the move's clock starts.
    pub(super) fn go(&mut self, args: &[&str], line: &str, received: Instant, out: &mut Vec<u8>) {
        let request = match go::parse(args, line, self.game.board().side()) {
            Ok(r) => r,
            Err(e) => return say(out, format!("error: {e}; no search")),
        };
        if request.budgeted {
            say(
                out,
                format!(
                    "go gives the side to move no clock or limit: searching {} ms (go infinite: until stop)",
                    go::DEFAULT_BUDGET_MS
                ),
            );
        }
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
        if let Some(m) = self.book_move(&request) {
            say(out, format!("book move {m}"));
            return line_out(out, &format!("bestmove {m}"));
        }
        let mut root = Root::from_game(&self.game);
        root.searchmoves = request.searchmoves;
        let limits = SearchLimits {
            received: Some(received),
            ..self.config.limits(request.limits)
        };
        let params = self.config.search;
        let style = info::Style {
            multipv: params.multipv > 1,
            wdl: self.config.show_wdl,
        };
        let setup = self.config.setup();
        let mut memory = std::mem::take(&mut self.memory);
        self.shared.stop.store(false, Ordering::Relaxed);
        self.shared
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let (shared, output) = (self.shared.clone(), self.output.clone());
        // The benchmark's stamps: the `position` line read and replayed
        // (else the `go` read).
        let stamps = self.latency.clone().map(|log| {
            let (read, replayed) = self.position_stamps.take().unwrap_or((received, received));
            (log, read, replayed)
        });
        // When the job is handed to the kept thread: its wake-up is the
        // rest of the set-up.
        let handed = Instant::now();
        let job: Job = Box::new(move || {
            let thinking = Instant::now();
            let mut writing = Duration::ZERO;
            let mut reported = 0;
            let run = algorithm::think(
                setup,
                &root,
                &limits,
                params,
                &shared,
                &mut memory,
                |it, elapsed, nodes| {
                    let text = info::lines(
                        it,
                        style,
                        elapsed.as_millis() as u64,
                        nodes,
                        shared.tt.hashfull(),
                    );
                    let written = Instant::now();
                    output.write(text.as_bytes());
                    writing += written.elapsed();
                    reported = nodes;
                },
                |text| {
                    output.write(format!("info string {text}\n").as_bytes());
                },
            );
            let thought = Instant::now();
            // A search stopped inside an iteration searched more than its
            // last line says: the last line again with every node and the
            // whole time, as referees take a move's nodes and depth from
            // the last line before `bestmove`.
            let answer = &run.answer;
            if let Some(last) = answer.last.as_ref().filter(|_| answer.nodes > reported) {
                let text = info::lines(
                    last,
                    style,
                    answer.elapsed.as_millis() as u64,
                    answer.nodes,
                    shared.tt.hashfull(),
                );
                output.write(text.as_bytes());
            }
            if run.reused > 0 {
                let kept = format!(
                    "info string the search started from the last tree's {} playouts under this position\n",
                    run.reused
                );
                output.write(kept.as_bytes());
            }
            if run.tree_full {
                let full = format!("info string {}\n", algorithm::tree_full(setup.tree_mb));
                output.write(full.as_bytes());
            }
            let answer = run.answer;
            let best = answer.best.unwrap_or(fallback);
            let line = match answer.ponder.filter(|_| answer.best.is_some()) {
                Some(p) => format!("bestmove {best} ponder {p}\n"),
                None => format!("bestmove {best}\n"),
            };
            output.write(line.as_bytes());
            if let Some((log, read, replayed)) = stamps {
                let inside = answer.setup.unwrap_or(Duration::ZERO);
                log.push(MoveTimes {
                    replay: replayed - read,
                    setup: thinking - replayed + inside,
                    search_setup: inside,
                    handoff: thinking - handed,
                    search: (thought - thinking).saturating_sub(inside + writing),
                    output: thought.elapsed() + writing,
                    nodes: answer.nodes,
                    depth: answer.last.as_ref().map_or(0, |it| it.depth),
                });
            }
            memory
        });
        let pending = Searcher::run(&mut self.searcher, job);
        self.running = Some(Running::Search { pending });
    }
}
