//! The metrics of `ud` by name: the 13 of conll18_ud_eval.py in its order, then
//! udeval's ELAS and EULAS. Code picks a metric or a group of them (the word metrics,
//! the content ones, the enhanced ones) through [`UdMetric`], never by a position.

use super::Count;

/// One metric of `ud`: its counts are a [`Count`] in [`super::UdCounts::metrics`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UdMetric {
    /// Tokens, by character span.
    Tokens,
    /// Sentences, by character span.
    Sentences,
    /// Syntactic words, by alignment.
    Words,
    /// Universal part-of-speech tags.
    Upos,
    /// Language-specific part-of-speech tags.
    Xpos,
    /// Universal features.
    UFeats,
    /// UPOS, XPOS and universal features together.
    AllTags,
    /// Lemmas.
    Lemmas,
    /// Unlabeled attachment.
    Uas,
    /// Labeled attachment (universal relation).
    Las,
    /// Labeled attachment of content words.
    Clas,
    /// Morphology-aware labeled attachment of content words.
    Mlas,
    /// Bilexical labeled attachment of content words.
    Blex,
    /// Enhanced labeled attachment (udeval).
    Elas,
    /// Enhanced labeled attachment on universal relations (udeval).
    Eulas,
}

/// How many metrics there are.
pub const UD_METRICS: usize = UdMetric::ALL.len();

impl UdMetric {
    /// Every metric, in report order (conll18_ud_eval.py's, then ELAS and EULAS).
    pub const ALL: [UdMetric; 15] = [
        UdMetric::Tokens,
        UdMetric::Sentences,
        UdMetric::Words,
        UdMetric::Upos,
        UdMetric::Xpos,
        UdMetric::UFeats,
        UdMetric::AllTags,
        UdMetric::Lemmas,
        UdMetric::Uas,
        UdMetric::Las,
        UdMetric::Clas,
        UdMetric::Mlas,
        UdMetric::Blex,
        UdMetric::Elas,
        UdMetric::Eulas,
    ];

    /// The metrics conll18_ud_eval.py prints, in its order (all but the enhanced ones).
    pub const CONLL18: [UdMetric; 13] = [
        UdMetric::Tokens,
        UdMetric::Sentences,
        UdMetric::Words,
        UdMetric::Upos,
        UdMetric::Xpos,
        UdMetric::UFeats,
        UdMetric::AllTags,
        UdMetric::Lemmas,
        UdMetric::Uas,
        UdMetric::Las,
        UdMetric::Clas,
        UdMetric::Mlas,
        UdMetric::Blex,
    ];

    /// The metrics every syntactic word counts in: words, tags, lemmas, attachment.
    const OF_WORD: [UdMetric; 8] = [
        UdMetric::Words,
        UdMetric::Upos,
        UdMetric::Xpos,
        UdMetric::UFeats,
        UdMetric::AllTags,
        UdMetric::Lemmas,
        UdMetric::Uas,
        UdMetric::Las,
    ];

    /// [`UdMetric::OF_WORD`] and the content metrics (CLAS, MLAS, BLEX).
    const OF_CONTENT_WORD: [UdMetric; 11] = [
        UdMetric::Words,
        UdMetric::Upos,
        UdMetric::Xpos,
        UdMetric::UFeats,
        UdMetric::AllTags,
        UdMetric::Lemmas,
        UdMetric::Uas,
        UdMetric::Las,
        UdMetric::Clas,
        UdMetric::Mlas,
        UdMetric::Blex,
    ];

    /// The enhanced metrics (udeval's), which count DEPS items rather than words.
    pub const ENHANCED: [UdMetric; 2] = [UdMetric::Elas, UdMetric::Eulas];

    /// The name the reference scripts print (`LAS`, `UFeats`).
    pub const fn name(self) -> &'static str {
        match self {
            UdMetric::Tokens => "Tokens",
            UdMetric::Sentences => "Sentences",
            UdMetric::Words => "Words",
            UdMetric::Upos => "UPOS",
            UdMetric::Xpos => "XPOS",
            UdMetric::UFeats => "UFeats",
            UdMetric::AllTags => "AllTags",
            UdMetric::Lemmas => "Lemmas",
            UdMetric::Uas => "UAS",
            UdMetric::Las => "LAS",
            UdMetric::Clas => "CLAS",
            UdMetric::Mlas => "MLAS",
            UdMetric::Blex => "BLEX",
            UdMetric::Elas => "ELAS",
            UdMetric::Eulas => "EULAS",
        }
    }

    /// The metric of a name, as [`UdMetric::name`] writes it.
    pub fn parse(name: &str) -> Option<UdMetric> {
        UdMetric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether it is scored over aligned words, with an aligned total (its aligned
    /// accuracy): the tags, lemmas and attachment metrics, as conll18_ud_eval.py.
    pub const fn on_aligned_words(self) -> bool {
        !matches!(
            self,
            UdMetric::Tokens
                | UdMetric::Sentences
                | UdMetric::Words
                | UdMetric::Elas
                | UdMetric::Eulas
        )
    }

    /// The metrics a syntactic word counts in (its gold or system items): words, tags,
    /// lemmas and attachment, and for a content word CLAS, MLAS and BLEX too.
    #[inline]
    pub fn of_word(content: bool) -> &'static [UdMetric] {
        if content {
            &UdMetric::OF_CONTENT_WORD
        } else {
            &UdMetric::OF_WORD
        }
    }
}

/// `UdMetric::title` and `UdMetric::formula`: what a metric counts, in words, and its F1
/// over those items.
macro_rules! described {
    ($($m:ident => $title:literal, $items:literal;)+) => {
        impl UdMetric {
            /// What it is, in words.
            pub const fn title(self) -> &'static str {
                match self {
                    $(UdMetric::$m => $title,)+
                }
            }

            /// Its F1 over its items, and when an item is correct.
            pub const fn formula(self) -> &'static str {
                match self {
                    $(UdMetric::$m => concat!("2·correct / (gold + system) over ", $items),)+
                }
            }
        }
    };
}

described! {
    Tokens => "tokenization F1", "token spans; correct: both ends match";
    Sentences => "sentence segmentation F1", "sentence spans; correct: both ends match";
    Words => "word segmentation F1", "syntactic words; correct: aligned";
    Upos => "universal part-of-speech tag F1", "words; correct: aligned, same UPOS";
    Xpos => "language-specific tag F1", "words; correct: aligned, same XPOS";
    UFeats => "universal features F1", "words; correct: aligned, same universal features";
    AllTags => "UPOS, XPOS and features F1", "words; correct: aligned, same UPOS, XPOS and universal features";
    Lemmas => "lemma F1", "words; correct: aligned, same lemma (a gold `_` matches any)";
    Uas => "unlabeled attachment F1", "words; correct: aligned, the head aligned to the gold head";
    Las => "labeled attachment F1", "words; correct: UAS-correct, same universal relation";
    Clas => "content-word labeled attachment F1", "content words; correct: LAS-correct";
    Mlas => "morphology-aware labeled attachment F1", "content words; correct: LAS-correct, same UPOS, universal features and functional children";
    Blex => "bilexical labeled attachment F1", "content words; correct: LAS-correct, same lemma";
    Elas => "enhanced labeled attachment F1", "DEPS items head:label; correct: the head aligned, same label";
    Eulas => "enhanced universal labeled attachment F1", "DEPS items head:label; correct: the head aligned, same universal part of each step";
}

impl std::ops::Index<UdMetric> for [Count; UD_METRICS] {
    type Output = Count;

    #[inline]
    fn index(&self, m: UdMetric) -> &Count {
        &self[m as usize]
    }
}

impl std::ops::IndexMut<UdMetric> for [Count; UD_METRICS] {
    #[inline]
    fn index_mut(&mut self, m: UdMetric) -> &mut Count {
        &mut self[m as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_groups_and_order() {
        let names: Vec<&str> = UdMetric::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            names,
            [
                "Tokens",
                "Sentences",
                "Words",
                "UPOS",
                "XPOS",
                "UFeats",
                "AllTags",
                "Lemmas",
                "UAS",
                "LAS",
                "CLAS",
                "MLAS",
                "BLEX",
                "ELAS",
                "EULAS"
            ]
        );
        for (k, m) in UdMetric::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, k, "ALL is in declaration order");
            assert_eq!(UdMetric::parse(m.name()), Some(m));
        }
        assert_eq!(UdMetric::parse("las"), None);
        assert_eq!(UdMetric::CONLL18[..], UdMetric::ALL[..13]);
        assert!(UdMetric::CONLL18
            .iter()
            .all(|m| !UdMetric::ENHANCED.contains(m)));
        let content = UdMetric::of_word(true);
        assert_eq!(&content[..8], UdMetric::of_word(false));
        assert_eq!(
            content[8..],
            [UdMetric::Clas, UdMetric::Mlas, UdMetric::Blex]
        );
        let aligned: Vec<UdMetric> = UdMetric::ALL
            .into_iter()
            .filter(|m| m.on_aligned_words())
            .collect();
        assert_eq!(aligned[..], content[1..]);
        let mut c = [Count::default(); UD_METRICS];
        c[UdMetric::Las].correct = 3;
        assert_eq!(c[9].correct, 3);
    }
}
