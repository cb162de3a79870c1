//! Self-contained HTML pages: a game's replay (`botzone replay LOG --html`)
//! and a match's report (`botzone report RESULTS --html`).
//!
//! Each page is one file with its CSS, its scripts and its data inline: no
//! network, no fonts, nothing to install. A Content-Security-Policy
//! `<meta>` forbids every network source, and a guard script shows any
//! error the page meets in `#errors` (and counts them on `<html
//! data-errors>`), so that a test reading the DOM sees them.
//!
//! The replay page is the same for every game (controls, seats' table,
//! chart, `player.js`); the board is the game's own: its
//! [`botzone::games::render::Render`] script and frames.

use std::fmt::Write as _;

pub mod replay;
pub mod report;

/// The policy every page carries: scripts and styles inline only, images
/// only as `data:`, nothing fetched.
pub const CSP: &str =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = include_str!("page.css");
const GUARD: &str = include_str!("guard.js");

/// Text escaped for HTML content and attributes.
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

/// JSON made safe inside a `<script>` element (no `<` at all: JSON has
/// `<` only inside strings, where `\u003c` means the same).
pub fn script_json(value: &serde_json::Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// A script made safe inside a `<script>` element.
fn script_text(code: &str) -> String {
    code.replace("</script", "<\\/script")
}

/// A whole page: `body` (HTML) then `scripts` (JavaScript, each in its own
/// `<script>`, after the guard).
pub fn page(title: &str, extra_style: &str, body: &str, scripts: &[&str]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}{extra_style}</style>\n\
         <script>\n{}</script>\n</head>\n<body>\n\
         <div id=\"errors\" hidden></div>\n{body}\n",
        escape(title),
        script_text(GUARD)
    );
    for script in scripts {
        let _ = write!(out, "<script>\n{}\n</script>\n", script_text(script));
    }
    out.push_str("</body>\n</html>\n");
    out
}
