"""A 10-sentence in-memory ``treeval.deps`` call against the ``treeval.conll18`` drop-in's
load + load + evaluate of the same pair (the figure of BENCHMARKS.md's "Python calls the
library" section): median of 2,000 calls each, in one run.

    python tests/python/bench_library.py [DATA_DIR]

The pair is the first 10 sentences of UD English-EWT dev against themselves, as ``str``
text (read from memory by both; neither writes a file).
"""

import statistics
import sys
import time
from pathlib import Path

import treeval
from treeval import conll18

HERE = Path(__file__).resolve().parent
data = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[1].parent / "shared" / "data"
dev = (data / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu").read_text(encoding="utf-8")
text = "".join(block + "\n\n" for block in dev.split("\n\n")[:10])
assert text.count("# sent_id") == 10


def median_us(fn, n=2000):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def drop_in():
    g = conll18.load_conllu(_io(text))
    s = conll18.load_conllu(_io(text))
    return conll18.evaluate(g, s)


def _io(t):
    import io

    return io.StringIO(t)


def library():
    return treeval.deps(text, text, quiet=True)


las = library().scores["LAS"]
assert las.counts[0] == las.counts[1], las.counts
for _ in range(100):  # warm up both
    drop_in()
    library()
a = median_us(drop_in)
b = median_us(library)
c = median_us(drop_in)
print(f"10 sentences, {las.counts[1]} words, median of 2000 calls")
print(f"treeval.conll18 load + load + evaluate: {a:.0f} µs (again after: {c:.0f} µs)")
print(f"treeval.deps(text, text):                {b:.0f} µs  ratio {b / min(a, c):.2f}")
