//! A run's page: its row, then the part that follows the run live (the
//! standings with Elo and its 95% interval, the pentanomial counts, the
//! SPRT and its LLR chart, W/D/L per opening, the faults), which
//! `live` sends again as the run's games come in; and its PGN file.

use super::answer::{self, Answer};
use super::connection::Db;
use super::html::{self, escape};
use super::run::{self, RunView};
use super::{charts, connection};
use crate::stats::elo;
use crate::stats::sprt::sprt_bounds;
use axum::extract::{Path as UrlPath, State};
use axum::http::header;
use axum::response::{Html, IntoResponse};

/// Run `id`'s figures, 404 if there is none.
pub fn view(conn: &rusqlite::Connection, id: i64) -> Result<RunView, Answer> {
    run::load(conn, id)
        .map_err(|e| Answer::database(&e))?
        .ok_or_else(|| Answer::not_found(format!("no run {id} in the database")))
}

pub async fn page(State(db): State<Db>, id: UrlPath<String>) -> Result<Html<String>, Answer> {
    let id = answer::run_id(id)?;
    let v = connection::read(db, move |conn| view(conn, id)).await?;
    let h = &v.head;
    let mut body = format!(
        "<p class=\"meta\">{} · {} · started {} UTC{} · time control {}{}</p>\n\
         <p><a href=\"/runs/{id}/games.pgn\" download>Download the PGN of its games</a></p>\n\
         <p id=\"problem\" class=\"problem\"></p>\n",
        h.kind,
        escape(&h.title),
        escape(&h.started),
        h.ended
            .as_ref()
            .map_or(String::new(), |e| format!(", ended {} UTC", escape(e))),
        escape(&h.time_control),
        h.cpu
            .as_ref()
            .map_or(String::new(), |c| format!(" · {}", escape(c))),
    );
    body += &format!(
        "<div id=\"live\" data-run=\"{id}\">\n{}</div>\n",
        live_html(&v)
    );
    Ok(Html(html::page(&format!("Run {id}"), &body, true)))
}

/// The part of the page that follows the run.
pub fn live_html(v: &RunView) -> String {
    let mut out = format!(
        "<p>Status <span id=\"status\" class=\"status {0}\">{0}</span> · \
         <span id=\"games\">{1}</span> games</p>\n",
        v.head.status, v.games
    );
    out += "<h2>Standings</h2>\n<table id=\"standings\">\n";
    out += &html::head(&[
        "engine",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "Elo ±95%",
        "LOS",
        "pairs 0–½–1–1½–2",
        "faults",
    ]);
    for (e, st) in v.spec.engines.iter().zip(&v.summary.standings) {
        let games = st.games();
        let score = (st.wins as f64 + st.draws as f64 / 2.0) / games.max(1) as f64;
        let est = crate::tournament::table::estimate(st);
        let faults: Vec<String> = st.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        out += &html::row(&[
            escape(&e.name),
            games.to_string(),
            st.wins.to_string(),
            st.draws.to_string(),
            st.losses.to_string(),
            format!("{:.1}%", score * 100.0),
            format!(
                "<span class=\"elo\">{}</span>",
                escape(&est.map_or("-".to_string(), |est| elo::elo_shown(&est, games, 1)))
            ),
            est.map_or("-".to_string(), |est| format!("{:.1}%", est.los * 100.0)),
            format!(
                "<span class=\"penta\">{}</span>",
                st.pairs.map(|p| p.to_string()).join(" ")
            ),
            if faults.is_empty() {
                "none".to_string()
            } else {
                escape(&faults.join(", "))
            },
        ]);
    }
    out += "</table>\n";
    out += &sprt_html(v);
    out += &openings_html(v);
    out += &faults_html(v);
    out
}

fn sprt_html(v: &RunView) -> String {
    let Some(t) = v.spec.sprt else {
        return String::new();
    };
    let bounds = sprt_bounds(t.alpha, t.beta);
    let line = match v.summary.sprt {
        Some((llr, d)) => format!(
            "SPRT elo0 {} elo1 {}: LLR <span id=\"llr\">{llr:.2}</span> [{:.2}, {:.2}] {d:?}",
            t.elo0, t.elo1, bounds.0, bounds.1
        ),
        None => format!("SPRT elo0 {} elo1 {}: no games yet", t.elo0, t.elo1),
    };
    let chart = charts::llr(&v.llr, bounds).unwrap_or_else(|e| format!("<p>{}</p>", escape(&e)));
    format!("<h2>SPRT</h2>\n<p class=\"sprt\">{line}</p>\n<div class=\"chart\">{chart}</div>\n")
}

fn openings_html(v: &RunView) -> String {
    let first = v.spec.engines.first().map_or("", |e| e.name.as_str());
    let mut out = format!(
        "<h2>Openings</h2>\n<p>{}'s wins, draws and losses by opening (its number in the book).</p>\n<table id=\"openings\">\n",
        escape(first)
    );
    out += &html::head(&["opening", "W", "D", "L"]);
    for (o, [w, d, l]) in &v.openings {
        out += &html::row(&[o.to_string(), w.to_string(), d.to_string(), l.to_string()]);
    }
    out + "</table>\n"
}

fn faults_html(v: &RunView) -> String {
    let mut out = format!(
        "<h2>Faults</h2>\n<p>{} games ended in a fault.</p>\n",
        v.faults.len()
    );
    if v.faults.is_empty() {
        return out;
    }
    out += "<table id=\"faults\">\n";
    out += &html::head(&[
        "schedule index",
        "white",
        "black",
        "at fault",
        "fault",
        "reason",
    ]);
    for f in &v.faults {
        out += &html::row(&[
            f.schedule_index.to_string(),
            escape(&f.white),
            escape(&f.black),
            escape(&f.engine),
            escape(&f.kind),
            format!("<pre class=\"reason\">{}</pre>", escape(&f.reason)),
        ]);
    }
    out + "</table>\n"
}

/// `/runs/{id}/games.pgn`: the run's games, as one PGN file to save.
pub async fn pgn(State(db): State<Db>, id: UrlPath<String>) -> Result<impl IntoResponse, Answer> {
    let id = answer::run_id(id)?;
    let text = connection::read(db, move |conn| {
        run::pgn(conn, id)
            .map_err(|e| Answer::database(&e.to_string()))?
            .ok_or_else(|| Answer::not_found(format!("no run {id} in the database")))
    })
    .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"run-{id}.pgn\""),
            ),
        ],
        text,
    ))
}
