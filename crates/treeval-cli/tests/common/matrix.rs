//! The cases of the format matrix (every command, one system and two with `--test ar
//! --ci 0.95`), shared by the tests that loop over every command.

use super::pts_inputs;

/// The cases: a name and the command line, one system and two.
pub fn cases() -> Vec<(&'static str, String)> {
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
