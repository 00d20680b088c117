//! The lineage as the pages draw it: the artifacts (and the hand-written
//! evaluation) as nodes, each parent link as an edge from parent to
//! child, and each node's generation (its column: 0 for a node without
//! parents, else one more than its deepest parent).

use crate::db::artifacts::HAND_WRITTEN;
use crate::db::text_enums::{ArtifactKind, ArtifactStatus, ParentRole};
use rusqlite::Connection;
use std::collections::{BTreeMap, BTreeSet};

/// A node: an artifact, or the hand-written evaluation (no kind).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub sha256: String,
    pub kind: Option<ArtifactKind>,
    pub status: ArtifactStatus,
    pub file: Option<String>,
}

/// A parent link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub parent: String,
    pub child: String,
    pub role: ParentRole,
}

/// Nodes by hash and the links among them, in the order recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lineage {
    pub nodes: BTreeMap<String, Node>,
    pub links: Vec<Link>,
}

fn sql(e: rusqlite::Error) -> String {
    format!("results database: {e}")
}

/// Every artifact and every link of the index.
pub fn whole(conn: &Connection) -> Result<Lineage, String> {
    let mut nodes = BTreeMap::new();
    let mut stmt = conn
        .prepare("SELECT sha256, kind, status, file FROM artifacts")
        .map_err(sql)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Node {
                sha256: r.get(0)?,
                kind: Some(r.get(1)?),
                status: r.get(2)?,
                file: r.get(3)?,
            })
        })
        .map_err(sql)?;
    for n in rows {
        let n = n.map_err(sql)?;
        nodes.insert(n.sha256.clone(), n);
    }
    let mut stmt = conn
        .prepare("SELECT parent, child, role FROM artifact_parents ORDER BY rowid")
        .map_err(sql)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Link {
                parent: r.get(0)?,
                child: r.get(1)?,
                role: r.get(2)?,
            })
        })
        .map_err(sql)?;
    let links: Vec<Link> = rows.collect::<Result<_, _>>().map_err(sql)?;
    if links.iter().any(|l| l.parent == HAND_WRITTEN) {
        nodes.insert(
            HAND_WRITTEN.to_string(),
            Node {
                sha256: HAND_WRITTEN.to_string(),
                kind: None,
                status: ArtifactStatus::Kept,
                file: None,
            },
        );
    }
    Ok(Lineage { nodes, links })
}

impl Lineage {
    /// `sha256`, its ancestors and its descendants, and the links among
    /// them (not its cousins: another child of its parent is left out).
    pub fn around(&self, sha256: &str) -> Lineage {
        let mut up: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut down: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for l in &self.links {
            up.entry(&l.child).or_default().push(&l.parent);
            down.entry(&l.parent).or_default().push(&l.child);
        }
        let mut keep = BTreeSet::new();
        for next in [up, down] {
            let mut todo = vec![sha256];
            let mut seen = BTreeSet::new();
            while let Some(at) = todo.pop() {
                if seen.insert(at) {
                    todo.extend(next.get(at).into_iter().flatten());
                }
            }
            keep.extend(seen.into_iter().map(str::to_string));
        }
        Lineage {
            nodes: self
                .nodes
                .iter()
                .filter(|(k, _)| keep.contains(*k))
                .map(|(k, n)| (k.clone(), n.clone()))
                .collect(),
            links: self
                .links
                .iter()
                .filter(|l| keep.contains(&l.parent) && keep.contains(&l.child))
                .cloned()
                .collect(),
        }
    }

    /// `sha256`'s parent links, in the order recorded.
    pub fn parents(&self, sha256: &str) -> Vec<&Link> {
        self.links.iter().filter(|l| l.child == sha256).collect()
    }

    /// `sha256`'s child links.
    pub fn children(&self, sha256: &str) -> Vec<&Link> {
        self.links.iter().filter(|l| l.parent == sha256).collect()
    }

    /// Each node's generation. A cycle (records written by hand can make
    /// one) stops deepening after as many rounds as there are nodes.
    pub fn depths(&self) -> BTreeMap<String, usize> {
        let mut depth: BTreeMap<String, usize> =
            self.nodes.keys().map(|k| (k.clone(), 0)).collect();
        for _ in 0..self.nodes.len() {
            let mut changed = false;
            for l in &self.links {
                let (Some(&p), Some(&c)) = (depth.get(&l.parent), depth.get(&l.child)) else {
                    continue;
                };
                if c < p + 1 {
                    depth.insert(l.child.clone(), p + 1);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(sha: &str) -> (String, Node) {
        (
            sha.to_string(),
            Node {
                sha256: sha.to_string(),
                kind: Some(ArtifactKind::Net),
                status: ArtifactStatus::Kept,
                file: None,
            },
        )
    }

    fn link(parent: &str, child: &str) -> Link {
        Link {
            parent: parent.to_string(),
            child: child.to_string(),
            role: ParentRole::Played,
        }
    }

    /// Columns by the deepest parent; around a node, its ancestors and
    /// descendants but not its parent's other children; a cycle ends.
    #[test]
    fn generations_and_neighbourhoods() {
        let l = Lineage {
            nodes: ["a", "b", "c", "d", "e"].map(node).into_iter().collect(),
            links: vec![
                link("a", "b"),
                link("b", "c"),
                link("a", "c"),
                link("a", "e"),
            ],
        };
        let d = l.depths();
        assert_eq!((d["a"], d["b"], d["c"], d["d"], d["e"]), (0, 1, 2, 0, 1));
        let around = l.around("b");
        assert_eq!(
            around.nodes.keys().collect::<Vec<_>>(),
            ["a", "b", "c"].iter().collect::<Vec<_>>()
        );
        assert_eq!(around.links.len(), 3);
        let cycle = Lineage {
            nodes: ["a", "b"].map(node).into_iter().collect(),
            links: vec![link("a", "b"), link("b", "a")],
        };
        // At most a step per link a round, as many rounds as nodes.
        assert!(cycle.depths().values().all(|&d| d <= 2 * 2));
    }
}
