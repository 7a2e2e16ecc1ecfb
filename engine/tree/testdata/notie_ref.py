#!/usr/bin/python3
"""Small data without tied splits, and scikit-learn 1.2.1's trees on them.

usage: /usr/bin/python3 notie_ref.py   (from this directory; writes notie_*.csv, notie_ref.json)

scikit-learn visits the features in a random order at every node and keeps the first of equal
splits, so only data whose best split is unique at every node can be compared node for node.
The last tree is pruned by minimal cost-complexity (ccp_alpha). This draws Gaussian features with three decimals (exact in float32, scikit-learn's type),
labels from a noisy rule, and checks, at every internal node of every reference tree, that the
best split beats every other feature's best by a margin; a seed that gives a tie is skipped.
"""
import json
import numpy as np
from sklearn import tree

def costs(X, y, w, crit, classes, leaf=8):
    # best weighted child impurity per feature at this node
    best = []
    for f in range(X.shape[1]):
        o = np.argsort(X[:, f], kind="stable"); xs = X[o, f]; ys = y[o]
        bf = np.inf
        for j in range(1, len(xs)):
            if xs[j] == xs[j - 1] or j < leaf or len(xs) - j < leaf:
                continue
            l, r = ys[:j], ys[j:]
            bf = min(bf, imp(l, crit, classes) * len(l) + imp(r, crit, classes) * len(r))
        best.append(bf)
    return sorted(best)

def imp(y, crit, classes):
    if crit == "mse":
        return float(np.var(y))
    p = np.array([np.mean(y == c) for c in classes])
    if crit == "gini":
        return 1 - float(np.sum(p * p))
    p = p[p > 0]
    return -float(np.sum(p * np.log2(p)))

def unique_everywhere(m, X, y, crit, classes):
    t = m.tree_
    path = m.decision_path(X).toarray().astype(bool)
    for i in range(t.node_count):
        if t.children_left[i] == -1:
            continue
        rows = path[:, i]
        c = costs(X[rows], y[rows], None, crit, classes)
        if len(c) > 1 and c[1] - c[0] <= 1e-6 * max(1, abs(c[0])):
            return False
    return True

ref = []
for kind, crit, depth, alpha in [("clf", "gini", 4, 0.0), ("clf", "entropy", 4, 0.0), ("reg", "mse", 4, 0.0), ("clf", "gini", 4, 0.01)]:
    for seed in range(100):
        r = np.random.default_rng(seed)
        X = np.round(r.normal(size=(240, 4)) * 10, 3)
        if kind == "clf":
            z = X[:, 0] + 0.5 * X[:, 1] * (X[:, 2] > 0) + r.normal(size=240) * 4
            y = np.digitize(z, [-6, 6])
            m = tree.DecisionTreeClassifier(criterion=crit, max_depth=depth, min_samples_leaf=8, random_state=0).fit(X, y)
            if alpha > 0:  # the tie check above is on the grown tree; prune it now
                if not unique_everywhere(m, X, y, crit, [0, 1, 2]):
                    continue
                m = tree.DecisionTreeClassifier(criterion=crit, max_depth=depth, min_samples_leaf=8, random_state=0, ccp_alpha=alpha).fit(X, y)
            classes = [0, 1, 2]
        else:
            y = np.round(X[:, 0] * 2 + np.abs(X[:, 1]) + r.normal(size=240) * 5, 3)
            m = tree.DecisionTreeRegressor(max_depth=depth, min_samples_leaf=8, random_state=0).fit(X, y)
            classes = None
        if unique_everywhere(m, X, y, crit, classes):
            break
    else:
        raise SystemExit("no seed without ties for " + kind + crit)
    name = f"notie_{kind}_{crit}.csv"
    if alpha > 0:
        name = f"notie_{kind}_{crit}_pruned.csv"
    with open(name, "w") as f:
        f.write("a,b,c,d,y\n")
        for row, target in zip(X, y):
            f.write(",".join(f"{v:.3f}" for v in row) + "," + (f"c{target}" if kind == "clf" else f"{target:.3f}") + "\n")
    t = m.tree_
    nodes = []
    def walk(i):
        leaf = t.children_left[i] == -1
        nodes.append([-1 if leaf else int(t.feature[i]), 0.0 if leaf else float(t.threshold[i]), int(t.n_node_samples[i]),
                      [float(v) for v in t.value[i][0]]])
        if not leaf:
            walk(t.children_left[i]); walk(t.children_right[i])
    walk(0)
    ref.append({"file": name, "criterion": crit, "max_depth": depth, "min_samples_leaf": 8, "ccp_alpha": alpha, "seed": seed, "nodes": nodes})
json.dump(ref, open("notie_ref.json", "w"), indent=1)
print([(r["file"], r["seed"], len(r["nodes"])) for r in ref])
