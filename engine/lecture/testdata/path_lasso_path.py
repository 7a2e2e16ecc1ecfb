"""Reference values for engine/lecture/path.go (experiment `path`).

Run from the repository root with /usr/bin/python3 (scikit-learn 1.2.1):

    /usr/bin/python3 engine/lecture/testdata/path_lasso_path.py

It reads the repository's own built-in CSVs (so both sides use identical
numbers), standardises the features as path.go does (mean 0, population
standard deviation 1), and writes path_lasso_path.json beside itself:

- lasso: scikit-learn's lasso_path(Z, y - mean(y), n_alphas=100, eps=1e-3,
  tol=1e-12, max_iter=10**6) on diabetes: its alphas and coefficients
  (the intercept is emulated by centring, as LassoCV does), and the
  features' correlations with the target.
- ridge: Ridge(alpha=n*lam, solver="svd") on the standardised diabetes
  features at a few lam (path.go's lambda is per sample).
- logistic: LogisticRegression(penalty, C=1/(n*lam)) on standardised
  breast_cancer, the positive class "benign" (the data's class 1), at a
  few lam: L2 by newton-cg, L1 by saga, both with tiny tolerances.
"""
import json
import os
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, LogisticRegression, Ridge, lasso_path

# newton-cg warns that it did not reach tol=1e-10 on the total objective's
# gradient; the "kkt" field below (each answer's optimality violation on the
# per-sample objective, about 1e-12) is the real measure, so the warning is
# silenced.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")


def read(name):
    path = os.path.join(ROOT, "datasets", "builtin", name + ".csv")
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    return header, rows


def standardise(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)  # numpy's std is the population one


out = {"provenance": "engine/lecture/testdata/path_lasso_path.py, scikit-learn 1.2.1"}

# Lasso and ridge on diabetes.
header, rows = read("diabetes")
A = np.array(rows, dtype=float)
X, y = A[:, :-1], A[:, -1]
n = len(y)
Z = standardise(X)
yc = y - y.mean()
alphas, coefs, _ = lasso_path(Z, yc, n_alphas=100, eps=1e-3, tol=1e-12, max_iter=10**6)
out["features"] = header[:-1]
out["alphas"] = alphas.tolist()
out["coefs"] = coefs.T.tolist()  # [alpha][feature]
out["correlations"] = [float(np.corrcoef(X[:, j], y)[0, 1]) for j in range(X.shape[1])]
# One point checked by Lasso as well, with an intercept: the same fit.
las = Lasso(alpha=alphas[50], tol=1e-14, max_iter=10**6).fit(Z, y)
out["lasso_check"] = {"alpha": float(alphas[50]), "coef": las.coef_.tolist(), "intercept": float(las.intercept_)}

ridge = []
for lam in [1000.0, 10.0, 1.0, 0.1, 0.001]:
    r = Ridge(alpha=n * lam, solver="svd").fit(Z, y)
    ridge.append({"lambda": lam, "alpha": n * lam, "coef": r.coef_.tolist(), "intercept": float(r.intercept_)})
out["ridge"] = ridge

# Logistic on breast_cancer: class 1 is "benign" (the data's second level).
header, rows = read("breast_cancer")
X = np.array([r[:-1] for r in rows], dtype=float)
yb = np.array([1.0 if r[-1] == "benign" else 0.0 for r in rows])
n = len(yb)
Z = standardise(X)
lam_max = np.max(np.abs(Z.T @ (yb - yb.mean()))) / n


def kkt(Z, y, w, b, lam, l1):
    """The largest violation of 0 in the subdifferential of the per-sample
    objective at (w, b): how far from optimal scikit-learn's answer is."""
    p = 1 / (1 + np.exp(-(Z @ w + b)))
    g = Z.T @ (p - y) / len(y)
    worst = abs(np.mean(p - y))
    for gj, wj in zip(g, w):
        if not l1:
            c = abs(gj + lam * wj)
        elif wj != 0:
            c = abs(gj + lam * np.sign(wj))
        else:
            c = max(abs(gj) - lam, 0)
        worst = max(worst, c)
    return float(worst)


logistic = {"lambda_max_l1": float(lam_max), "l1": [], "l2": []}
for lam in [lam_max * 0.5, lam_max * 0.1, lam_max * 0.02]:
    m = LogisticRegression(penalty="l1", C=1 / (n * lam), solver="saga", tol=1e-13, max_iter=10**6).fit(Z, yb)
    logistic["l1"].append({"lambda": float(lam), "C": 1 / (n * lam), "coef": m.coef_[0].tolist(), "intercept": float(m.intercept_[0]),
                            "kkt": kkt(Z, yb, m.coef_[0], m.intercept_[0], lam, True)})
for lam in [1.0, 0.1, 0.01]:
    m = LogisticRegression(penalty="l2", C=1 / (n * lam), solver="newton-cg", tol=1e-10, max_iter=10**4).fit(Z, yb)
    logistic["l2"].append({"lambda": lam, "C": 1 / (n * lam), "coef": m.coef_[0].tolist(), "intercept": float(m.intercept_[0]),
                            "kkt": kkt(Z, yb, m.coef_[0], m.intercept_[0], lam, False)})
out["logistic"] = logistic

with open(os.path.join(HERE, "path_lasso_path.json"), "w") as f:
    json.dump(out, f, indent=1)
