//! Laser coverage (EVAL.md "LCOVERAGE"): for every move a side could make,
//! the beam it would fire, as the shortest beam length reaching each square,
//! summed with distance weights in `f32`, one rounding per operation, in
//! EVAL.md's order.
//!
//! `coverage_plain` is the oracle, written straight from EVAL.md: it traces
//! every move's beam from scratch on a copied board. `coverage` is the fast
//! version: it traces the unchanged board's beam once, remembering the
//! square, direction and length at each step; a move that changes none of
//! those squares (nor the King) fires that same beam, and any other move,
//! played in place and undone, is traced only from the first beam square it
//! changes. Both give the same bits.

use crate::bitboard::squares;
use crate::board::Board;
use crate::laser::bounce;
use crate::movegen::{for_each_move, generate_for};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::piece::Color;
use crate::square::{Dir, Square};

/// `md(a, b)` for two coordinates (`a` may be on the one-square ring).
fn md(af: i32, ar: i32, b: Square) -> f32 {
    if (af, ar) == (b.file(), b.rank()) {
        return 2.0;
    }
    let df = (af - b.file()).abs() as f32;
    let dr = (ar - b.rank()).abs() as f32;
    (1.0 / (df + 1.0)) * (1.0 / (dr + 1.0))
}

/// The ring squares in EVAL.md's order: rank −1 for files −1..8, rank 8 for
/// files −1..8, file −1 for ranks 0..7, file 8 for ranks 0..7.
fn ring() -> impl Iterator<Item = (i32, i32)> {
    let bottom = (-1..=8).map(|f| (f, -1));
    let top = (-1..=8).map(|f| (f, 8));
    let left = (0..8).map(|r| (-1, r));
    let right = (0..8).map(|r| (8, r));
    bottom.chain(top).chain(left).chain(right)
}

fn manhattan(a: Square, b: Square) -> i32 {
    (a.file() - b.file()).abs() + (a.rank() - b.rank()).abs()
}

/// The oracle: EVAL.md's coverage sum `R` for side `c`, step by step.
pub fn coverage_plain(b: &Board, c: Color) -> f32 {
    // The map over the board and its ring, indexed [file + 1][rank + 1].
    let mut map = [[f32::MAX; 10]; 10];
    let mut list = MoveList::new();
    generate_for(b, c, &mut list);
    for m in list.iter() {
        let mut board = b.clone();
        board.place(m);
        trace_plain(&board, c, &mut map);
    }
    let (k, o) = (b.king(c), b.king(c.opp()));
    let mut r = 0.0f32;
    for f in 0..8 {
        for rank in 0..8 {
            let cell = map[f as usize + 1][rank as usize + 1];
            if cell < f32::MAX {
                let s = Square::from_coords(f, rank).expect("on the board");
                let mut v = manhattan(k, s) as f32 / cell;
                v *= md(f, rank, o);
                r += v;
            }
        }
    }
    for (f, rank) in ring() {
        r += md(f, rank, o);
    }
    r
}

/// Traces `c`'s beam on `board` into `map`, square by square.
fn trace_plain(board: &Board, c: Color, map: &mut [[f32; 10]; 10]) {
    let k = board.king(c);
    let Some(king) = board.piece_at(k) else {
        return;
    };
    let mut d = Dir::from_index(king.ori());
    let (mut f, mut r) = (k.file(), k.rank());
    let mut l = 1.0f32;
    loop {
        let (df, dr) = d.compass().delta();
        f += df;
        r += dr;
        let cell = &mut map[(f + 1) as usize][(r + 1) as usize];
        if *cell > l {
            *cell = l;
        }
        l += 1.0;
        let Some(s) = Square::from_coords(f, r) else {
            return;
        };
        let Some(p) = board.piece_at(s) else { continue };
        match bounce(d, p) {
            Some(next) => {
                d = next;
                if p.color() != c {
                    l += 2.0;
                }
            }
            None => return,
        }
    }
}

/// The fast coverage sum for side `c`: bit-identical to `coverage_plain`.
/// Moves are played on `b` in place and undone.
pub fn coverage(b: &mut Board, c: Color) -> f32 {
    let mut lengths = Lengths::new();
    let base = Beam::trace(b, c);
    let king = b.king(c).bit();
    // Moves whose beam differs from the unchanged board's, with the path
    // index to trace from (`FROM_KING`: the King moved, trace it all).
    let mut retrace: [(Move, u8); MAX_MOVES] =
        [(Move::rotate(Square::new(0), crate::piece::Rot::R), 0); MAX_MOVES];
    let mut n = 0;
    let mut base_used = false;
    let mut prefix = 0;
    for_each_move(b, c, |m, fp| {
        let start = if fp.touched & king != 0 {
            FROM_KING
        } else if fp.touched & base.squares == 0 {
            base_used = true;
            return;
        } else {
            squares(fp.touched & base.squares)
                .map(|s| base.first[s.index()])
                .min()
                .unwrap_or(0)
        };
        if start != FROM_KING {
            prefix = prefix.max(start as usize);
        }
        retrace[n] = (m, start);
        n += 1;
    });
    // The unchanged prefix of every retraced beam is a prefix of the
    // unchanged board's beam: apply the longest one needed, once.
    let upto = if base_used { base.len } else { prefix };
    for i in 0..upto {
        lengths.lower(base.sq[i], base.l[i]);
    }
    for &(m, start) in &retrace[..n] {
        b.place(m);
        if start == FROM_KING {
            let k = b.king(c);
            if let Some(p) = b.piece_at(k) {
                let d = Dir::from_index(p.ori());
                if let Some(first) = k.step(d.compass()) {
                    trace_into(b, c, first, d, 1, &mut lengths);
                }
            }
        } else {
            let i = start as usize;
            trace_into(b, c, base.sq[i], base.dir[i], base.l[i], &mut lengths);
        }
        b.unplace(m);
    }
    lengths.sum(b.king(c), b.king(c.opp()))
}

const FROM_KING: u8 = u8::MAX;

/// The unchanged board's beam: at step `i` it enters square `sq[i]` moving
/// in `dir[i]` with length `l[i]`; `first[s]` is the first step on square `s`.
struct Beam {
    sq: [Square; 256],
    dir: [Dir; 256],
    l: [u16; 256],
    len: usize,
    first: [u8; 64],
    squares: u64,
}

impl Beam {
    fn trace(b: &Board, c: Color) -> Beam {
        let mut beam = Beam {
            sq: [Square::new(0); 256],
            dir: [Dir::N; 256],
            l: [0; 256],
            len: 0,
            first: [FROM_KING; 64],
            squares: 0,
        };
        let k = b.king(c);
        let Some(king) = b.piece_at(k) else {
            return beam;
        };
        let mut d = Dir::from_index(king.ori());
        let mut at = k;
        let mut l = 1u16;
        while let Some(s) = at.step(d.compass()) {
            let i = beam.len;
            beam.sq[i] = s;
            beam.dir[i] = d;
            beam.l[i] = l;
            beam.len += 1;
            if beam.squares & s.bit() == 0 {
                beam.first[s.index()] = i as u8;
                beam.squares |= s.bit();
            }
            l += 1;
            at = s;
            if let Some(p) = b.piece_at(s) {
                match bounce(d, p) {
                    Some(next) => {
                        d = next;
                        if p.color() != c {
                            l += 2;
                        }
                    }
                    None => break,
                }
            }
        }
        beam
    }
}

/// Traces `c`'s beam from its arrival at `s`, moving in `d` with length `l`.
#[inline]
fn trace_into(b: &Board, c: Color, mut s: Square, mut d: Dir, mut l: u16, lengths: &mut Lengths) {
    loop {
        lengths.lower(s, l);
        l += 1;
        if let Some(p) = b.piece_at(s) {
            match bounce(d, p) {
                Some(next) => {
                    d = next;
                    if p.color() != c {
                        l += 2;
                    }
                }
                None => return,
            }
        }
        match s.step(d.compass()) {
            Some(next) => s = next,
            None => return,
        }
    }
}

/// The map `M` restricted to the board (ring values never matter), as
/// integer lengths, indexed by `file * 8 + rank` so that iterating the
/// `covered` bits visits squares in EVAL.md's summation order.
struct Lengths {
    m: [u16; 64],
    covered: u64,
}

impl Lengths {
    fn new() -> Lengths {
        Lengths {
            m: [u16::MAX; 64],
            covered: 0,
        }
    }

    #[inline(always)]
    fn lower(&mut self, s: Square, l: u16) {
        let t = (s.file() * 8 + s.rank()) as usize;
        if self.m[t] > l {
            self.m[t] = l;
        }
        self.covered |= 1 << t;
    }

    /// EVAL.md steps 3 and 4 for King square `k` and enemy King `o`.
    fn sum(&self, k: Square, o: Square) -> f32 {
        let mut r = 0.0f32;
        for t in squares(self.covered) {
            let (f, rank) = ((t.index() / 8) as i32, (t.index() % 8) as i32);
            let s = Square::from_coords(f, rank).expect("on the board");
            let mut v = manhattan(k, s) as f32 / self.m[t.index()] as f32;
            v *= md(f, rank, o);
            r += v;
        }
        for (f, rank) in ring() {
            r += md(f, rank, o);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    #[test]
    fn fast_equals_plain_on_the_named_positions() {
        for text in [fen::STARTPOS, fen::ENDGAME] {
            let mut b = fen::parse(text).unwrap();
            let before = b.clone();
            for c in Color::BOTH {
                assert_eq!(
                    coverage(&mut b, c).to_bits(),
                    coverage_plain(&before, c).to_bits()
                );
            }
            assert_eq!(b, before);
        }
    }
}
