//! The oracle: EVAL.md's coverage sum written straight from the text, every
//! move's beam traced from scratch on a copied board. The fast version
//! (`super::coverage`) must give the same bits.

use crate::rules::board::Board;
use crate::rules::laser::bounce;
use crate::rules::movegen::generate_for;
use crate::rules::moves::MoveList;
use crate::rules::piece::Color;
use crate::rules::square::{Dir, Square};

/// `md(a, b)` for two coordinates (`a` may be on the one-square ring).
pub(super) fn md(af: i32, ar: i32, b: Square) -> f32 {
    if (af, ar) == (b.file(), b.rank()) {
        return 2.0;
    }
    let df = (af - b.file()).abs() as f32;
    let dr = (ar - b.rank()).abs() as f32;
    (1.0 / (df + 1.0)) * (1.0 / (dr + 1.0))
}

/// The ring squares in EVAL.md's order: rank −1 for files −1..8, rank 8 for
/// files −1..8, file −1 for ranks 0..7, file 8 for ranks 0..7.
pub(super) fn ring() -> impl Iterator<Item = (i32, i32)> {
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
