//! The browser GUI in a real headless Chromium, driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`, found on PATH; without them
//! the test is reported ignored, see `tests/common/needs.rs`): the page loads with the
//! start position and its beam; refused clicks are explained; a step and
//! a swap are played by clicking and the engine answers on the board; a
//! loaded FEN is drawn with the beam ending on the piece it zaps; a King
//! zap ends the game with its reason; the PGN downloads; a tab closed
//! mid-search frees the search; an analysis shows three lines with their
//! chances and stops playing nothing; with MCTS picked beside it, each
//! line's share of the playouts, and back on PVS none; the page fits a
//! phone's width.
//! Everything the page draws is checked against the rules code. Its
//! screenshots go to its temporary folder (kept when a later check
//! fails), and with `UPDATE_DOCS=1` to docs/gui.png,
//! docs/gui-analysis.png and docs/gui-mcts.png.

use fantoccini::{Client, ClientBuilder, Locator};
use leiserchess::gui::{router, serve, Config};
use leiserchess::rules::fen;
use leiserchess::rules::game::Game;
use leiserchess::rules::laser::beam;
use leiserchess::rules::square::Square;
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{needs, scratch};
use libtest_mimic::Trial;

/// Every wait for the page ends in a failure after this.
const PATIENCE: Duration = Duration::from_secs(30);

/// The position whose Tangerine beam turns at g5 and d5 and zaps d1.
const MIRRORS: &str = "ss3nw3/4se3/1senwse2SW1/nw4SE2/5NW2/4NWSE2/2NWswSE3/6NN1 W";
/// Tangerine turns its King west and zaps Lavender's.
const KING_ZAP: &str = "8/8/8/8/8/8/8/nn6NN W";

/// chromedriver, ended when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        // It may have ended already; either way it must not outlive the test.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().unwrap().port()
}

/// Starts `chromedriver` on a free port, logging to `log`.
fn start_driver(chromedriver: &Path, log: &Path) -> (Driver, u16) {
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .arg(format!("--log-path={}", log.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
    let driver = Driver(child);
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let start = Instant::now();
    while TcpStream::connect_timeout(&addr, Duration::from_millis(100)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "chromedriver did not listen on {port} (log: {})",
            log.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (driver, port)
}

/// The browser's session: `chromium`, headless, with a fresh profile and
/// downloads to `downloads`. Without the background-networking flags Chromium's own
/// connections are refused on a closed network and it stalls.
async fn open_browser(
    chromium: &Path,
    driver_port: u16,
    profile: &Path,
    downloads: &Path,
) -> Client {
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
            "prefs": {
                "download.default_directory": downloads.display().to_string(),
                "download.prompt_for_download": false,
            },
        },
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a WebDriver session with Chromium")
}

/// The page as the test sees it.
struct Page {
    c: Client,
}

impl Page {
    async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    async fn text(&self, css: &str) -> String {
        self.c
            .find(Locator::Css(css))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    async fn click(&self, css: &str) {
        let e = self
            .c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"));
        e.click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    async fn click_square(&self, square: &str) {
        self.click(&format!("rect.sq[data-square='{square}']"))
            .await;
    }

    /// Waits until `script` returns true.
    async fn until(&self, what: &str, script: &str) {
        let start = Instant::now();
        while self.js(script).await != Value::Bool(true) {
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {what}; message: {}",
                self.message().await
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    async fn message(&self) -> String {
        self.text("#message").await
    }

    /// Waits for the message to contain `says`.
    async fn says(&self, says: &str) {
        let script = format!(
            "return document.getElementById('message').textContent.includes({});",
            json!(says)
        );
        self.until(&format!("the message '{says}'"), &script).await;
    }

    /// The moves listed, without their numbers.
    async fn moves(&self) -> Vec<String> {
        self.text("#moves")
            .await
            .split_whitespace()
            .filter(|w| !w.ends_with('.') && w != &"none" && w != &"yet")
            .map(String::from)
            .collect()
    }

    /// Checks that the board drawn is `game`'s: the FEN, every piece by
    /// square, kind, colour and orientation, and the side to move's beam
    /// with its victim.
    async fn shows(&self, game: &Game) {
        let b = game.board();
        let fen = self
            .js("return document.getElementById('board').dataset.fen;")
            .await;
        assert_eq!(fen, fen::to_fen(b));
        let drawn = self
            .js("return [...document.querySelectorAll('#board .piece')].map(p => p.dataset.square + ' ' + p.dataset.piece);")
            .await;
        let mut drawn: Vec<String> = serde_json::from_value(drawn).unwrap();
        drawn.sort();
        let mut want: Vec<String> = Square::all()
            .filter_map(|s| {
                b.piece_at(s).map(|p| {
                    let kind = if p.is_king() { "king" } else { "pawn" };
                    let color = if p.color() == leiserchess::rules::piece::Color::White {
                        "white"
                    } else {
                        "black"
                    };
                    format!("{s} {kind} {color} {}", p.to_string().to_ascii_uppercase())
                })
            })
            .collect();
        want.sort();
        assert_eq!(drawn, want, "pieces drawn for {}", fen::to_fen(b));
        let rules = beam(b, b.side()).expect("a King to fire");
        let points: Vec<String> = rules.points.iter().map(|s| s.to_string()).collect();
        let shown = self.js("const b = document.getElementById('beam'); return b && [b.dataset.points, b.dataset.zapped, b.querySelectorAll('polyline').length];").await;
        let zapped = rules.zapped.map_or(String::new(), |s| s.to_string());
        assert_eq!(
            shown,
            json!([points.join(" "), zapped, 2]),
            "beam of {}",
            fen::to_fen(b)
        );
        let mark = self
            .js("const z = document.getElementById('zapped'); return z ? z.dataset.square : '';")
            .await;
        assert_eq!(mark, json!(zapped), "the zapped piece's mark");
    }

    async fn load_fen(&self, text: &str) {
        let input = self.c.find(Locator::Css("#fen")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(text).await.unwrap();
        self.click("#load").await;
        self.says("Position loaded.").await;
    }

    /// Waits until the engine has answered: `plies` moves listed and no
    /// search running.
    async fn engine_answered(&self, plies: usize) {
        let script = format!(
            "return S.game.history.length === {plies} && !S.search && document.getElementById('moves').textContent.trim().split(/\\s+/).filter(w => !w.endsWith('.')).length === {plies};"
        );
        self.until(&format!("the engine's answer (ply {plies})"), &script)
            .await;
    }
}

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "gui_browser::the_page_plays_in_chromium",
        &[needs::CHROMIUM, needs::CHROMEDRIVER],
        |found| the_page_plays_in_chromium(&found[0], &found[1]),
    )]
}

fn the_page_plays_in_chromium(chromium: &Path, chromedriver: &Path) {
    let dir = scratch::dir("gui_browser");
    let (profile, downloads) = (dir.join("profile"), dir.join("downloads"));
    for d in [&profile, &downloads] {
        std::fs::create_dir_all(d).unwrap();
    }
    let (driver, driver_port) = start_driver(chromedriver, &dir.join("chromedriver.log"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        tokio::spawn(serve(listener, router(Config::default())));
        let c = open_browser(chromium, driver_port, &profile, &downloads).await;
        let page = Page { c: c.clone() };
        // On a task of its own, so that a failed check still ends the
        // session below and Chromium does not linger.
        let task = tokio::spawn(play(page, url, dir.clone(), downloads));
        let result = tokio::time::timeout(Duration::from_secs(120), task).await;
        let _ = c.close().await;
        match result {
            Err(_) => panic!("the browser test took over 120 s"),
            Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Ok(Err(e)) => panic!("the browser test did not finish: {e}"),
            Ok(Ok(())) => {}
        }
    });
    drop(driver);
    std::fs::remove_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot remove {}: {e}", dir.display()));
}

async fn play(page: Page, url: String, dir: PathBuf, downloads: PathBuf) {
    page.c.goto(&url).await.unwrap();
    page.says("New game.").await;
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    page.shows(&game).await;
    assert_eq!(page.text("#status").await, "Tangerine to move — your move");

    // The engine plays Lavender at depth 3.
    let limit = page.c.find(Locator::Css("#limit")).await.unwrap();
    limit.clear().await.unwrap();
    limit.send_keys("3\u{e004}").await.unwrap();
    page.until(
        "the engine's name in the players",
        "return S.game.players.black === 'leiserchess (depth 3)';",
    )
    .await;

    // Refused clicks are explained, the rules' reasons included.
    page.click_square("a0").await;
    page.says("a0 is empty: select one of Tangerine's pieces first.")
        .await;
    page.click_square("a7").await;
    page.says("That is Lavender's piece; Tangerine is to move.")
        .await;
    page.click_square("h0").await;
    page.click_square("h3").await;
    page.says("the squares of a move must be adjacent").await;

    // A step by clicking; the engine answers on the board.
    page.click_square("h1").await;
    page.engine_answered(2).await;
    let moves = page.moves().await;
    assert_eq!(moves[0], "h0h1");
    for m in &moves {
        game.play_text(m).unwrap();
    }
    page.shows(&game).await;
    assert!(
        page.text("#info-depth").await.starts_with("3 "),
        "the last iteration's depth"
    );
    assert!(!page.text("#info-pv").await.is_empty());

    // A loaded FEN: the beam turns twice and ends on the pawn it zaps.
    page.load_fen(MIRRORS).await;
    let mut game = Game::from_fen(MIRRORS).unwrap();
    page.shows(&game).await;
    assert_eq!(
        page.js("return document.getElementById('beam').dataset.points;")
            .await,
        "g0 g5 d5 d1"
    );

    // A swap by clicking: e1 swaps with d1 and turns left; the engine answers.
    page.click_square("e1").await;
    page.click_square("d1").await;
    page.says("Swapping with d1").await;
    page.click("#rotate button[data-rot='L']").await;
    page.engine_answered(2).await;
    let moves = page.moves().await;
    assert_eq!(moves[0], "e1d1L");
    for m in &moves {
        game.play_text(m).unwrap();
    }
    page.shows(&game).await;

    // The screenshot: the engine's last search, a piece selected with its moves.
    let own = Square::all()
        .find(|&s| {
            game.board()
                .piece_at(s)
                .is_some_and(|p| p.color() == game.board().side() && !p.is_king())
        })
        .unwrap();
    page.click_square(&own.to_string()).await;
    let png = page.c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(dir.join("gui.png"), &png).unwrap();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gui.png");
        std::fs::write(&docs, &png).unwrap();
    }

    // Flipped, Lavender's back rank is at the bottom.
    page.click("#flip").await;
    let above = page
        .js("const y = s => document.querySelector(`rect.sq[data-square='${s}']`).getBoundingClientRect().y; return y('a0') < y('a7');")
        .await;
    assert_eq!(above, true);
    page.click("#flip").await;

    // A King zapped ends the game with its reason.
    page.load_fen(KING_ZAP).await;
    page.click_square("h0").await;
    page.click("#rotate button[data-rot='L']").await;
    page.until(
        "the result",
        "return !document.getElementById('result').hidden;",
    )
    .await;
    assert_eq!(
        page.text("#result").await,
        "1-0 · Tangerine wins: King zapped"
    );
    assert_eq!(page.text("#status").await, "Tangerine wins: King zapped");
    page.click_square("a0").await;
    page.says("The game is over").await;

    // The PGN, as autotest writes it.
    page.click("#pgn").await;
    let id = page.js("return S.game.id;").await;
    let file = downloads.join(format!("leiserchess-{id}.pgn"));
    let start = Instant::now();
    while !file.exists() {
        assert!(start.elapsed() < PATIENCE, "no download {}", file.display());
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let pgn = std::fs::read_to_string(&file).unwrap();
    for line in [
        "[Event \"leiserchess gui\"]",
        "[White \"Human\"]",
        "[Black \"leiserchess (depth 3)\"]",
        "[Result \"1-0\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{KING_ZAP}\"]"),
        "[Termination \"normal\"]",
        "[PlyCount \"1\"]",
    ] {
        assert!(pgn.lines().any(|l| l == line), "no {line} in\n{pgn}");
    }
    let movetext = pgn.split("\n\n").nth(1).unwrap();
    assert!(
        movetext.starts_with("1. h0L {") && movetext.ends_with(" - -} {King zapped} 1-0"),
        "{pgn}"
    );

    // A tab closed mid-search frees the search: the engine is given a
    // minute, the page goes away once the server says it is searching
    // (the default search, the hybrid, reports no iteration while its
    // tree grows: half the minute), and the game is soon idle with
    // nothing played.
    let kind = page.c.find(Locator::Css("#limit-kind")).await.unwrap();
    kind.select_by_value("movetime").await.unwrap();
    let limit = page.c.find(Locator::Css("#limit")).await.unwrap();
    limit.clear().await.unwrap();
    limit.send_keys("60000\u{e004}").await.unwrap();
    page.until(
        "a minute a move",
        "return S.game.players.black === 'leiserchess (60000 ms)';",
    )
    .await;
    page.click("#new").await;
    page.says("New game.").await;
    page.click("#go").await;
    page.until(
        "the server searching",
        "if (!S.search) return false; \
         const r = new XMLHttpRequest(); \
         r.open('GET', '/api/games/' + S.game.id, false); \
         r.send(); \
         return JSON.parse(r.responseText).searching === true;",
    )
    .await;
    let id = page.js("return S.game.id;").await;
    page.c.goto("about:blank").await.unwrap();
    let closed = Instant::now();
    loop {
        page.c.goto(&format!("{url}api/games/{id}")).await.unwrap();
        let text = page.js("return document.body.innerText;").await;
        let state: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        if state["searching"] == false {
            assert_eq!(
                state["history"],
                json!([]),
                "a cancelled search plays nothing"
            );
            break;
        }
        assert!(
            closed.elapsed() < Duration::from_secs(10),
            "the search outlived its tab by 10 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // An analysis of the start position: three lines, each a legal move
    // with its score, chances and moves; stopped, it has played nothing.
    page.c.goto(&url).await.unwrap();
    page.says("New game.").await;
    let count = page.c.find(Locator::Css("#lines-count")).await.unwrap();
    count.clear().await.unwrap();
    count.send_keys("3").await.unwrap();
    page.click("#analyse").await;
    page.until(
        "three lines with their chances at depth 6",
        "return S.analysing && document.querySelectorAll('#lines .line .wdl').length === 3 && parseInt(document.getElementById('info-depth').textContent) >= 6;",
    )
    .await;
    assert_eq!(
        page.text("#status").await,
        "Tangerine to move — the engine is analysing"
    );
    page.click("#stop-analysis").await;
    page.says("the analysis was stopped").await;
    page.until("the analysis's end", "return !S.search;").await;
    let rows = page
        .js("return [...document.querySelectorAll('#lines .line')].map(r => { const bar = r.querySelector('.wdl'); return { rank: r.querySelector('.rank').textContent, score: r.querySelector('.score').textContent, title: bar.title, widths: [...bar.children].map(s => s.className + ' ' + s.style.width), moves: r.querySelector('.pv').textContent }; });")
        .await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    let mut game = Game::from_fen(fen::STARTPOS).unwrap();
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut firsts = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row["rank"], (k + 1).to_string(), "{row}");
        assert!(
            row["score"].as_str().unwrap().contains("Tangerine"),
            "the side to move's view: {row}"
        );
        // "win 412 ‰ · draw 301 ‰ · loss 287 ‰", the segments as wide.
        let title = row["title"].as_str().unwrap();
        let parts: Vec<(&str, u32)> = title
            .split(" · ")
            .map(|p| {
                let w: Vec<&str> = p.split(' ').collect();
                assert_eq!((w.len(), w[2]), (3, "‰"), "{title}");
                (w[0], w[1].parse().unwrap())
            })
            .collect();
        let names: Vec<&str> = parts.iter().map(|p| p.0).collect();
        assert_eq!(names, ["win", "draw", "loss"], "{title}");
        assert_eq!(parts.iter().map(|p| p.1).sum::<u32>(), 1000, "{title}");
        let widths: Vec<String> = parts
            .iter()
            .map(|(name, n)| format!("{name} {}%", f64::from(*n) / 10.0))
            .collect();
        assert_eq!(row["widths"], json!(widths), "{row}");
        // The moves numbered as the game's, from move 1, all playable.
        let text = row["moves"].as_str().unwrap();
        assert!(text.starts_with("1. "), "{text}");
        let moves: Vec<&str> = text
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .collect();
        assert!(legal.iter().any(|m| m == moves[0]), "{text}");
        firsts.push(moves[0].to_string());
        let mut after = game.clone();
        for m in &moves {
            after
                .play_text(m)
                .unwrap_or_else(|e| panic!("{m} of line {}: {e}", k + 1));
        }
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "one line a root move: {rows:?}");
    assert!(page
        .text("#lines-side")
        .await
        .starts_with("Tangerine to move"));
    let state = page.js("return [S.game.history.length, S.game.fen];").await;
    assert_eq!(
        state,
        json!([0, fen::STARTPOS]),
        "the analysis played nothing"
    );
    let png = page.c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(dir.join("gui-analysis.png"), &png).unwrap();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gui-analysis.png");
        std::fs::write(&docs, &png).unwrap();
    }
    assert_eq!(page.text("#info-search").await, "hybrid");
    mcts_analysis(&page, &dir).await;

    // The engine's options: opened, the panel lists the engine's declared
    // options with their values; a value out of range is clamped and the
    // server's report shown, a refused one shown as an error, the value
    // as it was.
    page.c.set_window_size(1280, 1000).await.unwrap();
    page.click("#options summary").await;
    page.until(
        "the options listed",
        "return document.querySelector(\"#options-list input[data-option='threads']\") !== null;",
    )
    .await;
    let listed = page
        .js("return document.querySelectorAll('#options-list [data-option]').length;")
        .await;
    assert_eq!(listed, json!(leiserchess::config::options().count()));
    let set = |name: &str, value: &str| {
        format!(
            "const i = document.querySelector(\"#options-list input[data-option='{name}']\"); i.value = {}; i.dispatchEvent(new Event('change'));",
            json!(value)
        )
    };
    page.js(&set("threads", "99")).await;
    let report = "return document.getElementById('options-report').textContent;";
    page.until(
        "the clamp reported",
        "return document.getElementById('options-report').textContent === 'threads set to 64 (99 is outside 1..64)' && document.querySelector(\"#options-list input[data-option='threads']\").value === '64';",
    )
    .await;
    page.js(&set("draw", "1.5")).await;
    page.until(
        "the refusal shown",
        "return document.getElementById('options-report').classList.contains('error');",
    )
    .await;
    assert_eq!(
        page.js(report).await,
        json!("option 'draw' wants a whole number, got '1.5'")
    );
    page.until(
        "the value as it was",
        "return document.querySelector(\"#options-list input[data-option='draw']\").value === '-7';",
    )
    .await;
    // A choice: the search, set back to PVS for what follows.
    for (choice, said) in [("mcts", "Search set to mcts"), ("pvs", "Search set to pvs")] {
        page.js(&format!(
            "const s = document.querySelector(\"#options-list select[data-option='Search']\"); s.value = '{choice}'; s.dispatchEvent(new Event('change'));"
        ))
        .await;
        page.until(
            &format!("'{said}', beside the analysis too"),
            &format!("return document.getElementById('options-report').textContent === '{said}' && document.querySelector(\"#options-list select[data-option='Search']\").value === '{choice}' && document.getElementById('search').value === '{choice}';"),
        )
        .await;
    }

    // A phone's width: the page fits without sideways scrolling, the
    // analysis's lines included.
    page.c.set_window_size(390, 844).await.unwrap();
    let fits = page
        .js("const w = document.documentElement.clientWidth; return document.documentElement.scrollWidth <= w && document.getElementById('board').getBoundingClientRect().right <= w;")
        .await;
    assert_eq!(fits, true, "the page is wider than a phone");
}

/// The search picked beside the analysis: with mcts the page names the
/// search, counts playouts and shows each line's share of them, as text
/// and as a bar, the shares ordered as the lines; asked again, the
/// analysis shows the playouts kept from the last; back on pvs while it
/// runs, the analysis starts again by PVS, without shares; and by the
/// best-first search when that is picked.
async fn mcts_analysis(page: &Page, dir: &Path) {
    let search = page.c.find(Locator::Css("#search")).await.unwrap();
    search.select_by_value("mcts").await.unwrap();
    page.says("Search set to mcts, for the engine's next search.")
        .await;
    page.click("#analyse").await;
    page.until(
        "three lines with their shares of the playouts",
        "return S.analysing && document.getElementById('info-search').textContent === 'mcts' && document.querySelectorAll('#lines .line .visits').length === 3;",
    )
    .await;
    assert_eq!(page.text("#info-nodes-name").await, "playouts");
    let rows = page
        .js("return [...document.querySelectorAll('#lines .line')].map(r => { const v = r.querySelector('.visits'); return { text: v.querySelector('.share-text').textContent, width: v.querySelector('.share span').style.width, title: v.title }; });")
        .await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    let mut shares = Vec::new();
    for row in rows {
        // "41.2% of 12,345 playouts", the bar as wide.
        let text = row["text"].as_str().unwrap();
        let (pct, rest) = text.split_once("% of ").unwrap_or_else(|| panic!("{row}"));
        let root = rest
            .strip_suffix(" playouts")
            .unwrap_or_else(|| panic!("{row}"));
        assert!(root.replace(',', "").parse::<u64>().unwrap() > 0, "{row}");
        let share: f64 = pct.parse().unwrap();
        assert!((0.0..=100.0).contains(&share), "{row}");
        // The style reads back normalised ("28%" for "28.0%").
        let width = row["width"].as_str().and_then(|w| w.strip_suffix('%'));
        let width: f64 = width.and_then(|w| w.parse().ok()).unwrap_or(-1.0);
        assert_eq!(width, share, "{row}");
        assert!(
            row["title"]
                .as_str()
                .unwrap()
                .contains(&format!(" of the root's {root} playouts")),
            "{row}"
        );
        shares.push(share);
    }
    assert!(shares.iter().sum::<f64>() <= 100.2, "{shares:?}");
    assert!(
        shares[1] >= shares[2],
        "after the best, by visits: {shares:?}"
    );
    let png = page.c.screenshot().await.unwrap();
    std::fs::write(dir.join("gui-mcts.png"), &png).unwrap();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gui-mcts.png");
        std::fs::write(&docs, &png).unwrap();
    }
    // Asked again, the analysis starts from the tree the last one left.
    page.click("#analyse").await;
    page.until(
        "the playouts kept from the last analysis",
        "return S.analysing && /^[0-9,]+ \\(\\+[0-9,]+ kept\\)$/.test(document.getElementById('info-nodes').textContent);",
    )
    .await;
    search.select_by_value("pvs").await.unwrap();
    page.says("Search set to pvs; the analysis starts again with it.")
        .await;
    page.until(
        "the analysis again, by PVS",
        "return S.analysing && document.getElementById('info-search').textContent === 'pvs' && document.querySelectorAll('#lines .line .wdl').length === 3;",
    )
    .await;
    assert_eq!(
        page.js("return document.querySelectorAll('#lines .visits').length;")
            .await,
        json!(0),
        "PVS's lines have no shares"
    );
    assert_eq!(page.text("#info-nodes-name").await, "nodes");
    // Best-first, picked while PVS analyses: the analysis starts again by
    // it, three lines with their chances, nodes counted.
    search.select_by_value("bestfirst").await.unwrap();
    page.says("Search set to bestfirst; the analysis starts again with it.")
        .await;
    page.until(
        "the analysis again, best-first",
        "return S.analysing && document.getElementById('info-search').textContent === 'bestfirst' && document.querySelectorAll('#lines .line .wdl').length === 3;",
    )
    .await;
    assert_eq!(page.text("#info-nodes-name").await, "nodes");
    page.click("#stop-analysis").await;
    page.says("the analysis was stopped").await;
    page.until("the analysis's end", "return !S.search;").await;
    search.select_by_value("pvs").await.unwrap();
    page.says("Search set to pvs, for the engine's next search.")
        .await;
}
