//! A lineage drawn as inline SVG, on the server (no script): a column
//! per generation, parents on the left of their children, each node a
//! box linking to its page (`/nets/HASH`, `/data/HASH`), lost ones
//! dashed and grey, each link a curve coloured by its role.

use super::html::escape;
use super::lineage::{Lineage, Node};
use crate::db::text_enums::{ArtifactKind, ArtifactStatus, ParentRole, TextEnum};
use std::collections::BTreeMap;

const WIDTH: usize = 150;
const HEIGHT: usize = 34;
const COLUMN: usize = WIDTH + 70;
const ROW: usize = HEIGHT + 12;
const MARGIN: usize = 10;

/// The page of an artifact of `kind` with `sha256`.
pub fn href(kind: ArtifactKind, sha256: &str) -> String {
    match kind {
        ArtifactKind::Net => format!("/nets/{sha256}"),
        ArtifactKind::Dataset => format!("/data/{sha256}"),
    }
}

fn colour(role: ParentRole) -> &'static str {
    match role {
        ParentRole::Played => "#1f77b4",
        ParentRole::Labelled => "#9467bd",
        ParentRole::TrainedOn => "#2ca02c",
        ParentRole::StartedFrom => "#8c564b",
        ParentRole::Baseline => "#ff7f0e",
    }
}

/// Each node's column and row. Within a column the nodes go in the
/// order of their parents' mean row (fewer crossings), then by hash.
fn layout(l: &Lineage) -> BTreeMap<&str, (usize, usize)> {
    let depths = l.depths();
    let mut columns: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (sha, d) in &depths {
        if let Some((key, _)) = l.nodes.get_key_value(sha) {
            columns.entry(*d).or_default().push(key);
        }
    }
    let mut parents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for k in &l.links {
        parents.entry(&k.child).or_default().push(&k.parent);
    }
    let mut at: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (column, mut shas) in columns {
        let mean_parent_row = |sha: &str| {
            let rows: Vec<usize> = parents
                .get(sha)
                .into_iter()
                .flatten()
                .filter_map(|p| at.get(p).map(|p| p.1))
                .collect();
            match rows.len() {
                0 => 0.0,
                n => rows.iter().sum::<usize>() as f64 / n as f64,
            }
        };
        let mut keyed: Vec<(f64, &str)> = shas.drain(..).map(|s| (mean_parent_row(s), s)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
        for (row, (_, sha)) in keyed.into_iter().enumerate() {
            at.insert(sha, (column, row));
        }
    }
    at
}

fn corner(place: (usize, usize)) -> (usize, usize) {
    (MARGIN + place.0 * COLUMN, MARGIN + place.1 * ROW)
}

/// The lineage `l` as an `<svg>` element, `focus` (the page's own
/// artifact) drawn bold. Empty without nodes.
pub fn svg(l: &Lineage, focus: Option<&str>) -> String {
    if l.nodes.is_empty() {
        return String::new();
    }
    let at = layout(l);
    let columns = at.values().map(|p| p.0 + 1).max().unwrap_or(1);
    let rows = at.values().map(|p| p.1 + 1).max().unwrap_or(1);
    let (w, h) = (
        2 * MARGIN + (columns - 1) * COLUMN + WIDTH,
        2 * MARGIN + (rows - 1) * ROW + HEIGHT,
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lineage\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    );
    for k in &l.links {
        let (Some(&p), Some(&c)) = (at.get(k.parent.as_str()), at.get(k.child.as_str())) else {
            continue;
        };
        let (px, py) = corner(p);
        let (cx, cy) = corner(c);
        let (x1, y1, x2, y2) = (px + WIDTH, py + HEIGHT / 2, cx, cy + HEIGHT / 2);
        let bend = (x2.saturating_sub(x1) / 2).max(20);
        out += &format!(
            "<path class=\"link {role}\" d=\"M{x1},{y1} C{},{y1} {},{y2} {x2},{y2}\" fill=\"none\" \
             stroke=\"{}\" stroke-width=\"1.2\"><title>{role}</title></path>\n",
            x1 + bend,
            x2.saturating_sub(bend),
            colour(k.role),
            role = k.role,
        );
    }
    for (sha, n) in &l.nodes {
        if let Some(&place) = at.get(sha.as_str()) {
            out += &node(n, corner(place), focus == Some(sha.as_str()));
        }
    }
    out + "</svg>\n"
}

/// A node's box, linked to its page unless it is the hand-written
/// evaluation.
fn node(n: &Node, (x, y): (usize, usize), focus: bool) -> String {
    let lost = n.status == ArtifactStatus::Lost;
    let (fill, stroke, dash, ink) = match lost {
        true => ("#eeeeee", "#999999", " stroke-dasharray=\"4 3\"", "#777777"),
        false => ("#ffffff", "#333333", "", "#222222"),
    };
    let width = if focus { 3 } else { 1 };
    let (title, top, bottom) = match n.kind {
        None => (
            "the hand-written evaluation".to_string(),
            "hand-written".to_string(),
            "evaluation".to_string(),
        ),
        Some(kind) => (
            format!(
                "{kind} {} ({}){}",
                n.sha256,
                n.status,
                n.file.as_ref().map_or(String::new(), |f| format!(" {f}"))
            ),
            n.sha256.chars().take(12).collect(),
            format!("{kind}{}", if lost { ", lost" } else { "" }),
        ),
    };
    let shape = format!(
        "<title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" rx=\"4\" \
         fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>\
         <text x=\"{}\" y=\"{}\" fill=\"{ink}\" font-family=\"monospace\">{}</text>\
         <text x=\"{}\" y=\"{}\" fill=\"{ink}\">{}</text>",
        escape(&title),
        x + 8,
        y + 14,
        escape(&top),
        x + 8,
        y + 28,
        escape(&bottom),
    );
    let class = format!(
        "node {} {}",
        n.kind.map_or("hand-written", |k| k.as_str()),
        n.status
    );
    match n.kind {
        Some(kind) => format!(
            "<a class=\"{class}\" href=\"{}\">{shape}</a>\n",
            escape(&href(kind, &n.sha256))
        ),
        None => format!("<g class=\"{class}\">{shape}</g>\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::lineage::Link;

    /// A net, the lost data it played, the net trained on it: three
    /// columns left to right, each box a link, the lost one dashed.
    #[test]
    fn generations_are_columns_and_lost_data_is_dashed() {
        let node = |sha: &str, kind, status| {
            (
                sha.to_string(),
                Node {
                    sha256: sha.to_string(),
                    kind: Some(kind),
                    status,
                    file: None,
                },
            )
        };
        let l = Lineage {
            nodes: [
                node("aaaaaaaa", ArtifactKind::Net, ArtifactStatus::Kept),
                node("bbbbbbbb", ArtifactKind::Dataset, ArtifactStatus::Lost),
                node("cccccccc", ArtifactKind::Net, ArtifactStatus::Kept),
            ]
            .into_iter()
            .collect(),
            links: vec![
                Link {
                    parent: "aaaaaaaa".into(),
                    child: "bbbbbbbb".into(),
                    role: ParentRole::Played,
                },
                Link {
                    parent: "bbbbbbbb".into(),
                    child: "cccccccc".into(),
                    role: ParentRole::TrainedOn,
                },
            ],
        };
        let at = layout(&l);
        assert_eq!(
            (at["aaaaaaaa"], at["bbbbbbbb"], at["cccccccc"]),
            ((0, 0), (1, 0), (2, 0))
        );
        let out = svg(&l, Some("cccccccc"));
        let x = |sha: &str| {
            let box_at = out.find(&format!("href=\"{}\"", href(ArtifactKind::Net, sha)));
            box_at.or_else(|| out.find(&format!("href=\"/data/{sha}\"")))
        };
        assert!(x("aaaaaaaa").is_some() && x("bbbbbbbb").is_some() && x("cccccccc").is_some());
        let lost = out.split("<a ").find(|a| a.contains("bbbbbbbb")).unwrap();
        assert!(
            lost.contains("stroke-dasharray") && lost.contains("dataset, lost"),
            "{lost}"
        );
        let kept = out
            .split("<a ")
            .find(|a| a.contains("/nets/aaaaaaaa"))
            .unwrap();
        assert!(!kept.contains("stroke-dasharray"), "{kept}");
        assert!(out.contains("stroke-width=\"3\""));
        assert_eq!(out.matches("<path class=\"link").count(), 2);
    }
}
