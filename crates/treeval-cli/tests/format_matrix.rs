//! Every command × every `--format` (and text `--wide`) × {one system, two systems with
//! `--test ar --ci 95`},
//! on the small inputs in examples/ and testdata/: the outputs the report-model refactor
//! must keep (or change on purpose, commit by commit).

mod common;

use common::cases::cases;
use common::{argv, outcome, treeval};

const FORMATS: [&str; 7] = ["text", "json", "csv", "tsv", "markdown", "latex", "html"];

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
            // --wide: the text as it was before it fitted 100 columns
            let mut a = argv(&line);
            a.extend(["--format", "text", "--wide"]);
            let o = treeval(&a);
            insta::assert_snapshot!(
                format!("{name}-wide"),
                outcome(&o),
                &format!("treeval {}", a.join(" "))
            );
        }
    });
}
