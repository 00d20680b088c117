//! HTML text: escaping, and the frame each page is drawn in.

/// `text` safe inside HTML text and quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` for a plain-text message: control characters shown escaped,
/// at most 200 characters.
pub fn printable(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(200)
        .flat_map(char::escape_default)
        .collect();
    if text.chars().count() > 200 {
        out.push('…');
    }
    out
}

/// A whole page: `title`, the links between pages, then `body`; with
/// `script`, the run page's script.
pub fn page(title: &str, body: &str, script: bool) -> String {
    let script = if script {
        "<script defer src=\"/static/run.js\"></script>\n"
    } else {
        ""
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<link rel=\"stylesheet\" href=\"/static/style.css\">\n{script}</head>\n\
         <body>\n<nav><a href=\"/runs\">Runs</a> <a href=\"/history\">History</a> <a href=\"/nets\">Nets</a> <a href=\"/data\">Data</a></nav>\n\
         <h1>{title}</h1>\n{body}</body>\n</html>\n",
        title = escape(title)
    )
}

/// A table row of cells already escaped.
pub fn row(cells: &[String]) -> String {
    let mut out = String::from("<tr>");
    for c in cells {
        out += "<td>";
        out += c;
        out += "</td>";
    }
    out + "</tr>\n"
}

/// A table's header row.
pub fn head(names: &[&str]) -> String {
    let mut out = String::from("<tr>");
    for n in names {
        out += &format!("<th>{}</th>", escape(n));
    }
    out + "</tr>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(printable("a\nb"), "a\\nb");
    }
}
