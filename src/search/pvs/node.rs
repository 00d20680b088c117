//! The search below the root: PVS with null-window scouts, late-move
//! reductions, futility and margin pruning, the zap extension, and the
//! quiescence search over zapping moves.

use super::movepick::{MovePicker, Scored, Stage};
use super::order::MAX_PLY;
use super::split_points::Found;
use super::worker::Worker;
use super::INF;
use crate::rules::board::Undo;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::search::tt::{from_tt, to_tt, Bound, Entry};
use crate::search::MATE;

/// Futility pruning at depths up to this: a quiet move of a node whose
/// static score plus the depth's margin cannot reach alpha is skipped.
const FUTILITY_DEPTH: i32 = 3;

/// Futility and margin pruning margins by remaining depth, in cp.
const MARGIN: [i32; 4] = [0, 50, 100, 250];

impl Worker<'_> {
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

    /// The root move whose position one ply down has the best static
    /// score (a King zap scores as won or lost), ties to the first in the
    /// picker's order: the answer when a stop comes before depth 1 scored
    /// a move. It costs one evaluation a root move; none if the root has
    /// no move. Counts a node a move.
    pub fn static_pick(&mut self) -> Option<Move> {
        self.root_only.clone_from(&self.searchmoves);
        let side = self.board.side();
        let mut moves = self.picker(0, None, false);
        let mut best: Option<(i32, Move)> = None;
        for s in moves.by_ref() {
            self.nodes += 1;
            let undo = self.play(&s);
            let score = match self.king_zap_score(&undo, side, 0) {
                Some(z) => z,
                None => -self.static_eval(),
            };
            self.unplay(&s, undo);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, s.mv));
            }
        }
        self.lists[0] = moves.into_list();
        best.map(|(_, m)| m)
    }

    /// The score of the current position, `ply` plies from the root,
    /// searched `depth` plies deep within (`alpha`, `beta`); its line in
    /// `pv[ply]`.
    pub(super) fn pvs(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
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
        let prune = self.params.prune;
        let deepest = if prune { FUTILITY_DEPTH } else { 2 };
        let shallow = !pv_node && ply > 0 && depth <= deepest;
        let stand = if shallow { self.static_eval() } else { 0 };
        if shallow && prune && depth <= 2 && stand - MARGIN[depth as usize] >= beta {
            return stand - MARGIN[depth as usize];
        }
        let futile = shallow
            && prune
            && depth <= FUTILITY_DEPTH
            && stand + MARGIN[depth.clamp(0, 3) as usize] <= alpha;

        let mut moves = self.picker(ply, entry.and_then(|e| e.mv), false);
        let score = self.search_moves(&mut moves, alpha, beta, depth, ply, stand, futile);
        self.lists[ply] = moves.into_list();
        score
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
        // Worked out once a node: a test a move costs the one-thread search.
        let splits = self.splits_at(depth) && !futile;
        for i in 0.. {
            if splits && self.may_split(i, beta - alpha0 > 1) && !moves.rest().is_empty() {
                let found = Found {
                    alpha,
                    best,
                    best_move,
                    pv: std::mem::take(&mut self.pv[ply]),
                };
                let found = self.split(moves.by_ref().collect(), i, found, beta, depth, ply);
                (best, best_move) = (found.best, found.best_move);
                self.pv[ply] = found.pv;
                if self.stopped() && ply > 0 {
                    return 0;
                }
                break;
            }
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
            let score = self.search_move(&s, i, alpha, beta, depth, ply);
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

    /// Plays `s`, the `i`-th move of the current node (`depth` plies deep
    /// at `ply`), searches it within (`alpha`, `beta`) and takes it back:
    /// its score from the mover's view, its line in `pv[ply + 1]`. The
    /// first move gets the full window; the others a null-window scout,
    /// reduced when late and quiet, searched again as the scout fails high.
    #[inline(always)]
    pub(super) fn search_move(
        &mut self,
        s: &Scored,
        i: usize,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        let side = self.board.side();
        let undo = self.play(s);
        let score = if let Some(z) = self.king_zap_score(&undo, side, ply) {
            // The game ends here: no line continues it.
            self.pv[ply + 1].clear();
            z
        } else {
            let ext = i32::from(s.zaps_enemy && ply < 2 * depth as usize + 4);
            let killer = s.stage == Stage::Killer;
            let reduce = if depth >= 3 && s.stage.is_quiet() && !killer && !s.zaps_own {
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
        self.unplay(s, undo);
        score
    }

    /// Quiescence: stand pat, or zap an enemy piece.
    pub(super) fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
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
