//! The search: a thread's principal variation search (PVS) with
//! null-window scouts, a quiescence search over zapping moves, late-move
//! reductions, futility and margin pruning, and a one-ply extension for
//! moves that zap an enemy piece. Scores are centipawns from the side to
//! move's view; a King zap at ply `p` is worth `±(MATE − p)`. Inside the
//! tree a position's second occurrence is a draw (`DrawRules::in_tree`).
//!
//! Around it: `think` (one `go`: iterative deepening, Lazy SMP threads, the
//! answer), `movepick` (a node's moves in order) with its killer and
//! history tables (`order`), the shared k-way transposition table (`tt`),
//! the time plan (`time`), the parameters (`params`), the `bench` workload,
//! and the thread's `check_rep` invariants (`check`).

pub mod bench;
mod check;
pub mod movepick;
pub mod order;
pub mod params;
pub mod think;
pub mod time;
pub mod tt;

use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::accumulator::{Accumulator, Before};
use crate::rules::board::{Board, Undo};
use crate::rules::game::DrawRules;
use crate::rules::movegen::generate;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;
use crate::rules::repetition::LastMove;
use movepick::{MovePicker, Node, Scored, Stage};
use order::{Order, MAX_PLY};
pub use params::Params;
use std::sync::atomic::Ordering;
pub use think::{Iteration, Line, Root, Shared};
use time::Plan;
use tt::{from_tt, to_tt, Bound, Entry};

pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
const INF: i32 = MATE + 1;

/// Entries of a thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 15;

/// Futility and margin pruning margins by remaining depth, in cp.
const MARGIN: [i32; 4] = [0, 50, 100, 250];

/// A search thread's state.
pub struct Worker<'a> {
    board: Board,
    /// Keys of every position before the current one, game and path.
    keys: Vec<u64>,
    /// Plies since the last zap, for each position on `keys` and the current.
    zap_clock: Vec<u32>,
    /// The squares each move since the root changed, and the game's last
    /// move's before it (the Ko rule looks one move back).
    touched: Vec<u64>,
    root_side: Color,
    searchmoves: Vec<Move>,
    /// The root moves the line being searched may pick: `searchmoves` for
    /// the first line; for line k, those not in lines 1..k.
    root_only: Vec<Move>,
    /// The lines to find (`MultiPV`; 1 on helper threads).
    multipv: usize,
    params: Params,
    /// The draws inside the tree: a position's second occurrence.
    draws: DrawRules,
    shared: &'a Shared,
    order: &'a mut Order,
    plan: Plan,
    node_limit: Option<u64>,
    nodes: u64,
    /// The iteration being searched.
    depth: u32,
    seldepth: u32,
    /// The score of the last completed iteration (the aspiration's centre).
    last_score: Option<i32>,
    /// With `MultiPV`, the last iteration's lines (line k's aspiration
    /// centre).
    last_lines: Vec<Line>,
    pv: Vec<Vec<Move>>,
    /// A move list per ply, reused so that no node allocates.
    lists: Vec<Vec<Scored>>,
    /// `(key | 1, score)`; 0 marks an empty slot.
    eval_cache: Vec<(u64, i32)>,
    rng: fastrand::Rng,
    /// Only the main thread checks the clock and reports.
    main: bool,
    /// Whether this search began pondering and has not yet seen `ponderhit`.
    pondered: bool,
    /// The lengths of `keys` and `touched` at the root (for `check_rep`).
    root_len: (usize, usize),
    /// The evaluation in use; with the net, its accumulator for each
    /// position from the root to the current one.
    evaluator: Evaluator<'a>,
    accumulators: Vec<Accumulator>,
}

/// Runs the statements only while the `check_rep` option is on, and only in
/// builds with the `debug-commands` feature: without it they do not exist,
/// and with it the cost when off is one predictable branch.
macro_rules! check_rep {
    ($self:ident, $($body:tt)*) => {
        #[cfg(feature = "debug-commands")]
        {
            if $self.params.check_rep {
                $($body)*
            }
        }
    };
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
        let mut zap_clock = vec![0; root.history.len()];
        zap_clock.push(root.plies_since_zap);
        let touched: Vec<u64> = root.last_move.map(|m| m.touched()).into_iter().collect();
        let evaluator = Evaluator::choose(params.use_nnue, &shared.net, params.weights);
        let net = evaluator.net();
        let mut accumulators = Vec::with_capacity(if net.is_some() { MAX_PLY + 2 } else { 0 });
        accumulators.extend(net.map(|n| Accumulator::refresh(n, &root.board)));
        Worker {
            root_len: (root.history.len(), touched.len()),
            board: root.board.clone(),
            keys: root.history.clone(),
            zap_clock,
            touched,
            root_side: root.board.side(),
            searchmoves: root.searchmoves.clone(),
            root_only: root.searchmoves.clone(),
            multipv: if main { params.multipv.max(1) } else { 1 },
            params,
            draws: DrawRules::in_tree(params.no_zap_plies),
            shared,
            order,
            plan,
            node_limit,
            nodes: 0,
            depth: 0,
            seldepth: 0,
            last_score: None,
            last_lines: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
            rng: fastrand::Rng::with_seed(params.seed),
            main,
            pondered: shared.pondering.load(Ordering::Relaxed),
            evaluator,
            accumulators,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether to stop searching. The main thread finishes the first root
    /// move of depth 1 whatever happens, so that every answer is a searched
    /// move, never a blind pick (with at most 8 pieces a side that move's
    /// subtree is small).
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
            && !(self.main && self.depth == 1 && self.pv[0].is_empty())
    }

    /// Every 1024 nodes: a helper adds them to the shared count; the main
    /// thread checks the limits and sets the shared stop flag.
    fn poll(&mut self) {
        if !self.nodes.is_multiple_of(1024) {
            return;
        }
        if !self.main {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
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
    fn draw_score(&self) -> i32 {
        if self.board.side() == self.root_side {
            self.params.draw
        } else {
            -self.params.draw
        }
    }

    /// The static score of the position for the side to move, from a
    /// small per-thread cache keyed by the position's key: searches meet
    /// the same positions again and again, and the evaluation is the
    /// costliest part of a node.
    fn static_eval(&mut self) -> i32 {
        // Keys in one slot share their low bits, bit 0 included, so setting
        // bit 0 keeps them apart and never matches an empty slot.
        let slot = (self.board.key() as usize) & (EVAL_CACHE - 1);
        let key = self.board.key() | 1;
        if self.eval_cache[slot].0 == key {
            return self.eval_cache[slot].1;
        }
        let r = self.params.randomize;
        let noise = if r > 0 { self.rng.i32(-r..=r) } else { 0 };
        let acc = self.accumulators.last();
        let score = self.evaluator.score_cp(&self.board, acc, noise) + self.params.hmb;
        self.eval_cache[slot] = (key, score);
        score
    }

    /// Whether the current position is a draw by the tree's rules: it
    /// repeats an earlier one, or the no-zap rule has drawn the game.
    fn is_draw(&self) -> bool {
        let clock = *self.zap_clock.last().expect("the root's clock");
        let key = self.board.key();
        self.draws.draw(key, &self.keys, clock).is_some()
    }

    /// The picker of the current position's moves at `ply` (all of them,
    /// or with `zaps_only` those that zap an enemy piece), in this ply's
    /// list.
    fn picker(&mut self, ply: usize, tt_move: Option<Move>, zaps_only: bool) -> MovePicker {
        let clock = *self.zap_clock.last().expect("the root's clock");
        let last = self.touched.last().map(|&touched| LastMove {
            touched,
            zapped: clock == 0,
        });
        let node = Node {
            board: &mut self.board,
            history: &self.keys,
            last,
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
    fn play(&mut self, s: &Scored) -> Undo {
        self.keys.push(self.board.key());
        self.touched.push(s.touched);
        let clock = *self.zap_clock.last().expect("clock");
        let before = self
            .evaluator
            .net()
            .map(|_| Before::of(&self.board, s.touched));
        let undo = self.board.make_with(s.mv, |_| s.victim);
        if let (Some(net), Some(before)) = (self.evaluator.net(), before) {
            let mut acc = self
                .accumulators
                .last()
                .expect("the root's accumulator")
                .clone();
            acc.update(net, &self.board, &before, &undo);
            self.accumulators.push(acc);
        }
        self.zap_clock
            .push(if undo.zapped.is_some() { 0 } else { clock + 1 });
        check_rep!(self, self.check_made(undo.king_zapped()));
        undo
    }

    fn unplay(&mut self, s: &Scored, undo: Undo) {
        self.board.unmake(s.mv, undo);
        if self.evaluator.net().is_some() {
            self.accumulators.pop();
        }
        self.keys.pop();
        self.touched.pop();
        self.zap_clock.pop();
        check_rep!(self, self.check_made(false));
    }

    /// The score of a move that zapped a King, from the mover's view.
    fn king_zap_score(&self, undo: &Undo, mover: Color, ply: usize) -> Option<i32> {
        let (_, p) = undo.zapped.filter(|(_, p)| p.is_king())?;
        let at = (ply + 1) as i32;
        Some(if p.color() == mover {
            -(MATE - at)
        } else {
            MATE - at
        })
    }

    /// The score of the current position, `ply` plies from the root,
    /// searched `depth` plies deep within (`alpha`, `beta`); its line in
    /// `pv[ply]`.
    fn pvs(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if ply > 0 && self.is_draw() {
            return self.draw_score();
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(alpha, beta, ply);
        }
        self.nodes += 1;
        check_rep!(self, self.check_node(ply, MAX_PLY - 1));
        self.poll();
        if ply > 0 && self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let pv_node = beta - alpha > 1;
        let key = self.board.key();
        let entry = self.shared.tt.probe(key);
        check_rep!(self, {
            if let Some(e) = &entry {
                crate::check_rep::check(e);
            }
        });
        if let Some(e) = entry.filter(|e| !pv_node && ply > 0 && e.depth as i32 >= depth) {
            let score = from_tt(e.score as i32, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        // The static score only serves the shallow pruning below: the
        // evaluation is most of a node's cost, so skip it elsewhere.
        let shallow = !pv_node && ply > 0 && depth <= self.params.fut_depth.max(2);
        let stand = if shallow { self.static_eval() } else { 0 };
        if shallow && self.params.use_nmm && depth <= 2 && stand - MARGIN[depth as usize] >= beta {
            return stand - MARGIN[depth as usize];
        }
        if self.null_move_cuts(beta, depth, ply, pv_node) {
            return beta;
        }
        let futile = shallow
            && depth <= self.params.fut_depth
            && stand + MARGIN[depth.clamp(0, 3) as usize] <= alpha;

        let mut moves = self.picker(ply, entry.and_then(|e| e.mv), false);
        let score = self.search_moves(&mut moves, alpha, beta, depth, ply, stand, futile);
        self.lists[ply] = moves.into_list();
        score
    }

    /// Null-move pruning (`null_r`): whether passing, then searching the
    /// other side's replies `null_r` plies shallower, still fails high. Not
    /// at PV nodes, near mate scores, right after a pass, or when the
    /// static score is below beta; passing gives up the mover's shot, so it
    /// is a pessimistic bound in all but rare zugzwangs.
    fn null_move_cuts(&mut self, beta: i32, depth: i32, ply: usize, pv_node: bool) -> bool {
        let r = self.params.null_r;
        let after_pass = self.touched.last() == Some(&0);
        if r == 0 || pv_node || ply == 0 || depth < 3 || after_pass || beta.abs() >= MATE_BOUND {
            return false;
        }
        if self.static_eval() < beta {
            return false;
        }
        let clock = *self.zap_clock.last().expect("clock");
        self.keys.push(self.board.key());
        self.touched.push(0);
        self.zap_clock.push(clock + 1);
        self.board.pass();
        let score = -self.pvs(-beta, -beta + 1, depth - 1 - r, ply + 1);
        self.board.pass();
        self.keys.pop();
        self.touched.pop();
        self.zap_clock.pop();
        !self.stopped() && score >= beta
    }

    /// The move loop of `pvs`.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        moves: &mut MovePicker,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        stand: i32,
        futile: bool,
    ) -> i32 {
        let key = self.board.key();
        let side = self.board.side();
        let mut best = -INF;
        let mut best_move = None;
        let alpha0 = alpha;
        for i in 0.. {
            let Some(s) = moves.next() else { break };
            let quiet = s.stage.is_quiet();
            if futile && quiet && i > 0 {
                // The picker hands out the TT move and every enemy-zapping
                // move before all quiet ones, so the rest are quiet too and
                // would each be skipped the same way: stop picking.
                debug_assert!(moves.rest().iter().all(|m| m.stage.is_quiet()));
                best = best.max(stand + MARGIN[depth.clamp(0, 3) as usize]);
                break;
            }
            let undo = self.play(&s);
            let score = if let Some(z) = self.king_zap_score(&undo, side, ply) {
                // The game ends here: no line continues it.
                self.pv[ply + 1].clear();
                z
            } else {
                let ext = i32::from(s.zaps_enemy && ply < 2 * depth as usize + 4);
                let killer = s.stage == Stage::Killer;
                let reduce = if depth >= 3 && quiet && !killer && !s.zaps_own {
                    (i >= self.params.lmr_r1) as i32 + (i >= self.params.lmr_r2) as i32
                } else {
                    0
                };
                let d = depth - 1 + ext;
                if i == 0 {
                    -self.pvs(-beta, -alpha, d, ply + 1)
                } else {
                    let mut sc = -self.pvs(-alpha - 1, -alpha, d - reduce, ply + 1);
                    if sc > alpha && reduce > 0 {
                        sc = -self.pvs(-alpha - 1, -alpha, d, ply + 1);
                    }
                    if sc > alpha && sc < beta {
                        sc = -self.pvs(-beta, -alpha, d, ply + 1);
                    }
                    sc
                }
            };
            self.unplay(&s, undo);
            if self.stopped() {
                if ply > 0 {
                    return 0;
                }
                break;
            }
            if score > best {
                best = score;
                best_move = Some(s.mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(s.mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            self.order.cutoff(side, s.mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        if moves.is_empty() {
            return self.draw_score();
        }
        if !(ply == 0 && self.stopped()) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let e = Entry {
                mv: best_move,
                score: to_tt(best, ply) as i16,
                depth: depth.min(127) as i8,
                bound,
                age: 0,
            };
            check_rep!(self, crate::check_rep::check(&e));
            self.shared.tt.store(key, e);
            check_rep!(self, {
                crate::check_rep::report("tt", self.shared.tt.check_bucket(key));
            });
        }
        best
    }

    /// Quiescence: stand pat, or zap an enemy piece.
    fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        check_rep!(self, self.check_node(ply, MAX_PLY));
        self.poll();
        self.seldepth = self.seldepth.max(ply as u32);
        let stand = self.static_eval();
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        let mut moves = self.picker(ply, None, true);
        let score = self.quiesce_moves(&mut moves, alpha.max(stand), beta, stand, ply);
        self.lists[ply] = moves.into_list();
        score
    }

    /// The move loop of `quiesce`.
    fn quiesce_moves(
        &mut self,
        moves: &mut MovePicker,
        mut alpha: i32,
        beta: i32,
        stand: i32,
        ply: usize,
    ) -> i32 {
        let side = self.board.side();
        let mut best = stand;
        for s in moves {
            let undo = self.play(&s);
            let score = match self.king_zap_score(&undo, side, ply) {
                Some(z) => z,
                None => -self.quiesce(-beta, -alpha, ply + 1),
            };
            self.unplay(&s, undo);
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// `score cp x` or `score mate k` (moves; negative when losing).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}
