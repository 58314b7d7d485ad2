//! What EVALB prints for a sentence when its parameter `DEBUG` is 1 or more (`-d`, `-D`),
//! recorded as data for `--compat evalb` to print byte for byte.
//!
//! EVALB's state for a sentence is two arrays of *terminals* (the words it keeps, after
//! putting misquotes back) and two arrays of *brackets* (every bracket over words, in the
//! order they open, with its span over the kept words), each entry with a result code:
//! 9 not looked at, 0 counted, 1 matched (words: right tag; 0 wrong tag), 5 not counted
//! (over no word, or a `DELETE_LABEL` label). With `DEBUG 1` it dumps these arrays after
//! each sentence's row; with `DEBUG 2` it also says, while reading, every label followed by
//! white space (with the word after it and the number of words kept before it), and while
//! scoring, the misquotes it considers, each word it puts back, every pair of brackets it
//! compares, and the gold brackets it could not match (`LABEL`: span found, label wrong;
//! `BRACKET`: no test bracket over the span), the test brackets left (`EXTRA`) and the gold
//! brackets crossed by a test bracket (`CROSSING`), each with its text as written.
//!
//! The counts are the scorer's own: the record replays EVALB's loops over the scorer's
//! arrays, and the replayed match count is checked against the row.

use treeval_formats::bracket::BracketTree;

use super::{cut, Params, Scorer, SentenceRow, Status};

/// A label followed by white space, as EVALB reads it (`label=…, word=…, wid=…`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// The label as written.
    pub label: String,
    /// The text after the white space up to white space or a parenthesis (empty before
    /// a `(`).
    pub word: String,
    /// Words kept before it.
    pub wid: usize,
}

/// One step of EVALB's scoring of a sentence, in the order it prints them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A possible misquote (`index: label - word`), listed before they are fixed.
    Quote {
        /// Kept words before it.
        index: usize,
        /// Its tag.
        label: String,
        /// Its word.
        word: String,
    },
    /// A misquote put back: the brackets opened before it, its index, every bracket's
    /// span before the shift, and the brackets open around it.
    Reinsert {
        /// Brackets opened before it.
        bracket: usize,
        /// Where it goes.
        index: usize,
        /// Every bracket's span, before the shift.
        spans: Vec<(u32, u32)>,
        /// How many brackets are open around it.
        ends: usize,
    },
    /// A gold and a test bracket compared: results, starts and ends.
    Pair([i64; 6]),
    /// A gold bracket whose span a test bracket has, with another label.
    Label(Span),
    /// A gold bracket no test bracket spans.
    Bracket(Span),
    /// A test bracket left unmatched.
    Extra(Span),
    /// A gold bracket crossed by a test bracket.
    Crossing(Span),
}

/// A bracket as EVALB names it in its debug lines: first and last word, and its text
/// from after the label to before the `)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// First word.
    pub first: i64,
    /// Last word (`end - 1`).
    pub last: i64,
    /// The text as written, from after the label to before the closing `)`.
    pub text: String,
}

/// An entry of EVALB's terminal array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terminal {
    /// Result code: 9, or 1 right tag, 0 wrong tag.
    pub result: u8,
    /// The tag.
    pub label: String,
    /// The word.
    pub word: String,
}

/// An entry of EVALB's bracket array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    /// Result code: 9, 0, 1 or 5.
    pub result: u8,
    /// First word.
    pub start: i64,
    /// One past the last word; -1 for a bracket left open (EVALB never sets it).
    pub end: i64,
    /// The label (cut at `-` or `=` once the sentence is scored).
    pub label: String,
}

/// Everything EVALB prints for one sentence in debug mode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    /// The labels read, gold then test (`DEBUG 2`).
    pub reads: [Vec<Read>; 2],
    /// Whether scoring began (it prints an empty line first); false when the test file
    /// ended before this sentence.
    pub scored: bool,
    /// The scoring steps (`DEBUG 2`).
    pub events: Vec<Event>,
    /// Words kept, gold and test.
    pub words: [usize; 2],
    /// Brackets read, gold and test.
    pub brackets_read: [usize; 2],
    /// The terminal arrays.
    pub terminals: [Vec<Terminal>; 2],
    /// The bracket arrays.
    pub brackets: [Vec<Bracket>; 2],
}

/// The labels of a tree followed by white space, as EVALB reads them.
pub fn reads(t: &BracketTree, params: &Params) -> Vec<Read> {
    let text = t.text.as_bytes();
    let mut out = Vec::new();
    let (mut leaves, mut nodes) = (t.leaves.iter().peekable(), t.nodes.iter().peekable());
    let mut wid = 0;
    loop {
        let leaf_first = match (leaves.peek(), nodes.peek()) {
            (Some(l), Some(n)) => l.at < n.at,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let label = if leaf_first {
            leaves.next().map(|l| l.label)
        } else {
            nodes.next().map(|n| n.label)
        };
        let Some(label) = label else { break };
        let mut q = label.end as usize;
        if q < text.len() && text[q].is_ascii_whitespace() {
            while q < text.len() && text[q].is_ascii_whitespace() {
                q += 1;
            }
            let w = q;
            while q < text.len()
                && !matches!(text[q], b'(' | b')')
                && !text[q].is_ascii_whitespace()
            {
                q += 1;
            }
            out.push(Read {
                label: t.s(label).to_owned(),
                word: String::from_utf8_lossy(&text[w..q]).into_owned(),
                wid,
            });
        }
        if leaf_first && !params.delete_label.iter().any(|d| d == t.s(label)) {
            wid += 1;
        }
    }
    out
}

/// The text EVALB prints for a bracket: after its label, before its `)`.
fn span(t: &BracketTree, node: usize, start: i64, end: i64) -> Span {
    let n = &t.nodes[node];
    let (a, b) = (
        n.label.end as usize,
        (n.close as usize).max(n.label.end as usize),
    );
    Span {
        first: start,
        last: end - 1,
        text: t.text.get(a..b).unwrap_or_default().to_owned(),
    }
}

impl Scorer {
    /// The name of a label id.
    fn name(&self, id: u32) -> String {
        self.names
            .get(id as usize)
            .map(|s| s.to_string())
            .unwrap_or_default()
    }

    /// Score a sentence as [`Scorer::score`] does, with EVALB's debug record of it.
    pub fn score_traced(
        &mut self,
        id: u64,
        gold: &BracketTree,
        test: &BracketTree,
    ) -> (SentenceRow, Trace) {
        self.log = Some(Vec::new());
        let row = self.score(id, gold, test);
        let events = self.log.take().unwrap_or_default();
        let mut trace = Trace {
            reads: [reads(gold, &self.params), reads(test, &self.params)],
            scored: true,
            events,
            words: [self.gtags.len(), self.ttags.len()],
            brackets_read: [gold.nodes.len(), test.nodes.len()],
            ..Trace::default()
        };
        let ok = row.status == Status::Ok;
        for (k, (tags, t)) in [(&self.gtags, gold), (&self.ttags, test)]
            .into_iter()
            .enumerate()
        {
            trace.terminals[k] = tags
                .iter()
                .map(|&(label, word)| Terminal {
                    result: 9,
                    label: self.name(label),
                    word: t.s(word).to_owned(),
                })
                .collect();
            let pos = if k == 0 { &self.gpos } else { &self.tpos };
            trace.brackets[k] = t
                .nodes
                .iter()
                .zip(pos)
                .map(|(n, &(start, end))| Bracket {
                    result: 9,
                    start: i64::from(start),
                    end: if n.close as usize == t.text.len() {
                        -1
                    } else {
                        i64::from(end)
                    },
                    label: t
                        .s(if ok && start != end {
                            cut(t, n.label)
                        } else {
                            n.label
                        })
                        .to_owned(),
                })
                .collect();
        }
        if ok {
            let matched = self.replay(gold, test, &mut trace);
            debug_assert_eq!(matched, row.matched, "EVALB's loops replayed");
            let n = self.gtags.len().min(self.ttags.len());
            for i in 0..n {
                let r = u8::from(self.label_eq(self.gtags[i].0, self.ttags[i].0));
                trace.terminals[0][i].result = r;
                trace.terminals[1][i].result = r;
            }
        }
        (row, trace)
    }

    /// EVALB's bracket loops on a scored sentence: result codes, the comparison and
    /// mismatch events; the number matched.
    fn replay(&mut self, gold: &BracketTree, test: &BracketTree, trace: &mut Trace) -> u64 {
        self.mark_counted(gold, test, trace);
        let (g, s) = (&trace.brackets[0], &trace.brackets[1]);
        let gl: Vec<u32> = g.iter().map(|b| self.id(&b.label)).collect();
        let tl: Vec<u32> = s.iter().map(|b| self.id(&b.label)).collect();
        let mut r = Replay {
            g,
            s,
            res: [
                g.iter().map(|b| b.result).collect(),
                s.iter().map(|b| b.result).collect(),
            ],
            events: Vec::new(),
        };
        let labeled = self.params.labeled;
        let (matched, label_seen) =
            r.matching(gold, |i, j| !labeled || self.label_eq(gl[i], tl[j]));
        r.extra(test, &label_seen);
        r.crossing(gold);
        let Replay { res, events, .. } = r;
        for (k, r) in res.iter().enumerate() {
            for (b, &code) in trace.brackets[k].iter_mut().zip(r) {
                b.result = code;
            }
        }
        trace.events.extend(events);
        matched
    }

    /// The first result codes of the bracket arrays: 5 for a bracket not counted (over
    /// no word, a `DELETE_LABEL` label, or the unlabelled wrapper), else 0.
    fn mark_counted(&mut self, gold: &BracketTree, test: &BracketTree, trace: &mut Trace) {
        for (k, t) in [gold, test].into_iter().enumerate() {
            for i in 0..trace.brackets[k].len() {
                let b = &trace.brackets[k][i];
                let label = b.label.clone();
                let zero = b.start == b.end;
                let id = self.id(&label) as usize;
                let deleted = zero || self.info[id].delete_node;
                let counted_wrapper =
                    self.params.count_wrapper || t.nodes[i].parent.is_some() || !label.is_empty();
                trace.brackets[k][i].result = if deleted || !counted_wrapper { 5 } else { 0 };
            }
        }
    }
}

/// EVALB's bracket arrays being replayed: gold and test, their result codes, and the
/// events so far.
struct Replay<'t> {
    g: &'t [Bracket],
    s: &'t [Bracket],
    res: [Vec<u8>; 2],
    events: Vec<Event>,
}

impl Replay<'_> {
    /// The matching loop: every gold bracket against every test bracket, the first free
    /// one over its span with a label `same_label` accepts matched. The number matched,
    /// and which test brackets had a gold bracket's span with another label.
    fn matching(
        &mut self,
        gold: &BracketTree,
        same_label: impl Fn(usize, usize) -> bool,
    ) -> (u64, Vec<bool>) {
        let (g, s, res) = (self.g, self.s, &mut self.res);
        let mut matched = 0;
        let mut label_seen = vec![false; s.len()];
        for i in 0..g.len() {
            let mut found = false;
            for j in 0..s.len() {
                self.events.push(Event::Pair([
                    i64::from(res[0][i]),
                    i64::from(res[1][j]),
                    g[i].start,
                    s[j].start,
                    g[i].end,
                    s[j].end,
                ]));
                if res[0][i] != 5
                    && res[1][j] == 0
                    && g[i].start == s[j].start
                    && g[i].end == s[j].end
                {
                    if same_label(i, j) {
                        res[0][i] = 1;
                        res[1][j] = 1;
                        matched += 1;
                        found = true;
                        break;
                    }
                    self.events
                        .push(Event::Label(span(gold, i, g[i].start, g[i].end)));
                    found = true;
                    label_seen[j] = true;
                }
            }
            if !found && res[0][i] != 5 {
                self.events
                    .push(Event::Bracket(span(gold, i, g[i].start, g[i].end)));
            }
        }
        (matched, label_seen)
    }

    /// The test brackets left unmatched (`EXTRA`), but those with a label mismatch.
    fn extra(&mut self, test: &BracketTree, label_seen: &[bool]) {
        let s = self.s;
        for j in 0..s.len() {
            if self.res[1][j] == 0 && !label_seen[j] {
                self.events
                    .push(Event::Extra(span(test, j, s[j].start, s[j].end)));
            }
        }
    }

    /// The gold brackets crossed by a test bracket (`CROSSING`): for each test bracket,
    /// the first gold bracket it crosses, once in a row.
    fn crossing(&mut self, gold: &BracketTree) {
        let (g, s, res) = (self.g, self.s, &self.res);
        let mut last = None;
        for j in 0..s.len() {
            for i in 0..g.len() {
                let (a, b) = (&g[i], &s[j]);
                if res[0][i] != 5
                    && res[1][j] != 5
                    && ((a.start < b.start && a.end > b.start && a.end < b.end)
                        || (a.start > b.start && a.start < b.end && a.end > b.end))
                {
                    if last != Some(i) {
                        self.events
                            .push(Event::Crossing(span(gold, i, a.start, a.end)));
                        last = Some(i);
                    }
                    break;
                }
            }
        }
    }
}
