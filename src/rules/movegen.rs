//! Move generation (RULES.md "Moves"), and counting moves without
//! generating them for perft's last ply.

use crate::rules::bitboard::{adjacency, squares, NEIGHBOURS};
use crate::rules::board::Board;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Color, Rot};
use crate::rules::square::Compass;
use crate::rules::square::Square;

/// Appends every move of the side to move (no Ko filter) to `list`.
pub fn generate(b: &Board, list: &mut MoveList) {
    generate_for(b, b.side(), list);
}

/// Appends every move side `c` could make in this position, whoever is to
/// move (the laser-coverage term needs the other side's moves too).
pub fn generate_for(b: &Board, c: Color, list: &mut MoveList) {
    for_each_move(b.pieces(c), b.pieces(c.opp()), |m, _| list.push(m));
}

/// What a move changes, as bitboards: the squares whose contents change,
/// and the squares that change in the mover's and in the opponent's
/// occupancy (so occupancy after the move is `own ^ own_flip`, `opp ^ opp_flip`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Footprint {
    pub touched: u64,
    pub own_flip: u64,
    pub opp_flip: u64,
}

/// Calls `visit` with every move of the side whose pieces are `own` (facing
/// `enemy`) and its footprint, in generation order: for each piece, lowest
/// square first, its rotations, then by compass direction a step, or a
/// swap's rotations and steps.
#[inline(always)]
pub fn for_each_move(own: u64, enemy: u64, visit: impl FnMut(Move, Footprint)) {
    for_each_move_of(own, own, enemy, visit);
}

/// [`for_each_move`] for the pieces on `movers` only, in the same order.
#[inline(always)]
pub fn for_each_move_of(movers: u64, own: u64, enemy: u64, mut visit: impl FnMut(Move, Footprint)) {
    for from in squares(own & movers) {
        piece_moves(from, own, enemy, &mut visit);
    }
}

/// The squares from which a move can touch `guard`: within two steps of
/// it (a swap-step reaches two squares away).
#[inline]
pub fn reach(guard: u64) -> u64 {
    let near = adjacency(guard, 0).1 | guard;
    adjacency(near, 0).1 | near
}

/// Calls `visit` with exactly the moves of the pieces `movers` (a subset
/// of `own`) that `for_each_move(own, enemy, ..)` would visit and whose
/// footprint touches a square of `guard` (in another order), and skips the
/// rest cheaply: a piece on `guard` has all its moves visited; a piece off
/// it only its steps into `guard`, all its swaps with an enemy on `guard`,
/// and its other swaps' steps into `guard`.
#[inline(always)]
pub fn for_each_move_touching(
    movers: u64,
    own: u64,
    enemy: u64,
    guard: u64,
    mut visit: impl FnMut(Move, Footprint),
) {
    let empty = !(own | enemy);
    for from in squares(movers & guard) {
        piece_moves(from, own, enemy, &mut visit);
    }
    // Beyond two squares from `guard`, nothing a piece does can reach it.
    for from in squares(movers & reach(guard) & !guard) {
        let f = from.bit();
        let around = NEIGHBOURS[from.index()];
        for to in squares(around & empty & guard) {
            let d = from.compass_to(to).expect("adjacent");
            visit(
                Move::step(from, d),
                Footprint {
                    touched: f | to.bit(),
                    own_flip: f | to.bit(),
                    opp_flip: 0,
                },
            );
        }
        for x in squares(around & enemy) {
            let d = from.compass_to(x).expect("adjacent");
            let t = x.bit();
            let swap = |u: u64| Footprint {
                touched: f | t | u,
                own_flip: f | if u == 0 { t } else { u },
                opp_flip: f | t,
            };
            if guard & t != 0 {
                for r in Rot::ALL {
                    visit(Move::swap_rotate(from, d, r), swap(0));
                }
            }
            let targets = if guard & t != 0 { !0 } else { guard };
            for to in squares(NEIGHBOURS[x.index()] & empty & targets) {
                let d2 = x.compass_to(to).expect("adjacent");
                visit(Move::swap_step(from, d, d2), swap(to.bit()));
            }
        }
    }
}

/// The moves of the piece on `from`.
#[inline(always)]
fn piece_moves(from: Square, own: u64, enemy: u64, visit: &mut impl FnMut(Move, Footprint)) {
    let empty = !(own | enemy);
    let f = from.bit();
    let fp = |touched: u64, own_flip: u64, opp_flip: u64| Footprint {
        touched,
        own_flip,
        opp_flip,
    };
    for r in Rot::ALL {
        visit(Move::rotate(from, r), fp(f, 0, 0));
    }
    for d in Compass::ALL {
        let Some(to) = from.step(d) else { continue };
        let t = to.bit();
        if empty & t != 0 {
            visit(Move::step(from, d), fp(f | t, f | t, 0));
        } else if enemy & t != 0 {
            for r in Rot::ALL {
                visit(Move::swap_rotate(from, d, r), fp(f | t, f | t, f | t));
            }
            // After the swap `from` holds the enemy piece, so the mover's
            // step goes to the swapped square's empty neighbours.
            for d2 in Compass::ALL {
                let Some(t2) = to.step(d2) else { continue };
                let u = t2.bit();
                if empty & u != 0 {
                    visit(Move::swap_step(from, d, d2), fp(f | t | u, f | u, f | t));
                }
            }
        }
    }
}

/// The number of moves `generate` would produce, from bitboards alone.
#[inline]
pub fn count(b: &Board) -> u64 {
    let c = b.side();
    count_occupancy(b.pieces(c), b.pieces(c.opp()))
}

/// The number of moves of a side whose pieces are `own` facing `enemy`:
/// each own piece has 3 rotations and a step to each empty neighbour, and
/// each adjacent (own, enemy) pair adds 3 swap-rotations and a swap-step to
/// each empty neighbour of the enemy's square.
#[inline(always)]
pub fn count_occupancy(own: u64, enemy: u64) -> u64 {
    let empty = !(own | enemy);
    let (pairs, near_own) = adjacency(own, empty);
    let mut n = 3 * own.count_ones() + pairs;
    // Enemy pieces with no own neighbour offer no swap.
    for x in squares(enemy & near_own) {
        let nb = NEIGHBOURS[x.index()];
        n += (3 + (nb & empty).count_ones()) * (nb & own).count_ones();
    }
    n as u64
}

/// [`count_occupancy`] for the replies to many steps from one position:
/// the side to reply keeps its pieces, so its pairs with empty squares
/// change only at the step's two squares and are updated, not recounted.
pub struct StepCounter {
    mover: u64,
    replier: u64,
    empty: u64,
    near_replier: u64,
    /// `3 × |replier|` plus its pairs with the empty squares.
    base: u32,
}

impl StepCounter {
    /// The position with the pieces `mover` (to step) and `replier`.
    #[inline]
    pub fn new(mover: u64, replier: u64) -> StepCounter {
        let empty = !(mover | replier);
        let (pairs, near_replier) = adjacency(replier, empty);
        StepCounter {
            mover,
            replier,
            empty,
            near_replier,
            base: 3 * replier.count_ones() + pairs,
        }
    }

    /// `count_occupancy(replier, mover ^ from ^ to)`: the replies after the
    /// mover's piece on `from` steps to the empty square `to`.
    #[inline(always)]
    pub fn after_step(&self, from: Square, to: Square) -> u64 {
        let flip = from.bit() | to.bit();
        let (empty, mover) = (self.empty ^ flip, self.mover ^ flip);
        let near = |s: Square| (NEIGHBOURS[s.index()] & self.replier).count_ones();
        // `from` joins the empty squares and `to` leaves them.
        let mut n = self.base + near(from) - near(to);
        for x in squares(mover & self.near_replier) {
            let nb = NEIGHBOURS[x.index()];
            n += (3 + (nb & empty).count_ones()) * (nb & self.replier).count_ones();
        }
        n as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    /// `reach` is every square within two king steps of a square of
    /// `guard`: a plain scan of the board.
    #[test]
    fn reach_is_two_king_steps() {
        let near = |s: Square, t: Square| {
            (s.file() - t.file()).abs() <= 2 && (s.rank() - t.rank()).abs() <= 2
        };
        let plain = |g: u64| {
            Square::all()
                .filter(|&s| squares(g).any(|t| near(s, t)))
                .fold(0, |a, s| a | s.bit())
        };
        let block = Square::all()
            .filter(|s| (2..5).contains(&s.file()) && (2..5).contains(&s.rank()))
            .fold(0, |a, s| a | s.bit());
        let mut rng = fastrand::Rng::with_seed(4);
        let mut guards = vec![0, !0, block, Square::new(0).bit(), Square::new(63).bit()];
        guards.extend((0..300).map(|_| rng.u64(..) & rng.u64(..) & rng.u64(..)));
        for g in guards {
            assert_eq!(reach(g), plain(g), "{g:#018x}");
        }
    }

    #[test]
    fn step_counts_equal_a_recount() {
        let mut rng = fastrand::Rng::with_seed(9);
        let mut checked = 0;
        for _ in 0..3000 {
            let mover = rng.u64(..) & rng.u64(..) & rng.u64(..);
            let replier = rng.u64(..) & rng.u64(..) & !mover;
            let empty = !(mover | replier);
            let counter = StepCounter::new(mover, replier);
            for from in squares(mover) {
                for to in squares(NEIGHBOURS[from.index()] & empty) {
                    let flip = from.bit() | to.bit();
                    assert_eq!(
                        counter.after_step(from, to),
                        count_occupancy(replier, mover ^ flip)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked} steps");
    }

    #[test]
    fn start_position_has_61_moves_counted_either_way() {
        let b = fen::parse(fen::STARTPOS).unwrap();
        let mut list = MoveList::new();
        generate(&b, &mut list);
        assert_eq!(list.len(), 61);
        assert_eq!(count(&b), 61);
    }

    #[test]
    fn a_swap_never_steps_back() {
        let b = fen::parse("7ss/8/8/8/8/8/nw7/NN7 W").unwrap();
        let mut list = MoveList::new();
        generate(&b, &mut list);
        let texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        assert!(texts.contains(&"a0a1R".to_string()));
        assert!(texts.contains(&"a0a1a2".to_string()));
        assert!(!texts.contains(&"a0a1a0".to_string()));
        // King a0: 3 rotations + 2 steps; swap a1: 3 rotations + 4 steps.
        assert_eq!(list.len(), 12);
        assert_eq!(count(&b), 12);
    }
}
