"""Reference minima for experiment gd's data surfaces (seed 1).

Reads gd_data.json (the points gd draws with seed 1, written by
`GD_WRITE_DATA=1 go test ./engine/lecture -run TestGDMinima`) and writes
gd_ref.json: the points again, the logistic loss's minimum by scikit-learn
(LogisticRegression, no penalty, no intercept, Newton-Cholesky; mean loss
log(1 + exp(-y w.x))) and the least-squares line's by numpy's lstsq (half
the mean squared residual of w1 + w2 x). Run: python3 gd_ref.py
(scikit-learn 1.2.1, numpy).
"""
import json

import numpy as np
from sklearn.linear_model import LogisticRegression

with open("gd_data.json") as f:
    data = json.load(f)
out = {}

lg = data["logistic"]
X, y = np.array(lg["x"]), np.array(lg["y"])
m = LogisticRegression(penalty=None, fit_intercept=False, solver="newton-cholesky", tol=1e-14, max_iter=1000).fit(X, y)
w = m.coef_[0]
loss = np.mean(np.logaddexp(0, -y * (X @ w)))
out["logistic"] = {"x": lg["x"], "y": lg["y"], "coef": w.tolist(), "loss": float(loss)}

ls = data["leastsquares"]
x, y = np.array(ls["x"])[:, 0], np.array(ls["y"])
A = np.column_stack([np.ones_like(x), x])
w, *_ = np.linalg.lstsq(A, y, rcond=None)
loss = 0.5 * np.mean((A @ w - y) ** 2)
out["leastsquares"] = {"x": ls["x"], "y": ls["y"], "coef": w.tolist(), "loss": float(loss)}

with open("gd_ref.json", "w") as f:
    json.dump(out, f, indent=1)
print(out["logistic"]["coef"], out["logistic"]["loss"], out["leastsquares"]["coef"], out["leastsquares"]["loss"])
