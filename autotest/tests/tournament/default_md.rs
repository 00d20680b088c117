//! `autotest nets default-md`: `src/eval/nnue/default.md` is what it
//! makes of the embedded net in a store that holds only the committed
//! nets and an empty results database (what a clean clone has); a net two
//! loop generations
//! after generation 5 gets its generation, file, shape, lineage,
//! training command, data, SPRTs with their runs, the generation between,
//! and generation 5's history; a net of no known generation is refused.

use crate::common::scratch;
use autotest::db::loops::{self, GenerationRow, LoopRow};
use autotest::db::open;
use autotest::db::text_enums::Decision;
use leiserchess::eval::nnue::Network;
use leiserchess::lab::store::{self, Kind, Parent, Promotion, Role, SprtSummary};
use std::path::Path;
use std::process::{Command, Output};

/// autotest with `args`, its store and database under `dir`.
fn autotest(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(args)
        .env(leiserchess::object_store::ENV, dir.join("store"))
        .env("AUTOTEST_DB", dir.join("lab.db"))
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn repo_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::read_to_string(root.join(path)).unwrap()
}

#[test]
fn default_md_is_made_from_the_embedded_net_s_record() {
    let dir = scratch::dir("default_md/embedded");
    let signature = repo_file("bench/signature-pvs.txt");
    let embedded = store::embedded::sha256();
    let out = autotest(
        &[
            "nets",
            "default-md",
            &embedded[..8],
            "--bench",
            signature.trim(),
        ],
        &dir,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let made = text(&out.stdout);
    let committed = repo_file("src/eval/nnue/default.md");
    if made != committed {
        let at = made
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(made.lines().count().min(committed.lines().count()));
        panic!(
            "src/eval/nnue/default.md is not what `autotest nets default-md {} --bench {}` \
             makes; they differ from line {}:\n{made}",
            &embedded[..8],
            signature.trim(),
            at + 1
        );
    }
}

/// A promotion of the loop `/loops/a`'s generation `g` against `against`.
fn promotion(g: u32, against: &str, wins: u64) -> Promotion {
    Promotion {
        loop_dir: "/loops/a".to_string(),
        generation: g,
        against: Some(against.to_string()),
        sprt: SprtSummary {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            limits: "tc=10+0.1".to_string(),
            wins,
            draws: 10,
            losses: 5,
            llr: 2.95,
        },
        host: Some("node1".to_string()),
        date: 1_800_000_000,
    }
}

#[test]
fn a_loop_s_net_gets_its_generation_lineage_and_sprts() {
    let dir = scratch::dir("default_md/loop");
    let s = store::open(Some(&dir.join("store"))).unwrap();
    let gen5 = s.find("ba3fde78").unwrap().sha256;
    let put = |name: &str, bytes: &[u8], kind: Kind, parents: Vec<Parent>, command: &str| {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let words: Vec<String> = command.split(' ').map(str::to_string).collect();
        store::register(&s, &file, kind, parents, &words)
            .unwrap()
            .sha256
    };
    let mut header = leiserchess::lab::data::HEADER.to_vec();
    header.extend([0u8; 2 * leiserchess::lab::data::RECORD]);
    let data = put(
        "data.bin",
        &header,
        Kind::Dataset,
        vec![Parent::object(Role::Played, Kind::Net, &gen5)],
        "leiserchess datagen gen-001/data.bin --positions 2",
    );
    // Two nets of generation 5's shape, a weight apart.
    let net = |n: u8| {
        let mut bytes = Network::embedded_bytes().to_vec();
        bytes[100] ^= n;
        bytes
    };
    let trained = vec![Parent::object(Role::TrainedOn, Kind::Dataset, &data)];
    let six = put(
        "six.nnue",
        &net(1),
        Kind::Net,
        trained.clone(),
        "leiserchess train gen-001/data.bin --out gen-001/net.nnue --epochs 3",
    );
    let seven_bytes = net(2);
    let seven = put(
        "seven.nnue",
        &seven_bytes,
        Kind::Net,
        trained,
        "leiserchess train gen-001/data.bin --out gen-002/net.nnue --epochs 3",
    );
    store::promote(&s, &dir.join("six.nnue"), promotion(1, &gen5, 30)).unwrap();
    store::promote(&s, &dir.join("seven.nnue"), promotion(2, &six, 31)).unwrap();
    let mut conn = open::open(&dir.join("lab.db")).unwrap();
    let generation = |number, candidate: &str| GenerationRow {
        number,
        candidate: Some(candidate.to_string()),
        decision: Some(Decision::Promoted),
        ..GenerationRow::default()
    };
    let row = LoopRow {
        dir: "/loops/a".to_string(),
        settings: "{}".to_string(),
        started: 1.0,
        best: Some(seven.clone()),
        generations: vec![generation(1, &six), generation(2, &seven)],
    };
    let id = loops::write(&mut conn, &row).unwrap();
    conn.execute(
        "INSERT INTO runs (id, kind, command, engines, title, repeat, seed, status, started)
         VALUES (41, 'sprt', '[]', '[]', 't', 1, 1, 'H1', 1)",
        [],
    )
    .unwrap();
    loops::set_sprt_run(&conn, id, 2, 41).unwrap();
    drop(conn);

    let out = autotest(&["nets", "default-md", &seven[..10]], &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = text(&out.stdout);
    for part in [
        "| generation | 7 |".to_string(),
        format!("| file | 295,700 bytes, sha256 `{seven}` |"),
        "| shape | 1,152 inputs (pieces and beams from each side's view) → 2 × 128 → 1 |"
            .to_string(),
        "| embedded since | not in its record |".to_string(),
        format!("| in the store | `store:{}`", &seven[..8]),
        "| bench signature | not given".to_string(),
        format!("| trained-on | `{data}` | dataset | kept | 2 |"),
        "```sh\nleiserchess train gen-001/data.bin --out gen-002/net.nnue --epochs 3\n```"
            .to_string(),
        format!(
            "- `{data}`: 2 positions, in the store; `leiserchess datagen gen-001/data.bin \
             --positions 2`; played `{gen5}`"
        ),
        format!(
            "- `autotest loop` in `/loops/a`, generation 2, against `{six}`: SPRT at tc=10+0.1, \
             elo0 0 elo1 5: W 31 D 10 L 5,"
        ),
        "LLR 2.95, H1 (run 41 of the results database), 2027-01-15 08:00:00 UTC.".to_string(),
        format!("- generation 6: `{six}`, by `autotest loop` in `/loops/a`, generation 1: SPRT"),
        store::GENERATION5_HISTORY.to_string(),
    ] {
        assert!(md.contains(&part), "{part:?} not in:\n{md}");
    }
    assert_eq!(seven_bytes.len(), 295_700);

    // A net of no known generation.
    let loose = put(
        "loose.nnue",
        &net(3),
        Kind::Net,
        Vec::new(),
        "leiserchess train x",
    );
    let out = autotest(&["nets", "default-md", &loose], &dir);
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert!(
        e.contains(&format!(
            "nets default-md: the generation of {loose} is not known: it is generation 5 \
             (ba3fde78), or a net promoted by autotest loop against one whose generation is \
             known, and {loose} is neither"
        )),
        "{e}"
    );
}
