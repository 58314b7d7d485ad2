//! `ted`: TedEval (Tsarfaty, Nivre & Andersson 2011) of dependency or constituency parses
//! across annotation schemes, and the tree edit distance of tree pairs.
//!
//! ```no_run
//! let inputs = treeval::ted::Inputs::gold_parses("gold.conllu", ["parse.conllu"]);
//! let ev = treeval::ted::evaluate(
//!     &treeval::ted::Options::default(),
//!     &inputs,
//!     &treeval::Common::default(),
//! )?;
//! println!("{:?}", ev.report.cell("TedEval", 0).map(|c| c.value));
//! # Ok::<(), treeval::Error>(())
//! ```

use std::collections::HashMap;
use treeval_report::names::role;

use serde::{Deserialize, Serialize};
use treeval_formats::ReaderBuilder;
use treeval_metrics::select::Selection;
use treeval_metrics::ted::DEFAULT_MAX_COST;
use treeval_metrics::tedeval::run::{evaluate_counts, Experiment, TedEvalOptions, TedEvalResult};
use treeval_report::model::Warning;
use treeval_report::records::Record;
use treeval_report::ted::{build, tested_name, tests, TedShown};
use treeval_report::{Report, Signature};
use treeval_stats::compare::{CompareConfig, TestKind};

use crate::records::Records;
use crate::{Common, Error, Evaluation, Input, Result};

mod distance;

pub use distance::distances;

/// Labels of bracketed (constituency) trees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum BracketLabels {
    /// Cut at the first '-' or '=' (EVALB).
    #[default]
    Category,
    /// Keep labels as written.
    Full,
}

impl BracketLabels {
    /// The value's name (`category`, `full`).
    pub fn name(self) -> &'static str {
        match self {
            BracketLabels::Category => "category",
            BracketLabels::Full => "full",
        }
    }
}

/// The options of `ted`. `Default` is the command line's defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Relabelling costs nothing (unlabeled TedEval; unlabeled distances).
    pub unlabeled: bool,
    /// Corpus score as the mean of the sentence scores instead of 1 − Σδ_new / Σι.
    pub micro: bool,
    /// With two or more systems, no default test (approximate randomization).
    pub no_test: bool,
    /// Work limit of one edit distance, in table cells (default 150000000).
    pub max_cost: Option<u64>,
    /// Labels of bracketed files: cut at the first '-' or '=', or kept whole.
    pub bracket_labels: BracketLabels,
    /// [`distances`]: each pair's edit script too.
    pub script: bool,
}

/// One cross-scheme experiment: a scheme's gold and a parse in that scheme.
#[derive(Debug, Clone)]
pub struct Exp {
    /// The name the report gives the parse.
    pub name: String,
    /// The scheme's gold.
    pub gold: Input,
    /// The parse.
    pub parse: Input,
}

impl Exp {
    /// An experiment from the command line's `NAME:GOLD:PARSE` (paths).
    pub fn parse(spec: &str) -> Result<Self> {
        let parts: Vec<&str> = spec.splitn(3, ':').collect();
        match parts.as_slice() {
            [name, gold, parse] if !name.is_empty() && !gold.is_empty() && !parse.is_empty() => {
                Ok(Exp {
                    name: (*name).to_owned(),
                    gold: Input::from(*gold),
                    parse: Input::from(*parse),
                })
            }
            _ => Err(Error::Usage(format!(
                "--exp expects NAME:GOLD:PARSE (three parts separated by ':'), found '{spec}'"
            ))),
        }
    }
}

/// The inputs of `ted`: a gold and its parses, cross-scheme experiments, or both; a
/// label-equivalence file; or, for [`distances`], a file of tree pairs.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// The gold of one scheme (`--gold`), which every `parse` is scored against.
    pub gold: Option<Input>,
    /// Parses in the scheme of `gold`, each a system named by its path.
    pub parse: Vec<Input>,
    /// Cross-scheme experiments (`--exp`), after the parses of `gold`.
    pub exp: Vec<Exp>,
    /// Label equivalences (`--label-equiv`): labels per line that count as one.
    pub label_equiv: Option<Input>,
    /// Tree pairs in APTED's bracket notation (`--distance`), for [`distances`].
    pub distance: Option<Input>,
}

impl Inputs {
    /// The warnings about parses that are their gold ([`crate::input::gold_copies`]).
    fn gold_copies(&self) -> Vec<treeval_report::model::Warning> {
        let parses = (self.gold.iter()).flat_map(|g| self.parse.iter().map(move |p| (g, p)));
        let exps = self.exp.iter().map(|e| (&e.gold, &e.parse));
        crate::input::gold_copies(parses.chain(exps))
    }

    /// The inputs' identities, as a state names them: `--gold` (if given) as the gold,
    /// each parse a system, each experiment a system of its gold and parse.
    pub fn identity(&self) -> treeval_report::state::ShardInputs {
        let parses = self.parse.iter().map(|p| vec![p.file_id()]);
        let exps = (self.exp.iter()).map(|e| vec![e.gold.file_id(), e.parse.file_id()]);
        treeval_report::state::ShardInputs {
            gold: self.gold.iter().map(Input::file_id).collect(),
            systems: parses.chain(exps).collect(),
        }
    }

    /// `gold` and its parses.
    pub fn gold_parses<G: Into<Input>, P: Into<Input>>(
        gold: G,
        parses: impl IntoIterator<Item = P>,
    ) -> Self {
        Inputs {
            gold: Some(gold.into()),
            parse: parses.into_iter().map(Into::into).collect(),
            ..Inputs::default()
        }
    }

    /// The inputs with their roles (`gold`, `system`, …), as the
    /// per-sentence header names them.
    pub fn roles(&self) -> Vec<(&str, &str)> {
        let mut v = Vec::new();
        v.extend(self.gold.iter().map(|p| (role::GOLD, p.name())));
        v.extend(self.parse.iter().map(|p| (role::SYSTEM, p.name())));
        for e in &self.exp {
            v.push((role::GOLD, e.gold.name()));
            v.push((role::SYSTEM, e.parse.name()));
        }
        v.extend(
            self.label_equiv
                .iter()
                .map(|p| (role::LABEL_EQUIVALENCES, p.name())),
        );
        v.extend(self.distance.iter().map(|p| (role::TREE_PAIRS, p.name())));
        v
    }

    /// The systems' display names: given (`--name`), or the short names of the parses
    /// (`--parse`) followed by the experiments' names (`--exp NAME:…`).
    fn display_names(&self, common: &Common) -> Vec<String> {
        if !common.names.is_empty() {
            return common.names.clone();
        }
        let parses: Vec<&str> = if self.gold.is_some() {
            self.parse.iter().map(Input::name).collect()
        } else {
            Vec::new()
        };
        let mut names = treeval_report::names::short(&parses);
        names.extend(self.exp.iter().map(|e| e.name.clone()));
        names
    }

    /// The experiments (usage errors: none given, standard input).
    fn experiments(&self) -> Result<Vec<Experiment>> {
        let mut builder = ReaderBuilder::new();
        builder.validate_deps(false);
        let input = |i: &Input| i.with(builder.clone());
        let mut out = Vec::new();
        if let Some(gold) = &self.gold {
            for p in &self.parse {
                out.push(Experiment {
                    name: p.name().to_owned(),
                    gold: input(gold),
                    parse: input(p),
                });
            }
        }
        for e in &self.exp {
            out.push(Experiment {
                name: e.name.clone(),
                gold: input(&e.gold),
                parse: input(&e.parse),
            });
        }
        if out.is_empty() {
            return Err(Error::Usage(
                "give --gold FILE --system FILE, or one or more --exp NAME:GOLD:PARSE, or --distance FILE".into(),
            ));
        }
        let stdin = out
            .iter()
            .flat_map(|e| [&e.gold, &e.parse])
            .filter(|i| i.data.is_none() && i.path == "-")
            .count();
        if stdin > 0 {
            return Err(Error::Usage(
                "treeval ted reads each gold file once per experiment: give file paths, not '-'"
                    .into(),
            ));
        }
        Ok(out)
    }
}

/// Read a label-equivalence file: label → the first label of its line.
fn equivalences(input: Option<&Input>) -> Result<HashMap<String, String>> {
    let Some(input) = input else {
        return Ok(HashMap::new());
    };
    let text = crate::input::read_text(input, "label equivalences (labels per line)")?;
    treeval_formats::equiv::parse_equivalences(&text, input.name())
        .map_err(|problems| Error::Eval(problems.join("\n")))
}

/// Evaluate every experiment of `inputs` with TedEval.
///
/// Two or more systems are tested by approximate randomization unless `no_test` or a
/// `common.test` says otherwise; with `common.state` the evaluation carries its state.
/// (Tree pairs are measured by [`distances`].)
pub fn evaluate(options: &Options, inputs: &Inputs, common: &Common) -> Result<Evaluation> {
    common.validate()?;
    // `where` selects words, which TedEval's trees cannot leave out
    common.refuse_where("ted")?;
    let exps = inputs.experiments()?;
    common.check_names(exps.len(), "system (each --system, then each --exp)")?;
    let names = inputs.display_names(common);
    let equivalences = equivalences(inputs.label_equiv.as_ref())?;
    let cfg = test_config(common, options.no_test, exps.len())?;
    let resample = !cfg.tests.is_empty() || common.ci.is_some();
    let opts = TedEvalOptions {
        unlabeled: options.unlabeled,
        selection: crate::select::selection(common)?,
        max_cost: options.max_cost,
        equivalences,
        keep_sentences: resample || common.per_sentence.is_some() || common.state,
        brackets: treeval_metrics::tedeval::BracketConversion {
            drop_tags: vec!["-NONE-".into()],
            cut_labels: options.bracket_labels == BracketLabels::Category,
        },
        keep_edits: common.errors,
    };
    let mut r = evaluate_counts(&exps, &opts).map_err(|e| Error::Eval(e.to_string()))?;
    let part = common.is_part();
    crate::select::check_kept_unless_part(&opts.selection, &r.selection, part)?;
    check_scored(&r, (&opts.selection, options.max_cost), part)?;
    let label_equiv = inputs.label_equiv.as_ref().map(Input::name);
    let state = common.state.then(|| {
        let o = treeval_report::state::TedStateOptions {
            unlabeled: options.unlabeled,
            micro: options.micro,
            no_test: options.no_test,
            max_cost: options.max_cost,
            label_equiv: label_equiv.map(str::to_owned),
            equivalences: opts.equivalences.clone().into_iter().collect(),
            bracket_labels: options.bracket_labels.name().to_owned(),
        };
        treeval_report::state::State::of_ted(&r, o)
            .with_selection(&opts.selection, &r.selection)
            .with_names(names.clone(), !common.names.is_empty())
            .with_inputs(inputs.identity())
    });
    // after the state, which holds the counts the checks are made again from
    r.corpus_checks();
    per_sentence(inputs, common, &r)?;
    let shown = Present {
        common,
        options,
        label_equiv,
    };
    let mut report = present(&shown, &r, &cfg, &opts.selection)?;
    report.name_systems(&names);
    report.warnings.extend(inputs.gold_copies());
    Ok(Evaluation::new(report, state, None))
}

/// How a TedEval result is shown: the shared options, `ted`'s options and the label
/// equivalences' name (from a run, or from the options of a state in `merge`).
#[derive(Debug)]
pub struct Present<'a> {
    /// Significance, selection and output options.
    pub common: &'a Common,
    /// `ted`'s options.
    pub options: &'a Options,
    /// The label equivalences as given (the signature's `equiv`).
    pub label_equiv: Option<&'a str>,
}

/// The report of a TedEval result `r` (the part shared by `ted` and `merge`): the
/// warnings, signature and tables, the edit operations when `errors` asks for them, the
/// sentence selection `sel`, and the tests of `cfg` with their settings.
pub fn present(
    p: &Present,
    r: &TedEvalResult,
    cfg: &CompareConfig,
    sel: &Selection,
) -> Result<Report> {
    let (common, set) = (p.common, p.options);
    let shown = TedShown {
        unlabeled: set.unlabeled,
        micro: set.micro,
        resample: !cfg.tests.is_empty() || common.ci.is_some(),
        ci: crate::significance::intervals(common),
    };
    let mut report = build(signature(p, r), r, shown, warnings(r));
    if common.errors {
        report.listings = r
            .experiments
            .iter()
            .enumerate()
            .map(|(k, x)| treeval_report::errors::ted_errors(k, &x.edits))
            .collect();
        report.notes.push("--errors: per system, the edit operations of its optimal script against the generalized gold that the script of its own gold does not have too (an operation is the same when its type, node yield and labels are); they make up δ_new, one each".into());
    }
    let unit = ("words", true);
    crate::select::record(&mut report, sel, &r.selection, unit, common.is_part())?;
    if !cfg.tests.is_empty() {
        (report.comparisons, report.rankings) =
            tests(r, set.micro, cfg, &|l, d, t| common.progress(l, d, t));
    }
    if !cfg.tests.is_empty() || common.ci.is_some() {
        crate::significance::sign(common, cfg, &mut report.signature);
    }
    let tested = [tested_name(set.micro).to_owned()];
    report.significance = crate::significance::settings(common, cfg, &tested);
    Ok(report)
}

/// The tests asked for among `experiments`: McNemar is refused (no paired decisions), a
/// test needs two experiments, and two or more are tested by approximate randomization
/// unless `no_test`.
pub fn test_config(common: &Common, no_test: bool, experiments: usize) -> Result<CompareConfig> {
    let mut cfg = common.compare_config();
    if cfg.tests.contains(&TestKind::Mcnemar) {
        return Err(Error::Usage(
            "--test mcnemar needs paired binary decisions; TedEval scores are sentence distances: use --test ar or --test bootstrap".into(),
        ));
    }
    if !cfg.tests.is_empty() && experiments < 2 {
        return Err(Error::Usage(
            "--test compares systems: give at least two parses or experiments".into(),
        ));
    }
    if cfg.tests.is_empty() && experiments >= 2 && !no_test {
        cfg.tests = vec![TestKind::Ar];
    }
    Ok(cfg)
}

/// The evaluation's warnings, and one when no sentence was scored.
fn warnings(r: &TedEvalResult) -> Vec<Warning> {
    let mut warnings = treeval_report::model::warnings_of(&r.warnings);
    if r.scored == 0 {
        let why = if r.sentences == 0 {
            "the files hold no sentence".to_owned()
        } else if r.selection.kept == 0 {
            format!(
                "the sentence selection kept none of the {} sentences",
                r.sentences
            )
        } else {
            format!(
                "all {} sentences were left out (over the size limit)",
                r.sentences
            )
        };
        let message =
            format!("no sentence was scored: {why}; TedEval is not applicable (n/a, null in JSON)");
        warnings.push(Warning::of(
            treeval_report::model::WarningKind::NothingScored,
            String::new(),
            message,
            None,
        ));
    }
    warnings
}

/// The signature of the run (without the tests', which come after them).
fn signature(p: &Present, r: &TedEvalResult) -> Signature {
    let a = p.options;
    let mut signature = Signature::new(
        "ted",
        &[
            ("experiments", r.experiments.len().to_string()),
            (
                "labels",
                if a.unlabeled { "unlabeled" } else { "labeled" }.into(),
            ),
            ("costs", "unit".into()),
            ("average", if a.micro { "micro" } else { "global" }.into()),
            ("equiv", p.label_equiv.unwrap_or("none").to_owned()),
        ],
    );
    if let Some(n) = a.max_cost {
        signature.push("max-cost", n.to_string());
    }
    // a bracketed side leaves an experiment without attachment scores
    if r.experiments.iter().any(|x| x.attachment.is_none()) {
        signature.push("bracket-labels", a.bracket_labels.name().into());
    }
    signature
}

/// The per-sentence records: one per sentence and experiment.
fn per_sentence(inputs: &Inputs, common: &Common, r: &TedEvalResult) -> Result<()> {
    if common.per_sentence.is_none() {
        return Ok(());
    }
    let mut sink = Records::open(common.per_sentence.as_ref(), "ted", &inputs.roles());
    for (k, x) in r.experiments.iter().enumerate() {
        for (&i, c) in r.numbers.iter().zip(&x.sentences) {
            let scored = c.sentences == 1;
            sink.write(
                &Record::of(i, k, c)
                    .extra("experiment", &x.name)
                    .extra("scored", scored)
                    .extra("score", scored.then_some(c.sum_sentence_score)),
            );
        }
    }
    sink.finish()
}

/// The rule of [`crate::select::nothing_scored`] for a TedEval run `r` (the family's and
/// a merge's): every kept sentence over the edit distance's limits (`max_cost`, 5000
/// words) leaves nothing to score.
pub fn check_scored(
    r: &TedEvalResult,
    (sel, max_cost): (&Selection, Option<u64>),
    part: bool,
) -> Result<()> {
    // a sentence is scored for every experiment or for none
    let why = move || {
        crate::select::Nothing {
        why: format!(
            "all {} sentences kept of the {} read are over the edit distance's limits (--max-cost {}, at most {} words)",
            r.too_large.0,
            r.sentences,
            max_cost.unwrap_or(DEFAULT_MAX_COST),
            treeval_metrics::tedeval::run::MAX_WORDS
        ),
        lift: "raise --max-cost: each sentence's warning (without -q) names the --max-cost that scores it".into(),
    }
    };
    let each = [(r.scored, Box::new(why) as Box<dyn FnOnce() -> _>)];
    crate::select::nothing_scored(each, (sel, &r.selection), part)
}
