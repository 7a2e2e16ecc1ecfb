#!/usr/bin/python3
"""Reference staged training error of scikit-learn 1.2.1's AdaBoost for engine/tree's tests.

usage: /usr/bin/python3 adaboost_staged_ref.py > adaboost_staged_ref.json   (from this directory)

AdaBoostClassifier(algorithm="SAMME", estimator=DecisionTreeClassifier(max_depth=1)),
200 rounds, fitted on all rows of iris, wine and digits: the training error
(1 - staged_score on the same rows) after each round.
"""
import json, os
import numpy as np
from sklearn import ensemble, tree

ROUNDS = 200
here = os.path.dirname(os.path.abspath(__file__))
def load(name):
    d = np.genfromtxt(os.path.join(here, "../../../datasets/builtin", name + ".csv"), delimiter=",", skip_header=1, dtype=str)
    X = d[:, :-1].astype(float)
    y = np.unique(d[:, -1], return_inverse=True)[1]
    return X, y

ref = {"rounds": ROUNDS, "staged_error": {}}
for name in ["iris", "wine", "digits"]:
    X, y = load(name)
    m = ensemble.AdaBoostClassifier(estimator=tree.DecisionTreeClassifier(max_depth=1),
                                    n_estimators=ROUNDS, algorithm="SAMME", random_state=0).fit(X, y)
    ref["staged_error"][name] = [round(1 - s, 6) for s in m.staged_score(X, y)]
print(json.dumps(ref))
