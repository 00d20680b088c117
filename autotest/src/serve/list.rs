//! The runs list: every recorded run, newest first, as `autotest runs`
//! lists them (`db::read::runs`, from the counts the schema keeps),
//! filtered by kind, status,
//! engine name and time control (the query string
//! `kind=&status=&engine=&tc=`; empty is any), the kinds and statuses
//! offered being the enums' (`db::text_enums`).

use super::answer::Answer;
use super::connection;
use super::connection::Db;
use super::html::{self, escape};
use crate::db::read::{self, RunLine, RUN_COLUMNS};
use crate::db::text_enums::{RunKind, Status, TextEnum};
use axum::response::Html;

/// Which runs to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// A kind, or any.
    pub kind: Option<RunKind>,
    /// A status, or any.
    pub status: Option<Status>,
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
            match key.as_str() {
                "kind" => f.kind = one_of(&value)?,
                "status" => f.status = one_of(&value)?,
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
        self.kind.is_none_or(|k| k == r.kind)
            && self.status.is_none_or(|s| s == r.status)
            && (engine.is_empty() || r.engines.iter().any(|e| e.to_lowercase().contains(&engine)))
            && r.time_control.contains(&self.tc)
    }
}

/// A filter's value: empty for any, else one of `T`'s words.
fn one_of<T: TextEnum>(value: &str) -> Result<Option<T>, Answer> {
    if value.is_empty() {
        return Ok(None);
    }
    T::parse(value).map(Some).map_err(|e| {
        Answer::bad_request(format!(
            "{} is one of {}, not '{}'",
            e.what,
            e.allowed.join(", "),
            html::printable(&e.value)
        ))
    })
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
    connection::read(db, move |conn| {
        let all = read::runs(conn).map_err(|e| Answer::database(&e.to_string()))?;
        Ok(all.into_iter().filter(|r| filter.keeps(r)).collect())
    })
    .await
}

pub async fn page(db: Db, filter: Filter) -> Result<Html<String>, Answer> {
    let lines = lines(db, filter.clone()).await?;
    Ok(Html(html::page("Runs", &body(&filter, &lines), false)))
}

/// A `<select>` of `T`'s words, `chosen` selected.
fn select<T: TextEnum>(chosen: Option<T>) -> String {
    let mut out = format!(
        "<select name=\"{}\"><option value=\"\">any</option>",
        T::WHAT
    );
    for &o in T::ALL {
        let mark = if chosen == Some(o) { " selected" } else { "" };
        out += &format!("<option{mark}>{}</option>", o.as_str());
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
        select(f.kind),
        select(f.status),
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
            r.kind.to_string(),
            format!("<span class=\"status {0}\">{0}</span>", r.status),
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
        assert_eq!(f.kind, Some(RunKind::Sprt));
        assert_eq!(f.engine, "new one!");
        let e = Filter::parse(Some("kind=match")).unwrap_err();
        assert_eq!(
            e.message,
            "kind is one of tournament, sprt, gauntlet, tune, datagen, bench, not 'match'"
        );
        assert!(Filter::parse(Some("colour=red")).is_err());
        assert!(Filter::parse(Some("engine=%zz")).is_err());
        assert!(Filter::parse(Some("engine=%ff")).is_err());
    }

    /// The form offers every kind and status, the chosen ones selected.
    #[test]
    fn the_form_offers_every_kind_and_status() {
        let f = Filter::parse(Some("kind=gauntlet&status=H0")).unwrap();
        let page = body(&f, &[]);
        for kind in RunKind::ALL {
            assert!(page.contains(&format!(">{kind}</option>")), "{page}");
        }
        for status in Status::ALL {
            assert!(page.contains(&format!(">{status}</option>")), "{page}");
        }
        assert!(
            page.contains("<option selected>gauntlet</option>"),
            "{page}"
        );
        assert!(page.contains("<option selected>H0</option>"), "{page}");
        assert!(page.contains("<select name=\"status\">"), "{page}");
    }
}
