//! The output formats.

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Aligned tables for people.
    Text,
    /// The versioned JSON contract.
    Json,
    /// Long-format CSV: one row per (system, section, key, metric).
    Csv,
    /// The same as tab-separated values.
    Tsv,
    /// Markdown tables.
    Markdown,
    /// A LaTeX `tabular` (booktabs).
    Latex,
}
