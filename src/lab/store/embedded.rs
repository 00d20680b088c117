//! The nets embedded so far in every store a lab command opens, each
//! under its committed record: generation 5 (`generation5.json`, its file
//! `generation5.nnue`, the base the generations after it count from) and
//! the embedded net (`src/eval/nnue/default.nnue`, its record
//! `generation6.json`). A clean clone's store then holds their lineage,
//! `autotest nets default-md` makes `src/eval/nnue/default.md` there, and
//! `EvalFile=store:PREFIX` plays any of them.

use super::{Record, Store, StoreError};
use crate::eval::nnue::Network;
use crate::object_store::hex;
use sha2::{Digest, Sha256};

/// Generation 5's file, embedded before generation 6.
const GENERATION5: &[u8] = include_bytes!("generation5.nnue");

/// The committed records of the nets embedded so far, oldest first, with
/// their files.
fn committed_nets() -> [(&'static str, &'static [u8]); 2] {
    [
        (super::generation5::RECORD, GENERATION5),
        (include_str!("generation6.json"), Network::embedded_bytes()),
    ]
}

fn parse(text: &str) -> Record {
    serde_json::from_str(text).expect("a committed record parses")
}

/// Every committed record, oldest first.
pub fn committed() -> Vec<Record> {
    committed_nets()
        .iter()
        .map(|(text, _)| parse(text))
        .collect()
}

/// The embedded net's sha256.
pub fn sha256() -> String {
    hex(&Sha256::digest(Network::embedded_bytes()))
}

/// The embedded net's committed record; `None` for a build whose net has
/// none (one embedded by hand, before its record is committed).
pub fn record() -> Option<Record> {
    let sha = sha256();
    committed().into_iter().find(|r| r.sha256 == sha)
}

/// Puts each committed net in `store` with its record, and the embedded
/// net (alone when its record is not committed), unless there.
pub(super) fn ensure(store: &Store) -> Result<(), StoreError> {
    for (text, bytes) in committed_nets() {
        let record = parse(text);
        // A build whose default.nnue was swapped by hand has no record of
        // it: the committed one is another net's.
        if hex(&Sha256::digest(bytes)) != record.sha256 {
            continue;
        }
        if !store.object_path(&record.sha256).is_file() {
            store.put_bytes(bytes)?;
        }
        if !store.record_path(&record.sha256).is_file() {
            store.write_record(&record.sha256, record.to_json().as_bytes())?;
        }
    }
    if !store.object_path(&sha256()).is_file() {
        store.put_bytes(Network::embedded_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::store::{read_record, Kind};

    /// The embedded net has a committed record of its size, and
    /// `default.md` is that record's page (its sha256 and commit).
    #[test]
    fn the_embedded_net_has_its_committed_record() {
        let r = record().expect("the embedded net's record is committed");
        assert_eq!(r.bytes, Network::embedded_bytes().len() as u64);
        assert_eq!(r.kind, Kind::Net);
        let md = include_str!("../../eval/nnue/default.md");
        assert!(md.contains(&format!("sha256 `{}`", r.sha256)));
        let embedded = r.embedded.as_ref().expect("its record says it is embedded");
        assert!(md.contains(&format!("embedded since | {} ", embedded.commit)));
        for ((text, bytes), r) in committed_nets().iter().zip(committed()) {
            assert_eq!(hex(&Sha256::digest(bytes)), r.sha256, "{text}");
            assert_eq!(bytes.len() as u64, r.bytes);
        }
    }

    /// Opening a store puts the committed nets in with their records,
    /// once, the embedded one among them; each file is its record's.
    #[test]
    fn opening_a_store_registers_the_embedded_net() {
        let dir = crate::scratch::dir("store-embedded");
        let store = crate::lab::store::open(Some(&dir.join("store"))).unwrap();
        let r = record().unwrap();
        assert_eq!(read_record(&store, &r.sha256).unwrap(), r);
        assert_eq!(store.find(&r.sha256[..8]).unwrap().sha256, r.sha256);
        let again = crate::lab::store::open(Some(&dir.join("store"))).unwrap();
        let mut nets: Vec<String> = committed().into_iter().map(|r| r.sha256).collect();
        nets.sort();
        assert_eq!(again.objects().unwrap(), nets);
        assert_eq!(again.verify().unwrap(), vec![]);
        for r in committed() {
            assert_eq!(read_record(&again, &r.sha256).unwrap(), r);
        }
    }
}
