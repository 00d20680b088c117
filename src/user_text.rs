//! Echoing user input in messages: error lines quote the input, and a
//! referee's log must stay one readable line whatever was sent, so a quote
//! keeps at most `MAX_QUOTED` characters and escapes control characters.

/// The most characters of one piece of input that a message repeats.
pub const MAX_QUOTED: usize = 80;

/// `text` for a message: control characters escaped (`\n`, `\u{7}`), cut
/// after `MAX_QUOTED` characters with a note of how many more there were.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(MAX_QUOTED) {
        out.extend(escaped(c));
    }
    let rest = chars.count();
    if rest > 0 {
        out += &format!("… ({rest} more characters)");
    }
    out
}

/// Escapes the control characters of a whole line of output.
pub fn escape_controls(text: &str) -> String {
    text.chars().flat_map(escaped).collect()
}

fn escaped(c: char) -> impl Iterator<Item = char> {
    let (plain, escape) = if c.is_control() {
        (None, Some(c.escape_debug()))
    } else {
        (Some(c), None)
    };
    plain.into_iter().chain(escape.into_iter().flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept() {
        assert_eq!(quote("g4L"), "g4L");
        assert_eq!(quote("é✓"), "é✓");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(quote("a\u{7}b\tc\r\n"), "a\\u{7}b\\tc\\r\\n");
        assert_eq!(escape_controls("x\u{1b}[2J"), "x\\u{1b}[2J");
    }

    #[test]
    fn long_text_is_cut_at_the_limit() {
        let long = "x".repeat(5000);
        let q = quote(&long);
        assert!(q.starts_with(&"x".repeat(MAX_QUOTED)));
        assert!(q.ends_with("… (4920 more characters)"), "{q}");
        assert!(q.chars().count() < MAX_QUOTED + 30);
    }
}
