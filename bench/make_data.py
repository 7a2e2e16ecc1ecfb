#!/usr/bin/python3
"""Writes the data sets of cases.tsv as CSV files, the same bytes on every machine.

usage: make_data.py DIR [SET...]   (default: every set; about 400 MB in all, 250 MB of it clf_1m_28)

Each set comes from one of scikit-learn's generators with a fixed seed, already in random
order, so the first 80% of rows can train and the rest be scored. A file has a header row
(x0, x1, ..., y) and its target last: a class or blob number, the regression target, or
zeros where there is none (PCA's matrix). Features are written to six significant digits.
A file that exists is kept. `digits` is not made here: it is the repository's built-in copy.
Needs scikit-learn for /usr/bin/python3.
"""
import os
import sys

import kit

# name: (generator in sklearn.datasets, its arguments, whether the target is a whole number)
SETS = {
    "clf_50k_20": ("make_classification", dict(n_samples=50_000, n_features=20, n_informative=10, n_redundant=4,
                                               n_classes=2, flip_y=0.02, random_state=0), True),
    "clf_20k_20": ("make_classification", dict(n_samples=20_000, n_features=20, n_informative=10, n_redundant=4,
                                               n_classes=2, flip_y=0.02, random_state=1), True),
    "clf5_50k_20": ("make_classification", dict(n_samples=50_000, n_features=20, n_informative=12, n_redundant=2,
                                                n_classes=5, n_clusters_per_class=1, random_state=2), True),
    "clf_5k_20": ("make_classification", dict(n_samples=5_000, n_features=20, n_informative=10, n_redundant=4,
                                              n_classes=2, flip_y=0.02, random_state=3), True),
    "knn_25k_8": ("make_classification", dict(n_samples=25_000, n_features=8, n_informative=6, n_redundant=0,
                                              n_classes=3, n_clusters_per_class=2, random_state=4), True),
    "clf_1m_28": ("make_classification", dict(n_samples=1_000_000, n_features=28, n_informative=14, n_redundant=4,
                                              n_classes=2, flip_y=0.02, random_state=11), True),
    "reg_100k_50": ("make_regression", dict(n_samples=100_000, n_features=50, n_informative=30, noise=5.0,
                                            random_state=5), False),
    "reg_20k_50": ("make_regression", dict(n_samples=20_000, n_features=50, n_informative=10, noise=5.0,
                                           random_state=6), False),
    "blobs_100k_10": ("make_blobs", dict(n_samples=100_000, n_features=10, centers=8, cluster_std=2.0,
                                         random_state=7), True),
    "blobs_3k_10": ("make_blobs", dict(n_samples=3_000, n_features=10, centers=5, cluster_std=1.5,
                                       random_state=8), True),
    "blobs_2k_10": ("make_blobs", dict(n_samples=2_000, n_features=10, centers=4, cluster_std=1.0,
                                       random_state=9), True),
    "dense_20k_100": ("make_low_rank_matrix", dict(n_samples=20_000, n_features=100, effective_rank=15,
                                                   random_state=10), True),
}


def generate(name):
    """The features and target of one set."""
    import numpy as np
    from sklearn import datasets
    generator, args, _ = SETS[name]
    out = getattr(datasets, generator)(**args)
    if isinstance(out, tuple):
        return out
    return out, np.zeros(out.shape[0])  # a bare matrix: its target column is a placeholder


def write(path, X, y, whole):
    """Writes the CSV beside its final name and renames it, so no half-written file is trusted."""
    import numpy as np
    header = ",".join([f"x{j}" for j in range(X.shape[1])] + ["y"])
    fmt = ["%.6g"] * X.shape[1] + ["%d" if whole else "%.6g"]
    part = path + ".part"
    with open(part, "w") as f:
        f.write(header + "\n")
        np.savetxt(f, np.column_stack([X, y]), delimiter=",", fmt=fmt)
    os.replace(part, path)


def ensure(folder, names, log=sys.stderr):
    """Makes the sets among names that the folder lacks; names that are built-in data sets pass."""
    os.makedirs(folder, exist_ok=True)
    for name in names:
        path = os.path.join(folder, name + ".csv")
        if name not in SETS:
            if not os.path.exists(kit.data_path(folder, name)):
                raise ValueError(f"no data set {name!r} (make_data.py makes: {', '.join(SETS)})")
            continue
        if os.path.exists(path):
            continue
        print(f"writing {path}", file=log, flush=True)
        X, y = generate(name)
        write(path, X, y, SETS[name][2])


def main(argv):
    if not argv or argv[0].startswith("-"):
        kit.fail("make_data.py", "usage: make_data.py DIR [SET...]", 2)
    kit.require_sklearn("make_data.py")
    try:
        ensure(argv[0], argv[1:] or list(SETS), log=sys.stdout)
    except ValueError as e:
        kit.fail("make_data.py", str(e), 2)


if __name__ == "__main__":
    main(sys.argv[1:])
