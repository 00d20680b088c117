//! `autotest serve`: the results database as web pages, on 127.0.0.1 by
//! default. The pages are made on the server from the database, read
//! anew on every request; a run's page follows the run live.
//!
//! * `args`: the command line (`--db`, `--port`, `--host`);
//! * `routes`: the router and the embedded assets;
//! * `answer`: the answers for bad requests and an unreadable database;
//! * `connection`: a read-only connection per request, off the async
//!   threads, and what the requests share;
//! * `html`: escaping and the frame every page shares;
//! * `list`: the runs, filtered by a query;
//! * `run`: a run's figures from its games; `run_page`: their HTML;
//! * `live`: a run's figures sent again (server-sent events) when its
//!   games change;
//! * `history`: benchmark records by commit and the accepted SPRTs;
//!   `history_page`: their HTML;
//! * `charts`: the SVG charts, drawn with the engine crate's `lab::chart`;
//! * `store_sync`: the lab store indexed anew for the nets and data
//!   pages (`artifacts_page`), with their lineage (`lineage`, drawn by
//!   `lineage_svg`), the runs that name a net (`net_runs`) and the
//!   loops' generations (`loops_page`).

pub mod answer;
pub mod args;
pub mod artifacts_page;
pub mod charts;
pub mod connection;
pub mod history;
pub mod history_page;
pub mod html;
pub mod lineage;
pub mod lineage_svg;
pub mod list;
pub mod live;
pub mod loops_page;
pub mod net_runs;
pub mod routes;
pub mod run;
pub mod run_page;
pub mod store_sync;

use crate::db::{open, path};
use std::net::SocketAddr;
use std::sync::Arc;

/// `autotest serve`: serves until the process ends (Ctrl-C). The first
/// line on standard output is the address served.
pub fn command(opts: &args::ServeArgs) -> Result<(), String> {
    let Some(choice) = path::choose(opts.db.db.as_deref())? else {
        return Err("serve: --db none: there is no database to read".to_string());
    };
    if !choice.path.is_file() {
        return Err(format!("serve: {}", path::missing(&choice)));
    }
    let file = choice.path;
    // Once read-write: WAL mode and the schema brought up to date, so that
    // the requests' read-only connections find the tables they read.
    open::open(&file).map_err(|e| format!("serve: results database {}: {e}", file.display()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("serve: cannot start the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let at = SocketAddr::new(opts.host, opts.port);
        let listener = tokio::net::TcpListener::bind(at)
            .await
            .map_err(|e| format!("serve: cannot listen on {at}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("serve: the address listened on: {e}"))?;
        println!("serving {} on http://{bound}/", file.display());
        let db = Arc::new(connection::Database {
            path: file,
            store: opts.store.clone(),
        });
        axum::serve(listener, routes::router_over(db))
            .await
            .map_err(|e| format!("serve: {e}"))
    })
}
