"""What the benchmark scripts share: where things are, the case table, one thread, tealab itself.

Imported by the scripts beside it (`import kit`); Python puts a script's own folder on the path.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILTIN = os.path.join(REPO, "datasets", "builtin")
CASES_TSV = os.path.join(HERE, "cases.tsv")
SKLEARN_HINT = "apt-get install -y python3-sklearn (it installs for /usr/bin/python3)"


def fail(script, message, status=1):
    """Ends the script with one line that names it."""
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(status)


def describe(e):
    """An exception as one line: its message, or its type when it has none."""
    text = str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)
    return " ".join(text.split()) or type(e).__name__


def one_thread():
    """Keeps numpy's BLAS and scikit-learn's OpenMP on one thread, as tealab's bench runs.

    Call it before numpy is first imported: the libraries read these when they load."""
    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[v] = "1"


def require_sklearn(script):
    """Ends the script with how to install scikit-learn when it cannot be imported."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        fail(script, f"scikit-learn is not installed for {sys.executable}: {SKLEARN_HINT}")


def read_cases():
    """The rows of cases.tsv as dicts keyed by its header, in file order."""
    with open(CASES_TSV, newline="") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    for r in rows:
        r["standardise"] = r["standardise"] == "yes"
    return rows


def data_path(folder, name):
    """The CSV of a data set: the folder's file, else the repository's built-in copy."""
    path = os.path.join(folder, name + ".csv")
    builtin = os.path.join(BUILTIN, name + ".csv")
    return builtin if not os.path.exists(path) and os.path.exists(builtin) else path


def build_tealab(script):
    """Builds tealab from this repository, pure Go, into a fresh temporary folder; returns its path."""
    go = shutil.which("go")
    if go is None:
        fail(script, "`go` is not on PATH: install Go, or pass a built binary with --tealab BIN", 2)
    out = os.path.join(tempfile.mkdtemp(prefix="tealab-bench-"), "tealab")
    env = dict(os.environ, CGO_ENABLED="0")
    r = subprocess.run([go, "build", "-o", out, "."], cwd=REPO, env=env, capture_output=True, text=True)
    if r.returncode:
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        fail(script, f"go build in {REPO} failed: {last}")
    return out
