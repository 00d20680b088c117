//! A PVS thread's state, its root search (iterations, aspiration windows,
//! `MultiPV` lines) and the helpers every node uses: the evaluation with
//! its cache, draws, move picking, and make/unmake with the net's
//! accumulators.

use super::movepick::{MovePicker, Node, Scored};
use super::order::{Order, MAX_PLY};
use super::split_points::{SplitPoint, Splits};
use super::INF;
use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::accumulator::{Accumulator, Before, Stack};
use crate::rules::board::{Board, Undo};
use crate::rules::game::DrawRules;
use crate::rules::movegen::generate;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;
use crate::search::report::{Iteration, Line};
use crate::search::root::Root;
use crate::search::shared::Shared;
use crate::search::time::Plan;
use crate::search::trail::Trail;
use crate::search::{Params, MATE_BOUND};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Entries of a thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 15;

/// Nodes between a helper's additions to the shared node count: one
/// contended write each.
pub(super) const COUNT_EVERY: u64 = 1024;

/// Nodes between the main thread's looks at the clock and the node limit:
/// 64 nodes take about 20 µs in the release build, but 6 ms in the dev
/// build with `check_rep` on, where 1024 overran a 67 ms clock.
const CHECK_EVERY: u64 = 64;

/// A search thread's state.
pub struct Worker<'a> {
    pub(super) board: Board,
    /// The positions before the board's, for the draw and Ko rules.
    pub(super) trail: Trail,
    pub(super) root_side: Color,
    /// The side whose draws score the `draw` option (the other side's
    /// score its negation): the root's, or the best-first search's root's.
    pub(super) draw_side: Color,
    pub(super) searchmoves: Vec<Move>,
    /// The root moves the line being searched may pick: `searchmoves` for
    /// the first line; for line k, those not in lines 1..k.
    pub(super) root_only: Vec<Move>,
    /// The lines to find (`MultiPV`; 1 on helper threads).
    pub(super) multipv: usize,
    pub(super) params: Params,
    /// The draws inside the tree: a position's second occurrence.
    pub(super) draws: DrawRules,
    pub(super) shared: &'a Shared,
    pub(super) order: &'a mut Order,
    pub(super) plan: Plan,
    pub(super) node_limit: Option<u64>,
    pub(super) nodes: u64,
    /// The node count at which this worker alone stops (`cap_nodes`).
    pub(super) cap: u64,
    /// The iteration being searched.
    pub(super) depth: u32,
    pub(super) seldepth: u32,
    /// The score of the last completed iteration (the aspiration's centre).
    pub(super) last_score: Option<i32>,
    /// With `MultiPV`, the last iteration's lines (line k's aspiration
    /// centre).
    pub(super) last_lines: Vec<Line>,
    pub(super) pv: Vec<Vec<Move>>,
    /// A move list per ply, reused so that no node allocates.
    pub(super) lists: Vec<Vec<Scored>>,
    /// `(key | 1, score)`; 0 marks an empty slot.
    pub(super) eval_cache: Vec<(u64, i32)>,
    /// Only the main thread checks the clock and reports.
    pub(super) main: bool,
    /// Whether this search began pondering and has not yet seen `ponderhit`.
    pub(super) pondered: bool,
    /// The evaluation in use; with the net, its accumulator for each
    /// position from the root to the current one.
    pub(super) evaluator: Evaluator<'a>,
    pub(super) accumulators: Stack,
    /// The split search's split points, with `split_depth` and threads.
    pub(super) splits: Option<&'a Splits>,
    /// The innermost split point the thread works under: a cutoff there
    /// or above it ends the thread's work on it.
    pub(super) split: Option<Arc<SplitPoint>>,
    /// With `check_rep` on: the node count from which the next full scan
    /// of the transposition table is due (`check_iteration`).
    #[cfg(feature = "debug-commands")]
    pub(super) tt_scan_due: u64,
}

impl<'a> Worker<'a> {
    pub fn new(
        root: &Root,
        params: Params,
        shared: &'a Shared,
        order: &'a mut Order,
        plan: Plan,
        node_limit: Option<u64>,
        main: bool,
    ) -> Worker<'a> {
        let evaluator = Evaluator::choose(params.use_nnue, &shared.net, params.weights);
        let mut w = Worker {
            board: root.board.clone(),
            trail: Trail::default(),
            root_side: root.board.side(),
            draw_side: root.board.side(),
            searchmoves: Vec::new(),
            root_only: Vec::new(),
            multipv: if main { params.multipv.max(1) } else { 1 },
            params,
            draws: DrawRules::in_tree(params.no_zap_plies),
            shared,
            order,
            plan,
            node_limit,
            nodes: 0,
            cap: u64::MAX,
            depth: 0,
            seldepth: 0,
            last_score: None,
            last_lines: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
            main,
            pondered: shared.pondering.load(Ordering::Relaxed),
            evaluator,
            accumulators: Stack::new(),
            splits: None,
            split: None,
            #[cfg(feature = "debug-commands")]
            tt_scan_due: 0,
        };
        w.reset(root, root.board.side());
        w
    }

    /// Makes `root` the position to search next, keeping the thread's
    /// tables, caches and node count: the best-first search runs one
    /// worker over many positions. Draws are scored for `draw_side`, the
    /// side to move at the search's own root.
    pub fn reset(&mut self, root: &Root, draw_side: Color) {
        self.board.clone_from(&root.board);
        self.trail.reset(root);
        self.root_side = root.board.side();
        self.draw_side = draw_side;
        self.searchmoves.clone_from(&root.searchmoves);
        self.root_only.clone_from(&root.searchmoves);
        self.depth = 0;
        self.seldepth = 0;
        self.last_score = None;
        self.last_lines.clear();
        self.pv.iter_mut().for_each(Vec::clear);
        self.accumulators.clear();
        if let Some(net) = self.evaluator.net() {
            self.accumulators
                .push(Accumulator::refresh(net, &root.board));
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Stops this worker's next searches, not the others', once they have
    /// searched `budget` more nodes (none: no bound); a capped iteration
    /// is unanswered, as a stopped one.
    pub fn cap_nodes(&mut self, budget: Option<u64>) {
        self.cap = budget.map_or(u64::MAX, |b| self.nodes.saturating_add(b));
    }

    /// Centres the next iteration's aspiration window on `score` (a
    /// shallower search's of the same root).
    pub fn aim(&mut self, score: i32) {
        self.last_score = Some(score);
    }

    /// Whether to stop searching: the search ends, the worker is past its
    /// `cap_nodes`, or a cutoff made the split point the thread works
    /// under useless. Depth 1 stops too: its zap extensions and
    /// quiescence can take tens of thousands of nodes for one root move,
    /// seconds in a dev build with `check_rep` on, so a search stopped
    /// before it scored a move answers with `static_pick` instead.
    pub(super) fn stopped(&self) -> bool {
        self.nodes >= self.cap
            || self.shared.stop.load(Ordering::Relaxed)
            || self.split.as_ref().is_some_and(|sp| sp.aborted())
    }

    /// Every [`COUNT_EVERY`] nodes a helper adds them to the shared count;
    /// every [`CHECK_EVERY`] the main thread checks the limits and sets
    /// the shared stop flag.
    pub(super) fn poll(&mut self) {
        if self.main {
            if self.nodes.is_multiple_of(CHECK_EVERY) {
                self.check_limits();
            }
        } else if self.nodes.is_multiple_of(COUNT_EVERY) {
            self.shared.nodes.fetch_add(COUNT_EVERY, Ordering::Relaxed);
        }
    }

    /// On the main thread: sets the shared stop flag once the clock or the
    /// node limit says so.
    pub(super) fn check_limits(&mut self) {
        if !self.main {
            return;
        }
        let total = self.shared.nodes.load(Ordering::Relaxed) + self.nodes;
        let clock = !self.shared.pondering.load(Ordering::Relaxed);
        if clock && self.pondered {
            // `ponderhit`: the move was played, our clock starts now.
            self.pondered = false;
            self.plan.start = std::time::Instant::now();
        }
        if clock && self.plan.past_hard() || self.node_limit.is_some_and(|n| total >= n) {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Searches `depth` plies from the root; `None` if stopped before the
    /// iteration completed (at depth 1: before any root move was scored).
    /// With `MultiPV` k, the root is searched again for each further line
    /// without the moves of the lines before; a stop keeps the lines
    /// already complete.
    pub fn iterate(&mut self, depth: u32) -> Option<Iteration> {
        self.seldepth = 0;
        self.depth = depth;
        self.root_only.clone_from(&self.searchmoves);
        let score = self.root_search(depth as i32, self.last_score);
        check_rep!(self, self.check_iteration());
        // A stopped iteration is incomplete; depth 1 still counts if it
        // finished at least its first root move.
        if self.stopped() && (depth > 1 || self.pv[0].is_empty()) {
            return None;
        }
        self.last_score = Some(score);
        let mut lines = vec![Line {
            score,
            pv: self.pv[0].clone(),
            visits: None,
        }];
        if self.multipv > 1 {
            self.more_lines(depth, &mut lines);
        }
        Some(Iteration {
            depth,
            seldepth: self.seldepth,
            score: lines[0].score,
            nodes: self.nodes,
            pv: lines[0].pv.clone(),
            lines,
        })
    }

    /// Lines 2..=`multipv` of this iteration after the first, best first.
    fn more_lines(&mut self, depth: u32, lines: &mut Vec<Line>) {
        let candidates: Vec<Move> = if self.searchmoves.is_empty() {
            let mut list = MoveList::new();
            generate(&self.board, &mut list);
            list.iter().collect()
        } else {
            self.searchmoves.clone()
        };
        while lines.len() < self.multipv {
            let taken: Vec<Move> = lines.iter().filter_map(|l| l.pv.first().copied()).collect();
            self.root_only = candidates
                .iter()
                .copied()
                .filter(|m| !taken.contains(m))
                .collect();
            if self.root_only.is_empty() {
                break;
            }
            let centre = self.last_lines.get(lines.len()).map(|l| l.score);
            let score = self.root_search(depth as i32, centre);
            // A stopped line is incomplete; an empty one had no move the
            // Ko rule allows.
            if self.stopped() || self.pv[0].is_empty() {
                break;
            }
            lines.push(Line {
                score,
                pv: self.pv[0].clone(),
                visits: None,
            });
        }
        // A later line can score above an earlier one when the table
        // changed in between: the best first, ties in search order.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        self.last_lines.clone_from(lines);
    }

    /// The root's search: full width, or with `aspiration` set, from depth
    /// 4 and away from mate scores, first within ± that many cp of
    /// `centre` (the last iteration's score); a bound that fails is
    /// widened, doubling, until the score falls inside (past 1000 cp the
    /// side opens completely).
    fn root_search(&mut self, depth: i32, centre: Option<i32>) -> i32 {
        let w = self.params.aspiration;
        let centre = centre.filter(|s| w > 0 && depth >= 4 && s.abs() < MATE_BOUND);
        let Some(centre) = centre else {
            return self.pvs(-INF, INF, depth, 0);
        };
        let bound = |width: i32, sign: i32| {
            if width > 1000 {
                sign * INF
            } else {
                centre + sign * width
            }
        };
        let (mut below, mut above) = (w, w);
        loop {
            let (alpha, beta) = (bound(below, -1), bound(above, 1));
            let score = self.pvs(alpha, beta, depth, 0);
            if self.stopped() {
                return score;
            }
            if score <= alpha && alpha > -INF {
                below *= 2;
            } else if score >= beta && beta < INF {
                above *= 2;
            } else {
                return score;
            }
        }
    }

    /// The score of a draw for the side to move.
    pub(super) fn draw_score(&self) -> i32 {
        if self.board.side() == self.draw_side {
            self.params.draw
        } else {
            -self.params.draw
        }
    }

    /// The static score of the position for the side to move, from a
    /// small per-thread cache keyed by the position's key: searches meet
    /// the same positions again and again, and the evaluation is the
    /// costliest part of a node.
    pub(super) fn static_eval(&mut self) -> i32 {
        // Keys in one slot share their low bits, bit 0 included, so setting
        // bit 0 keeps them apart and never matches an empty slot.
        let slot = (self.board.key() as usize) & (EVAL_CACHE - 1);
        let key = self.board.key() | 1;
        if self.eval_cache[slot].0 == key {
            return self.eval_cache[slot].1;
        }
        let acc = self.accumulators.last();
        let score = self.evaluator.score_cp(&self.board, acc) + self.params.hmb;
        self.eval_cache[slot] = (key, score);
        score
    }

    /// Whether the current position is a draw by the tree's rules: it
    /// repeats an earlier one, or the no-zap rule has drawn the game.
    pub(super) fn is_draw(&self) -> bool {
        let (key, clock) = (self.board.key(), self.trail.zap_clock());
        self.draws.draw(key, self.trail.keys(), clock).is_some()
    }

    /// The picker of the current position's moves at `ply` (all of them,
    /// or with `zaps_only` those that zap an enemy piece), in this ply's
    /// list.
    pub(super) fn picker(
        &mut self,
        ply: usize,
        tt_move: Option<Move>,
        zaps_only: bool,
    ) -> MovePicker {
        let node = Node {
            board: &mut self.board,
            history: self.trail.keys(),
            last: self.trail.last_move(),
            order: self.order,
            ply,
            tt_move,
            only: if ply == 0 { &self.root_only } else { &[] },
            zaps_only,
            check_rep: self.params.check_rep,
        };
        MovePicker::new(std::mem::take(&mut self.lists[ply]), node)
    }

    /// Plays a picked move (its shot's victim known) onto the board and the
    /// stacks; the undo says what it zapped.
    pub(super) fn play(&mut self, s: &Scored) -> Undo {
        let key = self.board.key();
        let before = self
            .evaluator
            .net()
            .map(|_| Before::of(&self.board, s.touched));
        let undo = self.board.make_with(s.mv, |_| s.victim);
        self.shared.tt.prefetch(self.board.key());
        if let (Some(net), Some(before)) = (self.evaluator.net(), before) {
            self.accumulators
                .push_child(net, &self.board, &before, &undo);
        }
        self.trail.push(key, s.touched, undo.zapped.is_some());
        check_rep!(self, self.check_made(undo.king_zapped()));
        undo
    }

    pub(super) fn unplay(&mut self, s: &Scored, undo: Undo) {
        self.board.unmake(s.mv, undo);
        if self.evaluator.net().is_some() {
            self.accumulators.pop();
        }
        self.trail.pop();
        check_rep!(self, self.check_made(false));
    }
}
