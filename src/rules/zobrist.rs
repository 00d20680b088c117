//! Zobrist keys, generated at compile time from a fixed seed so that keys
//! (and everything hashed with them) are the same in every build.

use crate::rules::piece::Piece;
use crate::rules::square::Square;

/// `PIECE_KEYS[piece code][square]`.
static PIECE_KEYS: [[u64; 64]; 16] = piece_keys();

/// XORed in when Lavender is to move.
pub const SIDE_KEY: u64 = splitmix(0x5eed_1e15_e4c4_e550);

const fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn piece_keys() -> [[u64; 64]; 16] {
    let mut t = [[0u64; 64]; 16];
    let mut state = 0x1e15_e4c4_e55e_ed00u64;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 64 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            t[p][s] = splitmix(state);
            s += 1;
        }
        p += 1;
    }
    t
}

#[inline(always)]
pub fn piece_key(p: Piece, s: Square) -> u64 {
    PIECE_KEYS[p.code()][s.index()]
}
