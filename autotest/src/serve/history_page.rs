//! The history page: bench nps (bench-pvs, bench-mcts) and perft's time
//! by commit, each record with its rounds' spread, signature changes and
//! nps drops marked; the cumulative Elo of the accepted SPRTs.

use super::answer::Answer;
use super::connection::Db;
use super::history::{self, Accepted, Record, DROP, WINDOW};
use super::html::{self, escape};
use super::{charts, connection};
use crate::db::text_enums::Measure;
use axum::extract::State;
use axum::response::Html;

/// The measures charted, with their axis.
const CHARTED: &[(Measure, &str)] = &[
    (Measure::BenchPvs, "nodes per second"),
    (Measure::BenchMcts, "nodes per second"),
    (Measure::Perft, "seconds"),
];

pub async fn page(State(db): State<Db>) -> Result<Html<String>, Answer> {
    let (measures, accepted) = connection::read(db, |conn| {
        let db_error = |e: String| Answer::database(&e);
        let mut measures = Vec::new();
        for (m, unit) in CHARTED {
            let r = history::records(conn, *m).map_err(|e| db_error(e.to_string()))?;
            measures.push((*m, *unit, r));
        }
        Ok((measures, history::accepted(conn).map_err(db_error)?))
    })
    .await?;
    let mut body = format!(
        "<p>Each record is one bench run; its dots are its rounds (the run-to-run spread). \
         A grey line marks a signature change; a red ring and <span class=\"drop\">▼</span> a record \
         whose nps is more than {:.0}% below the median of the previous {WINDOW}.</p>\n",
        DROP * 100.0
    );
    for (m, unit, records) in &measures {
        body += &measure_html(*m, unit, records);
    }
    body += &accepted_html(&accepted);
    Ok(Html(html::page("History", &body, false)))
}

fn short(r: &Record) -> String {
    // A commit's first ten characters (a detail written by hand may hold
    // anything: characters, not bytes).
    let c: String = r
        .commit
        .as_deref()
        .unwrap_or("unknown")
        .chars()
        .take(10)
        .collect();
    format!("{c}{}", if r.dirty { "+" } else { "" })
}

fn figure(v: f64, unit: &str) -> String {
    if unit == "seconds" {
        format!("{v:.3}")
    } else {
        format!("{v:.0}")
    }
}

fn measure_html(measure: Measure, unit: &str, records: &[Record]) -> String {
    let mut out = format!("<h2>{measure}</h2>\n");
    if records.is_empty() {
        return out + "<p>No records.</p>\n";
    }
    let points: Vec<charts::Point> = records
        .iter()
        .map(|r| charts::Point {
            label: short(r).chars().take(7).collect(),
            rounds: r.rounds.clone(),
            median: r.median(),
            signature_changed: r.signature_changed,
            flagged: r.drop_from.is_some(),
        })
        .collect();
    let chart = charts::records(&points, unit).unwrap_or_else(|e| format!("<p>{}</p>", escape(&e)));
    out += &format!(
        "<div class=\"chart\">{chart}</div>\n<table class=\"records\" id=\"{measure}\">\n"
    );
    out += &html::head(&[
        "run",
        "started (UTC)",
        "commit",
        "rounds",
        "median",
        "min–max",
        "signature",
        "marks",
    ]);
    for r in records {
        let lo = r.rounds.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = r.rounds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut marks = Vec::new();
        if r.signature_changed {
            marks.push("<span class=\"signature\">signature changed</span>".to_string());
        }
        if let Some(reference) = r.drop_from {
            marks.push(format!(
                "<span class=\"drop\">▼ {:.1}% below the median of the previous {WINDOW} ({})</span>",
                (1.0 - r.median() / reference) * 100.0,
                figure(reference, unit)
            ));
        }
        out += &html::row(&[
            format!("<a href=\"/runs/{0}\">{0}</a>", r.run),
            escape(&r.started),
            escape(&short(r)),
            r.rounds.len().to_string(),
            figure(r.median(), unit),
            format!("{}–{}", figure(lo, unit), figure(hi, unit)),
            r.signature.map_or("-".to_string(), |s| s.to_string()),
            marks.join(" "),
        ]);
    }
    out + "</table>\n"
}

fn accepted_html(accepted: &[Accepted]) -> String {
    let mut out = String::from("<h2>Accepted SPRTs</h2>\n<p>The first engine's Elo of each SPRT that ended H1, summed in the order they ended.</p>\n");
    if accepted.is_empty() {
        return out + "<p>None yet.</p>\n";
    }
    let mut total = 0.0;
    let mut points = Vec::new();
    let mut rows = String::new();
    for a in accepted {
        total += a.elo;
        points.push((a.run.to_string(), total));
        rows += &html::row(&[
            format!("<a href=\"/runs/{0}\">{0}</a>", a.run),
            escape(&a.engines),
            escape(&a.ended),
            format!("{:+.1}", a.elo),
            format!("{total:+.1}"),
        ]);
    }
    let chart = charts::cumulative(&points).unwrap_or_else(|e| format!("<p>{}</p>", escape(&e)));
    out += &format!("<div class=\"chart\">{chart}</div>\n<table id=\"accepted\">\n");
    out += &html::head(&["run", "engines", "ended (UTC)", "Elo", "sum"]);
    out + &rows + "</table>\n"
}
