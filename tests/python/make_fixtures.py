"""Regenerate the expected outputs of tests/python from the reference scorer.

    python tests/python/make_fixtures.py PATH/TO/conll18_ud_eval.py [DATA_DIR]

conll18_ud_eval.py v1.2 is public (UniversalDependencies/conll2018,
evaluation_script/conll18_ud_eval.py); it is run here, never copied into this repository.
DATA_DIR defaults to ../shared/data beside the repository. Writes:
- fixtures/conll18_malformed.json: for every case of malformed_cases.py, what the
  reference's load_conllu (on a text stream) and load_conllu_file (on the bytes in a file)
  do with it, and evaluate against GOLD (the case "valid", or the case's gold in GOLDS):
  "ok" or the exception's class name, and the scores when it evaluates;
- fixtures/conll18_real.json: every real pair (peer/conll18 system outputs against their
  gold, nbest/*.greedy.conllu against their UD gold): the scores, or the failing call.
Scores are [correct, gold_total, system_total, aligned_total, repr(precision),
repr(recall), repr(f1), repr(aligned_accuracy)]: repr() keeps floats exact and tells
0 from 0.0 and None.
"""

import gzip
import importlib.util
import io
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from malformed_cases import CASES, GOLD, GOLDS  # noqa: E402
from real_pairs import real_pairs  # noqa: E402


def load_reference(path):
    spec = importlib.util.spec_from_file_location("conll18_ud_eval", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def scores(evaluation):
    return {
        name: [
            s.correct,
            s.gold_total,
            s.system_total,
            s.aligned_total,
            repr(s.precision),
            repr(s.recall),
            repr(s.f1),
            repr(s.aligned_accuracy),
        ]
        for name, s in evaluation.items()
    }


def attempt(fn, *args):
    try:
        return "ok", fn(*args)
    except Exception as e:  # the class is what is recorded
        return type(e).__name__, None


def malformed(ref):
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in CASES.items():
            path = os.path.join(tmp, name + ".conllu")
            with open(path, "wb") as f:
                f.write(text.encode("utf-8"))
            load, system = attempt(ref.load_conllu, io.StringIO(text, newline=""))
            load_file, system_f = attempt(ref.load_conllu_file, path)
            entry = {"load": load, "load_file": load_file, "evaluate": None}
            if system_f is not None:
                gold = ref.load_conllu(io.StringIO(GOLDS.get(name, GOLD)))
                entry["evaluate"], evaluation = attempt(ref.evaluate, gold, system_f)
                if evaluation is not None:
                    entry["scores"] = scores(evaluation)
            out[name] = entry
    return out


def open_text(path):
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def real(ref, data):
    out = {}
    for name, gold, system in real_pairs(data):
        entry = {"gold": str(gold.relative_to(data)), "system": str(system.relative_to(data))}
        with open_text(gold) as f:
            g_state, g = attempt(ref.load_conllu, f)
        with open_text(system) as f:
            s_state, s = attempt(ref.load_conllu, f)
        entry["load_gold"], entry["load_system"] = g_state, s_state
        if g is not None and s is not None:
            entry["evaluate"], evaluation = attempt(ref.evaluate, g, s)
            if evaluation is not None:
                entry["scores"] = scores(evaluation)
        out[name] = entry
        print(name, entry.get("evaluate"), file=sys.stderr)
    return out


def main():
    ref = load_reference(sys.argv[1])
    data = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE.parents[1].parent / "shared" / "data"
    fixtures = HERE / "fixtures"
    fixtures.mkdir(exist_ok=True)
    for name, value in (("conll18_malformed", malformed(ref)), ("conll18_real", real(ref, data.resolve()))):
        with open(fixtures / (name + ".json"), "w", encoding="utf-8") as f:
            json.dump(value, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
