#!/usr/bin/python3
"""GridSearchCV on tealab's own folds, for reference_test.go.

Run: go generate ./engine/tune (or cd engine/tune/testdata && /usr/bin/python3 gridsearch.py > gridsearch.json)
(Debian python3-sklearn 1.2.1). folds.json holds, for each built-in set, the
fold of each row under tealab's stratified 5-fold CV with seed 1 (written by
testdata/folds.go, which `go generate ./engine/tune` runs first); PredefinedSplit
makes scikit-learn score the very same folds. knn standardises inside the folds
as tealab's spec does; the tree is grown unpruned (prune=none).
See the comment above the cases for what is compared and why."""
import csv, json, os, warnings
import numpy as np
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier
warnings.filterwarnings("ignore")

here = os.path.dirname(os.path.abspath(__file__))
data_dir = os.path.join(here, "..", "..", "..", "datasets", "builtin")
folds = json.load(open(os.path.join(here, "folds.json")))

class TealabRuleKNN(BaseEstimator, ClassifierMixin):
    """k-NN with tealab's documented rules for ties: every training row as
    near as the kth votes, and a tied vote goes to the tied class whose
    member is nearest (Euclidean distance)."""
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

# knn on breast_cancer with odd k: two classes and continuous features, so
# neither tealab's rules for ties (every row as near as the kth votes; a tied
# vote goes to the nearest class) nor scikit-learn's come into play and the
# scores agree exactly. On iris and wine (repeated rows, three classes) the
# rules differ, so they are not compared. Trees grow the same partitions of
# the training rows (equal training scores) but break ties between equally
# good splits differently (scikit-learn by a random order of the features),
# which moves validation scores slightly: their best depth is compared.
# On iris and wine, GridSearchCV searches TealabRuleKNN, k-NN with tealab's
# rules for ties, and every score agrees: the differences from
# KNeighborsClassifier there are those rules, not the sweep.
knn = lambda: Pipeline([("s", StandardScaler()), ("m", KNeighborsClassifier())])
tree = lambda: DecisionTreeClassifier(random_state=0)
rule = lambda: Pipeline([("s", StandardScaler()), ("m", TealabRuleKNN())])
cases = [
    # dataset, tealab model, parameter, tealab range, fixed tealab params, what agrees, estimator, sklearn key, grid
    ("breast_cancer", "knn", "k", "1..29:15", {}, "scores", knn(), "m__n_neighbors", range(1, 30, 2)),
    ("iris", "knn", "k", "1..30", {}, "scores", rule(), "m__n_neighbors", range(1, 31)),
    ("wine", "knn", "k", "1..30", {}, "scores", rule(), "m__n_neighbors", range(1, 31)),
    ("breast_cancer", "tree", "max_depth", "1..8", {"prune": "none"}, "best", tree(), "max_depth", range(1, 9)),
    ("wine", "tree", "max_depth", "1..8", {"prune": "none"}, "best", tree(), "max_depth", range(1, 9)),
]
out = []
for ds, model, param, rng, fixed, agree, est, key, values in cases:
    X, y = load(ds)
    gs = GridSearchCV(est, {key: list(values)}, cv=PredefinedSplit(folds[ds]), scoring="accuracy", return_train_score=True)
    gs.fit(X, y)
    r = gs.cv_results_
    out.append({"dataset": ds, "model": model, "param": param, "range": rng, "fixed": fixed, "agree": agree,
                "values": list(values), "best": int(gs.best_params_[key]),
                "mean_test_score": [round(float(v), 12) for v in r["mean_test_score"]],
                "mean_train_score": [round(float(v), 12) for v in r["mean_train_score"]]})
print(json.dumps(out, indent=1))
