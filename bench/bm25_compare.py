#!/usr/bin/env python3
"""Times the Python BM25Distiller printed in ../shared/seeds/004_6eb47fa31ca46851.txt on the
passages that `dossier distill --dump DIR` wrote (one JSONL file per asset), one index + one
query per asset, and prints the mean time per asset: the median over REPS passes over all
assets (each pass's mean in `passes_us`). The seed's class is read from the article at run
time and executed as printed; nothing of it is copied into this repository.

Usage: bm25_compare.py DUMP_DIR QUERY SEED_FILE [REPS=1]
"""
import json
import math
import os
import re
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple


def load_seed_class(seed_path):
    text = open(seed_path, encoding="utf-8").read()
    start = text.index("@dataclass\nclass ResearchPassage")
    end = text.index("Enter fullscreen mode", start)
    namespace = {"re": re, "math": math, "dataclass": dataclass, "List": List, "Dict": Dict,
                 "Tuple": Tuple, "Optional": Optional}
    exec(compile(text[start:end], seed_path, "exec"), namespace)
    return namespace["BM25Distiller"]


def one_pass(dump_dir, query, distiller_cls):
    total = 0.0
    assets = 0
    passages = 0
    for name in sorted(os.listdir(dump_dir)):
        rows = [json.loads(l) for l in open(os.path.join(dump_dir, name), encoding="utf-8")]
        docs = [(r["source_url"], r["text"]) for r in rows]
        d = distiller_cls()
        t0 = time.perf_counter()
        d.index_documents(docs)
        d.search(query, top_k=10)
        total += time.perf_counter() - t0
        # Same passages: every span is one paragraph of over 60 characters.
        assert len(d.corpus) == len(rows), (name, len(d.corpus), len(rows))
        passages += len(rows)
        assets += 1
    return assets, passages, 1e6 * total / max(assets, 1)


def main():
    dump_dir, query, seed = sys.argv[1], sys.argv[2], sys.argv[3]
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    distiller_cls = load_seed_class(seed)
    passes = [one_pass(dump_dir, query, distiller_cls) for _ in range(reps)]
    means = sorted(p[2] for p in passes)
    print(json.dumps({"assets": passes[0][0], "passages": passes[0][1],
                      "mean_index_query_us": means[len(means) // 2],
                      "passes_us": [round(p[2]) for p in passes]}))


if __name__ == "__main__":
    main()
