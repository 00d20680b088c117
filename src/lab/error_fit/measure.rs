//! The measurement: each position searched on one thread with the default
//! parameters (the embedded net) and the engine's default table — depth 0
//! by the quiescence search alone, depths 1..=D by one iterative
//! deepening — the table cleared and the move-ordering tables fresh for
//! each search, so that a row does not depend on the positions before it
//! and a resumed run measures what an unbroken one would.

use super::table::{self, Row};
use crate::lab::data::Sample;
use crate::lab::Output;
use crate::rules::board::Board;
use crate::rules::fen;
use crate::rules::game::Game;
use crate::search::pvs::{self, order::Order, Worker};
use crate::search::time::{Plan, SearchLimits};
use crate::search::tt::TableSize;
use crate::search::{Params, Root, Shared};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// `n` of the positions of `samples` that have a legal move, spread evenly
/// through them; `Err` with how many there are if fewer than `n`.
pub fn select(samples: &[Sample], n: usize) -> Result<Vec<Board>, usize> {
    let playable: Vec<&Board> = samples
        .iter()
        .map(|s| &s.board)
        .filter(|b| !Game::new((*b).clone()).legal_moves().is_empty())
        .collect();
    if playable.len() < n {
        return Err(playable.len());
    }
    Ok((0..n)
        .map(|i| playable[i * playable.len() / n].clone())
        .collect())
}

/// An empty table and no stop or node count left from the last search.
fn fresh(shared: &Shared) {
    shared.tt.clear();
    shared.stop.store(false, Ordering::Relaxed);
    shared.nodes.store(0, Ordering::Relaxed);
}

/// `board`'s row: its scores and nodes at depths 0..=`depth`.
pub fn measure(board: &Board, depth: u32, params: Params, shared: &Shared) -> Result<Row, String> {
    let root = Root::new(board.clone());
    let fen = fen::to_fen(board);
    fresh(shared);
    // Depth 0: `iterate(0)` is the root's quiescence search (`pvs` at
    // depth 0 goes straight to it).
    let mut order = Order::default();
    let plan = Plan::new(&SearchLimits::default(), Instant::now());
    let mut worker = Worker::new(&root, params, shared, &mut order, plan, None, true);
    let it = worker
        .iterate(0)
        .ok_or_else(|| format!("{fen}: the quiescence search stopped"))?;
    let (mut scores, mut nodes) = (vec![it.score], vec![it.nodes]);
    fresh(shared);
    let limits = SearchLimits::depth(depth);
    let mut orders = [Order::default()];
    pvs::think(&root, &limits, params, shared, &mut orders, |it, _, n| {
        scores.push(it.score);
        nodes.push(n);
    });
    if scores.len() != depth as usize + 1 {
        return Err(format!(
            "{fen}: the search stopped after depth {}",
            scores.len() - 1
        ));
    }
    Ok(Row { scores, nodes, fen })
}

/// The rows at the start of the table text `old` that measured the first
/// of `boards` to `depth`: what a stopped run already did.
fn done_before(old: &str, boards: &[Board], depth: u32) -> Vec<Row> {
    let Ok(t) = table::parse(old) else {
        return Vec::new();
    };
    t.rows
        .into_iter()
        .zip(boards)
        .take_while(|(r, b)| r.depth() == depth as usize && r.fen == fen::to_fen(b))
        .map(|(r, _)| r)
        .collect()
}

/// Measures `boards` to `depth`, showing progress on standard error. With
/// `table`, each row is appended to it as it is measured (after `header`'s
/// comment lines), so a stopped run keeps its finished positions, and the
/// rows it already holds for the same positions and depth are kept, not
/// measured again.
pub(crate) fn run(
    boards: &[Board],
    depth: u32,
    header: &[String],
    mut table: Option<&mut Output>,
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    if let Some(out) = table.as_deref_mut() {
        let old = std::fs::read_to_string(out.path()).unwrap_or_default();
        rows = done_before(&old, boards, depth);
        let mut text: String = header.iter().map(|c| format!("# {c}\n")).collect();
        text.extend(rows.iter().map(|r| r.line() + "\n"));
        out.replace(text.as_bytes())?;
        if !rows.is_empty() {
            eprintln!(
                "fit-error: {} holds {} of the positions already: going on after them",
                out.path().display(),
                rows.len()
            );
        }
    }
    let size = TableSize::default();
    let shared = Shared::new(size.hash_mb, size.ways);
    let params = Params::default();
    let (start, had) = (Instant::now(), rows.len());
    let mut shown = Instant::now();
    for board in &boards[had..] {
        let row = measure(board, depth, params, &shared)?;
        if let Some(out) = table.as_deref_mut() {
            out.append((row.line() + "\n").as_bytes())?;
        }
        rows.push(row);
        let done = rows.len() == boards.len();
        if done || shown.elapsed() >= Duration::from_secs(2) {
            shown = Instant::now();
            let made = rows.len() - had;
            eprintln!(
                "{}",
                progress(rows.len(), boards.len(), made, start.elapsed())
            );
        }
    }
    Ok(rows)
}

/// `fit-error: 40 / 400 positions (10.0%), 3.2 s a position, about 19m 12s left`.
fn progress(done: usize, total: usize, made: usize, elapsed: Duration) -> String {
    let each = elapsed.as_secs_f64() / made.max(1) as f64;
    let left = (each * (total - done) as f64) as u64;
    format!(
        "fit-error: {done} / {total} positions ({:.1}%), {each:.1} s a position, {}",
        100.0 * done as f64 / total as f64,
        crate::lab::time_left(left)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::search::bench::POSITIONS;
    use crate::search::MATE_BOUND;

    /// Depth 0 is the quiescence search: never below the static score
    /// (standing pat), equal to it where the root's one node found no zap;
    /// the rows are what a fixed-depth search reports.
    #[test]
    fn depth_0_is_the_quiescence_search_and_rows_repeat() {
        let params = Params {
            use_nnue: false,
            ..Params::default()
        };
        let shared = Shared::new(1, 4);
        let mut searched = 0;
        for text in POSITIONS {
            let board = fen::parse(text).unwrap();
            let root = Root::new(board.clone());
            // The last `think` left the stop flag set.
            fresh(&shared);
            let mut order = Order::default();
            let plan = Plan::new(&SearchLimits::default(), Instant::now());
            let mut w = Worker::new(&root, params, &shared, &mut order, plan, None, true);
            let it = w.iterate(0).unwrap();
            let stand = evaluate(&board, &params.weights).score_cp() + params.hmb;
            assert!(it.score >= stand, "{text}: {} {stand}", it.score);
            // A King zap at the root is scored without a node below it.
            if it.nodes == 1 && it.score.abs() < MATE_BOUND {
                assert_eq!(it.score, stand, "{text}");
            } else {
                searched += 1;
            }
            drop(w);
            let row = measure(&board, 3, params, &shared).unwrap();
            assert_eq!((row.scores[0], row.nodes[0]), (it.score, it.nodes));
            let deep = pvs::search_depth(&root, 3, params, 1, 4);
            assert_eq!(row.scores[3], deep.last.unwrap().score, "{text}");
            assert_eq!(row.nodes[3], deep.nodes, "{text}");
            assert_eq!(measure(&board, 3, params, &shared).unwrap(), row);
        }
        assert!(searched > 0, "no position had a zap to search");
    }

    #[test]
    fn positions_spread_evenly_and_a_stopped_run_resumes() {
        let boards: Vec<Board> = POSITIONS.iter().map(|t| fen::parse(t).unwrap()).collect();
        let samples: Vec<Sample> = boards
            .iter()
            .map(|b| Sample {
                board: b.clone(),
                score: 0,
                outcome: crate::lab::data::Outcome::Draw,
            })
            .collect();
        let picked = select(&samples, 3).unwrap();
        let n = boards.len();
        assert_eq!(picked, [0, n / 3, 2 * n / 3].map(|i| boards[i].clone()));
        assert_eq!(select(&samples, n + 1), Err(n));
        let row = |b: &Board, depth: usize| Row {
            scores: vec![0; depth + 1],
            nodes: vec![1; depth + 1],
            fen: fen::to_fen(b),
        };
        let old = format!(
            "# made\n{}\n{}\n{}\n",
            row(&boards[0], 2).line(),
            row(&boards[1], 2).line(),
            row(&boards[5], 2).line()
        );
        let kept = done_before(&old, &boards, 2);
        assert_eq!(kept, [row(&boards[0], 2), row(&boards[1], 2)]);
        assert!(done_before(&old, &boards, 3).is_empty());
        assert!(done_before("1 2 | torn", &boards, 2).is_empty());
    }

    #[test]
    fn progress_shows_the_time_left() {
        let p = progress(40, 400, 20, Duration::from_secs(64));
        assert!(p.contains("40 / 400 positions (10.0%)"), "{p}");
        assert!(p.contains("3.2 s a position, about 19m 12s left"), "{p}");
    }
}
