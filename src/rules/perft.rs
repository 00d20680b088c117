//! Perft with the reference's conventions (RULES.md "Perft"): no Ko filter,
//! and a move that zaps a King is a leaf counted once.
//!
//! `perft_plain` is the oracle, written straight from the definition.
//! `perft` is the fast one: it counts the last ply's moves from bitboards
//! without generating them, and reuses the unchanged board's laser path for
//! every move that touches none of its squares. `perft_threads` shares the
//! second ply's subtrees among threads.

use crate::rules::bitboard::{squares, NEIGHBOURS};
use crate::rules::board::Board;
use crate::rules::laser::{self, Shots};
use crate::rules::movegen::{count, count_occupancy, generate, StepCounter};
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Piece, Rot};
use crate::rules::square::Square;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

fn perft_inner(b: &mut Board, depth: u32) -> u64 {
    if depth == 2 {
        return perft_2(b);
    }
    let mut list = MoveList::new();
    generate(b, &mut list);
    let shots = Shots::new(b);
    let mut total = 0;
    for m in list.iter() {
        let victim = shots.victim(b, m, m.touched()).map(|v| v.0);
        let undo = b.make_with(m, |_| victim);
        total += if undo.king_zapped() {
            1
        } else {
            perft_inner(b, depth - 1)
        };
        b.unmake(m, undo);
    }
    total
}

/// Perft 2 without playing the moves: each child's move count depends only
/// on where the pieces stand after the move and the zap, which follows from
/// the move's squares. The moves are walked piece by piece as `generate`
/// orders them, without building them unless the shot must be traced:
/// a piece off the beam rotates three times into the unchanged position
/// and shot (one count for all three), and a swap's three rotations share
/// the swap's occupancy (one count unless the shot differs).
fn perft_2(b: &mut Board) -> u64 {
    let side = b.side();
    let (own, opp) = (b.pieces(side), b.pieces(side.opp()));
    let empty = !(own | opp);
    let shots = Shots::new(b);
    let guard = shots.guard();
    // The opponent's move count after a move that flips these squares of
    // each side and zaps `victim`.
    let child = |own_flip: u64, opp_flip: u64, victim: Option<(Square, Piece)>| -> u64 {
        let keep = match victim {
            Some((_, p)) if p.is_king() => return 1,
            Some((s, _)) => !s.bit(),
            None => !0,
        };
        count_occupancy((opp ^ opp_flip) & keep, (own ^ own_flip) & keep)
    };
    let base_count = child(0, 0, shots.base);
    // Steps that leave the shot as it is: the base position's counter.
    let steps = match shots.base {
        Some((_, p)) if p.is_king() => None,
        Some((s, _)) => Some(StepCounter::new(own & !s.bit(), opp & !s.bit())),
        None => Some(StepCounter::new(own, opp)),
    };
    let mut total = 0;
    for from in squares(own) {
        let f = from.bit();
        if f & guard == 0 {
            total += 3 * base_count;
        } else {
            for r in Rot::ALL {
                let v = shots.victim(b, Move::rotate(from, r), f);
                total += if v == shots.base {
                    base_count
                } else {
                    child(0, 0, v)
                };
            }
        }
        let around = NEIGHBOURS[from.index()];
        for to in squares(around & empty) {
            let t = f | to.bit();
            total += if t & guard != 0 {
                let d = from.compass_to(to).expect("a neighbour");
                child(t, 0, shots.victim(b, Move::step(from, d), t))
            } else {
                steps.as_ref().map_or(1, |c| c.after_step(from, to))
            };
        }
        for x in squares(around & opp) {
            let t = f | x.bit();
            let d = from.compass_to(x).expect("a neighbour");
            if t & guard == 0 {
                total += 3 * child(t, t, shots.base);
            } else {
                let mut last = None;
                for r in Rot::ALL {
                    let v = shots.victim(b, Move::swap_rotate(from, d, r), t);
                    let n = match last {
                        Some((lv, n)) if lv == v => n,
                        _ => child(t, t, v),
                    };
                    last = Some((v, n));
                    total += n;
                }
            }
            // After the swap `from` holds the enemy piece, so the mover's
            // step goes to the swapped square's empty neighbours.
            for to in squares(NEIGHBOURS[x.index()] & empty) {
                let u = to.bit();
                let touched = t | u;
                let v = if touched & guard == 0 {
                    shots.base
                } else {
                    let d2 = x.compass_to(to).expect("a neighbour");
                    shots.victim(b, Move::swap_step(from, d, d2), touched)
                };
                total += child(f | u, t, v);
            }
        }
    }
    total
}

/// The fast perft with the work shared among `threads` threads.
pub fn perft_threads(b: &Board, depth: u32, threads: usize) -> u64 {
    perft_threads_until(b, depth, threads, &AtomicBool::new(false)).expect("nothing sets the flag")
}

/// One share of the work: a root move and, when the game goes on, one
/// reply to it.
type Task = (Move, Option<Move>);

/// `perft_threads` that gives up (`None`) soon after `stop` is set: the
/// flag is read before each task.
///
/// The tasks are the second ply's subtrees (3,757 from the start), taken
/// one at a time from a shared counter by whichever thread is free: the
/// last to finish is a few thousandths of the whole, so the threads end
/// together (root moves alone, 61 shares of very unequal size, left one
/// thread counting alone at the end).
pub fn perft_threads_until(
    b: &Board,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < 4 {
        return Some(perft(&mut b.clone(), depth));
    }
    let tasks = second_ply(b);
    let next = AtomicUsize::new(0);
    let share = || count_tasks(b, &tasks, &next, depth, stop);
    // One thread counts on the caller's: no thread to start or join.
    if threads <= 1 {
        return share();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(share)).collect();
        // Joined by hand: the scope's own wait ends when the closures
        // return, before the threads have exited, and a thread still
        // exiting when the process ends leaves its stack behind (valgrind
        // reports it as possibly lost).
        let sums: Vec<Option<u64>> = handles
            .into_iter()
            .map(|h| h.join().expect("a perft thread panicked"))
            .collect();
        sums.into_iter().sum()
    })
}

/// Every root move with each reply, or alone when it zaps a King.
fn second_ply(b: &Board) -> Vec<Task> {
    let mut board = b.clone();
    let mut roots = MoveList::new();
    generate(&board, &mut roots);
    let mut tasks = Vec::new();
    for m in roots.iter() {
        let undo = board.make(m);
        if undo.king_zapped() {
            tasks.push((m, None));
        } else {
            let mut replies = MoveList::new();
            generate(&board, &mut replies);
            tasks.extend(replies.iter().map(|r| (m, Some(r))));
        }
        board.unmake(m, undo);
    }
    tasks
}

/// Counts the tasks `tasks[next..]` that this thread takes, one at a time;
/// `None` once stopped.
fn count_tasks(
    b: &Board,
    tasks: &[Task],
    next: &AtomicUsize,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    let mut board = b.clone();
    let mut sum = 0;
    while let Some(&(m, reply)) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let Some(r) = reply else {
            sum += 1;
            continue;
        };
        let undo = board.make(m);
        let undo_r = board.make(r);
        sum += if undo_r.king_zapped() {
            1
        } else {
            perft(&mut board, depth - 2)
        };
        board.unmake(r, undo_r);
        board.unmake(m, undo);
    }
    Some(sum)
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
    use crate::rules::fen;

    #[test]
    fn start_position_shallow_counts() {
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        let want = [1, 61, 3757, 239205];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft(&mut b, d as u32), n, "fast, depth {d}");
            assert_eq!(perft_plain(&mut b, d as u32), n, "plain, depth {d}");
        }
        assert_eq!(perft_threads(&b, 3, 2), 239205);
        assert_eq!(perft_threads(&b, 4, 1), 15537748);
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_threads_until(&b, 4, 2, &stopped), None);
        // Below depth 4 the count is plain and too short to stop.
        assert_eq!(perft_threads_until(&b, 3, 2, &stopped), Some(239205));
        assert_eq!(divide(&mut b, 3).iter().map(|x| x.1).sum::<u64>(), 239205);
    }

    #[test]
    fn shared_counts_equal_one_thread_where_a_root_move_zaps_a_king() {
        for f in [
            "2se5/SWee2swsw2/1nw6/8/8/5SE2/3SW2SW1/4SS3 B",
            "3nw4/8/2NW1ee3/5SS2/8/8/8/5NE2 B",
        ] {
            let mut b = fen::parse(f).unwrap();
            for depth in [4, 5] {
                let one = perft(&mut b, depth);
                assert_eq!(perft_threads(&b, depth, 3), one, "{f} depth {depth}");
                assert_eq!(
                    perft_plain(&mut b, depth.min(4)),
                    perft(&mut b, depth.min(4))
                );
            }
        }
    }
}
