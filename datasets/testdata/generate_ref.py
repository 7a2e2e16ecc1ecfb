#!/usr/bin/python3
"""Reference points for TestGenerateMatchesSklearn (scikit-learn 1.2.1).

Run: /usr/bin/python3 datasets/testdata/generate_ref.py
With noise 0 and no shuffling, make_moons and make_circles are deterministic;
our generators shuffle rows, so the test compares the rows as sets.
"""
from sklearn.datasets import make_moons, make_circles

for name, (X, y) in [("moons", make_moons(n_samples=7, noise=0, shuffle=False)),
                     ("circles", make_circles(n_samples=7, noise=0, factor=0.5, shuffle=False))]:
    print(name)
    for row, label in zip(X.tolist(), y.tolist()):
        print("\t{%r, %r, %d}," % (row[0], row[1], label))
