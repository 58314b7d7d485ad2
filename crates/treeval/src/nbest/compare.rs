//! The tests of `nbest`: chosen against first of every n-best file, on the same
//! sentences.

use treeval_metrics::nbest::{Metric, Pick};
use treeval_report::driver::Tested;
use treeval_report::nbest::system_index;
use treeval_stats::compare::{CompareConfig, Comparison, Ranking};

use super::{Evaluated, Inputs, Options};
use crate::Common;

/// The tests `common` asks for, their note, signature parts and settings, in `report`.
pub(super) fn run(
    options: &Options,
    inputs: &Inputs,
    common: &Common,
    e: &Evaluated,
    report: &mut treeval_report::Report,
) {
    let cfg = common.compare_config();
    if !cfg.tests.is_empty() {
        (report.comparisons, report.rankings) = tests(options, inputs, common, e, &cfg);
        report.notes.push("the tests compare chosen with first of each n-best file, on the same sentences; best and worst are not tested and have no rank (–); with several files, ranks order first and chosen within each file".into());
    }
    if !cfg.tests.is_empty() || common.ci.is_some() {
        crate::significance::sign(common, &cfg, &mut report.signature);
    }
    report.significance = crate::significance::settings(common, &cfg, &options.test_metrics);
}

/// Chosen against first of every file, on the same sentences, with the shared tests; the
/// ranks of first and chosen within each file (best and worst, not tested, have none).
fn tests(
    options: &Options,
    inputs: &Inputs,
    common: &Common,
    e: &Evaluated,
    cfg: &CompareConfig,
) -> (Vec<Comparison>, Vec<Ranking>) {
    let ms = treeval_metrics::nbest::pick_measures();
    let alpino = inputs.is_alpino();
    let mut out = Vec::new();
    let mut ranks: Vec<Ranking> = Vec::new();
    for (k, f) in e.files.iter().enumerate() {
        let disc = e.discordant.as_ref().map(|d| d[k]);
        // McNemar's discordant words of each metric (the pair is always first, chosen)
        let decisions: Vec<_> = Metric::ALL
            .iter()
            .map(|m| {
                let d = disc.map(|d| d[m.index()]).unwrap_or_default();
                move |_: usize, _: usize| d
            })
            .collect();
        let tested: Vec<Tested<'_>> = ms
            .iter()
            .filter(|m| options.test_metrics.iter().any(|t| t == m.name))
            // evaluate.pl's lines give the CA triples only: CA, macro-CA and their P, R, F
            .filter(|m| !alpino || m.name.ends_with("CA") || matches!(m.name, "P" | "R" | "F"))
            .map(|m| {
                let metric = Metric::ALL.into_iter().find(|x| x.name() == m.name);
                let d = match (metric, disc) {
                    (Some(x), Some(_)) => {
                        Some(&decisions[x.index()] as treeval_report::driver::Decisions<'_>)
                    }
                    _ => None,
                };
                (m, d)
            })
            .collect();
        let systems = vec![f.picks[0].clone(), f.picks[3].clone()];
        let (mut cmp, rks) = treeval_report::driver::tests(&tested, &systems, cfg, &|l, d, t| {
            common.progress(l, d, t)
        });
        for c in &mut cmp {
            c.a = system_index(k, Pick::First);
            c.b = system_index(k, Pick::Chosen);
        }
        out.extend(cmp);
        for rk in rks {
            let i = match ranks
                .iter()
                .position(|r| r.metric == rk.metric && r.test == rk.test)
            {
                Some(i) => i,
                None => {
                    ranks.push(Ranking {
                        ranks: vec![None; 4 * e.files.len()],
                        ..rk.clone()
                    });
                    ranks.len() - 1
                }
            };
            ranks[i].ranks[system_index(k, Pick::First)] = rk.ranks[0];
            ranks[i].ranks[system_index(k, Pick::Chosen)] = rk.ranks[1];
        }
    }
    (out, ranks)
}
