//! `datagen`'s tests: its flags, its runs and what they keep.

use super::game::Streak;
use super::*;
use crate::lab::data::{self, decode_all, Outcome, Sample, HEADER, RECORD};
use crate::rules::piece::Color;
use crate::search::MATE_BOUND;
use clap::Parser;
use std::io::Write;

/// The run of `datagen`'s command line `s`.
fn parse(s: &str) -> Result<Config, String> {
    let words = std::iter::once("datagen").chain(s.split_whitespace());
    Config::new(&Args::try_parse_from(words).map_err(|e| e.to_string())?)
}

#[test]
fn flags_parse_and_bad_ones_are_named() {
    let c = parse("x.bin --positions 50 --nodes 200 --threads 2").unwrap();
    assert_eq!((c.positions, c.nodes, c.threads), (50, 200, 2));
    assert_eq!(c.engine.table.hash_mb, 8);
    assert_eq!(c.format, Format::Chains);
    assert_eq!(parse("x.bin --format 2").unwrap().format, Format::Records);
    let c = parse("x.bin --option draw=-20 --option Hash=99999").unwrap();
    assert_eq!((c.engine.search.draw, c.engine.table.hash_mb), (-20, 4096));
    for (line, named) in [
        ("", "<FILE>"),
        ("x.bin --nodes 0", "'0' for '--nodes <N>'"),
        ("x.bin --bogus 1", "'--bogus'"),
        ("x.bin --seed", "'--seed <S>'"),
        ("x.bin --format 4", "'4' for '--format <V>'"),
        ("x.bin --net n.nnue --hand", "'--net <FILE>'"),
        ("x.bin --option draw", "NAME=VALUE"),
        ("x.bin --option nosuch=1", "unknown option 'nosuch'"),
        (
            "x.bin --option draw=x",
            "option 'draw' wants a whole number",
        ),
    ] {
        let e = parse(line).unwrap_err();
        assert!(e.contains(named), "{line}: {e}");
    }
    let e = parse("x.bin --net /nonexistent.nnue").unwrap_err();
    assert!(e.contains("'/nonexistent.nnue': cannot read"), "{e}");
}

#[test]
fn a_run_writes_then_resumes_to_the_target() {
    let dir = crate::scratch::dir("datagen-resume");
    let out = dir.join("d.bin");
    let _ = std::fs::remove_file(&out);
    let mut c = parse(&format!(
        "{} --positions 40 --nodes 300 --format 2",
        out.display()
    ))
    .unwrap();
    run(&c).unwrap();
    let first = std::fs::read(&out).unwrap();
    let samples = decode_all(&first).unwrap();
    assert_eq!(samples.len(), 40);
    assert!(samples.iter().all(|s| s.score.abs() < MATE_BOUND as i16));
    // A torn record is cut, and the run goes on to the new target.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&out)
        .unwrap()
        .write_all(&[1, 2, 3])
        .unwrap();
    c.positions = 70;
    run(&c).unwrap();
    let second = std::fs::read(&out).unwrap();
    assert_eq!(second.len(), HEADER.len() + 70 * RECORD);
    assert_eq!(&second[..first.len()], &first[..]);
    assert_eq!(decode_all(&second).unwrap().len(), 70);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_net_plays_by_default_and_hand_or_another_net_on_request() {
    let dir = crate::scratch::dir("datagen-net");
    let net = dir.join("n.nnue");
    std::fs::write(&net, Network::embedded().to_bytes()).unwrap();
    let data = |flags: &str| {
        let out = dir.join("d.bin");
        let _ = std::fs::remove_file(&out);
        let c = parse(&format!(
            "{} --positions 30 --nodes 300 {flags}",
            out.display()
        ))
        .unwrap();
        run(&c).unwrap();
        let d = data::read(&out).unwrap();
        (c.engine.search.use_nnue, c.net, d)
    };
    let (on, embedded, by_net) = data("");
    assert!(on && Arc::ptr_eq(&embedded, &Network::shared_embedded()));
    let (on, loaded, by_file) = data(&format!("--net {}", net.display()));
    assert!(on && *loaded == Network::embedded());
    let (on, _, by_hand) = data("--hand");
    assert!(!on);
    // `--option` is `setoption`: the same as `--hand`.
    let (on, _, by_option) = data("--option use_nnue=false");
    assert!(!on);
    assert_eq!(by_hand, by_option);
    assert_eq!(by_net.len(), 30);
    // The same games with the same net; another evaluation, other scores.
    let scores = |d: &[Sample]| d.iter().map(|s| s.score).collect::<Vec<_>>();
    assert_eq!(scores(&by_net), scores(&by_file));
    assert_ne!(scores(&by_net), scores(&by_hand));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn progress_shows_rate_and_time_left() {
    let t = Tally {
        games: 10,
        adjudicated: 4,
        ..Tally::default()
    };
    let p = progress(500, 0, 1000, t, Duration::from_secs(10));
    assert!(
        p.contains("500 / 1000 positions (50.0%), 10 games (4 adjudicated)"),
        "{p}"
    );
    assert!(
        p.contains("0.18M/h") && p.contains("about 0m 10s left"),
        "{p}"
    );
}

#[test]
fn a_streak_calls_the_side_ahead_only_when_the_searches_agree() {
    let a = Adjudication { cp: 500, plies: 3 };
    let (w, b) = (Color::White, Color::Black);
    let mut s = Streak::default();
    // White ahead, seen from each mover's side in turn.
    assert_eq!(s.see(a, w, 600), None);
    assert_eq!(s.see(a, b, -700), None);
    assert_eq!(s.see(a, w, 499), None, "below the margin: a new streak");
    assert_eq!(s.see(a, b, -500), None);
    assert_eq!(s.see(a, w, MATE_BOUND + 5), None);
    assert_eq!(s.see(a, b, -900), Some(w));
    let mut s = Streak::default();
    assert_eq!(s.see(a, w, 800), None);
    assert_eq!(s.see(a, b, 800), None, "the other side ahead: a new streak");
    assert_eq!(s.see(a, w, -800), None);
    assert_eq!(s.see(a, b, 800), Some(b));
    let off = Adjudication { cp: 0, plies: 1 };
    assert_eq!(Streak::default().see(off, w, 30000), None);
}

#[test]
fn positions_whose_move_zaps_are_left_out_unless_kept() {
    let c = parse("x.bin --nodes 300").unwrap();
    let shared = Shared::with_net(8, c.engine.table.ways, c.net.clone());
    let mut memory = Memory::default();
    let kept_c = Config {
        keep_zaps: true,
        ..c.clone()
    };
    let pieces = |s: &Sample| s.board.occupied().count_ones();
    let mut zaps = 0;
    for n in 0..4 {
        let (Some(kept), Some(filtered)) = (
            play_game(&kept_c, n, &shared, &mut memory),
            play_game(&c, n, &shared, &mut memory),
        ) else {
            continue;
        };
        // The same game: the filter leaves out positions, no more.
        assert_eq!(kept.zaps, 0);
        assert_eq!(kept.adjudicated, filtered.adjudicated);
        assert_eq!(kept.chain.plies().len(), filtered.chain.plies().len());
        assert_eq!(
            kept.chain.kept() as u64,
            filtered.chain.kept() as u64 + filtered.zaps
        );
        let kept: Vec<Sample> = kept.chain.samples().collect();
        let left: Vec<Sample> = filtered.chain.samples().collect();
        // A position left out is followed by one with fewer pieces: its
        // move zapped.
        for (i, s) in kept.iter().enumerate() {
            if !left.contains(s) {
                let next = kept.get(i + 1).map_or(0, pieces);
                assert!(next < pieces(s), "game {n}, position {i}");
            }
        }
        zaps += filtered.zaps;
    }
    assert!(zaps > 0, "four self-play games zap");
}

#[test]
fn a_decided_game_is_called_where_the_searches_agree() {
    let c = parse("x.bin --nodes 1000 --adjudicate 300 --adjudicate-plies 4").unwrap();
    assert_eq!(c.adjudication, Adjudication { cp: 300, plies: 4 });
    let shared = Shared::with_net(8, c.engine.table.ways, c.net.clone());
    let mut memory = Memory::default();
    // Enough games that a working adjudication calls some whatever the
    // embedded net (generation 5 calls 4 of the first 24, none of the first 7).
    let games: Vec<Played> = (0..48)
        .filter_map(|n| play_game(&c, n, &shared, &mut memory))
        .collect();
    let called = games.iter().filter(|g| g.adjudicated).count();
    assert!(called >= 2, "48 games at 300 cp: {called} called");
    // A called game's result is its winner's.
    for g in games.iter().filter(|g| g.adjudicated) {
        assert_ne!(g.chain.outcome(), Outcome::Draw);
    }
    let off = Config {
        adjudication: Adjudication { cp: 0, plies: 4 },
        ..c
    };
    let played_out = (0..6).filter_map(|n| play_game(&off, n, &shared, &mut memory));
    assert!(played_out.into_iter().all(|g| !g.adjudicated));
    for bad in [
        "--adjudicate -1",
        "--adjudicate 20001",
        "--adjudicate-plies 0",
    ] {
        let e = parse(&format!("x.bin {bad}")).unwrap_err();
        assert!(e.contains(bad.split(' ').next().unwrap()), "{bad}: {e}");
    }
}

#[test]
fn a_run_keeps_each_position_once_and_stops_when_no_game_adds_one() {
    let dir = crate::scratch::dir("datagen-repeats");
    let out = dir.join("d.bin");
    // No random opening: every game is the same game.
    let c = parse(&format!(
        "{} --positions 1000 --nodes 200 --random-plies 0 --max-plies 30",
        out.display()
    ))
    .unwrap();
    let e = run(&c).unwrap_err();
    assert!(
        e.contains("100 games in a row added no new position"),
        "{e}"
    );
    let samples = data::read(&out).unwrap();
    let keys: HashSet<u64> = samples
        .iter()
        .map(|s| data::board_key(&s.board).unwrap())
        .collect();
    assert_eq!(keys.len(), samples.len(), "each position once");
    assert!(!keys.is_empty() && keys.len() <= 30);
    // A file of version 1 is not appended to.
    std::fs::write(&out, data::encode(&samples[0]).unwrap()).unwrap();
    let e = run(&c).unwrap_err();
    assert!(e.contains("no header (version 1)"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
