"""Timings of treeval.conll18 from Python (the figures of BENCHMARKS.md's Python section).

    python tests/python/bench_conll18.py [DATA_DIR] [REFERENCE_SCRIPT]

- the big1m pair (1,004,820 words): load_conllu of each file and evaluate, median of 5;
- a 10-sentence pair (the first 10 sentences of UD English-EWT dev against themselves):
  load + evaluate per call, median of 1,000 calls;
- with REFERENCE_SCRIPT (conll18_ud_eval.py), the same 10-sentence call through it;
- the yardstick, in the same run: the `treeval` command beside this Python
  (`treeval ud --compat conll18 -q GOLD SYS` on the pair written to files), median of 5.
"""

import gzip
import importlib.util
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from treeval import conll18

HERE = Path(__file__).resolve().parent
data = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[1].parent / "shared" / "data"
ewt = data / "ud" / "UD_English-EWT"


def median_time(fn, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times)


gold_bytes = ((ewt / "en_ewt-ud-dev.conllu").read_bytes() + (ewt / "en_ewt-ud-test.conllu").read_bytes()) * 20
with gzip.open(data / "reference" / "big1m" / "sys1m.conllu.gz", "rb") as f:
    sys_bytes = f.read()
gold = conll18.load_conllu(io.BytesIO(gold_bytes))
system = conll18.load_conllu(io.BytesIO(sys_bytes))
for label, fn in (
    ("load_conllu(gold, 1M words)", lambda: conll18.load_conllu(io.BytesIO(gold_bytes))),
    ("load_conllu(system, 1M words)", lambda: conll18.load_conllu(io.BytesIO(sys_bytes))),
    ("evaluate(gold, system), 1M words", lambda: conll18.evaluate(gold, system)),
):
    med, lo, hi = median_time(fn, 5)
    print(f"{label:40} median {med:.3f} s (min {lo:.3f}, max {hi:.3f})")

command = Path(sys.executable).parent / "treeval"
if command.exists():
    with tempfile.TemporaryDirectory() as tmp:
        g_path, s_path = os.path.join(tmp, "gold.conllu"), os.path.join(tmp, "sys.conllu")
        Path(g_path).write_bytes(gold_bytes)
        Path(s_path).write_bytes(sys_bytes)
        run = [str(command), "ud", "--compat", "conll18", "-q", g_path, s_path]
        med, lo, hi = median_time(lambda: subprocess.run(run, check=True, capture_output=True), 5)
        print(f"{'treeval ud --compat conll18 (command)':40} median {med:.3f} s (min {lo:.3f}, max {hi:.3f})")

text = (ewt / "en_ewt-ud-dev.conllu").read_text(encoding="utf-8")
small = "\n\n".join(text.split("\n\n")[:10]) + "\n\n"


def small_call(module):
    g = module.load_conllu(io.StringIO(small))
    s = module.load_conllu(io.StringIO(small))
    return module.evaluate(g, s)


assert small_call(conll18)["Words"].gold_total > 0
med, lo, hi = median_time(lambda: small_call(conll18), 1000)
print(f"{'10 sentences: 2 loads + evaluate':40} median {med * 1e3:.3f} ms (min {lo * 1e3:.3f}, max {hi * 1e3:.3f})")
g, s = conll18.load_conllu(io.StringIO(small)), conll18.load_conllu(io.StringIO(small))
med, lo, hi = median_time(lambda: conll18.evaluate(g, s), 1000)
print(f"{'10 sentences: evaluate only':40} median {med * 1e3:.3f} ms (min {lo * 1e3:.3f}, max {hi * 1e3:.3f})")
if len(sys.argv) > 2:
    spec = importlib.util.spec_from_file_location("conll18_ud_eval", sys.argv[2])
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    med, lo, hi = median_time(lambda: small_call(ref), 200)
    print(f"{'reference, 10 sentences: 2 loads + eval':40} median {med * 1e3:.3f} ms (min {lo * 1e3:.3f}, max {hi * 1e3:.3f})")
