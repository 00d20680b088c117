//! A search thread's `check_rep` invariants (its stacks), and the hooks by
//! which the search checks every structure it touches while the
//! `check_rep` option is on (only with the `debug-commands` feature).

use super::order::MAX_PLY;
use super::Worker;
use crate::check_rep::{ensure, CheckRep};
use crate::eval::nnue::accumulator::Accumulator;

#[cfg(feature = "debug-commands")]
impl Worker<'_> {
    /// After a make (`king_zapped`: it zapped a King) or an unmake: the
    /// board and the stacks.
    pub(super) fn check_made(&self, king_zapped: bool) {
        crate::check_rep::report("board", self.board.check_rep_with(king_zapped));
        crate::check_rep::check(self);
    }

    /// At a node at `ply`, which may be at most `max_ply`: the board, the
    /// stacks, this ply's killers and the table bucket the node probes.
    pub(super) fn check_node(&self, ply: usize, max_ply: usize) {
        use crate::check_rep::{check, report};
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
        ensure(ply == self.trail.plies() && ply <= max_ply, || {
            format!(
                "node at ply {ply} (at most {max_ply}), {} moves from the root",
                self.trail.plies()
            )
        })
    }

    /// At the end of an iteration: back at the root, a full scan of the
    /// move-ordering tables and (main thread) one of the transposition
    /// table once the worker has searched as many nodes since the last as
    /// the table has entries. Every node already checks its own bucket; the
    /// cadence keeps the scans' cost within the search's own, where the
    /// best-first search runs thousands of small iterations a move.
    pub(super) fn check_iteration(&mut self) {
        self.check_node(0, 0);
        crate::check_rep::check(&*self.order);
        if self.main && self.nodes >= self.tt_scan_due {
            crate::check_rep::check(&self.shared.tt);
            self.tt_scan_due = self.nodes + self.shared.tt.entries() as u64;
        }
    }
}

impl CheckRep for Worker<'_> {
    const NAME: &'static str = "search stack";

    /// The trail is whole (`Trail`'s own checks), the side to move
    /// alternates along it, the per-ply vectors are all there.
    fn check_rep(&self) -> Result<(), String> {
        self.trail.check_rep()?;
        let n = self.trail.plies();
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
        })?;
        self.check_accumulators(n)
    }
}

impl Worker<'_> {
    /// With the net: one accumulator a position from the root, the last
    /// equal to one built from scratch for the board.
    fn check_accumulators(&self, n: usize) -> Result<(), String> {
        let Some(net) = self.evaluator.net() else {
            return ensure(self.accumulators.is_empty(), || {
                format!("{} accumulators without a net", self.accumulators.len())
            });
        };
        ensure(self.accumulators.len() == n + 1, || {
            format!(
                "{} accumulators {n} plies from the root",
                self.accumulators.len()
            )
        })?;
        let fresh = Accumulator::refresh(net, &self.board);
        ensure(self.accumulators.last() == Some(&fresh), || {
            format!("the accumulator {n} plies from the root differs from a fresh one")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Order;
    use super::*;
    use crate::rules::fen;
    use crate::rules::moves::Move;
    use crate::search::time::{Plan, SearchLimits};
    use crate::search::{Params, Root, Shared};

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
        worker_with(shared, order, false)
    }

    fn worker_with<'a>(shared: &'a Shared, order: &'a mut Order, use_nnue: bool) -> Worker<'a> {
        let params = Params {
            check_rep: true,
            use_nnue,
            ..Params::default()
        };
        let plan = Plan::new(&SearchLimits::default(), std::time::Instant::now());
        Worker::new(&root(), params, shared, order, plan, None, true)
    }

    #[cfg(feature = "debug-commands")]
    #[test]
    fn a_search_with_check_rep_on_passes_every_check() {
        // Every check exits the process on failure: reaching the end passes.
        let shared = Shared::new(1, 4);
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        for d in 1..=4 {
            assert!(w.iterate(d).is_some());
        }
        assert_eq!(w.check_rep(), Ok(()));
    }

    #[cfg(feature = "debug-commands")]
    #[test]
    fn a_search_with_the_net_passes_every_check() {
        let shared = Shared::new(1, 4);
        let mut order = Order::default();
        let mut w = worker_with(&shared, &mut order, true);
        for d in 1..=4 {
            assert!(w.iterate(d).is_some());
        }
        assert_eq!(w.check_rep(), Ok(()));
    }

    #[cfg(feature = "debug-commands")]
    #[test]
    fn the_whole_table_is_scanned_once_its_size_in_nodes_was_searched() {
        let shared = Shared::new(1, 4);
        let entries = shared.tt.entries() as u64;
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        assert!(w.iterate(1).is_some());
        let first = w.tt_scan_due;
        assert_eq!(first, w.nodes + entries, "the first iteration scans");
        // The best-first search's pattern: many small searches, one worker.
        while w.nodes < first {
            let before = w.nodes;
            assert!(w.iterate(2).is_some());
            if w.nodes < first {
                assert_eq!(w.tt_scan_due, first, "no scan {before}..{} nodes", w.nodes);
            }
        }
        assert_eq!(w.tt_scan_due, w.nodes + entries, "due: scanned again");
    }

    #[test]
    fn a_stale_or_missing_accumulator_is_caught() {
        let shared = Shared::new(1, 4);
        let mut order = Order::default();
        let mut w = worker_with(&shared, &mut order, true);
        assert_eq!(w.check_rep(), Ok(()));
        let other = fen::parse(fen::ENDGAME).unwrap();
        w.accumulators.clear();
        w.accumulators
            .push(Accumulator::refresh(&shared.net, &other));
        assert_eq!(
            w.check_rep().unwrap_err(),
            "the accumulator 0 plies from the root differs from a fresh one"
        );
        w.accumulators.clear();
        assert_eq!(
            w.check_rep().unwrap_err(),
            "0 accumulators 0 plies from the root"
        );
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        w.accumulators
            .push(Accumulator::refresh(&shared.net, &other));
        assert_eq!(w.check_rep().unwrap_err(), "1 accumulators without a net");
    }

    #[cfg(feature = "debug-commands")]
    #[test]
    fn a_node_off_its_ply_is_caught_with_its_message() {
        let shared = Shared::new(1, 4);
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        assert_eq!(w.check_ply(0, MAX_PLY), Ok(()));
        assert_eq!(
            w.check_ply(1, MAX_PLY).unwrap_err(),
            "node at ply 1 (at most 128), 0 moves from the root"
        );
        w.trail.push(w.board.key(), 0, false);
        let m = Move::parse("h0R").unwrap();
        let _undo = w.board.make(m);
        assert_eq!(w.check_ply(1, MAX_PLY), Ok(()));
        assert_eq!(
            w.check_ply(1, 0).unwrap_err(),
            "node at ply 1 (at most 0), 1 moves from the root"
        );
    }

    #[test]
    fn each_broken_stack_is_caught_with_its_message() {
        let shared = Shared::new(1, 4);
        let mut order = Order::default();
        let mut w = worker(&shared, &mut order);
        assert_eq!(w.check_rep(), Ok(()));

        w.trail.push(w.board.key(), 0, false);
        assert_eq!(
            w.check_rep().unwrap_err(),
            "White to move 1 plies from the root"
        );
        let m = Move::parse("h0R").unwrap();
        let undo = w.board.make(m);
        assert_eq!(w.check_rep(), Ok(()));
        w.board.unmake(m, undo);

        let mut w = worker(&shared, &mut order);
        w.trail.pop();
        assert_eq!(w.check_rep().unwrap_err(), "no frame for the root");
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
