"""Reference linear SVMs in the lifted space for engine/lecture's kernel
experiment: two concentric noisy circles (numpy's own seed, so the points
are written out), lifted by the parabolic map (x1, x2, x1^2 + x2^2) and the
quadratic map (x1^2, sqrt(2) x1 x2, x2^2), fitted by
sklearn.svm.SVC(kernel="linear", C, tol=1e-10) (libsvm's SMO, bias not
penalised): its coef_, intercept_, support vectors and training accuracy.

Run with scikit-learn 1.2:  /usr/bin/python3 kernel_svm.py > kernel_svm.json
"""
import json

import numpy as np
import sklearn
from sklearn.svm import SVC


def circles(rng, n, r_in, r_out, noise):
    pts, ys = [], []
    for r, y in ((r_in, 1), (r_out, -1)):
        a = rng.uniform(0, 2 * np.pi, n)
        p = np.c_[r * np.cos(a), r * np.sin(a)] + rng.normal(0, noise, (n, 2))
        pts.append(p)
        ys += [y] * n
    return np.vstack(pts), np.array(ys)


def lift(x, kind):
    if kind == "parabolic":
        return np.c_[x[:, 0], x[:, 1], x[:, 0] ** 2 + x[:, 1] ** 2]
    return np.c_[x[:, 0] ** 2, np.sqrt(2) * x[:, 0] * x[:, 1], x[:, 1] ** 2]


rng = np.random.default_rng(4771)
cases = []
for name, n, r_in, r_out, noise, C in (
    ("separable", 40, 1.0, 2.0, 0.1, 10.0),
    ("overlapping", 40, 1.0, 1.4, 0.25, 1.0),
):
    x, y = circles(rng, n, r_in, r_out, noise)
    for kind in ("parabolic", "quadratic"):
        z = lift(x, kind)
        m = SVC(kernel="linear", C=C, tol=1e-10).fit(z, y)
        cases.append({
            "name": name, "map": kind, "C": C,
            "x": x.tolist(), "y": y.tolist(),
            "w": m.coef_[0].tolist(), "b": float(m.intercept_[0]),
            "n_support": int(m.n_support_.sum()),
            "accuracy": float((m.predict(z) == y).mean()),
        })
print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}))
