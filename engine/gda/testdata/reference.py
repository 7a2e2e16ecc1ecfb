#!/usr/bin/python3
"""Reference values for engine/gda's tests (written to sklearn_ref.json).

Run from this directory:  /usr/bin/python3 reference.py > sklearn_ref.json
Data: the *.csv.gz copies here (gzipped copies of datasets/builtin/*.csv).
Class codes are the sorted class names (np.unique order), as the Go tests use.

Sources of truth:
  - scikit-learn (version recorded in the output) where it implements the same
    estimator: LDA solver="lsqr" = pooled MLE covariance (our default),
    LDA solver="svd" = pooled covariance / (n - k) (our estimator=unbiased),
    QDA = per-class covariance / (n_k - 1) (our estimator=unbiased),
    GaussianNB.
  - our own numpy/scipy formulas where scikit-learn has no such option: QDA with
    the MLE covariance (divide by n_k, the notes' estimator), and the mean
    negative log-likelihood reported as TrainLoss.
"""
import csv
import gzip
import json
import sys

import numpy as np
import scipy
import sklearn
from scipy.special import logsumexp
import scipy.linalg
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis as QDA
from sklearn.naive_bayes import GaussianNB

STEP = {"iris": 7, "wine": 7, "breast_cancer": 11, "iris_aug": 7, "digits": 41}  # rows i % STEP == 0 are checked


def load(name):
    if name == "iris_aug":
        # iris plus a collinear column (x0 + x1) and a constant one: a singular
        # pooled covariance, which LDA handles by dropping null directions.
        X, y, classes = load("iris")
        return np.column_stack([X, X[:, 0] + X[:, 1], np.full(len(X), 5.0)]), y, classes
    with gzip.open(name + ".csv.gz", "rt") as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    labels = np.array([r[-1] for r in rows])
    classes = np.unique(labels)
    y = np.searchsorted(classes, labels)
    return X, y, classes


def gauss_params(X, y, k, shared, divisor, reg=0.0, priors="empirical"):
    """Means, covariances and priors of LDA (shared) or QDA, as in gda's doc comments."""
    n, d = X.shape
    means = np.array([X[y == c].mean(0) for c in range(k)])
    counts = np.bincount(y, minlength=k).astype(float)
    pri = counts / n if priors == "empirical" else np.full(k, 1.0 / k)
    if shared:
        Xc = X - means[y]
        S = Xc.T @ Xc
        cov = S / (n if divisor == "mle" else n - k)
        if reg:
            cov = (1 - reg) * cov + reg * np.trace(cov) / d * np.eye(d)
        covs = [cov] * k
    else:
        covs = []
        for c in range(k):
            Xc = X[y == c] - means[c]
            cov = Xc.T @ Xc / (counts[c] if divisor == "mle" else counts[c] - 1)
            # reg on LDA's scale: toward (trace/d) I of the class's own covariance.
            covs.append((1 - reg) * cov + reg * np.trace(cov) / d * np.eye(d))
    return means, covs, pri


def logpdf(X, mean, cov):
    """ln N(x; mean, cov) by Cholesky (scipy's multivariate_normal rejects the
    badly scaled breast_cancer covariances, whose condition number is 3e11)."""
    L = np.linalg.cholesky(cov)
    Z = scipy.linalg.solve_triangular(L, (X - mean).T, lower=True)
    logdet = 2 * np.log(np.diag(L)).sum()
    return -0.5 * (len(mean) * np.log(2 * np.pi) + logdet + (Z ** 2).sum(0))


def gauss_joint(X, means, covs, pri):
    return np.column_stack([logpdf(X, means[c], covs[c]) + np.log(pri[c]) for c in range(len(pri))])


def nll(X, y, joint):
    """Mean negative log-likelihood of (x_i, y_i): -(1/n) sum ln(pi_y N(x_i; mu_y, Sigma_y))."""
    return float(-joint[np.arange(len(y)), y].mean())


def gnb_joint(m, X):
    # GaussianNB's own joint log-likelihood (it includes the 2*pi terms).
    return m._joint_log_likelihood(X)


class GaussQDA:
    """QDA with our own formulas (used for the MLE covariance, absent from sklearn)."""

    def __init__(self, divisor="mle", reg=0.0, priors="empirical"):
        self.divisor, self.reg, self.priors = divisor, reg, priors

    def fit(self, X, y):
        self.k = y.max() + 1
        self.p = gauss_params(X, y, self.k, False, self.divisor, self.reg, self.priors)
        return self

    def joint(self, X):
        return gauss_joint(X, *self.p)

    def predict_proba(self, X):
        J = self.joint(X)
        return np.exp(J - logsumexp(J, axis=1, keepdims=True))

    def predict(self, X):
        return self.joint(X).argmax(1)


def configs(k):
    uni = [1.0 / k] * k
    # name: (go model, go params, sklearn-like estimator factory, nll spec)
    return {
        "lda": ("lda", {}, lambda: LDA(solver="lsqr"), (True, "mle", 0.0, "empirical")),
        "lda_reg": ("lda", {"reg": "0.3"}, lambda: LDA(solver="lsqr", shrinkage=0.3), (True, "mle", 0.3, "empirical")),
        "lda_unbiased": ("lda", {"estimator": "unbiased"}, lambda: LDA(), (True, "unbiased", 0.0, "empirical")),
        "lda_unbiased_uniform": ("lda", {"estimator": "unbiased", "priors": "uniform"},
                                 lambda: LDA(priors=uni), (True, "unbiased", 0.0, "uniform")),
        "qda": ("qda", {}, lambda: GaussQDA("mle"), (False, "mle", 0.0, "empirical")),
        "qda_reg": ("qda", {"reg": "0.1"}, lambda: GaussQDA("mle", 0.1), (False, "mle", 0.1, "empirical")),
        "qda_unbiased": ("qda", {"estimator": "unbiased"}, lambda: QDA(), (False, "unbiased", 0.0, "empirical")),
        "qda_unbiased_reg": ("qda", {"estimator": "unbiased", "reg": "0.1"}, lambda: GaussQDA("unbiased", 0.1),
                             (False, "unbiased", 0.1, "empirical")),
        "qda_unbiased_uniform": ("qda", {"estimator": "unbiased", "priors": "uniform"},
                                 lambda: QDA(priors=uni), (False, "unbiased", 0.0, "uniform")),
        "gnb": ("gnb", {}, lambda: GaussianNB(), None),
        "gnb_uniform": ("gnb", {"priors": "uniform"}, lambda: GaussianNB(priors=uni), None),
        "gnb_vs": ("gnb", {"var_smoothing": "0.01"}, lambda: GaussianNB(var_smoothing=0.01), None),
    }


def main():
    out = {"sklearn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__,
           "step": STEP, "cases": []}
    for name in ["iris", "wine", "breast_cancer"]:
        X, y, classes = load(name)
        n, d = X.shape
        k = len(classes)
        rows = np.arange(0, n, STEP[name])
        folds = np.arange(n) % 10  # fold of row i is i mod 10 (the Go test uses the same)
        for cname, (model, params, make, spec) in configs(k).items():
            m = make().fit(X, y)
            if spec is None:
                J = gnb_joint(m, X)
            else:
                J = gauss_joint(X, *gauss_params(X, y, k, *spec))
            case = {"data": name, "name": cname, "model": model, "params": params,
                    "rows": rows.tolist(), "proba": m.predict_proba(X[rows]).tolist(),
                    "nll": nll(X, y, J)}
            if cname in ("lda", "lda_reg"):
                case["coef"] = m.coef_.tolist()  # binary: a single row, coef[1] - coef[0]
                case["intercept"] = m.intercept_.tolist()
            correct = 0
            for f in range(10):
                mf = make().fit(X[folds != f], y[folds != f])
                correct += int((mf.predict(X[folds == f]) == y[folds == f]).sum())
            case["cv10_correct"] = correct
            out["cases"].append(case)

    # Minimum-risk decisions with GaussianNB on breast_cancer (classes benign=0,
    # malignant=1): missing a malignant tumour (true 1, predicted 0) costs 5,
    # a false alarm costs 1, so the loss matrix is "0,1;5,0".
    X, y, classes = load("breast_cancer")
    P = GaussianNB().fit(X, y).predict_proba(X)
    L = np.array([[0.0, 1.0], [5.0, 0.0]])
    risk_pred = (P @ L).argmin(1)
    out["risk"] = {"data": "breast_cancer", "model": "gnb", "loss": "0,1;5,0",
                   "pred": "".join(str(int(v)) for v in risk_pred),
                   "map_pred": "".join(str(int(v)) for v in P.argmax(1)),
                   "mean_loss": float(L[y, risk_pred].mean()),
                   "map_mean_loss": float(L[y, P.argmax(1)].mean())}

    # Reported only (not asserted): sklearn defaults under shuffled stratified
    # 10-fold CV, to show what "within noise" means.
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    noise = {}
    for name in ["iris", "wine", "breast_cancer"]:
        X, y, _ = load(name)
        cv = StratifiedKFold(10, shuffle=True, random_state=0)
        noise[name] = {m: float(cross_val_score(f(), X, y, cv=cv).mean())
                       for m, f in [("lda", LDA), ("qda", QDA), ("gnb", GaussianNB)]}
    out["stratified_cv10_sklearn_defaults"] = noise
    # Rank-deficient pooled covariances (constant and collinear features):
    # our LDA with estimator=unbiased against scikit-learn's default svd solver,
    # which also drops the null directions. No NLL (a pseudo-density).
    for name in ["iris_aug", "digits"]:
        X, y, classes = load(name)
        n = len(X)
        rows = np.arange(0, n, STEP[name])
        folds = np.arange(n) % 10
        m = LDA().fit(X, y)
        correct = sum(int((LDA().fit(X[folds != f], y[folds != f]).predict(X[folds == f]) == y[folds == f]).sum())
                      for f in range(10))
        out["cases"].append({"data": name, "name": "lda_unbiased", "model": "lda",
                             "params": {"estimator": "unbiased"}, "rows": rows.tolist(),
                             "proba": m.predict_proba(X[rows]).tolist(), "nll": None,
                             "cv10_correct": correct})
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"))
    print()


if __name__ == "__main__":
    main()
