//! Every evaluating command on the repository's small inputs, with one system and with
//! two: the one list the surface tests (names, widths, significance, the format matrix,
//! the vocabulary) loop over, so that a command added here is checked by all of them.

/// An evaluating command: its name, its arguments with one system and with two (systems
/// given in the order A, B; paths relative to the repository root).
pub struct Case {
    /// The command (`deps`, …).
    pub command: &'static str,
    /// Its arguments with one system, the command first.
    pub one: Vec<String>,
    /// Its arguments with two systems, the command first.
    pub args: Vec<String>,
    /// What one system is to `--name` (`system`, `n-best list`, `system triple`).
    pub unit: &'static str,
}

fn case(command: &'static str, one: String, two: String, unit: &'static str) -> Case {
    let split = |l: String| l.split_whitespace().map(str::to_owned).collect();
    Case {
        command,
        one: split(one),
        args: split(two),
        unit,
    }
}

/// The evaluating commands, each with one system and with two.
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
    let same = |c: &'static str, first: String, second: &str| {
        case(
            c,
            format!("{c} {first}"),
            format!("{c} {first} {second}"),
            "system",
        )
    };
    vec![
        same("deps", format!("{g} {s}"), s2),
        same("ud", format!("{g} {s}"), s2),
        same("relations", format!("{g} {s}"), s2),
        same(
            "brackets",
            format!("{b}/gold.txt {b}/test.txt"),
            &format!("{b}/test2.txt"),
        ),
        same(
            "align",
            format!("{a}/gold.naacl {a}/hyp.pharaoh"),
            &format!("{a}/hyp2.pharaoh"),
        ),
        case(
            "nbest",
            format!("nbest {n}/example.gold.conllu {n}/example.nbest.conllu"),
            format!(
                "nbest {n}/example.gold.conllu {n}/example.nbest.conllu {n}/example.nbest.conllu"
            ),
            "n-best list",
        ),
        case(
            "ted",
            format!("ted --gold {t}/lexical-gold.conllu --system {t}/lexical-parse.conllu"),
            format!(
                "ted --gold {t}/lexical-gold.conllu --system {t}/lexical-parse.conllu \
                 --system {t}/functional-parse.conllu"
            ),
            "system",
        ),
        case(
            "pts",
            format!("pts {pts}"),
            format!(
                "pts {pts} --sys-a {p}gold.en.conllu --sys-b {p}parser.de.conllu \
                 --sys-align {p}gold.en-de.naacl"
            ),
            "system triple",
        ),
    ]
}
