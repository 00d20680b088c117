//! The dashboard over a database of 100,000 games: 50 runs of 2,000
//! games each (SPRTs, tournaments, gauntlets, with a PGN of about a
//! kilobyte per game and a fault now and then), and 60 bench runs. Each
//! request goes through the whole router (tower's `oneshot`), one router
//! as a running server has: a new read-only connection, the SQL, the
//! standings, the SVG, the HTML. The runs list and the 2,000-game SPRT's
//! page must each take at most 200 ms. The list is also timed on a new
//! router each time (the first list of a server just started).
//!
//!     cargo bench -p autotest --bench serve
//!
//! The database is made once in the target directory's scratch space
//! and kept for later runs (delete it to make it again).

use autotest::db::open;
use autotest::db::text_enums::{Measure, RunKind, Status};
use autotest::db::write::{insert_game, GameRow};
use autotest::serve::routes::router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use criterion::{criterion_group, criterion_main, Criterion};
use http_body_util::BodyExt;
use rusqlite::params;
use serde_json::json;
use std::path::{Path, PathBuf};
use tower::ServiceExt;

const RUNS: usize = 50;
const GAMES: usize = 2_000;

/// A game's PGN: its tags and 60 plies of moves, about a kilobyte.
fn pgn(n: usize, white: &str, black: &str, result: &str) -> String {
    let mut moves = String::new();
    for ply in 0..60 {
        if ply % 2 == 0 {
            moves += &format!("{}. ", ply / 2 + 1);
        }
        moves += if ply % 4 < 2 {
            "d1c1 {+0.12/7 0.05s} "
        } else {
            "c1d1 {-0.08/7 0.05s} "
        };
    }
    format!(
        "[Event \"bench\"]\n[Site \"?\"]\n[Date \"2026.11.29\"]\n[Round \"1.{}\"]\n[White \"{white}\"]\n\
         [Black \"{black}\"]\n[Result \"{result}\"]\n[TimeControl \"10+0.1\"]\n\n{moves}{result}\n",
        n + 1
    )
}

/// The database, made if missing; the id of the SPRT whose page is measured.
fn database() -> (PathBuf, i64) {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-bench.db");
    let mut conn = open::open(&path).expect("the bench database");
    let made: i64 = conn
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    if made == (RUNS * GAMES) as i64 {
        return (path, first_sprt(&conn));
    }
    conn.execute_batch("DELETE FROM games; DELETE FROM benchmarks; DELETE FROM runs;")
        .unwrap();
    let tx = conn.transaction().unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let sprt = json!({"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}).to_string();
    for r in 0..RUNS {
        let kind = [RunKind::Sprt, RunKind::Tournament, RunKind::Gauntlet][r % 3];
        let (a, b) = (format!("dev-{r}"), "base".to_string());
        let engines = json!([{"name": a}, {"name": b}]).to_string();
        let status = if r == RUNS - 1 {
            Status::Running
        } else {
            [Status::Finished, Status::H1, Status::H0][r % 3]
        };
        tx.execute(
            "INSERT INTO runs (kind, command, engines, title, time_control, repeat, sprt, seed,
                 status, started, cpu_model, cores)
             VALUES (?1, '[]', ?2, 'bench', 'tc=10+0.1', 1, ?3, 1, ?4, ?5, 'bench cpu', 2)",
            params![
                kind,
                engines,
                (kind == RunKind::Sprt).then_some(&sprt),
                status,
                1_700_000_000 + r as i64 * 3600
            ],
        )
        .unwrap();
        let id = tx.last_insert_rowid();
        for n in 0..GAMES {
            let (white, black) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
            let result = ["1-0", "0-1", "1/2-1/2", "1/2-1/2"][rng.usize(0..4)];
            let fault = rng.usize(0..200) == 0;
            let result = if fault { "1-0" } else { result };
            let row = GameRow {
                schedule_index: n,
                pair: n / 2,
                opening: n / 2 % 100,
                white: white.clone(),
                black: black.clone(),
                result: result.to_string(),
                termination: if fault { "crash" } else { "normal" }.to_string(),
                plies: Some(60),
                white_ms: Some(3000),
                black_ms: Some(3000),
                pgn: pgn(n, white, black, result),
                llr: None,
                reason: fault.then(|| format!("{black} loses: crash: exited: exit status: 3")),
            };
            insert_game(&tx, id, &row).unwrap();
        }
    }
    for r in 0..60 {
        tx.execute(
            "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started, detail)
             VALUES (?1, '[]', '[]', 'bench', 1, 1, ?2, ?3, ?4)",
            params![RunKind::Bench, Status::Finished, 1_800_000_000 + r * 60, json!({"commit": format!("{r:040x}"), "dirty": false, "engine": "x"}).to_string()],
        )
        .unwrap();
        let id = tx.last_insert_rowid();
        for (measure, rate) in [
            (Measure::BenchPvs, 1.0e6),
            (Measure::BenchMcts, 4.0e5),
            (Measure::Perft, 2.0e7),
        ] {
            for round in 1..=5 {
                let rate = rate * (0.95 + 0.1 * rng.f64());
                tx.execute(
                    "INSERT INTO benchmarks (run_id, measure, round, signature, nodes, seconds, rate)
                     VALUES (?1, ?2, ?3, ?4, 1000000, ?5, ?6)",
                    params![id, measure, round, r / 20, 1e6 / rate, rate],
                )
                .unwrap();
            }
        }
    }
    tx.commit().unwrap();
    (path, first_sprt(&conn))
}

/// The id of the first SPRT run.
fn first_sprt(conn: &rusqlite::Connection) -> i64 {
    conn.query_row(
        "SELECT MIN(id) FROM runs WHERE kind = ?1",
        [RunKind::Sprt],
        |r| r.get(0),
    )
    .unwrap()
}

async fn fetch(app: Router, uri: &str) -> usize {
    let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let answer = app.oneshot(request).await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK, "{uri}");
    answer.into_body().collect().await.unwrap().to_bytes().len()
}

fn pages(c: &mut Criterion) {
    let (db, sprt) = database();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("serve");
    group.sample_size(20);
    // As a running server answers: one router, what it keeps kept.
    let app = router(db.clone());
    for (name, uri) in [
        ("runs list", "/runs".to_string()),
        ("a 2,000-game SPRT's page", format!("/runs/{sprt}")),
        ("its PGN", format!("/runs/{sprt}/games.pgn")),
        ("history", "/history".to_string()),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| runtime.block_on(fetch(app.clone(), &uri)))
        });
    }
    // A new router each time: the first list of a server just started.
    group.bench_function("runs list, nothing kept", |b| {
        b.iter(|| runtime.block_on(fetch(router(db.clone()), "/runs")))
    });
    group.finish();
}

criterion_group!(benches, pages);
criterion_main!(benches);
