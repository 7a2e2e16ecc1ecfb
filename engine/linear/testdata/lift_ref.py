#!/usr/bin/python3
"""Reference values for lift_test.go, computed with scikit-learn (1.2.1,
Debian python3-sklearn).

Run from engine/linear:  /usr/bin/python3 testdata/lift_ref.py
It prints the numbers pasted into the tests: the monomials of a small matrix
(PolynomialFeatures, include_bias=False), and ridge on lifted, standardised
diabetes (testdata/leastsquares_diabetes.csv, the built-in set). A lifted
model standardises its monomials, hence the StandardScaler after
PolynomialFeatures.
"""
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.preprocessing import PolynomialFeatures, StandardScaler
from sklearn.pipeline import make_pipeline

def show(name, v):
    v = np.ravel(v)
    print(f"{name} = []float64{{" + ", ".join(repr(float(x)) for x in v) + "}")

M = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [0.3, -2.0, 1.5]])
pf = PolynomialFeatures(degree=3, include_bias=False).fit(M)
print("// PolynomialFeatures(3) of M, names from a, b, c")
print("names =", " ".join(pf.get_feature_names_out(["a", "b", "c"])))
show("liftM3", pf.transform(M))

d = np.genfromtxt("testdata/leastsquares_diabetes.csv", delimiter=",", skip_header=1)
X, y = d[:, :-1], d[:, -1]
Xs = StandardScaler().fit_transform(X)  # population std, as the tests' lsqStandardise
m = make_pipeline(PolynomialFeatures(2, include_bias=False), StandardScaler(), Ridge(alpha=10)).fit(Xs, y)
print("// make_pipeline(PolynomialFeatures(2), StandardScaler(), Ridge(alpha=10)) on standardised diabetes")
show("ridgeLift2Coef", m[-1].coef_)
show("ridgeLift2Intercept", m[-1].intercept_)
show("ridgeLift2Pred", m.predict(Xs[:5]))
