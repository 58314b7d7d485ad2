//! The cases of the format matrix (tests/format_matrix.rs), the width test
//! (tests/widths.rs) and the differences test (tests/differences.rs): every command of
//! [`two_systems`](super::commands::two_systems) with one system, and with two under
//! [`TWO`].

/// The options of the two-system cases.
pub const TWO: &str = "--test ar --ci 95";

/// The cases: a name (`deps-one`, `deps-two`) and the command line.
pub fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in super::commands::two_systems() {
        out.push((format!("{}-one", c.command), c.one.join(" ")));
        let rest = c.args[1..].join(" ");
        out.push((
            format!("{}-two", c.command),
            format!("{} {TWO} {rest}", c.command),
        ));
    }
    out
}
