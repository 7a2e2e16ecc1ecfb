#!/usr/bin/python3
"""scikit-learn's side of the cases of cases.tsv, timed as `tealab bench` times its own.

usage: sklearn_ref.py DIR [CASE...]   (default: every case; DIR holds make_data.py's files)

Prints one JSON object a line, the keys `tealab bench --json` prints:
  {"case": ..., "fit_s": ..., "predict_s": ..., "metric": ..., "score": ...}
fit_s is the median of three fits on one thread; predict_s times one prediction of the held-out
rows (0 for clusterings and reductions, whose labels or components come with the fit).
The data set, task, standardisation and metric of each case come from cases.tsv; this file
holds only scikit-learn's estimator for each.
"""
import kit

kit.one_thread()

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

RUNS = 3  # fits per case; the median time is kept


def estimators():
    """Case name -> a function making a fresh estimator (a clustering: rows -> labels)."""
    from scipy.cluster import hierarchy
    from sklearn import (cluster, decomposition, discriminant_analysis, ensemble, linear_model, naive_bayes,
                         neighbors, neural_network, svm, tree)

    def average_linkage(X):
        return hierarchy.fcluster(hierarchy.linkage(X, method="average", metric="euclidean"), 5, criterion="maxclust")

    return {
        "tree": lambda: tree.DecisionTreeClassifier(random_state=0),
        "forest": lambda: ensemble.RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0),
        "adaboost": lambda: ensemble.AdaBoostClassifier(n_estimators=100, algorithm="SAMME", random_state=0),
        "logistic": lambda: linear_model.LogisticRegression(max_iter=100),
        "lda": lambda: discriminant_analysis.LinearDiscriminantAnalysis(),
        "qda": lambda: discriminant_analysis.QuadraticDiscriminantAnalysis(),
        "gnb": lambda: naive_bayes.GaussianNB(),
        "svm_linear": lambda: svm.LinearSVC(C=1.0, loss="hinge", dual=True, max_iter=5000),
        "svm_rbf": lambda: svm.SVC(C=1.0, kernel="rbf", gamma="scale"),
        "knn": lambda: neighbors.KNeighborsClassifier(n_neighbors=5, algorithm="kd_tree"),
        "mlp": lambda: neural_network.MLPClassifier(hidden_layer_sizes=(100,), solver="adam", learning_rate_init=1e-3,
                                                    batch_size=200, max_iter=50, random_state=0),
        "perceptron": lambda: linear_model.Perceptron(max_iter=20, tol=None, random_state=0),
        "linreg": lambda: linear_model.LinearRegression(),
        "ridge": lambda: linear_model.Ridge(alpha=1.0),
        "lasso": lambda: linear_model.Lasso(alpha=0.1),
        "kmeans": lambda: lambda X: cluster.KMeans(n_clusters=8, n_init=1, algorithm="lloyd", max_iter=100,
                                                   random_state=0).fit(X).labels_,
        "hclust": lambda: average_linkage,
        "spectral": lambda: lambda X: cluster.SpectralClustering(n_clusters=4, affinity="rbf",
                                                                 random_state=0).fit(X).labels_,
        "gbdt": lambda: ensemble.HistGradientBoostingClassifier(max_iter=100, max_depth=6, learning_rate=0.1,
                                                                early_stopping=False, random_state=0),
        "gbdt_1m": lambda: ensemble.HistGradientBoostingClassifier(max_iter=100, max_depth=6, learning_rate=0.1,
                                                                   early_stopping=False, random_state=0),
        "pca": lambda: decomposition.PCA(n_components=10, svd_solver="full"),
    }


def load(folder, name):
    import numpy as np
    path = kit.data_path(folder, name)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} not found: write it with make_data.py {folder}")
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return data[:, :-1], data[:, -1]


def median_time(fit):
    """Runs fit RUNS times; returns the median seconds and the last result."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        out = fit()
        times.append(time.perf_counter() - start)
    return sorted(times)[RUNS // 2], out


def supervised(case, make, X, y):
    """Fits the first 80% of rows, scores the rest, in file order."""
    from sklearn import metrics, preprocessing
    n = int(len(X) * 0.8)
    Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
    if case["standardise"]:
        scaler = preprocessing.StandardScaler().fit(Xtr)
        Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
    fit_s, model = median_time(lambda: make().fit(Xtr, ytr))
    start = time.perf_counter()
    pred = model.predict(Xte)
    predict_s = time.perf_counter() - start
    score = metrics.r2_score if case["metric"] == "R2" else metrics.accuracy_score
    return fit_s, predict_s, score(yte, pred)


def clustering(case, make, X, y):
    """Clusters every row; the score compares the labels with the file's blobs."""
    from sklearn import metrics
    fit_s, labels = median_time(lambda: make()(X))
    return fit_s, 0.0, metrics.adjusted_rand_score(y, labels)


def reduction(case, make, X, y):
    """Fits every row; the score is the share of variance the components explain."""
    fit_s, model = median_time(lambda: make().fit(X))
    return fit_s, 0.0, float(model.explained_variance_ratio_.sum())


RUNNERS = {"classification": supervised, "regression": supervised, "clustering": clustering, "reduction": reduction}


def run(case, folder, makers):
    """One case's JSON object, times to the microsecond and the score to four decimals.

    The score is rounded in the type its metric returns, which decides halves: numpy scales a
    float64 by 10^4 and rounds half to even (accuracy 0.84125 -> 0.8412), as the published
    results were rounded; Python's round of a float goes by its exact binary value (0.8413)."""
    if case["case"] not in makers:
        raise KeyError("sklearn_ref.py has no estimator for it: add one to estimators()")
    X, y = load(folder, case["data"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the mlp's 50 epochs end before convergence, as the case asks
        fit_s, predict_s, score = RUNNERS[case["task"]](case, makers[case["case"]], X, y)
    return {"case": case["case"], "fit_s": round(fit_s, 6), "predict_s": round(predict_s, 6),
            "metric": case["metric"], "score": round(score, 4)}


def select(names):
    """The rows of cases.tsv named (all for none); an unknown name is a ValueError."""
    rows = kit.read_cases()
    if not names:
        return rows
    by_name = {r["case"]: r for r in rows}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise ValueError(f"unknown case {unknown[0]!r} (valid: {', '.join(by_name)})")
    return [by_name[n] for n in names]


def main(argv):
    if not argv or argv[0].startswith("-"):
        kit.fail("sklearn_ref.py", "usage: sklearn_ref.py DIR [CASE...]", 2)
    kit.require_sklearn("sklearn_ref.py")
    try:
        cases = select(argv[1:])
    except ValueError as e:
        kit.fail("sklearn_ref.py", str(e), 2)
    makers, failed = estimators(), False
    for case in cases:
        try:
            print(json.dumps(run(case, argv[0], makers)), flush=True)
        except Exception as e:  # one line naming the case, then the next case
            print(f"sklearn_ref.py: case {case['case']}: {kit.describe(e)}", file=sys.stderr)
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
