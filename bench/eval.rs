//! Criterion benchmarks of the static evaluation: the fast laser coverage
//! (in-place make/unmake and a cached beam) against the plain oracle of
//! EVAL.md, alone and inside the whole evaluation.
//!
//! The position set is every FEN of `bench/positions.fen` (one per line,
//! relative to the crate root). Throughput is in positions, so criterion
//! reports positions per second:
//!
//! - `coverage/fast`, `coverage/plain`: `coverage` / `coverage_plain` for
//!   both colours of every position;
//! - `eval/fast`, `eval/plain`: `evaluate` / `evaluate_plain` (both colours'
//!   coverage plus the per-piece terms) of every position, default weights.
//!
//! - `nnue/evaluate`: the embedded net's output from a ready accumulator
//!   (with its beam features added), every position;
//! - `nnue/make-update-evaluate`: what the search pays per node: a move
//!   made, the parent's accumulator copied and updated, the net
//!   evaluated, the move unmade — the first four moves of every position;
//! - `nnue/refresh`: an accumulator from scratch, for comparison;
//! - `nnue/load`: what `EvalFile` pays once: the embedded net's file
//!   (`src/eval/nnue/default.nnue`) read, checked and parsed.
//!
//! Before timing, the fast and plain results are checked equal on every
//! position, and the boards are checked unchanged afterwards.
//!
//! Run with `cargo bench --bench eval`; the whole run takes under a minute.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use leiserchess::eval::nnue::accumulator::{Accumulator, Before};
use leiserchess::eval::nnue::Network;
use leiserchess::eval::{self, coverage, Terms, Weights};
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::movegen::generate;
use leiserchess::rules::moves::{Move, MoveList};
use leiserchess::rules::piece::Color;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// The benchmark position set: every FEN of `bench/positions.fen`.
fn positions() -> Vec<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/positions.fen");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the positions {}: {e}", path.display()));
    let boards: Vec<Board> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|f| {
            fen::parse(f).unwrap_or_else(|e| panic!("bad FEN '{f}' in {}: {e}", path.display()))
        })
        .collect();
    assert!(!boards.is_empty(), "no positions in {}", path.display());
    boards
}

/// `coverage::coverage(b, c)`: the fast functions take `&mut Board` when
/// they play moves on the board in place, `&Board` when they work on a copy
/// of its squares; a `&mut` binding passes as either.
#[inline]
fn fast_coverage(b: &mut Board, c: Color) -> f32 {
    coverage::coverage(b, c)
}

/// `eval::evaluate(b, w)`, the board passed as `fast_coverage` does.
#[inline]
fn fast_evaluate(b: &mut Board, w: &Weights) -> Terms {
    eval::evaluate(b, w)
}

/// The fast versions agree with the oracles on every position (so the
/// benchmark never times a wrong answer) and leave the boards unchanged.
fn check(boards: &[Board], w: &Weights) {
    for b0 in boards {
        let mut b = b0.clone();
        for c in Color::BOTH {
            let (fast, plain) = (fast_coverage(&mut b, c), coverage::coverage_plain(b0, c));
            assert_eq!(
                fast.to_bits(),
                plain.to_bits(),
                "{c:?} coverage {fast:?}, plain {plain:?} at {}",
                fen::to_fen(b0)
            );
        }
        assert_eq!(
            fast_evaluate(&mut b, w),
            eval::evaluate_plain(b0, w),
            "evaluate differs at {}",
            fen::to_fen(b0)
        );
        assert_eq!(&b, b0, "the board changed at {}", fen::to_fen(b0));
    }
}

/// A group timed per position: the plain versions take milliseconds per
/// pass over the set, so few samples keep the run short.
fn group<'a>(c: &'a mut Criterion, name: &str, n: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(50)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(n as u64));
    g
}

fn bench_coverage(c: &mut Criterion) {
    let mut boards = positions();
    let before = boards.clone();
    check(&boards, &Weights::default());
    let mut g = group(c, "coverage", boards.len());
    g.bench_function("fast", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for board in black_box(&mut boards).iter_mut() {
                for col in Color::BOTH {
                    sum += fast_coverage(board, col);
                }
            }
            sum
        })
    });
    g.bench_function("plain", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for board in black_box(&boards) {
                for col in Color::BOTH {
                    sum += coverage::coverage_plain(board, col);
                }
            }
            sum
        })
    });
    g.finish();
    assert_eq!(boards, before, "coverage did not restore the boards");
}

fn bench_eval(c: &mut Criterion) {
    let mut boards = positions();
    let before = boards.clone();
    let w = Weights::default();
    let mut g = group(c, "eval", boards.len());
    g.bench_function("fast", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for board in black_box(&mut boards).iter_mut() {
                sum += i64::from(fast_evaluate(board, black_box(&w)).score_ev());
            }
            sum
        })
    });
    g.bench_function("plain", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for board in black_box(&boards) {
                sum += i64::from(eval::evaluate_plain(board, black_box(&w)).score_ev());
            }
            sum
        })
    });
    g.finish();
    assert_eq!(boards, before, "evaluate did not restore the boards");
}

/// The first four generated moves of each board.
fn some_moves(boards: &[Board]) -> Vec<Vec<Move>> {
    boards
        .iter()
        .map(|b| {
            let mut list = MoveList::new();
            generate(b, &mut list);
            list.iter().take(4).collect()
        })
        .collect()
}

fn bench_nnue(c: &mut Criterion) {
    let mut boards = positions();
    let before = boards.clone();
    let net = Network::embedded();
    let accs: Vec<Accumulator> = boards
        .iter()
        .map(|b| Accumulator::refresh(&net, b))
        .collect();
    let moves = some_moves(&boards);
    let mut g = group(c, "nnue", boards.len());
    g.bench_function("evaluate", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for (board, acc) in black_box(&boards).iter().zip(&accs) {
                sum += i64::from(net.evaluate(acc, board));
            }
            sum
        })
    });
    g.bench_function("refresh", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for board in black_box(&boards) {
                sum += i64::from(Accumulator::refresh(&net, board).row(Color::White).0[0]);
            }
            sum
        })
    });
    g.finish();
    let plies: usize = moves.iter().map(Vec::len).sum();
    let mut g = group(c, "nnue", plies);
    g.bench_function("make-update-evaluate", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for ((board, acc), ms) in black_box(&mut boards).iter_mut().zip(&accs).zip(&moves) {
                for &m in ms {
                    let touched = Before::of(board, m.touched());
                    let undo = board.make(m);
                    let child = acc.child(&net, board, &touched, &undo);
                    if !undo.king_zapped() {
                        sum += i64::from(net.evaluate(&child, board));
                    }
                    board.unmake(m, undo);
                }
            }
            sum
        })
    });
    g.finish();
    assert_eq!(
        boards, before,
        "the nnue benchmark did not restore the boards"
    );
}

fn bench_nnue_load(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/nnue/default.nnue");
    let mut g = group(c, "nnue", 1);
    g.bench_function("load", |b| {
        b.iter(|| Network::load(black_box(path)).expect("the embedded net's file"))
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_coverage,
    bench_eval,
    bench_nnue,
    bench_nnue_load
);
criterion_main!(benches);
