#!/usr/bin/python3
"""Nested cross-validation with scikit-learn on tealab's folds, for
reference_test.go (TestNestedAgreesWithScikitLearn).

Run: go generate ./engine/tune (or cd engine/tune/testdata && /usr/bin/python3 nested.py > nested.json)
(Debian python3-sklearn 1.2.1). nested_folds.json (written by folds.go) holds,
for each set, tealab's outer folds (stratified 5-fold CV, seed 1) and, for
each, the inner folds tealab draws from the outer training part alone (5
folds, seed 1), as tune.Nested draws them. For each outer fold this fits
GridSearchCV on the outer training rows with PredefinedSplit(inner) and
scores its refitted best on the outer held-out rows: what
cross_val_score(GridSearchCV(...), X, y, cv=outer) does, with the inner folds
given fold by fold (cross_val_score takes one inner cv for all). The models
are those of gridsearch.py whose every score agrees with tealab's: k-NN on
breast_cancer with odd k (no ties), and k-NN with tealab's rules for ties on
wine; both standardise inside the folds as tealab's spec does."""
import csv, json, os, warnings
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
warnings.filterwarnings("ignore")

here = os.path.dirname(os.path.abspath(__file__))
data_dir = os.path.join(here, "..", "..", "..", "datasets", "builtin")
nested = json.load(open(os.path.join(here, "nested_folds.json")))

class TealabRuleKNN(BaseEstimator, ClassifierMixin):
    """k-NN with tealab's rules for ties (as in gridsearch.py): every
    training row as near as the kth votes, and a tied vote goes to the tied
    class whose member is nearest."""
    def __init__(self, n_neighbors=5):
        self.n_neighbors = n_neighbors
    def fit(self, X, y):
        self.classes_, self.y_ = np.unique(y, return_inverse=True)
        self.X_ = np.asarray(X)
        return self
    def predict(self, X):
        out = []
        for x in np.asarray(X):
            d = np.sqrt(((self.X_ - x) ** 2).sum(1))
            order = np.argsort(d, kind="stable")
            k = self.n_neighbors
            while k < len(order) and d[order[k]] == d[order[k - 1]]:
                k += 1
            nb = order[:k]
            votes = np.bincount(self.y_[nb], minlength=len(self.classes_))
            out.append(next(self.y_[i] for i in nb if votes[self.y_[i]] == votes.max()))
        return self.classes_[np.array(out)]

def load(name):
    with open(os.path.join(data_dir, name + ".csv")) as f:
        rows = list(csv.reader(f))[1:]
    return np.array([[float(v) for v in r[:-1]] for r in rows]), np.array([r[-1] for r in rows])

knn = lambda: Pipeline([("s", StandardScaler()), ("m", KNeighborsClassifier())])
rule = lambda: Pipeline([("s", StandardScaler()), ("m", TealabRuleKNN())])
cases = [
    # dataset, tealab model, parameter, tealab range, estimator, sklearn key, grid
    ("breast_cancer", "knn", "k", "1..29:15", knn, "m__n_neighbors", range(1, 30, 2)),
    ("wine", "knn", "k", "1..30", rule, "m__n_neighbors", range(1, 31)),
]
out = []
for ds, model, param, rng, est, key, values in cases:
    X, y = load(ds)
    folds = []
    for f in nested[ds]:
        tr, te = np.array(f["train"]), np.array(f["test"])
        gs = GridSearchCV(est(), {key: list(values)}, cv=PredefinedSplit(f["inner"]), scoring="accuracy")
        gs.fit(X[tr], y[tr])
        folds.append({"pick": int(gs.best_params_[key]), "inner": round(float(gs.best_score_), 12),
                      "outer": round(float(gs.score(X[te], y[te])), 12)})
    scores = [f["outer"] for f in folds]
    out.append({"dataset": ds, "model": model, "param": param, "range": rng, "folds": folds,
                "mean": round(float(np.mean(scores)), 12), "std": round(float(np.std(scores, ddof=1)), 12)})
print(json.dumps(out, indent=1))
