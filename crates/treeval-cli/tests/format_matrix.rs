//! Every command × every `--format` × {one system, two systems with `--test ar --ci 0.95`},
//! on the small inputs in examples/ and testdata/: the outputs the report-model refactor
//! must keep (or change on purpose, commit by commit).

mod common;

use common::{outcome, treeval};

const FORMATS: [&str; 6] = ["text", "json", "csv", "tsv", "markdown", "latex"];

/// The cases: a name and the arguments after the command, one system and two.
const CASES: &[(&str, &[&str])] = &[
    (
        "deps-one",
        &["deps", "examples/gold.conllu", "examples/sys.conllu"],
    ),
    (
        "deps-two",
        &[
            "deps",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "examples/gold.conllu",
            "examples/sys.conllu",
            "examples/sys2.conllu",
        ],
    ),
    (
        "ud-one",
        &["ud", "examples/gold.conllu", "examples/sys.conllu"],
    ),
    (
        "ud-two",
        &[
            "ud",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "examples/gold.conllu",
            "examples/sys.conllu",
            "examples/sys2.conllu",
        ],
    ),
    (
        "relations-one",
        &["relations", "examples/gold.conllu", "examples/sys.conllu"],
    ),
    (
        "relations-two",
        &[
            "relations",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "examples/gold.conllu",
            "examples/sys.conllu",
            "examples/sys2.conllu",
        ],
    ),
    (
        "brackets-one",
        &[
            "brackets",
            "testdata/brackets/careful-paper/gold.txt",
            "testdata/brackets/careful-paper/test.txt",
        ],
    ),
    (
        "brackets-two",
        &[
            "brackets",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "testdata/brackets/careful-paper/gold.txt",
            "testdata/brackets/careful-paper/test.txt",
            "testdata/brackets/careful-paper/test2.txt",
        ],
    ),
    (
        "ted-one",
        &[
            "ted",
            "--gold",
            "testdata/ted/lexical-gold.conllu",
            "--parse",
            "testdata/ted/lexical-parse.conllu",
        ],
    ),
    (
        "ted-two",
        &[
            "ted",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "--exp",
            "a:testdata/ted/lexical-gold.conllu:testdata/ted/lexical-parse.conllu",
            "--exp",
            "b:testdata/ted/lexical-gold.conllu:testdata/ted/functional-parse.conllu",
        ],
    ),
    (
        "align-one",
        &[
            "align",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
        ],
    ),
    (
        "align-two",
        &[
            "align",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "testdata/align/gold.naacl",
            "testdata/align/hyp.pharaoh",
            "testdata/align/hyp2.pharaoh",
        ],
    ),
    (
        "pts-one",
        &[
            "pts",
            "--gold-a",
            "examples/pts/gold.en.conllu",
            "--gold-b",
            "examples/pts/gold.de.conllu",
            "--gold-align",
            "examples/pts/gold.en-de.naacl",
            "--sys-a",
            "examples/pts/parser.en.conllu",
            "--sys-b",
            "examples/pts/parser.de.conllu",
            "--sys-align",
            "examples/pts/aligner.en-de.pharaoh",
        ],
    ),
    (
        "pts-two",
        &[
            "pts",
            "--test",
            "ar",
            "--ci",
            "0.95",
            "--gold-a",
            "examples/pts/gold.en.conllu",
            "--gold-b",
            "examples/pts/gold.de.conllu",
            "--gold-align",
            "examples/pts/gold.en-de.naacl",
            "--sys-a",
            "examples/pts/parser.en.conllu",
            "--sys-b",
            "examples/pts/parser.de.conllu",
            "--sys-align",
            "examples/pts/aligner.en-de.pharaoh",
            "--sys-a",
            "examples/pts/gold.en.conllu",
            "--sys-b",
            "examples/pts/parser.de.conllu",
            "--sys-align",
            "examples/pts/gold.en-de.naacl",
        ],
    ),
];

#[test]
fn every_command_every_format() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_path("snapshots/format-matrix");
    settings.bind(|| {
        for (name, args) in CASES {
            for format in FORMATS {
                let mut a: Vec<&str> = args.to_vec();
                a.extend(["--format", format]);
                let o = treeval(&a);
                insta::assert_snapshot!(
                    format!("{name}-{format}"),
                    outcome(&o),
                    &format!("treeval {}", a.join(" "))
                );
            }
        }
    });
}
