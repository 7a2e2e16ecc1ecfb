#!/usr/bin/python3
"""Per-fold class counts of StratifiedKFold for TestKFoldMatchesSklearn
(scikit-learn 1.2.1). The counts do not depend on the seed; which rows go
where does (and differs from ours: another random generator).

Run: /usr/bin/python3 datasets/testdata/split_ref.py
"""
import numpy as np
from sklearn.model_selection import StratifiedKFold

def strat_labels(*counts):  # as stratLabels in split_test.go
    left, y = list(counts), []
    while any(left):
        for c in range(len(left)):
            if left[c]:
                y.append(c); left[c] -= 1
    return np.array(y)

for counts, k in [((7, 5, 3), 4), ((10, 1, 4), 3), ((13, 9), 5)]:
    y = strat_labels(*counts)
    skf = StratifiedKFold(n_splits=k, shuffle=True, random_state=0)
    rows = [np.bincount(y[test], minlength=len(counts)).tolist() for _, test in skf.split(np.zeros(len(y)), y)]
    print(counts, k, rows)
