//! The spec's UCI options against what the engine says: each must be one
//! its `uci` answer lists (UCI compares names case-insensitively), and the
//! engine must not refuse it. UCI has no word for a refusal, so two are
//! recognised: our engine's `info string error: …` on its output (see
//! `docs/spec/PROTOCOL.md`), and, as other engines do it, a line on the
//! standard error.

/// How many option names an error lists before it only counts them.
const LISTED: usize = 12;

/// Why `name` cannot be set on an engine whose `uci` answer listed
/// `listed`: the names close to it if there are any, else its options.
pub fn unknown(name: &str, listed: &[String]) -> String {
    let close: Vec<&str> = listed
        .iter()
        .map(String::as_str)
        .filter(|o| is_close(name, o))
        .collect();
    let hint = if !close.is_empty() {
        format!("did you mean {}?", close.join(" or "))
    } else if listed.is_empty() {
        "it lists no options".to_string()
    } else if listed.len() <= LISTED {
        format!("its options: {}", listed.join(", "))
    } else {
        format!(
            "its options: {}, … ({} in all)",
            listed[..LISTED].join(", "),
            listed.len()
        )
    };
    format!("has no option '{name}': its 'uci' answer does not list it ({hint})")
}

/// Whether `listed` may be the option meant by `name`: one within two
/// edits of it, or one that holds it or that it holds (a name of three
/// letters or more), all ignoring case.
fn is_close(name: &str, listed: &str) -> bool {
    let (a, b) = (name.to_lowercase(), listed.to_lowercase());
    let d = edits(&a, &b);
    (d <= 2 && d < a.chars().count()) || (a.len() >= 3 && (b.contains(&a) || a.contains(&b)))
}

/// The edit (Levenshtein) distance between `a` and `b`, in characters.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Whether a line the engine wrote on its output before `readyok`, after
/// the options were sent, refuses one: `info string error …`.
pub fn refuses_on_output(line: &str) -> bool {
    let mut words = line.split_whitespace();
    (words.next(), words.next()) == (Some("info"), Some("string"))
        && words.next().is_some_and(|w| w.starts_with("error"))
}

/// Whether a line the engine wrote on its standard error during the
/// option handshake (from `uciok` to `readyok`) refuses an option: one
/// that says "error", "unknown option" or "no such option", in any case.
/// A line without those words (a banner, a note) is not taken for one.
pub fn refuses_on_stderr(line: &str) -> bool {
    let line = line.to_lowercase();
    ["error", "unknown option", "no such option"]
        .iter()
        .any(|w| line.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn unknown_options_name_the_close_ones_or_all() {
        let ours = names(&["threads", "hash", "lmr_r1", "lmr_r2", "Clear Hash"]);
        assert_eq!(
            unknown("nosuch", &ours),
            "has no option 'nosuch': its 'uci' answer does not list it \
             (its options: threads, hash, lmr_r1, lmr_r2, Clear Hash)"
        );
        assert!(unknown("HSH", &ours).ends_with("(did you mean hash?)"));
        assert!(unknown("clear", &ours).ends_with("(did you mean Clear Hash?)"));
        assert!(unknown("lmr_r3", &ours).ends_with("(did you mean lmr_r1 or lmr_r2?)"));
        assert!(unknown("thread", &ours).ends_with("(did you mean threads?)"));
        // A name of one or two letters is close to nothing by length alone.
        assert!(unknown("x", &ours).contains("(its options: "));
        assert!(unknown("x", &[]).ends_with("(it lists no options)"));
        let many: Vec<String> = (0..20).map(|i| format!("option{i}")).collect();
        let text = unknown("zzz", &many);
        assert!(
            text.ends_with("option10, option11, … (20 in all))"),
            "{text}"
        );
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edits("hash", "hash"), 0);
        assert_eq!(edits("hsah", "hash"), 2);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(edits("kitten", "sitting"), 3);
    }

    #[test]
    fn refusals() {
        assert!(refuses_on_output(
            "info string error: option 'hash' wants a whole number, got 'abc'"
        ));
        assert!(!refuses_on_output("info string using 4 threads"));
        assert!(!refuses_on_output("info depth 1 string error"));
        assert!(refuses_on_stderr("Error: bad value"));
        assert!(refuses_on_stderr("No such option: foo"));
        assert!(refuses_on_stderr("unknown option 'bar'"));
        assert!(!refuses_on_stderr("NNUE loaded from nn.bin"));
    }
}
