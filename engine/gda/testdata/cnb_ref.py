#!/usr/bin/python3
"""Reference values for the categorical naive Bayes tests (cnb_ref.json):
scikit-learn's CategoricalNB(alpha) fitted on the rows of nominal.arff that
have no missing value, with every declared level as a category, and its
posteriors for every 7th of those rows.

Run from this directory:  /usr/bin/python3 cnb_ref.py > cnb_ref.json
"""
import json, sys
import numpy as np
import sklearn
from sklearn.naive_bayes import CategoricalNB
from scipy.io import arff

data, meta = arff.loadarff("nominal.arff")
names = meta.names()
levels = [meta[n][1] for n in names]
rows = [r for r in data if all(v != b"?" for v in r)]
X = np.array([[levels[j].index(r[j].decode()) for j in range(len(names) - 1)] for r in rows])
y = np.array([levels[-1].index(r[-1].decode()) for r in rows])
out = {"sklearn": sklearn.__version__, "rows": len(rows), "cases": []}
for alpha in (1.0, 0.5):
    m = CategoricalNB(alpha=alpha, min_categories=[len(l) for l in levels[:-1]]).fit(X, y)
    idx = list(range(0, len(rows), 7))
    out["cases"].append({"alpha": alpha, "index": idx, "proba": m.predict_proba(X[idx]).tolist(),
                         "pred": m.predict(X).tolist()})
json.dump(out, sys.stdout, separators=(",", ":"))
print()
