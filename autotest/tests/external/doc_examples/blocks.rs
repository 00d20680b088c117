//! The fenced code blocks of a Markdown document, with their kind.

/// What a block's info string makes of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Commands run for real.
    Sh,
    /// Commands checked, not run.
    ShNoRun,
    /// A UCI session.
    Uci,
    /// A course-referee config file.
    Lauto,
    /// Output or illustration.
    Shown,
}

#[derive(Debug)]
pub struct Block {
    pub kind: Kind,
    /// The line of the opening fence, from 1.
    pub line: usize,
    pub text: String,
}

/// The blocks of `doc`; an unknown or missing info string, or a block
/// left open, is an error naming its line.
pub fn parse(doc: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut open: Option<(Kind, usize, String)> = None;
    for (n, raw) in doc.lines().enumerate() {
        let trimmed = raw.trim_start();
        let fence = trimmed.starts_with("```") && raw.len() - trimmed.len() < 4;
        match (&mut open, fence) {
            (None, true) => {
                let info = trimmed.trim_start_matches('`').trim();
                open = Some((
                    kind(info).map_err(|e| format!("line {}: {e}", n + 1))?,
                    n + 1,
                    String::new(),
                ));
            }
            (Some((kind, line, text)), true) => {
                blocks.push(Block {
                    kind: *kind,
                    line: *line,
                    text: std::mem::take(text),
                });
                open = None;
            }
            (Some((_, _, text)), false) => {
                text.push_str(raw);
                text.push('\n');
            }
            (None, false) => {}
        }
    }
    match open {
        Some((_, line, _)) => Err(format!("line {line}: the block is never closed")),
        None => Ok(blocks),
    }
}

fn kind(info: &str) -> Result<Kind, String> {
    Ok(match info {
        "sh" => Kind::Sh,
        "sh no-run" => Kind::ShNoRun,
        "uci" => Kind::Uci,
        "lauto" => Kind::Lauto,
        "text" | "json" | "console" | "rust" => Kind::Shown,
        "" => {
            return Err("a block without an info string (sh, sh no-run, uci, lauto, text …)".into())
        }
        other => return Err(format!("an unknown info string '{other}'")),
    })
}

/// The parser's own checks (a trial of the harness).
pub fn self_test() {
    let doc = "# t\n```sh\nleiserchess perft 2\n```\ntext\n```sh no-run\nmake test\n```\n```uci\ngo depth 2\n```\n```text\nout\n```\n";
    let b = parse(doc).expect("a well-formed document");
    let kinds: Vec<_> = b.iter().map(|b| (b.kind, b.line)).collect();
    assert_eq!(
        kinds,
        [
            (Kind::Sh, 2),
            (Kind::ShNoRun, 6),
            (Kind::Uci, 9),
            (Kind::Shown, 12)
        ]
    );
    assert_eq!(b[0].text, "leiserchess perft 2\n");
    assert!(parse("```\nx\n```\n").unwrap_err().contains("line 1"));
    assert!(parse("```bash\nx\n```\n").unwrap_err().contains("'bash'"));
    assert!(parse("a\n```sh\nx\n").unwrap_err().contains("never closed"));
}
