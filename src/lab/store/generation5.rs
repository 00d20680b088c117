//! Generation 5, the embedded net, in the store with its committed record
//! (`generation5.json`): what its hand-written history (`generation5.md`,
//! which `src/eval/nnue/default.md` carries) knows of it (the training
//! command, the 37 shards by sha256 prefix, lost, and generation 4, which
//! it was measured against), so that its lineage is in every store a lab
//! command opens.

use super::{Record, Store, StoreError};
use crate::eval::nnue::Network;
use crate::object_store::hex;
use sha2::{Digest, Sha256};

/// The committed record.
const RECORD: &str = include_str!("generation5.json");

/// Generation 5's record.
pub(super) fn record() -> Record {
    serde_json::from_str(RECORD).expect("generation5.json is a record")
}

/// Puts the embedded net in `store` with generation 5's record, unless
/// both are there. A build whose embedded net is not generation 5 puts
/// the net in without a record: the committed one is generation 5's only
/// (tests/engine/nnue.rs and this file's tests keep the two together).
pub(super) fn ensure(store: &Store) -> Result<(), StoreError> {
    let bytes = Network::embedded_bytes();
    let sha256 = hex(&Sha256::digest(bytes));
    let has_record = store.record_path(&sha256).is_file();
    if store.object_path(&sha256).is_file() && has_record {
        return Ok(());
    }
    store.put_bytes(bytes)?;
    let record = record();
    if !has_record && record.sha256 == sha256 {
        store.write_record(&sha256, record.to_json().as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::store::{read_record, Kind, Role, Source};

    /// The record is the embedded file's (sha256 and size), and names
    /// every shard prefix and the training command of default.md, its
    /// shards lost, and generation 4 as the net it was measured against.
    #[test]
    fn the_record_is_default_md_s() {
        let r = record();
        let bytes = Network::embedded_bytes();
        assert_eq!(r.sha256, hex(&Sha256::digest(bytes)));
        assert_eq!(r.bytes, bytes.len() as u64);
        assert_eq!(r.kind, Kind::Net);
        let md = include_str!("../../eval/nnue/default.md");
        assert!(md.contains(&r.sha256));
        let shards: Vec<&Source> = r
            .parents
            .iter()
            .filter(|p| p.role == Role::TrainedOn)
            .map(|p| &p.source)
            .collect();
        assert_eq!(shards.len(), 18 + 19);
        for s in &shards {
            let Source::Object {
                kind, sha256, lost, ..
            } = s
            else {
                panic!("{s:?}")
            };
            assert!(
                *lost && *kind == Kind::Dataset && sha256.len() == 8,
                "{s:?}"
            );
            assert!(
                md.contains(sha256.as_str()),
                "{sha256} is not in default.md"
            );
        }
        let baseline: Vec<_> = r
            .parents
            .iter()
            .filter(|p| p.role == Role::Baseline)
            .collect();
        assert_eq!(baseline.len(), 1);
        // Embedded by c5f3be9, on the record's date (that commit's).
        let embedded = r.embedded.as_ref().expect("generation 5 was embedded");
        assert_eq!(embedded.commit, "c5f3be9");
        assert_eq!(Some(embedded.date), r.date);
        assert!(md.contains(&format!("embedded since | {} ", embedded.commit)));
        let words = r.command.join(" ");
        for part in [
            "--epochs 10 --lambda 0.3 --beam --mirror",
            "--out target/nnue/g5.nnue",
        ] {
            assert!(md.contains(part) && words.contains(part), "{part}");
        }
        // The hand-written history, carried whole.
        assert!(md.contains(crate::lab::store::GENERATION5_HISTORY));
    }

    /// Opening a store puts the embedded net in with the record, once.
    #[test]
    fn opening_a_store_registers_generation_5() {
        let dir = crate::scratch::dir("store-generation5");
        let store = crate::lab::store::open(Some(&dir.join("store"))).unwrap();
        let r = record();
        assert_eq!(read_record(&store, &r.sha256).unwrap(), r);
        assert_eq!(store.find("ba3fde78").unwrap().sha256, r.sha256);
        let again = crate::lab::store::open(Some(&dir.join("store"))).unwrap();
        assert_eq!(again.objects().unwrap(), vec![r.sha256.clone()]);
        assert_eq!(again.verify().unwrap(), vec![]);
    }
}
