"""References for TestImbalanceSklearn, from scikit-learn 1.2: the balanced
class weights (compute_class_weight) and the k=5 nearest neighbours of each
row within its class (NearestNeighbors(n_neighbors=6), itself dropped), as
imbalanced-learn's SMOTE finds the rows it draws between.

Run from the repository root: /usr/bin/python3 engine/eval/testdata/imbalance_sklearn.py
(go generate ./engine/eval does), which writes engine/eval/testdata/imbalance_sklearn.json.
"""
import json

import numpy as np
import sklearn
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.class_weight import compute_class_weight

X = np.array([
    [0.0, 0.0], [1.0, 0.2], [0.3, 1.1], [2.0, 2.5], [1.7, 0.4], [0.9, 0.8], [2.2, 1.0],
    [5.0, 5.0], [5.5, 4.1],
    [3.0, 3.3], [3.4, 2.6], [4.1, 3.9], [2.9, 4.4], [3.8, 3.1], [4.6, 2.2], [3.3, 4.9],
])
y = np.array([0] * 7 + [1] * 2 + [2] * 7)
out = {"sklearn": sklearn.__version__, "X": X.tolist(), "y": y.tolist()}
out["balanced"] = compute_class_weight("balanced", classes=np.unique(y), y=y).tolist()
nn = {}
for c in [0, 2]:
    rows = np.flatnonzero(y == c)
    ind = NearestNeighbors(n_neighbors=6).fit(X[rows]).kneighbors(X[rows], return_distance=False)[:, 1:]
    nn[str(c)] = [[int(rows[j]) for j in r] for r in ind]
out["neighbours"] = nn
with open("engine/eval/testdata/imbalance_sklearn.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
