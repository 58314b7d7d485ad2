//! `treeval ud` (CoNLL 2018 metrics; enhanced UD and resynchronisation come later).

use std::io::Write;

use treeval_formats::{Format as InFormat, ReaderBuilder};
use treeval_metrics::ud::{conll18_table, evaluate, UdFile};

use crate::args::{Format, UdArgs, UdCompat};
use crate::Failure;

fn load(path: &str, multiple_roots_okay: bool) -> Result<UdFile, String> {
    let mut rdr = ReaderBuilder::new()
        .format(Some(InFormat::Conllu))
        .validate_deps(false)
        .from_path(path)
        .map_err(|e| e.to_string())?;
    UdFile::read(&mut rdr, multiple_roots_okay).map_err(|d| {
        d.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Run the command.
pub fn run(a: &UdArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (gold, sys) = (
        load(&a.gold, a.multiple_roots_okay),
        load(&a.system, a.multiple_roots_okay),
    );
    let (gold, sys) = match (gold, sys) {
        (Ok(g), Ok(s)) => (g, s),
        (g, s) => {
            let msgs: Vec<String> = [g.err(), s.err()].into_iter().flatten().collect();
            return Err(Failure::Eval(msgs.join("\n")));
        }
    };
    let scores = evaluate(&gold, &sys).map_err(|m| {
        Failure::Eval(format!(
            "{}:{}: expected the same text as {}:{} (FORMs without spaces), found a difference at character {}: gold '{}', system '{}'\n  hint: ud compares the concatenated token FORMs; check for a truncated file, changed characters, or NFC vs NFD",
            a.system, m.system_line, a.gold, m.gold_line, m.index, m.gold_text, m.system_text
        ))
    })?;
    let text = match (a.compat, a.format) {
        (Some(UdCompat::Conll18), _) => conll18_table(&scores, false),
        (Some(UdCompat::Conll18Counts), _) => conll18_table(&scores, true),
        (None, Format::Json) => {
            let metrics: serde_json::Map<String, serde_json::Value> = scores
                .iter()
                .map(|(k, v)| (k.to_string(), serde_json::to_value(v).unwrap_or_default()))
                .collect();
            let v = serde_json::json!({
                "schema": treeval_report::SCHEMA,
                "command": "ud",
                "signature": format!("treeval {}|ud|labels:universal|align:strict", env!("CARGO_PKG_VERSION")),
                "gold": a.gold,
                "systems": [{"path": a.system, "metrics": metrics}],
            });
            format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
        }
        (None, _) => format!(
            "treeval {}|ud|labels:universal|align:strict\n{}",
            env!("CARGO_PKG_VERSION"),
            conll18_table(&scores, false)
        ),
    };
    out.write_all(text.as_bytes()).map_err(Failure::Io)?;
    out.flush().map_err(Failure::Io)
}
