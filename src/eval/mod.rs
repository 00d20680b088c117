//! The reference static evaluation (EVAL.md), exact to the integer: per-piece
//! terms plus laser coverage, per side, in "ev" (a Pawn is 10000 ev); and
//! terms of our own, fitted to self-play data, that the reference does not
//! have (0 in [`Weights::REFERENCE`]): `kshield`, per own Pawn next to the
//! King; `kfree`, per empty square next to the King; `padvance`, per rank
//! the own Pawns stand from their side's back rank, over 7.
//!
//! `evaluate` uses the fast coverage of `coverage`; `evaluate_plain` the
//! oracle written straight from EVAL.md. Both give the same `Terms`. The
//! weights are declared once, with their UCI names and ranges, in
//! [`WEIGHTS`]; `bench` is the `evalbench` workload.

pub mod bench;
pub mod coverage;
pub mod evaluator;
pub mod logistic;
pub mod nnue;
pub mod policy;
pub mod wdl;

use crate::declaration::{self, number_field, Declaration};
use crate::rules::bitboard::squares;
use crate::rules::board::Board;
use crate::rules::piece::Color;
use crate::rules::square::Square;

/// The evaluation weights, declared once in [`WEIGHTS`]: defaults fitted to
/// self-play by `leiserchess tune` and accepted by an SPRT (BENCHMARKS.md); [`Weights::REFERENCE`] are EVAL.md's, with
/// which the evaluation equals the reference engine's. (EVAL.md's
/// `mobility` weight is not offered: the reference evaluation does not use
/// it.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights {
    pub pcentral: i32,
    pub pbetween: i32,
    pub kface: i32,
    pub kaggressive: i32,
    pub lcoverage: i32,
    pub kshield: i32,
    pub kfree: i32,
    pub padvance: i32,
}

/// Every weight as a UCI option: name, default, range, field.
pub const WEIGHTS: &[Declaration<Weights>] = &[
    Declaration::spin(
        "pcentral",
        -1707,
        -10000,
        10000,
        number_field!(pcentral),
        "Weight (ev): a Pawn's closeness to the centre (EVAL.md PCENTRAL)",
    ),
    Declaration::spin(
        "pbetween",
        2805,
        -10000,
        10000,
        number_field!(pbetween),
        "Weight (ev): a Pawn in the rectangle the two Kings span (EVAL.md PBETWEEN)",
    ),
    Declaration::spin(
        "kface",
        18779,
        0,
        30000,
        number_field!(kface),
        "Weight (ev): a King facing towards the enemy King (EVAL.md KFACE)",
    ),
    Declaration::spin(
        "kaggressive",
        1336,
        0,
        60000,
        number_field!(kaggressive),
        "Weight (ev): a King's room away from the enemy King (EVAL.md KAGGRESSIVE)",
    ),
    Declaration::spin(
        "lcoverage",
        2119,
        0,
        10000,
        number_field!(lcoverage),
        "Weight (ev): laser paths a ply ahead near the enemy King (EVAL.md LCOVERAGE)",
    ),
    Declaration::spin(
        "kshield",
        1827,
        -10000,
        10000,
        number_field!(kshield),
        "Weight (ev): each own Pawn next to the King (ours, not EVAL.md's)",
    ),
    Declaration::spin(
        "kfree",
        1315,
        -10000,
        10000,
        number_field!(kfree),
        "Weight (ev): each empty square next to the King (ours)",
    ),
    Declaration::spin(
        "padvance",
        435,
        -10000,
        10000,
        number_field!(padvance),
        "Weight (ev): how far the own Pawns stand from their back rank (ours)",
    ),
];

impl Weights {
    /// EVAL.md's weights: the reference engine's evaluation, exactly.
    pub const REFERENCE: Weights = Weights {
        pcentral: 500,
        pbetween: 250,
        kface: 5000,
        kaggressive: 26000,
        lcoverage: 1600,
        kshield: 0,
        kfree: 0,
        padvance: 0,
    };
}

impl Default for Weights {
    fn default() -> Self {
        let zero = Weights {
            pcentral: 0,
            pbetween: 0,
            kface: 0,
            kaggressive: 0,
            lcoverage: 0,
            kshield: 0,
            kfree: 0,
            padvance: 0,
        };
        declaration::defaults(zero, WEIGHTS)
    }
}

/// One side's evaluation terms, in ev.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SideTerms {
    pub material: i32,
    pub pbetween: i32,
    pub pcentral: i32,
    pub kface: i32,
    pub kaggressive: i32,
    pub lcoverage: i32,
    pub kshield: i32,
    pub kfree: i32,
    pub padvance: i32,
}

impl SideTerms {
    pub fn total(&self) -> i32 {
        self.material
            + self.pbetween
            + self.pcentral
            + self.kface
            + self.kaggressive
            + self.lcoverage
            + self.kshield
            + self.kfree
            + self.padvance
    }

    /// The terms by name, in the order the `eval` command prints them.
    pub fn named(&self) -> [(&'static str, i32); 9] {
        [
            ("material", self.material),
            ("pbetween", self.pbetween),
            ("pcentral", self.pcentral),
            ("kface", self.kface),
            ("kaggressive", self.kaggressive),
            ("lcoverage", self.lcoverage),
            ("kshield", self.kshield),
            ("kfree", self.kfree),
            ("padvance", self.padvance),
        ]
    }
}

/// Both sides' terms and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Terms {
    pub sides: [SideTerms; 2],
    pub to_move: Color,
}

impl Terms {
    /// White's total minus Black's, from the side to move's view, in ev.
    pub fn score_ev(&self) -> i32 {
        let tot = self.sides[0].total() - self.sides[1].total();
        match self.to_move {
            Color::White => tot,
            Color::Black => -tot,
        }
    }

    /// The score in centipawns (ev / 100, truncated toward zero).
    pub fn score_cp(&self) -> i32 {
        self.score_ev() / 100
    }
}

/// The static evaluation with the fast laser coverage.
pub fn evaluate(b: &Board, w: &Weights) -> Terms {
    let mut terms = piece_terms(b, w);
    let r = coverage::coverage_both(b);
    for c in Color::BOTH {
        terms.sides[c.index()].lcoverage = coverage_term(w, r[c.index()]);
    }
    terms
}

/// The static evaluation with the plain coverage oracle.
pub fn evaluate_plain(b: &Board, w: &Weights) -> Terms {
    let mut terms = piece_terms(b, w);
    for c in Color::BOTH {
        terms.sides[c.index()].lcoverage = coverage_term(w, coverage::coverage_plain(b, c));
    }
    terms
}

/// `trunc(float(lcoverage) × R)`, all in `f32`.
fn coverage_term(w: &Weights, r: f32) -> i32 {
    (w.lcoverage as f32 * r) as i32
}

/// Every term but laser coverage.
fn piece_terms(b: &Board, w: &Weights) -> Terms {
    let mut sides = [SideTerms::default(); 2];
    let kings = [b.king(Color::White), b.king(Color::Black)];
    let between = between_kings(kings[0], kings[1]);
    let pcentral = &*PCENTRAL;
    for c in Color::BOTH {
        let t = &mut sides[c.index()];
        let (k, o) = (kings[c.index()], kings[c.opp().index()]);
        let pawns = b.pieces(c) & !k.bit();
        t.material = 10000 * pawns.count_ones() as i32;
        t.pbetween = w.pbetween * (pawns & between).count_ones() as i32;
        let mut advance = 0;
        for s in squares(pawns) {
            t.pcentral += (w.pcentral as f64 * pcentral[s.index()]) as i32;
            advance += match c {
                Color::White => s.rank(),
                Color::Black => 7 - s.rank(),
            };
        }
        t.padvance = w.padvance * advance / 7;
        let ring = RING[k.index()];
        t.kshield = w.kshield * (pawns & ring).count_ones() as i32;
        t.kfree = w.kfree * (ring & !b.occupied()).count_ones() as i32;
        if let Some(king) = b.piece_at(k) {
            t.kface = kface(k, king.ori(), o, w.kface);
            t.kaggressive = kaggressive(k, o, w.kaggressive);
        }
    }
    Terms {
        sides,
        to_move: b.side(),
    }
}

/// The squares whose file and rank both lie between the Kings' (inclusive).
fn between_kings(a: Square, b: Square) -> u64 {
    let span = |x: i32, y: i32| (x.min(y)..=x.max(y)).fold(0u64, |m, i| m | 1 << i);
    let files = span(a.file(), b.file()) * 0x0101_0101_0101_0101;
    let ranks = span(a.rank(), b.rank());
    let ranks = (0..8)
        .filter(|r| ranks & 1 << r != 0)
        .fold(0u64, |m, r| m | 0xff << (8 * r));
    files & ranks
}

/// The squares one king step from each square.
const RING: [u64; 64] = ring();

const fn ring() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let s = Square::new(i as u8);
        let mut j = 0;
        while j < 64 {
            let t = Square::new(j as u8);
            let (df, dr) = ((t.file() - s.file()).abs(), (t.rank() - s.rank()).abs());
            if (if df > dr { df } else { dr }) == 1 {
                out[i] |= t.bit();
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// `pcentral_bonus` of every square, computed once.
static PCENTRAL: std::sync::LazyLock<[f64; 64]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|i| pcentral_bonus(Square::new(i as u8))));

/// `1 - sqrt(df² + dr²) / (8 / sqrt(2))` in double precision.
fn pcentral_bonus(s: Square) -> f64 {
    let dist = |x: i32| if 3 - x >= 0 { 3 - x } else { x - 4 } as f64;
    let (df, dr) = (dist(s.file()), dist(s.rank()));
    1.0 - (df * df + dr * dr).sqrt() / (8.0 / 2f64.sqrt())
}

fn kface(k: Square, ori: u8, o: Square, weight: i32) -> i32 {
    let (df, dr) = (o.file() - k.file(), o.rank() - k.rank());
    let b = match ori {
        0 => dr,
        1 => df,
        2 => -dr,
        _ => -df,
    };
    (b * weight) / (dr.abs() + df.abs())
}

fn kaggressive(k: Square, o: Square, weight: i32) -> i32 {
    let (f, r) = (k.file(), k.rank());
    let (df, dr) = (o.file() - f, o.rank() - r);
    let b = if df >= 0 && dr >= 0 {
        (f + 1) * (r + 1)
    } else if df <= 0 && dr >= 0 {
        (8 - f) * (r + 1)
    } else if df <= 0 && dr <= 0 {
        (8 - f) * (8 - r)
    } else {
        (f + 1) * (8 - r)
    };
    (weight * b) / 64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;

    #[test]
    fn pcentral_is_largest_in_the_centre() {
        let centre = pcentral_bonus(Square::parse(b"d3").unwrap());
        let corner = pcentral_bonus(Square::parse(b"a0").unwrap());
        assert_eq!(centre, 1.0);
        assert!(corner > 0.0 && corner < centre);
    }

    #[test]
    fn king_ring_and_pawn_terms() {
        // Tangerine: King d2, a Pawn on e3 beside it (7 empty neighbours)
        // and one on f4 two squares away, 3 and 4 ranks from the back.
        // Lavender: King a7 alone.
        let b = fen::parse("ss7/8/8/5NW2/4NW3/3NN4/8/8 W").unwrap();
        let w = Weights {
            kshield: 700,
            kfree: 100,
            padvance: 70,
            ..Weights::REFERENCE
        };
        let [white, black] = evaluate(&b, &w).sides;
        let ours = |t: SideTerms| [t.kshield, t.kfree, t.padvance];
        assert_eq!(ours(white), [700, 700, 70]);
        assert_eq!(ours(black), [0, 300, 0]);
        // A Lavender Pawn counts its ranks down from rank 7.
        let b = fen::parse("ss7/8/8/8/8/8/1nw6/7NN W").unwrap();
        assert_eq!(evaluate(&b, &w).sides[1].padvance, 60);
        assert_eq!(ours(evaluate(&b, &Weights::REFERENCE).sides[1]), [0; 3]);
    }

    #[test]
    fn kings_facing_each_other_score_kface() {
        // a0 King facing north at an enemy King on a7: b = 7, distance 7.
        let b = fen::parse("ss7/8/8/8/8/8/8/NN7 W").unwrap();
        let t = evaluate_plain(&b, &Weights::REFERENCE);
        assert_eq!(t.sides[0].kface, 5000);
        assert_eq!(t.sides[1].kface, 5000);
    }
}
