//! The dashboard's nets page shows each `autotest loop` of the results
//! database: its generations in order with their SPRT (the run, W/D/L,
//! Elo, LLR, verdict), which candidate was promoted and which rejected,
//! a generation still in progress, each net linking to its page. Through
//! the router, and in a real headless Chromium: the loop's table read on
//! a running `autotest serve`, the promoted candidate's link followed.

use crate::common::needs;
use crate::common::scratch;
use crate::serve::{open_browser, start_driver};
use crate::serve_lineage::start_server;
use autotest::db::loops::{self, GenerationRow, LoopRow, SprtFigures, StepRow};
use autotest::db::open;
use autotest::db::text_enums::{Decision, LoopStep, LoopVerdict};
use autotest::serve::connection::Database;
use autotest::serve::routes::router_over;
use autotest::stats::elo;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use leiserchess::lab::store::{self, Kind, Parent, Role};
use libtest_mimic::Trial;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower::ServiceExt;

pub fn trials() -> Vec<Trial> {
    vec![
        Trial::test(
            "serve_loops::the_nets_page_shows_each_loop_s_generations",
            || {
                the_nets_page_shows_each_loop_s_generations();
                Ok(())
            },
        ),
        needs::trial(
            "serve_loops::the_loop_s_table_is_read_and_followed_in_chromium",
            &[needs::CHROMIUM, needs::CHROMEDRIVER],
            |found| the_loop_s_table_is_read_and_followed_in_chromium(&found[0], &found[1]),
        ),
    ]
}

/// What the lab holds: the loop's id, its SPRT run, its two candidates
/// (the first promoted, the second rejected) and the first's data.
struct Lab {
    db: PathBuf,
    store: PathBuf,
    loop_id: i64,
    run: i64,
    first: String,
    second: String,
    data: String,
}

/// A database and a store under a fresh directory: a loop of three
/// generations, the first promoted (its net marked in the store), the
/// second rejected, the third at its first step.
fn lab(test: &str) -> Lab {
    let dir = scratch::dir(&format!("serve_loops/{test}"));
    let db = dir.join("lab.db");
    let store_dir = dir.join("store");
    let s = store::open(Some(&store_dir)).unwrap();
    let gen5 = s.find("ba3fde78").unwrap().sha256;
    let put = |name: &str, bytes: &[u8], kind: Kind, parents: Vec<Parent>| {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let command = ["leiserchess".to_string(), name.to_string()];
        store::register(&s, &file, kind, parents, &command)
            .unwrap()
            .sha256
    };
    let played = vec![Parent::object(Role::Played, Kind::Net, &gen5)];
    let data = put("data.bin", b"data", Kind::Dataset, played);
    let trained = vec![Parent::object(Role::TrainedOn, Kind::Dataset, &data)];
    let first = put("first.nnue", b"first", Kind::Net, trained.clone());
    let second = put("second.nnue", b"second", Kind::Net, trained);
    let mut conn = open::open(&db).unwrap();
    let step = |step, seconds| StepRow {
        step,
        seconds,
        ended: Some(2000.0),
    };
    let sprt = |wdl, llr, verdict| Some(SprtFigures { wdl, llr, verdict });
    let row = LoopRow {
        dir: "/loops/night".to_string(),
        settings: "{}".to_string(),
        started: 1_800_000_000.0,
        best: Some(first.clone()),
        generations: vec![
            GenerationRow {
                number: 1,
                best: None,
                data: Some(data.clone()),
                candidate: Some(first.clone()),
                sprt: sprt([9, 4, 2], 2.5, LoopVerdict::H1),
                decision: Some(Decision::Promoted),
                steps: vec![step(LoopStep::Datagen, 100.0), step(LoopStep::Train, 65.0)],
                ..GenerationRow::default()
            },
            GenerationRow {
                number: 2,
                best: Some(first.clone()),
                candidate: Some(second.clone()),
                sprt: sprt([2, 4, 9], -2.97, LoopVerdict::H0),
                decision: Some(Decision::Rejected),
                ..GenerationRow::default()
            },
            GenerationRow {
                number: 3,
                best: Some(first.clone()),
                steps: vec![step(LoopStep::Datagen, 90.0)],
                ..GenerationRow::default()
            },
        ],
    };
    let loop_id = loops::write(&mut conn, &row).unwrap();
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started)
         VALUES ('sprt', '[]', '[]', 'autotest loop', 1, 1, 'H1', 1000)",
        [],
    )
    .unwrap();
    let run = conn.last_insert_rowid();
    loops::set_sprt_run(&conn, loop_id, 1, run).unwrap();
    Lab {
        db,
        store: store_dir,
        loop_id,
        run,
        first,
        second,
        data,
    }
}

/// The page at `uri`, through the router.
fn page(lab: &Lab, uri: &str) -> String {
    let app = router_over(Arc::new(Database {
        path: lab.db.clone(),
        store: Some(lab.store.clone()),
    }));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let answer = app.oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        let body = answer.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8(body.to_vec()).unwrap()
    })
}

/// The rows of the loop's table, without its head.
fn rows(page: &str, loop_id: i64) -> Vec<String> {
    let start = format!("<table id=\"loop-{loop_id}\" class=\"loop\">");
    let table = page
        .split(&start)
        .nth(1)
        .unwrap_or_else(|| panic!("no {start}: {page}"));
    let table = &table[..table.find("</table>").unwrap()];
    table
        .split("<tr>")
        .skip(2)
        .map(|r| r.trim_end().to_string())
        .collect()
}

fn the_nets_page_shows_each_loop_s_generations() {
    let lab = lab("router");
    let nets = page(&lab, "/nets");
    assert!(nets.contains("<h3>/loops/night</h3>"), "{nets}");
    let best = format!(
        "its best net: <a class=\"hash\" href=\"/nets/{}\" title=\"{0}\">{}</a> (generation 1).",
        lab.first,
        &lab.first[..12]
    );
    assert!(nets.contains(&best), "{nets}");
    assert!(nets.contains("Started 2027-01-15 08:00:00 UTC"), "{nets}");
    let rows = rows(&nets, lab.loop_id);
    assert_eq!(rows.len(), 3, "{rows:?}");
    let shown = elo::elo_shown(&elo::estimate_wdl(9, 4, 2).unwrap(), 15, 1);
    let first = &rows[0];
    for part in [
        "<td>1</td><td>the engine's embedded net</td>".to_string(),
        format!("href=\"/data/{}\"", lab.data),
        format!("<a class=\"hash\" href=\"/nets/{}\"", lab.first),
        format!("<td><a href=\"/runs/{0}\">run {0}</a></td>", lab.run),
        format!("<td>9/4/2</td><td><span class=\"elo\">{shown}</span></td><td>2.50</td>"),
        "<span class=\"status H1\">H1</span>".to_string(),
        "<span class=\"decision promoted\">promoted</span>".to_string(),
        "<td>datagen 1m 40s, train 1m 05s</td>".to_string(),
    ] {
        assert!(first.contains(&part), "{part} not in {first}");
    }
    let second = &rows[1];
    for part in [
        format!(
            "<td>2</td><td><a class=\"hash\" href=\"/nets/{}\"",
            lab.first
        ),
        format!("href=\"/nets/{}\"", lab.second),
        "<td>-</td><td>2/4/9</td>".to_string(),
        "<td>-2.97</td><td><span class=\"status H0\">H0</span></td>".to_string(),
        "<span class=\"decision rejected\">rejected</span>".to_string(),
    ] {
        assert!(second.contains(&part), "{part} not in {second}");
    }
    assert!(
        rows[2].starts_with("<td>3</td>") && rows[2].contains("<td>in progress</td>"),
        "{}",
        rows[2]
    );
    // The data page has no loops.
    assert!(!page(&lab, "/data").contains("class=\"loop\""));
}

fn the_loop_s_table_is_read_and_followed_in_chromium(chromium: &Path, chromedriver: &Path) {
    let lab = lab("browser");
    let dir = lab.db.parent().unwrap().to_path_buf();
    let (_server, address) = start_server(&lab.db, &lab.store);
    let (_driver, port) = start_driver(chromedriver, &dir.join("chromedriver.log"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = open_browser(chromium, port, &dir.join("profile")).await;
        c.goto(&format!("{address}/nets")).await.unwrap();
        let table = format!("table#loop-{}", lab.loop_id);
        let cells = c
            .execute(
                "return Array.from(document.querySelectorAll(arguments[0] + ' tr'))
                     .slice(1).map(r => [r.cells[0].textContent, r.cells[9].textContent]);",
                vec![serde_json::json!(table)],
            )
            .await
            .unwrap();
        assert_eq!(
            cells,
            serde_json::json!([["1", "promoted"], ["2", "rejected"], ["3", "in progress"]])
        );
        let target = format!("/nets/{}", lab.first);
        let link = c
            .find(fantoccini::Locator::Css(&format!(
                "{table} tr:nth-child(2) td:nth-child(4) a[href=\"{target}\"]"
            )))
            .await
            .expect("the promoted candidate's link in generation 1's row");
        link.click().await.unwrap();
        let start = std::time::Instant::now();
        while !c.current_url().await.unwrap().as_str().ends_with(&target) {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "the candidate's link was not followed"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let heading = c
            .find(fantoccini::Locator::Css("h1"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(heading, format!("Net {}", &lab.first[..12]));
        c.close().await.unwrap();
    });
}
