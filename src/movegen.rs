//! Move generation (RULES.md "Moves"), and counting moves without
//! generating them for perft's last ply.

use crate::bitboard::{adjacent_pairs, squares, NEIGHBOURS};
use crate::board::Board;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Rot};
use crate::square::Compass;

/// Appends every move of the side to move (no Ko filter) to `list`.
pub fn generate(b: &Board, list: &mut MoveList) {
    generate_for(b, b.side(), list);
}

/// Appends every move side `c` could make in this position, whoever is to
/// move (the laser-coverage term needs the other side's moves too).
pub fn generate_for(b: &Board, c: Color, list: &mut MoveList) {
    let own = b.pieces(c);
    let enemy = b.pieces(c.opp());
    for from in squares(own) {
        for r in Rot::ALL {
            list.push(Move::rotate(from, r));
        }
        for d in Compass::ALL {
            let Some(to) = from.step(d) else { continue };
            if enemy & to.bit() != 0 {
                for r in Rot::ALL {
                    list.push(Move::swap_rotate(from, d, r));
                }
                // After the swap `from` holds the enemy piece, so the mover's
                // step goes to the swapped square's empty neighbours.
                for d2 in Compass::ALL {
                    if let Some(t2) = to.step(d2) {
                        if b.piece_at(t2).is_none() {
                            list.push(Move::swap_step(from, d, d2));
                        }
                    }
                }
            } else if own & to.bit() == 0 {
                list.push(Move::step(from, d));
            }
        }
    }
}

/// The number of moves `generate` would produce, from bitboards alone:
/// each own piece has 3 rotations and a step to each empty neighbour, and
/// each (own, enemy) adjacent pair adds 3 swap-rotations and a swap-step to
/// each empty neighbour of the enemy's square.
#[inline]
pub fn count(b: &Board) -> u64 {
    let c = b.side();
    let own = b.pieces(c);
    let enemy = b.pieces(c.opp());
    let empty = !(own | enemy);
    let mut n = 3 * own.count_ones() + adjacent_pairs(own, empty);
    for x in squares(enemy) {
        let nb = NEIGHBOURS[x.index()];
        n += (3 + (nb & empty).count_ones()) * (nb & own).count_ones();
    }
    n as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

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
