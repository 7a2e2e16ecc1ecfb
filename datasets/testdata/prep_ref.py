#!/usr/bin/python3
"""Reference values for prep_test.go (scikit-learn 1.2.1, Debian python3-sklearn).

Run: /usr/bin/python3 datasets/testdata/prep_ref.py
"""
import numpy as np
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler, OneHotEncoder, PolynomialFeatures
from sklearn.feature_selection import VarianceThreshold
from sklearn.pipeline import make_pipeline

np.set_printoptions(precision=17, suppress=False, linewidth=200)
nan = np.nan

# Imputer: mean and median of the non-missing training values.
A = np.array([[1, 2, nan], [3, nan, 6], [nan, 8, 9], [17, 10, 12], [5, 1, 3]], dtype=float)
print("mean fill  ", SimpleImputer(strategy="mean").fit(A).statistics_.tolist())
print("median fill", SimpleImputer(strategy="median").fit(A).statistics_.tolist())

# StandardScaler: population std; the constant column is only centred.
B = np.array([[1, 10, 5], [2, 20, 5], [4, 40, 5], [9, -3, 5]], dtype=float)
s = StandardScaler().fit(B)
print("mean ", s.mean_.tolist())
print("scale", s.scale_.tolist())
print("apply", s.transform(np.array([[3, 0, 6]], dtype=float)).tolist())

# OneHotEncoder with unseen levels ignored (categories sorted = our level order).
enc = OneHotEncoder(handle_unknown="ignore").fit(np.array([["blue"], ["red"], ["red"], ["blue"]]))
print("onehot names", enc.get_feature_names_out(["colour"]).tolist())
print("onehot", enc.transform(np.array([["red"], ["green"], ["blue"]])).toarray().tolist())

# PolynomialFeatures without the bias column.
P = PolynomialFeatures(degree=3, include_bias=False).fit(np.zeros((1, 3)))
print("poly names", P.get_feature_names_out(["a", "b", "c"]).tolist())
print("poly", P.transform(np.array([[2.0, 3.0, 5.0]])).tolist())

# The whole pipeline on numeric columns: mean impute, drop constant columns,
# degree-2 expansion, standardise.
C = np.array([[1, 7, 2], [2, 7, nan], [4, 7, 1], [nan, 7, 5], [3, 7, 0]], dtype=float)
pipe = make_pipeline(SimpleImputer(strategy="mean"), VarianceThreshold(0.0),
                     PolynomialFeatures(degree=2, include_bias=False), StandardScaler()).fit(C)
print("pipe train", pipe.transform(C).tolist())
print("pipe test ", pipe.transform(np.array([[nan, 9, 3]], dtype=float)).tolist())
