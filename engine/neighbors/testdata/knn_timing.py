#!/usr/bin/python3
"""Times k-NN on 100,000 rows x 20 features: the whole command
`tealab train --data CSV --model knn` (read, standardise, fit, predict the
20,000 held-out rows, report), on all cores and then on one (GOMAXPROCS=1),
against scikit-learn 1.2's KNeighborsClassifier(n_neighbors=5) fit and
predict of a stratified 20,000-row hold-out on standardised features, on
one thread. Each tool draws its held-out rows with its own random
generator: as many rows, in the same class proportions, not the same rows.

Usage: /usr/bin/python3 knn_timing.py TEALAB [CSV]
CSV (default /tmp/knn_100k_20.csv) is written first if it is missing:
make_classification(n_samples=100000, n_features=20, random_state=0).
"""
import os
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
import json, subprocess, sys, time
import numpy as np
from sklearn import datasets, model_selection, neighbors, preprocessing


def write_csv(path):
    X, y = datasets.make_classification(n_samples=100_000, n_features=20, random_state=0)
    header = ",".join([f"x{i}" for i in range(20)] + ["y"])
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header=header, comments="",
               fmt=["%.6g"] * 20 + ["%d"])


def sklearn_run(path):
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    X, y = data[:, :-1], data[:, -1]
    Xtr, Xte, ytr, yte = model_selection.train_test_split(X, y, test_size=0.2, stratify=y, random_state=1)
    s = preprocessing.StandardScaler().fit(Xtr)
    Xtr, Xte = s.transform(Xtr), s.transform(Xte)
    t = time.perf_counter()
    m = neighbors.KNeighborsClassifier(n_neighbors=5).fit(Xtr, ytr)
    pred = m.predict(Xte)
    return time.perf_counter() - t, float((pred == yte).mean()), m._fit_method


def tealab_run(tealab, path, threads=None):
    env = dict(os.environ, GOMAXPROCS=str(threads)) if threads else None
    t = time.perf_counter()
    out = subprocess.run([tealab, "train", "--data", path, "--model", "knn", "--json", "--quiet"],
                         check=True, capture_output=True, text=True, env=env).stdout
    wall = time.perf_counter() - t
    res = json.loads(out)
    return wall, res["metrics"]["accuracy"], res["fit_seconds"], res["neighbours"]["search"]


if __name__ == "__main__":
    tealab = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else "/tmp/knn_100k_20.csv"
    if not os.path.exists(path):
        write_csv(path)
    sk_s, sk_acc, sk_algo = sklearn_run(path)
    print(f"scikit-learn fit + predict, one thread: {sk_s:.2f} s  accuracy {sk_acc:.4f}  ({sk_algo})")
    for threads in (None, 1):
        wall, acc, fit_s, search = tealab_run(tealab, path, threads)
        cores = "one core" if threads else "all cores"
        print(f"tealab train, whole command, {cores}: {wall:.2f} s  accuracy {acc:.4f}  fit {fit_s:.2f} s  ({search})")
