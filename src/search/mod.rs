//! The search: iterative deepening over a principal variation search (PVS)
//! with null-window scouts, a quiescence search over zapping moves, a
//! shared k-way transposition table, killer and history move ordering,
//! late-move reductions, futility and margin pruning, and a one-ply
//! extension for moves that zap an enemy piece. Scores are centipawns from
//! the side to move's view; a King zap at ply `p` is worth `±(MATE − p)`.

pub mod bench;
pub mod order;
pub mod params;
pub mod think;
pub mod time;
pub mod tt;

use crate::eval::evaluate;
use crate::rules::board::Board;
use crate::rules::laser::Shots;
use crate::rules::movegen::for_each_move;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use order::{Order, MAX_PLY};
pub use params::Params;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use time::Plan;
use tt::{Bound, Entry, Table};

pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
const INF: i32 = MATE + 1;

/// Entries of a thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 15;

/// Futility and margin pruning margins by remaining depth, in cp.
const MARGIN: [i32; 4] = [0, 50, 100, 250];

/// What the threads of one search share.
pub struct Shared {
    pub tt: Table,
    /// Set to end the search (by `stop`, or by the main thread's limits).
    pub stop: AtomicBool,
    /// While set, the clock does not run (`go ponder` until `ponderhit`).
    pub pondering: AtomicBool,
    /// The helper threads' nodes.
    pub nodes: AtomicU64,
}

impl Shared {
    /// Idle search state with a table of `hash_mb` MB in `ways`-way buckets.
    pub fn new(hash_mb: usize, ways: usize) -> Shared {
        Shared {
            tt: Table::new(hash_mb, ways),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

/// The position to search: the board and the keys of the game's earlier
/// positions (for repetitions and the Ko rule).
#[derive(Clone)]
pub struct Root {
    pub board: Board,
    pub history: Vec<u64>,
    pub plies_since_zap: u32,
    /// The move that led to `board`, if the game has one.
    pub last_move: Option<Move>,
    /// The root moves to search (`go searchmoves`); empty: all.
    pub searchmoves: Vec<Move>,
}

impl Root {
    /// `board` with no game before it.
    pub fn new(board: Board) -> Root {
        Root {
            board,
            history: Vec::new(),
            plies_since_zap: 0,
            last_move: None,
            searchmoves: Vec::new(),
        }
    }

    pub fn from_game(g: &crate::rules::game::Game) -> Root {
        Root {
            board: g.board().clone(),
            history: g.history().to_vec(),
            plies_since_zap: g.plies_since_zap(),
            last_move: g.moves().last().copied(),
            searchmoves: Vec::new(),
        }
    }
}

/// One completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

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
    params: Params,
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
    #[cfg(feature = "debug-commands")]
    root_len: (usize, usize),
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

/// A generated move with what it zaps.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    touched: u64,
    victim: Option<crate::rules::square::Square>,
    zaps_enemy: bool,
    zaps_own: bool,
    key: i64,
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
        Worker {
            #[cfg(feature = "debug-commands")]
            root_len: (root.history.len(), touched.len()),
            board: root.board.clone(),
            keys: root.history.clone(),
            zap_clock,
            touched,
            root_side: root.board.side(),
            searchmoves: root.searchmoves.clone(),
            params,
            shared,
            order,
            plan,
            node_limit,
            nodes: 0,
            depth: 0,
            seldepth: 0,
            last_score: None,
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
            rng: fastrand::Rng::with_seed(params.seed),
            main,
            pondered: shared.pondering.load(Ordering::Relaxed),
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the clock says not to start another iteration.
    pub fn past_soft(&self) -> bool {
        !self.pondered && !self.shared.pondering.load(Ordering::Relaxed) && self.plan.past_soft()
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
    pub fn iterate(&mut self, depth: u32) -> Option<Iteration> {
        self.seldepth = 0;
        self.depth = depth;
        let score = self.root_search(depth as i32);
        check_rep!(self, self.check_iteration());
        // A stopped iteration is incomplete; depth 1 still counts if it
        // finished at least its first root move.
        if self.stopped() && (depth > 1 || self.pv[0].is_empty()) {
            return None;
        }
        self.last_score = Some(score);
        Some(Iteration {
            depth,
            seldepth: self.seldepth,
            score,
            nodes: self.nodes,
            pv: self.pv[0].clone(),
        })
    }

    /// The root's search: full width, or with `aspiration` set, from depth
    /// 4 and away from mate scores, first within ± that many cp of the last
    /// iteration's score; a bound that fails is widened, doubling, until
    /// the score falls inside (past 1000 cp the side opens completely).
    fn root_search(&mut self, depth: i32) -> i32 {
        let w = self.params.aspiration;
        let centre = self
            .last_score
            .filter(|s| w > 0 && depth >= 4 && s.abs() < MATE_BOUND);
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
        let score = evaluate(&self.board, &self.params.weights).score_cp(noise) + self.params.hmb;
        self.eval_cache[slot] = (key, score);
        score
    }

    /// Whether the current position repeats one since the last zap, or the
    /// no-zap rule has drawn the game.
    fn is_draw(&self) -> bool {
        let clock = *self.zap_clock.last().expect("the root's clock");
        let limit = self.params.no_zap_plies;
        if limit > 0 && clock >= limit {
            return true;
        }
        let key = self.board.key();
        let since = self.keys.len().saturating_sub(clock as usize);
        self.keys[since..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    /// The moves of the current position, Ko respected, with what they zap
    /// and their ordering keys, into `out` (emptied first); with
    /// `zaps_only`, just the moves that zap an enemy piece (they change the
    /// material, so the Ko rule can not forbid them).
    fn moves_into(
        &mut self,
        out: &mut Vec<Scored>,
        tt_move: Option<Move>,
        ply: usize,
        zaps_only: bool,
    ) {
        out.clear();
        let side = self.board.side();
        let shots = Shots::new(&self.board);
        let killers = self.order.killers(ply);
        let (own, enemy) = (self.board.pieces(side), self.board.pieces(side.opp()));
        // Only the root filters; an empty list allocates nothing.
        let only = if ply == 0 {
            self.searchmoves.clone()
        } else {
            Vec::new()
        };
        for_each_move(own, enemy, |m, fp| {
            if !only.is_empty() && !only.contains(&m) {
                return;
            }
            let victim = shots.victim(&self.board, m, fp.touched);
            let owner = victim.map(|(_, p)| p.color());
            let zaps_enemy = owner == Some(side.opp());
            if zaps_only && !zaps_enemy {
                return;
            }
            let zaps_own = owner == Some(side);
            if victim.is_none() && self.breaks_ko(m, fp.touched) {
                return;
            }
            let king = victim.is_some_and(|(_, p)| p.is_king());
            let key = if Some(m) == tt_move {
                1 << 40
            } else if zaps_enemy {
                (1 << 36) + if king { 1 << 35 } else { 0 }
            } else if zaps_own {
                -(1 << 36) - if king { 1 << 35 } else { 0 }
            } else if killers[0] == Some(m) {
                1 << 32
            } else if killers[1] == Some(m) {
                (1 << 32) - 1
            } else {
                self.order.history(side, m) as i64
            };
            out.push(Scored {
                mv: m,
                touched: fp.touched,
                victim: victim.map(|v| v.0),
                zaps_enemy,
                zaps_own,
                key,
            });
        });
    }

    /// RULES.md's Ko rule for a move that zaps nothing: the position after
    /// it may not be the one before the opponent's last move. That needs
    /// the same pieces, so no zap in the opponent's move, and the move must
    /// change back exactly the squares the opponent's changed; only then
    /// are the keys compared. (A move always changes the board, so the
    /// "board unchanged" case never arises.)
    fn breaks_ko(&mut self, m: Move, touched: u64) -> bool {
        let (Some(&last), Some(&before_opp)) = (self.touched.last(), self.keys.last()) else {
            return false;
        };
        if last != touched || *self.zap_clock.last().expect("clock") == 0 {
            return false;
        }
        let undo = self.board.make_with(m, |_| None);
        check_rep!(self, crate::check::check(&self.board));
        let after = self.board.key();
        self.board.unmake(m, undo);
        check_rep!(self, crate::check::check(&self.board));
        after == before_opp
    }

    /// Plays a scored move; returns whether it zapped a King, and whose.
    fn play(&mut self, s: &Scored) -> crate::rules::board::Undo {
        self.keys.push(self.board.key());
        self.touched.push(s.touched);
        let clock = *self.zap_clock.last().expect("clock");
        let undo = self.board.make_with(s.mv, |_| s.victim);
        self.zap_clock
            .push(if undo.zapped.is_some() { 0 } else { clock + 1 });
        check_rep!(self, self.check_made(undo.king_zapped()));
        undo
    }

    fn unplay(&mut self, s: &Scored, undo: crate::rules::board::Undo) {
        self.board.unmake(s.mv, undo);
        self.keys.pop();
        self.touched.pop();
        self.zap_clock.pop();
        check_rep!(self, self.check_made(false));
    }

    /// The score of a move that zapped a King, from the mover's view.
    fn king_zap_score(
        &self,
        undo: &crate::rules::board::Undo,
        mover: Color,
        ply: usize,
    ) -> Option<i32> {
        let (_, p) = undo.zapped.filter(|(_, p)| p.is_king())?;
        let at = (ply + 1) as i32;
        Some(if p.color() == mover {
            -(MATE - at)
        } else {
            MATE - at
        })
    }

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
                crate::check::check(e);
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
        let futile = shallow
            && depth <= self.params.fut_depth
            && stand + MARGIN[depth.clamp(0, 3) as usize] <= alpha;

        let mut moves = std::mem::take(&mut self.lists[ply]);
        self.moves_into(&mut moves, entry.and_then(|e| e.mv), ply, false);
        let score = self.search_moves(&mut moves, alpha, beta, depth, ply, entry, stand, futile);
        self.lists[ply] = moves;
        score
    }

    /// The move loop of `pvs`.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        moves: &mut [Scored],
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        entry: Option<Entry>,
        stand: i32,
        futile: bool,
    ) -> i32 {
        let key = self.board.key();
        let side = self.board.side();
        let mut best = -INF;
        let mut best_move = None;
        let alpha0 = alpha;
        for i in 0..moves.len() {
            pick(moves, i);
            let s = moves[i];
            let quiet = !s.zaps_enemy && Some(s.mv) != entry.and_then(|e| e.mv);
            if futile && quiet && i > 0 {
                // The keys order the TT move and every enemy-zapping move
                // before all quiet ones, so the rest are quiet too and
                // would each be skipped the same way: stop picking.
                debug_assert!(moves[i..]
                    .iter()
                    .all(|m| !m.zaps_enemy && Some(m.mv) != entry.and_then(|e| e.mv)));
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
                let killer = self.order.killers(ply).contains(&Some(s.mv));
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
            check_rep!(self, crate::check::check(&e));
            self.shared.tt.store(key, e);
            check_rep!(self, {
                crate::check::report("tt", self.shared.tt.check_bucket(key));
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
        let mut moves = std::mem::take(&mut self.lists[ply]);
        self.moves_into(&mut moves, None, ply, true);
        let score = self.quiesce_moves(&mut moves, alpha.max(stand), beta, stand, ply);
        self.lists[ply] = moves;
        score
    }

    /// The move loop of `quiesce`.
    fn quiesce_moves(
        &mut self,
        moves: &mut [Scored],
        mut alpha: i32,
        beta: i32,
        stand: i32,
        ply: usize,
    ) -> i32 {
        let side = self.board.side();
        let mut best = stand;
        for i in 0..moves.len() {
            pick(moves, i);
            let s = moves[i];
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

/// The `check_rep` invariants of a search thread and the calls that check
/// every structure the search touches.
#[cfg(feature = "debug-commands")]
impl Worker<'_> {
    /// Plies from the root to the current position, by the key stack.
    fn path_len(&self) -> usize {
        self.keys.len().wrapping_sub(self.root_len.0)
    }

    /// After a make (`king_zapped`: it zapped a King) or an unmake: the
    /// board and the stacks.
    fn check_made(&self, king_zapped: bool) {
        crate::check::report("board", self.board.check_rep_with(king_zapped));
        crate::check::check(self);
    }

    /// At a node at `ply`, which may be at most `max_ply`: the board, the
    /// stacks, this ply's killers and the table bucket the node probes.
    fn check_node(&self, ply: usize, max_ply: usize) {
        use crate::check::{check, report};
        check(&self.board);
        check(self);
        report("search stack", self.check_ply(ply, max_ply));
        if ply < MAX_PLY {
            report("order", self.order.check_ply(ply));
        }
        report("tt", self.shared.tt.check_bucket(self.board.key()));
    }

    /// A node's `ply` is its distance from the root, at most `max_ply`.
    fn check_ply(&self, ply: usize, max_ply: usize) -> Result<(), String> {
        crate::check::ensure(ply == self.path_len() && ply <= max_ply, || {
            format!(
                "node at ply {ply} (at most {max_ply}), {} moves from the root",
                self.path_len()
            )
        })
    }

    /// At the end of an iteration: back at the root, and full scans of the
    /// move-ordering tables and (main thread) the transposition table.
    fn check_iteration(&self) {
        self.check_node(0, 0);
        crate::check::check(&*self.order);
        if self.main {
            crate::check::check(&self.shared.tt);
        }
    }
}

#[cfg(feature = "debug-commands")]
impl crate::check::CheckRep for Worker<'_> {
    const NAME: &'static str = "search stack";

    /// The stacks have the lengths the path from the root gives them, the
    /// path is shorter than `MAX_PLY` + 1, each zap clock is the one before
    /// plus one or zero, the side to move alternates, the per-ply vectors
    /// are all there.
    fn check_rep(&self) -> Result<(), String> {
        use crate::check::ensure;
        let n = self.path_len();
        ensure(self.keys.len() >= self.root_len.0 && n <= MAX_PLY, || {
            format!(
                "{} keys for a root with {}: path out of 0..={MAX_PLY}",
                self.keys.len(),
                self.root_len.0
            )
        })?;
        ensure(self.touched.len() == self.root_len.1 + n, || {
            format!(
                "{} touched masks for {n} moves from a root with {}",
                self.touched.len(),
                self.root_len.1
            )
        })?;
        ensure(self.zap_clock.len() == self.keys.len() + 1, || {
            format!(
                "{} zap clocks for {} keys",
                self.zap_clock.len(),
                self.keys.len()
            )
        })?;
        let path = &self.zap_clock[self.root_len.0..];
        for (i, w) in path.windows(2).enumerate() {
            ensure(w[1] == 0 || w[1] == w[0] + 1, || {
                format!("zap clock {} at ply {} after {}", w[1], i + 1, w[0])
            })?;
        }
        ensure(
            (self.board.side() == self.root_side) == n.is_multiple_of(2),
            || format!("{:?} to move {n} plies from the root", self.board.side()),
        )?;
        ensure(
            self.pv.len() == MAX_PLY + 1 && self.lists.len() == MAX_PLY + 1,
            || {
                format!(
                    "{} pv and {} move lists, not {}",
                    self.pv.len(),
                    self.lists.len(),
                    MAX_PLY + 1
                )
            },
        )?;
        ensure(self.seldepth as usize <= MAX_PLY, || {
            format!("seldepth {} above {MAX_PLY}", self.seldepth)
        })
    }
}

/// Moves the best-keyed move of `moves[i..]` to `i` (selection order: most
/// nodes cut off after one or two moves, so a full sort is wasted).
fn pick(moves: &mut [Scored], i: usize) {
    let best = (i..moves.len())
        .max_by_key(|&j| (moves[j].key, std::cmp::Reverse(j)))
        .expect("i is in range");
    moves.swap(i, best);
}

/// Mate scores are stored relative to the stored position, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
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

#[cfg(all(test, feature = "debug-commands"))]
mod check_rep_tests {
    use super::*;
    use crate::check::CheckRep;
    use crate::rules::fen;
    use time::SearchLimits;

    fn shared() -> Shared {
        Shared {
            tt: Table::new(1, 4),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    fn root() -> Root {
        Root {
            board: fen::parse(fen::STARTPOS).unwrap(),
            history: vec![1, 2, 3],
            plies_since_zap: 7,
            last_move: Some(Move::parse("h0L").unwrap()),
            searchmoves: Vec::new(),
        }
    }

    fn worker<'a>(shared: &'a Shared, order: &'a mut Order) -> Worker<'a> {
        let params = Params {
            check_rep: true,
            ..Params::default()
        };
        let plan = Plan::new(&SearchLimits::default(), std::time::Instant::now());
        Worker::new(&root(), params, shared, order, plan, None, true)
    }

    #[test]
    fn a_search_with_check_rep_on_passes_every_check() {
        // Every check exits the process on failure: reaching the end passes.
        let shared = shared();
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        for d in 1..=4 {
            assert!(w.iterate(d).is_some());
        }
        assert_eq!(w.check_rep(), Ok(()));
    }

    #[test]
    fn each_broken_stack_is_caught_with_its_message() {
        let shared = shared();
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        assert_eq!(w.check_rep(), Ok(()));
        assert_eq!(w.check_ply(0, MAX_PLY), Ok(()));
        assert_eq!(
            w.check_ply(1, MAX_PLY).unwrap_err(),
            "node at ply 1 (at most 128), 0 moves from the root"
        );

        w.keys.push(4);
        assert_eq!(
            w.check_rep().unwrap_err(),
            "1 touched masks for 1 moves from a root with 1"
        );
        w.touched.push(0);
        assert_eq!(w.check_rep().unwrap_err(), "4 zap clocks for 4 keys");
        w.zap_clock.push(9);
        assert_eq!(w.check_rep().unwrap_err(), "zap clock 9 at ply 1 after 7");
        *w.zap_clock.last_mut().unwrap() = 8;
        assert_eq!(
            w.check_rep().unwrap_err(),
            "White to move 1 plies from the root"
        );
        let m = Move::parse("h0R").unwrap();
        let undo = w.board.make(m);
        assert_eq!(w.check_rep(), Ok(()));
        assert_eq!(
            w.check_ply(1, 0).unwrap_err(),
            "node at ply 1 (at most 0), 1 moves from the root"
        );
        w.board.unmake(m, undo);

        let mut w = worker(&shared, &mut order);
        w.keys.clear();
        assert_eq!(
            w.check_rep().unwrap_err(),
            "0 keys for a root with 3: path out of 0..=128"
        );
        let mut w = worker(&shared, &mut order);
        w.pv.pop();
        assert_eq!(
            w.check_rep().unwrap_err(),
            "128 pv and 129 move lists, not 129"
        );
        let mut w = worker(&shared, &mut order);
        w.seldepth = 200;
        assert_eq!(w.check_rep().unwrap_err(), "seldepth 200 above 128");
    }
}
