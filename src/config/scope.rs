//! Which searches read an option: MCTS's (and `mcts_tree_mb`) MCTS and
//! the hybrid, whose tree they shape; the hybrid's the hybrid alone; any
//! other option every search, or none in particular. An option set while
//! the `Search` chosen does not read it says so in its report, and so
//! does `Search` set to a search that leaves options unread which are
//! away from their defaults.

use super::entry::{options, Entry, Value};
use super::EngineConfig;
use crate::search::algorithm::{Algorithm, NAMES};
use crate::search::params::{HYBRID_PARAMS, MCTS_PARAMS};

/// The searches that read option `name`; none when every search does.
fn readers(name: &str) -> Option<&'static [Algorithm]> {
    let named = |list: &[crate::declaration::Declaration<_>]| list.iter().any(|d| d.name == name);
    if named(MCTS_PARAMS) || name == "mcts_tree_mb" {
        Some(&[Algorithm::Mcts, Algorithm::Hybrid])
    } else if named(HYBRID_PARAMS) {
        Some(&[Algorithm::Hybrid])
    } else {
        None
    }
}

fn name(a: Algorithm) -> &'static str {
    NAMES[a as usize]
}

/// What the report of `entry`, just set in `c`, adds: that the option has
/// no effect under `c`'s search, or (`Search` itself) which options set
/// away from their defaults have none under the search chosen.
pub fn note(c: &EngineConfig, entry: Entry) -> Option<String> {
    let search = c.algorithm;
    if entry.name() == "Search" {
        let unread: Vec<&str> = options()
            .filter(|o| readers(o.name()).is_some_and(|r| !r.contains(&search)))
            .filter(|o| o.value(c) != Value::Number(o.default()))
            .map(Entry::name)
            .collect();
        return (!unread.is_empty())
            .then(|| format!("; no effect under {}: {}", name(search), unread.join(", ")));
    }
    let readers = readers(entry.name()).filter(|r| !r.contains(&search))?;
    let names: Vec<&str> = readers.iter().map(|&a| name(a)).collect();
    Some(format!(
        "; no effect while Search is {} (it serves {})",
        name(search),
        names.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYBRID_UNDER_MCTS: &str = "; no effect while Search is mcts (it serves hybrid)";

    /// Sets each `name=value` of `steps` in turn on one config, checking
    /// that its report is "`name` set to `value`" and then the note.
    fn check_notes(steps: &[(&str, &str)]) {
        let mut c = EngineConfig::default();
        for (setting, note) in steps {
            let (name, value) = setting.split_once('=').unwrap();
            let report = c.set(name, Some(value)).unwrap().report;
            assert_eq!(report, format!("{name} set to {value}{note}"));
        }
    }

    /// MCTS's options under PVS or best-first, the hybrid's under any
    /// other search, say they do nothing; under their searches, and for
    /// the options every search reads, nothing is added.
    #[test]
    fn an_option_its_search_does_not_read_says_so() {
        let tree_only = "; no effect while Search is pvs (it serves mcts and hybrid)";
        check_notes(&[
            ("Search=pvs", ""),
            ("mcts_cpuct=200", tree_only),
            ("mcts_tree_mb=64", tree_only),
            ("lmr_r1=4", ""),
            ("Search=mcts", ""),
            ("mcts_cpuct=180", ""),
            ("hybrid_tree_time=40", HYBRID_UNDER_MCTS),
            ("Search=hybrid", ""),
            ("mcts_cpuct=170", ""),
            ("hybrid_tree_time=60", ""),
        ]);
    }

    /// `Search` names the options set away from their defaults that the
    /// search chosen does not read.
    #[test]
    fn search_names_the_options_it_leaves_unread() {
        let both_unread = "; no effect under bestfirst: mcts_cpuct, hybrid_tree_time";
        check_notes(&[
            ("Search=mcts", ""),
            ("mcts_cpuct=200", ""),
            ("hybrid_tree_time=30", HYBRID_UNDER_MCTS),
            ("Search=mcts", "; no effect under mcts: hybrid_tree_time"),
            ("Search=bestfirst", both_unread),
            ("Search=hybrid", ""),
        ]);
    }
}
