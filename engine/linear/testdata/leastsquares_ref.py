#!/usr/bin/python3
"""Reference values for leastsquares_test.go, ridge_test.go, lasso_test.go and
stepwise_test.go, computed with scikit-learn (1.2.1, Debian python3-sklearn).

Run from engine/linear:  /usr/bin/python3 testdata/leastsquares_ref.py
It prints the numbers pasted into the tests. Data: testdata/leastsquares_diabetes.csv,
a copy of the built-in diabetes set (sklearn load_diabetes(scaled=False)); the
target is the last column.
"""
import numpy as np
from sklearn.linear_model import LinearRegression, Ridge, Lasso
from sklearn.preprocessing import PolynomialFeatures, StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import KFold, cross_val_score
from sklearn.feature_selection import SequentialFeatureSelector

d = np.genfromtxt("testdata/leastsquares_diabetes.csv", delimiter=",", skip_header=1)
X, y = d[:, :-1], d[:, -1]
n, p = X.shape
Xs = StandardScaler().fit_transform(X)  # population std, as the tests' standardise()
w = 1.0 + (np.arange(n) % 5)            # the tests' sample weights

def show(name, v):
    v = np.atleast_1d(v)
    name = name.replace(".", "p")
    print(f"{name} = []float64{{" + ", ".join(repr(float(x)) for x in v) + "}")

print("// least squares")
m = LinearRegression().fit(X, y); show("olsCoef", m.coef_); show("olsIntercept", m.intercept_); show("olsR2", m.score(X, y))
m = LinearRegression().fit(X, y, sample_weight=w); show("wlsCoef", m.coef_); show("wlsIntercept", m.intercept_)
m = LinearRegression(fit_intercept=False).fit(X, y); show("olsNoInterceptCoef", m.coef_)
m = LinearRegression().fit(X[:4, :6], y[:4]); show("olsWideCoef", m.coef_); show("olsWideIntercept", m.intercept_)
pf = PolynomialFeatures(2, include_bias=False).fit(X)
print("// poly2 names:", " ".join(pf.get_feature_names_out(["age","sex","bmi","bp","s1","s2","s3","s4","s5","s6"])))
m = LinearRegression().fit(pf.transform(X), y)
show("poly2Coef", m.coef_); show("poly2Intercept", m.intercept_); show("poly2R2", m.score(pf.transform(X), y))
pf3 = PolynomialFeatures(3, include_bias=False).fit(Xs[:, :4])
m = LinearRegression().fit(pf3.transform(Xs[:, :4]), y)
show("poly3R2", m.score(pf3.transform(Xs[:, :4]), y)); show("poly3Pred5", m.predict(pf3.transform(Xs[:5, :4])))

print("// ridge")
for a in (1.0, 0.1):
    m = Ridge(alpha=a).fit(X, y); show(f"ridgeRaw{a}Coef", m.coef_); show(f"ridgeRaw{a}Intercept", m.intercept_)
m = Ridge(alpha=1.0).fit(Xs, y); show("ridgeStdCoef", m.coef_); show("ridgeStdIntercept", m.intercept_)
m = Ridge(alpha=1.0).fit(X, y, sample_weight=w); show("ridgeWCoef", m.coef_); show("ridgeWIntercept", m.intercept_)
m = Ridge(alpha=1.0, fit_intercept=False).fit(X, y); show("ridgeNoInterceptCoef", m.coef_)
m = Ridge(alpha=0.5).fit(X[:8], y[:8]); show("ridgeWideCoef", m.coef_); show("ridgeWideIntercept", m.intercept_)

print("// lasso (standardised)")
for a in (0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0):
    m = Lasso(alpha=a, tol=1e-12, max_iter=1_000_000).fit(Xs, y)
    show(f"lasso{a}Coef", m.coef_); show(f"lasso{a}Intercept", m.intercept_)
m = Lasso(alpha=1.0).fit(Xs, y); print("// default tol: n_iter_ =", m.n_iter_); show("lassoDefaultCoef", m.coef_)
m = Lasso(alpha=0.5, tol=1e-12, max_iter=1_000_000).fit(Xs, y, sample_weight=w); show("lassoWCoef", m.coef_); show("lassoWIntercept", m.intercept_)

print("// stepwise, rss criterion: brute-force forward selection by training RSS")
sel, rss = [], []
for k in range(p):
    best = None
    for j in range(p):
        if j in sel: continue
        cols = sel + [j]
        r = y - LinearRegression().fit(X[:, cols], y).predict(X[:, cols])
        if best is None or r @ r < best[1]: best = (j, r @ r)
    sel.append(best[0]); rss.append(best[1] / n)
print("stepOrder =", sel); show("stepMSE", rss)
class Whole:  # score SFS candidates on the rows they were fitted on
    def split(self, X, y=None, groups=None): yield np.arange(len(X)), np.arange(len(X))
    def get_n_splits(self, *a, **k): return 1
prev = set()
order = []
for k in range(1, p):
    s = SequentialFeatureSelector(LinearRegression(), n_features_to_select=k, direction="forward", cv=Whole(), scoring="r2").fit(X, y)
    cur = set(np.flatnonzero(s.get_support())); order += list(cur - prev); prev = cur
print("// SequentialFeatureSelector order:", order)
m = LinearRegression().fit(X[:, sel[:4]], y); show("step4Coef", m.coef_); show("step4Intercept", m.intercept_)

print("// 10-fold CV R2 (KFold without shuffling, scaler fitted inside each fold)")
cv = KFold(10)
for name, est in [("linear", LinearRegression()),
                  ("ridge", make_pipeline(StandardScaler(), Ridge(alpha=1.0))),
                  ("lasso", make_pipeline(StandardScaler(), Lasso(alpha=0.1))),
                  ("stepwise4", make_pipeline(StandardScaler(), SequentialFeatureSelector(LinearRegression(), n_features_to_select=4, cv=Whole()), LinearRegression()))]:
    s = cross_val_score(est, X, y, cv=cv, scoring="r2"); print(f"// {name}: mean {s.mean()!r}")
    show(f"cv{name}", s)
