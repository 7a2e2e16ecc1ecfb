"""Reference least-squares solutions for engine/lecture's double-descent
experiment (its solver, bvSolve, is shared with bias-variance).

Fixed small matrices (drawn once from numpy's default_rng(19), rounded to
6 decimals and written out in full) and, for each, the least-norm
least-squares solution numpy.linalg.pinv(A) @ y, numpy.linalg.lstsq's
(rcond=None: singular values below max(rows, cols)·eps·s_max are zero),
and for a ridge case w = Aᵀ(AAᵀ + λI)⁻¹y (= (AᵀA + λI)⁻¹Aᵀy).

Run with numpy 1.24:  python3 doubledescent_pinv.py > doubledescent_pinv.json
"""
import json

import numpy as np

rng = np.random.default_rng(19)


def mat(r, c):
    return np.round(rng.standard_normal((r, c)), 6)


cases = []


def add(name, a, lam=0.0):
    y = np.round(rng.standard_normal(a.shape[0]), 6)
    if lam == 0:
        w = np.linalg.pinv(a) @ y
        w2 = np.linalg.lstsq(a, y, rcond=None)[0]
        assert np.allclose(w, w2, atol=1e-10), name
    else:
        w = a.T @ np.linalg.solve(a @ a.T + lam * np.eye(a.shape[0]), y)
    s = np.linalg.svd(a, compute_uv=False)
    cases.append({"name": name, "a": a.tolist(), "y": y.tolist(), "lambda": lam, "w": w.tolist(),
                  "rank": int(np.linalg.matrix_rank(a)), "cond": float(s[0] / s[-1]) if s[-1] > 0 else None})


add("tall 7x3", mat(7, 3))
add("square 6x6", mat(6, 6))
add("wide 4x7 (least norm of many interpolants)", mat(4, 7))
dup = mat(5, 5)
add("rank 5 of 5x6 (a repeated column)", np.hstack([dup, dup[:, [2]]]))
tall = mat(8, 3)
add("rank 3 of 8x4 (a repeated column)", np.hstack([tall, tall[:, [0]]]))
relu = np.maximum(0, mat(6, 2) @ mat(2, 9))
add("relu features 6x9", np.round(relu, 6))
add("ridge 0.5, wide 4x7", mat(4, 7), 0.5)
add("ridge 0.01, tall 7x3", mat(7, 3), 0.01)
print(json.dumps({"source": "numpy %s; see doubledescent_pinv.py" % np.__version__, "cases": cases}, indent=1))
