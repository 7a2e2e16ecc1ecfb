#!/usr/bin/python3
"""Reference scores of scikit-learn 1.2.1's HistGradientBoosting for engine/boosting's tests.

usage: /usr/bin/python3 hgb_ref.py > hgb_ref.json   (from this directory)

10-fold CV on the built-in breast_cancer (StratifiedKFold) and diabetes (KFold), both shuffled with
random_state=0: HistGradientBoostingClassifier / Regressor(max_iter=100, max_depth=6,
learning_rate=0.1, early_stopping=False), their other settings at scikit-learn's defaults
(max_leaf_nodes=31, min_samples_leaf=20, l2_regularization=0, max_bins=255). It writes each row's
fold (so that the Go tests fit on the same folds) and each fold's accuracy or R².
"""
import json
import os

import numpy as np
from sklearn import ensemble, metrics, model_selection

here = os.path.dirname(os.path.abspath(__file__))


def load(name):
    d = np.genfromtxt(os.path.join(here, "../../../datasets/builtin", name + ".csv"), delimiter=",", skip_header=1,
                      dtype=str)
    return d[:, :-1].astype(float), d[:, -1]


SETTINGS = dict(max_iter=100, max_depth=6, learning_rate=0.1, early_stopping=False)
out = {}
for name, make, split, score in [
    ("breast_cancer", ensemble.HistGradientBoostingClassifier, model_selection.StratifiedKFold,
     metrics.accuracy_score),
    ("diabetes", ensemble.HistGradientBoostingRegressor, model_selection.KFold, metrics.r2_score),
]:
    X, y = load(name)
    if name == "diabetes":
        y = y.astype(float)
    fold = np.zeros(len(y), dtype=int)
    scores = []
    for k, (tr, te) in enumerate(split(n_splits=10, shuffle=True, random_state=0).split(X, y)):
        fold[te] = k
        m = make(**SETTINGS).fit(X[tr], y[tr])
        scores.append(float(score(y[te], m.predict(X[te]))))
    out[name] = {"metric": "accuracy" if name == "breast_cancer" else "r2", "mean": round(float(np.mean(scores)), 4),
                 "folds": [round(s, 4) for s in scores], "fold_of_row": fold.tolist()}
print(json.dumps(out))
