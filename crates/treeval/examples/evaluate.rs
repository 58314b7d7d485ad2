//! Score system files against a gold file with the `deps` family and print each
//! headline measure with its counts:
//!
//! ```text
//! cargo run -p treeval --example evaluate -- GOLD SYS [SYS…]
//! ```

use treeval::{deps, Common, Inputs};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((gold, systems)) = args.split_first().filter(|(_, s)| !s.is_empty()) else {
        eprintln!("usage: evaluate GOLD SYS [SYS…]");
        std::process::exit(2);
    };
    let inputs = Inputs::new(gold, systems);
    let ev = match deps::evaluate(&deps::Options::default(), &inputs, &Common::default()) {
        Ok(ev) => ev,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    for w in ev.warnings() {
        eprintln!("warning: {w}");
    }
    for (k, name) in inputs.system_names().iter().enumerate() {
        println!("{name}");
        for measure in ["LAS", "UAS", "LA", "LEM", "UEM"] {
            let Some(cell) = ev.report.cell(measure, k) else {
                continue;
            };
            let counts: Vec<String> = cell.counts.iter().map(|c| c.to_string()).collect();
            let value = cell
                .value
                .map_or("n/a".to_owned(), |v| format!("{:.2}", 100.0 * v));
            println!("  {measure} {} = {value}", counts.join("/"));
        }
    }
}
