//! The dashboard's nets and data pages over a store with a small
//! lineage (generation 5 played a dataset, since lost; it was relabelled
//! by the hand-written evaluation; generation 6 was trained on that,
//! against generation 5, and embedded after it) and runs that name the
//! nets: the lists with parents and children, the embedded default by
//! commit, the graph's columns and lost boxes, an artifact's page with
//! its matches' W/D/L and Elo, 4xx for bad hashes and 409 for a store
//! that cannot be read. Through the router (tower's `oneshot`), and in a
//! real headless Chromium: the nets page opened on a running `autotest
//! serve --store`, a node of the graph followed to its page.

use crate::common::needs;
use crate::common::scratch;
use crate::serve::{open_browser, start_driver, Child};
use autotest::db::open;
use autotest::db::write::{insert_game, GameRow};
use autotest::serve::connection::Database;
use autotest::serve::routes::router_over;
use autotest::stats::elo;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use leiserchess::lab::data::{HEADER, RECORD};
use leiserchess::lab::store::{self, Embedded, Kind, Parent, Role, Source};
use libtest_mimic::Trial;
use rusqlite::{params, Connection};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use tower::ServiceExt;

pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 5] = [
        (
            "the_lists_show_every_artifact_its_links_and_the_defaults",
            the_lists_show_every_artifact_its_links_and_the_defaults,
        ),
        (
            "a_nets_page_shows_its_record_lineage_and_matches",
            a_nets_page_shows_its_record_lineage_and_matches,
        ),
        (
            "bad_hashes_answer_4xx_and_a_bad_store_409",
            bad_hashes_answer_4xx_and_a_bad_store_409,
        ),
        ("serve_store_sets_the_store", serve_store_sets_the_store),
        (
            "the_nets_pages_are_quick_over_100_000_games",
            the_nets_pages_are_quick_over_100_000_games,
        ),
    ];
    let mut trials: Vec<Trial> = tests
        .into_iter()
        .map(|(name, run)| {
            Trial::test(format!("serve_lineage::{name}"), move || {
                run();
                Ok(())
            })
        })
        .collect();
    trials.push(needs::trial(
        "serve_lineage::the_nets_graph_is_followed_in_chromium",
        &[needs::CHROMIUM, needs::CHROMEDRIVER],
        |found| the_nets_graph_is_followed_in_chromium(&found[0], &found[1]),
    ));
    trials
}

/// The store's hashes: generation 5, the dataset it played (lost), that
/// dataset relabelled, generation 6.
struct Hashes {
    gen5: String,
    cousin: String,
    played: String,
    relabelled: String,
    gen6: String,
}

/// A database and a store with the lineage, under a fresh directory.
fn lab(test: &str) -> (PathBuf, PathBuf, Hashes) {
    let dir = scratch::dir(&format!("serve_lineage/{test}"));
    let db = dir.join("lab.db");
    open::open(&db).expect("a new database");
    let root = dir.join("store");
    let s = store::open(Some(&root)).unwrap();
    let gen5 = s.find("ba3fde78").unwrap().sha256;
    let put = |name: &str, fill: u8, kind: Kind, parents: Vec<Parent>| {
        let file = dir.join(name);
        let mut bytes = HEADER.to_vec();
        bytes.extend(std::iter::repeat_n(fill, 3 * RECORD));
        std::fs::write(&file, bytes).unwrap();
        let command = ["leiserchess".to_string(), name.to_string()];
        store::register(&s, &file, kind, parents, &command).unwrap()
    };
    let played = put(
        "played.bin",
        1,
        Kind::Dataset,
        vec![Parent::object(Role::Played, Kind::Net, &gen5)],
    )
    .sha256;
    // A cousin: generation 5's, not the relabelled dataset's lineage.
    let cousin = put(
        "cousin.bin",
        4,
        Kind::Dataset,
        vec![Parent::object(Role::Played, Kind::Net, &gen5)],
    )
    .sha256;
    let relabelled = put(
        "relabelled.bin",
        2,
        Kind::Dataset,
        vec![
            Parent::object(Role::StartedFrom, Kind::Dataset, &played),
            Parent {
                role: Role::Labelled,
                source: Source::HandWritten,
            },
        ],
    )
    .sha256;
    let mut gen6 = put(
        "gen6.nnue",
        3,
        Kind::Net,
        vec![
            Parent::object(Role::TrainedOn, Kind::Dataset, &relabelled),
            Parent::object(Role::Baseline, Kind::Net, &gen5),
        ],
    );
    // Embedded a day after generation 5 was.
    gen6.embedded = Some(Embedded {
        commit: "0123456789abcdef".to_string(),
        date: 1_796_575_967 + 86_400,
    });
    s.write_record(&gen6.sha256, gen6.to_json().as_bytes())
        .unwrap();
    std::fs::remove_file(s.object_path(&played)).unwrap();
    let hashes = Hashes {
        gen5,
        cousin,
        played,
        relabelled,
        gen6: gen6.sha256,
    };
    (db, root, hashes)
}

/// The answer to GET `uri` over `db` and `store`: status and body.
fn get(db: &Path, store: &Path, uri: &str) -> (StatusCode, String) {
    let app = router_over(Arc::new(Database {
        path: db.to_path_buf(),
        store: Some(store.to_path_buf()),
    }));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let answer = app.oneshot(request).await.unwrap();
        let status = answer.status();
        let body = answer.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(body.to_vec()).unwrap())
    })
}

fn ok(db: &Path, store: &Path, uri: &str) -> String {
    let (status, body) = get(db, store, uri);
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    body
}

/// The table row of the table `id` that links to `href`.
fn row<'a>(page: &'a str, id: &str, href: &str) -> &'a str {
    let table = page
        .split(&format!("<table id=\"{id}\">"))
        .nth(1)
        .unwrap_or_else(|| panic!("no table {id}: {page}"));
    let table = &table[..table.find("</table>").unwrap()];
    table
        .split("<tr>")
        .find(|r| r.starts_with(&format!("<td><a class=\"hash\" href=\"{href}\"")))
        .unwrap_or_else(|| panic!("no row for {href} in {id}: {table}"))
}

/// The `<a>` of the graph's node for `href`, and its box's x.
fn node<'a>(page: &'a str, href: &str) -> (&'a str, usize) {
    let svg = &page[page.find("<svg").expect("a graph")..];
    let a = svg
        .split("<a class=\"node")
        .find(|a| a.contains(&format!("href=\"{href}\"")))
        .unwrap_or_else(|| panic!("no node {href}"));
    let x = a.split("<rect x=\"").nth(1).unwrap();
    (a, x[..x.find('"').unwrap()].parse().unwrap())
}

fn the_lists_show_every_artifact_its_links_and_the_defaults() {
    let (db, root, h) = lab("lists");
    let nets = ok(&db, &root, "/nets");
    assert!(nets.contains("<a href=\"/nets\">Nets</a> <a href=\"/data\">Data</a>"));
    let g6 = row(&nets, "artifacts", &format!("/nets/{}", h.gen6));
    // The short hash shown, the whole one on hover.
    assert!(g6.contains(&format!("title=\"{}\">{}</a>", h.gen6, &h.gen6[..12])));
    assert!(
        g6.contains("<span class=\"status kept\">kept</span>"),
        "{g6}"
    );
    assert!(
        g6.contains(&format!("<td>{}</td>", HEADER.len() + 3 * RECORD)),
        "{g6}"
    );
    assert!(g6.contains(&format!("/data/{}", h.relabelled)), "{g6}");
    assert!(g6.contains(&format!("/nets/{}", h.gen5)), "{g6}");
    let g5 = row(&nets, "artifacts", &format!("/nets/{}", h.gen5));
    assert!(g5.contains(&format!("/data/{}", h.played)), "{g5}");
    assert!(g5.contains(&format!("/nets/{}", h.gen6)), "{g5}");
    assert!(
        g5.contains("<span title=\"1805b40\">1805b40</span>"),
        "{g5}"
    );
    // Generations 5 and 6 (this lab's), the embedded net every store
    // holds, and 4, lost, known as 5's baseline only.
    assert_eq!(nets.matches("<tr><td><a class=\"hash\"").count(), 4);
    let embedded_net = store::embedded::sha256();
    assert!(nets.contains(&format!("/nets/{embedded_net}")));
    let g4 = row(
        &nets,
        "artifacts",
        "/nets/7950a5516d0a24041e662ad1f28c67a8ca826b3b3b4dbec41f1f4fa5ea1a2072",
    );
    assert!(
        g4.contains("<span class=\"status lost\">lost</span>"),
        "{g4}"
    );
    // The defaults by commit: generation 5 since c5f3be9 until 6's commit.
    let embedded = nets.split("<table id=\"embedded\">").nth(1).unwrap();
    let embedded = &embedded[..embedded.find("</table>").unwrap()];
    let (at5, at6) = (
        embedded.find(&h.gen5).unwrap(),
        embedded.find(&h.gen6).unwrap(),
    );
    assert!(at5 < at6, "{embedded}");
    assert!(
        embedded
            .contains("<span title=\"c5f3be9\">c5f3be9</span></td><td>2026-12-06 16:52:47</td>"),
        "{embedded}"
    );
    assert!(
        embedded.contains("<td><span title=\"0123456789abcdef\">0123456789</span></td></tr>"),
        "{embedded}"
    );
    assert!(embedded.ends_with("<td>now</td></tr>\n"), "{embedded}");
    // The graph: a column per generation, the lost dataset dashed.
    let x = |href: &str| node(&nets, href).1;
    let (x5, xp, xr, x6) = (
        x(&format!("/nets/{}", h.gen5)),
        x(&format!("/data/{}", h.played)),
        x(&format!("/data/{}", h.relabelled)),
        x(&format!("/nets/{}", h.gen6)),
    );
    assert!(x5 < xp && xp < xr && xr < x6, "{x5} {xp} {xr} {x6}");
    let (lost, _) = node(&nets, &format!("/data/{}", h.played));
    assert!(
        lost.starts_with(" dataset lost\"") && lost.contains("stroke-dasharray"),
        "{lost}"
    );
    let (kept, _) = node(&nets, &format!("/data/{}", h.relabelled));
    assert!(!kept.contains("stroke-dasharray"), "{kept}");
    assert!(nets.contains("<g class=\"node hand-written kept\">"));

    let data = ok(&db, &root, "/data");
    let played = row(&data, "artifacts", &format!("/data/{}", h.played));
    assert!(
        played.contains("<span class=\"status lost\">lost</span>"),
        "{played}"
    );
    assert!(played.contains("<td>3</td>"), "{played}");
    let relabelled = row(&data, "artifacts", &format!("/data/{}", h.relabelled));
    assert!(relabelled.contains("hand-written"), "{relabelled}");
    assert!(!data.contains("<table id=\"embedded\">"));
}

/// A run naming `net` (or nothing) as its engine `a`'s EvalFile or on its
/// command line, with `results` for `a` (1 a win, 0 a draw, -1 a loss).
fn run(
    conn: &Connection,
    kind: &str,
    in_engine: Option<&str>,
    in_command: Option<&str>,
    results: &[i8],
) -> i64 {
    let options = in_engine.map_or(json!([]), |p| json!([["EvalFile", format!("store:{p}")]]));
    let engines = json!([
        {"name": "base", "command": "leiserchess", "options": []},
        {"name": "a", "command": "leiserchess", "options": options},
    ]);
    let command = json!([
        "autotest",
        "-each",
        in_command.map_or(String::new(), |p| format!("option.EvalFile=store:{p}"))
    ]);
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started)
         VALUES (?1, ?2, ?3, 'a test', 1, 1, 'finished', 1000)",
        params![kind, command.to_string(), engines.to_string()],
    )
    .unwrap();
    let id = conn.last_insert_rowid();
    for (n, r) in results.iter().enumerate() {
        let (white, black) = if n % 2 == 0 {
            ("a", "base")
        } else {
            ("base", "a")
        };
        let white_wins = (*r == 1) == (white == "a");
        let result = if *r == 0 {
            "1/2-1/2"
        } else if white_wins {
            "1-0"
        } else {
            "0-1"
        };
        let game = GameRow {
            schedule_index: n,
            pair: n / 2,
            opening: 0,
            white: white.to_string(),
            black: black.to_string(),
            result: result.to_string(),
            termination: "normal".to_string(),
            plies: Some(2),
            white_ms: None,
            black_ms: None,
            pgn: String::new(),
            llr: None,
            reason: None,
        };
        insert_game(conn, id, &game).unwrap();
    }
    id
}

fn a_nets_page_shows_its_record_lineage_and_matches() {
    let (db, root, h) = lab("one");
    let conn = Connection::open(&db).unwrap();
    let sprt = run(&conn, "sprt", Some(&h.gen6[..8]), None, &[1, 1, 0, -1, 1]);
    let tournament = run(&conn, "tournament", None, Some(&h.gen6[..16]), &[0, -1]);
    let datagen = run(&conn, "datagen", Some(&h.gen6[..8]), None, &[]);
    let other = run(&conn, "gauntlet", Some(&h.gen5[..8]), None, &[1]);
    let page = ok(&db, &root, &format!("/nets/{}", &h.gen6[..10]));
    assert!(
        page.contains(&format!("<h1>Net {}</h1>", &h.gen6[..12])),
        "{page}"
    );
    assert!(page.contains(&format!("<code id=\"sha256\">{}</code>", h.gen6)));
    assert!(page.contains("<tr><th>command</th><td>leiserchess gen6.nnue</td></tr>"));
    assert!(page.contains("<tr><th>embedded</th><td>since commit 0123456789abcdef (2026-12-07 16:52:47 UTC)</td></tr>"), "{page}");
    let parents = page.split("<table id=\"parents\">").nth(1).unwrap();
    let parents = &parents[..parents.find("</table>").unwrap()];
    assert!(
        parents.contains(&format!(
            "<tr><td>trained-on</td><td>dataset</td><td><a class=\"hash\" href=\"/data/{}\"",
            h.relabelled
        )),
        "{parents}"
    );
    assert!(
        parents.contains(&format!(
            "<tr><td>baseline</td><td>net</td><td><a class=\"hash\" href=\"/nets/{}\"",
            h.gen5
        )),
        "{parents}"
    );
    assert!(page.contains("<table id=\"children\">\n<tr><th>role</th><th>kind</th><th>sha256</th><th>status</th><th>file</th></tr>\n<tr><td colspan=\"5\">none</td></tr>"), "{page}");
    // The graph around it: its ancestors (generation 5's and theirs), not
    // the cousin generation 5 played too.
    let graph = &page[page.find("<svg").unwrap()..page.find("</svg>").unwrap()];
    assert!(graph.contains(&format!("href=\"/data/{}\"", h.played)));
    assert!(graph.contains("href=\"/data/f13818f1\""));
    assert!(!graph.contains(&h.cousin), "{graph}");
    let gen5_graph = ok(&db, &root, &format!("/nets/{}", h.gen5));
    assert!(gen5_graph.contains(&format!("href=\"/data/{}\"", h.cousin)));
    // The matches: the SPRT and the tournament, newest (highest id) first.
    let matches = page.split("<table id=\"matches\">").nth(1).unwrap();
    let matches = &matches[..matches.find("</table>").unwrap()];
    let ids: Vec<&str> = matches
        .split("<tr><td><a href=\"/runs/")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(ids, [tournament.to_string(), sprt.to_string()], "{matches}");
    assert!(
        !ids.contains(&datagen.to_string().as_str()) && !ids.contains(&other.to_string().as_str())
    );
    let shown = elo::elo_shown(&elo::estimate_wdl(3, 1, 1).unwrap(), 5, 1);
    assert!(matches.contains(&format!("<td>sprt</td><td><span class=\"status finished\">finished</span></td><td>a</td><td>base</td><td>5</td><td>3/1/1</td><td><span class=\"elo\">{shown}</span></td>")), "{matches}");
    // Named on the command line only: the first engine played it.
    assert!(matches.contains("<td>tournament</td><td><span class=\"status finished\">finished</span></td><td>base</td><td>a</td><td>2</td><td>1/1/0</td>"), "{matches}");

    let gen5 = ok(&db, &root, &format!("/nets/{}", h.gen5));
    assert!(
        gen5.contains(&format!("<a href=\"/runs/{other}\">")),
        "{gen5}"
    );
    assert!(gen5.contains("since commit c5f3be9 (2026-12-06 16:52:47 UTC)"));
    let played = ok(&db, &root, &format!("/data/{}", h.played));
    assert!(played.contains("<span class=\"status lost\">lost</span>"));
    assert!(
        played.contains(&format!(
            "<tr><td>started-from</td><td>dataset</td><td><a class=\"hash\" href=\"/data/{}\"",
            h.relabelled
        )),
        "{played}"
    );
    assert!(!played.contains("<table id=\"matches\">"));
}

fn bad_hashes_answer_4xx_and_a_bad_store_409() {
    let (db, root, h) = lab("bad");
    let (status, body) = get(&db, &root, "/nets/xyz");
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains("8 to 64 lowercase hex digits of its sha256, not 'xyz'"),
        "{body}"
    );
    let (status, body) = get(&db, &root, "/data/00000000");
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(
        body.contains("no artifact's sha256 starts with 00000000"),
        "{body}"
    );
    let (status, body) = get(&db, &root, &format!("/nets/{}", h.played));
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(
        body.contains(&format!("is a dataset: its page is /data/{}", h.played)),
        "{body}"
    );
    let file = root.parent().unwrap().join("a-file");
    std::fs::write(&file, "not a store").unwrap();
    let (status, body) = get(&db, &file, "/nets");
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body.contains("the lab store cannot be indexed now") && body.contains("a-file"),
        "{body}"
    );
}

/// `autotest serve --store DIR` serves DIR's nets; the flag is in the help.
fn serve_store_sets_the_store() {
    use std::io::{Read, Write};
    let (db, root, h) = lab("flag");
    let (_server, address) = start_server(&db, &root);
    // HTTP/1.0: the server closes the connection after its answer.
    let mut stream = std::net::TcpStream::connect(address.trim_start_matches("http://")).unwrap();
    stream.write_all(b"GET /nets HTTP/1.0\r\n\r\n").unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    assert!(page.starts_with("HTTP/1.0 200 OK"), "{page}");
    assert!(page.contains(&format!("/nets/{}", h.gen6)), "{page}");
    let help = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("--store <DIR>"));
}

/// `autotest serve` on `db` and `store` on a free port.
pub(crate) fn start_server(db: &Path, store: &Path) -> (Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args([
            "serve",
            "-db",
            db.to_str().unwrap(),
            "-port",
            "0",
            "--store",
            store.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start autotest serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("serve said {line:?}"));
    (
        Child(child),
        format!("http://{}", address.trim().trim_end_matches('/')),
    )
}

fn the_nets_graph_is_followed_in_chromium(chromium: &Path, chromedriver: &Path) {
    let (db, root, h) = lab("browser");
    let dir = db.parent().unwrap().to_path_buf();
    let (_server, address) = start_server(&db, &root);
    let (_driver, port) = start_driver(chromedriver, &dir.join("chromedriver.log"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = open_browser(chromium, port, &dir.join("profile")).await;
        c.goto(&format!("{address}/nets")).await.unwrap();
        let target = format!("/data/{}", h.relabelled);
        let node = c
            .find(fantoccini::Locator::Css(&format!("svg.lineage a[href=\"{target}\"]")))
            .await
            .expect("the relabelled dataset's node in the graph");
        node.click().await.unwrap();
        let start = std::time::Instant::now();
        while !c.current_url().await.unwrap().as_str().ends_with(&target) {
            assert!(start.elapsed() < std::time::Duration::from_secs(10), "the node's link was not followed");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let heading = c.find(fantoccini::Locator::Css("h1")).await.unwrap().text().await.unwrap();
        assert_eq!(heading, format!("Dataset {}", &h.relabelled[..12]));
        // Its page's graph draws it bold, with its parent and child.
        let bold = c
            .execute(
                "return document.querySelector('svg.lineage a[href=\"' + arguments[0] + '\"] rect').getAttribute('stroke-width');",
                vec![json!(target)],
            )
            .await
            .unwrap();
        assert_eq!(bold, json!("3"));
        c.close().await.unwrap();
    });
}

/// The nets pages over 100,000 games (50 runs of 2,000, a PGN of about a
/// kilobyte each, the 17 SPRTs naming generation 5): each request indexes
/// the store, finds the runs that name the net and counts their games.
/// The median of 5 requests of each page must be within the dashboard's
/// 200 ms (autotest/benches/serve.rs's budget for a page).
fn the_nets_pages_are_quick_over_100_000_games() {
    let (db, root, h) = lab("speed");
    let mut conn = Connection::open(&db).unwrap();
    let tx = conn.transaction().unwrap();
    let moves = "1. d1c1 {+0.12/7 0.05s} c1d1 {-0.08/7 0.05s} ".repeat(20);
    for r in 0..50 {
        let kind = ["sprt", "tournament", "gauntlet"][r % 3];
        let options = match kind {
            "sprt" => json!([["EvalFile", "store:ba3fde78"]]),
            _ => json!([]),
        };
        let engines = json!([{"name": "a", "options": options}, {"name": "b", "options": []}]);
        tx.execute(
            "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started)
             VALUES (?1, '[\"autotest\"]', ?2, 'speed', 1, 1, 'finished', ?3)",
            params![kind, engines.to_string(), 1000 + r as i64],
        )
        .unwrap();
        let id = tx.last_insert_rowid();
        for n in 0..2_000 {
            let (white, black) = if n % 2 == 0 { ("a", "b") } else { ("b", "a") };
            let result = ["1-0", "0-1", "1/2-1/2"][n % 3];
            let game = GameRow {
                schedule_index: n,
                pair: n / 2,
                opening: n / 2 % 100,
                white: white.to_string(),
                black: black.to_string(),
                result: result.to_string(),
                termination: "normal".to_string(),
                plies: Some(60),
                white_ms: Some(3000),
                black_ms: Some(3000),
                pgn: format!("[White \"{white}\"]\n[Black \"{black}\"]\n\n{moves}{result}\n"),
                llr: None,
                reason: None,
            };
            insert_game(&tx, id, &game).unwrap();
        }
    }
    tx.commit().unwrap();
    for uri in ["/nets".to_string(), format!("/nets/{}", &h.gen5[..8])] {
        let mut took: Vec<std::time::Duration> = (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                let page = ok(&db, &root, &uri);
                let took = start.elapsed();
                assert!(page.contains(&h.gen6[..12]), "{page}");
                took
            })
            .collect();
        took.sort();
        eprintln!("{uri}: median {:?} of {took:?}", took[2]);
        assert!(
            took[2] < std::time::Duration::from_millis(200),
            "{uri}: {took:?}"
        );
    }
    let page = ok(&db, &root, &format!("/nets/{}", h.gen5));
    assert_eq!(page.matches("<td>sprt</td>").count(), 17, "{page}");
}
