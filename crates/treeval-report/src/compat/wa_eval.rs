//! The WPT scorer `wa_eval_align.pl` (Mihalcea & Pedersen 2003): its blocks.

use std::fmt::Write as _;

use treeval_metrics::align::AlignCounts;

/// The output of the WPT scorer `wa_eval_align.pl`, as it computes it: its "SURE" block
/// scores the hypothesis links tagged S (or untagged); its "PROBABLE" block iterates over
/// the P-tagged and then the S-tagged hypothesis links, so a link tagged both counts
/// twice, and divides recall by |S| + |gold links tagged P| (a gold link tagged both
/// counts twice there too); an empty hypothesis gets AER 0 and an undefined ratio 0.
/// The caller warns where these differ from the report's numbers.
pub fn wa_eval_align(d: &AlignCounts) -> String {
    let div = |n: u64, m: u64| if m == 0 { 0.0 } else { n as f64 / m as f64 };
    let f = |p: f64, r: f64| {
        if p != 0.0 && r != 0.0 {
            2.0 * r * p / (r + p)
        } else {
            0.0
        }
    };
    // |S-tagged| + |P-tagged| submitted links, and the two matches of its loops
    let submitted = d.a + d.hyp_both;
    let probable_match = d.a_and_p + d.hyp_both_and_p;
    let probable_match_sure = d.a_and_s + d.hyp_both_and_s;
    let sp = div(d.hyp_sure_and_s, d.hyp_sure);
    let sr = div(d.hyp_sure_and_s, d.s);
    let pp = div(probable_match, submitted);
    let pr = div(probable_match, d.s + d.gold_possible_only + d.gold_both);
    let aer = if submitted == 0 {
        0.0
    } else {
        1.0 - (probable_match_sure + probable_match) as f64 / (submitted + d.s) as f64
    };
    let mut o = String::new();
    o.push_str("\nThe following results assume correct file formats.\n");
    o.push_str("Make sure you have previously checked the file format\n");
    o.push_str("using wa_check_submission.pl\n\n");
    o.push_str("\n    Word Alignment Evaluation   \n");
    o.push_str("----------------------------------\n");
    o.push_str("   Evaluation of SURE alignments \n");
    let _ = writeln!(o, "   Precision = {sp:5.4}  ");
    let _ = writeln!(o, "   Recall    = {sr:5.4}");
    let _ = writeln!(o, "   F-measure = {:5.4}", f(sp, sr));
    o.push_str("-----------------------------------\n");
    o.push_str("   Evaluation of PROBABLE alignments\n");
    let _ = writeln!(o, "   Precision = {pp:5.4}");
    let _ = writeln!(o, "   Recall    = {pr:5.4}");
    let _ = writeln!(o, "   F-measure = {:5.4}", f(pp, pr));
    o.push_str("-----------------------------------\n");
    let _ = writeln!(o, "   AER       = {aer:5.4}");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wa_eval_counts_as_the_script_does() {
        // the script prints AER 0 for an empty hypothesis
        let c = AlignCounts {
            s: 3,
            p: 3,
            ..AlignCounts::default()
        };
        assert!(wa_eval_align(&c).ends_with("   AER       = 0.0000\n"));
        // one hypothesis link tagged S and P against one sure gold link: the script's
        // PROBABLE loop counts it twice (wa_eval_align.pl on gold `1 1 1 S` and hypothesis
        // `1 1 1 S` + `1 1 1 P` prints recall 2.0000 and AER -0.3333)
        let c = AlignCounts {
            a: 1,
            s: 1,
            p: 1,
            a_and_s: 1,
            a_and_p: 1,
            hyp_sure: 1,
            hyp_sure_and_s: 1,
            hyp_possible: 1,
            hyp_both: 1,
            hyp_both_and_p: 1,
            hyp_both_and_s: 1,
            ..AlignCounts::default()
        };
        let w = wa_eval_align(&c);
        assert!(w.contains("   Recall    = 2.0000\n"), "{w}");
        assert!(w.ends_with("   AER       = -0.3333\n"), "{w}");
    }
}
