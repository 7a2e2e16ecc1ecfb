#!/usr/bin/python3
"""Growth: `tealab train` and the same work in scikit-learn, from 10,000 to 1,000,000 rows.

usage: growth.py TEALAB DATA_DIR [--rows 10000,50000,200000,1000000] [--models tree,logistic,...]

For each model and size it runs, each in a process of its own under /usr/bin/time, the whole
command a person waits for: `tealab train --data FILE --model M --quiet` (load the CSV, a
stratified 80/20 hold-out, fit, score the held-out rows, print the text report) and a Python process that does
the same with numpy and scikit-learn (np.loadtxt, train_test_split(stratify), fit, predict,
score). It prints one Markdown row a case: wall seconds and peak resident memory (MB, and as a
multiple of the raw float64 features) on both sides, the ratio of the wall times, and both scores.

The data: 20 Gaussian features; a class from a fixed linear rule with 5% of the labels flipped
(classifiers, k-means), or a linear target with Gaussian noise (least squares). Written once to
DATA_DIR (about 190 MB at 1,000,000 rows). Needs Debian's python3-sklearn and GNU time.
Runs scikit-learn on one thread; tealab as it runs (its models use one core unless told).
"""
import kit

kit.one_thread()
import json, os, subprocess, sys, time  # noqa: E402

# model -> (data kind, largest rows worth running, scikit-learn's side)
MODELS = {
    "tree": ("clf", 1_000_000, "DecisionTreeClassifier(random_state=1)"),
    "logistic": ("clf", 1_000_000, "scaled LogisticRegression(C=1, max_iter=100)"),
    "linear": ("reg", 1_000_000, "LinearRegression()"),
    "kmeans": ("clf", 1_000_000, "KMeans(2, n_init=10, max_iter=300) on all rows"),
    "knn": ("clf", 200_000, "scaled KNeighborsClassifier(5)"),
    "forest": ("clf", 200_000, "RandomForestClassifier(100, n_jobs=1)"),
}


def make(path, n, kind):
    import numpy as np
    r = np.random.default_rng(1)
    X = r.standard_normal((n, 20))
    w = np.array([(j % 5 - 2) for j in range(20)], float)
    if kind == "clf":
        y = ((X @ w > 0) != (r.random(n) < 0.05)).astype(int)
        fmt = ["%.6f"] * 20 + ["%d"]
    else:
        y = X @ w + r.standard_normal(n)
        fmt = ["%.6f"] * 21
    with open(path + ".tmp", "w") as f:
        f.write(",".join(f"x{j}" for j in range(20)) + ",y\n")
        np.savetxt(f, np.column_stack([X, y]), fmt=fmt, delimiter=",")
    os.replace(path + ".tmp", path)


def sklearn_case(model, path):
    """The scikit-learn side of one case, in this process; prints its score."""
    import numpy as np
    from sklearn import tree, ensemble, linear_model, neighbors, cluster, preprocessing, metrics
    from sklearn.model_selection import train_test_split
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    X, y = data[:, :-1], data[:, -1]
    if model == "kmeans":
        labels = cluster.KMeans(2, n_init=10, max_iter=300, random_state=1).fit(X).labels_
        print(json.dumps({"score": metrics.adjusted_rand_score(y, labels)}))
        return
    strat = None if model == "linear" else y
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=strat, random_state=1)
    if model in ("logistic", "knn"):
        s = preprocessing.StandardScaler().fit(Xtr)
        Xtr, Xte = s.transform(Xtr), s.transform(Xte)
    m = {"tree": lambda: tree.DecisionTreeClassifier(random_state=1),
         "logistic": lambda: linear_model.LogisticRegression(C=1, max_iter=100),
         "linear": lambda: linear_model.LinearRegression(),
         "knn": lambda: neighbors.KNeighborsClassifier(5),
         "forest": lambda: ensemble.RandomForestClassifier(100, n_jobs=1, random_state=1)}[model]()
    m.fit(Xtr, ytr)
    p = m.predict(Xte)
    score = metrics.r2_score(yte, p) if model == "linear" else metrics.accuracy_score(yte, p)
    print(json.dumps({"score": score}))


def timed(cmd):
    """Wall seconds, peak RSS in bytes and stdout of cmd."""
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "RSS %M"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if r.returncode:
        raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-400:]}")
    rss = [l for l in r.stderr.splitlines() if l.startswith("RSS ")][-1]
    return wall, int(rss.split()[1]) * 1024, r.stdout


def main():
    args = sys.argv[1:]
    if args[:1] == ["--sklearn"]:
        return sklearn_case(args[1], args[2])
    if len(args) < 2:
        sys.exit(__doc__)
    kit.require_sklearn("growth.py")
    tealab, data = args[0], args[1]
    rows = [10_000, 50_000, 200_000, 1_000_000]
    models = list(MODELS)
    for i, a in enumerate(args):
        if a == "--rows":
            rows = [int(x) for x in args[i + 1].split(",")]
        if a == "--models":
            models = args[i + 1].split(",")
    os.makedirs(data, exist_ok=True)
    print("| model | rows | tealab wall | tealab peak | scikit-learn wall | scikit-learn peak | wall ratio | score tealab / scikit-learn |")
    print("|---|---|---|---|---|---|---|---|")
    for model in models:
        kind, most, _ = MODELS[model]
        for n in rows:
            if n > most:
                continue
            path = os.path.join(data, f"growth_{kind}_{n}.csv")
            if not os.path.exists(path):
                make(path, n, kind)
            raw = n * 20 * 8
            tw, tr, out = timed([tealab, "train", "--data", path, "--model", model, "--quiet"])
            key = {"linear": "r2", "kmeans": "ari"}.get(model, "accuracy")
            ours = float([l.split()[1] for l in out.splitlines() if l.split()[:1] == [key]][0])
            sw, sr, out = timed(["/usr/bin/python3", __file__, "--sklearn", model, path])
            theirs = json.loads(out)["score"]
            print(f"| {model} | {n:,} | {tw:.2f} s | {tr / 1e6:.0f} MB ({tr / raw:.1f}x) | {sw:.2f} s | "
                  f"{sr / 1e6:.0f} MB ({sr / raw:.1f}x) | {tw / sw:.2f} | {ours:.4f} / {theirs:.4f} |", flush=True)


if __name__ == "__main__":
    main()
