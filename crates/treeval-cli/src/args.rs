//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Evaluate syntactic parses against gold standards, with the numbers of the reference
/// scorers (eval.pl, eval07.pl, MaltEval, conll18_ud_eval.py, EVALB).
#[derive(Debug, Parser)]
#[command(name = "treeval", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success; 1 evaluation error (unreadable or malformed input, files that do not pair up, or nothing scored: every unit left out by a limit, --where, a selection, a punctuation policy or error sentences, with the reason and the option that lifts it; a part written with --emit-state reports n/a instead); 2 usage error."
)]
pub struct Cli {
    /// What to evaluate.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands: one per evaluation family.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Dependency parsing scores: LAS, UAS, LA, exact match, root accuracy, macro
    /// averages, per-relation P/R/F1, breakdowns (CoNLL-X / CoNLL 2007 definitions).
    Deps(DepsArgs),
    /// Word-alignment scores against sure/possible gold links: precision, recall, AER,
    /// F (Och & Ney 2003), sure-set and possible-set precision/recall, per sentence too.
    Align(AlignArgs),
    /// The parallel treebank score: both sides' UAS and the alignment's 1 − AER in one
    /// weighted number, with every component shown.
    Pts(PtsArgs),
    /// The CoNLL 2018 UD metrics (conll18_ud_eval.py v1.2 / udeval): tokens, sentences
    /// and words aligned by characters, tags, lemmas, UAS, LAS, CLAS, MLAS, BLEX.
    Ud(UdArgs),
    /// Set-of-relations accuracy (van Noord et al., Alpino, 2002): precision, recall, F1
    /// and concept accuracy CA of (head, label, dependent) triples, per sentence, micro
    /// and macro; words identified through the `ud` alignment.
    Relations(RelationsArgs),
    /// Constituency brackets (PARSEVAL) exactly as EVALB computes them: recall,
    /// precision, F-measure, complete match, crossing brackets, tagging accuracy, for all
    /// sentences and up to a cut-off length; `--compat evalb` prints EVALB's output.
    Brackets(BracketsArgs),
    /// TedEval (Tsarfaty, Nivre & Andersson 2011): parses of one or several annotation
    /// schemes scored by tree edit distance against the generalization of their gold
    /// standards, beside LAS against their own gold; `--distance` measures tree pairs.
    Ted(TedArgs),
    /// One table of systems × treebanks for one measure, with each system's macro average
    /// over treebanks and tests against a baseline (Holm–Bonferroni across treebanks),
    /// from a manifest of files or from saved JSON reports.
    Table(TableArgs),
    /// n-best evaluation (van Noord et al. 2002; Alpino's evaluate.pl): every candidate
    /// parse of each sentence scored against gold (LAS, UAS, LA, concept accuracy CA);
    /// the first, best (oracle), worst and chosen (highest parser score) candidates, micro
    /// and macro, exact and phi; `--compat alpino` prints evaluate.pl's output.
    Nbest(NbestArgs),
    /// Evaluation-weighted parse reranking (van Noord et al. 2002): train a log-linear
    /// model over the candidates of n-best lists, apply it to choose one parse per
    /// sentence.
    #[command(subcommand)]
    Rerank(RerankCommand),
    /// Merge the states of shards (written with --emit-state FILE by `deps`, `ud`,
    /// `relations`, `brackets`, `align`, `ted` or `pts`) into the report of the
    /// concatenated corpus: the same tables, tests and intervals as one run on the
    /// concatenated files.
    Merge(MergeArgs),
    /// Every family's measures: name, formula, source and the reference tool whose number
    /// each equals (docs/measures.md is `treeval measures --format markdown`).
    Measures(MeasuresArgs),
}

/// `treeval measures` arguments.
#[derive(Debug, Args)]
pub struct MeasuresArgs {
    /// Output format: text (fits 100 columns), markdown (docs/measures.md) or json
    /// (schema treeval.measures/1).
    #[arg(long, value_enum, default_value_t = MeasuresFormatArg::Text)]
    pub format: MeasuresFormatArg,
}

/// `treeval measures --format`.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MeasuresFormatArg {
    /// Plain text, at most 100 columns.
    Text,
    /// Markdown tables, one per family.
    Markdown,
    /// JSON.
    Json,
}

impl From<MeasuresFormatArg> for treeval_report::measures::MeasuresFormat {
    fn from(f: MeasuresFormatArg) -> Self {
        match f {
            MeasuresFormatArg::Text => Self::Text,
            MeasuresFormatArg::Markdown => Self::Markdown,
            MeasuresFormatArg::Json => Self::Json,
        }
    }
}

pub use treeval::measures::{test_metric_names, Measures, TEST_METRIC_FAMILIES};

/// The value parser of a `--test-metrics`: the names of [`test_metric_names`] in any
/// case, given back as the measure writes them; `--help` lists them with their titles
/// (clap's possible values), so the help and the accepted values are the measures'.
#[derive(Debug, Clone, Copy)]
pub struct TestMetrics(pub Measures);

impl clap::builder::TypedValueParser for TestMetrics {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let measures = self.0;
        let check = move |s: &str| treeval::measures::test_metric(measures, s);
        check.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let ms = (self.0)();
        let values = ms
            .into_iter()
            .filter(|m| m.is_testable())
            .map(|m| clap::builder::PossibleValue::new(m.name).help(m.title));
        Some(Box::new(values))
    }
}

/// `treeval merge` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Sharded evaluation: evaluate each shard (the same gold and system sentences split at the same points) with the same command and options plus --emit-state FILE, then merge the state files in corpus order, each shard once (a state whose contents equal another's, whatever its file name, is refused: it would be counted twice). Counts, micro and macro scores, breakdowns, per-relation tables and confusions equal those of one run on the concatenated files; --test and --ci need the per-sentence rows (--keep-sentences, or --test/--ci, when writing the states), and then give the same p-values and intervals for the same --seed. Systems are matched by position (the Nth system file of every shard is system N); the report names each input by its shards' paths joined with ' + ', and the signature records the merge (merged:N).\n\nExamples:\n  treeval deps gold.1.conllu sys.1.conllu --emit-state s1.json --keep-sentences\n  treeval deps gold.2.conllu sys.2.conllu --emit-state s2.json --keep-sentences\n  treeval merge s1.json s2.json --format json --test ar --ci 95\n\nExit codes: 0 success; 1 a state cannot be read or the states do not merge; 2 usage error (a shard given twice too)."
)]
pub struct MergeArgs {
    /// State files written by --emit-state, in corpus order (schema treeval.state/3;
    /// docs/json-schema.md).
    #[arg(value_name = "STATE", required = true, num_args = 1..)]
    pub states: Vec<String>,

    /// Label confusion matrices of the N most frequent labels, as in `deps` (deps states
    /// written with --confusion).
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "12")]
    pub confusion: Option<usize>,

    /// Show per-relation precision/recall/F1 tables in text and Markdown output, as in
    /// `deps` and `ud`.
    #[arg(long)]
    pub per_relation: bool,

    #[command(flatten)]
    pub report: ReportArgs,

    /// Metrics the tests compare, comma-separated, as in the command that wrote the
    /// states [default: that command's: deps LAS,UAS,LA; ud LAS,MLAS,BLEX; relations
    /// CA,CA-macro; brackets F; align AER]. Not for ted and pts states, which test their
    /// own measures (TedEval; UAS_a, UAS_b, AER and PTS).
    #[arg(
        long,
        value_name = "METRICS",
        value_delimiter = ',',
        help_heading = "Significance"
    )]
    pub test_metrics: Vec<String>,
}

/// `treeval table` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "A manifest is a tab-separated file with a header line `treebank<TAB>gold<TAB>system<TAB>file[<TAB>options]`, then one line per system output: the treebank's name, its gold file, the system's name, the system's file (paths relative to the manifest's folder) and, optionally, options of `treeval deps` or `treeval ud` that say how that treebank is scored (`--labels universal --by deprel`; not --compat, --test-metrics or the report's options such as --test and --sent-id, which are the table's; every line of a treebank must have the same gold file and options). Blank lines and lines starting with '#' are skipped. Each treebank is evaluated once, its gold against all its systems, the treebanks in parallel.\n\nSaved reports: a manifest with the header `treebank<TAB>report<TAB>system[<TAB>file]` names them, one line per system: the treebank's name, a JSON report of `treeval deps` or `treeval ud` (--format json; all of one command), the system's name, and which system of the report it is (its file as the report lists it, or the end of that path; not needed when the report has one system). Systems of a report no line names are left out (a note says so). Nothing is named after a file: reports given without a manifest are refused, and the error shows the manifest to write. A saved report keeps no per-sentence counts: tests come only from reports made with --test (their raw p-values, adjusted here across treebanks), intervals only from reports made with --ci at the same level (else n/a and a note).\n\nmacro-avg is the mean of a system's per-treebank scores (the CoNLL 2018 shared-task ranking); a system without a score on some treebank gets n/a there and no macro average, and a note says so.\n\nExamples:\n  treeval table testdata/table/manifest.tsv --baseline sysA\n  treeval table testdata/table/manifest.tsv --rank-by UAS --ci 95 --format latex\n  treeval table reports.tsv --measure LAS --format markdown\n\nExit codes: 0 success; 1 a file cannot be read or evaluated, or the manifest is malformed; 2 usage error."
)]
pub struct TableArgs {
    /// A manifest (.tsv; see below): of files to evaluate, or of JSON reports saved by
    /// `treeval deps` or `treeval ud` with --format json (told apart by its header).
    #[arg(value_name = "MANIFEST", required = true, num_args = 1..)]
    pub inputs: Vec<String>,
    /// The measure in the cells: a `deps` measure (LAS, UAS, LA, LEM, UEM, ROOT, CLAS, …)
    /// or, with `ud`, a metric whose F1 is shown (LAS, MLAS, BLEX, UPOS, Tokens, …).
    #[arg(long, value_name = "NAME", default_value = "LAS")]
    pub measure: String,
    /// Which command evaluates a manifest's files: deps (same words in gold and system)
    /// or ud (tokenizations may differ; F1 of the measure). Saved reports say it themselves.
    #[arg(long, value_enum, default_value_t = TableCommand::Deps)]
    pub command: TableCommand,
    /// Test every other system against this one (a name of the manifest's system column,
    /// or a saved report's system name) on every treebank they share; p-values are
    /// Holm–Bonferroni adjusted across each system's treebanks. Its row comes first.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Order the systems by their mean of this measure over the treebanks (each treebank
    /// weighing the same, as macro-avg), best first; ties keep the table's order (the
    /// baseline first, then order of appearance), and a system without the measure on
    /// every treebank comes last, unranked. The section title and a note say so (LaTeX:
    /// the legend under the table).
    #[arg(long, value_name = "MEASURE")]
    pub rank_by: Option<String>,
    /// Output format, tests (`--test ar|bootstrap`, ar when none is given; one test),
    /// `--samples`, `--seed`, `--alpha` (applied to the Holm–Bonferroni adjusted p-values:
    /// † marks), `--ci` (an interval per cell: each treebank's sentences resampled,
    /// `--ci-samples`, `--seed`; from saved reports, the report's interval; macro-avg has
    /// none), `-q`: as in every command. The latex format is a booktabs tabular for a paper,
    /// with a legend under it (what † means, the test, α, the correction; the ranking).
    /// --one-sided, --per-sentence and --errors do not apply (usage error).
    #[command(flatten)]
    pub report: ReportArgs,
}

/// The command a manifest's files are evaluated with (the library's).
pub use treeval::table::Command as TableCommand;

/// `treeval ted` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  treeval ted --gold gold.conllu --system parsed.conllu\n  treeval ted --exp lexical:ud.conllu:ud-parsed.conllu --exp functional:fn.conllu:fn-parsed.conllu\n  treeval ted --distance pairs.txt --script\n\nEach dependency tree becomes a functional tree (every word heads a node labelled with its relation; a node over several words gets a `*` daughter for its head); a constituency tree is one already (its labels are the functions). With several experiments, the gold trees of each sentence are generalized into one gold (the nodes all of them share); each parse is scored by δ_new: the edit distance to that gold, less the operations its own scheme's gold needs too. Score = 1 − Σδ_new / Σι, ι = nodes of the parse + nodes of the generalized gold. See docs/metrics.md.\n\nCosts: deleting or inserting a node 1; relabelling 0 for equal labels, else 1 (0 with --unlabeled).\n\nExit codes: 0 success; 1 a file cannot be read, is malformed, or the files do not pair up; 2 usage error."
)]
pub struct TedArgs {
    /// The gold file of one annotation scheme (CoNLL-U, CoNLL-X or MaltTab; or bracketed
    /// constituency trees, detected by a leading '('), scored with --system.
    #[arg(long, value_name = "FILE", requires = "parse", conflicts_with_all = ["exp", "distance"])]
    pub gold: Option<String>,
    /// A system's parse in the scheme of --gold (repeatable: two or more systems are
    /// compared pairwise). Also accepted as --parse.
    #[arg(
        long = "system",
        visible_alias = "parse",
        value_name = "FILE",
        requires = "gold"
    )]
    pub parse: Vec<String>,
    /// A cross-scheme experiment NAME:GOLD:PARSE (repeatable): a scheme's gold file and a
    /// system's parse in that scheme, dependency trees (CoNLL-U/X) or constituency trees
    /// (bracketed, detected by a leading '('). All gold files must hold the same
    /// sentences over the same words; they are generalized sentence by sentence into one
    /// gold.
    #[arg(long, value_name = "NAME:GOLD:PARSE", conflicts_with = "distance")]
    pub exp: Vec<String>,
    /// Relabelling costs nothing (unlabeled TedEval; unlabeled distance with --distance).
    #[arg(long)]
    pub unlabeled: bool,
    /// Work limit of one edit distance, in table cells, estimated before computing it
    /// (default 150000000: about 1.35 GB and a few seconds). A sentence over it is
    /// counted and warned about, not scored (a tree pair of --distance is an error);
    /// the warning names the --max-cost that scores it. When every sentence is over it,
    /// nothing is scored: exit 1. Memory is about 9 bytes a
    /// cell, per thread.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_cost: Option<u64>,
    /// Label equivalences across inventories: each line lists labels that count as one
    /// (separated by spaces, tabs or '='; '#' starts a comment), e.g. `SBJ SUB nsubj`.
    /// Every label is replaced by the first of its line before conversion.
    #[arg(long, value_name = "FILE")]
    pub label_equiv: Option<String>,
    /// Labels of bracketed (constituency) files: `category` cuts them at the first '-' or
    /// '=' as EVALB does (NP-SBJ-1 → NP); `full` keeps function tags and indices. Either
    /// way `-NONE-` pre-terminals (traces) are not words, and the unlabelled `( … )`
    /// wrapper of .mrg files is not a node.
    #[arg(long, value_enum, default_value_t = BracketLabels::Category)]
    pub bracket_labels: BracketLabels,
    /// Corpus score as the mean of the sentence scores (TedEval's micro flag) instead of
    /// 1 − Σδ_new / Σι (global averaging, the paper's default).
    #[arg(long)]
    pub micro: bool,
    #[command(flatten)]
    pub report: ReportArgs,
    /// With two or more systems, do not run the default pairwise test (approximate
    /// randomization = stratified shuffling, 10000 shuffles, as the paper).
    #[arg(long)]
    pub no_test: bool,
    /// Tree pairs, one per line: two trees in APTED's bracket notation (`{a{b}{c}}`)
    /// separated by a tab. Prints each pair's distance, one per line.
    #[arg(long, value_name = "FILE")]
    pub distance: Option<String>,
    /// With --distance: also print each pair's edit script (JSON, after the distance and
    /// a tab).
    #[arg(long, requires = "distance")]
    pub script: bool,
}

/// Labels of bracketed trees in `ted` (the library's option, with its help texts).
pub use treeval::ted::BracketLabels;

pub use treeval::ud::{Align as AlignArg, Compat as UdCompat, EmptyNodes as EmptyNodesArg};

/// `treeval ud` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Gold and system texts (token FORMs without space characters) must be identical; tokenization and sentence splitting may differ. Words are aligned as conll18_ud_eval.py aligns them (character spans; LCS of lower-cased forms inside multiword tokens).\n\nELAS and EULAS are udeval's: DEPS items head:label of aligned words with aligned heads; EULAS compares the universal part of each step of a label path.\n\nA column that the gold leaves '_' on every word (XPOS, FEATS, LEMMA) makes the measures that read it n/a (JSON null) for every system; one that a system leaves '_' on every word while the gold fills it (DEPS: no enhanced graph, as spaCy writes; XPOS, FEATS, LEMMA) makes them n/a for that system; a warning names the column and the file. --compat prints the scripts' numbers. A gold and a system sentence that start at the same character with different `# sent_id`s are warned about (once per system file).\n\nExit codes: 0 success; 1 evaluation error; 2 usage error."
)]
pub struct UdArgs {
    /// The gold file, CoNLL-U ('-' = standard input; gzip and zstd are read transparently).
    #[arg(value_name = "GOLD")]
    pub gold: String,
    /// System file(s), CoNLL-U, each scored against GOLD: one result row per file.
    #[arg(value_name = "SYS", required = true, num_args = 1..)]
    pub systems: Vec<String>,
    /// Accept sentences with several roots (as udeval's option).
    #[arg(long)]
    pub multiple_roots_okay: bool,
    /// When the texts differ: stop (strict, as the reference scorers) or resynchronise
    /// and score the words of differing stretches as unaligned (resync; not the reference's
    /// behaviour, so the signature records it).
    #[arg(long, value_enum, default_value_t = AlignArg::Strict)]
    pub align: AlignArg,
    /// How empty nodes (5.1) enter ELAS and EULAS [default: collapse; with --compat udeval
    /// or udeval-counts: drop, as udeval itself]
    #[arg(long, value_enum)]
    pub empty_nodes: Option<EmptyNodesArg>,
    /// Enhancement types NOT to evaluate, as udeval's --enhancements: 0 = all; digits 1
    /// gapping, 2 shared parents in coordination, 3 shared dependents in coordination
    /// (a no-op in udeval, and so here), 4 control, 5 external arguments of relative
    /// clauses, 6 case information.
    #[arg(long, value_name = "DIGITS", default_value = "0")]
    pub enhancements: String,
    /// Print exactly what conll18_ud_eval.py prints (conll18; with -v its -v table) or with
    /// -c (conll18-counts), or udeval likewise (udeval, udeval -v, udeval-counts). Files are
    /// checked as the script checks them: empty fields other than ID, FORM and HEAD are
    /// read as empty values, and conll18 does not read DEPS.
    #[arg(long, value_enum)]
    pub compat: Option<UdCompat>,
    /// With --compat conll18 or udeval: the script's -v table (all metrics with precision,
    /// recall, F1 and aligned accuracy) instead of its default lines.
    #[arg(short, long, requires = "compat")]
    pub verbose: bool,
    /// Add per-relation precision/recall/F1 (universal relations, LAS over the word
    /// alignment) to the text output (JSON always has them).
    #[arg(long)]
    pub per_relation: bool,
    /// Breakdowns over the word alignment, comma-separated: deprel (universal), upos,
    /// xpos, length, distance, direction, depth, projectivity (as deps --by). Gold words
    /// are grouped by their gold value (LAS, UAS, LA as recall: unaligned words count as
    /// wrong), system words by their system value (LAS as precision).
    #[arg(long, value_name = "KEYS", value_delimiter = ',', value_parser = parse_by)]
    pub by: Vec<treeval_metrics::ByKey>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Metrics (F1 of their counts) to test and to give intervals for. Units are gold
    /// sentences; system words count toward the gold sentence their first character lies in.
    #[arg(long, value_name = "METRICS", value_delimiter = ',', default_value = "LAS,MLAS,BLEX",
          value_parser = TestMetrics(treeval_metrics::ud::measures::metric_measures),
          help_heading = "Significance")]
    pub test_metrics: Vec<String>,
}

pub use treeval::relations::Graph as GraphArg;

/// `treeval relations` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Per sentence: Dt = gold relations, Ds = system relations, Df = max(|Dt|, |Ds|) - |Dt ∩ Ds|, CA = 1 - Df / max(|Dt|, |Ds|) (1 when both are empty), as Alpino's evaluate.pl. Micro CA = 1 - ΣDf / Σmax; macro CA = the mean of sentence CA. System relations count toward the gold sentence in which their dependent's first character lies.\n\nExit codes: 0 success; 1 evaluation error; 2 usage error."
)]
pub struct RelationsArgs {
    /// The gold file, CoNLL-U.
    #[arg(value_name = "GOLD")]
    pub gold: String,
    /// System file(s), CoNLL-U, each scored against GOLD: one result row per file
    /// (compared with --test).
    #[arg(value_name = "SYS", required = true, num_args = 1..)]
    pub systems: Vec<String>,
    /// The basic tree or the enhanced graph.
    #[arg(long, value_enum, default_value_t = GraphArg::Basic)]
    pub graph: GraphArg,
    /// How empty nodes enter the enhanced graph.
    #[arg(long, value_enum, default_value_t = EmptyNodesArg::Collapse)]
    pub empty_nodes: EmptyNodesArg,
    /// Accept sentences with several roots.
    #[arg(long)]
    pub multiple_roots_okay: bool,
    /// When the texts differ: stop (strict) or resynchronise (resync), as in `ud`.
    #[arg(long, value_enum, default_value_t = AlignArg::Strict)]
    pub align: AlignArg,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Measures the tests compare, comma-separated.
    #[arg(long, value_name = "MEASURES", value_delimiter = ',', default_value = "CA,CA-macro",
          value_parser = TestMetrics(treeval_metrics::relations::measures), help_heading = "Significance")]
    pub test_metrics: Vec<String>,
}

/// `treeval brackets` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Sentences are paired by position; gold and test must hold as many trees (else exit 1; --compat evalb scores up to the shorter file, as EVALB). EVALB's statuses: 0 scored, 1 error (different words or number of words, or a malformed tree), 2 skipped (the test tree has no words); error and skipped sentences are counted, listed on stderr and in the JSON warnings, and scored as empty parses, their gold brackets missed (--error-sentences missed; EVALB leaves them out of the scores: --error-sentences excluded, --compat evalb); a malformed gold tree is left out in both. Unlike EVALB there is no limit on words, brackets, line or label length; a malformed tree is reported with its position and counted as an error sentence (unbalanced parentheses are never repaired); trees without POS tags, as language models write them (a word directly under a phrase: `(S (NP the cat) (VP sat))`), are read: each such word takes the deletion decision of the equal gold word it stands on (a word diff over all the words read: the gold's -NONE- traces do not shift it) and is never a correct tag (tagging n/a when no system word has a tag); a top-level bracket without a label or labelled ROOT or TOP is the outer wrapper, not counted; the report counts each of these reading decisions (JSON `reading`, one note each; --compat evalb reads as EVALB); a figure with nothing to measure (no gold bracket for recall, no scored sentence, ...) is n/a (JSON null), and F-measure is 0 when nothing matched; MAX_ERROR is EVALB's process control, not a scoring convention: it does not stop the run, every sentence is scored, the report counts the error sentences, one warning gives their number and the first of them, and --errors lists them all (with --compat evalb MAX_ERROR stops the run as in EVALB: no summary, exit 1). A UTF-8 byte-order mark and CR LF line ends are accepted with a warning.\n\nExit codes: 0 success (even with error sentences, as EVALB); 1 a file cannot be read, is not bracketed trees, the files do not pair up, or nothing is scored (every sentence an error or skipped, or --where keeps nothing; with --emit-state a part is scored as nothing instead); 2 usage error."
)]
pub struct BracketsArgs {
    /// The gold file, bracketed trees.
    #[arg(value_name = "GOLD")]
    pub gold: String,
    /// System file(s) of bracketed trees (EVALB's "test" file), each scored against GOLD:
    /// one result row per file.
    #[arg(value_name = "SYSTEM", required = true, num_args = 1..)]
    pub test_files: Vec<String>,
    /// EVALB parameter file (DEBUG, MAX_ERROR, CUTOFF_LEN, LABELED, DELETE_LABEL,
    /// DELETE_LABEL_FOR_LENGTH, QUOTE_LABEL, EQ_LABEL, EQ_WORD); default: EVALB's
    /// COLLINS.prm. COLLINS.prm, new.prm and nk.prm are built in: `--prm new.prm` uses
    /// the file new.prm when it exists, else the built-in one.
    #[arg(long, value_name = "FILE")]
    pub prm: Option<String>,
    /// Print a reference tool's output: exactly what EVALB prints (evalb), the
    /// per-sentence table and the summary on stdout, error lines (`12 : Words unmatch
    /// (is|was)`) on stderr; compare-trees: the
    /// line harvardnlp/compound-pcfg's compare_trees.py prints (`Corpus F1: xx.xx,
    /// Sentence F1: yy.yy`; one system file, one tree per line, `(TAG word)` leaves; where
    /// the script stops, exit 1 naming the line; docs/metrics.md).
    #[arg(long, value_enum)]
    pub compat: Option<BracketsCompat>,
    /// How trees are laid out in the files (--compat reads one tree per line: multi-line
    /// is refused beside it).
    #[arg(long, value_enum, default_value_t = LayoutArg::Auto)]
    pub layout: LayoutArg,
    /// How gold and system trees are put side by side (the option word ud uses for its
    /// tokenization alignment): words (tree k of each file, word by word, as EVALB) or
    /// chars, for systems that tokenize or split sentences differently: a bracket's span
    /// is measured in characters of its kept words (PTB escapes such as -LRB- read as
    /// their characters, `` and '' as "), system trees are placed on the gold sentences by
    /// their text (their number may differ), the text where the two differ is listed as
    /// mismatch windows and a bracket ending in one cannot match; tagging accuracy is over
    /// the gold words a system word has with the same characters. Same words give the
    /// counts of words. Not with --compat or --careful; the signature records it.
    #[arg(long, value_enum, default_value_t = BracketsAlignArg::Words)]
    pub align: BracketsAlignArg,
    /// A sentence the system failed to produce (an error sentence: a malformed system tree,
    /// other words or another number of words; a skipped one: a system tree without
    /// words; under --align chars, a gold sentence no system text covers), its gold tree
    /// well formed with words kept: missed (default) scores it as an empty parse, its
    /// gold brackets missed (recall falls), its words without a correct tag, in complete
    /// match as not complete, not in the crossing figures (an empty parse crosses
    /// nothing); excluded leaves it out of the scores, as EVALB does (--compat evalb,
    /// which refuses missed). The conventions line and the signature record it.
    #[arg(long, value_enum, value_name = "HOW")]
    pub error_sentences: Option<ErrorSentencesArg>,
    /// Breakdowns, comma-separated (as deps --by): label (per constituent label as EVALB
    /// compares it: cut at '-' or '=', an EQ_LABEL pair as one label; gold, test and
    /// matched brackets, recall, precision, F), length (sentence length bins 1-10, 11-20,
    /// …, 51+, the length CUTOFF_LEN reads; scored sentences, brackets, recall, precision,
    /// F). What the summary counts counts (an error or skipped sentence scored as missed: its
    /// gold brackets), so the groups sum to the summary's brackets. Not part of --compat evalb output; with
    /// --format html both are shown unless --by is given.
    #[arg(long, value_name = "KEYS", value_delimiter = ',', value_parser = parse_brackets_by)]
    pub by: Vec<treeval_metrics::brackets::by::BracketsKey>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Also the careful evaluation of Hogenhout & Matsumoto (1996) over the scored
    /// sentences: TTB, TPB, EM, CE, SP, PINH/PNINH, TINH/TNINH and the derived measures
    /// (each with its formula); with several test files, YY/YN/NY/NN, the real-test-size
    /// z-score and McNemar's statistic. Words tagged with a DELETE_LABEL are removed first.
    #[arg(long, help_heading = "Careful evaluation")]
    pub careful: bool,
    /// Careful evaluation on labelled brackets (default: spans only).
    #[arg(long, help_heading = "Careful evaluation")]
    pub labeled: bool,
    /// Careful evaluation: also remove words that are punctuation by their form.
    #[arg(long, help_heading = "Careful evaluation")]
    pub remove_punct_forms: bool,
    /// Careful evaluation: drop a bracket with the same span as its parent.
    #[arg(long, help_heading = "Careful evaluation")]
    pub collapse_double: bool,
    /// Careful evaluation: drop brackets over a single word.
    #[arg(long, help_heading = "Careful evaluation")]
    pub remove_trivial: bool,
    /// Careful evaluation: human judgments, tab-separated `sentence start end … accept|reject`
    /// (the file --export-for-judging writes, with its last column filled in); gives EMA,
    /// EMR, CEA, CER, SPA, SPR (exact matches are accepted unless judged).
    #[arg(long, value_name = "FILE", help_heading = "Careful evaluation")]
    pub judgments: Option<String>,
    /// Careful evaluation: write the crossing and spurious brackets of the (first) test
    /// file to judge, with the sentence around each and the treebank brackets it crosses.
    #[arg(long, value_name = "FILE", help_heading = "Careful evaluation")]
    pub export_for_judging: Option<String>,
    /// Metrics to test and to give intervals for, from the per-sentence bracket counts
    /// (units are sentences; unscored sentences count nothing), comma-separated; with
    /// --profile unsupervised: precision, recall, F (corpus F1), sentence-F1.
    #[arg(long, value_name = "METRICS", value_delimiter = ',', default_value = "F",
          value_parser = TestMetrics(treeval_metrics::brackets::unsup::profile::brackets_measures), help_heading = "Significance")]
    pub test_metrics: Vec<String>,
    /// Score with the conventions of unsupervised constituency parsing (unsupervised):
    /// gold words filtered by PRPN's 36 word tags (punctuation, -NONE-, $, #, brackets
    /// removed; constituents left empty dropped), unlabeled spans of two words or more
    /// without the whole-sentence span, each once; gold sentences of one word or over
    /// 150 words skipped and counted; corpus precision, recall, F and sentence-F1 (the
    /// mean of the sentences' F1), with --ci and --test (units: sentences). The system is
    /// a tree over the filtered words (or over all the gold's words: then the gold's filter
    /// removes the same positions); a system tree with another number of words is counted
    /// and scored as --error-sentences says (missed: its gold spans missed, sentence F1
    /// 0). --errors lists missed and extra spans, --by length groups by the filtered
    /// gold's length, --per-sentence writes the counts. Not with --compat, --prm,
    /// --by label, --careful, --where, --emit-state, --sent-id, --min-len, --max-len
    /// (docs/metrics.md).
    #[arg(long, value_enum, help_heading = "Unsupervised parsing")]
    pub profile: Option<BracketsProfile>,
    /// With --profile unsupervised: add left- and right-branching trees over the gold's
    /// filtered words as two more systems, `left-branching` and `right-branching`.
    #[arg(long, requires = "profile", help_heading = "Unsupervised parsing")]
    pub baselines: bool,
}

/// `treeval pts` arguments. System k is the k-th --sys-a, --sys-b and --sys-align.
#[derive(Debug, Args)]
#[command(
    override_usage = "treeval pts [OPTIONS] --gold-a <FILE> --gold-b <FILE> --gold-align <FILE>\n           --sys-a <FILE> --sys-b <FILE> --sys-align <FILE>"
)]
#[command(
    after_help = "Sentence k of side a, sentence k of side b and alignment sentence k form one sentence pair.\n\nA link (gold or system) past the last word of its sentence (the syntactic words of --gold-a and --gold-b) is an error: every such link is reported (the first ten of each file at their path:line:column, the others counted), and where the file's base was not given and the other base puts every link within its sentence, the error names that base and the AER it gives.\n\nExit codes: 0 success; 1 evaluation error; 2 usage error."
)]
pub struct PtsArgs {
    /// Gold parse of side a (CoNLL-U, CoNLL-X, CoNLL-2009 or MaltTab).
    #[arg(long, value_name = "FILE")]
    pub gold_a: String,
    /// Gold parse of side b.
    #[arg(long, value_name = "FILE")]
    pub gold_b: String,
    /// Gold alignment between a and b (sure and possible links).
    #[arg(long, value_name = "FILE")]
    pub gold_align: String,
    /// System parse of side a (repeat for several systems).
    #[arg(long, value_name = "FILE", required = true)]
    pub sys_a: Vec<String>,
    /// System parse of side b (as many as --sys-a).
    #[arg(long, value_name = "FILE", required = true)]
    pub sys_b: Vec<String>,
    /// System alignment (as many as --sys-a).
    #[arg(long, value_name = "FILE", required = true)]
    pub sys_align: Vec<String>,
    /// Weights α_a,α_b,α_ab of UAS_a, UAS_b and 1 − AER (PTS divides by their sum): three
    /// non-negative numbers, not all 0, separated by commas (--weights 1,0.5,2) or spaces
    /// (--weights 1 0.5 2).
    #[arg(long, value_name = "A,B,AB", value_delimiter = ',', num_args = 1..=3, default_values_t = [1.0, 1.0, 1.0])]
    pub weights: Vec<f64>,
    /// Which words the UAS scores (as in deps); the seed excludes punctuation, so the
    /// default is form (eval.pl's Unicode-punctuation rule).
    #[arg(long, value_name = "POLICY", default_value = "form", value_parser = parse_punct)]
    pub punct: treeval_metrics::PunctPolicy,
    /// Swap the sides of every system alignment link.
    #[arg(long)]
    pub reverse: bool,
    #[command(flatten)]
    pub index: AlignIndexArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// The option enums of `align` and `pts`, with their help texts (clap's `ValueEnum`).
pub use treeval::align::{Compat as AlignCompat, Format as AlignFormatArg, NullLinks};

/// How the positions of alignment files are read (`align` and `pts`): their index
/// bases and what becomes of links with a NULL side.
#[derive(Debug, Clone, Copy, Args)]
pub struct AlignIndexArgs {
    /// Index base of the gold alignment's positions (default: 1 for NAACL, 0 for
    /// Pharaoh).
    #[arg(long, value_name = "0|1", value_parser = clap::value_parser!(u32).range(0..=1))]
    pub gold_base: Option<u32>,

    /// Index base of the hypothesis (system) alignments' positions (default: 1 for
    /// NAACL, 0 for Pharaoh).
    #[arg(long, value_name = "0|1", value_parser = clap::value_parser!(u32).range(0..=1))]
    pub hyp_base: Option<u32>,

    /// Links with a NULL side: exclude (default; counted and reported) or include
    /// (the default with align --compat wa_eval_align, as the script scores them).
    #[arg(long, value_enum)]
    pub null: Option<NullLinks>,
}

/// `treeval align` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Formats are detected from the content (a warning says when a file gave no clue). Sentences: NAACL sentence numbers are read as numbers (0001 = 1); Pharaoh line k is sentence k.\n\nWithout --tokens, a hypothesis whose positions look one off from the gold's on both sides, over at least 10 sentences (it never uses position 0 where the gold does, or goes past the gold's last position of most sentences; or the reverse) is warned about when the other base, not given, gives a lower AER: the warning names the option and both AERs.\n\nSentence counts must pair up (else exit 1, naming both counts): the gold's count is --sentences if given, else its lines (Pharaoh) or its highest sentence number (NAACL). A Pharaoh hypothesis must have exactly that many lines; a NAACL hypothesis no sentence number beyond it. NAACL cannot write a sentence without links, so a sentence a NAACL file does not mention is empty (a NAACL hypothesis without links in the gold's last sentences is warned about). A gold without sentences or links is an error. --compat wa_eval_align has no notion of sentences and scores all links, as the script does: there these problems are warnings.\n\nA UTF-8 byte-order mark and CR LF line ends are read as the plain LF file, with a warning.\n\nExit codes: 0 success; 1 evaluation error; 2 usage error."
)]
pub struct AlignArgs {
    /// The gold alignment file (sure and possible links).
    #[arg(value_name = "GOLD")]
    pub gold: String,

    /// System (hypothesis) alignment file(s), each scored against GOLD: one result row per
    /// file.
    #[arg(value_name = "HYP", required = true)]
    pub hyps: Vec<String>,

    /// Force the gold format.
    #[arg(long, value_enum)]
    pub gold_format: Option<AlignFormatArg>,

    /// Force the hypothesis format.
    #[arg(long, value_enum)]
    pub hyp_format: Option<AlignFormatArg>,

    #[command(flatten)]
    pub index: AlignIndexArgs,

    /// Swap the two sides of every hypothesis link (e.g. an f-e alignment against e-f gold).
    #[arg(long)]
    pub reverse: bool,

    /// Swap the two sides of every gold link.
    #[arg(long)]
    pub reverse_gold: bool,

    /// α of the F-measure F = 1/(α/P + (1−α)/R) [default: 0.5, F1]; with --compat
    /// aer.py, also prints aer.py's `--fAlpha` F-Measure line.
    #[arg(long, value_name = "ALPHA")]
    pub f_alpha: Option<f64>,

    /// The number of gold sentences, where a NAACL gold cannot state it (its last
    /// sentences have no links).
    #[arg(long, value_name = "N")]
    pub sentences: Option<u64>,

    /// Print exactly what a reference script prints instead of the report.
    #[arg(long, value_enum)]
    pub compat: Option<AlignCompat>,

    /// The words of the two sides of the gold links (two files, one sentence per line,
    /// words separated by spaces; line k is sentence k): links past a sentence's last word
    /// are warned about (a sign of a wrong index base or swapped sides; where the other
    /// base fits every sentence and --gold-base/--hyp-base was not given, the warning
    /// names it and the AER it gives), and the HTML page's alignment grid shows the words.
    /// With --hyp-subwords, each line's pieces must make as many words as its tokens line.
    #[arg(long, num_args = 2, value_names = ["SRC", "TGT"])]
    pub tokens: Vec<String>,

    /// The hypotheses align subword pieces, not words: the pieces of both sides (two
    /// files, one sentence per line, pieces separated by spaces; line k is sentence k;
    /// SRC_PIECES is the side of the gold's first positions, the links read after
    /// --reverse and --hyp-base). The convention is detected per file: any `▁` (U+2581) → SentencePiece (a piece
    /// starting with `▁` starts a word, as does a line's first piece); else any piece
    /// starting with `##` → WordPiece (it continues the previous word); else every piece
    /// is a word. Each piece link (i, j) becomes the link between the words of pieces i
    /// and j (a word pair linked by several piece links is one link, sure if any of them
    /// is), and the projected words are scored against the gold. A piece index past its
    /// line is an error.
    #[arg(long, num_args = 2, value_names = ["SRC_PIECES", "TGT_PIECES"])]
    pub hyp_subwords: Vec<String>,

    #[command(flatten)]
    pub report: ReportArgs,

    /// Metrics the tests and intervals apply to, comma-separated (F at --f-alpha).
    #[arg(long, value_name = "METRICS", value_delimiter = ',', default_value = "AER",
          value_parser = TestMetrics(treeval::measures::align_measures), help_heading = "Significance")]
    pub test_metrics: Vec<String>,
}

/// The option enums of the library, with their help texts (clap's `ValueEnum`).
pub use treeval::brackets::{
    Align as BracketsAlignArg, Compat as BracketsCompat, ErrorSentences as ErrorSentencesArg,
    Layout as LayoutArg, Profile as BracketsProfile,
};
pub use treeval::deps::{Compat as CompatMode, Conll09Cols, InputFormat, Labels, Profile};
pub use treeval::Test as TestArg;

/// Output formats (defined with their emitters, in `treeval_report::render`).
pub use treeval_report::render::OutputFormat as Format;

/// `--format`'s values: every output format, with its description in `--help`.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Format::ALL.map(|f| PossibleValue::new(f.name()).help(f.about())))
        .try_map(|name| Format::from_name(&name).ok_or("not an output format"))
}

/// `treeval deps` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Inputs are CoNLL-U, CoNLL-X/2007, CoNLL-2009 or MaltTab (.dp: FORM POS HEAD [DEPREL], no IDs), detected from the content; '-' reads standard input; gzip and zstd files are read transparently.\n\nWords are paired sentence by sentence and word by word (not by `# sent_id`: ids that differ from the gold sentence's are warned about, once per system file); for different tokenizations use `treeval ud`.\n\nExit codes: 0 success; 1 evaluation error; 2 usage error."
)]
pub struct DepsArgs {
    /// The gold file.
    #[arg(value_name = "GOLD")]
    pub gold: String,

    /// System file(s), each scored against GOLD: one result row per file (the gold file is
    /// read once).
    #[arg(value_name = "SYS", required = true)]
    pub systems: Vec<String>,

    #[command(flatten)]
    pub conventions: ConventionArgs,

    /// Breakdowns, comma-separated: deprel, upos, xpos, length (sentence length bins),
    /// distance (arc length bins), direction (left/right/root), depth (from the root),
    /// projectivity (of the arc). Each shows counts and LAS/UAS/LA by gold value; the
    /// tree-dependent ones also by system value.
    #[arg(long, value_name = "KEYS", value_delimiter = ',', value_parser = parse_by)]
    pub by: Vec<treeval_metrics::ByKey>,

    /// Add a gold x system label confusion matrix of the N most frequent labels (the
    /// rest folded into "(other)"): `--confusion` for 12, `--confusion=N` for N.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "12")]
    pub confusion: Option<usize>,

    /// Show per-relation precision/recall/F1 tables in text and Markdown output (JSON
    /// and CSV always include them).
    #[arg(long)]
    pub per_relation: bool,

    /// Print exactly the summary lines of a reference script instead of the report.
    #[arg(long, value_enum)]
    pub compat: Option<CompatMode>,

    /// Make FORM mismatches and malformed system trees (HEAD out of range or '_',
    /// cycles, no or several roots) errors instead of counted warnings.
    #[arg(long)]
    pub strict: bool,

    /// Force the input format instead of detecting it.
    #[arg(long, value_enum)]
    pub input_format: Option<InputFormat>,

    /// Which CoNLL-2009 columns hold the system's tree: gold = HEAD/DEPREL (as eval09.pl,
    /// the CoNLL-2009 scorer, reads system files), predicted = PHEAD/PDEPREL (for files
    /// that keep a copy of gold in HEAD/DEPREL). Gold files are always read from
    /// HEAD/DEPREL.
    #[arg(long, value_enum, default_value_t = Conll09Cols::Gold)]
    pub conll09_columns: Conll09Cols,

    #[command(flatten)]
    pub report: ReportArgs,

    /// Metrics the tests compare, comma-separated. (--ci puts an interval on every one of
    /// them.)
    #[arg(long, value_name = "METRICS", value_delimiter = ',', default_value = "LAS,UAS,LA",
          value_parser = TestMetrics(treeval_metrics::deps::measures), help_heading = "Significance")]
    pub test_metrics: Vec<String>,
}

/// The conventions of the attachment scores (which words, how labels compare), with the
/// same meaning in every command that scores with them (deps, nbest, rerank train).
#[derive(Debug, Args)]
pub struct ConventionArgs {
    /// Conventions bundle: conll07 = all words + full labels (eval07.pl, MaltEval; the
    /// default but with `deps --compat evalpl`); conllx = no punctuation (FORM rule) +
    /// full labels (eval.pl). --punct and --labels override its parts.
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,

    /// Which words to score: include (all), form (skip words whose gold FORM is all
    /// Unicode P* characters: eval.pl's rule), ptb (skip words whose gold XPOS is one of
    /// `` '' . , : as English PTB papers since Chen & Manning 2014), deprel=LABEL[,LABEL…]
    /// (skip words whose gold DEPREL is one of the labels, e.g. deprel=punct or
    /// deprel=punct,dep, as MaltEval's ExcludeDeprels), upos=TAG[,TAG…] (skip gold UPOS
    /// tags, e.g. upos=PUNCT or upos=PUNCT,SYM), xpos=TAG[,TAG…] (skip gold XPOS tags; in
    /// these lists `\,` is a comma inside an item and `\\` a backslash: xpos='\,,.' is
    /// the tags ',' and '.'). In nbest and rerank train also
    /// the words whose (head, deprel, dependent) triples CA counts.
    #[arg(long, value_name = "POLICY", value_parser = parse_punct)]
    pub punct: Option<treeval_metrics::PunctPolicy>,

    /// How to compare DEPREL: full string, or universal part only.
    #[arg(long, value_enum)]
    pub labels: Option<Labels>,
}

/// How text output is laid out: the output switches beside `--format`, the same in every
/// command that writes a report.
#[derive(Debug, Args)]
pub struct StyleArgs {
    /// Text: show every column however wide, as before text fitted 100 columns: each
    /// fraction's counts beside it (`16/21`), ud's full table (precision, recall, F1 and
    /// aligned accuracy of every metric), the confidence intervals in a table of their own,
    /// notes unwrapped. Without it every table fits 100 columns: one value per cell
    /// (intervals inline, `76.19 [66.67, 100.00]`), a table too wide shown transposed
    /// (measures down, systems across) or in blocks of columns, ud F1 per metric with the
    /// systems side by side, systems named [1], [2], … under a legend when a name is
    /// longer than 40 characters. The other formats always hold everything, so only
    /// with --format text (else a usage error).
    #[arg(long, help_heading = "Output")]
    pub wide: bool,
}

impl StyleArgs {
    /// Refuse `--wide` where it would be ignored: with a `format` other than text, or
    /// beside a `--compat` mode.
    pub fn check(&self, format: Format, compat: bool) -> Result<(), String> {
        if self.wide && format != Format::Text {
            return Err(format!(
                "--wide only applies to --format text (the other formats hold every column whatever it says), not --format {}; drop it",
                format.name()
            ));
        }
        if self.wide && compat {
            return Err("--wide does not apply with --compat, which prints exactly what the reference tool prints; drop one of the two".into());
        }
        Ok(())
    }

    /// The emitter's style.
    pub fn style(&self) -> treeval_report::emit::Style {
        treeval_report::emit::Style { wide: self.wide }
    }
}

/// How the report is made and written (format, quiet, significance tests and intervals,
/// files besides the report): flattened into every command, with the same meaning.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Output format: text (aligned tables that fit 100 columns; --wide: every column),
    /// json (the versioned contract
    /// treeval.report/3, docs/json-schema.md), csv or tsv (one line per input, cell, test and
    /// rank), markdown, latex (booktabs tables), html (one self-contained page: the same
    /// tables with charts, and a sentence browser where the command has one; nothing is
    /// fetched when it is viewed; docs/html-page.md). With --compat: text only.
    #[arg(long, value_parser = format_parser(), default_value = "text", help_heading = "Output")]
    pub format: Format,
    /// How text is laid out (`--wide`).
    #[command(flatten)]
    pub style: StyleArgs,
    /// Sentences the HTML page's sentence browser holds at most (default 5000); beyond
    /// that an evenly spaced sample, said on the page (the scores always count every
    /// sentence). Only with --format html (else a usage error).
    #[arg(long, value_name = "N", help_heading = "Output")]
    pub html_sentences: Option<usize>,
    /// No progress bar and no warnings on stderr (the warnings stay in the report).
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,
    /// A name for each system, in the order the systems are given (repeat it: --name A
    /// --name B; pts: one per system triple; ted: each --system, then each --exp; nbest:
    /// one per n-best list; merge: names the merged systems). Every table, page, state
    /// and merge uses it. Without it a system is named by the shortest end of its path
    /// that tells it apart (runs/a/e20/pred.conllu and runs/b/e20/pred.conllu are
    /// a/…/pred and b/…/pred); the inputs keep their full paths.
    #[arg(long = "name", value_name = "NAME", help_heading = "Output")]
    pub names: Vec<String>,
    /// List every error behind the scores, per system: deps and ud every wrong word
    /// (sentence, word, form, gold and system head and label; ud over the tokenization
    /// alignment, with the gold words no system word is aligned to), brackets every
    /// unmatched gold and test bracket of the scored sentences (with its words), align
    /// every missed sure link and wrong link, relations every missing gold relation and
    /// extra system relation (head, relation, dependent), ted every edit operation behind
    /// δ_new (the parse's operations towards the generalized gold that its own gold does
    /// not need too), pts each side's wrong heads and the alignment's missed sure and wrong
    /// links. The rows are judged as the scores count them, so they add up to the report's
    /// errors. deps and ud then list the 20 most frequent wrong arcs (gold label → system
    /// label, gold arc → system arc as head direction and distance). In every format (text:
    /// one table per system; JSON: `listings`).
    #[arg(long, help_heading = "Output")]
    pub errors: bool,
    /// Score only the words (brackets: the brackets) that meet every condition (deps, ud,
    /// brackets): COND[,COND…], repeatable, all ANDed. COND is KEY=VALUE[|VALUE…] (any
    /// value; a comma inside a VALUE is written \, and a backslash \\: xpos=\, keeps the
    /// words tagged ','). KEY is a --by key of the gold word (deprel, upos, xpos, length, distance, direction, depth,
    /// projectivity; also written gold.KEY) or, in deps, of the system's analysis of the
    /// same word (sys.deprel, sys.upos, sys.distance, sys.direction). VALUE is a group as
    /// the --by table names it (3-6, 7+, root, left, non-projective, …) or, for length,
    /// distance and depth, a number, a range N-M or N+ (distance=9+). Labels are compared
    /// as the scores compare them (deps: --labels; ud: universal parts). Every score, breakdown, confusion, exact match
    /// (sentences whose kept words are all right), --errors listing and per-sentence line
    /// then counts the kept words only; the report says how many were kept and the
    /// signature records the conditions. ud counts the kept gold words and the system
    /// words aligned to them (precision = aligned accuracy; Tokens and Sentences n/a).
    /// With sys.* conditions each system scores different words, so --test mcnemar is
    /// refused. brackets: KEY is label (the bracket's label as compared: cut at '-' or
    /// '=', an EQ_LABEL class under its first label) or length (the sentence's, as
    /// CUTOFF_LEN counts words: a condition on whole sentences; --by length groups, a
    /// number, N-M or N+); recall, precision and F then count the kept gold and test
    /// brackets, equal to the --by cells; under a label condition complete match,
    /// crossing and tagging are n/a; not with brackets --careful. Not in the other commands
    /// (usage error). When no system keeps anything, nothing is scored: exit 1 (a part
    /// written with --emit-state reports n/a).
    #[arg(long = "where", value_name = "CONDS", help_heading = "Output")]
    pub where_: Vec<String>,
    /// Which sentences are scored.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Significance tests and intervals.
    #[command(flatten)]
    pub sig: SignificanceArgs,
    /// Files written besides the report.
    #[command(flatten)]
    pub out: OutputArgs,
    /// The options typed on the command line (filled by [`crate::parse`]), to refuse
    /// those the run would ignore even where they equal their defaults.
    #[arg(skip)]
    pub given: Given,
}

/// The options of a command that were typed on the command line, not left at their
/// defaults, by clap's ids (the field names: `seed`, `ci_samples`, `test_metrics`, …).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Given(Vec<String>);

impl Given {
    /// The ids of `m`'s arguments whose values come from the command line.
    pub fn from_matches(m: &clap::ArgMatches) -> Self {
        Given(
            m.ids()
                .filter(|id| {
                    m.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
                })
                .map(|id| id.as_str().to_owned())
                .collect(),
        )
    }

    /// Whether the option with this id was typed.
    pub fn has(&self, id: &str) -> bool {
        self.0.iter().any(|g| g == id)
    }
}

impl Command {
    /// The shared report options of the command (none for `rerank`).
    pub fn report_mut(&mut self) -> Option<&mut ReportArgs> {
        match self {
            Command::Deps(a) => Some(&mut a.report),
            Command::Align(a) => Some(&mut a.report),
            Command::Pts(a) => Some(&mut a.report),
            Command::Ud(a) => Some(&mut a.report),
            Command::Relations(a) => Some(&mut a.report),
            Command::Brackets(a) => Some(&mut a.report),
            Command::Ted(a) => Some(&mut a.report),
            Command::Table(a) => Some(&mut a.report),
            Command::Nbest(a) => Some(&mut a.report),
            Command::Merge(a) => Some(&mut a.report),
            Command::Rerank(_) | Command::Measures(_) => None,
        }
    }
}

impl ReportArgs {
    /// The library's shared options (no per-sentence sink and no progress: the command
    /// adds them).
    pub fn common(&self) -> treeval::Common {
        let html = self.format == Format::Html;
        treeval::Common {
            where_: self.where_.clone(),
            errors: self.errors,
            page_sentences: html.then(|| self.html_sentences()),
            keep_sentences: self.out.keep_sentences,
            state: self.out.emit_state.is_some(),
            names: self.names.clone(),
            ..self.sig.common_with(&self.select)
        }
    }

    /// `--html-sentences`, or its default.
    pub fn html_sentences(&self) -> usize {
        self.html_sentences
            .unwrap_or(treeval_report::browse::DEFAULT_LIMIT)
    }
}

/// Sentence selection, with the same meaning in every command: which gold sentences are
/// scored. Excluded sentences are still read, checked and paired, and counted in the
/// report (a note, JSON `selection`) and its signature (`sel:`).
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Score only the gold sentences with these ids: if FILE|REGEX names an existing file,
    /// it lists ids one per line (blank lines and '#' comments skipped; ids the gold lacks
    /// are warned about); otherwise it is a regular expression that must match the whole
    /// id. A sentence's id is its `# sent_id`, or its 1-based number in the gold file
    /// when it has none (align: the sentence pair's number; pts: side a's gold sentence;
    /// brackets: the tree's number; table: passed on to each treebank of a manifest).
    #[arg(long, value_name = "FILE|REGEX", help_heading = "Sentence selection")]
    pub sent_id: Option<String>,
    /// Score only gold sentences of at least N words (syntactic words: no multiword-token
    /// ranges or empty nodes; brackets: the words EVALB's CUTOFF_LEN counts; align: the
    /// source side's words of --tokens, which it needs; pts: side a's gold words).
    #[arg(long, value_name = "N", help_heading = "Sentence selection")]
    pub min_len: Option<u64>,
    /// Score only gold sentences of at most N words, as --min-len counts them (40: the
    /// EVALB convention). In brackets it restricts the whole evaluation; EVALB's own
    /// CUTOFF_LEN section stays as it is. In ted, without it, sentences over 5000 words
    /// are still left out (counted and warned): the edit distance's memory.
    #[arg(long, value_name = "N", help_heading = "Sentence selection")]
    pub max_len: Option<u64>,
}

impl SelectArgs {
    /// Whether any selection option is given.
    pub fn is_given(&self) -> bool {
        self.sent_id.is_some() || self.min_len.is_some() || self.max_len.is_some()
    }
}

/// Files written besides the report, with the same meaning in every command.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Write one JSON record per sentence (per tree in `brackets`, per sentence pair in
    /// `pts`) and system to FILE: its 1-based position in the gold, the system (0-based,
    /// as in the JSON report; in `nbest` one per pick), its sent_id and its counts by
    /// name, then the command's extras (JSON lines; the first line is a header with the
    /// schema "treeval.per-sentence/3"; docs/json-schema.md). FILE may not be one of the
    /// inputs, and an existing file is replaced only if treeval wrote it (see --force).
    #[arg(long, value_name = "FILE", help_heading = "Output files")]
    pub per_sentence: Option<String>,

    /// Write the evaluation's state to FILE: its options, inputs, sentence selection and
    /// summed counts as JSON (schema "treeval.state/3"), which `treeval merge` sums with
    /// the states of other shards into the report of the concatenated corpus (a command
    /// that cannot write one says so). FILE is checked as every output file is: it never
    /// replaces an input.
    #[arg(long, value_name = "FILE", help_heading = "Output files")]
    pub emit_state: Option<String>,

    /// With --emit-state: keep every sentence's counts in the state, so that `treeval
    /// merge` can run --test and --ci (kept anyway with --test or --ci).
    #[arg(long, requires = "emit_state", help_heading = "Output files")]
    pub keep_sentences: bool,

    /// Replace an existing output file even if it does not look like treeval's own
    /// output. Input files are never replaced, --force or not.
    #[arg(long, help_heading = "Output files")]
    pub force: bool,
}

/// Significance options shared by every evaluation command.
#[derive(Debug, Args)]
pub struct SignificanceArgs {
    /// Compare the systems pairwise with this test (repeatable): mcnemar (paired
    /// per-word decisions for LAS/UAS/LA and per-sentence ones for LEM/UEM, as MaltEval;
    /// assumes independent decisions), ar (approximate randomization = stratified
    /// shuffling of per-sentence counts; valid for every metric), bootstrap (paired
    /// bootstrap resampling of sentences, Koehn 2004). p-values are adjusted with
    /// Holm–Bonferroni over all pairs of each metric and test. Each comparison also gives
    /// the difference B − A (second system minus first) and its paired bootstrap interval.
    #[arg(
        long = "test",
        value_enum,
        value_name = "TEST",
        help_heading = "Significance"
    )]
    pub tests: Vec<TestArg>,

    /// Shuffles for --test ar (default 10000) and samples for --test bootstrap (default
    /// 1000): at least enough for a p-value below --alpha (the smallest p of N samples is
    /// 1/(N + 1): 20 at α 0.05); bootstrap at most 1000000.
    #[arg(long, value_name = "N", value_parser = parse_count, help_heading = "Significance")]
    pub samples: Option<usize>,

    /// Seed of every resampling (ChaCha8; results do not depend on the thread count).
    #[arg(long, value_name = "N", default_value_t = treeval_stats::DEFAULT_SEED, value_parser = parse_seed, help_heading = "Significance")]
    pub seed: u64,

    /// Significance level, applied to the Holm–Bonferroni adjusted p-values († marks).
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05, value_parser = parse_alpha, help_heading = "Significance")]
    pub alpha: f64,

    /// Bikel's one-sided variant of --test ar: is the first system of each pair better?
    /// (default: two-sided).
    #[arg(long, help_heading = "Significance")]
    pub one_sided: bool,

    /// Add a percentile bootstrap confidence interval at this level (a percentage above 1
    /// and below 100: 95, 99.5; 0.95 is refused, did you mean 95?) to each tested headline
    /// metric of each system; also the level of the tests' difference intervals (default
    /// 95).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level, help_heading = "Significance")]
    pub ci: Option<f64>,

    /// Bootstrap samples of --ci and of the tests' difference intervals: at least enough
    /// for each tail beyond the interval to hold one (2/(1 − level): 40 at 95 %, 400 at
    /// 99.5 %), at most 1000000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1000,
        value_parser = parse_count,
        help_heading = "Significance"
    )]
    pub ci_samples: usize,
}

impl SignificanceArgs {
    /// The library's shared options with these significance settings and the sentence
    /// selection `select` (the rest at their defaults).
    pub fn common_with(&self, select: &SelectArgs) -> treeval::Common {
        treeval::Common {
            test: self.tests.clone(),
            samples: self.samples,
            seed: self.seed,
            alpha: self.alpha,
            one_sided: self.one_sided,
            ci: self.ci,
            ci_samples: self.ci_samples,
            sent_id: select.sent_id.clone(),
            min_len: select.min_len,
            max_len: select.max_len,
            ..treeval::Common::default()
        }
    }

    /// The library's shared options with these significance settings (the rest at their
    /// defaults).
    pub fn common(&self) -> treeval::Common {
        self.common_with(&SelectArgs {
            sent_id: None,
            min_len: None,
            max_len: None,
        })
    }
}

/// A number of samples: a whole number of at least 1 (the library's rule; how many a
/// test or an interval needs is checked with the other options, in `Common::validate`).
fn parse_count(s: &str) -> Result<usize, String> {
    let n = s
        .parse::<usize>()
        .map_err(|_| format!("expected a positive whole number, found '{s}'"))?;
    treeval::common::samples(n)
}

fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse::<u64>().map_err(|_| {
        format!(
            "expected a whole number from 0 to {}, found '{s}'",
            u64::MAX
        )
    })
}

fn parse_level(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("expected a confidence level in percent such as 95, found '{s}'"))?;
    treeval::common::level(v)
}

fn parse_alpha(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .and_then(|v| treeval::common::alpha(v).ok())
        .ok_or_else(|| format!("expected a significance level between 0 and 1, found '{s}'"))
}

fn parse_punct(s: &str) -> Result<treeval_metrics::PunctPolicy, String> {
    treeval_metrics::PunctPolicy::parse(s).ok_or_else(|| {
        let mut m = format!("expected include, form, ptb, deprel=LABEL[,LABEL…], upos=TAG[,TAG…] or xpos=TAG[,TAG…], found '{s}'");
        if s.contains('=') && treeval_metrics::list::split(s).iter().any(String::is_empty) {
            m.push_str("\n  hint: a list has no empty item; an item that contains a comma is written with `\\,` (--punct 'xpos=\\,,.' is the tags ',' and '.'), or use --punct ptb");
        }
        m
    })
}

fn parse_brackets_by(s: &str) -> Result<treeval_metrics::brackets::by::BracketsKey, String> {
    treeval_metrics::brackets::by::BracketsKey::parse(s)
        .ok_or_else(|| format!("expected one of label, length; found '{s}'"))
}

fn parse_by(s: &str) -> Result<treeval_metrics::ByKey, String> {
    treeval_metrics::ByKey::parse(s).ok_or_else(|| {
        format!("expected one of deprel, upos, xpos, length, distance, direction, depth, projectivity; found '{s}'")
    })
}

/// `treeval nbest` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "An n-best file is CoNLL-U (gzip and zstd read transparently): for each gold sentence, in gold order, its candidate parses one after another, each a complete sentence block with `# rank = K` (1, 2, 3, … within a sentence) and `# parser_score = X` (higher = better; the weight that picks the chosen candidate). A sentence starts where the sent_id changes or at `# rank = 1`. Every candidate must have gold's words.\n\nPer metric and n-best file the report has four rows: first (rank 1), best (the highest score: the oracle), worst (the lowest) and chosen (the highest weight); ties go to the earliest candidate. CA = 1 − pen/n with pen = max(|Dt|, |Ds|) − |Dt ∩ Ds| and n = max(|Dt|, |Ds|) over (head, deprel, dependent) triples. exact = sentences whose chosen candidate scores as high as the best; phi = (chosen − first)/(best − first), n/a where best = first. Tests (--test) compare chosen with first on the same sentences.\n\nExamples:\n  treeval nbest gold.conllu nbest.conllu.gz\n  treeval nbest gold.conllu nbest.conllu --compat alpino\n  treeval nbest --alpino lines.txt --compat alpino\n\nExit codes: 0 success; 1 evaluation error (malformed input, files that do not pair up, or where evaluate.pl dies dividing by zero with --compat alpino); 2 usage error."
)]
pub struct NbestArgs {
    /// The gold file, then one or more n-best files (one set of rows each).
    #[arg(value_name = "GOLD NBEST")]
    pub files: Vec<String>,

    /// Read Alpino's evaluate.pl input lines instead of CoNLL-U files:
    /// `KEY#…#OVERLAP|CORRECT|SYSTEM|CGN|CGN_TOTAL#WEIGHT`, consecutive lines with the same
    /// KEY being one sentence's candidates, WEIGHT its score (as `evaluate.pl -x`).
    /// Only CA and the triples' precision/recall/F are then reported.
    #[arg(long, value_name = "LINES", conflicts_with_all = ["profile", "punct", "labels"])]
    pub alpino: Option<String>,

    #[command(flatten)]
    pub conventions: ConventionArgs,

    /// Print exactly what a reference script prints instead of the report: alpino =
    /// `Disambiguation/evaluate.pl -x` of Alpino (overlap = LAS count with every word and
    /// the full DEPREL; cgn = words whose UPOS and LEMMA equal gold's; weight = parser
    /// score). One n-best file (or --alpino LINES); text only.
    #[arg(long, value_enum)]
    pub compat: Option<NbestCompat>,

    /// The evaluation score of each candidate in --export-training: ca, las, uas or la.
    #[arg(long, value_enum, default_value_t = NbestMetric::Ca)]
    pub metric: NbestMetric,

    /// Write the stochastic training set (van Noord et al. 2002) to FILE as JSON lines:
    /// a header line (schema "treeval.nbest-training/1"), then one object per candidate
    /// with sent_id, rank, features (parser_score), its --metric score and its target
    /// weight (the score over the sentence's summed scores; equal weights where all are
    /// 0). FILE may not be an input; an existing file is replaced only if treeval wrote it
    /// (see --force).
    #[arg(long, value_name = "FILE", help_heading = "Output files")]
    pub export_training: Option<String>,

    /// Choose with a reranker (`treeval rerank train -o MODEL`) instead of the parser
    /// score: chosen = the candidate with the highest model score w·f (ties → the
    /// earliest); with --compat alpino the weight is that score. Not with --alpino or
    /// --export-training.
    #[arg(long, value_name = "MODEL", conflicts_with_all = ["alpino", "export_training"])]
    pub model: Option<String>,

    #[command(flatten)]
    pub report: ReportArgs,

    /// Measures the tests compare between chosen and first, comma-separated (with
    /// --alpino: CA, macro-CA, P, R, F). (--ci puts an interval on every score.)
    #[arg(long, value_name = "METRICS", value_delimiter = ',', default_value = "LAS,UAS,LA,CA",
          value_parser = TestMetrics(treeval_metrics::nbest::pick_measures), help_heading = "Significance")]
    pub test_metrics: Vec<String>,
}

/// The option enums of `nbest` (the library's, with their help texts).
pub use treeval::nbest::{Compat as NbestCompat, NbestMetric};

/// An `nbest` pick measure by name (any case).
/// `treeval rerank` subcommands.
#[derive(Debug, Subcommand)]
pub enum RerankCommand {
    /// Train a reranker on (GOLD, NBEST) pairs and write it to MODEL; prints the
    /// cross-validation report.
    Train(RerankTrainArgs),
    /// Choose one candidate per sentence of NBEST with MODEL; prints them as CoNLL-U.
    Apply(RerankApplyArgs),
}

/// How the target distribution over a sentence's candidates is made (the library's).
pub use treeval::rerank::Target as RerankTarget;

/// `treeval rerank train` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "FILES are pairs: a gold file, then the n-best list of the same sentences (CoNLL-U blocks with '# rank = K' and '# parser_score = X', rank 1 first; gzip and zstd read transparently), as `treeval nbest` reads them. Sentences with one candidate, or whose candidates all score the same, teach nothing about the choice: they are counted in the report and left out of training.\n\nObjective: cross-entropy of p(t|s) ∝ exp(w·f(t)) against the target q over each sentence's candidates, plus ‖w‖²/(2σ²); minimised with L-BFGS (argmin). Features and their hashing: docs/metrics.md, \"rerank\".\n\nCross-validation: sentence k of the pooled training sentences is in fold k mod FOLDS; each configuration is trained on the other folds and judged by the micro score of its chosen candidates on the held-out fold; the best one is trained on everything.\n\nExample:\n  treeval rerank train gold.conllu nbest.conllu.gz -o model.json --target cv --sigma2 cv\n\nExit codes: 0 success; 1 a file cannot be read or paired, or training fails; 2 usage error."
)]
pub struct RerankTrainArgs {
    /// Training files: GOLD NBEST [GOLD NBEST …].
    #[arg(value_name = "GOLD NBEST", required = true, num_args = 2..)]
    pub files: Vec<String>,

    /// Where to write the model (JSON, schema treeval.rerank-model/1). It may not be an
    /// input; an existing file is replaced only if it is a treeval model (see --force).
    #[arg(short, long, value_name = "MODEL")]
    pub output: String,

    /// The evaluation score of each candidate that makes the target distribution (and
    /// judges the cross-validation): las, uas, la or ca, as in `treeval nbest`.
    #[arg(long, value_enum, default_value_t = NbestMetric::Las)]
    pub metric: NbestMetric,

    /// The target distribution over each sentence's candidates.
    #[arg(long, value_enum, default_value_t = RerankTarget::Cv)]
    pub target: RerankTarget,

    /// β of --target sharp (scores in percent: β = 1 makes one point of score worth a
    /// factor e). Without it, β is chosen by cross-validation among 0.1, 0.3 and 1.
    #[arg(long, value_name = "X", value_parser = parse_positive_real)]
    pub beta: Option<f64>,

    /// Variance σ² of the Gaussian prior on the weights, or `cv` to choose among 0.1, 1
    /// and 10 by cross-validation.
    #[arg(long, value_name = "X|cv", default_value = "cv", value_parser = parse_sigma2)]
    pub sigma2: Sigma2,

    /// Cross-validation folds (used when more than one configuration is to be chosen).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..))]
    pub folds: u16,

    /// Feature groups, comma-separated (default: all): score, rel, rel-pos,
    /// rel-dir-dist, lemma-rel, sibling, grandparent, valency, nonproj, roots.
    #[arg(long, value_name = "GROUPS", value_delimiter = ',')]
    pub features: Vec<String>,

    /// log2 of the hashed feature space.
    #[arg(long, value_name = "BITS", default_value_t = 20, value_parser = clap::value_parser!(u32).range(8..=28))]
    pub hash_bits: u32,

    /// List the model's N strongest features (largest |weight|) by name with their
    /// weights, in the report (every format; a name that shares its hashed index with
    /// another ends with "(+ collisions)").
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub top_features: usize,

    #[command(flatten)]
    pub conventions: ConventionArgs,

    /// Output format of the report.
    #[arg(long, value_parser = format_parser(), default_value = "text", help_heading = "Output")]
    pub format: Format,

    /// How text is laid out (`--wide`).
    #[command(flatten)]
    pub style: StyleArgs,

    /// No warnings on stderr (the warnings stay in the report).
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,

    /// Replace an existing MODEL even if it does not look like a treeval model. Input
    /// files are never replaced, --force or not.
    #[arg(long, help_heading = "Output files")]
    pub force: bool,
}

/// `treeval rerank apply` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Prints the highest-scoring candidate of each sentence (ties → the earliest rank) as plain CoNLL-U on stdout, scoreable by every other command. Comments are kept except '# rank' and '# parser_score'; '# rerank_rank = K' (the chosen rank) and '# rerank_score = X' (its model score) are added.\n\nExample:\n  treeval rerank apply model.json nbest.conllu.gz > chosen.conllu\n\nExit codes: 0 success; 1 a file cannot be read; 2 usage error."
)]
pub struct RerankApplyArgs {
    /// The model (`treeval rerank train -o MODEL`).
    #[arg(value_name = "MODEL")]
    pub model: String,

    /// The n-best list.
    #[arg(value_name = "NBEST")]
    pub nbest: String,

    /// No warnings on stderr.
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,
}

/// σ² given or chosen by cross-validation (the library's).
pub use treeval::rerank::Sigma2;

fn parse_sigma2(s: &str) -> Result<Sigma2, String> {
    s.parse()
}

fn parse_positive_real(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("expected a positive number, found '{s}'")),
    }
}
