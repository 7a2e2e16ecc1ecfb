#!/usr/bin/python3
"""tealab beside scikit-learn on the cases of cases.tsv: the results table of BENCHMARKS.md.

usage: compare.py [--tealab BIN] [--data DIR] [CASE...]   (default: every case)

Makes the data sets the cases need in DIR when they are missing (make_data.py), builds tealab
from this repository with `CGO_ENABLED=0 go build` unless --tealab names a binary, then runs
each case on both sides in turn: `BIN bench --data-dir DIR --case CASE --json` and scikit-learn
in this process (sklearn_ref.py). It prints a Markdown table, one row a case as it finishes
(both median fit times, their ratio, below 1 when tealab is faster, and both scores), and the
geometric mean of the ratios. A case tealab has no model for yet shows scikit-learn's side alone.
A case XGBoost answers too (xgboost_ref.py, when python3-xgboost is installed) gets a second row,
"CASE vs XGBoost", with XGBoost in scikit-learn's columns; those rows stay out of the mean.
Needs scikit-learn for /usr/bin/python3; exits 1 when a case failed on either side.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import kit

kit.one_thread()

SCRIPT = "compare.py"
DEFAULT_DATA = os.path.join(tempfile.gettempdir(), "tealab-bench-data")


def seconds(s):
    """A fit time to about three significant digits, as the results tables give them."""
    if s < 0.1:
        return f"{s * 1e3:.1f} ms"
    if s < 10:
        return f"{s:.3g} s"
    return f"{s:.1f} s"


def score(v):
    """A score to four decimals without trailing zeros (1, 0.927, 0.9258)."""
    return f"{v:.4f}".rstrip("0").rstrip(".")


def tealab_side(binary, data, name):
    """tealab's JSON object for one case; None when tealab has no model for the case yet."""
    r = subprocess.run([binary, "bench", "--data-dir", data, "--case", name, "--json"], capture_output=True, text=True)
    if r.returncode == 2 and "unknown case" in r.stderr:
        return None
    lines = r.stdout.strip().splitlines()
    if r.returncode or not lines:
        raise RuntimeError(" ".join(r.stderr.split()) or f"{binary} exited {r.returncode} without a result")
    return json.loads(lines[-1])


def side(what, run):
    """run's result and True, or None and False after one line on what failed."""
    try:
        return run(), True
    except Exception as e:  # one line naming the case and side, then the rest
        print(f"{SCRIPT}: {what} failed: {kit.describe(e)}", file=sys.stderr)
        return None, False


def ratio(ours, theirs):
    """tealab's fit time over scikit-learn's; None without both."""
    if ours is None or theirs is None:
        return None
    return ours["fit_s"] / max(theirs["fit_s"], 1e-9)


def row(name, ours, theirs):
    """One Markdown row; "-" stands for a side that has no result."""
    def cell(side, key, show):
        return "-" if side is None else show(side[key])
    r = ratio(ours, theirs)
    shown = "-" if r is None else f"{r:.2f}"
    return (f"| {name} | {cell(ours, 'fit_s', seconds)} | {cell(theirs, 'fit_s', seconds)} | {shown} | "
            f"{cell(ours, 'score', score)} | {cell(theirs, 'score', score)} |")


def summary(ratios, alone):
    """The closing line: the geometric mean of the ratios and which cases had one side only."""
    if not ratios:
        return "No case ran on both sides."
    mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    rest = f"; scikit-learn alone: {', '.join(alone)}" if alone else ""
    return f"Geometric mean of the ratios: {mean:.2f} ({len(ratios)} cases{rest})."


def parse(argv):
    p = argparse.ArgumentParser(prog=SCRIPT, description="tealab beside scikit-learn on the cases of cases.tsv.")
    p.add_argument("--tealab", metavar="BIN", help="a built tealab (default: build this repository with go build)")
    p.add_argument("--data", metavar="DIR", default=DEFAULT_DATA, help=f"the data sets' folder (default {DEFAULT_DATA})")
    p.add_argument("cases", nargs="*", metavar="CASE", help="cases of cases.tsv (default: all)")
    return p.parse_args(argv)


def main(argv):
    args = parse(argv)
    kit.require_sklearn(SCRIPT)
    import make_data
    import sklearn_ref
    try:
        cases = sklearn_ref.select(args.cases)
        make_data.ensure(args.data, sorted({c["data"] for c in cases}))
    except ValueError as e:
        kit.fail(SCRIPT, str(e), 2)
    binary = args.tealab
    if binary is None:
        print("building tealab (CGO_ENABLED=0 go build)", file=sys.stderr, flush=True)
        binary = kit.build_tealab(SCRIPT)
    elif shutil.which(binary) is None:
        kit.fail(SCRIPT, f"--tealab {binary} is not an executable file: build one with `CGO_ENABLED=0 go build -o BIN .`", 2)
    try:
        failed = compare(binary, args.data, cases, sklearn_ref)
    finally:
        if args.tealab is None:
            shutil.rmtree(os.path.dirname(binary), ignore_errors=True)
    sys.exit(1 if failed else 0)


def xgboost_makers():
    """XGBoost's estimators by case (xgboost_ref.py); none when XGBoost is not installed."""
    try:
        import xgboost_ref
        return xgboost_ref.estimators()
    except ImportError:
        return {}


def compare(binary, data, cases, sklearn_ref):
    """Prints the table; returns whether a case failed."""
    print("| case | tealab fit | scikit-learn fit | ratio | score tealab | score scikit-learn |")
    print("|---|---|---|---|---|---|", flush=True)
    makers, ratios, alone, failed = sklearn_ref.estimators(), [], [], False
    xgb = xgboost_makers()
    for case in cases:
        name = case["case"]
        ours, ok = side(f"case {name}: tealab", lambda: tealab_side(binary, data, name))
        theirs, ok_too = side(f"case {name}: scikit-learn", lambda: sklearn_ref.run(case, data, makers))
        failed = failed or not (ok and ok_too)
        print(row(name, ours, theirs), flush=True)
        if ours is not None and theirs is not None:
            ratios.append(ratio(ours, theirs))
        elif ok and theirs is not None:
            alone.append(name)
        if name in xgb:
            rival, ok_xgb = side(f"case {name}: XGBoost", lambda: sklearn_ref.run(case, data, xgb))
            failed = failed or not ok_xgb
            print(row(f"{name} vs XGBoost", ours, rival), flush=True)
    print()
    print(summary(ratios, alone))
    return failed


if __name__ == "__main__":
    main(sys.argv[1:])
