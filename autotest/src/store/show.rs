//! `autotest data show` and `nets show`: an artifact's record, its
//! parents and theirs up to the first artifact without any (each shown
//! once: a later meeting says so), and its children.

use crate::db::artifacts::{self, Artifact, Edge, HAND_WRITTEN};
use crate::db::text_enums::TextEnum;
use rusqlite::Connection;
use std::collections::BTreeSet;

/// The page for `a`.
pub fn page(conn: &Connection, a: &Artifact) -> Result<String, String> {
    let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".to_string());
    let number = |v: Option<i64>| v.map_or("-".to_string(), |n| n.to_string());
    let mut out = format!("{} {} ({})\n", a.kind, a.sha256, a.status);
    let rows = [
        ("bytes", number(a.bytes)),
        ("positions", number(a.positions)),
        (
            "command",
            a.command.as_ref().map_or("-".to_string(), |c| c.join(" ")),
        ),
        ("commit", dash(&a.build_commit)),
        ("binary", dash(&a.build_sha256)),
        ("host", dash(&a.host)),
        (
            "date",
            a.date
                .as_ref()
                .map_or("-".to_string(), |d| format!("{d} UTC")),
        ),
        ("file", dash(&a.file)),
        ("note", dash(&a.note)),
    ];
    for (name, value) in rows {
        out += &format!("{name:<10} {value}\n");
    }
    out += "\nparents\n";
    let mut seen = BTreeSet::new();
    let before = out.len();
    ancestors(conn, &a.sha256, 1, &mut seen, &mut out)?;
    if out.len() == before {
        out += "  none\n";
    }
    out += "\nchildren\n";
    let children = artifacts::children(conn, &a.sha256)?;
    if children.is_empty() {
        out += "  none\n";
    }
    for c in &children {
        out += &line(conn, c, 1)?;
    }
    Ok(out)
}

/// `child`'s parents at `depth`, each followed by its own one deeper.
fn ancestors(
    conn: &Connection,
    child: &str,
    depth: usize,
    seen: &mut BTreeSet<String>,
    out: &mut String,
) -> Result<(), String> {
    for p in artifacts::parents(conn, child)? {
        *out += &line(conn, &p, depth)?;
        if p.sha256 == HAND_WRITTEN {
            continue;
        }
        if !seen.insert(p.sha256.clone()) {
            if !artifacts::parents(conn, &p.sha256)?.is_empty() {
                *out += &format!("{}(its parents as above)\n", "  ".repeat(depth + 1));
            }
            continue;
        }
        ancestors(conn, &p.sha256, depth + 1, seen, out)?;
    }
    Ok(())
}

/// One edge: its role, the other end's kind, hash, status and file.
fn line(conn: &Connection, e: &Edge, depth: usize) -> Result<String, String> {
    let indent = "  ".repeat(depth);
    let role = e.role.as_str();
    if e.sha256 == HAND_WRITTEN {
        return Ok(format!("{indent}{role:<12} the hand-written evaluation\n"));
    }
    Ok(match artifacts::get(conn, &e.sha256)? {
        Some(a) => format!(
            "{indent}{role:<12} {} {} ({}){}\n",
            a.kind,
            a.sha256,
            a.status,
            a.file.map_or(String::new(), |f| format!(" {f}"))
        ),
        None => format!("{indent}{role:<12} {} (not indexed)\n", e.sha256),
    })
}
