"""sklearn_ref.py makes sklearn.json, the scikit-learn 1.2 references of
engine/rank's tests, from the files ./export writes (gen_sklearn.sh):

- mutual_info_classif on a small nominal set drawn here (numpy seed 0),
  discrete_features=True: the exact discrete mutual information;
- mutual_info_classif on iris, wine and breast_cancer (continuous,
  n_neighbors=3): random_state=0, and the spread over random_state 0..19
  (the noise it adds against ties moves the estimate on tied values);
- permutation_importance of an SVC (scikit-learn's defaults, features
  standardised on the training rows, as tealab's svm) on breast_cancer's
  default tealab hold-out (the rows of breast_cancer_split.json), accuracy,
  n_repeats=30, random_state=0.
"""
import json
import sys

import numpy as np
from sklearn.feature_selection import mutual_info_classif
from sklearn.inspection import permutation_importance
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

src, out = sys.argv[1], sys.argv[2]


def load(name):
    with open(f"{src}/{name}.csv") as f:
        names = f.readline().strip().split(",")[:-1]
    a = np.loadtxt(f"{src}/{name}.csv", delimiter=",", skiprows=1)
    return names, a[:, :-1], a[:, -1].astype(int)


ref = {"sklearn": __import__("sklearn").__version__}

rng = np.random.RandomState(0)
n = 200
y = rng.randint(0, 3, n)
Xn = np.column_stack([
    (y + rng.randint(0, 2, n)) % 4,          # tied to the class
    np.where(rng.rand(n) < 0.7, y, rng.randint(0, 3, n)),  # mostly the class
    rng.randint(0, 5, n),                    # noise
    (y == 2).astype(int),                    # one class apart
    np.zeros(n, dtype=int),                  # constant
])
ref["nominal"] = {
    "X": Xn.tolist(), "y": y.tolist(), "levels": [4, 3, 5, 2, 1],
    "mi": mutual_info_classif(Xn, y, discrete_features=True).tolist(),
}

for name in ["iris", "wine", "breast_cancer"]:
    names, X, y = load(name)
    ref[name + "_mi"] = dict(zip(names, mutual_info_classif(X, y, n_neighbors=3, random_state=0).tolist()))
    draws = np.array([mutual_info_classif(X, y, n_neighbors=3, random_state=s) for s in range(20)])
    ref[name + "_mi_std"] = dict(zip(names, draws.std(axis=0).tolist()))

names, X, y = load("breast_cancer")
with open(f"{src}/breast_cancer_split.json") as f:
    split = json.load(f)
tr, te = split["train"], split["test"]
svm = make_pipeline(StandardScaler(), SVC()).fit(X[tr], y[tr])
pi = permutation_importance(svm, X[te], y[te], n_repeats=30, random_state=0)
ref["permutation"] = {
    "split": split, "accuracy": svm.score(X[te], y[te]),
    "mean": dict(zip(names, pi.importances_mean.tolist())),
    "std": dict(zip(names, pi.importances_std.tolist())),
}
with open(out, "w") as f:
    json.dump(ref, f, indent=1)
    f.write("\n")
