#!/usr/bin/python3
"""Reference values for centroid_test.go, computed with scikit-learn.

Run from engine/linear/testdata: /usr/bin/python3 centroid_ref.py > centroid_ref.json
(scikit-learn 1.2.1). NearestCentroid (Euclidean, no shrinkage) on the raw
features; predictions on the training rows and on a grid of probe rows.
"""
import json, numpy as np
from sklearn.neighbors import NearestCentroid

def load(path):
    rows = [l.strip().split(",") for l in open(path).read().strip().splitlines()[1:]]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    names = sorted(set(r[-1] for r in rows))
    y = np.array([names.index(r[-1]) for r in rows])
    return X, y

out = {}
for data, path in (("iris", "logistic_iris.csv"), ("breast_cancer", "logistic_breast_cancer.csv"), ("wine", "centroid_wine.csv")):
    X, y = load(path)
    m = NearestCentroid().fit(X, y)
    # Probe rows: random convex mixtures of training rows (seeded, 6 digits).
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, len(X), 200), rng.integers(0, len(X), 200)
    t = rng.random(200)[:, None]
    probe = np.array([[float(f"{v:.6g}") for v in r] for r in t * X[a] + (1 - t) * X[b]])
    out[data] = dict(centroids=m.centroids_.tolist(), pred=m.predict(X).tolist(),
                     probe=probe.tolist(), probe_pred=m.predict(probe).tolist())
print(json.dumps(out))
