"""Reference binomial PMFs and tails for engine/lecture's hoeffding
experiment: scipy.stats.binom.pmf(k, n, 0.25) for k = 0..n at n = 20 and
n = 500 (Shewchuk's lecture 23 figures, risk 25%), and the exact
Pr(|k/n - 0.25| > 0.1) from binom.cdf and binom.sf (k <= 2 or k >= 8 at
n = 20; k <= 74 or k >= 176 at n = 500; and at n = 100, 200).

Run with scipy 1.10:  /usr/bin/python3 hoeffding_binom.py > hoeffding_binom.json
"""
import json

import scipy
from scipy.stats import binom

R = 0.25
out = {"scipy": scipy.__version__, "risk": R, "epsilon": 0.1, "pmf": {}, "tail": {}}
for n in (20, 500):
    out["pmf"][str(n)] = [float(binom.pmf(k, n, R)) for k in range(n + 1)]
# the tail |k - nR| > n*0.1, strict: k < nR - 0.1n or k > nR + 0.1n
for n, lo, hi in ((20, 2, 8), (100, 14, 36), (200, 29, 71), (500, 74, 176)):
    out["tail"][str(n)] = float(binom.cdf(lo, n, R) + binom.sf(hi - 1, n, R))
print(json.dumps(out, indent=1))
