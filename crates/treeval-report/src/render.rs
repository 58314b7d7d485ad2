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
    /// One self-contained HTML page (inline CSS and script, nothing fetched).
    Html,
}

impl OutputFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [OutputFormat; 7] = [
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Csv,
        OutputFormat::Tsv,
        OutputFormat::Markdown,
        OutputFormat::Latex,
        OutputFormat::Html,
    ];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
            OutputFormat::Csv => "csv",
            OutputFormat::Tsv => "tsv",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Latex => "latex",
            OutputFormat::Html => "html",
        }
    }

    /// What the format is, in a few words.
    pub fn about(self) -> &'static str {
        match self {
            OutputFormat::Text => "Aligned tables for reading",
            OutputFormat::Json => "The versioned JSON contract (schema \"treeval.report/3\")",
            OutputFormat::Csv => {
                "Long-format CSV: one row per input, cell (system, section, key, measure), test and rank"
            }
            OutputFormat::Tsv => "The same, tab-separated",
            OutputFormat::Markdown => "Markdown tables",
            OutputFormat::Latex => "A LaTeX tabular (booktabs)",
            OutputFormat::Html => {
                "One self-contained HTML page (tables, charts, a sentence browser; its script is inline, nothing is fetched)"
            }
        }
    }

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}
