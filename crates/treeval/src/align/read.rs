//! Reading `align`'s files: the gold and the hypotheses (projected through subword
//! pieces), the tokens, and how their sentences pair up.

use treeval_formats::align::{AlignOptions, AlignmentFile};
use treeval_formats::subwords::{project, read_pieces, PieceFile};
use treeval_metrics::align::pair_sentences;
use treeval_report::model::Warning;

use super::{Compat, Options, Read, Tokens};
use crate::{Error, Input, Inputs, Result};

/// What scoring a hypothesis again needs (to try another base or direction).
pub(crate) struct Scoring<'a> {
    pub gold: &'a AlignmentFile,
    /// The inputs, to read a file again.
    pub inputs: &'a Inputs,
    pub gold_opts: AlignOptions,
    pub hyp_opts: AlignOptions,
    pub keep_null: bool,
    /// `hyp_subwords`: the pieces every hypothesis is projected through.
    pub pieces: Option<&'a [PieceFile; 2]>,
}

impl Scoring<'_> {
    /// Read hypothesis `name` again with `o` (projected through the pieces, if any).
    pub fn reread(&self, name: &str, o: AlignOptions) -> Option<AlignmentFile> {
        let input = self.inputs.systems.iter().find(|i| i.name() == name)?;
        let h = input.read_alignments(o).ok()?;
        match self.pieces {
            Some([src, tgt]) => project(&h, src, tgt).ok(),
            None => Some(h),
        }
    }

    /// Read the gold again with `o`.
    pub fn reread_gold(&self, o: AlignOptions) -> Option<AlignmentFile> {
        self.inputs.gold.read_alignments(o).ok()
    }
}

/// The gold, the hypotheses (projected onto words with `hyp_subwords`), the pieces and
/// the files' reading warnings (the tokens are read later).
pub(super) fn inputs(options: &Options, inputs: &Inputs) -> Result<(Read, Vec<Warning>)> {
    let (gold, hyps) = read(options, inputs)?;
    let pieces = subwords(options)?;
    let hyps = match &pieces {
        Some(p) => project_all(&hyps, p)?,
        None => hyps,
    };
    let warnings = std::iter::once(&gold)
        .chain(&hyps)
        .flat_map(|f| f.warnings.iter().map(Warning::from))
        .collect();
    let files = Read {
        gold,
        hyps,
        pieces,
        tokens: None,
    };
    Ok((files, warnings))
}

/// The gold and every hypothesis file; all read errors together.
fn read(options: &Options, inputs: &Inputs) -> Result<(AlignmentFile, Vec<AlignmentFile>)> {
    let gold = (inputs.gold)
        .read_alignments(options.gold_options())
        .map_err(|e| Error::Eval(e.to_string()))?;
    let mut errors = Vec::new();
    let mut hyps = Vec::new();
    for p in &inputs.systems {
        match p.read_alignments(options.hyp_options()) {
            Ok(h) => hyps.push(h),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Eval(errors.join("\n")));
    }
    Ok((gold, hyps))
}

/// The words of both sides (`tokens`): per file, per line, its words.
pub(super) fn tokens(options: &Options) -> Result<Option<Tokens>> {
    let [src, tgt] = options.tokens.as_slice() else {
        return Ok(None);
    };
    let read = |input: &Input| -> Result<Vec<Vec<String>>> {
        let text = input
            .read_text("one sentence of words per line")
            .map_err(|e| Error::Eval(e.to_string()))?;
        Ok(text
            .lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect())
    };
    Ok(Some([read(src)?, read(tgt)?]))
}

/// `hyp_subwords`: the two pieces files.
fn subwords(options: &Options) -> Result<Option<[PieceFile; 2]>> {
    let [src, tgt] = options.hyp_subwords.as_slice() else {
        return Ok(None);
    };
    let read = |input: &Input| -> Result<PieceFile> {
        let text = input
            .read_text("one sentence of subword pieces per line")
            .map_err(|e| Error::Eval(e.to_string()))?;
        Ok(read_pieces(input.name(), &text))
    };
    Ok(Some([read(src)?, read(tgt)?]))
}

/// Every hypothesis projected from pieces onto words; all errors together.
fn project_all(hyps: &[AlignmentFile], p: &[PieceFile; 2]) -> Result<Vec<AlignmentFile>> {
    let (ok, errors): (Vec<_>, Vec<_>) = hyps
        .iter()
        .map(|h| project(h, &p[0], &p[1]))
        .partition(std::result::Result::is_ok);
    if !errors.is_empty() {
        let all: Vec<String> = errors
            .into_iter()
            .filter_map(|e| e.err().map(|e| e.to_string()))
            .collect();
        return Err(Error::Eval(all.join("\n")));
    }
    Ok(ok.into_iter().filter_map(std::result::Result::ok).collect())
}

/// The number of sentences the files pair up on. Counts that do not pair up are errors,
/// except where the WPT scorer (which has no notion of sentences) scores the files
/// anyway: its compat mode warns instead.
pub(super) fn pair(
    options: &Options,
    (gold, hyps): (&AlignmentFile, &[AlignmentFile]),
    wa_eval: bool,
    warnings: &mut Vec<Warning>,
) -> Result<u64> {
    let pairing = pair_sentences(
        gold,
        &hyps.iter().collect::<Vec<_>>(),
        options.sentences.map(|n| (n, "--sentences")),
    );
    if !pairing.errors.is_empty() && !wa_eval {
        let aer_py = if options.compat == Some(Compat::AerPy) {
            " (aer.py stops with an AssertionError here)"
        } else {
            ""
        };
        let all: Vec<String> = pairing
            .errors
            .iter()
            .map(|p| {
                let mut p = p.clone();
                p.message.push_str(aer_py);
                p.to_string()
            })
            .collect();
        return Err(Error::Eval(all.join("\n")));
    }
    for p in pairing.errors.iter().chain(&pairing.warnings) {
        let message = if pairing.errors.contains(p) {
            format!("{} (wa_eval_align.pl scores the links anyway)", p.message)
        } else {
            p.message.clone()
        };
        warnings.push(Warning::of(
            p.kind,
            p.path.to_string(),
            message,
            p.hint.clone(),
        ));
    }
    Ok(pairing.sentences)
}
