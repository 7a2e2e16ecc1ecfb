#!/usr/bin/python3
"""scikit-learn's MLPRegressor on the diabetes data (datasets/builtin/diabetes.csv): hold-out R2
over five 80/20 splits, features standardised on the training part, as `tealab train --data
diabetes --model mlp` evaluates. Run from the repository root; prints one line a setting."""
import warnings

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPRegressor
from sklearn.preprocessing import StandardScaler

data = np.genfromtxt("datasets/builtin/diabetes.csv", delimiter=",", skip_header=1)
X, y = data[:, :-1], data[:, -1]
warnings.simplefilter("ignore")  # 200 epochs end before convergence on the raw target
for name, kw in [("defaults", {}), ("max_iter=2000", {"max_iter": 2000})]:
    scores = []
    for seed in range(1, 6):
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, random_state=seed)
        sc = StandardScaler().fit(Xtr)
        m = MLPRegressor(random_state=seed, **kw).fit(sc.transform(Xtr), ytr)
        scores.append(m.score(sc.transform(Xte), yte))
    print(f"{name}: R2 mean {np.mean(scores):.4f} per split {' '.join(f'{s:.4f}' for s in scores)}")
