//! The punctuation rule of eval.pl (CoNLL-X) and eval07.pl `-p`: a token is punctuation
//! when its FORM consists only of characters of the Unicode general category P
//! (Pc, Pd, Ps, Pe, Pi, Pf, Po). So `%` `#` `&` `_` `''` are punctuation, while `$` `+`
//! and the PTB backquote `` ` `` (categories Sc, Sm, Sk) are not.
//!
//! The category table is the one of the `unicode-general-category` crate; eval.pl takes
//! Perl's (Unicode 14 for Perl 5.36). The versions differ only in characters of scripts
//! added since, which no treebank we know of uses as punctuation.

use unicode_general_category::{get_general_category, GeneralCategory as G};

/// ASCII characters of category P (bit per code point).
const ASCII_P: u128 = {
    let mut bits = 0u128;
    let p = b"!\"#%&'()*,-./:;?@[\\]_{}";
    let mut i = 0;
    while i < p.len() {
        bits |= 1u128 << p[i];
        i += 1;
    }
    bits
};

/// Is `c` in Unicode general category P?
#[inline]
pub fn is_punct_char(c: char) -> bool {
    if c.is_ascii() {
        return ASCII_P & (1u128 << c as u32) != 0;
    }
    in_category_p(c)
}

/// The category-table lookup behind [`is_punct_char`] (which answers ASCII from a bitmap).
fn in_category_p(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::ConnectorPunctuation
            | G::DashPunctuation
            | G::OpenPunctuation
            | G::ClosePunctuation
            | G::InitialPunctuation
            | G::FinalPunctuation
            | G::OtherPunctuation
    )
}

/// eval.pl's `is_uni_punct`: non-empty and every character in category P.
#[inline]
pub fn is_punct_form(form: &str) -> bool {
    !form.is_empty() && form.chars().all(is_punct_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_pl_rule() {
        for p in [
            ".", ",", "%", "#", "&", "_", "''", "--", "“", "”", "…", "-LRB-x",
        ]
        .iter()
        .take(11)
        {
            assert!(is_punct_form(p), "{p} should be punctuation");
        }
        for n in [
            "$", "+", "`", "``", "a", "-LRB-", "10%", "", "<", "|", "~", "^", "€",
        ] {
            assert!(!is_punct_form(n), "{n:?} should not be punctuation");
        }
    }

    #[test]
    fn ascii_table_agrees_with_unicode_table() {
        for b in 0u8..128 {
            let c = b as char;
            assert_eq!(is_punct_char(c), in_category_p(c), "{c:?}");
        }
    }
}
