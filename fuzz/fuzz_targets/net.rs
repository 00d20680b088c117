//! The net loader (`EvalFile`): `Network::from_bytes` on the input as it
//! is, then on the input brought to the length its header promises (its
//! body repeated, or cut), so that small inputs make whole nets of any
//! weights. A net that loads is tried on the positions of an opening: the
//! vector kernels must equal their scalar oracle and the accumulator
//! kept move by move one built afresh, however extreme the weights.

#![no_main]

use leiserchess::eval::nnue::accumulator::{Accumulator, Before};
use leiserchess::eval::nnue::{NetError, Network};
use leiserchess_fuzz::walk;
use libfuzzer_sys::fuzz_target;

/// The header: the magic, the hidden units, the flags.
const HEADER: usize = 16;

fuzz_target!(|data: &[u8]| {
    let net = match Network::from_bytes(data) {
        Ok(net) => net,
        Err(NetError::Length { want, .. }) if data.len() > HEADER => {
            let body = data[HEADER..].iter().cycle();
            let whole: Vec<u8> = data[..HEADER]
                .iter()
                .chain(body)
                .take(want)
                .copied()
                .collect();
            Network::from_bytes(&whole).expect("the header promised this length")
        }
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(&net));
    let games = walk();
    let mut acc = Accumulator::refresh(&net, games[0].board());
    for (game, next) in games.iter().zip(&games[1..]) {
        let b = game.board();
        assert_eq!(net.evaluate(&acc, b), net.evaluate_plain(&acc, b));
        let m = *next.moves().last().expect("a move was played");
        let mut after = b.clone();
        let before = Before::of(&after, m.touched());
        let undo = after.make(m);
        acc = acc.child(&net, &after, &before, &undo);
        assert_eq!(acc, Accumulator::refresh(&net, &after), "after {m}");
    }
});
