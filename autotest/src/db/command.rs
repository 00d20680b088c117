//! `autotest runs` (the recorded runs, newest first) and `autotest show
//! RUN` (a run's final table, as the run printed it), each with `-db
//! PATH`.

use crate::db::read::{self, RunLine};
use crate::db::text_enums::TextEnum;
use crate::db::{open, path};
use crate::tournament::table::table;
use rusqlite::Connection;

/// The database `args` name with `-db PATH` (else the environment's or
/// the default), opened; and the other arguments.
pub fn database(command: &str, args: &[String]) -> Result<(Connection, Vec<String>), String> {
    let mut flag = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "-db" {
            let v = args
                .get(i + 1)
                .ok_or(format!("{command}: -db needs a PATH"))?;
            flag = Some(v.as_str());
            i += 2;
        } else {
            rest.push(args[i].clone());
            i += 1;
        }
    }
    let Some(choice) = path::choose(flag, None)? else {
        return Err(format!("{command}: -db none: there is no database to read"));
    };
    let file = choice.path.display();
    if !choice.path.is_file() {
        return Err(format!("{command}: no results database at {file}"));
    }
    let conn = open::open(&choice.path).map_err(|e| format!("results database {file}: {e}"))?;
    Ok((conn, rest))
}

/// `autotest runs [-db PATH]`: the output.
pub fn runs(args: &[String]) -> Result<String, String> {
    let (conn, rest) = database("runs", args)?;
    if let Some(extra) = rest.first() {
        return Err(format!(
            "runs: unexpected argument '{extra}' (only -db PATH)"
        ));
    }
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

/// `autotest show RUN [-db PATH]`: the output.
pub fn show(args: &[String]) -> Result<String, String> {
    let (conn, rest) = database("show", args)?;
    let [run] = rest.as_slice() else {
        return Err("show: give one RUN (an id from autotest runs)".to_string());
    };
    let id: i64 = run
        .parse()
        .map_err(|_| format!("show: RUN is a run's id (a whole number), not '{run}'"))?;
    let Some((spec, summary)) = read::standings(&conn, id).map_err(|e| format!("show: {e}"))?
    else {
        return Err(format!("show: no run {id} in the database"));
    };
    Ok(format!("{}\n{}", spec.title, table(&spec, &summary)))
}
