#!/usr/bin/env python3
"""The cross-scheme TedEval run on UD English-EWT test (issue 6, acceptance 4).

    tedeval_cross_scheme.py TREEVAL SHARED_DATA WORKDIR

1. Derive a functional-head scheme from EWT test (scripts/ud-head-switch.py).
2. Perfect parsers of both schemes (each gold as its own parse) must score exactly 1.0
   against the generalized gold, while LAS of one scheme's gold against the other's is far
   below 100 % (required: below 80 %).
3. Perturbed parses of both schemes (scripts/perturb-deps.py, the same seed): LAS and
   TedEval side by side, printed; TedEval must lie in [0, 1] and δ_new ≤ δ.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return r.stdout


def main():
    treeval, shared, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    ewt = os.path.join(shared, "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    if not os.path.exists(ewt):
        sys.exit(f"tedeval cross-scheme: {ewt} is missing")
    fun = os.path.join(work, "functional.conllu")
    run([sys.executable, os.path.join(SCRIPTS, "ud-head-switch.py"), ewt, fun])
    failures = []

    def ted(lex_parse, fun_parse):
        out = run([treeval, "ted", "--quiet", "--format", "json",
                   "--exp", f"lexical:{ewt}:{lex_parse}",
                   "--exp", f"functional:{fun}:{fun_parse}"])
        return json.loads(out)

    def cells(report, section):
        """{system index: {measure: cell}} of a treeval.report/3 section."""
        out = {}
        for sec in report["sections"]:
            if sec["id"] == section:
                for row in sec["rows"]:
                    out[row["system"]] = {c["measure"]: c for c in row["cells"]}
        return out

    def tedeval(report, k):
        c = cells(report, "scores")[k]
        return {"score": c["TedEval"]["value"], "distance": c["delta_new"]["value"],
                "normalizer": c["iota"]["value"], "delta": c["delta"]["value"]}

    perfect = ted(ewt, fun)
    for k, s in enumerate(perfect["systems"]):
        t = tedeval(perfect, k)
        if t["score"] != 1.0 or t["distance"] != 0:
            failures.append(f"perfect {s['name']}: TedEval {t}")
    deps = json.loads(run([treeval, "deps", "--quiet", "--format", "json", ewt, fun]))
    cell = cells(deps, "scores")[0]["LAS"]
    las = {"score": cell["value"], "correct": cell["counts"][0], "total": cell["counts"][1]}
    if las["score"] >= 0.80:
        failures.append(f"LAS of the functional gold against the lexical gold is {las}")
    scored = perfect["inputs"][1]["counts"]["sentences"]["scored"]
    print(f"perfect parsers: TedEval {[tedeval(perfect, k)['score'] for k in range(len(perfect['systems']))]}"
          f" (sentences {scored}); LAS functional gold vs lexical gold"
          f" {100 * las['score']:.2f} ({las['correct']}/{las['total']})")

    lex_p = os.path.join(work, "lexical-parse.conllu")
    fun_p = os.path.join(work, "functional-parse.conllu")
    for src, dst in ((ewt, lex_p), (fun, fun_p)):
        run([sys.executable, os.path.join(SCRIPTS, "perturb-deps.py"), src, dst, "--seed", "7"])
    r = ted(lex_p, fun_p)
    print("perturbed parses (perturb-deps.py --seed 7 --rate 0.1):")
    own = cells(r, "own-gold")
    for k, s in enumerate(r["systems"]):
        t = tedeval(r, k)
        las, uas = own[k]["LAS"]["value"], own[k]["UAS"]["value"]
        print(f"  {s['name']:<11} LAS {100 * las:.2f}  UAS {100 * uas:.2f}"
              f"  TedEval {100 * t['score']:.2f}  (Σδ_new {t['distance']:.0f}, Σι {t['normalizer']:.0f}, Σδ {t['delta']:.0f})")
        if not (0.0 <= t["score"] <= 1.0 and t["distance"] <= t["delta"]):
            failures.append(f"perturbed {s['name']}: {t}")
    for c in r["comparisons"]:
        print(f"  {c['metric']} [{c['a'] + 1}] vs [{c['b'] + 1}], {c['test']}: difference {c['statistic']:.4f}, p = {c['p_value']:.4f}")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("tedeval cross-scheme: OK")


if __name__ == "__main__":
    main()
