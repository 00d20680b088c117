//! Property tests of the fast laser coverage and the fast evaluation
//! against their plain oracles (EVAL.md "LCOVERAGE"), over random playouts.
//!
//! The playouts are tests/common/playout.rs's. Every position along the way
//! is checked, for both colours:
//!
//! - `coverage(b, c)` has the same `f32` bits as `coverage_plain(b, c)` and
//!   leaves `b` as it was (squares, side and key);
//! - `evaluate(b, &w)` gives the same `Terms` as `evaluate_plain(b, &w)` and
//!   leaves `b` as it was, with the default weights and with random
//!   weights within the UCI option ranges (drawn from the playout's seed and
//!   the ply, so they reproduce too).
//!
//! The same `Playout` always plays the same game and draws the same
//! weights. Failure messages name the FEN, the colour, both values with
//! their bits, and the moves that led there.
//!
//! Besides the quickcheck properties (random playouts each run), a fixed
//! sweep of seeded playouts runs every time, and checks that the playouts
//! reach what the properties need (deep games, bare Kings, the endgame).

use leiserchess::eval::{self, coverage, SideTerms, Terms, Weights};
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::game::Outcome;
use leiserchess::rules::piece::Color;
use quickcheck::{QuickCheck, TestResult};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::common::{playout, rng};

use playout::{at, panic_text, Playout, Start};
use rng::Rng;

/// A value in `lo..=hi`; one time in eight each, exactly `lo` or `hi`.
fn weight(rng: &mut Rng, lo: i32, hi: i32) -> i32 {
    match rng.below(8) {
        0 => lo,
        1 => hi,
        _ => lo + rng.below((hi - lo + 1) as usize) as i32,
    }
}

/// Plays the playout, calling `visit` on every position with the board and
/// the ply count, except the last board of a game ended by a King zap (it
/// has one King and is not a position to evaluate).
fn walk(p: &Playout, mut visit: impl FnMut(&Board, usize) -> Result<(), String>) -> TestResult {
    playout::walk(p, |game, _| match game.outcome() {
        Some(Outcome::KingZapped { .. }) => Ok(()),
        _ => visit(game.board(), game.moves().len()),
    })
}

// ---------------------------------------------------------------------------
// Failure messages

/// A value with its bits, for messages about bit-identical results.
fn bits(x: f32) -> String {
    format!("{x:?} (bits {:#010x})", x.to_bits())
}

/// Where two boards differ, for "the board changed" messages.
fn board_change(before: &Board, after: &Board) -> String {
    format!(
        "before: {} (key {:#018x})\n  after:  {} (key {:#018x}, computed {:#018x})",
        fen::to_fen(before),
        before.key(),
        fen::to_fen(after),
        after.key(),
        after.compute_key()
    )
}

// ---------------------------------------------------------------------------
// The fast versions under test

/// `coverage::coverage(b, c)`. The fast functions take the board as
/// `&mut Board` when they play moves on it in place, or `&Board` when they
/// work on a copy of its squares; a `&mut` binding passes as either, and
/// the properties check the board is unchanged in both cases.
fn fast_coverage(b: &mut Board, c: Color) -> f32 {
    coverage::coverage(b, c)
}

/// `eval::evaluate(b, w)`, the board passed as `fast_coverage` does.
fn fast_evaluate(b: &mut Board, w: &Weights) -> Terms {
    eval::evaluate(b, w)
}

// ---------------------------------------------------------------------------
// The checks of one position

/// `coverage` against `coverage_plain` for both colours, and the board
/// unchanged by `coverage`.
fn check_coverage(b0: &Board) -> Result<(), String> {
    for c in Color::BOTH {
        let plain = coverage::coverage_plain(b0, c);
        let mut b = b0.clone();
        let fast =
            catch_unwind(AssertUnwindSafe(|| fast_coverage(&mut b, c))).map_err(|panic| {
                at(
                    b0,
                    None,
                    format!(
                        "coverage({c:?}) panicked: {}; coverage_plain = {}",
                        panic_text(&*panic),
                        bits(plain)
                    ),
                )
            })?;
        if fast.to_bits() != plain.to_bits() {
            return Err(at(
                b0,
                None,
                format!(
                    "colour {c:?}: coverage = {}, coverage_plain = {}",
                    bits(fast),
                    bits(plain)
                ),
            ));
        }
        if b != *b0 {
            return Err(at(
                b0,
                None,
                format!(
                    "colour {c:?}: coverage changed the board\n  {}",
                    board_change(b0, &b)
                ),
            ));
        }
    }
    Ok(())
}

/// Random weights within the UCI option ranges.
fn random_weights(rng: &mut Rng) -> Weights {
    Weights {
        pcentral: weight(rng, -10000, 10000),
        pbetween: weight(rng, -10000, 10000),
        kface: weight(rng, 0, 30000),
        kaggressive: weight(rng, 0, 60000),
        lcoverage: weight(rng, 0, 10000),
        kshield: weight(rng, -10000, 10000),
        kfree: weight(rng, -10000, 10000),
        padvance: weight(rng, -10000, 10000),
    }
}

/// The weights a position is evaluated with: the defaults, then two random
/// sets drawn from the playout's seed and the ply.
fn weights_for(seed: u64, ply: usize) -> [Weights; 3] {
    let mut rng = Rng(seed ^ (ply as u64 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93));
    [
        Weights::default(),
        random_weights(&mut rng),
        random_weights(&mut rng),
    ]
}

/// `evaluate` against `evaluate_plain` with weights `w`, and the board
/// unchanged by `evaluate`.
fn check_evaluate(b0: &Board, w: &Weights) -> Result<(), String> {
    let plain = eval::evaluate_plain(b0, w);
    let mut b = b0.clone();
    let fast = catch_unwind(AssertUnwindSafe(|| fast_evaluate(&mut b, w))).map_err(|panic| {
        at(
            b0,
            None,
            format!(
                "evaluate panicked: {}\n  weights: {w:?}",
                panic_text(&*panic)
            ),
        )
    })?;
    if fast != plain {
        return Err(at(b0, None, eval_difference(b0, w, &fast, &plain)));
    }
    if b != *b0 {
        return Err(at(
            b0,
            None,
            format!(
                "evaluate changed the board\n  weights: {w:?}\n  {}",
                board_change(b0, &b)
            ),
        ));
    }
    Ok(())
}

/// Names the first colour whose terms differ, both sides' terms, and that
/// colour's coverage sums (fast and plain, with bits).
fn eval_difference(b0: &Board, w: &Weights, fast: &Terms, plain: &Terms) -> String {
    let side = |t: &SideTerms| format!("{t:?} total {}", t.total());
    let mut msg = format!("evaluate differs from evaluate_plain\n  weights: {w:?}");
    if fast.to_move != plain.to_move {
        msg += &format!(
            "\n  to_move: evaluate {:?}, evaluate_plain {:?}",
            fast.to_move, plain.to_move
        );
    }
    for c in Color::BOTH {
        let (f, p) = (&fast.sides[c.index()], &plain.sides[c.index()]);
        if f == p {
            continue;
        }
        let fast_r = fast_coverage(&mut b0.clone(), c);
        let plain_r = coverage::coverage_plain(b0, c);
        msg += &format!(
            "\n  colour {c:?}:\n    evaluate:       {}\n    evaluate_plain: {}\n    \
             coverage = {}, coverage_plain = {}",
            side(f),
            side(p),
            bits(fast_r),
            bits(plain_r)
        );
    }
    msg += &format!(
        "\n  score_ev: evaluate {}, evaluate_plain {}",
        fast.score_ev(),
        plain.score_ev()
    );
    msg
}

fn check_all_weights(b0: &Board, seed: u64, ply: usize) -> Result<(), String> {
    for w in weights_for(seed, ply) {
        check_evaluate(b0, &w)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The properties

fn coverage_matches(p: Playout) -> TestResult {
    walk(&p, |b, _| check_coverage(b))
}

fn evaluate_matches(p: Playout) -> TestResult {
    walk(&p, |b, ply| check_all_weights(b, p.seed, ply))
}

fn run(tests: u64, prop: fn(Playout) -> TestResult) {
    QuickCheck::new()
        .tests(tests)
        .max_tests(10 * tests)
        .quickcheck(prop);
}

#[test]
fn fast_coverage_equals_plain_coverage() {
    run(1000, coverage_matches);
}

#[test]
fn fast_evaluate_equals_plain_evaluate() {
    run(600, evaluate_matches);
}

// ---------------------------------------------------------------------------
// A fixed sweep, the same every run

/// Seeded playouts: short ones, deep ones from the start at every zap bias
/// (the strong biases reach bare Kings, then play on until the no-zap
/// draw), and some from the endgame.
fn sweep() -> Vec<Playout> {
    let mut rng = Rng(0xc0fe_4a6e_5eed);
    (0..SWEEP)
        .map(|i| {
            let (plies, zap_bias) =
                [(12, 0), (60, 2), (400, 0), (400, 1), (400, 4), (400, 8)][i % 6];
            Playout {
                seed: rng.next(),
                plies,
                start: if i % 10 == 9 {
                    Start::Endgame
                } else {
                    Start::Startpos
                },
                zap_bias,
            }
        })
        .collect()
}

const SWEEP: usize = 300;

#[test]
fn fixed_playouts_agree_and_reach_bare_kings() {
    let (mut positions, mut deep, mut bare, mut endgame) = (0, 0, 0, 0);
    for p in sweep() {
        let (mut plies, mut least) = (0, u32::MAX);
        let r = walk(&p, |b, ply| {
            positions += 1;
            plies = ply;
            least = least.min(b.occupied().count_ones());
            check_coverage(b)?;
            check_all_weights(b, p.seed, ply)
        });
        assert!(!r.is_failure(), "{p:?}: {r:?}");
        deep += usize::from(plies >= 200);
        bare += usize::from(p.start == Start::Startpos && least == 2);
        endgame += usize::from(p.start == Start::Endgame && plies > 0);
    }
    assert!(deep >= 8, "{deep} playouts of 200+ plies");
    assert!(
        bare >= 5,
        "{bare} playouts from the start down to bare Kings"
    );
    assert!(endgame >= 3, "{endgame} playouts from the endgame");
    assert!(positions >= 5000, "only {positions} positions checked");
}
