//! The browser GUI: `leiserchess gui` serves one page on 127.0.0.1 that
//! plays and watches games with this engine, in the same process. Every
//! rule decision (legal moves, Ko, the beam, the result) is the rules
//! code's: the page asks for them and holds no copy.
//!
//! The files, each importing only the ones listed after it (no circle;
//! tests/library/layers.rs checks):
//!
//! - `server`: the HTTP server (axum on a one-thread tokio runtime), its
//!   routes, and the page's assets, embedded in the binary.
//! - `options`: the engine's options as the page reads and sets them.
//! - `api`: the JSON requests and answers, and the errors (a 4xx with a
//!   JSON body naming what was wrong); it starts searches, and plays their
//!   moves when they end.
//! - `view`: a game as the page sees it: board, legal moves, beam, result.
//! - `state`: what every request shares: the games, the limits
//!   (`Config`), the count of running searches.
//! - `store`: the games kept in memory, at most `Config::max_games` (the
//!   oldest evicted), each a rules `Game` with its PGN record and what its
//!   searches keep (the last `Config::remembered_games` searched only).
//! - `think`: one engine search on a thread of its own, for a move or an
//!   analysis (MultiPV lines until stopped, MCTS's with their shares of
//!   the playouts), streamed as server-sent events, stopped when the
//!   stream is dropped, starting from what the game's last search left,
//!   and handing its move to a completion callback.
//! - `page/`: the page (`index.html`, `style.css`, `app.js`).

mod api;
mod options;
mod server;
mod state;
mod store;
mod think;
mod view;

use crate::config::{flag_value, EngineConfig};
use std::net::IpAddr;

pub use server::{router, serve};
pub use state::Config;

/// Serve the browser GUI until Ctrl-C.
///
/// On http://127.0.0.1:8000/ by default; the page plays and watches games
/// with this engine, in this process.
#[derive(clap::Parser, Debug)]
#[command(name = "gui")]
pub struct Args {
    /// The port to listen on (0: any free one).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 8000,
        allow_negative_numbers = true
    )]
    pub port: u16,
    /// Threads of each engine search: the engine's `threads` option (1..64,
    /// default 1; clamped as `setoption` clamps).
    #[arg(
        long,
        value_name = "N",
        value_parser = flag_value("threads"),
        allow_negative_numbers = true,
    )]
    pub engine_threads: Option<String>,
    /// The address to listen on (the page has no login).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: IpAddr,
}

/// `leiserchess gui …`: serves until killed.
pub fn command(args: &Args) -> Result<(), String> {
    let engine = EngineConfig::from_flags(&[("threads", args.engine_threads.as_deref())], |r| {
        eprintln!("{r}")
    })
    .map_err(|e| e.to_string())?;
    let config = Config {
        engine,
        ..Config::default()
    };
    let (host, port) = (args.host, args.port);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        println!("leiserchess gui: open http://{addr}/ in a browser (Ctrl-C stops)");
        if !host.is_loopback() {
            println!("leiserchess gui: listening beyond this machine: anyone who reaches {addr} can play");
        }
        serve(listener, router(config))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<Args, String> {
        Args::try_parse_from(std::iter::once("gui").chain(args.iter().copied()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn bad_flags_are_named_before_anything_listens() {
        for (args, named) in [
            (&["--port", "70000"][..], "'70000' for '--port <N>'"),
            (&["--engine-threads", "x"], "'x' for '--engine-threads <N>'"),
            (&["--host", "localhost"], "'localhost' for '--host <ADDR>'"),
            (&["--port"], "'--port <N>'"),
            (&["--fast"], "'--fast'"),
        ] {
            let e = parse(args).unwrap_err();
            assert!(e.contains(named), "{args:?}: {e}");
        }
        let a = parse(&["--engine-threads", "0", "--port", "0"]).unwrap();
        assert_eq!((a.port, a.engine_threads.as_deref()), (0, Some("0")));
    }
}
