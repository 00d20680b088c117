//! The FEN parser on any text. A position it accepts must keep the board's
//! invariants, read back from its own FEN, and agree with every oracle the
//! tests hold the fast code to: plain perft to depth 2, the plain laser
//! coverage inside the hand-written evaluation, the scalar kernels of the
//! net's evaluation.

#![no_main]

use leiserchess::check_rep::CheckRep;
use leiserchess::eval::nnue::accumulator::Accumulator;
use leiserchess::eval::nnue::Network;
use leiserchess::eval::{evaluate, evaluate_plain, Weights};
use leiserchess::rules::fen;
use leiserchess::rules::perft::{perft, perft_plain};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let board = match fen::parse(text) {
        Ok(b) => b,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    if let Err(e) = board.check_rep() {
        panic!("'{text}' parses to a broken board: {e}");
    }
    let again = fen::to_fen(&board);
    assert_eq!(fen::parse(&again).as_ref(), Ok(&board), "{text} -> {again}");
    let mut b = board.clone();
    for depth in 1..=2 {
        assert_eq!(
            perft(&mut b, depth),
            perft_plain(&mut b, depth),
            "{text} depth {depth}"
        );
    }
    assert_eq!(b, board, "perft left {text} changed");
    let w = Weights::default();
    assert_eq!(evaluate(&b, &w), evaluate_plain(&b, &w), "{text}");
    let net = Network::shared_embedded();
    let acc = Accumulator::refresh(&net, &b);
    assert_eq!(
        net.evaluate(&acc, &b),
        net.evaluate_plain(&acc, &b),
        "{text}"
    );
});
