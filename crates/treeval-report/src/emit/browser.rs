//! The sentence browser of the HTML page: a static note, the data block
//! (`docs/html-page.md`) and the script that shows it.

use std::io::{self, Write};

use super::html::esc;
use crate::browse::Browser;

/// The browser's style, inlined into the page's `<style>`.
pub(super) const STYLE: &str = include_str!("browser.css");

/// The script, inlined into the page (it reads `#treeval-data`).
const SCRIPT: &str = include_str!("browser.js");

/// The `#browser` section of the page.
pub(super) fn emit(b: &Browser, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "<section id=\"browser\">\n<h2>Sentences</h2>")?;
    let mut note = format!(
        "{} of {} sentences, {} system{}.",
        b.sentences.len(),
        b.total,
        b.systems.len(),
        if b.systems.len() == 1 { "" } else { "s" }
    );
    if !b.note.is_empty() {
        note.push(' ');
        note.push_str(&b.note);
    }
    writeln!(w, "<p id=\"browser-note\">{}</p>", esc(&note))?;
    writeln!(
        w,
        "<noscript><p>The sentence browser needs JavaScript; the tables and charts above do \
         not.</p></noscript>\n<div id=\"browser-app\"></div>"
    )?;
    writeln!(
        w,
        "<script type=\"application/json\" id=\"treeval-data\">{}</script>",
        b.to_script_json()
    )?;
    writeln!(w, "<script>\n{SCRIPT}</script>\n</section>")
}
