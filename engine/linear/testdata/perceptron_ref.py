#!/usr/bin/python3
"""Reference values for perceptron_test.go, computed with scikit-learn.

Run from engine/linear/testdata: /usr/bin/python3 perceptron_ref.py > perceptron_ref.json
(scikit-learn 1.2.1). sklearn's Perceptron is the stochastic perceptron with
lr (eta0) 1, update on y·(w·x+b) <= 0, w = 0 at the start. With shuffle=False
and tol=None it visits the rows in order for exactly max_iter epochs, which our
stochastic mode with NoShuffle reproduces (our early stop after an epoch
without a mistake leaves the weights unchanged). Features standardised.
"""
import json, warnings, numpy as np
from sklearn.linear_model import Perceptron
from sklearn.preprocessing import StandardScaler
warnings.filterwarnings("ignore")

def load(path):
    rows = [l.strip().split(",") for l in open(path).read().strip().splitlines()[1:]]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    names = sorted(set(r[-1] for r in rows))
    y = np.array([names.index(r[-1]) for r in rows])
    return StandardScaler().fit_transform(X), y

out = {}
for data in ("iris", "breast_cancer"):
    X, y = load(f"logistic_{data}.csv")
    sw = 1.0 + (np.arange(len(y)) % 3)
    for name, kw, fitkw in [
        ("e5", dict(max_iter=5), {}),
        ("e50", dict(max_iter=50), {}),
        ("e20_lr0.25", dict(max_iter=20, eta0=0.25), {}),
        ("e20_nobias", dict(max_iter=20, fit_intercept=False), {}),
        ("e20_weighted", dict(max_iter=20), dict(sample_weight=sw)),
    ]:
        m = Perceptron(shuffle=False, tol=None, **kw).fit(X, y, **fitkw)
        out[f"{data}_{name}"] = dict(epochs=kw["max_iter"], lr=kw.get("eta0", 1.0), bias=kw.get("fit_intercept", True),
                                     weighted=bool(fitkw), coef=m.coef_.tolist(), intercept=m.intercept_.tolist(),
                                     pred=m.predict(X).tolist())
    # Shuffled runs: mean training accuracy over seeds 0..99, 100 epochs.
    acc = [Perceptron(max_iter=100, tol=None, random_state=s).fit(X, y).score(X, y) for s in range(100)]
    out[f"{data}_shuffled_mean_acc"] = float(np.mean(acc))
print(json.dumps(out))
