//! The sentence browser of the HTML page: a static note, the data block
//! (`docs/html-page.md`) and the script that shows it.

use std::io::{self, Write};

use super::html::esc;
use super::plots::{histogram, Chart};
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
    if let Some(c) = distribution(b) {
        super::html::figure(w, "chart", "per-sentence", &c)?;
    }
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

/// The distribution of the sentences' scores on the page (AER for alignments, F for
/// brackets, else the first column), one colour per system.
fn distribution(b: &Browser) -> Option<Chart> {
    let col = ["AER", "F"]
        .iter()
        .find_map(|c| b.columns.iter().position(|x| x == c))
        .unwrap_or(0);
    let name = b.columns.get(col)?;
    let series: Vec<(String, Vec<f64>)> = b
        .systems
        .iter()
        .enumerate()
        .map(|(k, sys)| {
            let values = b
                .sentences
                .iter()
                .filter_map(|s| s.scores.get(k).and_then(|v| v.get(col).copied().flatten()))
                .collect();
            (sys.clone(), values)
        })
        .collect();
    let shown = if b.sampled {
        "the sentences on the page"
    } else {
        "every sentence"
    };
    histogram(
        &format!("{name} per sentence ({shown}; sentences without a {name} are left out)"),
        &format!("{name} (%)"),
        &series,
        0.0,
        100.0,
        10,
    )
}
