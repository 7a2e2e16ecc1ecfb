#!/usr/bin/python3
"""XGBoost's side of the gradient-boosting cases of cases.tsv, timed as sklearn_ref.py times scikit-learn.

usage: xgboost_ref.py DIR [CASE...]   (default: every case XGBoost has an estimator for)

Prints the JSON lines sklearn_ref.py prints. The estimator: XGBClassifier with tree_method="hist",
100 rounds of depth 6, learning rate 0.1, 256 bins (XGBoost's max_bin counts 255 value bins and
missing values as tealab's 255 do), L2 penalty 1, on one thread (nthread=1). Needs Debian's
python3-xgboost (apt-get install -y python3-xgboost).
"""
import kit

kit.one_thread()

import json  # noqa: E402
import sys  # noqa: E402

import sklearn_ref  # noqa: E402


def estimators():
    """Case name -> a function making a fresh XGBoost estimator."""
    import xgboost

    def hist():
        return xgboost.XGBClassifier(n_estimators=100, max_depth=6, learning_rate=0.1, tree_method="hist", max_bin=256,
                                     reg_lambda=1.0, n_jobs=1, random_state=0)

    return {"gbdt": hist, "gbdt_1m": hist}


def main(argv):
    if not argv or argv[0].startswith("-"):
        kit.fail("xgboost_ref.py", "usage: xgboost_ref.py DIR [CASE...]", 2)
    try:
        import xgboost  # noqa: F401
    except ImportError:
        kit.fail("xgboost_ref.py", f"XGBoost is not installed for {sys.executable}: apt-get install -y python3-xgboost")
    makers = estimators()
    try:
        cases = [c for c in sklearn_ref.select(argv[1:]) if argv[1:] or c["case"] in makers]
    except ValueError as e:
        kit.fail("xgboost_ref.py", str(e), 2)
    failed = False
    for case in cases:
        try:
            print(json.dumps(sklearn_ref.run(case, argv[0], makers)), flush=True)
        except Exception as e:  # one line naming the case, then the next case
            print(f"xgboost_ref.py: case {case['case']}: {kit.describe(e)}", file=sys.stderr)
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
