# Reference values for TestReductionScores (reduction_test.go), computed with
# scikit-learn 1.2.1 and numpy (Debian). Run: /usr/bin/python3 testdata/reduction_ref.py
import csv
import numpy as np
from sklearn.decomposition import PCA
from sklearn.model_selection import LeaveOneOut, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

def load(name):
    rows = list(csv.reader(open(f"../../datasets/builtin/{name}.csv")))
    X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
    labels = [r[-1] for r in rows[1:]]
    return X, np.array([sorted(set(labels)).index(l) for l in labels])

def nn_first(X, y):
    # leave-one-out 1-NN, the first of equally near rows (tealab's rule)
    right = 0
    for i in range(len(X)):
        d = ((X - X[i]) ** 2).sum(1)
        d[i] = np.inf
        right += y[int(np.argmin(d))] == y[i]
    return right / len(X)

X, y = load("digits")
Z = PCA(2).fit_transform(X)
print("digits pca2 knn", cross_val_score(KNeighborsClassifier(n_neighbors=1), Z, y, cv=LeaveOneOut()).mean(), nn_first(Z, y))
print("digits features knn", nn_first(X, y))

X, _ = load("wine")
p = PCA(3).fit(X)
print("wine pca3 reconstruction rmse", np.sqrt(((X - p.inverse_transform(p.transform(X))) ** 2).mean()))
Xs = (X - X.mean(0)) / X.std(0, ddof=1)  # tealab scales by the sample sd
p = PCA(3).fit(Xs)
print("wine scaled pca3 reconstruction rmse", np.sqrt(((Xs - p.inverse_transform(p.transform(Xs))) ** 2).mean()))
