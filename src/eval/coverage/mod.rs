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
//! played in place on a byte copy of the board and undone, is traced only
//! from the first beam square it changes. Distance weights come from tables
//! built at compile time. Both give the same bits.

use crate::rules::bitboard::{first_blocker, squares, NEIGHBOURS, RAYS};
use crate::rules::board::Board;
use crate::rules::laser::bounce;
use crate::rules::movegen::for_each_move_touching;
use crate::rules::piece::{Color, Piece, Rot};
use crate::rules::square::{Dir, Square};

mod plain;
pub use plain::coverage_plain;

/// The fast coverage sum for side `c`: bit-identical to `coverage_plain`.
pub fn coverage(b: &Board, c: Color) -> f32 {
    lengths(b, c).sum(b.king(c), b.king(c.opp()))
}

/// `[coverage(b, White), coverage(b, Black)]`, the two sums interleaved:
/// each is a long chain of dependent `f32` additions, and two chains run
/// side by side in about the time of one.
pub fn coverage_both(b: &Board) -> [f32; 2] {
    let (w, k) = (lengths(b, Color::White), lengths(b, Color::Black));
    let (kw, kb) = (b.king(Color::White), b.king(Color::Black));
    let mut tw = squares(transpose(w.covered));
    let mut tb = squares(transpose(k.covered));
    let (mut rw, mut rb) = (0.0f32, 0.0f32);
    loop {
        match (tw.next(), tb.next()) {
            (None, None) => break,
            (x, y) => {
                if let Some(t) = x {
                    rw += w.term(t.index(), kw, kb);
                }
                if let Some(t) = y {
                    rb += k.term(t.index(), kb, kw);
                }
            }
        }
    }
    for (x, y) in RING[kb.index()].iter().zip(&RING[kw.index()]) {
        rw += x;
        rb += y;
    }
    [rw, rb]
}

/// The map `M` of side `c`'s coverage on the board, by square index: the
/// shortest beam length reaching each square over all of `c`'s moves, or
/// `u16::MAX` where no beam reaches. (What `coverage` sums; for `dump`.)
pub fn coverage_map(b: &Board, c: Color) -> [u16; 64] {
    lengths(b, c).m
}

/// `dump coverage`: each side's map `M` as an 8×8 grid (rank 7 on top,
/// `.` where no beam reaches) and its coverage sum, fast and oracle.
#[cfg(feature = "debug-commands")]
pub fn dump(b: &Board) -> String {
    use std::fmt::Write;
    let mut t = String::new();
    for c in Color::BOTH {
        let m = coverage_map(b, c);
        let _ = writeln!(t, "{c:?} coverage map M (min beam length):");
        let _ = writeln!(t, "     a   b   c   d   e   f   g   h");
        for rank in (0..8).rev() {
            let mut row = format!("{rank} ");
            for file in 0..8 {
                let s = Square::from_coords(file, rank).expect("on the board");
                match m[s.index()] {
                    u16::MAX => row.push_str("   ."),
                    l => {
                        let _ = write!(row, "{l:>4}");
                    }
                }
            }
            let _ = writeln!(t, "{row}");
        }
        let covered = m.iter().filter(|&&l| l != u16::MAX).count();
        let _ = writeln!(
            t,
            "{c:?} coverage sum {} (oracle {}), {covered} squares covered",
            coverage(b, c),
            coverage_plain(b, c)
        );
    }
    t
}

/// The map `M` of side `c`'s coverage.
fn lengths(b: &Board, c: Color) -> Lengths {
    let k = b.king(c);
    let occ = b.occupied();
    // The board's bytes: moves are played on them in place and undone.
    let mut cells = *b.squares();
    let base = Beam::trace(&cells, occ, c, k);
    let mut lengths = Lengths::new();
    let own = b.pieces(c);
    let guard = base.squares | k.bit();
    // A piece off the beam and not the King can turn without touching the
    // beam: then some move fires the unchanged board's beam.
    let base_used = own & !guard != 0;
    let mut prefix = 0;
    let enemy = b.pieces(c.opp());
    // Every King move fires a new beam from where the King lands. Only the
    // squares the beam can meet matter: a square it starts from, it meets
    // again only by coming back to the King, and stops there either way.
    if let Some(king) = cells[k.index()] {
        let d = Dir::from_index(king.ori());
        turns(&cells, occ, c, k, king, &mut lengths);
        for to in squares(NEIGHBOURS[k.index()] & !occ) {
            let walk = Walk { at: to, d, l: 1 };
            walk.run(&cells, occ ^ k.bit() ^ to.bit(), c, lengths.sink());
        }
        // Swaps: the enemy piece goes to the King's square, the King turns
        // on the swapped square or steps on to an empty neighbour of it.
        for x in squares(NEIGHBOURS[k.index()] & enemy) {
            let swapped = cells[x.index()];
            cells[k.index()] = swapped;
            cells[x.index()] = Some(king);
            turns(&cells, occ, c, x, king, &mut lengths);
            cells[x.index()] = None;
            for to in squares(NEIGHBOURS[x.index()] & !occ) {
                cells[to.index()] = Some(king);
                let walk = Walk { at: to, d, l: 1 };
                walk.run(&cells, occ ^ x.bit() ^ to.bit(), c, lengths.sink());
                cells[to.index()] = None;
            }
            cells[x.index()] = swapped;
            cells[k.index()] = Some(king);
        }
    }
    // The Pawns' moves that change a square of the beam: played in place,
    // traced from the first beam square they change.
    for_each_move_touching(own & !k.bit(), own, enemy, base.squares, |m, fp| {
        let occ2 = occ ^ fp.own_flip ^ fp.opp_flip;
        let g = m.geometry().expect("generated moves stay on the board");
        g.place(&mut cells);
        let s = squares(fp.touched & base.squares)
            .min_by_key(|s| base.first[s.index()])
            .expect("the move touches the beam");
        prefix = prefix.max(base.first[s.index()]);
        base.walk_to(s).run(&cells, occ2, c, lengths.sink());
        g.unplace(&mut cells);
    });
    // Every retraced beam shares a prefix with the unchanged board's beam:
    // apply the longest prefix needed, once.
    let upto = if base_used { u16::MAX } else { prefix };
    for s in squares(base.squares) {
        if base.first[s.index()] < upto {
            lengths.lower(s.index(), base.l[s.index()]);
        }
    }
    lengths
}

/// The beams of the King `king` turned on square `at` by each rotation.
#[inline(always)]
fn turns(
    cells: &[Option<Piece>; 64],
    occ: u64,
    c: Color,
    at: Square,
    king: Piece,
    lengths: &mut Lengths,
) {
    for r in Rot::ALL {
        let d = Dir::from_index(king.ori() + r.turns());
        Walk { at, d, l: 1 }.run(cells, occ, c, lengths.sink());
    }
}

/// A beam about to leave square `at` in direction `d`, the next square
/// getting length `l`.
#[derive(Clone, Copy)]
struct Walk {
    at: Square,
    d: Dir,
    l: u16,
}

impl Walk {
    /// Follows the beam to its end on the board `cells` (occupancy `occ`),
    /// calling `visit(square, direction, length)` for every square it
    /// enters. Jumps from piece to piece along precomputed rays; the empty
    /// squares between get consecutive lengths.
    #[inline(always)]
    fn run(
        mut self,
        cells: &[Option<Piece>; 64],
        occ: u64,
        c: Color,
        mut visit: impl FnMut(usize, Dir, u16),
    ) {
        loop {
            let ray = RAYS[self.d as usize][self.at.index()];
            let hit = first_blocker(occ, self.at, self.d);
            let segment = match hit {
                Some(h) => ray & !RAYS[self.d as usize][h.index()],
                None => ray,
            };
            let step = STEP_DELTA[self.d as usize];
            let mut s = self.at.index() as isize;
            for _ in 0..segment.count_ones() {
                s += step;
                visit(s as usize, self.d, self.l);
                self.l += 1;
            }
            let Some(h) = hit else { return };
            let Some(p) = cells[h.index()] else { return };
            match bounce(self.d, p) {
                Some(next) => {
                    if p.color() != c {
                        self.l += 2;
                    }
                    self.at = h;
                    self.d = next;
                }
                None => return,
            }
        }
    }
}

/// Index step of one square in each laser direction (N, E, S, W).
const STEP_DELTA: [isize; 4] = [8, 1, -8, -1];

/// The unchanged board's beam, by square: the squares it crosses, and for
/// each the step at which it first enters (0 for the first square), the
/// direction it enters in and its length there. A beam's later visits to a
/// square have greater lengths, so the first visit is all the map needs.
struct Beam {
    first: [u16; 64],
    dir: [Dir; 64],
    l: [u16; 64],
    squares: u64,
}

impl Beam {
    fn trace(cells: &[Option<Piece>; 64], occ: u64, c: Color, k: Square) -> Beam {
        let mut beam = Beam {
            first: [0; 64],
            dir: [Dir::N; 64],
            l: [0; 64],
            squares: 0,
        };
        let Some(king) = cells[k.index()] else {
            return beam;
        };
        let mut steps = 0u16;
        let walk = Walk {
            at: k,
            d: Dir::from_index(king.ori()),
            l: 1,
        };
        walk.run(cells, occ, c, |s, d, l| {
            if beam.squares & 1 << s == 0 {
                beam.squares |= 1 << s;
                beam.first[s] = steps;
                beam.dir[s] = d;
                beam.l[s] = l;
            }
            steps += 1;
        });
        beam
    }

    /// The walk that enters square `s` as this beam first does.
    fn walk_to(&self, s: Square) -> Walk {
        let d = self.dir[s.index()];
        let at = (s.index() as isize - STEP_DELTA[d as usize]) as u8;
        Walk {
            at: Square::new(at),
            d,
            l: self.l[s.index()],
        }
    }
}

/// `md(s, o)` for every on-board square `s`, indexed `[o][file * 8 + rank]`.
static MD: [[f32; 64]; 64] = md_table();
/// `md(x, o)` for the ring squares `x` in EVAL.md's order, indexed `[o][i]`.
static RING: [[f32; 36]; 64] = ring_table();

const fn md_const(af: i32, ar: i32, o: usize) -> f32 {
    let (of, or) = ((o % 8) as i32, (o / 8) as i32);
    if af == of && ar == or {
        return 2.0;
    }
    let df = (af - of).abs() as f32;
    let dr = (ar - or).abs() as f32;
    (1.0 / (df + 1.0)) * (1.0 / (dr + 1.0))
}

const fn md_table() -> [[f32; 64]; 64] {
    let mut t = [[0.0; 64]; 64];
    let mut o = 0;
    while o < 64 {
        let mut i = 0;
        while i < 64 {
            t[o][i] = md_const((i / 8) as i32, (i % 8) as i32, o);
            i += 1;
        }
        o += 1;
    }
    t
}

const fn ring_table() -> [[f32; 36]; 64] {
    let mut t = [[0.0; 36]; 64];
    let mut o = 0;
    while o < 64 {
        let mut i = 0;
        while i < 36 {
            let (f, r) = match i {
                0..=9 => (i as i32 - 1, -1),
                10..=19 => (i as i32 - 11, 8),
                20..=27 => (-1, i as i32 - 20),
                _ => (8, i as i32 - 28),
            };
            t[o][i] = md_const(f, r, o);
            i += 1;
        }
        o += 1;
    }
    t
}

/// The map `M` restricted to the board (ring values never matter), as
/// integer lengths by square, and the squares it covers.
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

    /// `lower` as a walk's visitor.
    fn sink(&mut self) -> impl FnMut(usize, Dir, u16) + '_ {
        move |s, _, l| self.lower(s, l)
    }

    #[inline(always)]
    fn lower(&mut self, s: usize, l: u16) {
        self.m[s] = self.m[s].min(l);
        self.covered |= 1 << s;
    }

    /// EVAL.md steps 3 and 4 for King square `k` and enemy King `o`: the
    /// covered squares file by file (the transposed bitboard's order).
    fn sum(&self, k: Square, o: Square) -> f32 {
        let mut r = 0.0f32;
        for t in squares(transpose(self.covered)) {
            r += self.term(t.index(), k, o);
        }
        for x in RING[o.index()] {
            r += x;
        }
        r
    }

    /// `manhattan(k, s) / M[s] × md(s, o)` for the square with transposed
    /// index `t`.
    #[inline(always)]
    fn term(&self, t: usize, k: Square, o: Square) -> f32 {
        let s = TRANSPOSED[t] as usize;
        let v = MANHATTAN[k.index()][s] as f32 / self.m[s] as f32;
        v * MD[o.index()][t]
    }
}

/// `MANHATTAN[a][b]`: the Manhattan distance between squares `a` and `b`.
static MANHATTAN: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            t[a][b] = ((a % 8) as i32 - (b % 8) as i32).unsigned_abs() as u8
                + ((a / 8) as i32 - (b / 8) as i32).unsigned_abs() as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// `file * 8 + rank` for each square `rank * 8 + file`, and back.
static TRANSPOSED: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = ((s % 8) * 8 + s / 8) as u8;
        s += 1;
    }
    t
};

/// Mirrors a bitboard in the a0–h7 diagonal: bit `rank * 8 + file` moves to
/// `file * 8 + rank`.
fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::plain::{md, ring};
    use super::*;
    use crate::rules::fen;

    #[test]
    fn fast_equals_plain_on_the_named_positions() {
        for text in [fen::STARTPOS, fen::ENDGAME] {
            let b = fen::parse(text).unwrap();
            for c in Color::BOTH {
                assert_eq!(coverage(&b, c).to_bits(), coverage_plain(&b, c).to_bits());
            }
        }
    }

    #[test]
    fn transpose_swaps_file_and_rank() {
        for s in Square::all() {
            let t = TRANSPOSED[s.index()];
            assert_eq!(transpose(s.bit()), 1u64 << t, "{s}");
            assert_eq!(TRANSPOSED[t as usize] as usize, s.index());
        }
    }

    #[test]
    fn tables_match_the_formula() {
        for o in Square::all() {
            for s in Square::all() {
                let t = TRANSPOSED[s.index()] as usize;
                assert_eq!(
                    MD[o.index()][t].to_bits(),
                    md(s.file(), s.rank(), o).to_bits()
                );
            }
            for (i, (f, r)) in ring().enumerate() {
                assert_eq!(RING[o.index()][i].to_bits(), md(f, r, o).to_bits());
            }
        }
    }

    #[test]
    fn the_map_is_what_the_sum_adds_up() {
        // Only `M` of the squares the map covers enters the sum: a square
        // is covered exactly when the map has a length for it.
        for text in [fen::STARTPOS, fen::ENDGAME] {
            let b = fen::parse(text).unwrap();
            for c in Color::BOTH {
                let l = lengths(&b, c);
                assert_eq!(coverage_map(&b, c), l.m);
                for s in Square::all() {
                    assert_eq!(l.m[s.index()] != u16::MAX, l.covered & s.bit() != 0);
                }
            }
        }
    }

    #[cfg(feature = "debug-commands")]
    #[test]
    fn the_dump_has_both_grids_and_sums() {
        let b = fen::parse(fen::ENDGAME).unwrap();
        let d = dump(&b);
        assert_eq!(d.matches("coverage map M").count(), 2, "{d}");
        let sum = format!("White coverage sum {} (oracle", coverage(&b, Color::White));
        assert!(d.contains(&sum), "{d}");
    }
}
