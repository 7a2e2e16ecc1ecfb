# Reference for TestProject2DIris: the first two principal directions of the
# standardised iris features (correlation-matrix PCA), signs fixed so that the
# largest loading of each direction is positive.
# Run: /usr/bin/python3 engine/inspect/testdata/pca_iris.py
import numpy as np
from sklearn.datasets import load_iris
from sklearn.decomposition import PCA
from sklearn.preprocessing import StandardScaler

X = load_iris().data
Z = StandardScaler().fit_transform(X)  # population std (ddof=0)
pca = PCA(n_components=2).fit(Z)
W = pca.components_.T.copy()
for c in range(2):
    if W[np.argmax(np.abs(W[:, c])), c] < 0:
        W[:, c] *= -1
P = Z @ W
print("ratio", pca.explained_variance_ratio_.sum())
for i in (0, 50, 149):
    print(i, P[i])
