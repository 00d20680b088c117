use super::*;
use crate::lab::data::{HEADER, RECORD};

fn store(name: &str) -> (std::path::PathBuf, Store) {
    let dir = crate::scratch::dir(name);
    let store = open(Some(&dir.join("store"))).unwrap();
    (dir, store)
}

/// A registered dataset is an object with its record beside it: kind,
/// size, positions, command, build, date and parents; the same bytes
/// registered again keep the first record.
#[test]
fn register_writes_the_object_and_its_record() {
    let (dir, store) = store("store-register");
    let file = dir.join("d.bin");
    let mut bytes = HEADER.to_vec();
    bytes.extend([7u8; 3 * RECORD]);
    std::fs::write(&file, &bytes).unwrap();
    let command: Vec<String> = ["leiserchess", "datagen", "d.bin"]
        .map(String::from)
        .to_vec();
    let parent = evaluation(&store, Role::Played, &EngineConfig::default()).unwrap();
    let r = register(&store, &file, Kind::Dataset, vec![parent.clone()], &command).unwrap();
    assert_eq!(
        (r.kind, r.bytes, r.positions),
        (Kind::Dataset, bytes.len() as u64, Some(3))
    );
    assert_eq!(r.command, command);
    assert_eq!(r.parents, vec![parent.clone()]);
    assert!(r.date.is_some() && r.build.sha256.as_ref().is_some_and(|s| s.len() == 64));
    assert_eq!(read_record(&store, &r.sha256).unwrap(), r);
    assert_eq!(std::fs::read(store.object_path(&r.sha256)).unwrap(), bytes);
    // The embedded net played, in the store since `open`.
    assert_eq!(
        parent,
        Parent::object(Role::Played, Kind::Net, &embedded::sha256())
    );

    let again = register(&store, &file, Kind::Dataset, Vec::new(), &[]).unwrap();
    assert_eq!(again, r);
    // It, and the committed nets every store holds.
    assert_eq!(
        records(&store).unwrap().len(),
        1 + embedded::committed().len()
    );
}

/// The evaluation a search used, as a parent: the hand-written one, a net
/// of the store by prefix, a net file (put in the store as an input), and
/// a prefix the store lacks refused naming it.
#[test]
fn the_evaluation_as_a_parent() {
    let (dir, store) = store("store-evaluation");
    let mut engine = EngineConfig::default();
    engine.search.use_nnue = false;
    let hand = evaluation(&store, Role::Labelled, &engine).unwrap();
    assert_eq!(hand.source, Source::HandWritten);
    assert_eq!(
        serde_json::to_string(&hand).unwrap(),
        r#"{"role":"labelled","source":"hand-written"}"#
    );

    let mut engine = EngineConfig {
        eval_file: format!("store:{}", &embedded::sha256()[..8]),
        ..EngineConfig::default()
    };
    let stored = evaluation(&store, Role::Labelled, &engine).unwrap();
    assert_eq!(
        stored,
        Parent::object(Role::Labelled, Kind::Net, &embedded::sha256())
    );

    let net = dir.join("n.nnue");
    std::fs::write(&net, b"a net's bytes").unwrap();
    engine.eval_file = net.display().to_string();
    let file = evaluation(&store, Role::Played, &engine).unwrap();
    let Source::Object { sha256, .. } = &file.source else {
        panic!("{file:?}")
    };
    let r = read_record(&store, sha256).unwrap();
    assert!(r.command.is_empty() && r.parents.is_empty() && r.kind == Kind::Net);

    engine.eval_file = "store:00000000".to_string();
    let e = evaluation(&store, Role::Played, &engine).unwrap_err();
    assert!(matches!(e, StoreError::NotFound { .. }), "{e}");
}

/// A record that does not parse, or names another hash, is refused
/// naming its file.
#[test]
fn a_bad_record_is_named() {
    let (_dir, store) = store("store-bad-record");
    let sha = "ab".repeat(32);
    let path = store.write_record(&sha, b"{ not json").unwrap();
    let e = read_record(&store, &sha).unwrap_err();
    assert!(matches!(e, StoreError::BadMetadata { .. }), "{e:?}");
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    let other = generation5::record().to_json();
    store.write_record(&sha, other.as_bytes()).unwrap();
    let e = read_record(&store, &sha).unwrap_err().to_string();
    assert!(e.contains("it names sha256 ba3fde78"), "{e}");
    assert!(records(&store).is_err());
}

fn promotion(generation: u32) -> Promotion {
    Promotion {
        loop_dir: "/loops/a".to_string(),
        generation,
        against: Some(generation5::record().sha256),
        sprt: SprtSummary {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            limits: "nodes=40".to_string(),
            wins: 12,
            draws: 3,
            losses: 1,
            llr: 2.97,
        },
        host: Some("node7".to_string()),
        date: 1_800_000_000,
    }
}

/// A promoted net's record gains the promotion, once a loop's
/// generation, after its lineage is kept as it was; a net not in the
/// store goes in with a record of its own; a record without promotions
/// (generation 5's) writes none.
#[test]
fn a_promotion_marks_the_net_s_record_once() {
    let (dir, store) = store("store-promote");
    let net = dir.join("net.nnue");
    std::fs::write(&net, b"a candidate").unwrap();
    let data = Parent::object(Role::TrainedOn, Kind::Dataset, &"cd".repeat(32));
    let trained = register(&store, &net, Kind::Net, vec![data.clone()], &[]).unwrap();
    let marked = promote(&store, &net, promotion(1)).unwrap();
    assert_eq!(marked.promoted, [promotion(1)]);
    assert_eq!(marked.parents, [data]);
    assert_eq!(read_record(&store, &trained.sha256).unwrap(), marked);
    let again = promote(&store, &net, promotion(1)).unwrap();
    assert_eq!(again, marked);
    let twice = promote(&store, &net, promotion(3)).unwrap();
    assert_eq!(twice.promoted, [promotion(1), promotion(3)]);
    let text = std::fs::read_to_string(store.record_path(&trained.sha256)).unwrap();
    assert!(text.contains("\"loop\": \"/loops/a\""), "{text}");
    assert!(text.contains("\"limits\": \"nodes=40\""), "{text}");
    // A net the store did not have.
    let other = dir.join("other.nnue");
    std::fs::write(&other, b"another candidate").unwrap();
    let r = promote(&store, &other, promotion(2)).unwrap();
    assert!(r.command.is_empty() && r.parents.is_empty() && r.kind == Kind::Net);
    assert_eq!(r.promoted, [promotion(2)]);
    assert!(!generation5::record().to_json().contains("promoted"));
}
