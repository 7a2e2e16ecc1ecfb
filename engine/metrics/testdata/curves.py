# Reference values of the curves and scores beside ROC (engine/metrics
# curves.go), computed with scikit-learn 1.2.1 (Debian python3-sklearn) on
# the held-out rows and probabilities tealab gives for
#   tealab train --data breast_cancer --model logistic --positive malignant
# (its --predictions file, testdata/breast_cancer_logistic.csv: the
# stratified 80/20 hold-out of seed 1, 114 rows). Writes
# testdata/curves_sklearn.json, which curves_test.go reads.
# Run: /usr/bin/python3 testdata/curves.py (go generate ./engine/metrics).
import csv, json, os
import numpy as np
from sklearn import metrics as M
from sklearn.calibration import calibration_curve

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "breast_cancer_logistic.csv")) as f:
    rows = list(csv.DictReader(f))
y = np.array([r["actual"] == "malignant" for r in rows], dtype=int)
p = np.array([float(r["p(malignant)"]) for r in rows])
q = np.array([float(r["p(benign)"]) for r in rows])

precision, recall, thresholds = M.precision_recall_curve(y, p, pos_label=1)
n_bins = min(10, max(1, len(y) // 10))  # metrics.CalibrationBins
edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy="quantile")
binids = np.searchsorted(edges[1:-1], p)
counts = np.bincount(binids, minlength=n_bins)
fpr, tpr, _ = M.roc_curve(y, p)
out = {
    "rows": len(y),
    "auc": M.roc_auc_score(y, p),
    "average_precision": M.average_precision_score(y, p, pos_label=1),
    "brier": M.brier_score_loss(y, p, pos_label=1),
    # classes in tealab's order: malignant 0, benign 1
    "log_loss": M.log_loss(1 - y, np.column_stack([p, q])),
    # in the order tealab draws the curve: highest threshold first
    "pr_recall": recall[::-1].tolist(),
    "pr_precision": precision[::-1].tolist(),
    "calibration_edges": edges.tolist(),
    "calibration_counts": counts[counts > 0].tolist(),
    "calibration_observed": prob_true.tolist(),
    "calibration_mean_predicted": prob_pred.tolist(),
    "roc_fpr": fpr.tolist(),
    "roc_tpr": tpr.tolist(),
}
with open(os.path.join(here, "curves_sklearn.json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
