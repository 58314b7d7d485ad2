"""The real gold/system pairs of ../shared/data that treeval.conll18 is checked on."""

from pathlib import Path
from typing import Iterator, Tuple

#: n-best greedy outputs (spaCy) and the UD dev/train files they parse.
GREEDY = {
    "en_ewt-dev.en_sm": "ud/UD_English-EWT/en_ewt-ud-dev.conllu",
    "en_ewt-train.en_sm": "ud/UD_English-EWT/en_ewt-ud-train.conllu",
    "fr_sequoia-dev.fr_sm": "ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu",
    "fr_sequoia-dev.fr_md": "ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu",
}

#: udtools' own test pair (peer/udeval/README: cs_pud gold and a UDPipe output, with udeval's
#: `-v` output cs_pud.eval.txt); conll18_ud_eval.py loads and scores it too.
UDEVAL = {
    "cs_pud": ("cs_pud-gold.conllu.gz", "cs_pud-udpipe-pdtc-ud-2.17-251125.conllu.gz"),
}


def real_pairs(data: Path) -> Iterator[Tuple[str, Path, Path]]:
    """(name, gold, system) for every pair: the CoNLL 2018 participants' outputs of
    peer/conll18/sys (TEAM.TREEBANK.conllu.gz) against peer/conll18/gold/TREEBANK.conllu.gz,
    nbest/*.greedy.conllu[.gz] against their UD gold, and udtools' cs_pud pair of
    peer/udeval."""
    for system in sorted((data / "peer" / "conll18" / "sys").glob("*.conllu.gz")):
        treebank = system.name.split(".")[1]
        yield "peer/" + system.name[: -len(".conllu.gz")], data / "peer" / "conll18" / "gold" / (treebank + ".conllu.gz"), system
    for stem, gold in GREEDY.items():
        for ext in (".greedy.conllu", ".greedy.conllu.gz"):
            system = data / "nbest" / (stem + ext)
            if system.exists():
                yield "nbest/" + stem, data / gold, system
    for name, (gold, system) in UDEVAL.items():
        d = data / "peer" / "udeval"
        yield "peer/udeval/" + name, d / gold, d / system
