//! The GUI's JSON API: each line of the input is one request, `METHOD PATH
//! BODY` (the body the rest of the line, sent as JSON), to a fresh GUI's
//! router called in process as tests/library/gui_api.rs calls it; no server is
//! started. So a session creates games, plays, undoes, names players, sets
//! options and starts searches through the very handlers the page calls.
//!
//! Bounds: the engine's table is 1 MB, and `/api/options` bodies have
//! `hash`, `threads` and `mcts_tree_mb` capped (`leiserchess_fuzz::capped`).
//! A search or analysis that starts (its answer an event stream) is sent
//! the game's `/stop` at once and its stream read to the end, so that it
//! has ended, its move played or not, before the next line. The stream
//! ends when the search's thread sends its last event, a moment before
//! that thread exits: the input ends only once the process is back to the
//! threads it had before it, so that no thread of one input is mid-exit
//! during the next input or its leak check. The target fails on a panic or
//! a hang (a thread that outlives its input by 10 s among them), and on a
//! 5xx answer.

#![no_main]

use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use leiserchess::gui::{router, Config};
use leiserchess_fuzz::capped;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::time::{Duration, Instant};
use tower::ServiceExt;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let threads_before = threads();
    let mut config = Config::default();
    config.engine.table.hash_mb = 1;
    let app = router(config);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        for line in text.lines() {
            let mut words = line.splitn(3, ' ');
            let (Some(method), Some(path)) = (words.next(), words.next()) else {
                continue;
            };
            let body = words.next().unwrap_or("");
            let body = match path {
                "/api/options" => cap_option(body).unwrap_or_else(|| body.to_string()),
                _ => body.to_string(),
            };
            send(&app, method, path, body).await;
        }
    });
    drop(runtime);
    drop(app);
    let deadline = Instant::now() + Duration::from_secs(10);
    while threads() > threads_before {
        assert!(
            Instant::now() < deadline,
            "a thread outlived its input by 10 s: {} threads, {threads_before} before",
            threads()
        );
        std::thread::sleep(Duration::from_millis(1));
    }
});

/// The threads of this process (/proc/self/task).
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

/// The answer to one request; an event stream (a search started) is
/// stopped and read to its end.
async fn send(app: &Router, method: &str, path: &str, body: String) {
    let Ok(request) = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
    else {
        return;
    };
    let path = request.uri().path().to_string();
    let res = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    assert!(
        !res.status().is_server_error(),
        "{method} {path}: {}",
        res.status()
    );
    let stream = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    if stream {
        let (game, _) = path.rsplit_once('/').expect("a search's path has an id");
        let stop = Request::post(format!("{game}/stop"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("{}"))
            .expect("a stop request");
        app.clone().oneshot(stop).await.expect("the router answers");
    }
    axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .expect("the body reads");
}

/// An `/api/options` body with a capped option's value capped, if it is
/// one.
fn cap_option(body: &str) -> Option<String> {
    let mut v: Value = serde_json::from_str(body).ok()?;
    let name = v.get("name")?.as_str()?.to_string();
    let value = match v.get("value")? {
        Value::String(s) => s.clone(),
        n @ Value::Number(_) => n.to_string(),
        _ => return None,
    };
    v["value"] = Value::from(capped(&name, &value)?.parse::<u64>().ok()?);
    Some(v.to_string())
}
