"""Small CoNLL-U texts, valid and malformed, for treeval.conll18's loading and evaluation.

Each case is a system file scored against :data:`GOLD` (or its gold in :data:`GOLDS`). What the reference scorer
(conll18_ud_eval.py) does with each one (which call raises, and what) is recorded in
fixtures/conll18_malformed.json by make_fixtures.py; the tests check treeval.conll18 does
the same.
"""

W1 = "1\ta\ta\tX\t_\t_\t2\tdep\t_\t_"
W2 = "2\tb\tb\tX\t_\t_\t0\troot\t_\t_"
W3 = "1\tc\tc\tX\t_\t_\t0\troot\t_\t_"

#: The gold file every case is scored against: two sentences, "a b" and "c".
GOLD = "# text = a b\n" + W1 + "\n" + W2 + "\n\n" + W3 + "\n\n"


def _sents(*sentences: str) -> str:
    return "".join(s + "\n\n" for s in sentences)


def _row(*cols: str) -> str:
    return "\t".join(cols)


CASES = {
    "valid": GOLD,
    "valid_crlf": GOLD.replace("\n", "\r\n"),
    "valid_no_comment": _sents(W1 + "\n" + W2, W3),
    "valid_empty_node": _sents(W1 + "\n" + W2 + "\n" + _row("2.1", "x", "x", "X", "_", "_", "_", "_", "2:dep", "_"), W3),
    "valid_subtype_and_feats": _sents(
        _row("1", "a", "a", "X", "_", "Case=Nom|Foo=Bar", "2", "nsubj:pass", "_", "_") + "\n" + W2, W3
    ),
    "valid_trailing_comment": GOLD + "# the end\n",
    "valid_mwt": _sents(_row("1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1 + "\n" + W2, W3),
    "valid_mwt_ids_unchecked": _sents(
        _row("1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1.replace("1\t", "7\t", 1) + "\n" + W2, W3
    ),
    "valid_zero_padded_id": _sents("01" + W1[1:] + "\n" + W2, W3),
    "valid_leading_comment_only_file_end": GOLD + "# x\n# y\n",
    "empty_file": "",
    "only_comments": "# a\n# b\n",
    "text_differs": _sents(W1 + "\n" + W2.replace("\tb\t", "\tz\t", 1), W3),
    "text_shorter": _sents(W1 + "\n" + W2),
    "nine_columns": _sents(W1 + "\n" + W2.rsplit("\t", 1)[0], W3),
    "eleven_columns": _sents(W1 + "\n" + W2 + "\t_", W3),
    "space_separated": _sents(W1 + "\n" + W2.replace("\t", " "), W3),
    "empty_form_after_spaces": _sents(W1 + "\n" + W2.replace("\tb\t", "\t\u00a0\t", 1), W3),
    "empty_form": _sents(W1 + "\n" + W2.replace("\tb\t", "\t\t", 1), W3),
    "bad_word_id": _sents(W1 + "\n" + "x" + W2[1:], W3),
    "empty_word_id": _sents(W1 + "\n" + W2[1:], W3),
    "skipped_word_id": _sents(W1 + "\n" + "3" + W2[1:], W3),
    "repeated_word_id": _sents(W1 + "\n" + "1" + W2[1:], W3),
    "word_id_zero": _sents("0" + W1[1:] + "\n" + W2, W3),
    "bad_head": _sents(W1.replace("\t2\tdep", "\tx\tdep") + "\n" + W2, W3),
    "empty_head": _sents(W1.replace("\t2\tdep", "\t_\tdep") + "\n" + W2, W3),
    "negative_head": _sents(W1.replace("\t2\tdep", "\t-1\tdep") + "\n" + W2, W3),
    "head_out_of_range": _sents(W1.replace("\t2\tdep", "\t5\tdep") + "\n" + W2, W3),
    "self_loop": _sents(W1.replace("\t2\tdep", "\t1\tdep") + "\n" + W2, W3),
    "cycle": _sents(W1 + "\n" + W2.replace("\t0\troot", "\t1\tdep"), W3),
    "two_roots": _sents(W1.replace("\t2\tdep", "\t0\troot") + "\n" + W2, W3),
    "no_final_blank_line": GOLD.rstrip("\n") + "\n",
    "no_final_newline": GOLD.rstrip("\n"),
    "double_blank_line": GOLD.replace("\n\n", "\n\n\n", 1),
    "leading_blank_line": "\n" + GOLD,
    "whitespace_line": GOLD.replace("\n\n", "\n \n", 1),
    "comment_inside_sentence": _sents(W1 + "\n# inside\n" + W2, W3),
    "bom": "\ufeff" + GOLD,
    "mwt_bad_range": _sents(_row("1-x", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1 + "\n" + W2, W3),
    "mwt_member_nine_columns": _sents(
        _row("1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1 + "\n" + W2.rsplit("\t", 1)[0], W3
    ),
    "mwt_member_bad_head": _sents(
        _row("1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1.replace("\t2\tdep", "\tx\tdep") + "\n" + W2, W3
    ),
    "mwt_member_head_out_of_range": _sents(
        _row("1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1.replace("\t2\tdep", "\t9\tdep") + "\n" + W2, W3
    ),
    "mwt_past_end_of_file": _row("1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + "\n" + W1 + "\n",
    # IDs, multiword-token ranges and HEADs are read by Python's int(): leading zeros,
    # signs, surrounding whitespace, underscores between digits, any script's digits
    "valid_id_001": _sents("001" + W1[1:] + "\n" + W2, W3),
    "valid_id_plus": _sents("+1" + W1[1:] + "\n" + W2, W3),
    "valid_id_spaces": _sents(" 1 " + W1[1:] + "\n" + W2, W3),
    "valid_id_nbsp": _sents("\u00a01" + W1[1:] + "\n" + W2, W3),
    "valid_id_underscore": _sents(W1 + "\n" + "0_2" + W2[1:], W3),
    "valid_id_arabic_digit": _sents("\u0661" + W1[1:] + "\n" + W2, W3),
    "valid_head_zero_padded": _sents(W1.replace("\t2\tdep", "\t02\tdep") + "\n" + W2, W3),
    "valid_head_plus_spaces": _sents(W1.replace("\t2\tdep", "\t +2 \tdep") + "\n" + W2, W3),
    "valid_head_minus_zero": _sents(W1 + "\n" + W2.replace("\t0\troot", "\t-0\troot"), W3),
    "valid_head_00": _sents(W1 + "\n" + W2.replace("\t0\troot", "\t00\troot"), W3),
    "valid_mwt_range_zero_padded": _sents(_row("01-02", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "valid_mwt_range_spaces": _sents(_row(" 1- 2", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "valid_mwt_range_elsewhere": _sents(_row("7-8", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "valid_mwt_member_ids_anything": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + "x" + W1[1:] + "\n" + "1.1" + W2[1:], W3
    ),
    "valid_mwt_member_ids_range": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + "1-2" + W1[1:] + "\n" + "02" + W2[1:], W3
    ),
    "valid_mwt_then_word": _sents(
        _row("1-1", "a", *["_"] * 8) + "\n" + "9" + W1[1:] + "\n" + W2, W3
    ),
    "id_one_point_zero": _sents("1.0" + W1[1:] + "\n" + W2, W3),
    "id_minus_one": _sents("-1" + W1[1:] + "\n" + W2, W3),
    "id_double_underscore": _sents("0__1" + W1[1:] + "\n" + W2, W3),
    "id_superscript_digit": _sents("\u00b9" + W1[1:] + "\n" + W2, W3),
    "id_inner_space": _sents(W1 + "\n" + "0 2" + W2[1:], W3),
    "head_one_point_zero": _sents(W1.replace("\t2\tdep", "\t2.0\tdep") + "\n" + W2, W3),
    "mwt_range_three_parts": _sents(_row("1-2-3", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "mwt_range_reversed": _sents(_row("2-1", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "mwt_word_after_wrong_id": _sents(
        _row("1-1", "a", *["_"] * 8) + "\n" + W1 + "\n" + "3" + W2[1:], W3
    ),
    "mwt_member_head_minus_zero": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2.replace("\t0\troot", "\t-0\troot"), W3
    ),
    "mwt_member_head_float": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + W1.replace("\t2\tdep", "\t2.0\tdep") + "\n" + W2, W3
    ),
    "valid_mwt_member_id_dash_dot": _sents(_row("1-2", "ab", *["_"] * 8) + "\n" + "1-2.5" + W1[1:] + "\n" + W2, W3),
    "valid_dash_dot_id_skipped": _sents(W1 + "\n" + _row("1-2.5", "zz", *["_"] * 8) + "\n" + W2, W3),
    "mwt_range_past_sentence_end": _sents(_row("1-3", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "mwt_range_huge": _sents(_row("1-99999999999999999999", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    # an empty node among a multiword token's words: the reference takes its line as the
    # token's next word (udeval would skip it), so the word after it has the wrong place
    "mwt_empty_node_inside": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n" + _row("1.1", "x", "x", "X", "_", "_", "_", "_", "2:dep", "_") + "\n" + W2, W3
    ),
    # ... or is its last word, whose HEAD '_' int() refuses when the sentence ends
    "mwt_empty_node_as_last_word": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n" + _row("1.1", "b", "b", "X", "_", "_", "_", "_", "2:dep", "_"), W3
    ),
    "valid_mwt_zero_padded_words": _sents(
        _row("001-002", "ab", *["_"] * 8) + "\n" + "01" + W1[1:] + "\n" + "002" + W2[1:].replace("\t0\troot", "\t00\troot"), W3
    ),
    # the scorers check the FORM of a token, not of a multiword token's words
    "valid_mwt_word_empty_form": _sents(
        _row("1-2", "ab", *["_"] * 8) + "\n" + W1.replace("\ta\t", "\t\t", 1) + "\n" + W2, W3
    ),
    "empty_node_nine_columns": _sents(W1 + "\n" + W2 + "\n" + _row("2.1", "x", "x", "X", "_", "_", "_", "_", "_"), W3),
    # a reversed range M-N (N < M) is a token without words: the reference's loop over
    # range(M, N + 1) reads no line, its FORM is in the text, the lines after it are words
    # of their own; the texts differ (evaluate fails) unless the gold has the same token
    # (see GOLDS)
    "mwt_range_reversed_after_last_word": _sents(W1 + "\n" + W2 + "\n" + _row("2-1", "ab", *["_"] * 8), W3),
    "mwt_range_reversed_only_line": _sents(_row("2-1", "ab", *["_"] * 8), W3),
    "mwt_range_reversed_in_gold_only": GOLD,
    "mwt_range_reversed_in_both": _sents(_row("2-1", "ab", *["_"] * 8) + "\n" + W1 + "\n" + W2, W3),
    "mwt_range_reversed_in_both_elsewhere": _sents(W1 + "\n" + W2 + "\n" + _row("9-1", "ab", *["_"] * 8), W3),
    # the lines due as a token's words are read as words whatever they hold: a comment
    # line (one column), a blank line or a line of spaces is a line of the wrong size; a
    # '#' line of 10 columns is a word; a line of 9 tabs is a word whose HEAD '' int()
    # refuses when the sentence ends
    "mwt_comment_line_inside": _sents(_row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n# c\n" + W2, W3),
    "mwt_comment_line_10_columns_inside": _sents(_row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n#" + W2[1:], W3),
    "mwt_blank_line_inside": _row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n\n" + W2 + "\n\n" + W3 + "\n\n",
    "mwt_spaces_line_inside": _sents(_row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n  \n" + W2, W3),
    "mwt_tabs_line_inside": _sents(_row("1-2", "ab", *["_"] * 8) + "\n" + W1 + "\n" + "\t" * 9 + "\n" + W2, W3),
}

#: The gold file of the cases not scored against :data:`GOLD`.
GOLDS = {
    "mwt_range_reversed_in_gold_only": CASES["mwt_range_reversed_in_both"],
    "mwt_range_reversed_in_both": CASES["mwt_range_reversed_in_both"],
    "mwt_range_reversed_in_both_elsewhere": CASES["mwt_range_reversed_in_both"],
}
