//! The browser GUI: `leiserchess gui` serves one page on 127.0.0.1 that
//! plays and watches games with this engine, in the same process. Every
//! rule decision (legal moves, Ko, the beam, the result) is the rules
//! code's: the page asks for them and holds no copy.
//!
//! - `server`: the HTTP server (axum on a one-thread tokio runtime), its
//!   routes and limits, and the page's assets, embedded in the binary.
//! - `api`: the JSON requests and answers, and the errors (a 4xx with a
//!   JSON body naming what was wrong).
//! - `store`: the games kept in memory, at most `Config::max_games` (the
//!   oldest evicted), each a rules `Game` with its PGN record.
//! - `view`: a game as the page sees it: board, legal moves, beam, result.
//! - `think`: one engine search on a thread of its own, for a move or an
//!   analysis (MultiPV lines until stopped), streamed as server-sent
//!   events and stopped when the stream is dropped.
//! - `page/`: the page (`index.html`, `style.css`, `app.js`).

mod api;
pub mod server;
mod store;
mod think;
mod view;

use crate::user_text::quote;
use std::net::IpAddr;

pub use server::{router, serve, Config};

pub const USAGE: &str = "  leiserchess gui [--port N] [--engine-threads N] [--host ADDR]
                              serve the browser GUI on http://127.0.0.1:8000/ (port 0:
                              any free one) until Ctrl-C; --engine-threads: threads per
                              engine search (default 1); --host: the address to listen
                              on (default 127.0.0.1; the page has no login)";

/// `leiserchess gui …`: parses the flags, then serves until killed.
pub fn command(args: &[String]) -> Result<(), String> {
    let mut port = 8000u16;
    let mut host: IpAddr = [127, 0, 0, 1].into();
    let mut config = Config::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--port" => {
                let v = value("--port")?;
                port = v
                    .parse()
                    .map_err(|_| format!("--port wants a number 0..65535, got '{}'", quote(v)))?;
            }
            "--engine-threads" => {
                let v = value("--engine-threads")?;
                config.engine_threads =
                    v.parse()
                        .ok()
                        .filter(|n| (1..=64).contains(n))
                        .ok_or(format!(
                            "--engine-threads wants a number 1..64, got '{}'",
                            quote(v)
                        ))?;
            }
            "--host" => {
                let v = value("--host")?;
                host = v
                    .parse()
                    .map_err(|_| format!("--host wants an IP address, got '{}'", quote(v)))?;
            }
            other => return Err(format!("unexpected argument '{}'", quote(other))),
        }
    }
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

    fn run(args: &[&str]) -> Result<(), String> {
        command(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn bad_flags_are_named_before_anything_listens() {
        assert_eq!(
            run(&["--port", "70000"]),
            Err("--port wants a number 0..65535, got '70000'".into())
        );
        assert_eq!(
            run(&["--engine-threads", "0"]),
            Err("--engine-threads wants a number 1..64, got '0'".into())
        );
        assert_eq!(
            run(&["--host", "localhost"]),
            Err("--host wants an IP address, got 'localhost'".into())
        );
        assert_eq!(run(&["--port"]), Err("--port needs a value".into()));
        assert_eq!(run(&["--fast"]), Err("unexpected argument '--fast'".into()));
    }
}
