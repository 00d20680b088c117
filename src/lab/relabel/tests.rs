//! `relabel`'s tests: what it keeps, that any thread count gives the same
//! file, that a stopped run resumes to the same file, and its refusals.

use super::*;
use crate::lab::data::{
    chains, command::expand, decode_all, open_to_append, Format, HEADER, RECORD,
};
use crate::lab::datagen;
use clap::Parser;
use std::path::Path;

/// The run of `relabel`'s command line `s`, in stretches of `stretch`.
fn parse(s: &str, stretch: usize) -> Result<Config, String> {
    let words = std::iter::once("relabel").chain(s.split_whitespace());
    let mut c = Config::new(&Args::try_parse_from(words).map_err(|e| e.to_string())?)?;
    c.stretch = stretch;
    Ok(c)
}

/// A fresh directory for one test, and 200 positions of net-played data in
/// it (`in.bin`), of format 2.
fn setup(test: &str) -> PathBuf {
    setup_as(test, 2)
}

/// [`setup`] with data of format `format`.
fn setup_as(test: &str, format: u16) -> PathBuf {
    let dir = crate::scratch::dir(&format!("relabel-{test}"));
    let words = format!(
        "datagen {} --positions 200 --nodes 100 --format {format}",
        dir.join("in.bin").display()
    );
    let a = datagen::Args::try_parse_from(words.split(' ')).unwrap();
    datagen::run(&datagen::Config::new(&a).unwrap()).unwrap();
    dir
}

fn relabel(dir: &Path, out: &str, flags: &str, stretch: usize) -> Result<Vec<u8>, String> {
    let (input, out) = (dir.join("in.bin"), dir.join(out));
    let line = format!("{} --out {} {flags}", input.display(), out.display());
    run(&parse(&line, stretch)?)?;
    Ok(std::fs::read(out).unwrap())
}

#[test]
fn every_kept_position_keeps_its_board_and_result_in_order() {
    let dir = setup("order");
    let input = decode_all(&std::fs::read(dir.join("in.bin")).unwrap()).unwrap();
    let out = decode_all(&relabel(&dir, "out.bin", "--hand --nodes 150", 64).unwrap()).unwrap();
    // A subsequence of the input, boards and results as they were.
    let mut rest = input.iter();
    for s in &out {
        assert!(
            rest.any(|i| i.board == s.board && i.outcome == s.outcome),
            "{s:?} is not in the input after the one before it"
        );
        assert!(s.score.abs() < MATE_BOUND as i16);
    }
    // Most positions stay; the hand-written evaluation scores them anew.
    assert!(
        out.len() >= input.len() * 3 / 4,
        "{} of {}",
        out.len(),
        input.len()
    );
    let changed = out
        .iter()
        .filter(|s| {
            input
                .iter()
                .any(|i| i.board == s.board && i.score != s.score)
        })
        .count();
    assert!(
        changed >= out.len() / 2,
        "{changed} of {} scores changed",
        out.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn any_thread_count_writes_the_same_file() {
    let dir = setup("threads");
    let one = relabel(&dir, "one.bin", "--nodes 120", 32).unwrap();
    let three = relabel(&dir, "three.bin", "--nodes 120 --threads 3", 32).unwrap();
    assert!(one.len() > HEADER.len());
    assert_eq!(one, three);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run stopped after its first stretch and its cursor, with half of its
/// next stretch written past the cursor, goes on to the whole run's file.
#[test]
fn a_stopped_run_resumes_to_the_same_file() {
    let dir = setup("resume");
    let whole = relabel(&dir, "whole.bin", "--nodes 120", 50).unwrap();
    // The first stretch alone, as a run of its own would write it.
    let input = std::fs::read(dir.join("in.bin")).unwrap();
    let first = [&input[..HEADER.len() + 50 * RECORD]].concat();
    std::fs::write(dir.join("first.bin"), first).unwrap();
    let line = |input: &str, out: &str| {
        format!(
            "{} --out {} --nodes 120",
            dir.join(input).display(),
            dir.join(out).display()
        )
    };
    run(&parse(&line("first.bin", "part.bin"), 50).unwrap()).unwrap();
    let part = std::fs::read(dir.join("part.bin")).unwrap();
    let kept = (part.len() - HEADER.len()) / RECORD;
    assert!(whole.starts_with(&part));
    let torn = [&part[..], &whole[part.len()..part.len() + 7 * RECORD + 3]].concat();
    std::fs::write(dir.join("part.bin"), torn).unwrap();
    std::fs::write(
        dir.join("part.bin.cursor"),
        format!("relabel cursor: inputs 200 done 50 kept {kept}\n"),
    )
    .unwrap();
    run(&parse(&line("in.bin", "part.bin"), 50).unwrap()).unwrap();
    assert_eq!(std::fs::read(dir.join("part.bin")).unwrap(), whole);
    let cursor = std::fs::read_to_string(dir.join("part.bin.cursor")).unwrap();
    let total = (whole.len() - HEADER.len()) / RECORD;
    assert_eq!(
        cursor,
        format!("relabel cursor: inputs 200 done 200 kept {total}\n")
    );
    // Run again when done, it changes nothing.
    run(&parse(&line("in.bin", "part.bin"), 50).unwrap()).unwrap();
    assert_eq!(std::fs::read(dir.join("part.bin")).unwrap(), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_flags_inputs_outputs_and_cursors_are_refused_by_name() {
    for (line, named) in [
        ("", "<FILES>"),
        ("in.bin", "--out <OUT>"),
        ("in.bin --out o.bin --nodes 0", "'0' for '--nodes <N>'"),
        ("in.bin --out o.bin --threads 0", "'0' for '--threads <T>'"),
        ("in.bin --out o.bin --net n.nnue --hand", "'--net <FILE>'"),
        (
            "in.bin --out o.bin --option nosuch=1",
            "unknown option 'nosuch'",
        ),
    ] {
        let e = parse(line, STRETCH).err().unwrap();
        assert!(e.contains(named), "{line}: {e}");
    }
    let dir = setup("refused");
    let refused = |out: &str| relabel(&dir, out, "--nodes 50", 64).unwrap_err();
    // A data file not relabel's own.
    std::fs::copy(dir.join("in.bin"), dir.join("other.bin")).unwrap();
    let e = refused("other.bin");
    assert!(
        e.contains("other.bin holds 200 positions and has no cursor"),
        "{e}"
    );
    // A cursor of other inputs, and one that is no cursor.
    relabel(&dir, "done.bin", "--nodes 50", 64).unwrap();
    let cursor = dir.join("done.bin.cursor");
    std::fs::write(&cursor, "relabel cursor: inputs 300 done 0 kept 0\n").unwrap();
    let e = refused("done.bin");
    assert!(
        e.contains("saved for inputs of 300 positions; these hold 200"),
        "{e}"
    );
    std::fs::write(&cursor, "relabel cursor: inputs 200 done 9 kept 10\n").unwrap();
    assert!(refused("done.bin").contains("not a relabel cursor"));
    // A cursor counting more records than the file holds.
    std::fs::write(&cursor, "relabel cursor: inputs 200 done 200 kept 199\n").unwrap();
    std::fs::write(dir.join("done.bin"), HEADER).unwrap();
    let e = refused("done.bin");
    assert!(
        e.contains("holds 0 positions; its cursor counts 199"),
        "{e}"
    );
    // A bad record names its file and its place there, before any search.
    let mut bad = std::fs::read(dir.join("in.bin")).unwrap();
    bad[HEADER.len() + 3 * RECORD..][..8].fill(0xff);
    std::fs::write(dir.join("bad.bin"), bad).unwrap();
    let (input, bad) = (dir.join("in.bin"), dir.join("bad.bin"));
    let line = format!(
        "{} {} --out {}",
        input.display(),
        bad.display(),
        dir.join("b.bin").display()
    );
    let e = run(&parse(&line, 64).unwrap()).unwrap_err();
    assert!(e.contains("bad.bin: record 3: "), "{e}");
    assert!(!dir.join("b.bin.cursor").exists());
    // A torn input names its file.
    let input = dir.join("in.bin");
    let mut bytes = std::fs::read(&input).unwrap();
    bytes.pop();
    std::fs::write(&input, bytes).unwrap();
    let e = refused("new.bin");
    assert!(
        e.contains("in.bin: the data ends 19 bytes into a record"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Chains are relabelled as chains, their moves as they were: in one
/// stretch, the expansion of the output is the output of the expansion.
#[test]
fn chains_keep_their_games_and_agree_with_their_records() {
    let dir = setup_as("chains", 3);
    expand(&dir.join("in.bin"), &dir.join("in2.bin")).unwrap();
    let out = relabel(&dir, "out.bin", "--nodes 120", 1000).unwrap();
    assert!(out.starts_with(&crate::lab::data::chain::HEADER));
    let line = format!(
        "{} --out {} --nodes 120",
        dir.join("in2.bin").display(),
        dir.join("out2.bin").display()
    );
    run(&parse(&line, 1000).unwrap()).unwrap();
    expand(&dir.join("out.bin"), &dir.join("out3.bin")).unwrap();
    let (by_records, by_chains) = (
        std::fs::read(dir.join("out2.bin")).unwrap(),
        std::fs::read(dir.join("out3.bin")).unwrap(),
    );
    assert!(by_records.len() > HEADER.len() + 100 * RECORD);
    assert_eq!(by_chains, by_records);
    let games = |f: &str| -> Vec<_> {
        chains(&dir.join(f))
            .unwrap()
            .map(|c| {
                let c = c.unwrap();
                let moves: Vec<_> = c.plies().iter().map(|p| p.mv).collect();
                (c.start().clone(), c.outcome(), moves)
            })
            .collect()
    };
    assert_eq!(games("in.bin"), games("out.bin"));
    // Inputs of two formats are refused.
    let line = format!(
        "{} {} --out {}",
        dir.join("in.bin").display(),
        dir.join("in2.bin").display(),
        dir.join("mixed.bin").display()
    );
    let e = run(&parse(&line, 1000).unwrap()).unwrap_err();
    assert!(e.contains("relabel's inputs are of one format"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chain run stopped after its first stretch, a torn game past it, goes
/// on to the whole run's file.
#[test]
fn a_stopped_chain_run_resumes_to_the_same_file() {
    let dir = setup_as("chain-resume", 3);
    let whole = relabel(&dir, "whole.bin", "--nodes 120", 50).unwrap();
    let input = Input::read(&[dir.join("in.bin")]).unwrap();
    let (units, done) = input.stretches(0, 50)[0].clone();
    let a = open_to_append(&dir.join("whole.bin"), Format::Chains).unwrap();
    let (end, kept) = a.game_ends[units.end - 1];
    drop(a);
    let part = [
        &whole[..end as usize],
        &whole[end as usize..end as usize + 9],
    ]
    .concat();
    std::fs::write(dir.join("part.bin"), part).unwrap();
    std::fs::write(
        dir.join("part.bin.cursor"),
        format!("relabel cursor: inputs 200 done {done} kept {kept}\n"),
    )
    .unwrap();
    assert_eq!(relabel(&dir, "part.bin", "--nodes 120", 50).unwrap(), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}
