//! The nets page's loops (`/nets`): each `autotest loop` of the results
//! database (`db::loops`), oldest first, with its best net now and its
//! generations in order: the net each played with and against, its data
//! and candidate (each linking to its page), its SPRT (the run, W/D/L,
//! Elo, the last LLR, the verdict), whether the candidate was promoted or
//! rejected, and each step's time.

use super::html::{self, escape};
use super::lineage_svg::href;
use crate::db::loops::{GenerationRow, Loop};
use crate::db::text_enums::{ArtifactKind, Decision, TextEnum};
use crate::stats::elo;
use crate::tournament::progress::duration;

/// A net or a dataset by its short hash, linking to its page.
fn link(kind: ArtifactKind, sha256: &str) -> String {
    let short: String = sha256.chars().take(12).collect();
    format!(
        "<a class=\"hash\" href=\"{}\" title=\"{}\">{}</a>",
        escape(&href(kind, sha256)),
        escape(sha256),
        escape(&short)
    )
}

/// A net, or the engine's embedded one for `None`.
fn net(sha256: &Option<String>) -> String {
    sha256
        .as_deref()
        .map_or("the engine's embedded net".to_string(), |s| {
            link(ArtifactKind::Net, s)
        })
}

/// The section: a heading, then a table a loop.
pub fn html(loops: &[Loop]) -> String {
    let mut out = String::from(
        "<h2>Loops</h2>\n<p>Each <code>autotest loop</code> of the results database: its \
         generations in order, each candidate's SPRT against the best net of its time, and \
         whether it was promoted (the best from then on) or rejected.</p>\n",
    );
    if loops.is_empty() {
        return out + "<p>No loop is recorded.</p>\n";
    }
    for l in loops {
        out += &one(l);
    }
    out
}

fn one(l: &Loop) -> String {
    let r = &l.row;
    let promoted = r
        .generations
        .iter()
        .rev()
        .find(|g| g.decision == Some(Decision::Promoted));
    let best = match promoted {
        Some(g) => format!("{} (generation {})", net(&r.best), g.number),
        None => net(&r.best),
    };
    let mut out = format!(
        "<h3>{}</h3>\n<p>Started {} UTC; its best net: {best}.</p>\n\
         <table id=\"loop-{}\" class=\"loop\">\n",
        escape(&r.dir),
        escape(&l.started_utc),
        l.id
    );
    out += &html::head(&[
        "generation",
        "best net",
        "data",
        "candidate",
        "SPRT",
        "W/D/L",
        "Elo",
        "LLR",
        "verdict",
        "decision",
        "steps",
    ]);
    for g in &r.generations {
        out += &row(g);
    }
    if r.generations.is_empty() {
        out += "<tr><td colspan=\"11\">no step done yet</td></tr>\n";
    }
    out + "</table>\n"
}

fn row(g: &GenerationRow) -> String {
    let dash = || "-".to_string();
    let data: Vec<String> = [&g.data, &g.relabelled]
        .into_iter()
        .flatten()
        .map(|s| link(ArtifactKind::Dataset, s))
        .collect();
    let (wdl, elo_text, llr, verdict) = match &g.sprt {
        Some(s) => {
            let [w, d, l] = s.wdl;
            let shown =
                elo::estimate_wdl(w, d, l).map_or(dash(), |e| elo::elo_shown(&e, w + d + l, 1));
            (
                format!("{w}/{d}/{l}"),
                format!("<span class=\"elo\">{}</span>", escape(&shown)),
                format!("{:.2}", s.llr),
                format!("<span class=\"status {0}\">{0}</span>", s.verdict),
            )
        }
        None => (dash(), dash(), dash(), dash()),
    };
    let steps: Vec<String> = g
        .steps
        .iter()
        .map(|s| {
            let ms = (s.seconds.max(0.0) * 1000.0).round() as u64;
            format!("{} {}", s.step.as_str(), duration(ms))
        })
        .collect();
    html::row(&[
        g.number.to_string(),
        net(&g.best),
        if data.is_empty() {
            dash()
        } else {
            data.join(" ")
        },
        g.candidate
            .as_deref()
            .map_or(dash(), |s| link(ArtifactKind::Net, s)),
        g.sprt_run
            .map_or(dash(), |id| format!("<a href=\"/runs/{id}\">run {id}</a>")),
        wdl,
        elo_text,
        llr,
        verdict,
        g.decision.map_or("in progress".to_string(), |d| {
            format!("<span class=\"decision {0}\">{0}</span>", d)
        }),
        escape(&steps.join(", ")),
    ])
}
