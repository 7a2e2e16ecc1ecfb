"""Reference fits for engine/lecture's bias-variance experiment.

One fixed small data set (x in [-1, 1], y = sin(pi x) plus noise, drawn
once from numpy's default_rng(12) and written out in full), and the
predictions at fixed query points of

  numpy.polyfit (degrees 0, 1, 3, 5, 9),
  scikit-learn Ridge(alpha=lambda, fit_intercept=True) on
    PolynomialFeatures(degree=9, include_bias=False) (the intercept is not
    penalised),
  KNeighborsRegressor(n_neighbors=k, algorithm="brute") (k = 1, 3, 7, 15),
  DecisionTreeRegressor(max_depth=d, random_state=0) (d = 1, 2, 3, 8).

Run with numpy 1.24 and scikit-learn 1.2.1:
  python3 biasvariance_fits.py > biasvariance_fits.json
"""
import json

import numpy as np
import sklearn
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.preprocessing import PolynomialFeatures
from sklearn.tree import DecisionTreeRegressor

rng = np.random.default_rng(12)
x = np.round(rng.uniform(-1, 1, 15), 6)
y = np.round(np.sin(np.pi * x) + 0.3 * rng.standard_normal(15), 6)
# queries: none at a training point's distance tie (checked below)
z = np.array([-1.0, -0.83, -0.51, -0.2, 0.03, 0.37, 0.61, 0.88, 1.0])
for q in z:
    d = np.sort(np.abs(x - q))
    assert np.all(np.diff(d) > 1e-9), "a distance tie"

out = {
    "source": "numpy %s, scikit-learn %s; see biasvariance_fits.py" % (np.__version__, sklearn.__version__),
    "x": x.tolist(), "y": y.tolist(), "z": z.tolist(),
    "poly": [], "ridge": [], "knn": [], "tree": [],
}
for deg in [0, 1, 3, 5, 9]:
    c = np.polyfit(x, y, deg)
    out["poly"].append({"degree": deg, "pred": np.polyval(c, z).tolist(), "train": np.polyval(c, x).tolist()})
for lam in [1e-6, 1e-3, 0.1, 10]:
    pf = PolynomialFeatures(degree=9, include_bias=False)
    m = Ridge(alpha=lam, fit_intercept=True, solver="svd").fit(pf.fit_transform(x[:, None]), y)
    out["ridge"].append({"degree": 9, "lambda": lam, "pred": m.predict(pf.transform(z[:, None])).tolist()})
for k in [1, 3, 7, 15]:
    m = KNeighborsRegressor(n_neighbors=k, algorithm="brute").fit(x[:, None], y)
    out["knn"].append({"k": k, "pred": m.predict(z[:, None]).tolist()})
for d in [1, 2, 3, 8]:
    m = DecisionTreeRegressor(max_depth=d, random_state=0).fit(x[:, None], y)
    out["tree"].append({"depth": d, "pred": m.predict(z[:, None]).tolist(), "train": m.predict(x[:, None]).tolist(),
                        "leaves": int(m.get_n_leaves())})
print(json.dumps(out, indent=1))
