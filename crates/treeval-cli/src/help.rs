//! What `-h` and `--help` show of each command: the command line's definition
//! ([`crate::args::Cli`]) tailored per command. A shared option that a command refuses
//! (see `Capabilities` in output.rs and each command's `validate`) is hidden from its
//! help, and stays refused with its message when typed; `-h` shows the first clause of
//! each common option's text, then runnable examples and a line saying that `--help`
//! lists everything; `--help` shows every accepted option with its full text, the notes,
//! the same examples and the exit codes.

use crate::args::Format;

/// How one command's help is tailored.
struct Tailor {
    /// The command as typed after `treeval` (`rerank train`).
    path: &'static str,
    /// Shared options (clap ids) the command refuses: hidden from its help.
    refused: &'static [&'static str],
    /// Options (clap ids) that `-h` shows; the others are in `--help` only.
    short: &'static [&'static str],
    /// Examples that run from the repository's root (a line ending in `\` goes on).
    examples: &'static [&'static str],
    /// Texts of shared options that mean something else in this command (clap id, text).
    texts: &'static [(&'static str, &'static str)],
    /// Values of an option (clap id, value) the command refuses: not offered in its help
    /// (typed, they stay refused with the command's message).
    refused_values: &'static [(&'static str, &'static str)],
}

/// `--test mcnemar`, for commands that refuse it (no paired binary decisions).
const NO_MCNEMAR: &[(&str, &str)] = &[("tests", "mcnemar")];

/// The text of `--test` in a command that refuses McNemar's test.
const RESAMPLING_TESTS: (&str, &str) = ("tests", "Compare the systems pairwise with this test (repeatable): ar (approximate randomization = stratified shuffling of the units' counts), bootstrap (paired bootstrap resampling of the units, Koehn 2004); not mcnemar, which needs paired binary decisions. p-values are adjusted with Holm–Bonferroni over all pairs of each metric and test. Each comparison also gives the difference B − A (second system minus first) and its paired bootstrap interval.");

/// Output options a command without a sentence browser or `--where` refuses.
const NO_BROWSER_WHERE: &[&str] = &["html_sentences", "where_"];

const TAILORS: &[Tailor] = &[
    Tailor {
        path: "deps",
        refused: &[],
        short: &["profile", "punct", "by", "compat", "format", "names", "tests", "ci", "errors", "where_"],
        examples: &[
            "treeval deps examples/gold.conllu examples/sys.conllu",
            "treeval deps examples/gold.conllu examples/sys.conllu examples/sys2.conllu \\\n    --name A --name B --test ar",
            "treeval deps examples/gold.conllu examples/sys.conllu --by deprel --format json",
        ],
        texts: &[],
        refused_values: &[],
    },
    Tailor {
        path: "ud",
        refused: &[],
        short: &["align", "compat", "per_relation", "by", "format", "names", "tests", "ci", "errors", "where_"],
        examples: &[
            "treeval ud examples/gold.conllu examples/sys.conllu",
            "treeval ud examples/gold.conllu examples/sys.conllu --compat conll18",
            "treeval ud examples/gold.conllu examples/sys.conllu examples/sys2.conllu --test ar --ci 95",
        ],
        texts: &[RESAMPLING_TESTS],
        refused_values: NO_MCNEMAR,
    },
    Tailor {
        path: "relations",
        refused: NO_BROWSER_WHERE,
        short: &["graph", "align", "format", "names", "tests", "ci", "errors"],
        examples: &[
            "treeval relations examples/gold.conllu examples/sys.conllu",
            "treeval relations examples/gold.conllu examples/sys.conllu examples/sys2.conllu --test ar",
        ],
        texts: &[RESAMPLING_TESTS],
        refused_values: NO_MCNEMAR,
    },
    Tailor {
        path: "brackets",
        refused: &[],
        short: &["prm", "compat", "by", "careful", "format", "names", "tests", "ci", "errors", "where_"],
        examples: &[
            "treeval brackets testdata/brackets/words-300/gold.txt testdata/brackets/words-300/test.txt",
            "treeval brackets testdata/brackets/words-300/gold.txt testdata/brackets/words-300/test.txt \\\n    --compat evalb",
            "treeval brackets testdata/brackets/words-300/gold.txt testdata/brackets/words-300/test.txt \\\n    --by label --format json",
        ],
        texts: &[],
        refused_values: &[],
    },
    Tailor {
        path: "align",
        refused: &["where_"],
        short: &["gold_base", "hyp_base", "reverse", "compat", "tokens", "format", "names", "tests", "ci", "errors"],
        examples: &[
            "treeval align testdata/align/gold.naacl testdata/align/hyp.pharaoh",
            "treeval align testdata/align/gold.naacl testdata/align/hyp.pharaoh testdata/align/hyp2.pharaoh \\\n    --test ar",
            "treeval align testdata/align/gold.naacl testdata/align/hyp.pharaoh --compat aer.py",
        ],
        texts: &[RESAMPLING_TESTS],
        refused_values: NO_MCNEMAR,
    },
    Tailor {
        path: "pts",
        refused: NO_BROWSER_WHERE,
        short: &["gold_a", "gold_b", "gold_align", "sys_a", "sys_b", "sys_align", "weights", "format", "names", "tests", "ci"],
        examples: &[
            "treeval pts --gold-a examples/pts/gold.en.conllu --gold-b examples/pts/gold.de.conllu \\\n    --gold-align examples/pts/gold.en-de.naacl --sys-a examples/pts/parser.en.conllu \\\n    --sys-b examples/pts/parser.de.conllu --sys-align examples/pts/aligner.en-de.pharaoh",
            "treeval pts --gold-a examples/pts/gold.en.conllu --gold-b examples/pts/gold.de.conllu \\\n    --gold-align examples/pts/gold.en-de.naacl --sys-a examples/pts/parser.en.conllu \\\n    --sys-b examples/pts/parser.de.conllu --sys-align examples/pts/aligner.en-de.pharaoh \\\n    --weights 1,1,2 --format json",
        ],
        texts: &[],
        refused_values: &[],
    },
    Tailor {
        path: "ted",
        refused: NO_BROWSER_WHERE,
        short: &["gold", "parse", "exp", "unlabeled", "distance", "format", "names", "tests", "errors"],
        examples: &[
            "treeval ted --gold testdata/ted/lexical-gold.conllu --system testdata/ted/lexical-parse.conllu",
            "treeval ted --exp lexical:testdata/ted/lexical-gold.conllu:testdata/ted/lexical-parse.conllu \\\n    --exp functional:testdata/ted/functional-gold.conllu:testdata/ted/functional-parse.conllu",
            "treeval ted --distance testdata/ted/pairs.txt --script",
        ],
        texts: &[RESAMPLING_TESTS],
        refused_values: NO_MCNEMAR,
    },
    Tailor {
        path: "table",
        refused: &[
            "html_sentences", "where_", "errors", "names", "one_sided", "per_sentence",
            "emit_state", "keep_sentences", "force",
        ],
        short: &["measure", "command", "baseline", "rank_by", "format", "tests", "ci"],
        examples: &[
            "treeval table testdata/table/manifest.tsv --baseline sysA",
            "treeval table testdata/table/manifest.tsv --rank-by UAS --ci 95 --format latex",
        ],
        texts: &[
            ("tests", "The test of every system against --baseline on each treebank they share: ar (approximate randomization = stratified shuffling of per-sentence counts; the default) or bootstrap (paired bootstrap resampling of sentences, Koehn 2004); one test, not mcnemar. p-values are Holm–Bonferroni adjusted across each system's treebanks; each comparison also gives the difference (system − baseline) and its paired bootstrap interval."),
            ("ci", "Add a percentile bootstrap confidence interval at this level (a percentage: 95, 99.5) to every cell: each treebank's sentences resampled (--ci-samples, --seed); from saved reports, the report's interval at the same level (else n/a and a note); macro-avg has none."),
        ],
        refused_values: NO_MCNEMAR,
    },
    Tailor {
        path: "nbest",
        refused: &["html_sentences", "where_", "errors", "emit_state", "keep_sentences"],
        short: &["alpino", "compat", "export_training", "model", "format", "names", "tests"],
        examples: &[
            "treeval nbest testdata/nbest/alpino-example/example.gold.conllu \\\n    testdata/nbest/alpino-example/example.nbest.conllu",
            "treeval nbest testdata/nbest/alpino-example/example.gold.conllu \\\n    testdata/nbest/alpino-example/example.nbest.conllu --compat alpino",
            "treeval nbest --alpino testdata/nbest/alpino-example/example.parser.alpino.txt --compat alpino",
        ],
        texts: &[(
            "tests",
            "Compare chosen with first (rank 1) on the same sentences with this test (repeatable): mcnemar (paired per-word decisions, as in deps; not with --alpino), ar (approximate randomization = stratified shuffling of per-sentence counts), bootstrap (paired bootstrap resampling of sentences, Koehn 2004). Each comparison also gives the difference of the measure and its paired bootstrap interval.",
        )],
        refused_values: &[],
    },
    Tailor {
        path: "rerank train",
        refused: &[],
        short: &["output", "metric", "target", "sigma2", "folds", "top_features", "format"],
        examples: &[
            "treeval rerank train testdata/rerank/gold.conllu testdata/rerank/nbest.conllu \\\n    -o /tmp/treeval-model.json --folds 3 --top-features 5",
            "treeval rerank apply /tmp/treeval-model.json testdata/rerank/nbest.conllu",
        ],
        texts: &[],
        refused_values: &[],
    },
    Tailor {
        path: "rerank apply",
        refused: &[],
        short: &["quiet"],
        examples: &[
            "treeval rerank train testdata/rerank/gold.conllu testdata/rerank/nbest.conllu \\\n    -o /tmp/treeval-model.json --folds 3",
            "treeval rerank apply /tmp/treeval-model.json testdata/rerank/nbest.conllu",
        ],
        texts: &[],
        refused_values: &[],
    },
    Tailor {
        path: "merge",
        refused: &[
            "html_sentences", "where_", "errors", "sent_id", "min_len", "max_len",
            "per_sentence", "keep_sentences",
        ],
        short: &["confusion", "per_relation", "format", "names", "tests", "ci"],
        examples: &[
            "treeval deps examples/gold.conllu examples/sys.conllu examples/sys2.conllu \\\n    --emit-state /tmp/treeval-s1.json --keep-sentences --name A --name B",
            "treeval deps testdata/table/news-gold.conllu testdata/table/news-a.conllu \\\n    testdata/table/news-b.conllu --emit-state /tmp/treeval-s2.json --keep-sentences \\\n    --name A --name B",
            "treeval merge /tmp/treeval-s1.json /tmp/treeval-s2.json --test ar --ci 95",
        ],
        texts: &[],
        refused_values: &[],
    },
    Tailor {
        path: "measures",
        refused: &[],
        short: &["format"],
        examples: &["treeval measures", "treeval measures --format markdown"],
        texts: &[],
        refused_values: &[],
    },
];

/// The width help is wrapped to, at most.
pub const WIDTH: usize = 100;

/// The command line's definition with every command's help tailored.
pub fn command() -> clap::Command {
    let cmd = <crate::args::Cli as clap::CommandFactory>::command().max_term_width(WIDTH);
    TAILORS.iter().fold(cmd, |cmd, t| {
        let mut path = t.path.split(' ');
        let first = path.next().unwrap_or_default();
        match path.next() {
            Some(second) => {
                cmd.mut_subcommand(first, |c| c.mut_subcommand(second, |s| tailor(s, t)))
            }
            None => cmd.mut_subcommand(first, |c| tailor(c, t)),
        }
    })
}

/// One command's help tailored by `t`.
fn tailor(cmd: clap::Command, t: &Tailor) -> clap::Command {
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let compat = ids.iter().any(|id| id == "compat");
    let browser =
        ids.iter().any(|id| id == "html_sentences") && !t.refused.contains(&"html_sentences");
    let mut cmd = ids.iter().fold(cmd, |cmd, id| {
        cmd.mut_arg(id, |a| tailor_arg(a, id, t, compat, browser))
    });
    let examples = examples_text(t.examples);
    let notes = cmd
        .get_after_help()
        .map(|s| s.to_string())
        .unwrap_or_default();
    let long = merge_notes(&notes, &examples);
    let short = format!(
        "{examples}\n`treeval {} --help` lists every option with its full text, and the exit codes.",
        t.path
    );
    // a negative number is an option's value (refused by its parser with what it
    // expects), not an unknown option with clap's tip to write `-- -1`, which would make
    // it a file
    cmd = cmd
        .after_help(short)
        .after_long_help(long)
        .allow_negative_numbers(true);
    cmd
}

/// One option of a command tailored by `t`: hidden if the command refuses it, its text
/// the command's own (`texts`, `--format`), in `-h` only if common.
fn tailor_arg(a: clap::Arg, id: &str, t: &Tailor, compat: bool, browser: bool) -> clap::Arg {
    let report_format = a
        .get_possible_values()
        .iter()
        .any(|v| v.get_name() == "html");
    let a = if id == "format" && report_format {
        true_format(a, compat, browser)
    } else {
        a
    };
    let a = match t.texts.iter().find(|(i, _)| *i == id) {
        Some((_, text)) => a.help(*text).long_help(None::<&str>),
        None => a,
    };
    let a = if id == "tests" && t.refused_values.iter().any(|(i, _)| *i == id) {
        offered_tests(a, t)
    } else {
        a
    };
    if t.refused.contains(&id) {
        a.hide(true)
    } else if a.is_positional() || id == "help" || t.short.contains(&id) {
        shorten(a)
    } else {
        a.hide_short_help(true)
    }
}

/// `--test` offering only the tests the command takes: the others hidden from its list
/// of values (still parsed, so the command's own message refuses them).
fn offered_tests(a: clap::Arg, t: &Tailor) -> clap::Arg {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    use clap::ValueEnum;
    let refused = |name: &str| t.refused_values.contains(&("tests", name));
    let values = crate::args::TestArg::value_variants()
        .iter()
        .filter_map(|v| {
            let p = v.to_possible_value()?;
            let hide = refused(p.get_name());
            Some(p.hide(hide))
        });
    a.value_parser(
        PossibleValuesParser::new(values.collect::<Vec<_>>())
            .try_map(|name| crate::args::TestArg::from_str(&name, false)),
    )
}

/// The `Examples:` block of `examples`.
fn examples_text(examples: &[&str]) -> String {
    let mut s = String::from("Examples:\n");
    for e in examples {
        s.push_str("  ");
        s.push_str(e);
        s.push('\n');
    }
    s
}

/// The long help's notes: the command's notes without their own examples, then the
/// examples, then the exit codes.
fn merge_notes(notes: &str, examples: &str) -> String {
    let paras: Vec<&str> = notes
        .split("\n\n")
        .filter(|p| !p.starts_with("Example"))
        .collect();
    let (exit, rest): (Vec<&str>, Vec<&str>) =
        paras.into_iter().partition(|p| p.starts_with("Exit codes"));
    let mut out: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
    out.push(examples.trim_end().to_string());
    out.extend(exit.iter().map(|s| s.to_string()));
    if exit.is_empty() {
        out.push("Exit codes: 0 success; 1 evaluation error; 2 usage error.".into());
    }
    out.join("\n\n")
}

/// `--format` as the command has it: the HTML page's sentence browser only where the
/// command's page has one, and `--compat` only where the command has it.
fn true_format(a: clap::Arg, compat: bool, browser: bool) -> clap::Arg {
    let Some(mut h) = a.get_help().map(|h| h.to_string()) else {
        return a;
    };
    if !compat {
        h = h.replace(" With --compat: text only.", "");
        h = h.replace(" With --compat: text only", "");
    }
    if !browser {
        h = h.replace(", and a sentence browser where the command has one", "");
    }
    a.help("Output format")
        .long_help(h)
        .value_parser(format_values(browser))
}

/// `--format`'s values with their descriptions; the HTML page's without a sentence
/// browser where the command's page has none.
fn format_values(browser: bool) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let about = move |f: Format| {
        match f {
        Format::Html if !browser => {
            "One self-contained HTML page (tables and charts; its script is inline, nothing is fetched)"
        }
        _ => f.about(),
    }
    };
    PossibleValuesParser::new(Format::ALL.map(|f| PossibleValue::new(f.name()).help(about(f))))
        .try_map(|name| Format::from_name(&name).ok_or("not an output format"))
}

/// `a` with its full text as the long help and its first clause as the short help.
fn shorten(a: clap::Arg) -> clap::Arg {
    if a.get_long_help().is_some() {
        return a;
    }
    let Some(full) = a.get_help().map(|h| h.to_string()) else {
        return a;
    };
    let short = first_clause(&full);
    if short == full {
        return a;
    }
    a.help(short).long_help(full)
}

/// The first sentence of `text`, cut, when longer than 60 characters, at its first
/// top-level `: ` or `; ` after 15 characters (a clause that stands alone), and when
/// still longer than 80, before its first top-level parenthesis after 30 characters.
pub fn first_clause(text: &str) -> String {
    let mut depth = 0i32;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut end = text.len();
    let mut cut = None;
    let mut paren = None;
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next = chars.get(k + 1).map(|x| x.1);
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == '(' && depth == 1 && paren.is_none() && text[..i].chars().count() >= 30 {
            paren = Some(i);
        }
        if depth > 0 && c != '(' {
            continue;
        }
        let at_space = next.map_or(true, char::is_whitespace);
        if c == '.' && at_space && !text[..i].ends_with("e.g") && !text[..i].ends_with("i.e") {
            end = i;
            break;
        }
        let clause = (c == ':' || c == ';') && depth == 0 && at_space;
        if cut.is_none() && clause && text[..i].chars().count() >= 15 {
            cut = Some(i);
        }
    }
    let sentence = text[..end].trim_end();
    let clause = match cut {
        Some(i) if i < end && sentence.chars().count() > 60 => text[..i].trim_end(),
        _ => sentence,
    };
    match paren {
        Some(i) if i < clause.len() && clause.chars().count() > 80 => text[..i].trim_end().into(),
        _ => clause.into(),
    }
}
