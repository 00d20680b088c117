//! The command line of `autotest serve`: `--db PATH`, `--port N`,
//! `--host ADDR`, `--store DIR`.

use crate::db::path::DbFlag;
use std::net::IpAddr;
use std::path::PathBuf;

/// The port served when `--port` is not given.
pub const DEFAULT_PORT: u16 = 8090;

/// What the command line asks for.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DbFlag,
    /// The port to listen on (0: any free port)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on (0.0.0.0: every interface)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The lab store the nets and data pages show [$LEISERCHESS_STORE,
    /// else $XDG_DATA_HOME/leiserchess/store]
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
}
