//! `autotest serve`, the dashboard, over databases seeded here: the runs
//! list and its filters; a run's page agreeing with `autotest show`; 4xx
//! for bad ids, paths, traversal attempts and query values, and a clear
//! non-5xx answer when the database cannot be read; the PGN download;
//! the live updates (server-sent events) after a game is recorded; the
//! history page's nps-drop flag and signature-change mark. The pages are
//! requested from the router itself (tower's `oneshot`), except in the
//! last test: the run page in a real headless Chromium, opened on a
//! running `autotest serve` while games are recorded, must show a new
//! game within 2 s (ignored where Chromium or chromedriver is missing,
//! `tests/common/needs.rs`).

use crate::common::needs;
use crate::common::scratch;
use autotest::db::open;
use autotest::db::read;
use autotest::db::write::{insert_game, GameRow};
use autotest::pgn::read as pgn_read;
use autotest::serve::routes::router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use libtest_mimic::Trial;
use rusqlite::{params, Connection};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The trials: the pages through the router, and the browser test,
/// ignored (failed with `LEISERCHESS_REQUIRE_ALL=1`) where Chromium or
/// chromedriver is missing.
pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 8] = [
        (
            "the_list_is_newest_first_and_filtered",
            the_list_is_newest_first_and_filtered,
        ),
        (
            "a_run_page_shows_what_autotest_show_prints",
            a_run_page_shows_what_autotest_show_prints,
        ),
        ("bad_requests_answer_4xx", bad_requests_answer_4xx),
        (
            "an_unreadable_database_answers_409_with_its_reason",
            an_unreadable_database_answers_409_with_its_reason,
        ),
        (
            "the_pgn_download_is_the_stored_games",
            the_pgn_download_is_the_stored_games,
        ),
        (
            "events_follow_a_game_being_recorded",
            events_follow_a_game_being_recorded,
        ),
        (
            "history_flags_an_nps_drop_and_a_signature_change",
            history_flags_an_nps_drop_and_a_signature_change,
        ),
        ("the_command_line_is_checked", the_command_line_is_checked),
    ];
    let mut trials: Vec<Trial> = tests
        .into_iter()
        .map(|(name, run)| {
            Trial::test(format!("serve::{name}"), move || {
                run();
                Ok(())
            })
        })
        .collect();
    trials.push(needs::trial(
        "serve::the_run_page_updates_in_chromium_within_2_s",
        &[needs::CHROMIUM, needs::CHROMEDRIVER],
        |found| the_run_page_updates_within_2_s(&found[0], &found[1]),
    ));
    trials
}

/// A new database in a fresh directory for `test`.
fn database(test: &str) -> PathBuf {
    let path = scratch::dir(&format!("serve/{test}")).join("lab.db");
    open::open(&path).expect("a new database");
    path
}

/// A run row; its id.
fn run(
    conn: &Connection,
    kind: &str,
    status: &str,
    engines: &[&str],
    tc: &str,
    sprt: Option<Value>,
    started: i64,
) -> i64 {
    let engines: Vec<Value> = engines.iter().map(|n| json!({"name": n})).collect();
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, time_control, repeat, sprt, seed, status, started, ended)
         VALUES (?1, '[]', ?2, 'a test', ?3, 1, ?4, 1, ?5, ?6, ?7)",
        params![
            kind,
            json!(engines).to_string(),
            tc,
            sprt.map(|s| s.to_string()),
            status,
            started,
            (status != "running").then_some(started + 60),
        ],
    )
    .expect("insert a run");
    conn.last_insert_rowid()
}

/// Game `n` (pair n / 2) as the runner records it, with its PGN.
fn game(n: usize, white: &str, black: &str, result: &str, termination: &str) -> GameRow {
    let pgn = format!(
        "[Event \"a test\"]\n[Round \"1.{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. d1c1 e6f6 {result}\n",
        n + 1
    );
    GameRow {
        schedule_index: n,
        pair: n / 2,
        opening: n / 2 % 3,
        white: white.to_string(),
        black: black.to_string(),
        result: result.to_string(),
        termination: termination.to_string(),
        plies: Some(2),
        white_ms: Some(10),
        black_ms: Some(10),
        pgn,
        llr: None,
        reason: (termination != "normal").then(|| {
            format!("{black} loses: {termination}: its last standard-error line: \"<oops> & gone\"")
        }),
    }
}

/// a's points in each game of `results` (2 a win), as [`games`] plays
/// them: game 5 is a crash of a's, lost whatever `results` says.
fn points(results: &[u64]) -> Vec<u64> {
    let mut p = results.to_vec();
    if p.len() > 5 {
        p[5] = 0;
    }
    p
}

/// `a` against `b`: a's points per game from `results`, colours swapped
/// within each pair; game 5 (when there is one) a crash of a's as Black.
fn games(results: &[u64]) -> Vec<GameRow> {
    points(results)
        .iter()
        .enumerate()
        .map(|(n, &a)| {
            let (white, black) = if n % 2 == 0 { ("a", "b") } else { ("b", "a") };
            let white_points = if n % 2 == 0 { a } else { 2 - a };
            let result = ["0-1", "1/2-1/2", "1-0"][white_points as usize];
            let termination = if n == 5 { "crash" } else { "normal" };
            game(n, white, black, result, termination)
        })
        .collect()
}

/// The answer to GET `uri` from the router over `db`: status and body.
async fn fetch(db: &Path, uri: &str) -> (StatusCode, String) {
    let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let answer = router(db.to_path_buf()).oneshot(request).await.unwrap();
    let status = answer.status();
    let body = answer.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

fn get(db: &Path, uri: &str) -> (StatusCode, String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(fetch(db, uri))
}

fn ok(db: &Path, uri: &str) -> String {
    let (status, body) = get(db, uri);
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    body
}

/// The run ids a list page links to, in order.
fn listed(page: &str) -> Vec<i64> {
    page.split("<tr><td><a href=\"/runs/")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().parse().unwrap())
        .collect()
}

fn the_list_is_newest_first_and_filtered() {
    let db = database("list");
    let conn = Connection::open(&db).unwrap();
    let sprt = Some(json!({"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}));
    let r1 = run(
        &conn,
        "sprt",
        "H1",
        &["NewSearch", "base"],
        "tc=10+0.1",
        sprt.clone(),
        1000,
    );
    let r2 = run(
        &conn,
        "tournament",
        "finished",
        &["a", "b", "c"],
        "depth=3",
        None,
        3000,
    );
    let r3 = run(
        &conn,
        "sprt",
        "running",
        &["newer", "base"],
        "tc=10+0.1",
        sprt,
        2000,
    );
    let r4 = run(&conn, "bench", "finished", &["leiserchess"], "", None, 4000);
    let won = game(0, "NewSearch", "base", "1-0", "normal");
    let drawn = game(1, "base", "NewSearch", "1/2-1/2", "normal");
    for g in [won, drawn] {
        insert_game(&conn, r1, &g).unwrap();
    }
    let all = ok(&db, "/runs");
    assert_eq!(listed(&all), [r4, r2, r3, r1]);
    assert_eq!(listed(&ok(&db, "/")), [r4, r2, r3, r1]);
    assert!(all.contains("<td>2</td><td>1/1/0</td>"), "{all}");
    assert_eq!(listed(&ok(&db, "/runs?kind=sprt")), [r3, r1]);
    assert_eq!(listed(&ok(&db, "/runs?status=H1")), [r1]);
    assert_eq!(listed(&ok(&db, "/runs?engine=NEW")), [r3, r1]);
    assert_eq!(listed(&ok(&db, "/runs?tc=depth")), [r2]);
    assert_eq!(
        listed(&ok(
            &db,
            "/runs?kind=sprt&status=running&engine=&tc=10%2B0.1"
        )),
        [r3]
    );
    assert_eq!(listed(&ok(&db, "/runs?kind=&status=&engine=&tc=")).len(), 4);
    assert!(listed(&ok(&db, "/runs?kind=tune")).is_empty());
    // The lines are `autotest runs`'s, before and after a game is added.
    let lines = |conn: &Connection| -> Vec<String> {
        read::runs(conn)
            .unwrap()
            .iter()
            .map(|r| {
                format!(
                    "<td>{}</td><td>{}/{}/{}</td>",
                    r.games, r.wdl[0], r.wdl[1], r.wdl[2]
                )
            })
            .collect()
    };
    let app = router(db.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let page = |uri: &'static str| {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let app = app.clone();
        runtime.block_on(async move {
            let answer = app.oneshot(request).await.unwrap();
            let body = answer.into_body().collect().await.unwrap().to_bytes();
            String::from_utf8(body.to_vec()).unwrap()
        })
    };
    let before = page("/runs");
    assert!(before.contains("<td>2</td><td>1/1/0</td>"));
    assert!(lines(&conn).iter().all(|l| before.contains(l)), "{before}");
    let lost = game(2, "NewSearch", "base", "0-1", "normal");
    insert_game(&conn, r1, &lost).unwrap();
    let again = page("/runs");
    assert!(again.contains("<td>3</td><td>1/1/1</td>"), "{again}");
    assert!(lines(&conn).iter().all(|l| again.contains(l)), "{again}");
    // The form keeps what was asked.
    let page = ok(&db, "/runs?kind=sprt&engine=%3Cb%3E");
    assert!(page.contains("<option selected>sprt</option>"), "{page}");
    assert!(page.contains("value=\"&lt;b&gt;\""), "{page}");
}

/// The text of `html` without its tags, entities decoded.
fn plain(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The plain text of each `<span class="CLASS">` in `page`.
fn spans(page: &str, class: &str) -> Vec<String> {
    page.split(&format!("<span class=\"{class}\">"))
        .skip(1)
        .map(|s| plain(s.split("</span>").next().unwrap()))
        .collect()
}

fn show(db: &Path, id: i64) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(["show", &id.to_string(), "-db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn a_run_page_shows_what_autotest_show_prints() {
    let db = database("run-page");
    let conn = Connection::open(&db).unwrap();
    let sprt = Some(json!({"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}));
    let id = run(
        &conn,
        "sprt",
        "running",
        &["a", "b"],
        "tc=1+0.01",
        sprt,
        1000,
    );
    let results = [2, 1, 2, 2, 0, 1, 1, 2, 2, 1, 1, 2, 0, 2];
    for g in games(&results) {
        insert_game(&conn, id, &g).unwrap();
    }
    let page = ok(&db, &format!("/runs/{id}"));
    let table = show(&db, id);
    // The title first, then the table.
    let lines: Vec<&str> = table.lines().skip(1).collect();
    let elos = spans(&page, "elo");
    assert_eq!(elos.len(), 2, "{page}");
    for (i, name) in ["a", "b"].iter().enumerate() {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        // games, wins, draws, losses and score as show prints them.
        let row = format!(
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            words[1], words[2], words[3], words[4], words[5]
        );
        assert!(page.contains(&row), "{row}\n{page}");
        assert!(
            line.contains(&format!(" {} ", elos[i])),
            "{:?} not in {line}",
            elos[i]
        );
    }
    // a's pentanomial counts: its points in each pair of games.
    let mut penta = [0u64; 5];
    let p = points(&results);
    for pair in p.chunks(2) {
        penta[(pair[0] + pair[1]) as usize] += 1;
    }
    let penta: Vec<String> = penta.iter().map(u64::to_string).collect();
    assert_eq!(spans(&page, "penta")[0], penta.join(" "));
    let sprt_line = lines.iter().find(|l| l.starts_with("SPRT")).unwrap();
    let shown = plain(
        page.split("<p class=\"sprt\">")
            .nth(1)
            .unwrap()
            .split("</p>")
            .next()
            .unwrap(),
    );
    assert_eq!(&shown, sprt_line);
    assert!(page.contains("<svg"), "{page}");
    // a's W/D/L per opening (game n's opening is n / 2 % 3).
    for opening in 0..3 {
        let mut wdl = [0; 3];
        let played = p.iter().enumerate().filter(|(n, _)| n / 2 % 3 == opening);
        for (_, &x) in played {
            wdl[2 - x as usize] += 1;
        }
        let row = format!(
            "<tr><td>{opening}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            wdl[0], wdl[1], wdl[2]
        );
        assert!(page.contains(&row), "{row}\n{page}");
    }
    // The fault: game 5, a's crash, with its reason escaped.
    assert!(
        page.contains("<td>5</td><td>b</td><td>a</td><td>a</td><td>crash</td>"),
        "{page}"
    );
    assert!(page.contains("<td>crash</td>"), "{page}");
    assert!(
        page.contains("&quot;&lt;oops&gt; &amp; gone&quot;"),
        "{page}"
    );
}

fn bad_requests_answer_4xx() {
    let db = database("bad-requests");
    let conn = Connection::open(&db).unwrap();
    let id = run(
        &conn,
        "tournament",
        "finished",
        &["a", "b"],
        "depth=3",
        None,
        1000,
    );
    assert_eq!(ok(&db, &format!("/runs/{id}")).contains("Run 1"), id == 1);
    let cases = [
        ("/runs/abc", StatusCode::BAD_REQUEST),
        ("/runs/1.5", StatusCode::BAD_REQUEST),
        ("/runs/99999999999999999999", StatusCode::BAD_REQUEST),
        ("/runs/999999", StatusCode::NOT_FOUND),
        ("/runs/-1", StatusCode::NOT_FOUND),
        ("/runs/abc/games.pgn", StatusCode::BAD_REQUEST),
        ("/runs/999999/games.pgn", StatusCode::NOT_FOUND),
        ("/runs/abc/events", StatusCode::BAD_REQUEST),
        ("/runs/999999/events", StatusCode::NOT_FOUND),
        ("/nowhere", StatusCode::NOT_FOUND),
        ("/runs/1/other", StatusCode::NOT_FOUND),
        ("/static/../Cargo.toml", StatusCode::NOT_FOUND),
        ("/static/%2e%2e/Cargo.toml", StatusCode::NOT_FOUND),
        ("/static/%2e%2e%2fCargo.toml", StatusCode::NOT_FOUND),
        ("/static/..%2f..%2fCargo.toml", StatusCode::NOT_FOUND),
        ("/../Cargo.toml", StatusCode::NOT_FOUND),
        ("/static/", StatusCode::NOT_FOUND),
        ("/runs?kind=match", StatusCode::BAD_REQUEST),
        ("/runs?status=won", StatusCode::BAD_REQUEST),
        ("/runs?colour=red", StatusCode::BAD_REQUEST),
        ("/runs?engine=%zz", StatusCode::BAD_REQUEST),
        ("/runs?engine=%ff%fe", StatusCode::BAD_REQUEST),
        ("/runs?engine=%", StatusCode::BAD_REQUEST),
    ];
    for (uri, want) in cases {
        let (status, body) = get(&db, uri);
        assert_eq!(status, want, "{uri}: {body}");
        assert!(
            !body.contains("[package]") && !body.is_empty(),
            "{uri}: {body}"
        );
    }
    // The assets the pages use are there.
    assert!(ok(&db, "/static/style.css").contains("body"));
    assert!(ok(&db, "/static/run.js").contains("EventSource"));
}

fn an_unreadable_database_answers_409_with_its_reason() {
    let dir = scratch::dir("serve/unreadable");
    let file = dir.join("lab.db");
    std::fs::write(
        &file,
        "this is not a database, it is a text file of some length\n".repeat(40),
    )
    .unwrap();
    for uri in [
        "/runs",
        "/runs/1",
        "/history",
        "/runs/1/games.pgn",
        "/runs/1/events",
    ] {
        let (status, body) = get(&file, uri);
        assert_eq!(status, StatusCode::CONFLICT, "{uri}: {body}");
        assert!(
            body.contains("the results database cannot be read now"),
            "{uri}: {body}"
        );
    }
    let (status, body) = get(&dir.join("gone.db"), "/runs");
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
}

fn the_pgn_download_is_the_stored_games() {
    let db = database("pgn");
    let conn = Connection::open(&db).unwrap();
    let id = run(
        &conn,
        "tournament",
        "finished",
        &["a", "b"],
        "depth=3",
        None,
        1000,
    );
    let other = run(
        &conn,
        "tournament",
        "finished",
        &["a", "b"],
        "depth=3",
        None,
        1000,
    );
    // Recorded out of order, as concurrent games finish.
    let mut rows = games(&[2, 1, 0, 2, 1, 1, 2]);
    rows.swap(0, 3);
    for g in &rows {
        insert_game(&conn, id, g).unwrap();
    }
    insert_game(&conn, other, &game(0, "a", "b", "1-0", "normal")).unwrap();
    let text = ok(&db, &format!("/runs/{id}/games.pgn"));
    let parsed = pgn_read::parse(&text);
    let mut stored: Vec<(i64, String)> = conn
        .prepare("SELECT schedule_index, pgn FROM games WHERE run_id = ?1 ORDER BY schedule_index")
        .unwrap()
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(parsed.len(), stored.len(), "{text}");
    for (g, (n, pgn)) in parsed.iter().zip(&stored) {
        assert_eq!(g.tag("Round"), Some(format!("1.{}", n + 1).as_str()));
        assert_eq!(g.text.trim_end(), pgn.trim_end());
    }
    stored.clear();
    let (status, empty) = get(&db, &format!("/runs/{}/games.pgn", other + 1));
    assert_eq!(status, StatusCode::NOT_FOUND, "{empty}");
}

/// The `data:` of each event in `text`, with its `event:` name.
fn events(text: &str) -> Vec<(String, String)> {
    text.split("\n\n")
        .filter_map(|block| {
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            let name = block
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("message");
            Some((name.to_string(), data.to_string()))
        })
        .collect()
}

/// The update after the first `seen` events of the stream `body` (read
/// into `text`), within 5 s.
async fn next_update(body: &mut Body, text: &mut String, seen: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let got = events(text);
        if got.len() > seen {
            let (name, data) = &got[seen];
            assert_eq!(name, "message", "{data}");
            return serde_json::from_str(data).unwrap();
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = tokio::time::timeout(left, body.frame()).await;
        let frame = frame.expect("an update within 5 s").unwrap().unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
}

fn events_follow_a_game_being_recorded() {
    let db = database("events");
    let conn = Connection::open(&db).unwrap();
    let sprt = Some(json!({"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}));
    let id = run(
        &conn,
        "sprt",
        "running",
        &["a", "b"],
        "tc=1+0.01",
        sprt,
        1000,
    );
    let rows = games(&[2, 1, 2, 2]);
    for g in &rows[..3] {
        insert_game(&conn, id, g).unwrap();
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let request = Request::builder()
            .uri(format!("/runs/{id}/events"))
            .body(Body::empty())
            .unwrap();
        let answer = router(db.clone()).oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        let kind = answer.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert_eq!(kind, "text/event-stream");
        let mut body = answer.into_body();
        let mut text = String::new();
        let first = next_update(&mut body, &mut text, 0).await;
        assert_eq!(first["games"], 3);
        assert_eq!(first["status"], "running");
        insert_game(&conn, id, &rows[3]).unwrap();
        let recorded = Instant::now();
        let second = next_update(&mut body, &mut text, 1).await;
        assert_eq!(second["games"], 4, "{second}");
        assert!(
            recorded.elapsed() < Duration::from_secs(2),
            "{:?}",
            recorded.elapsed()
        );
        let html = second["html"].as_str().unwrap();
        assert!(html.contains("<span id=\"games\">4</span>"), "{html}");
        conn.execute(
            "UPDATE runs SET status = 'H1', ended = 2000 WHERE id = ?1",
            [id],
        )
        .unwrap();
        let third = next_update(&mut body, &mut text, 2).await;
        assert_eq!(
            (third["games"].as_u64(), third["status"].as_str()),
            (Some(4), Some("H1"))
        );
    });
}

/// A bench run of `measure` with `rates` (one a round) and `signature`;
/// its id.
fn bench(
    conn: &Connection,
    started: i64,
    commit: &str,
    measure: &str,
    rates: &[f64],
    signature: i64,
) -> i64 {
    let id = run(
        conn,
        "bench",
        "finished",
        &["leiserchess"],
        "",
        None,
        started,
    );
    let detail = json!({"commit": commit, "dirty": false, "engine": "target/release/leiserchess"});
    conn.execute(
        "UPDATE runs SET detail = ?2 WHERE id = ?1",
        params![id, detail.to_string()],
    )
    .unwrap();
    for (round, rate) in rates.iter().enumerate() {
        conn.execute(
            "INSERT INTO benchmarks (run_id, measure, round, signature, nodes, seconds, rate)
             VALUES (?1, ?2, ?3, ?4, 1000000, ?5, ?6)",
            params![id, measure, round as i64 + 1, signature, 1e6 / rate, rate],
        )
        .unwrap();
    }
    id
}

/// The `<tr>` of `table` (its id) that links to run `id`.
fn record_row<'a>(page: &'a str, table: &str, id: i64) -> &'a str {
    let t = page
        .split(&format!("<table class=\"records\" id=\"{table}\">"))
        .nth(1)
        .unwrap();
    let t = t.split("</table>").next().unwrap();
    t.split("<tr>")
        .find(|r| r.contains(&format!("href=\"/runs/{id}\"")))
        .unwrap_or_else(|| panic!("no run {id} in {t}"))
}

fn history_flags_an_nps_drop_and_a_signature_change() {
    let db = database("history");
    let conn = Connection::open(&db).unwrap();
    // Five records near 1.0M nps, then one 3% down (not flagged), one
    // with a new signature at 1.0M, one 8% down from the median of the
    // five before it (flagged), and mcts and perft records.
    let medians = [
        1.00e6, 1.02e6, 0.99e6, 1.01e6, 1.00e6, 0.97e6, 1.00e6, 0.92e6,
    ];
    let mut ids = Vec::new();
    for (i, m) in medians.iter().enumerate() {
        let signature = if i >= 6 { 777 } else { 555 };
        let rates = [m * 0.99, *m, m * 1.01];
        ids.push(bench(
            &conn,
            1000 + i as i64 * 10,
            &format!("{i:040x}"),
            "bench-pvs",
            &rates,
            signature,
        ));
    }
    let mcts = bench(&conn, 5000, &"c".repeat(40), "bench-mcts", &[5e5, 5.1e5], 9);
    let perft = bench(&conn, 5001, &"d".repeat(40), "perft", &[2e7, 2.1e7], 4);
    // A commit as a hand-written detail may have it: not ASCII.
    let odd = bench(&conn, 5002, &"é".repeat(40), "bench-mcts", &[5e5], 9);
    let page = ok(&db, "/history");
    assert!(record_row(&page, "bench-mcts", odd).contains(&"é".repeat(10)));
    for (i, id) in ids.iter().enumerate() {
        let row = record_row(&page, "bench-pvs", *id);
        assert_eq!(row.contains("class=\"drop\""), i == 7, "record {i}: {row}");
        assert_eq!(
            row.contains("signature changed"),
            i == 6,
            "record {i}: {row}"
        );
    }
    // The flagged one says by how much, against which median.
    let flagged = plain(record_row(&page, "bench-pvs", ids[7]));
    assert!(
        flagged.contains("▼ 8.0% below the median of the previous 5 (1000000)"),
        "{flagged}"
    );
    // The spread: min–max of the rounds.
    assert!(
        plain(record_row(&page, "bench-pvs", ids[0])).contains("990000–1010000"),
        "{page}"
    );
    assert!(record_row(&page, "bench-mcts", mcts).contains("<td>2</td>"));
    assert!(
        plain(record_row(&page, "perft", perft)).contains("0.050"),
        "{page}"
    );
    assert_eq!(page.matches("<svg").count(), 3, "{page}");
}

fn the_command_line_is_checked() {
    let autotest = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_autotest"))
            .args(args)
            .env_remove("AUTOTEST_DB")
            .output()
            .unwrap()
    };
    let dir = scratch::dir("serve/command-line");
    let missing = dir.join("missing.db");
    let out = autotest(&["serve", "-db", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no results database at"));
    let out = autotest(&["serve", "--port", "http"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'http' for '--port <N>'"));
    let out = autotest(&["serve", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && help.contains("Usage: autotest serve [OPTIONS]"));
    assert!(["--db <PATH>", "--port <N>", "--host <ADDR>"]
        .iter()
        .all(|o| help.contains(o)));
}

/// A child process, ended when dropped.
pub(crate) struct Child(pub(crate) std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        // It may have ended already; either way it must not outlive the test.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `autotest serve` on `db` on a free port: the process and its address.
fn start_server(db: &Path) -> (Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(["serve", "-db", db.to_str().unwrap(), "-port", "0"])
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

/// chromedriver on a free port, logging to `log`.
pub(crate) fn start_driver(chromedriver: &Path, log: &Path) -> (Child, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .arg(format!("--log-path={}", log.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
    let driver = Child(child);
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let start = Instant::now();
    while std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(100)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "chromedriver did not listen (log: {})",
            log.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (driver, port)
}

/// A headless Chromium session. Without the background-networking flags
/// Chromium's own connections are refused on a closed network and it stalls.
pub(crate) async fn open_browser(chromium: &Path, port: u16, profile: &Path) -> fantoccini::Client {
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium.display().to_string(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1180,960",
                format!("--user-data-dir={}", profile.display()),
            ],
        },
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session with Chromium")
}

/// The page's `#games` count, once it is `want`; how long that took.
async fn games_shown(c: &fantoccini::Client, want: usize, patience: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let shown = c
            .execute(
                "const g = document.getElementById('games'); return g ? g.textContent : '';",
                vec![],
            )
            .await
            .unwrap();
        if shown == Value::String(want.to_string()) {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < patience,
            "the page shows {shown} games after {patience:?}, not {want}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn the_run_page_updates_within_2_s(chromium: &Path, chromedriver: &Path) {
    let db = database("browser");
    let dir = db.parent().unwrap().to_path_buf();
    let conn = Connection::open(&db).unwrap();
    let sprt = Some(json!({"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}));
    let id = run(
        &conn,
        "sprt",
        "running",
        &["a", "b"],
        "tc=1+0.01",
        sprt,
        1000,
    );
    let rows = games(&[2, 1, 2, 2, 1, 2, 0, 2]);
    for g in &rows[..2] {
        insert_game(&conn, id, g).unwrap();
    }
    let (_server, address) = start_server(&db);
    let (_driver, port) = start_driver(chromedriver, &dir.join("chromedriver.log"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = open_browser(chromium, port, &dir.join("profile")).await;
        c.goto(&format!("{address}/runs/{id}")).await.unwrap();
        games_shown(&c, 2, Duration::from_secs(30)).await;
        // Each game recorded, as a run records it, shows within 2 s.
        for (n, g) in rows.iter().enumerate().skip(2) {
            insert_game(&conn, id, g).unwrap();
            let took = games_shown(&c, n + 1, Duration::from_secs(2)).await;
            eprintln!("game {}: shown after {took:?}", n + 1);
        }
        let llr = c
            .execute("return document.getElementById('llr').textContent;", vec![])
            .await
            .unwrap();
        let (_, page) = fetch(&db, &format!("/runs/{id}")).await;
        assert!(
            page.contains(&format!(
                "<span id=\"llr\">{}</span>",
                llr.as_str().unwrap()
            )),
            "{llr}"
        );
        conn.execute(
            "UPDATE runs SET status = 'H1', ended = 2000 WHERE id = ?1",
            [id],
        )
        .unwrap();
        let start = Instant::now();
        while c
            .execute(
                "return document.getElementById('status').textContent;",
                vec![],
            )
            .await
            .unwrap()
            != "H1"
        {
            assert!(
                start.elapsed() < Duration::from_secs(2),
                "the status did not change"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        c.close().await.unwrap();
    });
}
