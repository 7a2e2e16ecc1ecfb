"""References for datasets' pipeline stages (TestPipelineSklearn), from
scikit-learn 1.2: SimpleImputer (mean, median, most_frequent, constant),
MissingIndicator, StandardScaler, MinMaxScaler, RobustScaler and
KBinsDiscretizer (uniform, quantile; encode="ordinal").

Run from the repository root: /usr/bin/python3 datasets/testdata/prep_sklearn.py
(go generate ./datasets does), which writes datasets/testdata/prep_sklearn.json.
"""
import json

import numpy as np
import sklearn
from sklearn.impute import MissingIndicator, SimpleImputer
from sklearn.preprocessing import KBinsDiscretizer, MinMaxScaler, RobustScaler, StandardScaler

nan = float("nan")
# Three columns: spread values with two gaps, repeated values (most
# frequent, quantile edges that coincide), a column without gaps.
X = np.array([
    [1.5, 2.0, 10.0],
    [nan, 2.0, 11.0],
    [3.0, 2.0, 9.5],
    [4.25, 7.0, 30.0],
    [nan, 1.0, 12.0],
    [10.0, 2.0, 10.5],
    [-2.0, nan, 8.0],
    [0.5, 3.0, 100.0],
    [6.0, 3.0, 11.5],
    [2.0, 2.0, 9.0],
    [7.5, 5.0, 10.0],
    [3.0, 2.0, 13.0],
])
out = {"sklearn": sklearn.__version__, "X": [[None if np.isnan(v) else v for v in r] for r in X]}
for strategy in ["mean", "median", "most_frequent", "constant"]:
    im = SimpleImputer(strategy=strategy, fill_value=-1.0)
    im.fit(X)
    out["impute_" + strategy] = im.statistics_.tolist()
mi = MissingIndicator(features="missing-only").fit(X)
out["indicator_features"] = mi.features_.tolist()
out["indicator"] = mi.transform(X).astype(float).tolist()
F = SimpleImputer(strategy="mean").fit_transform(X)
out["filled"] = F.tolist()
for name, sc in [("standard", StandardScaler()), ("minmax", MinMaxScaler()), ("robust", RobustScaler())]:
    out[name] = sc.fit_transform(F).tolist()
for strategy in ["uniform", "quantile"]:
    kb = KBinsDiscretizer(n_bins=4, encode="ordinal", strategy=strategy, subsample=None)
    out["bins_" + strategy] = kb.fit_transform(F).tolist()
    out["edges_" + strategy] = [e.tolist() for e in kb.bin_edges_]
with open("datasets/testdata/prep_sklearn.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
