//! `setoption`: parse, set the configuration, then carry out the option's
//! declared effect (a new table, a net, a book or a move policy loaded).

use super::{say, Engine};
use crate::declaration::Effect;
use crate::user_text::quote;

impl Engine {
    pub(super) fn setoption(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
        let Some(n) = name_at else {
            return say(out, "error: setoption needs 'name <id>'".to_string());
        };
        // `value` counts only after the name (`setoption value 1 name x`
        // names the option "x" and gives it no value).
        let value_at = args[n + 1..]
            .iter()
            .position(|t| t.eq_ignore_ascii_case("value"))
            .map(|v| n + 1 + v);
        let name = args[n + 1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|v| args[v + 1..].join(" "));
        let before = self.config.clone();
        match self.config.set(&name, value.as_deref()) {
            Ok(change) => {
                say(out, change.report);
                match change.effect {
                    Effect::None => {}
                    Effect::NewTable => self.renew_table(),
                    Effect::LoadNet => self.load_net(&before.eval_file, out),
                    Effect::LoadBook => self.load_book(&before.book_file, out),
                    Effect::LoadPolicy => self.load_policy(&before.policy_file, out),
                }
            }
            Err(e) => say(out, format!("error: {e}")),
        }
    }

    /// Loads the move policy `PolicyFile` names into a new shared state
    /// (the searches' way to it). On failure the option goes back to
    /// `previous`, whose policy stays.
    fn load_policy(&mut self, previous: &str, out: &mut Vec<u8>) {
        match self.config.policy() {
            Ok(policy) => {
                let path = &self.config.policy_file;
                let what = if path.is_empty() {
                    "the embedded policy".to_string()
                } else {
                    format!("policy '{}'", quote(path))
                };
                say(out, format!("{what}: {} features", policy.weights().len()));
                self.policy = policy;
                self.renew_table();
            }
            Err(e) => {
                say(out, format!("error: {e}; policy unchanged"));
                self.config.policy_file = previous.to_string();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, Output};
    use crate::config::{options, EngineConfig};
    use crate::declaration::{Effect, Kind};
    use crate::eval::nnue::Network;
    use crate::eval::policy::Policy;
    use std::sync::Arc;

    fn engine() -> Engine {
        Engine::new(Output::new(std::io::sink()))
    }

    fn send(e: &mut Engine, line: &str) -> String {
        let mut out = Vec::new();
        e.handle(line, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// The `uci` answer lists exactly the declarations, and `setoption` of
    /// every one of them stores its value and carries out its effect: a
    /// new table, a net or a book loaded, or nothing beyond the value.
    #[test]
    fn setoption_applies_every_declared_effect() {
        let dir = crate::scratch::dir("setoption");
        let net_file = dir.join("net.nnue");
        std::fs::write(&net_file, Network::embedded().to_bytes()).unwrap();
        let book_file = dir.join("one.book");
        std::fs::write(&book_file, crate::lab::book::Book::embedded().to_bytes()).unwrap();
        let policy_file = dir.join("p.policy");
        std::fs::write(&policy_file, Policy::heuristic().to_bytes()).unwrap();

        let mut e = engine();
        let listed: Vec<String> = send(&mut e, "uci")
            .lines()
            .filter(|l| l.starts_with("option "))
            .map(str::to_string)
            .collect();
        assert_eq!(listed, EngineConfig::uci_lines());
        assert_eq!(listed.len(), options().count());

        for o in options() {
            let mut e = engine();
            let value = match o.kind() {
                Kind::Spin { min, max } => (if o.default() == max { min } else { max }).to_string(),
                Kind::Check => (o.default() == 0).to_string(),
                Kind::Combo { choices } => {
                    choices[(o.default() as usize + 1) % choices.len()].to_string()
                }
                Kind::Button => String::new(),
                Kind::Text => match o.effect() {
                    Effect::LoadNet => net_file.display().to_string(),
                    Effect::LoadPolicy => policy_file.display().to_string(),
                    _ => book_file.display().to_string(),
                },
            };
            let (table, net, policy) = (e.shared.clone(), e.net.clone(), e.policy.clone());
            let book_len = e.book.len();
            let line = format!("setoption name {} value {value}", o.name());
            let answer = send(&mut e, line.trim_end());
            assert!(!answer.contains("error"), "{line}: {answer}");
            let new_table = !Arc::ptr_eq(&table, &e.shared);
            let new_net = !Arc::ptr_eq(&net, &e.net);
            let new_policy = !Arc::ptr_eq(&policy, &e.policy);
            assert_eq!(new_policy, o.effect() == Effect::LoadPolicy, "{line}");
            match o.effect() {
                Effect::None => {
                    assert!(!new_table && !new_net, "{line}");
                    assert_ne!(e.config, EngineConfig::default(), "{line} stored nothing");
                }
                Effect::NewTable => assert!(new_table && !new_net, "{line}"),
                // A new net's scores differ from the old one's: a new table too.
                Effect::LoadNet => {
                    assert!(new_net && new_table, "{line}");
                    assert_eq!(e.config.eval_file, value);
                }
                Effect::LoadBook => {
                    assert!(answer.contains(&format!("{book_len} moves")), "{answer}");
                    assert_eq!(e.config.book_file, value);
                }
                // The searches reach the policy through their shared state.
                Effect::LoadPolicy => {
                    assert!(new_table && !new_net, "{line}");
                    assert_eq!(*e.policy, Policy::heuristic());
                    assert!(Arc::ptr_eq(&e.policy, &e.shared.policy));
                    assert_eq!(e.config.policy_file, value);
                }
            }
            e.finish();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `isready` answers once the newest table's pages are backed (the
    /// thread backing them joined), unless a search runs: then at once.
    #[test]
    fn readyok_waits_for_a_new_table_to_be_backed() {
        let mut e = engine();
        assert!(e.populating.is_some(), "the first table");
        assert_eq!(send(&mut e, "isready"), "readyok\n");
        assert!(e.populating.is_none());
        for line in [
            "ucinewgame",
            "setoption name hash value 8",
            "setoption name Clear Hash",
        ] {
            send(&mut e, line);
            assert!(e.populating.is_some(), "{line}");
            assert_eq!(send(&mut e, "isready"), "readyok\n", "{line}");
            assert!(e.populating.is_none(), "{line}");
        }
        send(&mut e, "ucinewgame");
        send(&mut e, "go infinite");
        assert_eq!(send(&mut e, "isready"), "readyok\n");
        assert!(e.populating.is_some(), "joined while a search ran");
        send(&mut e, "stop");
        e.finish();
    }

    /// `hash` sizes the new table (8 MB hold eight times 1 MB's entries)
    /// and `tt_ways` its buckets, the size kept.
    #[test]
    fn hash_sizes_the_table_and_tt_ways_its_buckets() {
        let mut e = engine();
        send(&mut e, "setoption name hash value 1");
        let one = e.shared.tt.entries();
        send(&mut e, "setoption name hash value 8");
        let eight = e.shared.tt.entries();
        assert_eq!(eight, 8 * one);
        assert_eq!(e.shared.tt.ways(), 4);
        send(&mut e, "setoption name tt_ways value 2");
        assert_eq!((e.shared.tt.ways(), e.shared.tt.entries()), (2, eight));
        e.finish();
    }

    #[test]
    fn a_file_that_fails_to_load_leaves_the_option_as_it_was() {
        let mut e = engine();
        for name in ["EvalFile", "BookFile", "PolicyFile"] {
            let answer = send(
                &mut e,
                &format!("setoption name {name} value /no/such/file"),
            );
            assert!(answer.contains("error"), "{answer}");
        }
        assert_eq!(e.config, EngineConfig::default());
        e.finish();
    }
}
