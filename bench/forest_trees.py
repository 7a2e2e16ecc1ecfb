#!/usr/bin/python3
"""A random forest's time against its trees, beside scikit-learn: the line must be straight.

usage: forest_trees.py TEALAB CSV [TREES...]   (default trees: 25 50 100 200)

For each number of trees: the wall time of the whole `tealab train --data CSV --model forest
--param trees=T` (jobs=1 and jobs=2), and scikit-learn's RandomForestClassifier(T) fit on the same
share of rows (a stratified 80%, one thread, and n_jobs=2), in one Python process that has loaded
the CSV first (its load is not timed). Prints one Markdown row a number of trees.
"""
import json, subprocess, sys, time

import kit

kit.require_sklearn("forest_trees.py")
import numpy as np  # noqa: E402
from sklearn import ensemble
from sklearn.model_selection import train_test_split

if len(sys.argv) < 3:
    sys.exit(__doc__)
tealab, path = sys.argv[1], sys.argv[2]
trees = [int(t) for t in sys.argv[3:]] or [25, 50, 100, 200]
data = np.loadtxt(path, delimiter=",", skiprows=1)
X, y = data[:, :-1], data[:, -1]
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y, random_state=1)


def ours(t, jobs):
    start = time.perf_counter()
    out = subprocess.run([tealab, "train", "--data", path, "--model", "forest", "--param", f"trees={t}",
                          "--param", f"jobs={jobs}", "--quiet", "--json"], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, json.loads(out)["metrics"]["accuracy"]


def theirs(t, jobs):
    m = ensemble.RandomForestClassifier(t, n_jobs=jobs, random_state=1)
    start = time.perf_counter()
    m.fit(Xtr, ytr)
    return time.perf_counter() - start, m.score(Xte, yte)


print("| trees | tealab train, jobs=1 | jobs=2 | scikit-learn fit, one thread | n_jobs=2 | accuracy tealab / scikit-learn |")
print("|---|---|---|---|---|---|")
for t in trees:
    (a, acc), (b, _) = ours(t, 1), ours(t, 2)
    (c, sacc), (d, _) = theirs(t, 1), theirs(t, 2)
    print(f"| {t} | {a:.2f} s | {b:.2f} s | {c:.2f} s | {d:.2f} s | {acc:.4f} / {sacc:.4f} |", flush=True)
