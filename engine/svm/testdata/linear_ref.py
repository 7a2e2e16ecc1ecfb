#!/usr/bin/python3
"""Reference values for linear_test.go, computed with scikit-learn's LinearSVC.

Run from engine/svm/testdata: /usr/bin/python3 linear_ref.py
(scikit-learn 1.2.1). It writes linear_clf.csv.gz (the first 2,000 rows of the
bench set clf_20k_20, as bench/make_data.py makes it, to six significant digits)
and prints the numbers linear_test.go quotes. Features are standardised with
StandardScaler (population standard deviation), as tealab does. LinearSVC
regularises its intercept (a constant feature 1, intercept_scaling=1), as the
solvers do; tol=1e-10 so that both reach the unique optimum.
"""
import gzip

import numpy as np
from sklearn.datasets import make_classification
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC


def load_breast_cancer():
    rows = [l.strip().split(",") for l in open("../../../datasets/builtin/breast_cancer.csv").read().strip().splitlines()[1:]]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    y = np.array([1 if r[-1] == "malignant" else 0 for r in rows])
    return X, y


def write_clf():
    X, y = make_classification(n_samples=20_000, n_features=20, n_informative=10, n_redundant=4,
                               n_classes=2, flip_y=0.02, random_state=1)
    X, y = X[:2000], y[:2000]
    lines = [",".join([f"x{j}" for j in range(20)] + ["y"])]
    lines += [",".join("%.6g" % v for v in row) + ",%d" % t for row, t in zip(X, y)]
    with open("linear_clf.csv.gz", "wb") as f:  # mtime 0: the same bytes on every run
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as z:
            z.write(("\n".join(lines) + "\n").encode())
    data = np.loadtxt("linear_clf.csv.gz", delimiter=",", skiprows=1)
    return data[:, :-1], data[:, -1].astype(int)


def fit(name, X, y, **kw):
    X = StandardScaler().fit_transform(X)
    m = LinearSVC(C=1.0, loss="hinge", dual=True, tol=1e-10, max_iter=1_000_000, random_state=0, **kw).fit(X, y)
    w, b = m.coef_[0], m.intercept_[0]
    print(f"// {name}: LinearSVC(C=1, loss=hinge, dual=True, tol=1e-10{''.join(f', {k}={v}' for k, v in kw.items())})")
    print(f"{name}W = []float64{{{', '.join('%.10g' % v for v in w)}}}")
    print(f"{name}B = {b:.10g}")
    print(f"{name}Accuracy = {m.score(X, y):.10g}")
    print(f"{name}Primal = {0.5 * (w @ w + b * b) + np.sum(np.maximum(0, 1 - (2 * y - 1) * (X @ w + b)) * np.where(y == 1, kw.get('class_weight', {1: 1})[1], kw.get('class_weight', {0: 1})[0])):.10g}")


Xb, yb = load_breast_cancer()
fit("linearSVCBreastCancer", Xb, yb)
fit("linearSVCBreastCancerWeighted", Xb, yb, class_weight={0: 1, 1: 3})
Xc, yc = write_clf()
fit("linearSVCBenchClf", Xc, yc)
