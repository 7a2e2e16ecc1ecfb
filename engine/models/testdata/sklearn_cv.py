#!/usr/bin/python3
"""10-fold stratified CV scores of scikit-learn's counterparts of tealab's models
on the built-in datasets, written to sklearn_cv.json for sklearn_test.go.

Run: cd engine/models/testdata && /usr/bin/python3 sklearn_cv.py > sklearn_cv.json
(Debian python3-sklearn 1.2.1). Settings mirror tealab's defaults: scale-sensitive
models get StandardScaler inside the folds, as tealab's spec.Standardize does.
Folds are shuffled with another generator than tealab's, so scores agree within
noise, not exactly."""
import json, os, warnings
import numpy as np
from sklearn.model_selection import StratifiedKFold, KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import Perceptron, LogisticRegression, LinearRegression, Ridge, Lasso
from sklearn.neighbors import NearestCentroid
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA, QuadraticDiscriminantAnalysis as QDA
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import SVC, SVR
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
warnings.filterwarnings("ignore")

here = os.path.dirname(os.path.abspath(__file__))
data_dir = os.path.join(here, "..", "..", "..", "datasets", "builtin")

def load(name):
    import csv
    with open(os.path.join(data_dir, name + ".csv")) as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    y = np.array([r[-1] for r in rows])
    return X, y

std = lambda m: make_pipeline(StandardScaler(), m)
classifiers = {
    "perceptron": lambda: std(Perceptron(max_iter=100, eta0=1.0, tol=None, random_state=0)),
    "centroid": lambda: NearestCentroid(),
    "logistic": lambda: std(LogisticRegression(C=1.0, max_iter=1000)),
    "lda": lambda: LDA(),
    "qda": lambda: QDA(),
    "gnb": lambda: GaussianNB(),
    "svm": lambda: std(SVC()),
    # gbdt's defaults are XGBoost's: depth 6 without a cap on leaves, leaves
    # of any size (min_child_weight 1 counts hessian, not rows), L2 penalty 1.
    "gbdt": lambda: HistGradientBoostingClassifier(max_iter=100, max_depth=6, learning_rate=0.1, max_leaf_nodes=None,
                                                   min_samples_leaf=1, l2_regularization=1.0, early_stopping=False),
}
regressors = {
    "linear": lambda: LinearRegression(),
    "ridge": lambda: std(Ridge(alpha=1.0)),
    "lasso": lambda: std(Lasso(alpha=1.0)),
    "svr": lambda: std(SVR()),
    "gbdt": lambda: HistGradientBoostingRegressor(max_iter=100, max_depth=6, learning_rate=0.1, max_leaf_nodes=None,
                                                  min_samples_leaf=1, l2_regularization=1.0, early_stopping=False),
}
out = {}
for ds in ["iris", "wine", "breast_cancer", "digits"]:
    X, y = load(ds)
    for name, make in classifiers.items():
        if name == "qda" and ds == "digits":
            continue  # singular class covariances: tealab errors and asks for reg > 0
        s = cross_val_score(make(), X, y, cv=StratifiedKFold(10, shuffle=True, random_state=1), scoring="accuracy")
        out[f"{name}/{ds}"] = {"metric": "accuracy", "mean": round(s.mean(), 4), "std": round(s.std(), 4)}
X, y = load("diabetes")
y = y.astype(float)
for name, make in regressors.items():
    s = cross_val_score(make(), X, y, cv=KFold(10, shuffle=True, random_state=1), scoring="r2")
    out[f"{name}/diabetes"] = {"metric": "r2", "mean": round(s.mean(), 4), "std": round(s.std(), 4)}
print(json.dumps(out, indent=1, sort_keys=True))
