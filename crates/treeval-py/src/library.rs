//! The library called from Python: keyword arguments made into the family's typed
//! options and [`treeval::Common`], inputs read from paths or from memory, and the report
//! returned as Python objects built from the Rust value (no command line, no temporary
//! file, no JSON text).

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use treeval::files::{Output, OutputKind};
use treeval::keywords::{names, split as split_keywords, KeywordError};

/// One input from Python: a path, or `(name, bytes)` held in memory.
#[derive(Debug, FromPyObject)]
pub enum PyInput {
    /// A path.
    Path(String),
    /// A name and the bytes.
    Memory(String, Vec<u8>),
}

impl From<PyInput> for treeval::Input {
    fn from(i: PyInput) -> Self {
        match i {
            PyInput::Path(p) => treeval::Input::Path(p),
            PyInput::Memory(name, data) => treeval::Input::memory(name, data),
        }
    }
}

/// The keyword arguments of the front end itself, not options of the library.
#[derive(Debug, Default)]
struct FrontEnd {
    quiet: bool,
    per_sentence: Option<String>,
    emit_state: Option<String>,
    force: bool,
    state: bool,
}

/// The keywords [`FrontEnd`] reads.
const FRONT_END: [&str; 5] = ["quiet", "per_sentence", "emit_state", "force", "state"];

/// Split the keyword arguments into the family's options `F`, [`treeval::Common`] and
/// the front end's own, by the library's rule ([`treeval::keywords`]); an unknown keyword
/// is a TypeError naming the valid ones.
fn split<F: Serialize + DeserializeOwned + Default>(
    command: &str,
    kwargs: &Bound<'_, PyDict>,
) -> PyResult<(F, treeval::Common, FrontEnd)> {
    split_with(command, kwargs, &[])
}

/// [`split`] of a family whose keywords `inputs` name inputs (taken out of `kwargs`
/// already; an unknown keyword's TypeError names them too).
fn split_with<F: Serialize + DeserializeOwned + Default>(
    command: &str,
    kwargs: &Bound<'_, PyDict>,
    inputs: &[&str],
) -> PyResult<(F, treeval::Common, FrontEnd)> {
    split_only(command, kwargs, inputs, &FRONT_END, &|_| true)
}

/// [`split`] with the front end's keywords `front` and the shared options `common` takes.
fn split_only<F: Serialize + DeserializeOwned + Default>(
    command: &str,
    kwargs: &Bound<'_, PyDict>,
    inputs: &[&str],
    front: &[&str],
    common: &dyn Fn(&str) -> bool,
) -> PyResult<(F, treeval::Common, FrontEnd)> {
    let mut own = FrontEnd::default();
    let mut pairs = Vec::new();
    for (k, v) in kwargs.iter() {
        let key: String = k.extract()?;
        if v.is_none() {
            continue;
        }
        if front.contains(&key.as_str()) {
            front_end(&mut own, &key, &v)?;
            continue;
        }
        let value: Value = pythonize::depythonize(&v)
            .map_err(|e| PyTypeError::new_err(format!("treeval.{command}(): {key}: {e}")))?;
        pairs.push((key, value));
    }
    let s = split_keywords::<F>(pairs, front, common).map_err(|e| match e {
        KeywordError::Unknown { name, valid } => PyTypeError::new_err(format!(
            "treeval.{command}() got an unexpected keyword argument {name:?}; its options are: {}",
            with_inputs(valid, inputs).join(", ")
        )),
        KeywordError::Invalid(m) => PyValueError::new_err(format!("treeval.{command}(): {m}")),
    })?;
    let mut common = s.common;
    common.state = own.state || common.keep_sentences || own.emit_state.is_some();
    Ok((s.family, common, own))
}

/// A keyword of the front end.
fn front_end(front: &mut FrontEnd, key: &str, v: &Bound<'_, PyAny>) -> PyResult<()> {
    match key {
        "quiet" => front.quiet = v.is_truthy()?,
        "force" => front.force = v.is_truthy()?,
        "state" => front.state = v.is_truthy()?,
        "per_sentence" => front.per_sentence = Some(v.extract()?),
        _ => front.emit_state = Some(v.extract()?),
    }
    Ok(())
}

/// Every keyword a function of family options `F` accepts, sorted.
fn keywords<F: Serialize + Default>() -> Vec<String> {
    names::<F>(&FRONT_END, &|_| true)
}

/// A library error as the Python exception of its kind.
fn raise(e: treeval::Error) -> PyErr {
    match e {
        treeval::Error::Usage(m) => PyValueError::new_err(m),
        treeval::Error::Eval(m) => PyRuntimeError::new_err(m),
        // the warnings until then explain the failure: after the message, one entry per
        // kind as the command line prints them
        treeval::Error::Partial {
            message, warnings, ..
        } => {
            let mut m = message;
            for w in treeval_report::model::group_warnings(warnings) {
                m.push_str(&format!("\nwarning: {w}"));
            }
            PyRuntimeError::new_err(m)
        }
    }
}

/// What [`evaluate`] returns to Python: the report (a dict, as `--format json` has it),
/// the state (when asked: [`StateInfo`]), the warning lines to print (none when quiet).
type Returned<'py> = (Bound<'py, PyAny>, Option<StateInfo>, Vec<String>);

/// A state as Python's `State` holds it: its text, family, shards and whether it kept
/// the per-sentence rows.
type StateInfo = (String, String, u64, bool);

/// The [`StateInfo`] of `s`, whose text is `text`.
fn state_info_of(s: &treeval::State, text: String) -> StateInfo {
    let f = &s.family;
    (text, f.name().to_owned(), s.shards, f.has_sentences())
}

/// Evaluate `inputs` (gold first) with the family `command` and the keyword arguments.
#[pyfunction]
pub fn evaluate<'py>(
    py: Python<'py>,
    command: &str,
    inputs: Vec<PyInput>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Returned<'py>> {
    use treeval::{align, deps, relations, ud};
    match command {
        "deps" => gold_systems(py, command, inputs, kwargs, deps::evaluate),
        "brackets" => {
            let (options, common, front) = split::<treeval::brackets::Options>(command, kwargs)?;
            check_export(&inputs, options.export_for_judging.as_deref(), front.force)?;
            run(py, inputs, common, front, |i, c| {
                treeval::brackets::evaluate(&options, i, c)
            })
        }
        "align" => {
            // the words and pieces files are inputs too (paths, or read from memory)
            let tokens = take_inputs(kwargs, "tokens")?;
            let pieces = take_inputs(kwargs, "hyp_subwords")?;
            let (mut options, common, front) = split::<align::Options>(command, kwargs)?;
            (options.tokens, options.hyp_subwords) = (tokens, pieces);
            run(py, inputs, common, front, |i, c| {
                align::evaluate(&options, i, c)
            })
        }
        "pts" => pts(py, kwargs),
        "ud" => gold_systems(py, command, inputs, kwargs, ud::evaluate),
        "relations" => gold_systems(py, command, inputs, kwargs, relations::evaluate),
        "ted" => {
            let ted_inputs = ted_inputs(kwargs)?;
            let (options, common, front) =
                split_with::<treeval::ted::Options>(command, kwargs, &TED_INPUTS)?;
            check_files(&ted_named(&ted_inputs), &front, &[])?;
            run_checked(py, common, front, |c| {
                treeval::ted::evaluate(&options, &ted_inputs, c)
            })
        }
        "nbest" => nbest(py, inputs, kwargs),
        "merge" => merge(py, inputs, kwargs),
        "table" => table(py, inputs, kwargs),
        _ => Err(PyValueError::new_err(format!(
            "treeval._native.evaluate: no library family {command:?}"
        ))),
    }
}

/// A family of a gold and systems: its options `F` from the keywords, `eval` run on the
/// inputs.
fn gold_systems<'py, F: Serialize + DeserializeOwned + Default + Sync>(
    py: Python<'py>,
    command: &str,
    inputs: Vec<PyInput>,
    kwargs: &Bound<'py, PyDict>,
    eval: fn(&F, &treeval::Inputs, &treeval::Common) -> treeval::Result<treeval::Evaluation>,
) -> PyResult<Returned<'py>> {
    let (options, common, front) = split::<F>(command, kwargs)?;
    run(py, inputs, common, front, |i, c| eval(&options, i, c))
}

/// `treeval.nbest()`: the gold and n-best lists, or an Alpino list (`alpino=`).
fn nbest<'py>(
    py: Python<'py>,
    inputs: Vec<PyInput>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Returned<'py>> {
    let alpino = take_input(kwargs, "alpino")?;
    let (options, common, front) =
        split_with::<treeval::nbest::Options>("nbest", kwargs, &["alpino"])?;
    let inputs = nbest_inputs(inputs, alpino)?;
    let training = options.export_training.as_deref().map(|path| Output {
        flag: "export_training",
        path,
        kind: OutputKind::Training,
    });
    let named: Vec<(&str, &treeval::Input)> = match &inputs {
        treeval::nbest::Inputs::Alpino(l) => vec![("alpino", l)],
        treeval::nbest::Inputs::Conllu(i) => std::iter::once(("gold", &i.gold))
            .chain(i.systems.iter().map(|s| ("nbest", s)))
            .collect(),
    };
    check_files(&named, &front, training.as_slice())?;
    run_checked(py, common, front, |c| {
        treeval::nbest::evaluate(&options, &inputs, c)
    })
}

/// `treeval.merge()`: the states (paths, or `(name, text)` in memory) read and summed by
/// the library.
fn merge<'py>(
    py: Python<'py>,
    inputs: Vec<PyInput>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Returned<'py>> {
    let (options, common, front) = split::<treeval::merge::Options>("merge", kwargs)?;
    let inputs: Vec<treeval::Input> = inputs.into_iter().map(Into::into).collect();
    let names: Vec<String> = inputs.iter().map(|i| i.name().to_owned()).collect();
    let named: Vec<(&str, &treeval::Input)> = inputs.iter().map(|i| ("state", i)).collect();
    check_files(&named, &front, &[])?;
    run_checked(py, common, front, |c| {
        let states = treeval::merge::read(&inputs)?;
        treeval::merge::merge(&options, states, &names, c)
    })
}

/// The value of keyword `key`, removed from `kwargs` (`None` when absent or `None`).
fn take<'py>(kwargs: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(v) = kwargs.get_item(key)? else {
        return Ok(None);
    };
    kwargs.del_item(key)?;
    Ok((!v.is_none()).then_some(v))
}

/// An input keyword's value (a path, or `(name, bytes)`).
fn take_input(kwargs: &Bound<'_, PyDict>, key: &str) -> PyResult<Option<treeval::Input>> {
    take(kwargs, key)?
        .map(|v| v.extract::<PyInput>().map(Into::into))
        .transpose()
        .map_err(|e| PyTypeError::new_err(format!("treeval: {key}: {e}")))
}

/// The inputs of keyword `key` (one or a list), removed from `kwargs`.
fn take_inputs(kwargs: &Bound<'_, PyDict>, key: &str) -> PyResult<Vec<treeval::Input>> {
    let Some(v) = take(kwargs, key)? else {
        return Ok(Vec::new());
    };
    let v: OneOrMany<PyInput> = v
        .extract()
        .map_err(|e| PyTypeError::new_err(format!("treeval: {key}: {e}")))?;
    Ok(v.into_vec().into_iter().map(Into::into).collect())
}

/// One experiment from Python: `"NAME:GOLD:PARSE"` (paths), or `(name, gold, parse)`.
#[derive(Debug, FromPyObject)]
enum PyExp {
    /// The command line's spelling.
    Spec(String),
    /// A name and two inputs.
    Parts(String, PyInput, PyInput),
}

/// One input or several.
#[derive(Debug, FromPyObject)]
enum OneOrMany<T> {
    /// One.
    One(T),
    /// Several.
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMany::One(x) => vec![x],
            OneOrMany::Many(v) => v,
        }
    }
}

/// The keywords of `treeval.ted()` that name inputs.
const TED_INPUTS: [&str; 5] = ["gold", "parse", "exp", "label_equiv", "distance"];

/// `ted`'s inputs, taken from its keyword arguments (`gold`, `parse`, `exp`,
/// `label_equiv`; `distance` is refused: its distances are no report).
fn ted_inputs(kwargs: &Bound<'_, PyDict>) -> PyResult<treeval::ted::Inputs> {
    if take(kwargs, "distance")?.is_some() {
        return Err(PyValueError::new_err(
            "--distance prints one distance per line (and --script its edit script as JSON); --format does not apply",
        ));
    }
    let exp: Vec<PyExp> = match take(kwargs, "exp")? {
        None => Vec::new(),
        Some(v) => v.extract::<OneOrMany<PyExp>>()?.into_vec(),
    };
    let exp = exp
        .into_iter()
        .map(|e| match e {
            PyExp::Spec(s) => treeval::ted::Exp::parse(&s).map_err(raise),
            PyExp::Parts(name, gold, parse) => Ok(treeval::ted::Exp {
                name,
                gold: gold.into(),
                parse: parse.into(),
            }),
        })
        .collect::<PyResult<_>>()?;
    let parse: Vec<PyInput> = match take(kwargs, "parse")? {
        None => Vec::new(),
        Some(v) => v.extract::<OneOrMany<PyInput>>()?.into_vec(),
    };
    Ok(treeval::ted::Inputs {
        gold: take_input(kwargs, "gold")?,
        parse: parse.into_iter().map(Into::into).collect(),
        exp,
        label_equiv: take_input(kwargs, "label_equiv")?,
        distance: None,
    })
}

/// `ted`'s inputs with their keywords, for [`check_files`].
fn ted_named(i: &treeval::ted::Inputs) -> Vec<(&str, &treeval::Input)> {
    let mut v: Vec<(&str, &treeval::Input)> = Vec::new();
    v.extend(i.gold.iter().map(|x| ("gold", x)));
    v.extend(i.parse.iter().map(|x| ("parse", x)));
    for e in &i.exp {
        v.push(("exp", &e.gold));
        v.push(("exp", &e.parse));
    }
    v.extend(i.label_equiv.iter().map(|x| ("label_equiv", x)));
    v
}

/// `nbest`'s inputs: the gold and n-best lists, or evaluate.pl's lines (`alpino`).
fn nbest_inputs(
    inputs: Vec<PyInput>,
    alpino: Option<treeval::Input>,
) -> PyResult<treeval::nbest::Inputs> {
    if let Some(lines) = alpino {
        if !inputs.is_empty() {
            return Err(PyValueError::new_err("--alpino LINES reads evaluate.pl's lines, which carry their own counts: give no GOLD or NBEST file with it"));
        }
        return Ok(treeval::nbest::Inputs::Alpino(lines));
    }
    let mut it = inputs.into_iter().map(treeval::Input::from);
    let gold = it
        .next()
        .ok_or_else(|| PyValueError::new_err("give the GOLD file and at least one NBEST file"))?;
    Ok(treeval::nbest::Inputs::Conllu(treeval::Inputs {
        gold,
        systems: it.collect(),
    }))
}

/// The keywords `treeval.COMMAND()` accepts, for the families the library runs (`None`
/// for the others).
#[pyfunction]
pub fn library_keywords(command: &str) -> Option<Vec<String>> {
    match command {
        "deps" => Some(keywords::<treeval::deps::Options>()),
        "brackets" => Some(keywords::<treeval::brackets::Options>()),
        "align" => Some(keywords::<treeval::align::Options>()),
        "pts" => {
            let mut all = keywords::<treeval::pts::Options>();
            all.extend(PTS_INPUTS.map(String::from));
            all.sort();
            Some(all)
        }
        "ud" => Some(keywords::<treeval::ud::Options>()),
        "merge" => Some(keywords::<treeval::merge::Options>()),
        "relations" => Some(keywords::<treeval::relations::Options>()),
        "ted" => Some(with_inputs(
            keywords::<treeval::ted::Options>(),
            &TED_INPUTS,
        )),
        "nbest" => Some(with_inputs(
            keywords::<treeval::nbest::Options>(),
            &["alpino"],
        )),
        "table" => Some(names::<treeval::table::Options>(&["quiet"], &table_common)),
        "rerank_train" => Some(names::<treeval::rerank::TrainOptions>(
            &RERANK_FRONT_END,
            &|_| false,
        )),
        "rerank_apply" => Some(vec!["quiet".into()]),
        _ => None,
    }
}

/// `keywords` and the keywords that name inputs, sorted.
fn with_inputs(mut keywords: Vec<String>, inputs: &[&str]) -> Vec<String> {
    keywords.extend(inputs.iter().map(|s| (*s).to_owned()));
    keywords.sort();
    keywords
}

/// Run `eval` on the inputs, with the front end's files, and return it to Python.
fn run<'py>(
    py: Python<'py>,
    inputs: Vec<PyInput>,
    common: treeval::Common,
    front: FrontEnd,
    eval: impl FnOnce(&treeval::Inputs, &treeval::Common) -> treeval::Result<treeval::Evaluation> + Send,
) -> PyResult<Returned<'py>> {
    let mut it = inputs.into_iter().map(treeval::Input::from);
    let gold = it
        .next()
        .ok_or_else(|| PyValueError::new_err("give a gold input"))?;
    let inputs = treeval::Inputs {
        gold,
        systems: it.collect(),
    };
    let named: Vec<(&str, &treeval::Input)> = std::iter::once(("gold", &inputs.gold))
        .chain(inputs.systems.iter().map(|s| ("system", s)))
        .collect();
    check_files(&named, &front, &[])?;
    run_checked(py, common, front, |c| eval(&inputs, c))
}

/// The keywords of `treeval.pts()` that are its inputs (a path or `(name, bytes)`; the
/// systems' a list of them).
const PTS_INPUTS: [&str; 6] = [
    "gold_a",
    "gold_b",
    "gold_align",
    "sys_a",
    "sys_b",
    "sys_align",
];

/// `treeval.pts()`: its inputs are keywords, taken out before the options are split.
fn pts<'py>(py: Python<'py>, kwargs: &Bound<'py, PyDict>) -> PyResult<Returned<'py>> {
    let kw = kwargs.copy()?;
    let take = |key: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
        let v = kw.get_item(key)?;
        kw.del_item(key).ok();
        Ok(v)
    };
    let one = |v: Option<Bound<'py, PyAny>>, key: &str| -> PyResult<treeval::Input> {
        let v = v.ok_or_else(|| PyTypeError::new_err(format!("treeval.pts() needs {key}=")))?;
        Ok(v.extract::<PyInput>()?.into())
    };
    let many = |v: Option<Bound<'py, PyAny>>| -> PyResult<Vec<treeval::Input>> {
        let v: Vec<PyInput> = v.map(|v| v.extract()).transpose()?.unwrap_or_default();
        Ok(v.into_iter().map(Into::into).collect())
    };
    let inputs = treeval::pts::PtsInputs {
        gold_a: one(take("gold_a")?, "gold_a")?,
        gold_b: one(take("gold_b")?, "gold_b")?,
        gold_align: one(take("gold_align")?, "gold_align")?,
        sys_a: many(take("sys_a")?)?,
        sys_b: many(take("sys_b")?)?,
        sys_align: many(take("sys_align")?)?,
    };
    let valid = library_keywords("pts").unwrap_or_default();
    for k in kw.keys() {
        let key: String = k.extract()?;
        if !valid.contains(&key) {
            return Err(PyTypeError::new_err(format!(
                "treeval.pts() got an unexpected keyword argument {key:?}; its options are: {}",
                valid.join(", ")
            )));
        }
    }
    let (options, common, front) = split::<treeval::pts::Options>("pts", &kw)?;
    let roles = inputs.roles();
    let named: Vec<(&str, &treeval::Input)> = roles
        .iter()
        .map(|(r, i)| (r.trim_start_matches('-'), *i))
        .collect();
    check_files(&named, &front, &[])?;
    run_checked(py, common, front, |c| {
        treeval::pts::evaluate(&options, &inputs, c)
    })
}

/// Run `eval` (its inputs and the front end's files checked), with the front end's
/// files, and return it to Python.
fn run_checked<'py>(
    py: Python<'py>,
    mut common: treeval::Common,
    front: FrontEnd,
    eval: impl FnOnce(&treeval::Common) -> treeval::Result<treeval::Evaluation> + Send,
) -> PyResult<Returned<'py>> {
    if let Some(p) = &front.per_sentence {
        // compressed as the name says (`.gz`, `.zst`), as the command line writes it
        let f = treeval_formats::output::create(p).map_err(|e| {
            PyOSError::new_err(format!("{p}: cannot create the per_sentence file: {e}"))
        })?;
        common.per_sentence = Some(treeval::Sink::new(p, f));
    }
    let ev = py.detach(|| eval(&common)).map_err(raise)?;
    let state = match (&ev.state, &front.emit_state) {
        (Some(s), path) => {
            if let Some(p) = path {
                treeval::files::write_state(p, s).map_err(raise)?;
            }
            let text = treeval::files::state_text(s).map_err(raise)?;
            Some(state_info_of(s, text))
        }
        (None, _) => None,
    };
    let mut report = ev.report;
    report.warnings = treeval_report::model::group_warnings(std::mem::take(&mut report.warnings));
    let lines = if front.quiet {
        Vec::new()
    } else {
        report
            .warnings
            .iter()
            .map(|w| format!("warning: {w}"))
            .collect()
    };
    // through serde_json's value (no text): the JSON's shapes exactly (a pair is a list)
    let value =
        serde_json::to_value(&report).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let obj =
        pythonize::pythonize(py, &value).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok((obj, state, lines))
}

/// The files the front end writes (and `extra` ones), checked against the inputs `named`
/// (role, path or in-memory name) before anything is read.
fn check_files(
    named: &[(&str, &treeval::Input)],
    front: &FrontEnd,
    extra: &[Output<'_>],
) -> PyResult<()> {
    let mut outputs = Vec::new();
    if let Some(p) = &front.per_sentence {
        outputs.push(Output {
            flag: "per_sentence",
            path: p,
            kind: OutputKind::PerSentence,
        });
    }
    if let Some(p) = &front.emit_state {
        outputs.push(Output {
            flag: "emit_state",
            path: p,
            kind: OutputKind::State,
        });
    }
    outputs.extend_from_slice(extra);
    let paths: Vec<(&str, &str)> = named
        .iter()
        .filter_map(|(role, i)| match i {
            treeval::Input::Path(p) => Some((*role, p.as_str())),
            treeval::Input::Memory { .. } => None,
        })
        .collect();
    treeval::files::check_outputs(&outputs, &paths, front.force, &[]).map_err(raise)
}

/// `brackets`' `export_for_judging` file, checked against the inputs on disk (and an
/// existing file that is not a judging file) before anything is read.
fn check_export(inputs: &[PyInput], path: Option<&str>, force: bool) -> PyResult<()> {
    use treeval::files::{Output, OutputKind};
    let Some(path) = path else {
        return Ok(());
    };
    let output = Output {
        flag: "export_for_judging",
        path,
        kind: OutputKind::Judging,
    };
    let named: Vec<(&str, &str)> = inputs
        .iter()
        .filter_map(|i| match i {
            PyInput::Path(p) => Some(("input", p.as_str())),
            PyInput::Memory(..) => None,
        })
        .collect();
    treeval::files::check_outputs(&[output], &named, force, &[]).map_err(raise)
}

/// What Python's `State` needs to know of a state's text (`name`: how messages name it),
/// read by the library ([`StateInfo`]; a state of another schema version is a ValueError
/// naming both versions).
#[pyfunction]
pub fn state_info(text: &str, name: &str) -> PyResult<StateInfo> {
    let s = treeval_report::state::parse(text, name).map_err(PyValueError::new_err)?;
    Ok(state_info_of(&s, text.to_owned()))
}

/// The shared options `treeval.table()` takes.
fn table_common(key: &str) -> bool {
    treeval::table::COMMON.contains(&key)
}

/// `treeval.table(manifest_or_reports, **options)`: one manifest (a path or in-memory
/// text) or saved JSON reports, made into one table by the library.
#[pyfunction]
pub fn table<'py>(
    py: Python<'py>,
    inputs: Vec<PyInput>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Returned<'py>> {
    let (options, common, front) =
        split_only::<treeval::table::Options>("table", kwargs, &[], &["quiet"], &table_common)?;
    let inputs: Vec<treeval::Input> = inputs.into_iter().map(Into::into).collect();
    run_checked(py, common, front, |c| {
        treeval::table::evaluate(&options, &inputs, c)
    })
}

/// The front end's keywords of `treeval.rerank_train()`.
const RERANK_FRONT_END: [&str; 2] = ["quiet", "force"];

/// `treeval.rerank_train(gold, nbest, ..., output=MODEL, **options)`: train a reranker,
/// write the model (checked against the inputs first) and return the report.
#[pyfunction]
pub fn rerank_train<'py>(
    py: Python<'py>,
    inputs: Vec<PyInput>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Returned<'py>> {
    let (options, common, front) = split_only::<treeval::rerank::TrainOptions>(
        "rerank_train",
        kwargs,
        &[],
        &RERANK_FRONT_END,
        &|_| false,
    )?;
    let inputs: Vec<treeval::Input> = inputs.into_iter().map(Into::into).collect();
    treeval::rerank::check_pairs(&inputs).map_err(raise)?;
    options.check().map_err(raise)?;
    let named: Vec<(&str, &treeval::Input)> = inputs
        .chunks(2)
        .flat_map(|p| [("gold", &p[0]), ("nbest", &p[1])])
        .collect();
    let model = treeval::rerank::model_output(&options);
    check_files(&named, &front, &[model])?;
    run_checked(py, common, front, |_| {
        treeval::rerank::train(&options, &inputs)
    })
}

/// `treeval.rerank_apply(model, nbest)`: the chosen candidates as CoNLL-U text, and the
/// warning lines to print (none when `quiet`).
#[pyfunction]
#[pyo3(signature = (model, nbest, quiet = false))]
pub fn rerank_apply(
    py: Python<'_>,
    model: PyInput,
    nbest: PyInput,
    quiet: bool,
) -> PyResult<(String, Vec<String>)> {
    let (model, nbest): (treeval::Input, treeval::Input) = (model.into(), nbest.into());
    let (text, warnings) = py
        .detach(|| treeval::rerank::apply(&model, &nbest))
        .map_err(raise)?;
    let lines = if quiet {
        Vec::new()
    } else {
        warnings.iter().map(|w| format!("warning: {w}")).collect()
    };
    Ok((text, lines))
}

/// `treeval.system_names(paths)`: the names treeval gives systems read from `paths` when
/// they are not named (the shortest ends of the paths that tell them apart).
#[pyfunction]
pub fn system_names(paths: Vec<String>) -> Vec<String> {
    let p: Vec<&str> = paths.iter().map(String::as_str).collect();
    treeval::names::short(&p)
}

/// `treeval.measures()`: every family's measures (`treeval measures --format FORMAT`).
#[pyfunction]
pub fn measures(format: &str) -> PyResult<String> {
    use treeval::measures::MeasuresFormat;
    let f = match format {
        "json" => MeasuresFormat::Json,
        "markdown" => MeasuresFormat::Markdown,
        "text" => MeasuresFormat::Text,
        _ => {
            return Err(PyValueError::new_err(format!(
                "treeval.measures(): format: expected json, markdown or text; found {format:?}"
            )))
        }
    };
    Ok(treeval::measures::render(f))
}
