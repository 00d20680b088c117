//! The data formats' tests: chains round-trip, datagen's chains expand to
//! its records byte for byte at a few bytes a position, a torn game is cut,
//! a bad byte is named, and every reader takes both formats.

use super::chain::{Chain, Ply, ReadError};
use super::*;
use crate::lab::datagen;
use crate::rules::fen;
use crate::rules::game::Game as RulesGame;
use clap::Parser;
use quickcheck::{quickcheck, TestResult};

/// A random legal game of up to `plies` plies from the start position
/// after `opening` random plies, with random scores and left-out plies.
fn random_chain(seed: u64, opening: usize, plies: usize) -> Chain {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = RulesGame::from_fen(fen::STARTPOS).unwrap();
    for _ in 0..opening {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.usize(..moves.len())]).unwrap();
    }
    let start = game.board().clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.usize(..moves.len())];
        let score = match rng.u8(..4) {
            0 => None,
            1 => Some(rng.i16(..)),
            _ => Some(rng.i16(-300..300)),
        };
        game.play(mv).unwrap();
        out.push(Ply { mv, score });
    }
    let outcome = Outcome::from_byte(rng.u8(..3)).unwrap();
    Chain::new(start, outcome, out).unwrap()
}

/// A chain file of `chains`.
fn chain_file(chains: &[Chain]) -> Vec<u8> {
    let mut bytes = chain::HEADER.to_vec();
    for c in chains {
        bytes.extend(c.to_bytes());
    }
    bytes
}

fn round_trips(seed: u64, opening: u8, plies: u8) -> TestResult {
    let c = random_chain(seed, usize::from(opening % 12), usize::from(plies));
    let bytes = c.to_bytes();
    let mut at = 0;
    let len = chain::get_varint(&bytes, &mut at).unwrap();
    if len as usize != bytes.len() - at {
        return TestResult::error("the length is the rest's");
    }
    let back = Chain::parse(&bytes[at..], at as u64).unwrap();
    let samples: Vec<Sample> = c.samples().collect();
    TestResult::from_bool(back == c && samples.len() == c.kept())
}

#[test]
fn random_legal_games_round_trip() {
    quickcheck(round_trips as fn(u64, u8, u8) -> TestResult);
}

#[test]
fn varints_round_trip_and_bad_ones_are_refused() {
    for v in [0, 1, 127, 128, 300, 1 << 35, u64::MAX] {
        let mut b = Vec::new();
        chain::put_varint(&mut b, v);
        let mut at = 0;
        assert_eq!(chain::get_varint(&b, &mut at), Ok(v));
        assert_eq!(at, b.len());
    }
    let mut at = 0;
    assert!(chain::get_varint(&[0x80, 0x00], &mut at)
        .unwrap_err()
        .contains("longer than it needs"));
    let mut at = 0;
    assert!(chain::get_varint(&[0x80], &mut at)
        .unwrap_err()
        .contains("ends inside a number"));
    let mut at = 0;
    assert!(chain::get_varint(&[0xff; 11], &mut at)
        .unwrap_err()
        .contains("past 64 bits"));
}

/// `datagen` into `out` with `flags`, on one thread.
fn datagen(out: &Path, flags: &str) {
    let line = format!("datagen {} --threads 1 {flags}", out.display());
    let a = datagen::Args::try_parse_from(line.split_whitespace()).unwrap();
    datagen::run(&datagen::Config::new(&a).unwrap()).unwrap();
}

/// The run both formats write: the chains expand to the records, byte for
/// byte; they cost at most 5 bytes a position.
#[test]
fn datagen_chains_expand_to_its_records_in_a_few_bytes_a_position() {
    let dir = crate::scratch::dir("data-expand");
    let (chains, records, expanded) = (dir.join("c.bin"), dir.join("r.bin"), dir.join("e.bin"));
    let flags = "--positions 2000 --nodes 300 --seed 11";
    datagen(&chains, flags);
    datagen(&records, &format!("{flags} --format 2"));
    assert_eq!(format(&chains), Ok(Format::Chains));
    assert_eq!(format(&records), Ok(Format::Records));
    assert_eq!(command::expand(&chains, &expanded).unwrap(), 2000);
    assert_eq!(
        std::fs::read(&expanded).unwrap(),
        std::fs::read(&records).unwrap()
    );
    let i = command::info(&chains).unwrap();
    assert_eq!(i.positions, 2000);
    assert!(i.plies.unwrap() >= 2000 && i.games.unwrap() > 10, "{i}");
    let per = i.bytes as f64 / i.positions as f64;
    assert!(per <= 5.0, "{i}");
    let r = command::info(&records).unwrap();
    assert_eq!(
        (r.positions, r.games, r.bytes),
        (2000, None, 16 + 2000 * 20)
    );
    assert!(
        r.to_string().starts_with("format 2, 2000 positions kept"),
        "{r}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run stopped inside a game's write leaves it torn: the next run cuts
/// it, rebuilds the held positions from the chains, and goes on; the
/// resumed file holds each position once.
#[test]
fn a_torn_last_game_is_cut_on_resume() {
    let dir = crate::scratch::dir("data-torn");
    let out = dir.join("c.bin");
    datagen(&out, "--positions 60 --nodes 200");
    let whole = std::fs::read(&out).unwrap();
    for torn in [&[0x85u8][..], &[0x40, 1, 2, 3]] {
        std::fs::write(&out, [&whole[..], torn].concat()).unwrap();
        let a = open_to_append(&out, Format::Chains).unwrap();
        assert_eq!(a.positions, 60);
        assert_eq!(a.game_ends.last().map(|e| e.0), Some(whole.len() as u64));
        drop(a);
        assert_eq!(std::fs::read(&out).unwrap(), whole);
    }
    std::fs::write(&out, [&whole[..], &[0x40, 1, 2, 3]].concat()).unwrap();
    datagen(&out, "--positions 130 --nodes 200");
    let resumed = std::fs::read(&out).unwrap();
    assert!(resumed.starts_with(&whole));
    let samples = read(&out).unwrap();
    assert_eq!(samples.len(), 130);
    let keys: std::collections::HashSet<u64> = samples
        .iter()
        .map(|s| board_key(&s.board).unwrap())
        .collect();
    assert_eq!(keys.len(), 130, "each position once");
    // A file of the other format is not appended to.
    let e = open_to_append(&out, Format::Records).unwrap_err();
    assert!(
        e.contains("is of format 3; this run writes format 2"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bad byte in a chain is named by file, game, ply and byte.
#[test]
fn a_corrupted_chain_is_named_by_file_and_place() {
    let dir = crate::scratch::dir("data-corrupt");
    let path = dir.join("c.bin");
    let chains = [random_chain(1, 8, 30), random_chain(2, 8, 30)];
    let good = chain_file(&chains);
    let first_len = chains[0].to_bytes().len();
    // Game 1 starts after the header and game 0; its length takes one
    // byte, then 17 of start and result: ply 0's move index is next.
    let game1 = 16 + first_len;
    let mut bad = good.clone();
    bad[game1 + 1 + 17] = 0x7f;
    std::fs::write(&path, &bad).unwrap();
    let e = read(&path).unwrap_err();
    let want = format!(
        "{}: game 1 (byte {game1}): ply 0 (byte {}): move 127 of a position with",
        path.display(),
        game1 + 18
    );
    assert!(e.starts_with(&want), "{e}\n{want}");
    let mut bad = good.clone();
    bad[game1 + 1 + 16] = 7;
    std::fs::write(&path, &bad).unwrap();
    let e = read(&path).unwrap_err();
    assert!(e.contains("game 1 (byte"), "{e}");
    assert!(e.contains("result byte 0x07"), "{e}");
    // A torn last game is an error to a reader.
    std::fs::write(&path, &good[..good.len() - 3]).unwrap();
    let e = read(&path).unwrap_err();
    assert!(
        e.contains("game 1 (byte") && e.contains("the file ends"),
        "{e}"
    );
    let mut r = chain::Reader::new(&good[16..good.len() - 3]);
    assert!(r.next_chain().unwrap().is_some());
    assert!(matches!(
        r.next_chain(),
        Err(ReadError::Torn { game: 1, .. })
    ));
    // Another version is refused by name.
    let mut v4 = good.clone();
    v4[8] = 4;
    std::fs::write(&path, &v4).unwrap();
    let e = read(&path).unwrap_err();
    assert!(
        e.ends_with("header: version 4; this build reads versions 1, 2 and 3"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chain file and its expansion to format 2 (and version 1, without a
/// header) read as the same samples by every reader: `read`, `games`
/// (format 2 in runs of `RECORDS_A_GAME`), `info`, `expand`.
#[test]
fn every_reader_takes_both_formats() {
    let dir = crate::scratch::dir("data-readers");
    let chains: Vec<Chain> = (0..40).map(|s| random_chain(s, 8, 200)).collect();
    let (c, r, v1) = (dir.join("c.bin"), dir.join("r.bin"), dir.join("v1.bin"));
    std::fs::write(&c, chain_file(&chains)).unwrap();
    command::expand(&c, &r).unwrap();
    std::fs::write(&v1, &std::fs::read(&r).unwrap()[16..]).unwrap();
    let all: Vec<Sample> = chains
        .iter()
        .flat_map(|c| c.samples().collect::<Vec<_>>())
        .collect();
    assert!(all.len() > RECORDS_A_GAME, "{} samples", all.len());
    for path in [&c, &r, &v1] {
        assert_eq!(read(path).unwrap(), all, "{}", path.display());
        let games: Vec<Game> = games(path).unwrap().map(Result::unwrap).collect();
        let sizes: Vec<usize> = games.iter().map(|g| g.samples.len()).collect();
        if path == &c {
            let kept: Vec<usize> = chains.iter().map(Chain::kept).collect();
            assert_eq!(sizes, kept);
        } else {
            assert_eq!(sizes, [RECORDS_A_GAME, all.len() - RECORDS_A_GAME]);
        }
        assert_eq!(command::info(path).unwrap().positions, all.len() as u64);
        let out = dir.join("again.bin");
        command::expand(path, &out).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&r).unwrap());
        assert_eq!(positions_held(path), all.len() as u64);
    }
    let chained: Vec<Chain> = super::chains(&c).unwrap().map(Result::unwrap).collect();
    assert_eq!(chained, chains);
    let e = super::chains(&r).err().unwrap();
    assert!(e.ends_with("format 2, not format 3"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A new file gets the header asked for; a version 1 file is refused.
#[test]
fn a_file_is_opened_to_append_after_its_header() {
    let dir = crate::scratch::dir("data-open");
    let path = dir.join("d.bin");
    for format in [Format::Records, Format::Chains] {
        for partial in [&[][..], &format.header()[..5]] {
            std::fs::write(&path, partial).unwrap();
            let a = open_to_append(&path, format).unwrap();
            assert_eq!((a.positions, a.format), (0, format));
            drop(a);
            assert_eq!(std::fs::read(&path).unwrap(), format.header());
        }
    }
    let r = encode(&Sample {
        board: fen::parse(fen::STARTPOS).unwrap(),
        score: 1,
        outcome: Outcome::WhiteWins,
    })
    .unwrap();
    std::fs::write(&path, [&HEADER[..], &r, &r[..7]].concat()).unwrap();
    let a = open_to_append(&path, Format::Records).unwrap();
    assert_eq!(a.positions, 1);
    drop(a);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 36);
    std::fs::write(&path, r).unwrap();
    let e = open_to_append(&path, Format::Records).unwrap_err();
    assert!(
        e.contains("no header (version 1); data is appended only to files of versions 2 and 3"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn outcome_scores_by_side() {
    assert_eq!(Outcome::WhiteWins.score_for(Color::Black), 0.0);
    assert_eq!(Outcome::Draw.score_for(Color::White), 0.5);
    assert_eq!(Outcome::BlackWins.score_for(Color::Black), 1.0);
}
