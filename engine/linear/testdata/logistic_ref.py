#!/usr/bin/python3
"""Reference values for logistic_test.go, computed with scikit-learn.

Run from engine/linear/testdata: /usr/bin/python3 logistic_ref.py > logistic_ref.json
(scikit-learn 1.2.1, numpy as shipped by Debian). Features are standardised
with StandardScaler (population standard deviation), as tealab does.
"""
import json, numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import StandardScaler

def load(path):
    rows = [l.strip().split(",") for l in open(path).read().strip().splitlines()[1:]]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    names = sorted(set(r[-1] for r in rows))
    y = np.array([names.index(r[-1]) for r in rows])
    return StandardScaler().fit_transform(X), y

def tight(C, **kw):
    return LogisticRegression(C=C, tol=1e-10, max_iter=100000, solver="newton-cg", **kw)

out = {}
X, y = load("logistic_breast_cancer.csv")
for C in (1.0, 0.1, 100.0):
    m = tight(C).fit(X, y)
    out[f"breast_cancer_C{C:g}"] = dict(C=C, coef=m.coef_.tolist(), intercept=m.intercept_.tolist(),
                                       proba1=m.predict_proba(X)[:, 1].tolist(), pred=m.predict(X).tolist())
sw = 1.0 + (np.arange(len(y)) % 3)  # weights 1,2,3,1,2,3,...
m = tight(1.0).fit(X, y, sample_weight=sw)
out["breast_cancer_weighted"] = dict(C=1.0, coef=m.coef_.tolist(), intercept=m.intercept_.tolist(),
                                     proba1=m.predict_proba(X)[:, 1].tolist(), pred=m.predict(X).tolist())

X, y = load("logistic_iris.csv")
for C in (1.0, 10.0):
    m = tight(C, multi_class="multinomial").fit(X, y)
    out[f"iris_multinomial_C{C:g}"] = dict(C=C, coef=m.coef_.tolist(), intercept=m.intercept_.tolist(),
                                          proba=m.predict_proba(X).tolist(), pred=m.predict(X).tolist())
m = OneVsRestClassifier(tight(1.0)).fit(X, y)
out["iris_ovr_C1"] = dict(C=1.0, coef=[e.coef_[0].tolist() for e in m.estimators_],
                          intercept=[float(e.intercept_[0]) for e in m.estimators_],
                          proba=m.predict_proba(X).tolist(), pred=m.predict(X).tolist())
# Check: the scaled gradient max|∇J|/(C n) of J = ½‖W‖² + C Σ log-loss at each
# reference solution (printed to stderr; all are below 1e-9).
import sys
from scipy.special import softmax, expit
def gradnorm(X, y, W, b, C, sw=None, ovr=False, binary=False):
    sw = np.ones(len(y)) if sw is None else sw
    Xa = np.hstack([X, np.ones((len(X), 1))]); Th = np.hstack([W, np.array(b)[:, None]])
    if binary or ovr:
        g = []
        for c in range(len(Th)):
            t = (y == (1 if binary else c)).astype(float)
            r = C * sw * (expit(Xa @ Th[c]) - t)
            g.append(Xa.T @ r + np.append(Th[c, :-1], 0))
        return np.abs(g).max() / (C * sw.sum())
    P = softmax(Xa @ Th.T, axis=1); Y = np.eye(len(Th))[y]
    G = (C * sw[:, None] * (P - Y)).T @ Xa + np.hstack([W, np.zeros((len(W), 1))])
    return np.abs(G).max() / (C * sw.sum())
Xb, yb = load("logistic_breast_cancer.csv"); Xi, yi = load("logistic_iris.csv")
for k, v in out.items():
    X, y = (Xb, yb) if k.startswith("breast") else (Xi, yi)
    sw = 1.0 + (np.arange(len(y)) % 3) if "weighted" in k else None
    print(k, gradnorm(X, y, np.array(v["coef"]), v["intercept"], v["C"], sw, ovr="ovr" in k, binary=k.startswith("breast")), file=sys.stderr)
print(json.dumps(out))
