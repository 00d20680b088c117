//! Criterion benchmarks of the engine's hot paths: move generation, the
//! in-place make/unmake, the laser and perft.
//!
//! The position set is every 10th FEN of `perft/data/positions.txt`
//! (relative to the crate root) plus the start position, so each iteration
//! covers crowded middlegames and sparse endgames alike. Throughput is given
//! in elements so criterion reports per-element rates:
//!
//! - `movegen/*`, `board/*`: moves (generated, counted, or played and undone);
//! - `laser/*`: laser shots (each position, both colours);
//! - `perft/*`: leaf nodes of the start position's depth-3 tree.
//!
//! Run with `cargo bench --bench core`; the whole run takes about a minute.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use leiserchess::rules::board::Board;
use leiserchess::rules::moves::{Move, MoveList};
use leiserchess::rules::piece::Color;
use leiserchess::rules::{fen, laser, movegen, perft};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// Take every `STRIDE`-th position of the reference file.
const STRIDE: usize = 10;

/// Start position leaf count at depth 3 (RULES.md / perft tests).
const STARTPOS_D3: u64 = 239_205;

/// The benchmark position set: the start position, then every `STRIDE`-th
/// reference position.
fn positions() -> Vec<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft/data/positions.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the reference positions {}: {e}",
            path.display()
        )
    });
    let fens = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split('|').next().unwrap_or(line).trim())
        .step_by(STRIDE);
    let mut boards = vec![fen::parse(fen::STARTPOS).expect("the start position parses")];
    for f in fens {
        boards.push(
            fen::parse(f).unwrap_or_else(|e| panic!("bad FEN '{f}' in {}: {e}", path.display())),
        );
    }
    assert!(boards.len() > 1, "no positions in {}", path.display());
    boards
}

/// Every generated move of each position.
fn move_lists(boards: &[Board]) -> Vec<Vec<Move>> {
    boards
        .iter()
        .map(|b| {
            let mut list = MoveList::new();
            movegen::generate(b, &mut list);
            assert_eq!(
                list.len() as u64,
                movegen::count(b),
                "generate and count disagree"
            );
            list.as_slice().to_vec()
        })
        .collect()
}

fn total_moves(moves: &[Vec<Move>]) -> u64 {
    moves.iter().map(|m| m.len() as u64).sum()
}

/// A group of per-move benches: 1 s warm-up, 3 s of samples, `n` moves an
/// iteration.
fn group<'a>(c: &'a mut Criterion, name: &str, n: u64) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(n));
    g
}

fn bench_movegen(c: &mut Criterion) {
    let boards = positions();
    let n = total_moves(&move_lists(&boards));
    let mut g = group(c, "movegen", n);
    g.bench_function("generate", |b| {
        b.iter(|| {
            let mut sum = 0;
            for board in black_box(&boards) {
                let mut list = MoveList::new();
                movegen::generate(board, &mut list);
                sum += black_box(&list).len();
            }
            sum
        })
    });
    g.bench_function("count", |b| {
        b.iter(|| black_box(&boards).iter().map(movegen::count).sum::<u64>())
    });
    g.finish();
}

fn bench_board(c: &mut Criterion) {
    let mut boards = positions();
    let moves = move_lists(&boards);
    let n = total_moves(&moves);
    let mut g = group(c, "board", n);
    g.bench_function("make_unmake", |b| {
        b.iter(|| {
            for (board, list) in boards.iter_mut().zip(&moves) {
                for &m in list {
                    let undo = board.make(black_box(m));
                    black_box(&*board);
                    board.unmake(m, black_box(undo));
                }
            }
        })
    });
    g.bench_function("place_unplace", |b| {
        b.iter(|| {
            for (board, list) in boards.iter_mut().zip(&moves) {
                for &m in list {
                    board.place(black_box(m));
                    black_box(&*board);
                    board.unplace(m);
                }
            }
        })
    });
    g.finish();
    // Every make/place was undone: the boards are as parsed.
    assert_eq!(
        boards,
        positions(),
        "make/unmake did not restore the boards"
    );
}

fn bench_laser(c: &mut Criterion) {
    let boards = positions();
    let n = 2 * boards.len() as u64;
    let mut g = group(c, "laser", n);
    g.bench_function("target", |b| {
        b.iter(|| {
            for board in black_box(&boards) {
                for col in Color::BOTH {
                    black_box(laser::target(board, col));
                }
            }
        })
    });
    g.bench_function("target_plain", |b| {
        b.iter(|| {
            for board in black_box(&boards) {
                for col in Color::BOTH {
                    black_box(laser::target_plain(board, col));
                }
            }
        })
    });
    g.bench_function("path", |b| {
        b.iter(|| {
            for board in black_box(&boards) {
                for col in Color::BOTH {
                    black_box(laser::path(board, col));
                }
            }
        })
    });
    g.finish();
}

fn bench_perft(c: &mut Criterion) {
    let mut board = fen::parse(fen::STARTPOS).expect("the start position parses");
    assert_eq!(
        perft::perft(&mut board, 3),
        STARTPOS_D3,
        "fast perft is wrong"
    );
    let mut g = c.benchmark_group("perft");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(STARTPOS_D3));
    g.bench_function("startpos_d3", |b| {
        b.iter(|| perft::perft(black_box(&mut board), black_box(3)))
    });
    g.bench_function("startpos_d3_plain", |b| {
        b.iter(|| perft::perft_plain(black_box(&mut board), black_box(3)))
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_movegen,
    bench_board,
    bench_laser,
    bench_perft
);
criterion_main!(benches);
