//! Generation 5's committed record (`generation5.json`): what its
//! hand-written history (`generation5.md`, which every
//! `src/eval/nnue/default.md` carries) knows of it (the training command,
//! the 37 shards by sha256 prefix, lost, and generation 4, which it was
//! measured against). The generations after it count from it.

use super::Record;

/// The committed record.
pub(super) const RECORD: &str = include_str!("generation5.json");

/// Generation 5's record.
pub(super) fn record() -> Record {
    serde_json::from_str(RECORD).expect("generation5.json is a record")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::store::{Kind, Role, Source};

    /// The record names every shard prefix and the training command of
    /// generation 5's history, its shards lost, generation 4 as the net it
    /// was measured against, and the commit that embedded it.
    #[test]
    fn the_record_is_the_history_s() {
        let r = record();
        assert_eq!(r.bytes, 295_700);
        assert_eq!(r.kind, Kind::Net);
        let md = crate::lab::store::GENERATION5_HISTORY;
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
                "{sha256} is not in generation5.md"
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
        assert!(crate::lab::store::embedded::committed().contains(&r));
    }
}
