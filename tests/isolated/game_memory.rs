//! A game leaves nothing behind: the UCI engine plays games against itself
//! (from autotest's openings, `go nodes` each move, `ucinewgame` after
//! each), and of the blocks allocated after a few games to warm up, only
//! those of the state a new game makes afresh may still be live at the
//! end, for each search. The soak reads the resident set, which also
//! counts what the allocator keeps of freed blocks and so swings from
//! game to game by a megabyte or more; this counts the engine's own
//! blocks, so a leak of one block a game fails it. A process of its own:
//! it counts every allocation of the process, through this binary's global
//! allocator (in the other cases' processes it only passes them on).

use crate::{case, Case};
use leiserchess::protocol::uci::{Engine, Output};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::time::Duration;

/// The system allocator, noting the live blocks allocated while
/// `COUNTING` is set (address to size).
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: Mutex<Option<HashMap<usize, usize>>> = Mutex::new(None);

thread_local! {
    /// Set while this thread updates `LIVE`, whose map allocates too.
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` on the map of live blocks unless this thread is already in it.
fn with_live(f: impl FnOnce(&mut HashMap<usize, usize>)) {
    INSIDE.with(|inside| {
        if inside.replace(true) {
            return;
        }
        if let Some(map) = LIVE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            f(map);
        }
        inside.set(false);
    });
}

fn born(p: *mut u8, size: usize) {
    if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
        with_live(|m| {
            m.insert(p as usize, size);
        });
    }
}

fn died(p: *mut u8) {
    with_live(|m| {
        m.remove(&(p as usize));
    });
}

// SAFETY: every call goes to the system allocator unchanged; the notes
// beside it do not touch the blocks.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, passed on.
        let p = unsafe { System.alloc(l) };
        born(p, l.size());
        p
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(l) };
        born(p, l.size());
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        died(p);
        // SAFETY: a block this allocator gave, with its layout.
        unsafe { System.dealloc(p, l) }
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        died(p);
        // SAFETY: as `dealloc`, and the new size from the caller.
        let q = unsafe { System.realloc(p, l, size) };
        born(q, size);
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The engine's output, line by line, to the test.
struct Lines(Sender<String>, Vec<u8>);

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(b);
        while let Some(i) = self.1.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.1.drain(..=i).collect();
            let _ = self
                .0
                .send(String::from_utf8_lossy(&line).trim().to_string());
        }
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Player {
    engine: Engine,
    lines: Receiver<String>,
}

impl Player {
    fn new(search: &str) -> Player {
        let (tx, lines) = channel();
        let mut p = Player {
            engine: Engine::new(Output::new(Lines(tx, Vec::new()))),
            lines,
        };
        p.send(&format!("setoption name Search value {search}"));
        p
    }

    /// What `line` answers at once (a book move's `bestmove` comes here).
    fn send(&mut self, line: &str) -> String {
        let mut out = Vec::new();
        self.engine.handle(line, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The engine's move after `moves` from the start.
    fn best(&mut self, moves: &[String], nodes: u32) -> String {
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        let said = self.send(&format!("go nodes {nodes}"));
        let mut lines = said
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
            .into_iter();
        loop {
            let line = lines.next().unwrap_or_else(|| {
                self.lines
                    .recv_timeout(Duration::from_secs(60))
                    .expect("a bestmove within a minute")
            });
            if let Some(rest) = line.strip_prefix("bestmove ") {
                return rest.split_whitespace().next().unwrap_or("0000").to_string();
            }
        }
    }

    /// A game from `opening`, at most 20 plies more, then `ucinewgame`,
    /// with the old table and tree freed.
    fn game(&mut self, opening: &str, nodes: u32) {
        let mut moves: Vec<String> = opening.split_whitespace().map(String::from).collect();
        for _ in 0..20 {
            let m = self.best(&moves, nodes);
            if m == "0000" {
                break;
            }
            moves.push(m);
        }
        self.send("ucinewgame");
        self.engine.finish();
    }
}

/// Blocks allocated over `games` games after 3 to warm up, still live
/// after them: their count and bytes.
fn left_behind(search: &str, nodes: u32, games: usize) -> (usize, usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("autotest/openings.txt");
    let text = std::fs::read_to_string(path).expect("autotest/openings.txt");
    let openings: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let mut p = Player::new(search);
    for opening in &openings[..3] {
        p.game(opening, nodes);
    }
    *LIVE.lock().unwrap() = Some(HashMap::new());
    COUNTING.store(true, Ordering::Relaxed);
    for opening in &openings[3..3 + games] {
        p.game(opening, nodes);
    }
    COUNTING.store(false, Ordering::Relaxed);
    let live = LIVE.lock().unwrap().take().unwrap();
    (live.len(), live.values().sum())
}

pub fn cases() -> Vec<Case> {
    vec![case(
        "game_memory/a_game_leaves_nothing_behind",
        a_game_leaves_nothing_behind,
    )]
}

fn a_game_leaves_nothing_behind() {
    // A new game makes PVS's move-ordering tables afresh (a 128 KiB
    // history and two small blocks, measured); a block a game or a search
    // more would pass 8.
    for (search, nodes) in [("pvs", 400), ("bestfirst", 400), ("mcts", 100)] {
        let (blocks, bytes) = left_behind(search, nodes, 6);
        eprintln!("{search}: {blocks} blocks, {bytes} bytes left from 6 games");
        assert!(
            blocks <= 8 && bytes <= 160 << 10,
            "{search}: {blocks} blocks of {bytes} bytes allocated during 6 games are still live"
        );
    }
}
