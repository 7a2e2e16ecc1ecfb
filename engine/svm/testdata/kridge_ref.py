"""Reference predictions of kernel ridge regression for kridge_test.go.

scikit-learn 1.2's KernelRidge (no intercept) fitted on the raw rows of
sine (kridge_sine.csv: tealab's seeded `sine` generator, written out) and of
the built-in diabetes; gamma "scale" is computed here as tealab and SVC do,
1 / (n_features * X.var()). With center_y the model is KernelRidge fitted on
y - mean(y) (weighted mean with sample weights), the mean added back.
Run from this directory: python3 kridge_ref.py > kridge_ref.json
"""
import json

import numpy as np
from sklearn.kernel_ridge import KernelRidge

sine = np.loadtxt("kridge_sine.csv", delimiter=",", skiprows=1)
diab = np.loadtxt("../../../datasets/builtin/diabetes.csv", delimiter=",", skiprows=1)
data = {"sine": (sine[:, :1], sine[:, 1]), "diabetes": (diab[:, :-1], diab[:, -1])}
grid = np.linspace(-1, 7, 9).reshape(-1, 1)


def gamma_of(g, X):
    if g == "scale":
        return 1.0 / (X.shape[1] * X.var())
    if g == "auto":
        return 1.0 / X.shape[1]
    return float(g)


cases = [
    ("sine", {"kernel": "rbf", "gamma": "scale", "lambda": "1", "center_y": "false"}, False),
    ("sine", {"kernel": "rbf", "gamma": "scale", "lambda": "1", "center_y": "true"}, False),
    ("sine", {"kernel": "rbf", "gamma": "2", "lambda": "0.01", "center_y": "false"}, False),
    ("sine", {"kernel": "poly", "degree": "3", "gamma": "auto", "coef0": "1", "lambda": "1", "center_y": "false"}, False),
    ("sine", {"kernel": "sigmoid", "gamma": "0.5", "coef0": "-1", "lambda": "0.1", "center_y": "false"}, False),
    ("sine", {"kernel": "rbf", "gamma": "scale", "lambda": "0.1", "center_y": "true"}, True),
    ("diabetes", {"kernel": "rbf", "gamma": "scale", "lambda": "1", "center_y": "true"}, False),
    ("diabetes", {"kernel": "linear", "lambda": "10", "center_y": "false"}, False),
]
out = []
for name, p, weighted in cases:
    X, y = data[name]
    w = 1.0 + np.arange(len(y)) % 3 if weighted else None
    kw = {"kernel": p["kernel"], "alpha": float(p["lambda"])}
    if p["kernel"] != "linear":
        kw["gamma"] = gamma_of(p["gamma"], X)
    if p["kernel"] in ("poly", "sigmoid"):
        kw["coef0"] = float(p["coef0"])
    if p["kernel"] == "poly":
        kw["degree"] = int(p["degree"])
    mean = np.average(y, weights=w) if p["center_y"] == "true" else 0.0
    m = KernelRidge(**kw).fit(X, y - mean, sample_weight=w)
    at = X if name == "diabetes" else np.vstack([X, grid])
    out.append({"data": name, "params": p, "weighted": weighted,
                "predictions": (m.predict(at) + mean).tolist()})
print(json.dumps(out, indent=1))
