//! The runs list: every recorded run, newest first, as `autotest runs`
//! lists them (counted as `results` says), filtered by kind, status, engine name and time control
//! (the query string `kind=&status=&engine=&tc=`; empty is any).

use super::answer::Answer;
use super::html::{self, escape};
use super::results;
use super::store;
use super::store::Db;
use crate::db::read::{RunLine, RUN_COLUMNS};
use axum::response::Html;

/// The kinds and statuses the schema allows.
pub const KINDS: &[&str] = &["tournament", "sprt", "gauntlet", "tune", "datagen", "bench"];
pub const STATUSES: &[&str] = &[
    "running",
    "finished",
    "H0",
    "H1",
    "stopped",
    "cancelled",
    "failed",
];

/// Which runs to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// One of [`KINDS`], or any.
    pub kind: Option<String>,
    /// One of [`STATUSES`], or any.
    pub status: Option<String>,
    /// A part of an engine's name (any case); empty: any.
    pub engine: String,
    /// A part of the time control; empty: any.
    pub tc: String,
}

impl Filter {
    /// The filter a query string asks for; a key or value it does not
    /// know is an error that names it.
    pub fn parse(query: Option<&str>) -> Result<Filter, Answer> {
        let mut f = Filter::default();
        for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = decode(key)?;
            let value = decode(value)?;
            let one_of = |allowed: &[&str]| -> Result<Option<String>, Answer> {
                if value.is_empty() {
                    Ok(None)
                } else if allowed.contains(&value.as_str()) {
                    Ok(Some(value.clone()))
                } else {
                    Err(Answer::bad_request(format!(
                        "{key} is one of {}, not '{}'",
                        allowed.join(", "),
                        html::printable(&value)
                    )))
                }
            };
            match key.as_str() {
                "kind" => f.kind = one_of(KINDS)?,
                "status" => f.status = one_of(STATUSES)?,
                "engine" => f.engine = value,
                "tc" => f.tc = value,
                _ => {
                    return Err(Answer::bad_request(format!(
                        "unknown query parameter '{}' (kind, status, engine, tc)",
                        html::printable(&key)
                    )))
                }
            }
        }
        Ok(f)
    }

    pub fn keeps(&self, r: &RunLine) -> bool {
        let engine = self.engine.to_lowercase();
        self.kind.as_ref().is_none_or(|k| *k == r.kind)
            && self.status.as_ref().is_none_or(|s| *s == r.status)
            && (engine.is_empty() || r.engines.iter().any(|e| e.to_lowercase().contains(&engine)))
            && r.time_control.contains(&self.tc)
    }
}

/// `text` of a query string decoded: `+` is a space, `%XX` a byte; the
/// bytes must be UTF-8.
pub fn decode(text: &str) -> Result<String, Answer> {
    let bad = || {
        Answer::bad_request(format!(
            "the query string is not well encoded near '{}'",
            html::printable(text)
        ))
    };
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b.get(i + 1..i + 3).ok_or_else(bad)?;
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// The runs `filter` keeps, newest first.
pub async fn lines(db: Db, filter: Filter) -> Result<Vec<RunLine>, Answer> {
    let shared = db.clone();
    store::read(db, move |conn| {
        let all =
            results::runs(conn, &shared.results).map_err(|e| Answer::database(&e.to_string()))?;
        Ok(all.into_iter().filter(|r| filter.keeps(r)).collect())
    })
    .await
}

pub async fn page(db: Db, filter: Filter) -> Result<Html<String>, Answer> {
    let lines = lines(db, filter.clone()).await?;
    Ok(Html(html::page("Runs", &body(&filter, &lines), false)))
}

fn select(name: &str, options: &[&str], chosen: Option<&str>) -> String {
    let mut out = format!("<select name=\"{name}\"><option value=\"\">any</option>");
    for o in options {
        let mark = if chosen == Some(*o) { " selected" } else { "" };
        out += &format!("<option{mark}>{o}</option>");
    }
    out + "</select>"
}

fn body(f: &Filter, lines: &[RunLine]) -> String {
    let mut out = format!(
        "<form method=\"get\" action=\"/runs\" class=\"filter\">\
         <label>kind {}</label> <label>status {}</label> \
         <label>engine <input name=\"engine\" value=\"{}\"></label> \
         <label>time control <input name=\"tc\" value=\"{}\"></label> \
         <button>Filter</button></form>\n",
        select("kind", KINDS, f.kind.as_deref()),
        select("status", STATUSES, f.status.as_deref()),
        escape(&f.engine),
        escape(&f.tc)
    );
    out += &format!(
        "<p class=\"count\">{} runs</p>\n<table id=\"runs\">\n",
        lines.len()
    );
    out += &html::head(&RUN_COLUMNS);
    for r in lines {
        let [w, d, l] = r.wdl;
        out += &html::row(&[
            format!("<a href=\"/runs/{0}\">{0}</a>", r.id),
            escape(&r.kind),
            format!("<span class=\"status {0}\">{0}</span>", escape(&r.status)),
            escape(&r.engines.join(" vs ")),
            escape(&r.time_control),
            r.games.to_string(),
            format!("{w}/{d}/{l}"),
            escape(&r.started),
        ]);
    }
    out + "</table>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_decode_and_bad_ones_are_refused() {
        let f = Filter::parse(Some("kind=sprt&engine=new+one%21&tc=")).unwrap();
        assert_eq!(f.kind.as_deref(), Some("sprt"));
        assert_eq!(f.engine, "new one!");
        assert!(Filter::parse(Some("kind=match")).is_err());
        assert!(Filter::parse(Some("colour=red")).is_err());
        assert!(Filter::parse(Some("engine=%zz")).is_err());
        assert!(Filter::parse(Some("engine=%ff")).is_err());
    }
}
