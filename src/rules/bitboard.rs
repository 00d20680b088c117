//! Bitboards (`u64`, bit = square index) and the tables built on them at
//! compile time: neighbour masks and laser rays.

use crate::rules::square::{Dir, Square};

/// The (up to eight) squares adjacent to each square.
pub static NEIGHBOURS: [u64; 64] = neighbours();

/// `RAYS[d][s]`: the squares strictly beyond `s` in laser direction `d`.
pub static RAYS: [[u64; 64]; 4] = rays();

const fn neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    t[s] |= 1u64 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        s += 1;
    }
    t
}

const fn rays() -> [[u64; 64]; 4] {
    let mut t = [[0u64; 64]; 4];
    let deltas = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i32, (s / 8) as i32);
            loop {
                f += deltas[d].0;
                r += deltas[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][s] |= 1u64 << (r * 8 + f);
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// The first occupied square strictly beyond `from` in direction `d`.
#[inline(always)]
pub fn first_blocker(occ: u64, from: Square, d: Dir) -> Option<Square> {
    let hits = RAYS[d as usize][from.index()] & occ;
    if hits == 0 {
        return None;
    }
    // North and east raise the index, so the nearest blocker is the lowest bit.
    let index = match d {
        Dir::N | Dir::E => hits.trailing_zeros(),
        Dir::S | Dir::W => 63 - hits.leading_zeros(),
    };
    Some(Square::new(index as u8))
}

/// The squares of a bitboard, lowest first.
#[inline(always)]
pub fn squares(mut bb: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let s = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        Some(Square::new(s))
    })
}

const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The number of (a, b) pairs with `a` in `from`, `b` in `to`, and `a`, `b`
/// adjacent (8 directions); and the squares adjacent to `from`. Shifts the
/// whole set one direction at a time.
#[inline(always)]
pub fn adjacency(from: u64, to: u64) -> (u32, u64) {
    let e = (from << 1) & NOT_FILE_A;
    let w = (from >> 1) & NOT_FILE_H;
    let row = from | e | w;
    let (up, down) = (row << 8, row >> 8);
    let pairs = (e & to).count_ones()
        + (w & to).count_ones()
        + (e << 8 & to).count_ones()
        + (w << 8 & to).count_ones()
        + (from << 8 & to).count_ones()
        + (e >> 8 & to).count_ones()
        + (w >> 8 & to).count_ones()
        + (from >> 8 & to).count_ones();
    (pairs, e | w | up | down)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_counts() {
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[9].count_ones(), 8);
        assert_eq!(NEIGHBOURS[7].count_ones(), 3);
        assert_eq!(NEIGHBOURS[4].count_ones(), 5);
    }

    #[test]
    fn blockers_are_the_nearest() {
        let a0 = Square::new(0);
        let occ = Square::new(16).bit() | Square::new(40).bit() | Square::new(3).bit();
        assert_eq!(first_blocker(occ, a0, Dir::N), Some(Square::new(16)));
        assert_eq!(first_blocker(occ, a0, Dir::E), Some(Square::new(3)));
        assert_eq!(
            first_blocker(occ, Square::new(56), Dir::S),
            Some(Square::new(40))
        );
        assert_eq!(
            first_blocker(occ, Square::new(7), Dir::W),
            Some(Square::new(3))
        );
        assert_eq!(first_blocker(occ, a0, Dir::S), None);
    }

    #[test]
    fn adjacency_matches_a_plain_count() {
        let mut rng = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let from = rng & 0x0f0f_3c3c_f0f0_a5a5;
            let to = rng.rotate_left(23) & !from;
            let plain: u32 = squares(from)
                .map(|s| (NEIGHBOURS[s.index()] & to).count_ones())
                .sum();
            assert_eq!(adjacency(from, to).0, plain);
            let near: u64 = squares(from).fold(0, |acc, s| acc | NEIGHBOURS[s.index()]);
            assert_eq!(adjacency(from, to).1, near);
        }
    }
}
