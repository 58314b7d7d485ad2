//! Any text as a `ted --distance` line: two trees in bracket notation separated by a tab.
//! Parsing must not panic; small trees are measured and the edit script must cost the
//! distance, which is symmetric.
#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use treeval_metrics::ted::{distance, distance_with_script, parse_apted, script_cost, Tree, UnitCost};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut intern = |x: &str| {
        let n = labels.len() as u32;
        *labels.entry(x.to_owned()).or_insert(n)
    };
    let Some((x, y)) = text.split_once('\t') else {
        let _ = parse_apted(&text, &mut intern);
        return;
    };
    let (Ok(a), Ok(b)) = (parse_apted(x, &mut intern), parse_apted(y, &mut intern)) else {
        return;
    };
    let (a, b) = (Tree::from_node(&a), Tree::from_node(&b));
    if a.len() > 60 || b.len() > 60 {
        return;
    }
    let (d, script) = distance_with_script(&a, &b, &UnitCost);
    assert_eq!(script_cost(&script), d);
    assert_eq!(distance(&b, &a, &UnitCost), d);
});
