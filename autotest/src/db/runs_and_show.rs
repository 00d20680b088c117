//! `autotest runs` (the recorded runs, newest first) and `autotest show
//! RUN` (a run's final table, as the run printed it), each with `--db
//! PATH`; and opening the database a reading subcommand names.

use crate::db::path::DbFlag;
use crate::db::read::{self, RunLine};
use crate::db::text_enums::TextEnum;
use crate::db::{open, path};
use crate::tournament::table::table;
use rusqlite::Connection;

/// `autotest runs`' command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct RunsArgs {
    #[command(flatten)]
    pub db: DbFlag,
}

/// `autotest show`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ShowArgs {
    /// The run's id, as autotest runs lists it
    pub run: i64,
    #[command(flatten)]
    pub db: DbFlag,
}

/// The database `db` names (else the environment's or the default),
/// opened for `command`; it must be there.
pub fn database(command: &str, db: &DbFlag) -> Result<Connection, String> {
    let Some(choice) = path::choose(db.db.as_deref())? else {
        return Err(format!(
            "{command}: --db none: there is no database to read"
        ));
    };
    let file = choice.path.display();
    if !choice.path.is_file() {
        return Err(format!("{command}: {}", path::missing(&choice)));
    }
    open::open(&choice.path).map_err(|e| format!("results database {file}: {e}"))
}

/// `autotest runs`: the output.
pub fn runs(args: &RunsArgs) -> Result<String, String> {
    let conn = database("runs", &args.db)?;
    let lines = read::runs(&conn).map_err(|e| format!("runs: {e}"))?;
    Ok(runs_table(&lines))
}

fn runs_table(lines: &[RunLine]) -> String {
    let row = |cells: [&str; 8]| {
        format!(
            "{:>4}  {:<10} {:<9} {:<28} {:<18} {:>6} {:>14}  {}\n",
            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7]
        )
    };
    let mut out = row(read::RUN_COLUMNS);
    for r in lines {
        let [w, d, l] = r.wdl;
        out += &row([
            &r.id.to_string(),
            r.kind.as_str(),
            r.status.as_str(),
            &r.engines.join(" vs "),
            &r.time_control,
            &r.games.to_string(),
            &format!("{w}/{d}/{l}"),
            &r.started,
        ]);
    }
    out
}

/// `autotest show`: the output.
pub fn show(args: &ShowArgs) -> Result<String, String> {
    let conn = database("show", &args.db)?;
    let id = args.run;
    let Some((spec, summary)) = read::standings(&conn, id).map_err(|e| format!("show: {e}"))?
    else {
        return Err(format!("show: no run {id} in the database"));
    };
    Ok(format!("{}\n{}", spec.title, table(&spec, &summary)))
}
