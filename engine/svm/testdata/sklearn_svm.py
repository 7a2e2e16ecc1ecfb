"""Reference numbers for engine/svm's SMO tests (scikit-learn 1.2, LIBSVM inside).

Run from engine/svm: /usr/bin/python3 testdata/sklearn_svm.py
moons.csv, circles.csv and sine.csv are tealab's generated sets (seed 1), written
by testdata/sets.go (go generate ./engine/svm); the built-in sets are read from datasets/builtin.
Features are standardised on all rows (StandardScaler) before every fit.
"""
import numpy as np
from sklearn.svm import SVC, SVR
from sklearn.preprocessing import StandardScaler
from sklearn.calibration import _sigmoid_calibration

np.set_printoptions(precision=12)


def builtin(name):
    import csv
    with open(f"../../datasets/builtin/{name}.csv") as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    labels = [r[-1] for r in rows]
    order = list(dict.fromkeys(labels))  # class codes in order of first appearance, as tealab
    return X, np.array([order.index(v) for v in labels])


def generated(name):
    d = np.loadtxt(f"testdata/{name}.csv", delimiter=",")
    return d[:, :-1], d[:, -1]


def classify(name, X, y, **kw):
    X = StandardScaler().fit_transform(X)
    m = SVC(**kw).fit(X, y)
    print(f"{name} {kw}: n_support {m.n_support_.tolist()} accuracy {m.score(X, y):.6f} iterations {m.n_iter_.tolist()}")
    print("  intercept", m.intercept_)
    print("  decision_function rows 0..4", m.decision_function(X[:5]))
    return m, X


for name in ["breast_cancer", "iris", "wine"]:
    classify(name, *builtin(name))
classify("breast_cancer", *builtin("breast_cancer"), class_weight="balanced")
for name in ["moons", "circles"]:
    m, X = classify(name, *generated(name))
    if name == "moons":
        d = m.decision_function(X)
        a, b = _sigmoid_calibration(d, generated(name)[1])
        print(f"  Platt on these decision values (sklearn _sigmoid_calibration): A {a:.10f} B {b:.10f}")

X, y = generated("sine")
X = StandardScaler().fit_transform(X)
m = SVR(C=1, epsilon=0.1).fit(X, y)
print(f"sine SVR(C=1, epsilon=0.1): n_support {len(m.support_)} intercept {m.intercept_[0]:.12f} R2 {m.score(X, y):.6f}")
print("  predict rows 0..4", m.predict(X[:5]))
