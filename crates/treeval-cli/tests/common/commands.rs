//! Every evaluating command with two systems, on the repository's small inputs: the
//! cases the surface tests (names, widths, significance) loop over, so that a command
//! added here is checked by all of them.

/// A command with two systems: its name and its arguments (systems given in the order
/// A, B), paths relative to the repository root.
pub struct Case {
    /// The command (`deps`, …).
    pub command: &'static str,
    /// Its arguments, the command first.
    pub args: Vec<String>,
    /// What one system is to `--name` (`system`, `n-best list`, `system triple`).
    pub unit: &'static str,
}

fn case(command: &'static str, line: String, unit: &'static str) -> Case {
    Case {
        command,
        args: line.split_whitespace().map(str::to_owned).collect(),
        unit,
    }
}

/// The evaluating commands, each with two systems.
pub fn two_systems() -> Vec<Case> {
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
    let pts = super::pts_inputs(p);
    vec![
        case("deps", format!("deps {g} {s} {s2}"), "system"),
        case("ud", format!("ud {g} {s} {s2}"), "system"),
        case("relations", format!("relations {g} {s} {s2}"), "system"),
        case(
            "brackets",
            format!("brackets {b}/gold.txt {b}/test.txt {b}/test2.txt"),
            "system",
        ),
        case(
            "align",
            format!("align {a}/gold.naacl {a}/hyp.pharaoh {a}/hyp2.pharaoh"),
            "system",
        ),
        case(
            "nbest",
            format!(
                "nbest {n}/example.gold.conllu {n}/example.nbest.conllu {n}/example.nbest.conllu"
            ),
            "n-best list",
        ),
        case(
            "ted",
            format!(
                "ted --gold {t}/lexical-gold.conllu --parse {t}/lexical-parse.conllu \
                 --parse {t}/functional-parse.conllu"
            ),
            "system",
        ),
        case(
            "pts",
            format!(
                "pts {pts} --sys-a {p}gold.en.conllu --sys-b {p}parser.de.conllu \
                 --sys-align {p}gold.en-de.naacl"
            ),
            "system triple",
        ),
    ]
}
