//! The nets page and the data page (`/nets`, `/data`): every artifact of
//! the kind with its record and its parents and children, the whole
//! lineage as a graph, and on the nets page which net was the embedded
//! default since which commit and each `autotest loop`'s generations
//! (`loops_page`); an artifact's page (`/nets/HASH`,
//! `/data/HASH`): its record, its lineage, and for a net the runs that
//! name it with their W/D/L and Elo. Each request indexes the store
//! first (`store_sync`).

use super::answer::Answer;
use super::connection::Db;
use super::html::{self, escape};
use super::lineage::{self, Lineage};
use super::lineage_svg::{self, href};
use super::loops_page;
use super::net_runs::{self, NamingRun};
use super::store_sync;
use crate::db::artifacts::{self, Artifact, HAND_WRITTEN};
use crate::db::loops::{self, Loop};
use crate::db::text_enums::{ArtifactKind, TextEnum};
use crate::stats::elo;
use axum::extract::{Path as UrlPath, State};
use axum::response::Html;

/// What the list pages show.
struct Listing {
    rows: Vec<Artifact>,
    lineage: Lineage,
    embedded: Vec<Artifact>,
    loops: Vec<Loop>,
}

pub async fn nets(State(db): State<Db>) -> Result<Html<String>, Answer> {
    list(db, ArtifactKind::Net).await
}

pub async fn datasets(State(db): State<Db>) -> Result<Html<String>, Answer> {
    list(db, ArtifactKind::Dataset).await
}

pub async fn net(State(db): State<Db>, hash: UrlPath<String>) -> Result<Html<String>, Answer> {
    one(db, ArtifactKind::Net, hash.0).await
}

pub async fn dataset(State(db): State<Db>, hash: UrlPath<String>) -> Result<Html<String>, Answer> {
    one(db, ArtifactKind::Dataset, hash.0).await
}

fn db_error(e: String) -> Answer {
    Answer::database(&e)
}

fn title(kind: ArtifactKind) -> &'static str {
    match kind {
        ArtifactKind::Net => "Nets",
        ArtifactKind::Dataset => "Data",
    }
}

async fn list(db: Db, kind: ArtifactKind) -> Result<Html<String>, Answer> {
    let listing = store_sync::synced(db, move |conn| {
        Ok(Listing {
            rows: artifacts::list(conn, kind).map_err(db_error)?,
            lineage: lineage::whole(conn).map_err(db_error)?,
            embedded: artifacts::embedded(conn).map_err(db_error)?,
            loops: match kind {
                ArtifactKind::Net => loops::all(conn).map_err(db_error)?,
                ArtifactKind::Dataset => Vec::new(),
            },
        })
    })
    .await?;
    let mut body = String::new();
    if kind == ArtifactKind::Net {
        body += &embedded_html(&listing.embedded);
        body += &loops_page::html(&listing.loops);
    }
    body += &table_html(kind, &listing.rows, &listing.lineage);
    body += "<h2>Lineage</h2>\n<p>Each column a generation: a net, the data it played, \
             the nets trained on them. A dashed grey box is lost (known by its hash only).</p>\n";
    body += &graph_html(&listing.lineage, None);
    Ok(Html(html::page(title(kind), &body, false)))
}

/// A hash, shortened, linking to its page; the full hash on hover.
fn link(kind: Option<ArtifactKind>, sha256: &str) -> String {
    let Some(kind) = kind else {
        return "hand-written".to_string();
    };
    let short: String = sha256.chars().take(12).collect();
    format!(
        "<a class=\"hash\" href=\"{}\" title=\"{}\">{}</a>",
        escape(&href(kind, sha256)),
        escape(sha256),
        escape(&short)
    )
}

/// The links of `shas`, each to its own page.
fn links<'a>(l: &Lineage, shas: impl Iterator<Item = &'a String>) -> String {
    let words: Vec<String> = shas
        .map(|s| match l.nodes.get(s) {
            Some(n) => link(n.kind, s),
            None => escape(s),
        })
        .collect();
    match words.is_empty() {
        true => "-".to_string(),
        false => words.join(" "),
    }
}

fn dash(v: &Option<String>) -> String {
    v.as_deref().map_or("-".to_string(), escape)
}

fn number(v: Option<i64>) -> String {
    v.map_or("-".to_string(), |n| n.to_string())
}

fn short_commit(c: &Option<String>) -> String {
    c.as_deref().map_or("-".to_string(), |c| {
        format!(
            "<span title=\"{}\">{}</span>",
            escape(c),
            escape(&c.chars().take(10).collect::<String>())
        )
    })
}

fn table_html(kind: ArtifactKind, rows: &[Artifact], l: &Lineage) -> String {
    let mut out = format!(
        "<p class=\"count\">{} {}</p>\n<table id=\"artifacts\">\n",
        rows.len(),
        match kind {
            ArtifactKind::Net => "nets",
            ArtifactKind::Dataset => "datasets",
        }
    );
    out += &html::head(&[
        "sha256",
        "status",
        "bytes",
        "positions",
        "date (UTC)",
        "host",
        "build",
        "file",
        "parents",
        "children",
    ]);
    for a in rows {
        out += &html::row(&[
            link(Some(a.kind), &a.sha256),
            format!("<span class=\"status {0}\">{0}</span>", a.status),
            number(a.bytes),
            number(a.positions),
            dash(&a.date),
            dash(&a.host),
            short_commit(&a.build_commit),
            dash(&a.file),
            links(l, l.parents(&a.sha256).into_iter().map(|k| &k.parent)),
            links(l, l.children(&a.sha256).into_iter().map(|k| &k.child)),
        ]);
    }
    out + "</table>\n"
}

/// The embedded default net by commit, oldest first.
fn embedded_html(nets: &[Artifact]) -> String {
    let mut out = String::from(
        "<h2>The embedded default</h2>\n<p>Which net the engine embeds \
         (<code>src/eval/nnue/default.nnue</code>), since which commit.</p>\n<table id=\"embedded\">\n",
    );
    out += &html::head(&["since commit", "commit date (UTC)", "net", "until"]);
    for (i, a) in nets.iter().enumerate() {
        let until = nets.get(i + 1).map_or("now".to_string(), |next| {
            short_commit(&next.embedded_commit)
        });
        out += &html::row(&[
            short_commit(&a.embedded_commit),
            dash(&a.embedded_date),
            link(Some(a.kind), &a.sha256),
            until,
        ]);
    }
    if nets.is_empty() {
        out += "<tr><td colspan=\"4\">no net's record says it was embedded</td></tr>\n";
    }
    out + "</table>\n"
}

fn graph_html(l: &Lineage, focus: Option<&str>) -> String {
    match l.nodes.is_empty() {
        true => "<p>Nothing in the store yet.</p>\n".to_string(),
        false => format!(
            "<div class=\"lineage\" style=\"overflow:auto\">\n{}</div>\n",
            lineage_svg::svg(l, focus)
        ),
    }
}

/// What an artifact's page shows.
struct One {
    artifact: Artifact,
    lineage: Lineage,
    runs: Vec<NamingRun>,
}

/// The artifact `hash` names (a whole sha256 or 8 hex digits or more of
/// one): 400 for what is no hash or names several, 404 for none.
fn find(conn: &rusqlite::Connection, hash: &str) -> Result<Artifact, Answer> {
    if !leiserchess::object_store::is_prefix(hash) {
        return Err(Answer::bad_request(format!(
            "an artifact is named by 8 to 64 lowercase hex digits of its sha256, not '{}'",
            html::printable(hash)
        )));
    }
    let sha = match artifacts::get(conn, hash).map_err(db_error)? {
        Some(a) => return Ok(a),
        None => artifacts::matching(conn, hash).map_err(db_error)?,
    };
    match sha.as_slice() {
        [one] => artifacts::get(conn, one)
            .map_err(db_error)?
            .ok_or_else(|| Answer::not_found(format!("no artifact {one}"))),
        [] => Err(Answer::not_found(format!(
            "no artifact's sha256 starts with {hash}"
        ))),
        several => Err(Answer::bad_request(format!(
            "{hash} starts the sha256 of several artifacts: {}",
            several.join(", ")
        ))),
    }
}

async fn one(db: Db, kind: ArtifactKind, hash: String) -> Result<Html<String>, Answer> {
    let one = store_sync::synced(db, move |conn| {
        let artifact = find(conn, &hash)?;
        if artifact.kind != kind {
            return Err(Answer::not_found(format!(
                "{} is a {}: its page is {}",
                artifact.sha256,
                artifact.kind,
                href(artifact.kind, &artifact.sha256)
            )));
        }
        let runs = match kind {
            ArtifactKind::Net => net_runs::naming(conn, &artifact.sha256).map_err(db_error)?,
            ArtifactKind::Dataset => Vec::new(),
        };
        let lineage = lineage::whole(conn)
            .map_err(db_error)?
            .around(&artifact.sha256);
        Ok(One {
            artifact,
            lineage,
            runs,
        })
    })
    .await?;
    let a = &one.artifact;
    let short: String = a.sha256.chars().take(12).collect();
    let name = match a.kind {
        ArtifactKind::Net => "Net",
        ArtifactKind::Dataset => "Dataset",
    };
    let mut body = record_html(a);
    body += "<h2>Lineage</h2>\n";
    body += &graph_html(&one.lineage, Some(&a.sha256));
    body += &edges_html(
        "Parents",
        &one.lineage,
        one.lineage.parents(&a.sha256),
        true,
    );
    body += &edges_html(
        "Children",
        &one.lineage,
        one.lineage.children(&a.sha256),
        false,
    );
    if a.kind == ArtifactKind::Net {
        body += &runs_html(&one.runs);
    }
    Ok(Html(html::page(&format!("{name} {short}"), &body, false)))
}

fn record_html(a: &Artifact) -> String {
    let command = a
        .command
        .as_ref()
        .map_or("-".to_string(), |c| escape(&c.join(" ")));
    let embedded = match (&a.embedded_commit, &a.embedded_date) {
        (Some(c), d) => format!(
            "since commit {} ({} UTC)",
            escape(c),
            escape(d.as_deref().unwrap_or("-"))
        ),
        (None, _) => "-".to_string(),
    };
    let rows = [
        (
            "sha256",
            format!("<code id=\"sha256\">{}</code>", escape(&a.sha256)),
        ),
        ("kind", a.kind.to_string()),
        (
            "status",
            format!("<span class=\"status {0}\">{0}</span>", a.status),
        ),
        ("bytes", number(a.bytes)),
        ("positions", number(a.positions)),
        ("command", command),
        ("commit", dash(&a.build_commit)),
        ("binary", dash(&a.build_sha256)),
        ("host", dash(&a.host)),
        ("date (UTC)", dash(&a.date)),
        ("file", dash(&a.file)),
        ("note", dash(&a.note)),
        ("embedded", embedded),
    ];
    let mut out = String::from("<table id=\"record\">\n");
    for (name, value) in rows {
        out += &format!("<tr><th>{name}</th><td>{value}</td></tr>\n");
    }
    out + "</table>\n"
}

/// The parents (`up`) or children of the page's artifact.
fn edges_html(title: &str, l: &Lineage, edges: Vec<&lineage::Link>, up: bool) -> String {
    let mut out = format!(
        "<h2>{title}</h2>\n<table id=\"{}\">\n",
        title.to_lowercase()
    );
    out += &html::head(&["role", "kind", "sha256", "status", "file"]);
    for e in &edges {
        let other = if up { &e.parent } else { &e.child };
        let node = l.nodes.get(other);
        let kind = node.and_then(|n| n.kind);
        let cells = match (other.as_str(), node) {
            (HAND_WRITTEN, _) => [
                "-".to_string(),
                "the hand-written evaluation".to_string(),
                "-".to_string(),
                "-".to_string(),
            ],
            (_, Some(n)) => [
                kind.map_or("-".to_string(), |k| k.to_string()),
                link(kind, other),
                n.status.to_string(),
                dash(&n.file),
            ],
            (_, None) => [
                "-".to_string(),
                escape(other),
                "not indexed".to_string(),
                "-".to_string(),
            ],
        };
        let mut row = vec![e.role.as_str().to_string()];
        row.extend(cells);
        out += &html::row(&row);
    }
    if edges.is_empty() {
        out += "<tr><td colspan=\"5\">none</td></tr>\n";
    }
    out + "</table>\n"
}

/// The runs that name the net: W/D/L and Elo of the engine that played it.
fn runs_html(runs: &[NamingRun]) -> String {
    let kinds: Vec<&str> = net_runs::KINDS.iter().map(|k| k.as_str()).collect();
    let mut out = format!(
        "<h2>Matches</h2>\n<p>The runs ({}) that name this net by <code>store:PREFIX</code>, \
         with the W/D/L and Elo of the engine that played it.</p>\n<table id=\"matches\">\n",
        kinds.join(", ")
    );
    out += &html::head(&[
        "run", "kind", "status", "engine", "against", "games", "W/D/L", "Elo", "started",
    ]);
    for r in runs {
        let [w, d, l] = r.wdl;
        let games = w + d + l;
        let shown =
            elo::estimate_wdl(w, d, l).map_or("-".to_string(), |e| elo::elo_shown(&e, games, 1));
        out += &html::row(&[
            format!("<a href=\"/runs/{0}\">{0}</a>", r.id),
            r.kind.to_string(),
            format!("<span class=\"status {0}\">{0}</span>", r.status),
            escape(&r.engine),
            escape(&r.opponents.join(", ")),
            games.to_string(),
            format!("{w}/{d}/{l}"),
            format!("<span class=\"elo\">{}</span>", escape(&shown)),
            escape(&r.started),
        ]);
    }
    if runs.is_empty() {
        out += "<tr><td colspan=\"9\">no run names it</td></tr>\n";
    }
    out + "</table>\n"
}
