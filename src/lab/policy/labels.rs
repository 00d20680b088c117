//! The labels: positions with the move a fixed-depth PVS chooses there,
//! found once and kept in a file, so that a stopped or repeated run
//! searches only the positions not yet labelled.
//!
//! File format (little endian): the 8-byte magic `LPLABEL1`, `u32` the
//! search's depth; then one record of 22 bytes a position: the position's
//! self-play record (`lab::data`, 20 bytes) and the move's 16 bits
//! (`Move::bits`). Records are appended as positions are labelled, in no
//! particular order; a torn last record (a run stopped mid-write) is cut
//! off before appending.

use crate::lab::data::{self, Sample, RECORD};
use crate::lab::train::minutes;
use crate::rules::moves::Move;
use crate::search::pvs::order::Order;
use crate::search::time::SearchLimits;
use crate::search::{Params, Root, Shared};
use crate::user_text::quote;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"LPLABEL1";
const HEADER: usize = 12;
/// Bytes a labelled position.
pub const LABEL: usize = RECORD + 2;

/// Each labelling search's table, MB: cleared before every position, so
/// that a label depends on its position alone.
const HASH_MB: usize = 8;

/// A position and the move the search chose there.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Labelled {
    pub sample: Sample,
    pub best: Move,
}

/// A position's self-play record and its label, as the file holds them.
pub type Record = ([u8; RECORD], Move);

/// A position's key in the labels: its record without the score and the
/// result (the same board and side to move, the same label).
type Key = [u8; 17];

fn key(record: &[u8; RECORD]) -> Key {
    let mut k = [0; 17];
    k[..16].copy_from_slice(&record[..16]);
    k[16] = record[19];
    k
}

/// The header of a labels file of `depth`.
fn header(depth: u32) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&depth.to_le_bytes());
    h
}

/// A labelled record's bytes.
pub fn encode(record: &[u8; RECORD], best: Move) -> [u8; LABEL] {
    let mut r = [0; LABEL];
    r[..RECORD].copy_from_slice(record);
    r[RECORD..].copy_from_slice(&best.bits().to_le_bytes());
    r
}

/// The depth and the labelled records of a labels file's `bytes`, a torn
/// last record left out (its length returned); errors name the record.
fn parse(bytes: &[u8]) -> Result<(u32, Vec<Record>, usize), String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a labels file (no LPLABEL1 header)".to_string());
    }
    let depth = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    let body = &bytes[HEADER..];
    let mut out = Vec::with_capacity(body.len() / LABEL);
    for (i, r) in body.chunks_exact(LABEL).enumerate() {
        let record: [u8; RECORD] = r[..RECORD].try_into().expect("a record");
        let bits = u16::from_le_bytes([r[RECORD], r[RECORD + 1]]);
        let best = Move::from_bits(bits)
            .ok_or_else(|| format!("record {i}: {bits:#06x} is not a move"))?;
        out.push((record, best));
    }
    Ok((depth, out, body.len() % LABEL))
}

/// Every labelled position of the labels file at `path` (the held-out
/// sample's reader); the error names the file and the record.
pub fn read(path: impl AsRef<Path>) -> Result<Vec<Labelled>, String> {
    let path = path.as_ref();
    let name = quote(&path.display().to_string());
    let bytes = std::fs::read(path).map_err(|e| format!("labels '{name}': {e}"))?;
    let (_, records, torn) = parse(&bytes).map_err(|e| format!("labels '{name}': {e}"))?;
    if torn != 0 {
        return Err(format!(
            "labels '{name}': ends {torn} bytes into a record of {LABEL}"
        ));
    }
    records
        .iter()
        .enumerate()
        .map(|(i, (r, best))| {
            let sample = data::decode(r, i).map_err(|e| format!("labels '{name}': {e}"))?;
            Ok(Labelled {
                sample,
                best: *best,
            })
        })
        .collect()
}

/// Writes `labelled` as a labels file of `depth` (the held-out sample).
pub fn write(path: &Path, depth: u32, labelled: &[Record]) -> Result<(), String> {
    let mut bytes = header(depth);
    for (r, m) in labelled {
        bytes.extend_from_slice(&encode(r, *m));
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The best move at `depth` of each of `records`, in their order: those
/// the labels file at `path` holds are read from it, the others searched
/// on `threads` threads and appended to it as they are found, with
/// progress on standard error.
pub fn label(
    path: &Path,
    records: &[[u8; RECORD]],
    depth: u32,
    threads: usize,
    params: Params,
) -> Result<Vec<Move>, String> {
    let name = quote(&path.display().to_string());
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let h = header(depth);
            std::fs::write(path, &h).map_err(|e| format!("cannot write labels '{name}': {e}"))?;
            h
        }
        Err(e) => return Err(format!("cannot read labels '{name}': {e}")),
    };
    let (had_depth, known, torn) = parse(&bytes).map_err(|e| format!("labels '{name}': {e}"))?;
    if had_depth != depth {
        return Err(format!(
            "labels '{name}' were searched to depth {had_depth}, not {depth}: give --depth {had_depth} or another --labels file"
        ));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open labels '{name}': {e}"))?;
    if torn != 0 {
        file.set_len((bytes.len() - torn) as u64)
            .map_err(|e| format!("cannot cut the torn last record of labels '{name}': {e}"))?;
        eprintln!("train-policy: '{name}': cut a torn last record ({torn} bytes)");
    }
    let mut found: HashMap<Key, Move> = known.iter().map(|(r, m)| (key(r), *m)).collect();
    let mut seen = HashSet::new();
    let todo: Vec<usize> = (0..records.len())
        .filter(|&i| !found.contains_key(&key(&records[i])) && seen.insert(key(&records[i])))
        .collect();
    eprintln!(
        "train-policy: {} positions, {} labelled in '{name}', {} to search at depth {depth}",
        records.len(),
        records.len() - todo.len(),
        todo.len()
    );
    if !todo.is_empty() {
        search_all(records, &todo, depth, threads, params, |r, m| {
            found.insert(key(r), m);
            file.write_all(&encode(r, m))
                .map_err(|e| format!("cannot write labels '{name}': {e}"))
        })?;
    }
    Ok(records.iter().map(|r| found[&key(r)]).collect())
}

/// Searches `records[i]` for each `i` of `todo` on `threads` threads,
/// handing each label to `keep` as it comes and showing the progress.
fn search_all(
    records: &[[u8; RECORD]],
    todo: &[usize],
    depth: u32,
    threads: usize,
    params: Params,
    mut keep: impl FnMut(&[u8; RECORD], Move) -> Result<(), String>,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<Move, String>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                let shared = Shared::new(HASH_MB, 4);
                let mut order = Order::default();
                while !failed.load(Ordering::Relaxed) {
                    let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let best = best_move(&records[i], i, depth, params, &shared, &mut order);
                    if tx.send((i, best)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let start = Instant::now();
        let mut shown = Instant::now();
        for (done, (i, best)) in rx.iter().enumerate() {
            let kept = best.and_then(|m| keep(&records[i], m));
            if let Err(e) = kept {
                failed.store(true, Ordering::Relaxed);
                return Err(e);
            }
            let done = done + 1;
            if done == todo.len() || shown.elapsed() >= Duration::from_secs(2) {
                shown = Instant::now();
                let per = start.elapsed().div_f64(done as f64);
                eprintln!(
                    "train-policy: labelled {done} / {} ({:.1}%), {:.1} ms a search, about {} left",
                    todo.len(),
                    100.0 * done as f64 / todo.len() as f64,
                    per.as_secs_f64() * 1000.0 * threads as f64,
                    minutes(per.mul_f64((todo.len() - done) as f64))
                );
            }
        }
        Ok(())
    })
}

/// The move the search chooses in record `index`, `record`, at `depth`,
/// from a cleared table and cleared move-ordering tables.
fn best_move(
    record: &[u8; RECORD],
    index: usize,
    depth: u32,
    params: Params,
    shared: &Shared,
    order: &mut Order,
) -> Result<Move, String> {
    let sample = data::decode(record, index).map_err(|e| e.to_string())?;
    shared.tt.clear();
    order.clear();
    shared.stop.store(false, Ordering::Relaxed);
    let limits = SearchLimits::depth(depth);
    let answer = crate::search::pvs::think(
        &Root::new(sample.board),
        &limits,
        params,
        shared,
        std::slice::from_mut(order),
        |_, _, _| {},
    );
    answer
        .best
        .ok_or_else(|| format!("record {index}: the search found no move"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::data::{encode as record_of, Outcome};
    use crate::rules::fen;

    fn record(text: &str) -> [u8; RECORD] {
        record_of(&Sample {
            board: fen::parse(text).unwrap(),
            score: 5,
            outcome: Outcome::Draw,
        })
        .unwrap()
    }

    #[test]
    fn labels_are_searched_once_and_kept() {
        let dir = crate::scratch::dir("policy-labels");
        let path = dir.join("l.labels");
        let records = [record(fen::STARTPOS), record(fen::ENDGAME)];
        let params = Params::default();
        let first = label(&path, &records[..1], 2, 1, params).unwrap();
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        assert_eq!(len, HEADER + LABEL);
        // A torn record is cut; the known label is read, not searched.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(&[1, 2, 3])
            .unwrap();
        let both = label(&path, &records, 2, 2, params).unwrap();
        assert_eq!(both[0], first[0]);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            HEADER + 2 * LABEL
        );
        let back = read(&path).unwrap();
        assert_eq!(back.len(), 2);
        let e = label(&path, &records, 3, 1, params).unwrap_err();
        assert!(e.contains("depth 2, not 3"), "{e}");
        std::fs::write(&path, b"LPLABEL0\x02\0\0\0").unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.contains("l.labels': not a labels file"), "{e}");
        let mut bad = header(2);
        bad.extend_from_slice(&record(fen::STARTPOS));
        bad.extend_from_slice(&[0, 0]);
        std::fs::write(&path, bad).unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.ends_with("record 0: 0x0000 is not a move"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
