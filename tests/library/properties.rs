//! Property tests over random playouts (tests/common/playout.rs): every
//! position of a playout is checked, and a failure message names the FEN,
//! the move, and the moves of the playout that led there.

use leiserchess::check_rep::CheckRep;
use leiserchess::rules::board::Board;
use leiserchess::rules::fen::{self, FenError};
use leiserchess::rules::game::{Game, MoveError, Outcome};
use leiserchess::rules::laser::{self, Shots};
use leiserchess::rules::movegen;
use leiserchess::rules::moves::{Move, MoveList};
use leiserchess::rules::perft;
use leiserchess::rules::piece::{Color, Kind};
use quickcheck::{QuickCheck, TestResult};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::common::{playout, rng};

use playout::{at, panic_text, Playout, Start};
use rng::Rng;

// ---------------------------------------------------------------------------
// Playouts, visited

/// The position at one point of a playout: the game, and every board of
/// the game so far (`boards[i]` after `i` plies; the last is the current).
struct Visit<'a> {
    game: &'a mut Game,
    boards: &'a [Board],
}

impl Visit<'_> {
    fn board(&self) -> &Board {
        self.game.board()
    }

    /// Whether the game ended with a King zap (the board then has one King
    /// and may only be unmade).
    fn king_zapped(&self) -> bool {
        matches!(self.game.outcome(), Some(Outcome::KingZapped { .. }))
    }

    /// A failure of the current position, blamed on the last move: names
    /// the position before it, the move, and the position after it.
    fn fail_last(&self, what: impl fmt::Display) -> String {
        let now = fen::to_fen(self.board());
        match (self.game.moves().last(), self.boards.len().checked_sub(2)) {
            (Some(&m), Some(i)) => at(&self.boards[i], Some(m), format!("{what}\n  after: {now}")),
            _ => at(self.board(), None, what),
        }
    }
}

/// Fails with `Visit::fail_last` unless `cond` holds.
macro_rules! ensure_last {
    ($cond:expr, $v:expr, $($what:tt)+) => {
        if !$cond {
            return Err($v.fail_last(format!($($what)+)));
        }
    };
}

/// `playout::walk` with the position as a `Visit`.
fn walk(p: &Playout, mut visit: impl FnMut(&mut Visit) -> Result<(), String>) -> TestResult {
    playout::walk(p, |game, boards| visit(&mut Visit { game, boards }))
}

// ---------------------------------------------------------------------------
// Failure messages

/// Fails with the position and the move unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $b:expr, $m:expr, $($what:tt)+) => {
        if !$cond {
            return Err(at($b, $m, format!($($what)+)));
        }
    };
}

/// Runs a check of move `m` of `b`, turning a panic into a failure that
/// names the position and the move.
fn per_move(b: &Board, m: Move, check: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(check)) {
        Ok(r) => r,
        Err(p) => Err(at(b, Some(m), format!("panicked: {}", panic_text(&*p)))),
    }
}

fn generated(b: &Board) -> Vec<Move> {
    let mut list = MoveList::new();
    movegen::generate(b, &mut list);
    list.iter().collect()
}

fn run(tests: u64, prop: fn(Playout) -> TestResult) {
    QuickCheck::new()
        .tests(tests)
        .max_tests(10 * tests)
        .quickcheck(prop);
}

// ---------------------------------------------------------------------------
// 1. make / unmake and place / unplace

fn make_unmake(p: Playout) -> TestResult {
    walk(&p, |v| {
        if v.king_zapped() {
            return Ok(());
        }
        let b0 = v.board().clone();
        let side = b0.side();
        let pieces = b0.occupied().count_ones();
        for m in generated(&b0) {
            per_move(&b0, m, || {
                let mut b = b0.clone();
                b.place(m);
                ensure!(
                    b.key() == b.compute_key(),
                    &b0,
                    Some(m),
                    "key wrong after place"
                );
                ensure!(b.side() == side, &b0, Some(m), "place changed the side");
                ensure!(
                    b.occupied().count_ones() == pieces,
                    &b0,
                    Some(m),
                    "place lost a piece"
                );
                let shot = laser::target_plain(&b, side);
                let shot_piece = shot.and_then(|s| b.piece_at(s));
                b.unplace(m);
                ensure!(
                    b == b0,
                    &b0,
                    Some(m),
                    "unplace does not undo place: {}",
                    fen::to_fen(&b)
                );

                let undo = b.make(m);
                ensure!(
                    b.key() == b.compute_key(),
                    &b0,
                    Some(m),
                    "key wrong after make"
                );
                ensure!(
                    b.side() == side.opp(),
                    &b0,
                    Some(m),
                    "make did not change the side"
                );
                ensure!(
                    undo.zapped.map(|(s, _)| s) == shot,
                    &b0,
                    Some(m),
                    "make zapped {:?}, the laser hits {:?}",
                    undo.zapped,
                    shot
                );
                let lost = u32::from(undo.zapped.is_some());
                ensure!(
                    b.occupied().count_ones() + lost == pieces,
                    &b0,
                    Some(m),
                    "make removed the wrong number of pieces"
                );
                if let Some((s, piece)) = undo.zapped {
                    ensure!(
                        shot_piece == Some(piece),
                        &b0,
                        Some(m),
                        "make zapped {piece} on {s}, the laser hits {shot_piece:?}"
                    );
                    ensure!(
                        b.piece_at(s).is_none(),
                        &b0,
                        Some(m),
                        "zapped piece {piece} still on {s}"
                    );
                }
                if undo.king_zapped() {
                    let loser = undo.zapped.expect("a King was zapped").1.color();
                    ensure!(!b.has_king(loser), &b0, Some(m), "zapped King still there");
                    ensure!(
                        b.has_king(loser.opp()),
                        &b0,
                        Some(m),
                        "the other King is gone"
                    );
                } else {
                    let r = b.check_rep();
                    ensure!(
                        r.is_ok(),
                        &b0,
                        Some(m),
                        "board inconsistent after make: {r:?}"
                    );
                }
                b.unmake(m, undo);
                ensure!(
                    b == b0,
                    &b0,
                    Some(m),
                    "unmake does not undo make: {}",
                    fen::to_fen(&b)
                );
                Ok(())
            })?;
        }
        Ok(())
    })
}

#[test]
fn make_unmake_and_place_unplace_round_trip() {
    run(400, make_unmake);
}

// ---------------------------------------------------------------------------
// 2. The incremental key along the game

fn incremental_key(p: Playout) -> TestResult {
    walk(&p, |v| {
        let b = v.board();
        ensure_last!(
            b.key() == b.compute_key(),
            v,
            "incremental key {:#x} != computed {:#x}",
            b.key(),
            b.compute_key()
        );
        if !v.king_zapped() {
            let r = b.check_rep();
            ensure_last!(r.is_ok(), v, "board inconsistent: {r:?}");
        }
        // The game's history holds the keys of the earlier boards.
        let keys: Vec<u64> = v.boards[..v.boards.len() - 1]
            .iter()
            .map(Board::key)
            .collect();
        ensure_last!(
            v.game.history() == keys.as_slice(),
            v,
            "history keys differ"
        );
        Ok(())
    })
}

#[test]
fn incremental_key_equals_computed_key() {
    run(500, incremental_key);
}

// ---------------------------------------------------------------------------
// 3. FEN and move text round trips

fn text_round_trips(p: Playout) -> TestResult {
    walk(&p, |v| {
        let b = v.board().clone();
        let text = fen::to_fen(&b);
        if v.king_zapped() {
            // One King is gone: the FEN prints but is not a position.
            let loser = Color::BOTH
                .into_iter()
                .find(|&c| b.count(c, Kind::King) == 0);
            ensure_last!(loser.is_some(), v, "King zapped but both Kings present");
            let want = Err(FenError::Position(
                leiserchess::rules::board::BoardError::NoKing(loser.expect("checked")),
            ));
            ensure_last!(
                fen::parse(&text) == want,
                v,
                "FEN without a King parses: {:?}",
                fen::parse(&text)
            );
            return Ok(());
        }
        match fen::parse(&text) {
            Ok(back) => {
                ensure!(back == b, &b, None, "FEN round trip changes the board");
                ensure!(
                    fen::to_fen(&back) == text,
                    &b,
                    None,
                    "FEN prints differently"
                );
            }
            Err(e) => return Err(at(&b, None, format!("own FEN does not parse: {e}"))),
        }
        for m in generated(&b) {
            let s = m.to_string();
            ensure!(
                Move::parse(&s) == Ok(m),
                &b,
                Some(m),
                "'{s}' parses as {:?}",
                Move::parse(&s)
            );
            let upper = s.to_ascii_uppercase();
            ensure!(
                Move::parse(&upper) == Ok(m),
                &b,
                Some(m),
                "'{upper}' parses as {:?}",
                Move::parse(&upper)
            );
            let lower = s.to_ascii_lowercase();
            ensure!(
                Move::parse(&lower) == Ok(m),
                &b,
                Some(m),
                "'{lower}' parses as {:?}",
                Move::parse(&lower)
            );
            ensure!(
                Move::from_bits(m.bits()) == Some(m),
                &b,
                Some(m),
                "bits do not round trip"
            );
        }
        Ok(())
    })
}

#[test]
fn fen_and_move_text_round_trip() {
    run(400, text_round_trips);
}

// ---------------------------------------------------------------------------
// 4. Fast perft against the plain oracle

/// The first root move whose subtree the fast perft counts differently
/// from the oracle (each child made with its own laser), for the message.
fn perft_culprit(b: &Board, d: u32) -> Option<(Move, u64, u64)> {
    if d < 2 {
        return None;
    }
    generated(b).into_iter().find_map(|m| {
        let mut child = b.clone();
        let undo = child.make(m);
        let fast = if undo.king_zapped() {
            1
        } else {
            perft::perft(&mut child, d - 1)
        };
        let mut child = b.clone();
        let undo = child.make_with(m, |x| laser::target_plain(x, x.side()));
        let plain = if undo.king_zapped() {
            1
        } else {
            perft::perft_plain(&mut child, d - 1)
        };
        (fast != plain).then_some((m, fast, plain))
    })
}

fn perft_matches_oracle(p: Playout) -> TestResult {
    walk(&p, |v| {
        if v.king_zapped() {
            return Ok(());
        }
        let b0 = v.board().clone();
        let ply = v.game.moves().len();
        let n = generated(&b0).len() as u64;
        ensure!(
            movegen::count(&b0) == n,
            &b0,
            None,
            "count {} != {} generated",
            movegen::count(&b0),
            n
        );
        let deep = ply % 16 == 7 || v.game.outcome().is_some() || ply == p.plies;
        let max_depth = if deep { 3 } else { 2 };
        let mut b = b0.clone();
        for d in 1..=max_depth {
            let fast = perft::perft(&mut b, d);
            let plain = perft::perft_plain(&mut b, d);
            if fast != plain {
                let what = format!("perft({d}) = {fast}, perft_plain({d}) = {plain}");
                return Err(match perft_culprit(&b0, d) {
                    Some((m, f, p)) => at(
                        &b0,
                        Some(m),
                        format!("{what}; below this move: perft = {f}, perft_plain = {p}"),
                    ),
                    None => at(&b0, None, format!("{what}; no root move's subtree differs")),
                });
            }
            ensure!(b == b0, &b0, None, "perft({d}) changed the board");
            if d == 1 {
                ensure!(fast == n, &b0, None, "perft(1) = {fast}, {n} generated");
            }
            if d == 3 {
                // Threads share subtrees from depth 4 (the second ply's):
                // checked against one thread's count, itself checked
                // against the oracle to depth 3 here.
                let threaded = perft::perft_threads(&b0, 4, 2);
                let one = perft::perft(&mut b, 4);
                ensure!(
                    threaded == one,
                    &b0,
                    None,
                    "perft_threads(4, 2) = {threaded}, perft(4) = {one}"
                );
            }
        }
        Ok(())
    })
}

#[test]
fn fast_perft_equals_plain_perft() {
    run(300, perft_matches_oracle);
}

// ---------------------------------------------------------------------------
// 5. Fast laser against the plain laser

fn lasers_agree(b: &Board, m: Option<Move>, base: &Board) -> Result<(), String> {
    for c in Color::BOTH {
        let fast = laser::target(b, c);
        let plain = laser::target_plain(b, c);
        let path = laser::path(b, c);
        let what = if m.is_some() {
            "after place"
        } else {
            "in the position"
        };
        ensure!(
            fast == plain,
            base,
            m,
            "{what}: {c:?} laser target {fast:?}, plain {plain:?}"
        );
        ensure!(
            path.1 == fast,
            base,
            m,
            "{what}: {c:?} laser path ends at {:?}, target {fast:?}",
            path.1
        );
        if let Some(s) = fast {
            ensure!(
                path.0 & s.bit() != 0,
                base,
                m,
                "{what}: {c:?} laser path misses its target {s}"
            );
        }
    }
    Ok(())
}

fn fast_laser(p: Playout) -> TestResult {
    walk(&p, |v| {
        if v.king_zapped() {
            return Ok(());
        }
        let b0 = v.board().clone();
        lasers_agree(&b0, None, &b0)?;
        for m in generated(&b0) {
            per_move(&b0, m, || {
                let mut b = b0.clone();
                b.place(m);
                lasers_agree(&b, Some(m), &b0)?;
                b.unplace(m);
                Ok(())
            })?;
        }
        Ok(())
    })
}

#[test]
fn fast_laser_equals_plain_laser() {
    run(400, fast_laser);
}

/// `Shots::victim`, which traces a move's beam without playing it, against
/// the move placed on the board and the plain laser, for every move (both
/// with the squares the move changes and with all squares marked changed,
/// so that the untouched-beam shortcut is checked and bypassed).
fn shot_victims(p: Playout) -> TestResult {
    walk(&p, |v| {
        if v.king_zapped() {
            return Ok(());
        }
        let b0 = v.board().clone();
        let shots = Shots::new(&b0);
        for m in generated(&b0) {
            per_move(&b0, m, || {
                let mut b = b0.clone();
                b.place(m);
                let want = laser::target_plain(&b, b.side()).map(|s| (s, b.piece_at(s)));
                b.unplace(m);
                for touched in [m.touched(), !0] {
                    let got = shots.victim(&b0, m, touched).map(|(s, p)| (s, Some(p)));
                    ensure!(
                        got == want,
                        &b0,
                        Some(m),
                        "victim (touched {touched:#x}) {got:?}, placed and traced {want:?}"
                    );
                }
                Ok(())
            })?;
        }
        Ok(())
    })
}

#[test]
fn shot_victims_equal_placed_plain_laser() {
    run(300, shot_victims);
}

// ---------------------------------------------------------------------------
// 6. Game rules

/// The occurrences of a position (squares and side) among `boards`.
fn occurrences(boards: &[Board], b: &Board) -> usize {
    boards
        .iter()
        .filter(|x| x.side() == b.side() && x.squares() == b.squares())
        .count()
}

fn rules(p: Playout) -> TestResult {
    walk(&p, |v| {
        let b0 = v.board().clone();
        let last = v.game.moves().last().copied();
        let missing: Vec<Color> = Color::BOTH
            .into_iter()
            .filter(|&c| b0.count(c, Kind::King) != 1)
            .collect();

        // The result, from RULES.md "End of the game", recomputed from the
        // boards: a King zap, else the third occurrence, else 100 plies
        // without a zap.
        let pieces = |b: &Board| b.occupied().count_ones();
        let quiet = v
            .boards
            .windows(2)
            .rev()
            .take_while(|w| pieces(&w[1]) == pieces(&w[0]))
            .count();
        let want = match missing.as_slice() {
            [] if occurrences(v.boards, &b0) >= 3 => Some(Outcome::Repetition),
            [] if quiet >= 100 => Some(Outcome::NoZap),
            [] => None,
            [loser] => Some(Outcome::KingZapped {
                winner: loser.opp(),
            }),
            _ => return Err(v.fail_last("both Kings are gone")),
        };
        ensure_last!(
            v.game.outcome() == want,
            v,
            "outcome {:?}, expected {want:?}",
            v.game.outcome()
        );

        let legal = v.game.legal_moves();
        if !missing.is_empty() {
            ensure_last!(legal.is_empty(), v, "moves after a King zap: {legal:?}");
            if let Some(m) = last {
                ensure_last!(
                    matches!(v.game.clone().play(m), Err(MoveError::GameOver(_))),
                    v,
                    "a move ({m}) is accepted after a King zap"
                );
            }
            return Ok(());
        }
        let gen = generated(&b0);
        for &m in &legal {
            ensure!(gen.contains(&m), &b0, Some(m), "legal move not generated");
        }
        let mut seen = legal.clone();
        seen.sort_by_key(|m| m.bits());
        seen.dedup();
        ensure!(
            seen.len() == legal.len(),
            &b0,
            None,
            "legal_moves repeats a move"
        );
        if v.game.is_over() {
            ensure_last!(
                legal.is_empty(),
                v,
                "moves after a King is zapped: {legal:?}"
            );
            return Ok(());
        }

        // The Ko rule: the position after the move (and shot) may not be
        // the one before the opponent's last move, nor the board unchanged.
        let before_opponent = v.boards.len().checked_sub(2).map(|i| &v.boards[i]);
        for m in gen {
            let breaks = v.game.breaks_ko(m);
            ensure!(
                v.game.board() == &b0,
                &b0,
                Some(m),
                "breaks_ko changed the board"
            );
            let is_legal = legal.contains(&m);
            ensure!(
                !(breaks && is_legal),
                &b0,
                Some(m),
                "a Ko-breaking move is legal"
            );
            ensure!(
                breaks || is_legal,
                &b0,
                Some(m),
                "a move that keeps the Ko rule is not legal"
            );
            let mut after = b0.clone();
            after.make(m);
            let unchanged = after.squares() == b0.squares();
            let undoes = before_opponent
                .is_some_and(|x| x.side() == after.side() && x.squares() == after.squares());
            ensure!(
                breaks == (unchanged || undoes),
                &b0,
                Some(m),
                "breaks_ko = {breaks}, but board unchanged = {unchanged}, undoes the opponent's move = {undoes}"
            );
        }
        Ok(())
    })
}

#[test]
fn game_rules_hold() {
    run(400, rules);
}

// ---------------------------------------------------------------------------
// The playouts themselves cover what the properties need.

#[test]
fn playouts_reach_deep_positions_bare_kings_and_every_ending() {
    let mut rng = Rng(0x5eed);
    let (mut deep, mut bare, mut king_zaps, mut draws) = (0, 0, 0, 0);
    for i in 0..200 {
        let p = Playout {
            seed: rng.next(),
            plies: 300,
            start: if i % 5 == 0 {
                Start::Endgame
            } else {
                Start::Startpos
            },
            zap_bias: [0, 1, 2, 4, 8][i % 5],
        };
        let mut len = 0;
        let mut least = u32::MAX;
        let mut outcome = None;
        let r = walk(&p, |v| {
            len = v.game.moves().len();
            least = least.min(v.board().occupied().count_ones());
            outcome = v.game.outcome();
            Ok(())
        });
        assert!(!r.is_failure(), "{p:?}");
        deep += usize::from(len >= 200);
        bare += usize::from(p.start == Start::Startpos && least <= 3);
        match outcome {
            Some(Outcome::KingZapped { .. }) => king_zaps += 1,
            Some(_) => draws += 1,
            None => {}
        }
    }
    assert!(deep >= 10, "{deep} playouts of 200+ plies");
    assert!(
        bare >= 10,
        "{bare} playouts from the start down to bare Kings"
    );
    assert!(king_zaps >= 10, "{king_zaps} playouts end with a King zap");
    assert!(draws >= 10, "{draws} playouts end in a draw");
}
