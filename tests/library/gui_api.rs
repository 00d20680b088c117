//! The browser GUI's HTTP API in process (axum's router called directly):
//! the page and its assets, legal moves and the beam as the rules code
//! gives them, moves played and refused, the engine's search streamed and
//! stopped (by a dropped stream, a later request, or "move now"), the
//! analysis's MultiPV lines streamed until stopped with nothing played,
//! by PVS or by MCTS (each line with its share of the playouts, the tree
//! kept for the game's next search, by the games searched last only),
//! the game cap, the PGN, and every kind of bad request answered with a
//! JSON 4xx.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use leiserchess::gui::{router, Config};
use leiserchess::play::pgn;
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::rules::laser::beam;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tower::ServiceExt;

const JSON: &str = "application/json";
/// No request body.
const NO_BODY: Value = Value::Null;

/// A search long enough that only a stop ends it.
fn long_search() -> Value {
    json!({ "movetime": 60_000 })
}

struct App(Router);

impl App {
    /// The server with PVS as its search: its iterations stream from the
    /// first millisecond, where the default search (the hybrid) first
    /// grows its tree (`the_default_search_notes_its_tree_then_streams_pvs`).
    fn new() -> App {
        let mut config = Config::default();
        config
            .engine
            .set("Search", Some("pvs"))
            .expect("pvs is a search");
        App(router(config))
    }

    fn with(config: Config) -> App {
        App(router(config))
    }

    /// The response to `method uri` with `body` sent as `content_type`.
    async fn raw(
        &self,
        method: &str,
        uri: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> axum::response::Response {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(t) = content_type {
            req = req.header(header::CONTENT_TYPE, t);
        }
        let req = req.body(Body::from(body)).unwrap();
        self.0.clone().oneshot(req).await.unwrap()
    }

    /// Status and JSON body of a request with a JSON body (`NO_BODY`:
    /// none).
    async fn call(&self, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        let bytes = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let res = self.raw(method, uri, Some(JSON), bytes).await;
        let status = res.status();
        let text = text(res).await;
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {text}"));
        (status, value)
    }

    async fn ok(&self, method: &str, uri: &str, body: Value) -> Value {
        let (status, v) = self.call(method, uri, body).await;
        assert_eq!(status, StatusCode::OK, "{method} {uri}: {v}");
        v
    }

    /// A 4xx `status` whose JSON names `field` and says `says`.
    async fn refused(
        &self,
        method: &str,
        uri: &str,
        body: Value,
        status: u16,
        field: &str,
        says: &str,
    ) {
        let (got, v) = self.call(method, uri, body).await;
        check_error(got, &v, status, field, says);
    }

    async fn new_game(&self, fen: Option<&str>) -> Value {
        let body = match fen {
            Some(f) => json!({ "fen": f }),
            None => json!({}),
        };
        self.ok("POST", "/api/games", body).await
    }

    async fn search(&self, id: u64, limit: Value) -> axum::response::Response {
        self.stream(&format!("/api/games/{id}/search"), limit).await
    }

    async fn analyse(&self, id: u64, request: Value) -> Body {
        self.stream(&format!("/api/games/{id}/analyse"), request)
            .await
            .into_body()
    }

    /// The event stream a POST of `body` to `uri` answers.
    async fn stream(&self, uri: &str, body: Value) -> axum::response::Response {
        let res = self
            .raw("POST", uri, Some(JSON), body.to_string().into_bytes())
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let ct = res.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        assert!(ct.starts_with("text/event-stream"), "{ct}");
        res
    }
}

fn check_error(got: StatusCode, v: &Value, status: u16, field: &str, says: &str) {
    assert_eq!(got.as_u16(), status, "{v}");
    assert_eq!(v["field"], field, "{v}");
    let message = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error text: {v}"));
    assert!(message.contains(says), "'{message}' should say '{says}'");
}

async fn text(res: axum::response::Response) -> String {
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Reads server-sent events from `body` until one named in `last` (or the
/// end), within `patience`.
async fn events(body: &mut Body, last: &[&str], patience: Duration) -> Vec<(String, Value)> {
    let deadline = Instant::now() + patience;
    let mut buffer = String::new();
    let mut out = Vec::new();
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let mut name = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = n.to_string();
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push_str(d);
                }
            }
            if !data.is_empty() {
                let done = last.contains(&name.as_str());
                out.push((name, serde_json::from_str(&data).unwrap()));
                if done {
                    return out;
                }
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = tokio::time::timeout(left, body.frame())
            .await
            .unwrap_or_else(|_| {
                panic!("no '{last:?}' event in {patience:?}; events so far: {out:?}")
            });
        match frame {
            Some(f) => {
                if let Ok(data) = f.unwrap().into_data() {
                    buffer.push_str(std::str::from_utf8(&data).unwrap());
                }
            }
            None => return out,
        }
    }
}

fn texts(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

/// Waits until game `id` has no search running; its state then.
async fn idle(app: &App, id: u64, patience: Duration) -> Value {
    let deadline = Instant::now() + patience;
    loop {
        let v = app.ok("GET", &format!("/api/games/{id}"), NO_BODY).await;
        if v["searching"] == false {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "game {id} still searching after {patience:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let app = App::new();
    for (path, kind, has) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/app.js", "text/javascript", "/api/games"),
        ("/options.js", "text/javascript", "/api/options"),
        ("/style.css", "text/css", "#board"),
    ] {
        let res = app.raw("GET", path, None, Vec::new()).await;
        assert_eq!(res.status(), StatusCode::OK);
        let ct = res.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        assert!(ct.starts_with(kind), "{path}: {ct}");
        assert!(text(res).await.contains(has), "{path}");
    }
}

#[tokio::test]
async fn legal_moves_and_the_beam_are_the_rules() {
    let app = App::new();
    for text in [
        fen::STARTPOS,
        "7ss/3nw4/8/8/SE2NW4/8/8/NN7 W",
        "ss7/3nwse3/2nwse4/1nwse3NW1/1se3NWSE1/4NWSE2/3NWSE3/7NN B",
    ] {
        let v = app.new_game(Some(text)).await;
        let mut game = Game::from_fen(text).unwrap();
        assert_eq!(v["fen"], fen::to_fen(game.board()));
        let want: BTreeSet<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(texts(&v["legal"]), want, "{text}");
        let b = beam(game.board(), game.board().side()).unwrap();
        let points: Vec<String> = b.points.iter().map(|s| s.to_string()).collect();
        assert_eq!(v["beam"]["points"], json!(points), "{text}");
        assert_eq!(v["beam"]["zapped"], json!(b.zapped.map(|s| s.to_string())));
        let pieces = v["board"].as_array().unwrap();
        assert_eq!(pieces.len(), 64);
        for (i, p) in pieces.iter().enumerate() {
            let sq = game.board().squares()[i];
            assert_eq!(p.is_null(), sq.is_none(), "square {i}");
        }
    }
    // The beam of the mirrors test position ends on the pawn it zaps.
    let v = app.new_game(Some("7ss/3nw4/8/8/SE2NW4/8/8/NN7 W")).await;
    assert_eq!(v["beam"]["points"], json!(["a0", "a3", "d3", "d6"]));
    assert_eq!(v["beam"]["zapped"], "d6");
    let swap = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["swap"].is_string());
    assert!(swap.is_none(), "no piece is next to an enemy");
}

#[tokio::test]
async fn moves_are_played_only_when_legal_ko_included() {
    let app = App::new();
    let v = app.new_game(Some("ww7/8/8/3nw4/3NW4/8/8/7EE W")).await;
    let id = v["id"].as_u64().unwrap();
    let uri = format!("/api/games/{id}/move");
    // The swap + step of the Ko test, then the swap back is refused.
    let v = app.ok("POST", &uri, json!({ "move": "d3d4e3" })).await;
    assert_eq!(v["history"], json!(["d3d4e3"]));
    assert_eq!(v["side"], "black");
    assert_eq!(v["last_move"]["swap"], "d4");
    app.refused(
        "POST",
        &uri,
        json!({ "move": "d3e3d4" }),
        400,
        "move",
        "Ko rule",
    )
    .await;
    app.refused(
        "POST",
        &uri,
        json!({ "move": "h0h3" }),
        400,
        "move",
        "must be adjacent",
    )
    .await;
    app.refused(
        "POST",
        &uri,
        json!({ "move": "a0a1" }),
        400,
        "move",
        "not a move of this position: a0 is empty",
    )
    .await;
    app.refused(
        "POST",
        &uri,
        json!({ "move": "e3R" }),
        400,
        "move",
        "is Tangerine's, and Lavender is to move",
    )
    .await;
    let v = app.ok("GET", &format!("/api/games/{id}"), NO_BODY).await;
    assert_eq!(
        v["history"],
        json!(["d3d4e3"]),
        "refused moves change nothing"
    );
    // Taking back.
    let v = app
        .ok("POST", &format!("/api/games/{id}/undo"), json!({}))
        .await;
    assert_eq!(
        (v["fen"].as_str(), v["history"].as_array().unwrap().len()),
        (Some("ww7/8/8/3nw4/3NW4/8/8/7EE W"), 0)
    );
    app.refused(
        "POST",
        &format!("/api/games/{id}/undo"),
        json!({ "plies": 1 }),
        400,
        "plies",
        "1..0",
    )
    .await;
}

#[tokio::test]
async fn a_zapped_king_or_a_draw_ends_the_game() {
    let app = App::new();
    let v = app.new_game(Some("8/8/8/8/8/8/8/nn6NN W")).await;
    let id = v["id"].as_u64().unwrap();
    let v = app
        .ok(
            "POST",
            &format!("/api/games/{id}/move"),
            json!({ "move": "h0L" }),
        )
        .await;
    assert_eq!(v["outcome"]["result"], "1-0");
    assert_eq!(v["outcome"]["reason"], "King zapped");
    assert_eq!(v["outcome"]["text"], "Tangerine wins: King zapped");
    assert_eq!(v["legal"], json!([]));
    app.refused(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({ "move": "a0R" }),
        409,
        "move",
        "the game is over",
    )
    .await;
    app.refused(
        "POST",
        &format!("/api/games/{id}/search"),
        json!({ "depth": 2 }),
        409,
        "id",
        "the game is over",
    )
    .await;
    app.refused(
        "POST",
        &format!("/api/games/{id}/analyse"),
        json!({}),
        409,
        "id",
        "the game is over",
    )
    .await;

    // Three times the same position: the GUI ends the game as a referee does.
    let v = app.new_game(Some(fen::ENDGAME)).await;
    let uri = format!("/api/games/{}/move", v["id"]);
    let cycle = [
        "h0g0", "a7b7", "g0g1", "b7b6", "g1h1", "b6a6", "h1h0", "a6a7",
    ];
    let mut v = Value::Null;
    for m in cycle.iter().chain(&cycle) {
        v = app.ok("POST", &uri, json!({ "move": m })).await;
    }
    assert_eq!(v["outcome"]["result"], "1/2-1/2");
    assert_eq!(v["outcome"]["reason"], "draw by repetition");
    app.refused(
        "POST",
        &uri,
        json!({ "move": "h0g0" }),
        409,
        "move",
        "draw by repetition",
    )
    .await;
}

/// The server's default search is the hybrid: its tree's note comes
/// first, then the final search's iterations, each saying `hybrid`, and
/// the move is the last one's.
#[tokio::test]
async fn the_default_search_notes_its_tree_then_streams_pvs() {
    let app = App::with(Config::default());
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let mut body = app.search(id, json!({ "depth": 3 })).await.into_body();
    let seen = events(&mut body, &["move", "stopped"], Duration::from_secs(30)).await;
    let (first, rest) = seen.split_first().unwrap();
    assert_eq!(first.0, "note", "{seen:?}");
    let note = first.1["text"].as_str().unwrap();
    assert!(note.starts_with("hybrid tree: "), "{note}");
    let (last, infos) = rest.split_last().unwrap();
    let depths: Vec<u64> = infos
        .iter()
        .map(|(n, d)| {
            assert_eq!((n.as_str(), d["search"].as_str()), ("info", Some("hybrid")));
            d["depth"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(depths, [1, 2, 3], "{seen:?}");
    assert_eq!(last.0, "move", "{seen:?}");
    assert_eq!(infos[2].1["pv"][0], last.1["move"]);
}

#[tokio::test]
async fn the_engine_streams_its_iterations_and_plays() {
    let app = App::new();
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let mut body = app.search(id, json!({ "depth": 3 })).await.into_body();
    let seen = events(&mut body, &["move", "stopped"], Duration::from_secs(30)).await;
    let (last, rest) = seen.split_last().unwrap();
    let depths: Vec<u64> = rest
        .iter()
        .map(|(n, d)| {
            assert_eq!(n, "info");
            assert!(d["nodes"].as_u64().unwrap() > 0 && !d["pv"].as_array().unwrap().is_empty());
            // A search for a move has one line, its own.
            check_lines(d, fen::STARTPOS, &[], 1);
            d["depth"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(depths, [1, 2, 3]);
    assert_eq!(last.0, "move");
    let played = last.1["move"].as_str().unwrap();
    assert_eq!(
        rest[2].1["pv"][0], played,
        "the move is the last iteration's"
    );
    let v = idle(&app, id, Duration::from_secs(5)).await;
    assert_eq!(v["history"], json!([played]));
    assert_eq!(last.1["state"]["fen"], v["fen"]);
    // The engine's move is in the PGN with its depth.
    let pgn = text(
        app.raw("GET", &format!("/api/games/{id}/pgn"), None, Vec::new())
            .await,
    )
    .await;
    assert!(
        pgn.contains(&format!("1. {played} {{")) && pgn.contains(" 3 "),
        "{pgn}"
    );
}

#[tokio::test]
async fn a_dropped_stream_stops_the_search_and_plays_nothing() {
    let app = App::new();
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let mut body = app.search(id, long_search()).await.into_body();
    let first = events(&mut body, &["info"], Duration::from_secs(30)).await;
    assert_eq!(first.last().unwrap().0, "info");
    assert_eq!(
        app.ok("GET", &format!("/api/games/{id}"), NO_BODY).await["searching"],
        true
    );
    let dropped = Instant::now();
    drop(body);
    let v = idle(&app, id, Duration::from_secs(5)).await;
    assert!(dropped.elapsed() < Duration::from_secs(5));
    assert_eq!(v["history"], json!([]), "a cancelled search plays nothing");
    // The place it held among the running searches is free again.
    let app1 = App::with(Config {
        max_searches: 1,
        ..Config::default()
    });
    let id = app1.new_game(None).await["id"].as_u64().unwrap();
    let body = app1.search(id, long_search()).await.into_body();
    let other = app1.new_game(None).await["id"].as_u64().unwrap();
    app1.refused(
        "POST",
        &format!("/api/games/{other}/search"),
        json!({ "depth": 2 }),
        429,
        "id",
        "searches are running",
    )
    .await;
    drop(body);
    idle(&app1, id, Duration::from_secs(5)).await;
    let mut body = app1.search(other, json!({ "depth": 2 })).await.into_body();
    let seen = events(&mut body, &["move"], Duration::from_secs(30)).await;
    assert_eq!(seen.last().unwrap().0, "move");
}

#[tokio::test]
async fn a_later_request_cancels_the_search_and_move_now_plays() {
    let app = App::new();
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let mut body = app.search(id, long_search()).await.into_body();
    events(&mut body, &["info"], Duration::from_secs(30)).await;
    // A human move for the side the engine was thinking for wins.
    let v = app
        .ok(
            "POST",
            &format!("/api/games/{id}/move"),
            json!({ "move": "h0g0" }),
        )
        .await;
    assert_eq!(v["history"], json!(["h0g0"]));
    let rest = events(&mut body, &["move", "stopped"], Duration::from_secs(5)).await;
    assert_eq!(rest.last().unwrap().0, "stopped", "{rest:?}");
    assert_eq!(
        idle(&app, id, Duration::from_secs(5)).await["history"],
        json!(["h0g0"])
    );

    // "Move now": the best move so far is played at once.
    let mut body = app.search(id, long_search()).await.into_body();
    events(&mut body, &["info"], Duration::from_secs(30)).await;
    let asked = Instant::now();
    let v = app
        .ok("POST", &format!("/api/games/{id}/stop"), json!({}))
        .await;
    assert_eq!(v["stopping"], true);
    let rest = events(&mut body, &["move", "stopped"], Duration::from_secs(5)).await;
    assert_eq!(rest.last().unwrap().0, "move", "{rest:?}");
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert_eq!(
        idle(&app, id, Duration::from_secs(5)).await["history"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    app.refused(
        "POST",
        &format!("/api/games/{id}/stop"),
        json!({}),
        409,
        "id",
        "no search running",
    )
    .await;
}

/// Checks an analysis's `info` event of `fen`'s position (after `played`)
/// for `want` lines: best first, each a different legal root move whose
/// whole line the rules allow, its chances summing to 1000, the best line
/// the event's own figures. PVS's (and the hybrid's) lines are by score and carry no visits;
/// MCTS's carry their shares of the playouts (`check_shares`).
fn check_lines(info: &Value, fen: &str, played: &[&str], want: usize) {
    let mut game = Game::from_fen(fen).unwrap();
    for m in played {
        game.play_text(m).unwrap();
    }
    let legal: BTreeSet<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    let lines = info["lines"].as_array().unwrap();
    assert_eq!(lines.len(), want, "{info}");
    let mcts = info["search"] == "mcts";
    assert_eq!(info["counted"], if mcts { "playouts" } else { "nodes" });
    if mcts {
        check_shares(info);
    } else {
        // The hybrid's lines are its final PVS's.
        assert!(
            ["pvs", "hybrid"].contains(&info["search"].as_str().unwrap_or("")),
            "{info}"
        );
    }
    let mut firsts = BTreeSet::new();
    let mut last = i64::MAX;
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], k + 1, "{info}");
        assert_eq!(line.get("visits").is_some(), mcts, "{info}");
        let score = line["score"].as_i64().unwrap();
        assert!(mcts || score <= last, "lines best first: {info}");
        last = score;
        let text = line["score_text"].as_str().unwrap();
        assert!(
            text == format!("cp {score}") || text.starts_with("mate "),
            "{info}"
        );
        let wdl: Vec<u64> = serde_json::from_value(line["wdl"].clone()).unwrap();
        assert_eq!(wdl.len(), 3, "{info}");
        assert_eq!(wdl.iter().sum::<u64>(), 1000, "{info}");
        let pv: Vec<String> = serde_json::from_value(line["pv"].clone()).unwrap();
        assert!(legal.contains(&pv[0]), "{} is not legal: {info}", pv[0]);
        assert!(firsts.insert(pv[0].clone()), "one line a root move: {info}");
        let mut after = game.clone();
        for m in &pv {
            after
                .play_text(m)
                .unwrap_or_else(|e| panic!("{m} in line {}: {e}; {info}", k + 1));
        }
    }
    assert_eq!(lines[0]["score"], info["score"]);
    assert_eq!(lines[0]["pv"], info["pv"]);
}

/// Checks an MCTS `info` event's shares: each line's playouts through its
/// first move (`edge`) of the root's (`root`, the same for every line, at
/// least the event's playouts), `share` their quotient in [0, 1], the
/// shares summing to at most 1; the lines best first (a proven win, else
/// the most visited not proven lost), then by visits.
fn check_shares(info: &Value) {
    let lines = info["lines"].as_array().unwrap();
    let root = lines[0]["visits"]["root"].as_u64().unwrap();
    assert!(root >= info["nodes"].as_u64().unwrap(), "{info}");
    let mut sum = 0.0;
    let mut edges = Vec::new();
    for line in lines {
        let v = &line["visits"];
        let (edge, share) = (v["edge"].as_u64().unwrap(), v["share"].as_f64().unwrap());
        assert_eq!(v["root"], root, "{info}");
        assert!((0.0..=1.0).contains(&share), "{info}");
        assert!((share - edge as f64 / root as f64).abs() < 1e-9, "{info}");
        sum += share;
        edges.push(edge);
    }
    assert!(sum <= 1.0 + 1e-9, "the shares sum to {sum}: {info}");
    assert!(
        edges[1..].windows(2).all(|w| w[0] >= w[1]),
        "after the best, by visits: {info}"
    );
    let text = |k: usize| lines[k]["score_text"].as_str().unwrap();
    let won = text(0).starts_with("mate ") && !text(0).starts_with("mate -");
    assert!(
        won || (0..lines.len()).all(|k| text(k).starts_with("mate -") || edges[k] <= edges[0]),
        "the best line the most visited of those not lost: {info}"
    );
}

/// An MCTS search whose tree fills `mcts_tree_mb` says so in a `note`
/// event before its move, in the UCI loop's words; one that fits does not.
#[tokio::test]
async fn a_full_mcts_tree_is_noted() {
    let app = App::new();
    set_option(&app, "Search", "mcts").await;
    let note = |seen: &[(String, Value)]| {
        let notes: Vec<&Value> = seen
            .iter()
            .filter(|(n, _)| n == "note")
            .map(|(_, d)| d)
            .collect();
        notes
            .first()
            .map(|d| d["text"].as_str().unwrap().to_string())
    };
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let mut body = app.search(id, json!({ "movetime": 100 })).await.into_body();
    let seen = events(&mut body, &["move", "stopped"], Duration::from_secs(30)).await;
    assert_eq!(seen.last().unwrap().0, "move", "{seen:?}");
    assert_eq!(note(&seen), None, "{seen:?}");
    set_option(&app, "mcts_tree_mb", "1").await;
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    // Alone it fills 1 MB within 300 ms; beside other tests it
    // once did not, so it has a second.
    let mut body = app
        .search(id, json!({ "movetime": 1000 }))
        .await
        .into_body();
    let seen = events(&mut body, &["move", "stopped"], Duration::from_secs(30)).await;
    assert_eq!(seen.last().unwrap().0, "move", "{seen:?}");
    assert_eq!(
        note(&seen).as_deref(),
        Some("the search tree filled mcts_tree_mb (1 MB) and stopped growing"),
        "{seen:?}"
    );
}

/// Sets the engine's option `name` through the page's API.
async fn set_option(app: &App, name: &str, value: &str) -> Value {
    app.ok(
        "POST",
        "/api/options",
        json!({ "name": name, "value": value }),
    )
    .await
}

/// The first `info` event of an analysis of game `id` with `lines` lines,
/// and the analysis's stream (still running).
async fn first_info(app: &App, id: u64, lines: usize) -> (Value, Body) {
    let mut body = app.analyse(id, json!({ "multipv": lines })).await;
    let seen = events(&mut body, &["info"], Duration::from_secs(30)).await;
    let (name, info) = seen.into_iter().next().unwrap();
    assert_eq!(name, "info");
    (info, body)
}

/// The playouts of an MCTS `info` event's root kept from an earlier search.
fn kept(info: &Value) -> u64 {
    info["lines"][0]["visits"]["root"].as_u64().unwrap() - info["nodes"].as_u64().unwrap()
}

/// Stops game `id`'s analysis read from `body` and waits for its end.
async fn stop_analysis(app: &App, id: u64, mut body: Body) -> Vec<(String, Value)> {
    app.ok("POST", &format!("/api/games/{id}/stop"), json!({}))
        .await;
    let rest = events(&mut body, &["move", "stopped"], Duration::from_secs(5)).await;
    assert_eq!(rest.last().unwrap().0, "stopped", "{rest:?}");
    idle(app, id, Duration::from_secs(5)).await;
    rest
}

/// The `Search` option picks the analysis's search: MCTS's lines carry
/// their shares of the playouts, as many lines as asked; its tree is kept
/// for the game's next analysis, of the same position or after a move;
/// back on PVS, the lines carry none.
#[tokio::test]
async fn an_mcts_analysis_shows_each_lines_share_of_the_playouts() {
    let app = App::new();
    let v = set_option(&app, "Search", "mcts").await;
    assert_eq!(v["report"], "Search set to mcts");
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let (first, mut body) = first_info(&app, id, 3).await;
    assert_eq!(first["search"], "mcts", "{first}");
    assert_eq!(
        kept(&first),
        0,
        "a new game's first search keeps nothing: {first}"
    );
    let mut infos = vec![first];
    while infos.len() < 4 {
        let seen = events(&mut body, &["info"], Duration::from_secs(30)).await;
        infos.extend(seen.into_iter().map(|(_, data)| data));
    }
    for info in &infos {
        check_lines(info, fen::STARTPOS, &[], 3);
    }
    // Asked again at once, as the page asks for another search: the new
    // analysis waits for the old one to end and starts from its tree.
    let (again, next) = first_info(&app, id, 3).await;
    check_lines(&again, fen::STARTPOS, &[], 3);
    assert!(kept(&again) > 0, "the tree is kept: {again}");
    let rest = events(&mut body, &["stopped"], Duration::from_secs(5)).await;
    let (last, infos) = rest.split_last().unwrap();
    assert_eq!(last.1["reason"], "the analysis was cancelled", "{rest:?}");
    for (_, info) in infos {
        check_lines(info, fen::STARTPOS, &[], 3);
    }
    // The stop's report, unless it came right after the last one.
    let rest = stop_analysis(&app, id, next).await;
    let last = rest
        .iter()
        .rev()
        .find(|(name, _)| name == "info")
        .map_or(&again, |(_, data)| data);
    check_lines(last, fen::STARTPOS, &[], 3);
    let best = last["pv"][0].as_str().unwrap().to_string();
    // After the best move: from its subtree.
    app.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({ "move": best }),
    )
    .await;
    let (after, body) = first_info(&app, id, 3).await;
    check_lines(&after, fen::STARTPOS, &[&best], 3);
    assert!(
        kept(&after) > 0,
        "the played move's subtree is kept: {after}"
    );
    stop_analysis(&app, id, body).await;
    // As many lines as asked.
    let (five, body) = first_info(&app, id, 5).await;
    check_lines(&five, fen::STARTPOS, &[&best], 5);
    stop_analysis(&app, id, body).await;

    // Back on PVS: no shares.
    set_option(&app, "Search", "pvs").await;
    let (pvs, body) = first_info(&app, id, 3).await;
    check_lines(&pvs, fen::STARTPOS, &[&best], 3);
    assert!(pvs["lines"][0].get("visits").is_none(), "{pvs}");
    stop_analysis(&app, id, body).await;
    let (s, v) = app
        .call(
            "POST",
            "/api/options",
            json!({ "name": "Search", "value": "alphabeta" }),
        )
        .await;
    check_error(
        s,
        &v,
        400,
        "value",
        "option 'Search' wants one of pvs, mcts, bestfirst, hybrid, got 'alphabeta'",
    );
}

/// Only the games searched last keep their tree: with one kept, another
/// game's search makes the first forget its own.
#[tokio::test]
async fn only_the_games_searched_last_keep_their_tree() {
    let app = App::with(Config {
        remembered_games: 1,
        ..Config::default()
    });
    set_option(&app, "Search", "mcts").await;
    let a = app.new_game(None).await["id"].as_u64().unwrap();
    let b = app.new_game(None).await["id"].as_u64().unwrap();
    for id in [a, b] {
        let (_, body) = first_info(&app, id, 2).await;
        stop_analysis(&app, id, body).await;
    }
    let (info, body) = first_info(&app, a, 2).await;
    assert_eq!(kept(&info), 0, "game {a} forgot its tree: {info}");
    stop_analysis(&app, a, body).await;
    let (info, body) = first_info(&app, a, 2).await;
    assert!(kept(&info) > 0, "game {a} searched last keeps it: {info}");
    stop_analysis(&app, a, body).await;
    let (info, body) = first_info(&app, b, 2).await;
    assert_eq!(kept(&info), 0, "game {b} forgot its tree: {info}");
    stop_analysis(&app, b, body).await;
}

#[tokio::test]
async fn an_analysis_streams_its_lines_until_stopped_and_plays_nothing() {
    let app = App::new();
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let mut body = app.analyse(id, json!({ "multipv": 3 })).await;
    // An infinite search: iterations keep coming until it is stopped.
    let mut infos = Vec::new();
    while infos.len() < 3 {
        let seen = events(&mut body, &["info"], Duration::from_secs(30)).await;
        infos.extend(seen.into_iter().map(|(name, data)| {
            assert_eq!(name, "info");
            data
        }));
    }
    for info in &infos {
        check_lines(info, fen::STARTPOS, &[], 3);
    }
    let state = app.ok("GET", &format!("/api/games/{id}"), NO_BODY).await;
    assert_eq!(state["searching"], true);
    let asked = Instant::now();
    let v = app
        .ok("POST", &format!("/api/games/{id}/stop"), json!({}))
        .await;
    assert_eq!(v["stopping"], true);
    let rest = events(&mut body, &["move", "stopped"], Duration::from_secs(5)).await;
    let (last, infos) = rest.split_last().unwrap();
    assert_eq!(last.0, "stopped", "{rest:?}");
    assert_eq!(last.1["reason"], "the analysis was stopped");
    // An iteration the stop cut short is not shown with fewer lines.
    for (_, info) in infos {
        check_lines(info, fen::STARTPOS, &[], 3);
    }
    assert!(asked.elapsed() < Duration::from_secs(5));
    let after = idle(&app, id, Duration::from_secs(5)).await;
    assert_eq!(after["history"], json!([]), "an analysis plays nothing");
    assert_eq!(after["fen"], state["fen"]);
    assert_eq!(after["version"], state["version"]);
    app.refused(
        "POST",
        &format!("/api/games/{id}/stop"),
        json!({}),
        409,
        "id",
        "no search running",
    )
    .await;
}

#[tokio::test]
async fn an_analysis_has_at_most_the_legal_moves_and_ends_with_the_game() {
    // The lone Kings' corner: fewer legal moves than lines asked.
    let app = App::new();
    let id = app.new_game(Some(fen::ENDGAME)).await["id"]
        .as_u64()
        .unwrap();
    let legal = Game::from_fen(fen::ENDGAME).unwrap().legal_moves().len();
    assert!(legal < 16, "{legal}");
    let mut body = app.analyse(id, json!({ "multipv": 16 })).await;
    let seen = events(&mut body, &["info"], Duration::from_secs(30)).await;
    check_lines(&seen.last().unwrap().1, fen::ENDGAME, &[], legal);
    // A move ends it; the move stands.
    let v = app
        .ok(
            "POST",
            &format!("/api/games/{id}/move"),
            json!({ "move": "h0g0" }),
        )
        .await;
    assert_eq!(v["history"], json!(["h0g0"]));
    let rest = events(&mut body, &["move", "stopped"], Duration::from_secs(5)).await;
    assert_eq!(
        rest.last().unwrap().1["reason"],
        "the analysis was cancelled",
        "{rest:?}"
    );
    assert_eq!(
        idle(&app, id, Duration::from_secs(5)).await["history"],
        json!(["h0g0"])
    );
    // Lavender's lines, after Tangerine's move; the default is 3 lines.
    let mut body = app.analyse(id, json!({})).await;
    let seen = events(&mut body, &["info"], Duration::from_secs(30)).await;
    check_lines(&seen.last().unwrap().1, fen::ENDGAME, &["h0g0"], 3);
    // Undo ends it too.
    app.ok("POST", &format!("/api/games/{id}/undo"), json!({}))
        .await;
    let rest = events(&mut body, &["move", "stopped"], Duration::from_secs(5)).await;
    assert_eq!(rest.last().unwrap().0, "stopped", "{rest:?}");
    assert_eq!(
        idle(&app, id, Duration::from_secs(5)).await["history"],
        json!([])
    );
}

#[tokio::test]
async fn an_analysis_clamps_its_lines_and_counts_among_the_searches() {
    let app = App::with(Config {
        max_searches: 1,
        ..Config::default()
    });
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    for (asked, want) in [(json!(0), 1), (json!(-5), 1), (json!(100), 16)] {
        let mut body = app.analyse(id, json!({ "multipv": asked })).await;
        let seen = events(&mut body, &["info"], Duration::from_secs(30)).await;
        check_lines(&seen.last().unwrap().1, fen::STARTPOS, &[], want);
        if want == 16 {
            // The one place among the searches is taken.
            let other = app.new_game(None).await["id"].as_u64().unwrap();
            app.refused(
                "POST",
                &format!("/api/games/{other}/analyse"),
                json!({}),
                429,
                "id",
                "searches are running",
            )
            .await;
        }
        // A closed stream frees it.
        drop(body);
        idle(&app, id, Duration::from_secs(5)).await;
    }
    assert_eq!(
        app.ok("GET", &format!("/api/games/{id}"), NO_BODY).await["history"],
        json!([])
    );
}

#[tokio::test]
async fn the_oldest_games_are_dropped_beyond_the_cap() {
    let app = App::with(Config {
        max_games: 3,
        ..Config::default()
    });
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(app.new_game(None).await["id"].as_u64().unwrap());
    }
    assert_eq!(ids, [1, 2, 3, 4, 5]);
    for id in [1, 2] {
        app.refused(
            "GET",
            &format!("/api/games/{id}"),
            NO_BODY,
            404,
            "id",
            &format!("no game {id}"),
        )
        .await;
    }
    for id in [3, 4, 5] {
        app.ok("GET", &format!("/api/games/{id}"), NO_BODY).await;
    }
}

#[tokio::test]
async fn the_pgn_is_autotests_standard_style() {
    let app = App::new();
    let now = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    let before = now();
    let start = "8/8/8/8/8/8/8/nn6NN W";
    let body = json!({ "fen": start, "white": "Ada", "black": "leiserchess (depth 4)" });
    let id = app.ok("POST", "/api/games", body).await["id"]
        .as_u64()
        .unwrap();
    app.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({ "move": "h0L" }),
    )
    .await;
    let res = app
        .raw("GET", &format!("/api/games/{id}/pgn"), None, Vec::new())
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let disposition = res.headers()[header::CONTENT_DISPOSITION].to_str().unwrap();
    assert_eq!(
        disposition,
        format!("attachment; filename=\"leiserchess-{id}.pgn\"")
    );
    let got = text(res).await;
    // The only free figure is the human's thinking time.
    let secs = got
        .split("1. h0L {")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap();
    let ms: u64 = secs.replace('.', "").parse().unwrap();
    let want = pgn::standard(&pgn::Standard {
        event: "leiserchess gui",
        round: &id.to_string(),
        white: "Ada",
        black: "leiserchess (depth 4)",
        fen: Some(start),
        opening: &[],
        moves: &[pgn::MoveRecord {
            text: "h0L".to_string(),
            time_ns: ms * 1_000_000,
            depth: None,
            nodes: None,
            score: None,
        }],
        result: "1-0",
        termination_tag: "normal",
        termination: "King zapped",
        started_unix: before,
        extra: &[],
    });
    let dated = |unix| got.contains(&format!("[Date \"{}\"]", pgn::date(unix)));
    assert!(dated(before) || dated(now()), "{got}");
    let without_date = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("[Date "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_date(&got), without_date(&want));
    assert!(got.contains("[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/nn6NN W\"]\n[Termination \"normal\"]\n[PlyCount \"1\"]\n\n1. h0L {"));
    assert!(got.ends_with("- -} {King zapped} 1-0\n\n"), "{got}");

    // A game still going: `*`, and nothing from a FEN for the start position.
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let got = text(
        app.raw("GET", &format!("/api/games/{id}/pgn"), None, Vec::new())
            .await,
    )
    .await;
    assert!(got.contains("[Result \"*\"]\n[Termination \"unterminated\"]\n[PlyCount \"0\"]\n\n{game in progress} *\n\n"), "{got}");
    assert!(!got.contains("[FEN "));
}

#[tokio::test]
async fn bad_requests_get_a_json_4xx_naming_what_was_wrong() {
    let app = App::new();
    let id = app.new_game(None).await["id"].as_u64().unwrap();
    let game = format!("/api/games/{id}");
    app.refused(
        "POST",
        "/api/games",
        json!({ "fen": "ss7/8/8/8/8/8/8/7NX W" }),
        400,
        "fen",
        "offset",
    )
    .await;
    app.refused(
        "POST",
        "/api/games",
        json!({ "fen": "8/8/8/8/8/8/8/8 W" }),
        400,
        "fen",
        "has no King",
    )
    .await;
    app.refused(
        "POST",
        "/api/games",
        json!({ "fenn": "x" }),
        400,
        "body",
        "unknown field `fenn`",
    )
    .await;
    app.refused(
        "POST",
        "/api/games",
        json!({ "fen": 5 }),
        400,
        "body",
        "invalid type",
    )
    .await;
    app.refused(
        "POST",
        "/api/games",
        json!({ "white": "x".repeat(61) }),
        400,
        "white",
        "at most 60",
    )
    .await;
    app.refused("GET", "/api/games/999", NO_BODY, 404, "id", "no game 999")
        .await;
    app.refused(
        "GET",
        "/api/games/abc",
        NO_BODY,
        400,
        "id",
        "'abc' is not a number",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/move"),
        json!({}),
        400,
        "body",
        "missing field `move`",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/move"),
        json!({ "move": "" }),
        400,
        "move",
        "cannot parse move",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/search"),
        json!({ "depth": 0 }),
        400,
        "depth",
        "1..30",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/search"),
        json!({ "movetime": 60_001 }),
        400,
        "movetime",
        "1..60000",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/search"),
        json!({ "depth": 2, "movetime": 9 }),
        400,
        "body",
        "exactly one",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/search"),
        json!({}),
        400,
        "body",
        "exactly one",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/analyse"),
        json!({ "multipv": "3" }),
        400,
        "body",
        "invalid type: string",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/analyse"),
        json!({ "multipv": 2.5 }),
        400,
        "body",
        "invalid type: floating point",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/analyse"),
        json!({ "lines": 3 }),
        400,
        "body",
        "unknown field `lines`",
    )
    .await;
    app.refused(
        "POST",
        &format!("{game}/undo"),
        json!({ "plies": 0 }),
        400,
        "plies",
        "not 0",
    )
    .await;
    app.refused(
        "GET",
        "/nowhere",
        NO_BODY,
        404,
        "path",
        "no such path '/nowhere'",
    )
    .await;
    app.refused(
        "DELETE",
        &game,
        NO_BODY,
        405,
        "method",
        "DELETE is not allowed",
    )
    .await;

    // Bodies that are not JSON at all.
    let check = |status: StatusCode, body: String, code: u16, field: &str, says: &str| {
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        check_error(status, &v, code, field, says);
    };
    let res = app
        .raw("POST", "/api/games", Some(JSON), b"{\"fen\": ".to_vec())
        .await;
    check(
        res.status(),
        text(res).await,
        400,
        "body",
        "bad JSON body: EOF",
    );
    let res = app
        .raw("POST", "/api/games", Some("text/plain"), b"{}".to_vec())
        .await;
    check(
        res.status(),
        text(res).await,
        415,
        "body",
        "application/json",
    );
    let res = app.raw("POST", "/api/games", None, Vec::new()).await;
    check(
        res.status(),
        text(res).await,
        415,
        "body",
        "application/json",
    );
    let huge = format!("{{\"fen\": \"{}\"}}", "8/".repeat(40_000));
    let res = app
        .raw("POST", "/api/games", Some(JSON), huge.into_bytes())
        .await;
    check(res.status(), text(res).await, 413, "body", "length limit");
    // None of it changed the game.
    assert_eq!(app.ok("GET", &game, NO_BODY).await["history"], json!([]));
}

/// The engine's options as the page sees them: every declared option in
/// `uci`'s order with its value; set as `setoption` sets them (clamped,
/// refused with the option named), and used by the searches after.
#[tokio::test]
async fn the_engines_options_are_listed_set_and_used() {
    let app = App::new();
    let v = app.ok("GET", "/api/options", NO_BODY).await;
    let listed = v["options"].as_array().unwrap();
    let names: Vec<&str> = listed.iter().map(|o| o["name"].as_str().unwrap()).collect();
    let declared: Vec<String> = leiserchess::config::EngineConfig::uci_lines()
        .iter()
        .map(|l| l["option name ".len()..l.find(" type ").unwrap()].to_string())
        .collect();
    assert_eq!(names, declared);
    let threads = &listed[0];
    assert_eq!(
        (
            &threads["value"],
            &threads["default"],
            &threads["min"],
            &threads["max"]
        ),
        (&json!(1), &json!(1), &json!(1), &json!(64))
    );
    let option = |v: &Value, name: &str| {
        v["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap()["value"]
            .clone()
    };
    assert_eq!(option(&v, "use_nnue"), json!(true));

    let set = |name: &str, value: Value| json!({ "name": name, "value": value });
    let v = app
        .ok("POST", "/api/options", set("Hash", json!(99999)))
        .await;
    assert_eq!(v["report"], "hash set to 4096 (99999 is outside 1..4096)");
    assert_eq!(option(&v, "hash"), json!(4096));
    let v = app
        .ok("POST", "/api/options", set("draw", json!("-20")))
        .await;
    assert_eq!(option(&v, "draw"), json!(-20));
    let v = app
        .ok("POST", "/api/options", json!({ "name": "Clear Hash" }))
        .await;
    assert_eq!(v["report"], "Clear Hash done");

    let (s, v) = app
        .call("POST", "/api/options", set("nosuch", json!(1)))
        .await;
    check_error(s, &v, 400, "name", "unknown option 'nosuch'");
    let (s, v) = app
        .call("POST", "/api/options", set("draw", json!("x")))
        .await;
    check_error(s, &v, 400, "value", "option 'draw' wants a whole number");
    let (s, v) = app
        .call("POST", "/api/options", set("threads", json!([1])))
        .await;
    check_error(s, &v, 400, "value", "text, a number or true/false");
    let (s, v) = app
        .call(
            "POST",
            "/api/options",
            set("EvalFile", json!("/no/such.nnue")),
        )
        .await;
    check_error(s, &v, 400, "value", "net unchanged");
    let (s, v) = app
        .call(
            "POST",
            "/api/options",
            set("PolicyFile", json!("/no/such.policy")),
        )
        .await;
    check_error(s, &v, 400, "value", "policy unchanged");
    let (s, v) = app
        .call("POST", "/api/options", set("BookFile", json!("x.book")))
        .await;
    check_error(s, &v, 400, "name", "no book");
    let v = app.ok("GET", "/api/options", NO_BODY).await;
    assert_eq!(option(&v, "EvalFile"), json!(""));
    assert_eq!(option(&v, "PolicyFile"), json!(""));
    assert_eq!(option(&v, "draw"), json!(-20));

    // The searches use the options: the hand-written evaluation searches
    // the start position to depth 3 over another tree than the net.
    let nodes = |app: &App| {
        let app = App(app.0.clone());
        async move {
            let id = app.new_game(None).await["id"].as_u64().unwrap();
            let mut body = app.search(id, json!({ "depth": 3 })).await.into_body();
            let seen = events(&mut body, &["move", "stopped"], Duration::from_secs(30)).await;
            let (_, rest) = seen.split_last().unwrap();
            rest.last().unwrap().1["nodes"].as_u64().unwrap()
        }
    };
    let with_net = nodes(&app).await;
    app.ok("POST", "/api/options", set("use_nnue", json!(false)))
        .await;
    let by_hand = nodes(&app).await;
    assert_ne!(with_net, by_hand);
}
