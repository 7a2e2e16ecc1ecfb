#!/usr/bin/python3
"""Reference linkages, PCA and k-means objectives for engine/cluster's and engine/decomp's tests.

usage: /usr/bin/python3 scipy_ref.py   (from this directory; writes points.csv, scipy_ref.json)

scipy 1.10's linkage (single, complete, average, centroid; Euclidean) of 60 Gaussian points in
3-D (three decimals: no tied distances); scikit-learn 1.2.1's KMeans inertia on iris (k=3,
n_init=10, k-means++) and PCA explained_variance_ratio_ on iris and wine.
"""
import json, os
import numpy as np
from scipy.cluster import hierarchy
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA

here = os.path.dirname(os.path.abspath(__file__))
r = np.random.default_rng(4)
X = np.round(np.vstack([r.normal(size=(20, 3)) + c for c in ([0, 0, 0], [4, 0, 0], [0, 4, 1])]), 3)
np.savetxt(os.path.join(here, "points.csv"), X, delimiter=",", fmt="%.3f", header="a,b,c", comments="")
ref = {"linkage": {}}
for m in ["single", "complete", "average", "centroid"]:
    ref["linkage"][m] = hierarchy.linkage(X, method=m, metric="euclidean").tolist()
def builtin(name):
    return np.genfromtxt(os.path.join(here, "../../../datasets/builtin", name + ".csv"), delimiter=",", skip_header=1)[:, :-1]
iris = builtin("iris")
ref["kmeans_iris_inertia"] = float(min(KMeans(3, n_init=10, random_state=s).fit(iris).inertia_ for s in range(5)))
ref["pca"] = {n: [float(v) for v in PCA().fit(builtin(n)).explained_variance_ratio_] for n in ["iris", "wine"]}
json.dump(ref, open(os.path.join(here, "scipy_ref.json"), "w"), indent=1)
