//! The store's mark of a promoted net (docs/STORE.md): its lineage
//! record gains the loop's folder, the generation, the SPRT (bounds,
//! limits, the candidate's W/D/L, the last LLR) and the net it was played
//! against. That net is the loop's best by hash or, before any promotion,
//! the engine's embedded net, known by hash from the data the candidate
//! was trained on: the net that played (or scored) them, as the engine
//! recorded it.

use super::args::Setup;
use super::executor::{Artifact, SprtResult};
use crate::db::provenance::limits_text;
use leiserchess::lab::store::{self, Promotion, Role, Source, SprtSummary, Store};

/// Marks `net` in the store of `setup` as promoted by generation
/// `generation`'s `sprt` against `against` (`None`: the embedded net).
pub fn mark(
    setup: &Setup,
    net: &Artifact,
    generation: u32,
    sprt: &SprtResult,
    against: Option<&Artifact>,
) -> Result<(), String> {
    let store = store::open(setup.store.as_deref()).map_err(|e| e.to_string())?;
    let against = match against {
        Some(best) => Some(best.sha256.clone()),
        None => embedded_from_data(&store, &net.sha256),
    };
    let promotion = Promotion {
        loop_dir: setup.dir.display().to_string(),
        generation,
        against,
        sprt: SprtSummary {
            elo0: setup.sprt.elo0,
            elo1: setup.sprt.elo1,
            alpha: setup.sprt.alpha,
            beta: setup.sprt.beta,
            limits: limits_text(&setup.limits),
            wins: sprt.wdl[0],
            draws: sprt.wdl[1],
            losses: sprt.wdl[2],
            llr: sprt.llr,
        },
        host: store::host(),
        date: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    };
    store::promote(&store, &net.path, promotion).map_err(|e| e.to_string())?;
    Ok(())
}

/// The net that played or scored the first dataset the net `sha256` was
/// trained on that says so, by hash.
fn embedded_from_data(store: &Store, sha256: &str) -> Option<String> {
    let record = store::read_record(store, sha256).ok()?;
    record
        .parents
        .iter()
        .filter(|p| p.role == Role::TrainedOn)
        .filter_map(|p| match &p.source {
            Source::Object { sha256, .. } => store::read_record(store, sha256).ok(),
            Source::HandWritten => None,
        })
        .find_map(|data| {
            data.parents.into_iter().find_map(|p| match p.source {
                Source::Object { sha256, .. }
                    if matches!(p.role, Role::Played | Role::Labelled) =>
                {
                    Some(sha256)
                }
                _ => None,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::SprtSpec;
    use crate::net_loop::executor::Verdict;
    use crate::net_loop::sprt::artifact;
    use leiserchess::lab::store::{Kind, Parent};
    use std::path::PathBuf;

    /// Before any promotion the net played against is the one that played
    /// the candidate's data (here generation 5, the embedded net); after,
    /// the best by hash; the SPRT and the loop are in the mark.
    #[test]
    fn the_mark_names_the_loop_the_sprt_and_the_net_played_against() {
        let dir = crate::scratch::dir("net_loop-mark");
        let setup = Setup {
            engine: PathBuf::from("/e"),
            store: Some(dir.join("store")),
            db: None,
            threads: 1,
            sprt: SprtSpec {
                beta: 0.1,
                ..Setup::example(&dir).sprt
            },
            ..Setup::example(&dir.join("loop"))
        };
        let store = store::open(setup.store.as_deref()).unwrap();
        let embedded = store::embedded::sha256();
        let data = dir.join("data.bin");
        std::fs::write(&data, b"data").unwrap();
        let played = Parent::object(Role::Played, Kind::Net, &embedded);
        let data = store::register(&store, &data, Kind::Dataset, vec![played], &[]).unwrap();
        let net = dir.join("net.nnue");
        std::fs::write(&net, b"a net").unwrap();
        let trained = Parent::object(Role::TrainedOn, Kind::Dataset, &data.sha256);
        store::register(&store, &net, Kind::Net, vec![trained], &[]).unwrap();
        let net = artifact(&net).unwrap();
        let sprt = SprtResult {
            pgn: net.clone(),
            verdict: Verdict::H1,
            llr: 2.5,
            wdl: [9, 4, 2],
        };
        mark(&setup, &net, 1, &sprt, None).unwrap();
        let best = Artifact {
            path: PathBuf::from("/b"),
            sha256: "ef".repeat(32),
        };
        mark(&setup, &net, 2, &sprt, Some(&best)).unwrap();
        let promoted = store::read_record(&store, &net.sha256).unwrap().promoted;
        let [first, second] = &promoted[..] else {
            panic!("{promoted:?}")
        };
        assert_eq!(first.against.as_deref(), Some(embedded.as_str()));
        assert_eq!(second.against, Some(best.sha256));
        assert_eq!(first.loop_dir, dir.join("loop").display().to_string());
        assert_eq!((first.generation, second.generation), (1, 2));
        let s = &first.sprt;
        assert_eq!(
            (
                s.elo1,
                s.beta,
                s.limits.as_str(),
                [s.wins, s.draws, s.losses],
                s.llr
            ),
            (5.0, 0.1, "nodes=40", [9, 4, 2], 2.5)
        );
    }
}
