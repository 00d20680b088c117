//! Perft with the reference's conventions (RULES.md "Perft"): no Ko filter,
//! and a move that zaps a King is a leaf counted once.
//!
//! `perft_plain` is the oracle, written straight from the definition.
//! `perft` is the fast one: it counts the last ply's moves from bitboards
//! without generating them, and reuses the unchanged board's laser path for
//! every move that touches none of its squares. `perft_threads` splits the
//! root moves over threads.

use crate::board::{Board, Undo};
use crate::laser;
use crate::movegen::{count, generate};
use crate::moves::{Move, MoveList};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The oracle: plain recursion, full generation at every ply, and the
/// square-by-square laser.
pub fn perft_plain(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate(b, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for m in list.iter() {
        let undo = b.make_with(m, |placed| laser::target_plain(placed, placed.side()));
        total += if undo.king_zapped() {
            1
        } else {
            perft_plain(b, depth - 1)
        };
        b.unmake(m, undo);
    }
    total
}

/// The fast perft, single-threaded.
pub fn perft(b: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count(b),
        _ => perft_inner(b, depth),
    }
}

/// Plays `m` with the laser shot taken from the parent's beam when `m`
/// changes none of the squares the beam crosses (nor the King's own).
#[inline(always)]
fn make_cached(b: &mut Board, m: Move, guard: u64, base: Option<crate::square::Square>) -> Undo {
    let untouched = m.touched() & guard == 0;
    b.make_with(m, |placed| {
        if untouched {
            base
        } else {
            laser::target(placed, placed.side())
        }
    })
}

fn perft_inner(b: &mut Board, depth: u32) -> u64 {
    let mut list = MoveList::new();
    generate(b, &mut list);
    let (path, base) = laser::path(b, b.side());
    let guard = path | b.king(b.side()).bit();
    let mut total = 0;
    for m in list.iter() {
        let undo = make_cached(b, m, guard, base);
        total += if undo.king_zapped() {
            1
        } else if depth == 2 {
            count(b)
        } else {
            perft_inner(b, depth - 1)
        };
        b.unmake(m, undo);
    }
    total
}

/// The fast perft with the root moves shared among `threads` threads.
pub fn perft_threads(b: &Board, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        return perft(&mut b.clone(), depth);
    }
    let mut list = MoveList::new();
    generate(b, &mut list);
    let moves = list.as_slice();
    let next = AtomicUsize::new(0);
    let total = Mutex::new(0u64);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut board = b.clone();
                let mut sum = 0;
                // Take root moves one at a time: their subtrees differ a lot in size.
                while let Some(&m) = moves.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let undo = board.make(m);
                    sum += if undo.king_zapped() {
                        1
                    } else {
                        perft(&mut board, depth - 1)
                    };
                    board.unmake(m, undo);
                }
                *total.lock().unwrap_or_else(|e| e.into_inner()) += sum;
            });
        }
    });
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Per root move counts at `depth` (a "divide"), in generation order.
pub fn divide(b: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    generate(b, &mut list);
    list.iter()
        .map(|m| {
            let undo = b.make(m);
            let n = if depth <= 1 || undo.king_zapped() {
                1
            } else {
                perft(b, depth - 1)
            };
            b.unmake(m, undo);
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    #[test]
    fn start_position_shallow_counts() {
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        let want = [1, 61, 3757, 239205];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft(&mut b, d as u32), n, "fast, depth {d}");
            assert_eq!(perft_plain(&mut b, d as u32), n, "plain, depth {d}");
        }
        assert_eq!(perft_threads(&b, 3, 2), 239205);
        assert_eq!(divide(&mut b, 3).iter().map(|x| x.1).sum::<u64>(), 239205);
    }
}
