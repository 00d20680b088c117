//! The move picker against the rules. At every position of random playouts
//! (tests/common/playout.rs) and of the reference data (perft/data/), every
//! legal move, Ko respected, comes out of the picker exactly once and in
//! stage order, whatever its hints: no table move, a legal one, one that is
//! not a move of the position, or one the Ko rule forbids; killers absent,
//! legal, illegal or forbidden. Perft through the picker equals
//! `perft_plain` (no Ko rule) and a perft through `Game` (Ko respected).

use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::rules::movegen;
use leiserchess::rules::moves::{Move, MoveList};
use leiserchess::rules::perft::perft_plain;
use leiserchess::rules::piece::{Color, Rot};
use leiserchess::rules::repetition::LastMove;
use leiserchess::rules::square::Square;
use leiserchess::search::pvs::movepick::{MovePicker, Node, Scored, Stage};
use leiserchess::search::pvs::order::Order;

use crate::common::{playout, reference};

use playout::{Playout, Start};

/// The ply the pickers of this file work at (its killers are the hints').
const PLY: usize = 3;

/// Lavender may not answer d3d4e3 with d3e3d4 (game.rs's Ko example).
const KO_FEN: &str = "ww7/8/8/3nw4/3NW4/8/8/7EE W";

/// The picker's view of a game's current position and its hints.
fn picker(
    board: &mut Board,
    history: &[u64],
    last: Option<LastMove>,
    order: &Order,
    tt_move: Option<Move>,
    zaps_only: bool,
) -> MovePicker {
    let node = Node {
        board,
        history,
        last,
        order,
        ply: PLY,
        tt_move,
        only: &[],
        zaps_only,
        check_rep: false,
    };
    MovePicker::new(Vec::new(), node)
}

/// The game's last move as the Ko rule sees it.
fn last_move(game: &Game) -> Option<LastMove> {
    game.moves().last().map(|m| LastMove {
        touched: m.touched(),
        zapped: game.plies_since_zap() == 0,
    })
}

fn generated(b: &Board) -> Vec<Move> {
    let mut list = MoveList::new();
    movegen::generate(b, &mut list);
    list.iter().collect()
}

/// The colour of the piece `m`'s shot zaps, by a full make.
fn zapped(b: &mut Board, m: Move) -> Option<(Color, bool)> {
    let undo = b.make(m);
    let z = undo.zapped.map(|(_, p)| (p.color(), p.is_king()));
    b.unmake(m, undo);
    z
}

/// Move-ordering tables whose killers at `PLY` are `killers` and whose
/// history counts the moves of `counted` (at another ply).
fn order_with(side: Color, killers: [Option<Move>; 2], counted: &[Move]) -> Order {
    let mut o = Order::default();
    for (i, &m) in counted.iter().enumerate() {
        o.cutoff(side, m, PLY + 1, (i % 7) as i32);
    }
    for m in killers.iter().rev().flatten() {
        o.cutoff(side, *m, PLY, 1);
    }
    o
}

/// Two moves that are not moves of `b`: rotations of squares without a
/// piece of the side to move.
fn illegal(b: &Board) -> [Move; 2] {
    let moves = generated(b);
    let mut it = (0..64)
        .flat_map(|i| [Rot::R, Rot::L].map(|r| Move::rotate(Square::new(i), r)))
        .filter(|m| !moves.contains(m));
    let a = it.next().expect("a square without a piece to move");
    let b = it.find(|m| m.from() != a.from()).expect("another");
    [a, b]
}

/// Checks every hint combination's picker at the game's position.
fn check_position(game: &mut Game) -> Result<(), String> {
    let legal = game.legal_moves();
    let all = generated(game.board());
    let forbidden: Vec<Move> = all.iter().copied().filter(|m| !legal.contains(m)).collect();
    let ko = forbidden.first().copied();
    let (first, last) = match (legal.first(), legal.last()) {
        (Some(&f), Some(&l)) => (f, l),
        _ => return Ok(()),
    };
    let [x, y] = illegal(game.board());
    let tts = [None, Some(first), Some(last), Some(x), ko];
    let killer_sets = [
        [None, None],
        [Some(last), Some(first)],
        [Some(legal[legal.len() / 2]), Some(x)],
        [Some(y), Some(first)],
        [Some(x), Some(y)],
        [ko, Some(last)],
    ];
    let mut board = game.board().clone();
    let side = board.side();
    let kinds: Vec<(Move, Option<(Color, bool)>)> =
        legal.iter().map(|&m| (m, zapped(&mut board, m))).collect();
    for killers in killer_sets {
        let order = order_with(side, killers, &all);
        for tt in tts {
            for zaps_only in [false, true] {
                let p = picker(
                    &mut board,
                    game.history(),
                    last_move(game),
                    &order,
                    tt,
                    zaps_only,
                );
                let n = p.len();
                let picked: Vec<Scored> = p.collect();
                let what = format!(
                    "{} tt {tt:?} killers {killers:?} zaps_only {zaps_only}",
                    fen::to_fen(&board)
                );
                let want: Vec<Move> = kinds
                    .iter()
                    .filter(|(_, z)| !zaps_only || z.is_some_and(|(c, _)| c != side))
                    .map(|(m, _)| *m)
                    .collect();
                check_picked(&picked, &want, &kinds, &order, side, tt, killers)
                    .map_err(|e| format!("{e}: {what}"))?;
                if n != want.len() {
                    return Err(format!("len {n}, {} moves: {what}", want.len()));
                }
            }
        }
    }
    Ok(())
}

/// The picked moves are `want`, each once, in stage order, each in the
/// stage its hints and its zap give it, and ordered within its stage.
fn check_picked(
    picked: &[Scored],
    want: &[Move],
    kinds: &[(Move, Option<(Color, bool)>)],
    order: &Order,
    side: Color,
    tt: Option<Move>,
    killers: [Option<Move>; 2],
) -> Result<(), String> {
    let mut got: Vec<u16> = picked.iter().map(|s| s.mv.bits()).collect();
    let mut expected: Vec<u16> = want.iter().map(|m| m.bits()).collect();
    got.sort_unstable();
    expected.sort_unstable();
    if got != expected {
        return Err(format!("picked {got:?}, legal {expected:?}"));
    }
    let zap = |m: Move| kinds.iter().find(|(k, _)| *k == m).expect("a legal move").1;
    let king = |t: &Scored| zap(t.mv).is_some_and(|(_, k)| k);
    for (i, s) in picked.iter().enumerate() {
        let z = zap(s.mv);
        let (enemy, own) = (
            z.is_some_and(|(c, _)| c != side),
            z.is_some_and(|(c, _)| c == side),
        );
        let stage = if Some(s.mv) == tt {
            Stage::TtMove
        } else if enemy {
            Stage::Zap
        } else if own {
            Stage::OwnZap
        } else if killers.contains(&Some(s.mv)) {
            Stage::Killer
        } else {
            Stage::Quiet
        };
        if s.stage != stage {
            return Err(format!("{} in stage {:?}, not {stage:?}", s.mv, s.stage));
        }
        if (s.zaps_enemy, s.zaps_own, s.victim.is_some()) != (enemy, own, z.is_some()) {
            return Err(format!("{} zaps {z:?}, picked as {s:?}", s.mv));
        }
        let Some(next) = picked.get(i + 1) else {
            continue;
        };
        let in_order = match (s.stage, next.stage) {
            (a, b) if a != b => a < b,
            (Stage::Zap, _) => king(s) >= king(next),
            (Stage::OwnZap, _) => king(s) <= king(next),
            (Stage::Killer, _) => killers[0] == Some(s.mv),
            (Stage::Quiet, _) => order.history(side, s.mv) >= order.history(side, next.mv),
            (Stage::TtMove, _) => false,
        };
        if !in_order {
            return Err(format!(
                "{} ({:?}) before {} ({:?})",
                s.mv, s.stage, next.mv, next.stage
            ));
        }
    }
    Ok(())
}

#[test]
fn every_legal_move_once_along_random_playouts() {
    let mut positions = 0;
    for seed in 0..24u64 {
        let p = Playout {
            seed,
            plies: [12, 60, 160][seed as usize % 3],
            start: if seed % 5 == 4 {
                Start::Endgame
            } else {
                Start::Startpos
            },
            zap_bias: [0, 2, 8][seed as usize % 3],
        };
        let result = playout::walk(&p, |game, _| {
            positions += 1;
            check_position(game)
        });
        assert!(!result.is_failure() && !result.is_error(), "{result:?}");
    }
    assert!(positions > 1000, "{positions} positions");
}

#[test]
fn every_legal_move_once_at_the_reference_positions_and_after_ko() {
    let mut fens = reference::fens("perft.txt");
    fens.extend(reference::fens("positions.txt"));
    for text in &fens {
        let mut game = Game::from_fen(text).expect("reference FENs parse");
        check_position(&mut game).unwrap();
    }
    // A position where the Ko rule forbids a move: the hints offer it.
    let mut game = Game::from_fen(KO_FEN).unwrap();
    game.play_text("d3d4e3").unwrap();
    let undo = Move::parse("d3e3d4").unwrap();
    assert!(!game.legal_moves().contains(&undo) && generated(game.board()).contains(&undo));
    check_position(&mut game).unwrap();
}

#[test]
fn searchmoves_restrict_the_picker_to_their_legal_moves() {
    for text in reference::fens("positions.txt").iter().step_by(7) {
        let mut game = Game::from_fen(text).unwrap();
        let legal = game.legal_moves();
        let mut only: Vec<Move> = legal.iter().step_by(3).copied().collect();
        only.push(illegal(game.board())[0]);
        let mut board = game.board().clone();
        let node = Node {
            board: &mut board,
            history: &[],
            last: None,
            order: &Order::default(),
            ply: 0,
            tt_move: legal.last().copied(),
            only: &only,
            zaps_only: false,
            check_rep: false,
        };
        let mut got: Vec<Move> = MovePicker::new(Vec::new(), node).map(|s| s.mv).collect();
        got.sort_by_key(|m| m.bits());
        let mut want = only[..only.len() - 1].to_vec();
        want.sort_by_key(|m| m.bits());
        assert_eq!(got, want, "{text}");
    }
}

/// Perft through the picker, the victims its shots found played, with the
/// Ko rule when `ko` (keys and last move along the path), and hints that
/// change from node to node: a table move by the key, killers from moves
/// recorded as cut-offs on the way.
fn picker_perft(
    board: &mut Board,
    order: &mut Order,
    path: &mut Vec<u64>,
    last: Option<LastMove>,
    depth: u32,
) -> u64 {
    let key = board.key();
    let moves = generated(board);
    let tt = match key % 4 {
        0 => None,
        1 => Some(illegal(board)[0]),
        _ => moves.get((key as usize >> 2) % moves.len().max(1)).copied(),
    };
    let picked: Vec<Scored> = picker(board, path, last, order, tt, false).collect();
    if depth == 1 {
        return picked.len() as u64;
    }
    if let Some(s) = picked.get((key as usize >> 7) % picked.len().max(1)) {
        order.cutoff(board.side(), s.mv, PLY, depth as i32);
    }
    let mut total = 0;
    for s in picked {
        path.push(board.key());
        let undo = board.make_with(s.mv, |_| s.victim);
        let next = last.map(|_| LastMove {
            touched: s.touched,
            zapped: undo.zapped.is_some(),
        });
        total += if undo.king_zapped() {
            1
        } else {
            picker_perft(board, order, path, next, depth - 1)
        };
        board.unmake(s.mv, undo);
        path.pop();
    }
    total
}

/// Perft through `Game`: legal moves, Ko respected.
fn game_perft(game: &mut Game, depth: u32) -> u64 {
    let legal = game.legal_moves();
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .into_iter()
        .map(|m| {
            let mut g = game.clone();
            g.play(m).expect("a legal move plays");
            if g.is_over() {
                1
            } else {
                game_perft(&mut g, depth - 1)
            }
        })
        .sum()
}

/// The Ko rule's perft from a game: the picker's keys and last move start
/// from the game's.
fn picker_perft_ko(game: &Game, depth: u32) -> u64 {
    let mut board = game.board().clone();
    let mut path = game.history().to_vec();
    // `picker_perft` follows the Ko rule only with a last move; a game
    // with none yet gets one that no move can undo (it touched nothing).
    let last = last_move(game).or(Some(LastMove {
        touched: 0,
        zapped: false,
    }));
    picker_perft(&mut board, &mut Order::default(), &mut path, last, depth)
}

#[test]
fn perft_by_picker_equals_plain_perft() {
    let fens = reference::fens("perft.txt");
    for (i, text) in fens.iter().enumerate() {
        let mut b = fen::parse(text).unwrap();
        let depth = if i < 12 { 3 } else { 2 };
        for d in 1..=depth {
            let want = perft_plain(&mut b.clone(), d);
            let got = picker_perft(&mut b, &mut Order::default(), &mut Vec::new(), None, d);
            assert_eq!(got, want, "perft {d} of {text}");
        }
    }
}

#[test]
fn perft_by_picker_with_ko_equals_perft_through_the_game() {
    let mut games: Vec<Game> = reference::fens("positions.txt")
        .iter()
        .step_by(10)
        .map(|t| Game::from_fen(t).unwrap())
        .collect();
    let mut ko = Game::from_fen(KO_FEN).unwrap();
    ko.play_text("d3d4e3").unwrap();
    // The rule is applied: one generated move is forbidden here.
    let plain = perft_plain(&mut ko.board().clone(), 1);
    assert_eq!(picker_perft_ko(&ko, 1), plain - 1);
    games.push(ko);
    games.push(Game::from_fen(KO_FEN).unwrap());
    for game in &mut games {
        for d in 1..=3 {
            let want = game_perft(game, d);
            assert_eq!(
                picker_perft_ko(game, d),
                want,
                "perft {d} of {}",
                fen::to_fen(game.board())
            );
        }
    }
}
