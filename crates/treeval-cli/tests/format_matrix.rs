//! Every command × every `--format` × {one system, two systems with `--test ar --ci 0.95`},
//! on the small inputs in examples/ and testdata/: the outputs the report-model refactor
//! must keep (or change on purpose, commit by commit).

mod common;

use common::{argv, outcome, pts_inputs, treeval};

const FORMATS: [&str; 7] = ["text", "json", "csv", "tsv", "markdown", "latex", "html"];

/// The cases: a name and the command line, one system and two.
fn cases() -> Vec<(&'static str, String)> {
    let two = "--test ar --ci 0.95";
    let (g, s, s2) = (
        "examples/gold.conllu",
        "examples/sys.conllu",
        "examples/sys2.conllu",
    );
    let b = "testdata/brackets/careful-paper";
    let t = "testdata/ted";
    let a = "testdata/align";
    let p = "examples/pts/";
    let n = "testdata/nbest/alpino-example";
    let pts = pts_inputs(p);
    vec![
        ("deps-one", format!("deps {g} {s}")),
        ("deps-two", format!("deps {two} {g} {s} {s2}")),
        ("ud-one", format!("ud {g} {s}")),
        ("ud-two", format!("ud {two} {g} {s} {s2}")),
        ("relations-one", format!("relations {g} {s}")),
        ("relations-two", format!("relations {two} {g} {s} {s2}")),
        (
            "brackets-one",
            format!("brackets {b}/gold.txt {b}/test.txt"),
        ),
        (
            "brackets-two",
            format!("brackets {two} {b}/gold.txt {b}/test.txt {b}/test2.txt"),
        ),
        (
            "ted-one",
            format!("ted --gold {t}/lexical-gold.conllu --parse {t}/lexical-parse.conllu"),
        ),
        (
            "ted-two",
            format!(
                "ted {two} --exp a:{t}/lexical-gold.conllu:{t}/lexical-parse.conllu \
                 --exp b:{t}/lexical-gold.conllu:{t}/functional-parse.conllu"
            ),
        ),
        ("align-one", format!("align {a}/gold.naacl {a}/hyp.pharaoh")),
        (
            "align-two",
            format!("align {two} {a}/gold.naacl {a}/hyp.pharaoh {a}/hyp2.pharaoh"),
        ),
        (
            "nbest-one",
            format!("nbest {n}/example.gold.conllu {n}/example.nbest.conllu"),
        ),
        (
            "nbest-two",
            format!(
                "nbest {two} {n}/example.gold.conllu {n}/example.nbest.conllu \
                 {n}/example.nbest.conllu"
            ),
        ),
        ("pts-one", format!("pts {pts}")),
        (
            "pts-two",
            format!(
                "pts {two} {pts} --sys-a {p}gold.en.conllu --sys-b {p}parser.de.conllu \
                 --sys-align {p}gold.en-de.naacl"
            ),
        ),
    ]
}

/// A page with its inlined style and script (the same in every page; checked in headless
/// Chromium by tests/browser) and its charts' SVG (checked by the unit tests of
/// `emit::plots` and in Chromium) replaced by marks, so that the snapshots show the page's
/// content.
fn without_inline_code(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(a) = rest.find("<svg") {
        let Some(b) = rest[a..].find("</svg>") else {
            break;
        };
        out.push_str(&rest[..a]);
        out.push_str("<svg>(chart)</svg>");
        rest = &rest[a + b + "</svg>".len()..];
    }
    out.push_str(rest);
    for (open, close) in [("<style>", "</style>"), ("<script>\n", "</script>")] {
        if let Some(a) = out.find(open) {
            if let Some(b) = out[a..].find(close) {
                out.replace_range(
                    a + open.len()..a + b,
                    "(inline, see crates/treeval-report/src/emit)",
                );
            }
        }
    }
    out
}

#[test]
fn every_command_every_format() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_path("snapshots/format-matrix");
    settings.bind(|| {
        for (name, line) in cases() {
            for format in FORMATS {
                let mut a = argv(&line);
                a.extend(["--format", format]);
                let o = treeval(&a);
                insta::assert_snapshot!(
                    format!("{name}-{format}"),
                    without_inline_code(&outcome(&o)),
                    &format!("treeval {}", a.join(" "))
                );
            }
        }
    });
}
