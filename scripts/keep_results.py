"""Keep the small files of finished runs: every `*_seed*` run folder under RUNS (at any depth) is
copied to the same place under RESULTS, its config.json, metrics.json and history.csv only
(`training.results.RESULT_FILES`); then the table the pages print from them (`results_table`).

    python scripts/keep_results.py runs/sample_seeds results/sample_seeds
"""

import shutil
import sys
from pathlib import Path

from vit_small_ds.training.results import RESULT_FILES, results_table

runs, results = map(Path, sys.argv[1:])
for metrics in runs.rglob("*_seed*/metrics.json"):
    kept = results / metrics.parent.relative_to(runs)
    kept.mkdir(parents=True, exist_ok=True)
    for name in RESULT_FILES:
        shutil.copy(metrics.parent / name, kept / name)
print(f"<!-- {results} -->\n\n{results_table(results)}")
