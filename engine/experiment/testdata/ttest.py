# The corrected resampled t-test (Nadeau & Bengio 2003) on a worked example:
# two models, 2 repeats of 5-fold CV (n = 10 paired fold scores), computed
# independently of tealab with numpy and scipy. Run: /usr/bin/python3 ttest.py
import numpy as np
from scipy import stats

a = np.array([0.95, 0.93, 0.96, 0.94, 0.97, 0.92, 0.95, 0.96, 0.94, 0.95])  # model
b = np.array([0.91, 0.92, 0.93, 0.90, 0.94, 0.91, 0.93, 0.92, 0.90, 0.93])  # baseline
k, r = 5, 2
d = a - b
n = len(d)
test_train = 1 / (k - 1)  # each fold tests on 1/k of the rows, trains on the rest
t = d.mean() / np.sqrt((1 / n + test_train) * d.var(ddof=1))
p = 2 * stats.t.sf(abs(t), n - 1)
print(f"mean {d.mean():.17g}")
print(f"t {t:.17g}")
print(f"df {n - 1}")
print(f"p {p:.17g}")
print(f"significant at 0.05: {p < 0.05}")
# The uncorrected paired t-test would call it far more certain:
print(f"uncorrected p {stats.ttest_rel(a, b).pvalue:.17g}")

# A tie: a difference the uncorrected test would call significant.
c = b + np.array([0.02, -0.01, 0.03, 0.01, 0.0, 0.02, 0.01, -0.01, 0.02, 0.01])
d = c - b
t = d.mean() / np.sqrt((1 / n + test_train) * d.var(ddof=1))
p = 2 * stats.t.sf(abs(t), n - 1)
print(f"tie: t {t:.17g} p {p:.17g} uncorrected p {stats.ttest_rel(c, b).pvalue:.17g}")
