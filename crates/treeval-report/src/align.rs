//! The `align` report on the shared model: precision, recall, F and AER of every
//! hypothesis alignment against sure and possible gold links, with intervals.

use treeval_formats::align::AlignmentFile;
use treeval_metrics::align::{measures, AlignCounts};

use crate::driver::Intervals;
use crate::model::{Signature, Warning};
use crate::value::{Input, Report, System};

/// One `align` evaluation, as the report needs it.
#[derive(Debug, Clone, Copy)]
pub struct AlignIn<'a> {
    /// The gold alignment.
    pub gold: &'a AlignmentFile,
    /// The hypothesis alignments.
    pub hyps: &'a [AlignmentFile],
    /// Every hypothesis' counts, one per sentence.
    pub per_hyp: &'a [Vec<AlignCounts>],
    /// Every hypothesis' summed counts.
    pub totals: &'a [AlignCounts],
    /// The gold's own counts (sentences, sure and possible links).
    pub gold_counts: &'a AlignCounts,
    /// α of the F-measure.
    pub f_alpha: f64,
    /// Whether links with a NULL side were scored.
    pub keep_null: bool,
}

impl AlignIn<'_> {
    /// "include" or "exclude" (links with a NULL side).
    fn null(&self) -> &'static str {
        if self.keep_null {
            "include"
        } else {
            "exclude"
        }
    }
}

/// The signature of the conventions of `e` (and of `--sentences` when given).
pub fn signature(e: &AlignIn<'_>, sentences: Option<u64>) -> Signature {
    let mut signature = Signature::new(
        "align",
        &[
            ("null", e.null().into()),
            ("f-alpha", e.f_alpha.to_string()),
        ],
    );
    if let Some(n) = sentences {
        signature.push("sentences", n.to_string());
    }
    signature
}

/// Build the report: the inputs, the notes and the scores section (with the intervals `ci`).
pub fn build(
    signature: Signature,
    e: &AlignIn<'_>,
    ci: Option<Intervals>,
    warnings: Vec<Warning>,
) -> Report {
    let mut r = Report::new("align", signature);
    r.convention("f-alpha", e.f_alpha);
    r.convention("null", e.null());
    inputs_and_notes(&mut r, e);
    let ms = measures(e.f_alpha);
    r.add_measures::<AlignCounts>(&ms);
    r.sections
        .push(crate::driver::section("scores", "", &ms, e.per_hyp, ci));
    r.warnings = warnings;
    r
}

/// The report's inputs and systems, and a note per hypothesis with NULL, repeated or
/// doubly tagged links.
fn inputs_and_notes(r: &mut Report, e: &AlignIn<'_>) {
    let (gold, null) = (e.gold_counts, e.null());
    r.inputs.push(Input {
        role: "gold".into(),
        path: e.gold.path.to_string(),
        format: e.gold.format.name().into(),
        description: format!(
            "{} sentences, {} sure + {} possible-only links",
            gold.sentences,
            gold.s,
            gold.p - gold.s
        ),
        counts: serde_json::json!({
            "sentences": gold.sentences,
            "s": gold.s,
            "p": gold.p,
        }),
        system: None,
    });
    for (k, (h, t)) in e.hyps.iter().zip(e.totals).enumerate() {
        r.inputs.push(Input {
            role: "system".into(),
            path: h.path.to_string(),
            format: h.format.name().into(),
            description: format!("{} links", t.a),
            counts: serde_json::to_value(t).unwrap_or_default(),
            system: Some(k),
        });
        r.systems.push(System {
            name: h.path.to_string(),
            inputs: vec![k + 1],
        });
        if t.hyp_null + t.hyp_duplicates + t.hyp_both > 0 {
            r.notes.push(format!(
                "{}: {} link(s) with a NULL side ({null}), {} repeated link(s), {} link(s) tagged both S and P",
                h.path, t.hyp_null, t.hyp_duplicates, t.hyp_both
            ));
        }
    }
}
