"""Reference answers of scikit-learn 1.2 ensembles for engine/ensemble's tests.

Run from this directory with /usr/bin/python3 (scikit-learn 1.2.1, numpy
1.24): it reads tealab's own built-in CSV files, so both sides see the same
numbers, and writes sklearn_ref.json.

Split: every third row (0, 3, 6, ...) is a test row, the rest train, in
file order. Members are those whose tealab and scikit-learn fits agree
exactly: GaussianNB (var_smoothing 1e-9), LinearDiscriminantAnalysis
(the svd solver, whose pooled scatter is divided by n - k: tealab's
estimator=unbiased), KNeighborsClassifier(k=5, uniform weights,
Euclidean) for voting and QuadraticDiscriminantAnalysis (each class's
scatter divided by n_k - 1: estimator=unbiased) for stacking.
Regression: LinearRegression, Ridge(alpha=1) and KNeighborsRegressor(5)
on diabetes (tealab's linear, ridge and knn), averaged by VotingRegressor
and stacked into Ridge(alpha=1) by StackingRegressor.
Stacking uses cv=5, scikit-learn's StratifiedKFold (KFold for regression)
without shuffling, which tealab's stacking reproduces with shuffle=false, and a
LogisticRegression(C=1) meta-model solved to its optimum on both sides:
newton-cg here (lbfgs stops on its relative decrease 1e-5 away in the
probabilities, warning or not; newton-cg may warn that it did not converge
while agreeing to 1e-10), tealab's Newton with
final=logistic[tol=1e-10;max_iter=1000]. Stacked probabilities agree to
2e-10, voting's to 1e-14.
"""
import csv
import json

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.ensemble import StackingClassifier, StackingRegressor, VotingClassifier, VotingRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor


def members():
    return [("gnb", GaussianNB()), ("lda", LinearDiscriminantAnalysis()),
            ("knn", KNeighborsClassifier(n_neighbors=5))]


def stacked():
    # k-NN's neighbours among tied distances are not the same rows on the
    # two sides in the inner folds' fits: QDA takes its place.
    return [("gnb", GaussianNB()), ("lda", LinearDiscriminantAnalysis()),
            ("qda", QuadraticDiscriminantAnalysis())]


def regressors():
    # Least squares, ridge (alpha 1, intercept unpenalised on both sides)
    # and 5-NN regression on diabetes, whose distances do not tie.
    return [("linear", LinearRegression()), ("ridge", Ridge(alpha=1.0)),
            ("knn", KNeighborsRegressor(n_neighbors=5))]


def read(data):
    with open("../../../datasets/builtin/%s.csv" % data) as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    y = np.array([r[-1] for r in rows])
    return X, y, np.arange(len(y)) % 3 == 0


def regression(name, data, model):
    X, y, test = read(data)
    y = y.astype(float)
    model.fit(X[~test], y[~test])
    return name, {"data": data, "values": model.predict(X[test]).tolist()}


def case(name, data, model):
    X, y, test = read(data)
    model.fit(X[~test], y[~test])
    out = {"data": data, "classes": [str(c) for c in model.classes_],
           "predicted": [str(c) for c in model.predict(X[test])]}
    if hasattr(model, "predict_proba") and getattr(model, "voting", "soft") == "soft":
        out["proba"] = model.predict_proba(X[test]).tolist()
    return name, out


final = LogisticRegression(C=1.0, solver="newton-cg", tol=1e-10, max_iter=10000)
cases = dict([
    case("voting_hard_iris", "iris", VotingClassifier(members(), voting="hard")),
    case("voting_soft_iris", "iris", VotingClassifier(members(), voting="soft")),
    case("voting_soft_weighted_wine", "wine", VotingClassifier(members(), voting="soft", weights=[2, 1, 1])),
    case("stacking_iris", "iris", StackingClassifier(stacked(), final_estimator=final, cv=5)),
    case("stacking_breast_cancer", "breast_cancer", StackingClassifier(stacked(), final_estimator=final, cv=5)),
    # Passthrough on iris: on wine's raw features (proline in the
    # thousands) the meta-model is so ill-conditioned that scikit-learn's
    # own lbfgs and newton-cg disagree by 1e-3.
    case("stacking_passthrough_iris", "iris",
         StackingClassifier(stacked(), final_estimator=final, cv=5, passthrough=True)),
    # KFold(5) without shuffling for the regressor's inner folds.
    regression("voting_regression_diabetes", "diabetes", VotingRegressor(regressors(), weights=[1, 2, 1])),
    regression("stacking_regression_diabetes", "diabetes",
               StackingRegressor(regressors(), final_estimator=Ridge(alpha=1.0), cv=5)),
])
with open("sklearn_ref.json", "w") as f:  # a case a line
    f.write("{\n" + ",\n".join("%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in cases.items()) + "\n}\n")
