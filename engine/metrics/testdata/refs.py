# Reference values for engine/metrics tests, computed with scikit-learn 1.2.1
# (Debian python3-sklearn). Run: /usr/bin/python3 testdata/refs.py
# The printed numbers are pasted into metrics_test.go.
import numpy as np
from sklearn import metrics as M

def show(name, v):
    print(f"{name} = {np.asarray(v).tolist()!r}")

cls_cases = {
    # class 2 is never predicted: its precision is 0/0 -> 0 (zero_division=0)
    "absent_pred": ([0,0,1,1,2,2,2,0,1,2], [0,1,1,1,0,0,1,0,1,0], 3),
    "binary": ([0,1,1,0,1,1,0,0,1,1,1,0], [0,1,0,0,1,1,1,0,1,0,1,1], 2),
    # label 3 occurs on neither side: excluded from sklearn's macro average
    "unused_label": ([0,1,2,2,1,0,0,2], [0,2,2,2,1,1,0,0], 4),
}
for name, (a, p, k) in cls_cases.items():
    print("#", name)
    show("acc", M.accuracy_score(a, p))
    show("conf", M.confusion_matrix(a, p, labels=list(range(k))))
    pr, rc, f1, sup = M.precision_recall_fscore_support(a, p, labels=list(range(k)), zero_division=0)
    show("prec", pr); show("rec", rc); show("f1", f1); show("support", sup)
    for avg in ("macro", "weighted"):
        P, R, F, _ = M.precision_recall_fscore_support(a, p, average=avg, zero_division=0)
        show(avg, [P, R, F])
    show("kappa", M.cohen_kappa_score(a, p))
    show("mcc", M.matthews_corrcoef(a, p))

print("# constant predictions: kappa 0, mcc 0")
show("kappa", M.cohen_kappa_score([0,1,1,2], [1,1,1,1]))
show("mcc", M.matthews_corrcoef([0,1,1,2], [1,1,1,1]))

print("# log loss, a zero probability on the true class is clipped")
y = [0, 2, 1, 1, 0]
P = [[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [1.0, 0.0, 0.0], [0.5, 0.25, 0.25]]
# eps=1e-15 as metrics.LogLoss clips (this sklearn build defaults to eps="auto", i.e. 2.2e-16)
show("logloss", M.log_loss(y, P, labels=[0,1,2], eps=1e-15))

print("# ROC with tied scores")
y = [0,0,1,1,1,0,1,0,1,0]
s = [0.1,0.4,0.35,0.8,0.4,0.4,0.9,0.2,0.1,0.7]
fpr, tpr, th = M.roc_curve(y, s)
show("fpr", fpr); show("tpr", tpr); show("thresholds[1:]", th[1:])
show("auc", M.roc_auc_score(y, s))
# with drop_intermediate: collinear points vanish
y2 = [0,0,0,1,1,1]
s2 = [0.1,0.2,0.3,0.4,0.5,0.6]
fpr, tpr, th = M.roc_curve(y2, s2)
show("fpr2", fpr); show("tpr2", tpr); show("th2[1:]", th[1:])

print("# multiclass one-vs-rest macro AUC")
y = [0,1,2,2,1,0,1,2,0,1]
P = np.array([[0.6,0.3,0.1],[0.2,0.5,0.3],[0.1,0.3,0.6],[0.3,0.3,0.4],[0.4,0.4,0.2],
              [0.5,0.2,0.3],[0.3,0.6,0.1],[0.2,0.2,0.6],[0.3,0.4,0.3],[0.1,0.8,0.1]])
show("ovr_macro", M.roc_auc_score(y, P, multi_class="ovr", average="macro"))
show("per_class", [M.roc_auc_score(np.array(y) == c, P[:, c]) for c in range(3)])

print("# regression")
a = [3.0, -0.5, 2.0, 7.0, 4.2]
p = [2.5, 0.0, 2.0, 8.0, 3.9]
show("mse", M.mean_squared_error(a, p)); show("mae", M.mean_absolute_error(a, p)); show("r2", M.r2_score(a, p))
show("r2_const_miss", M.r2_score([2, 2, 2], [2, 2, 3])); show("r2_const_hit", M.r2_score([2, 2, 2], [2, 2, 2]))

print("# adjusted Rand")
show("ari1", M.adjusted_rand_score([0,0,1,1,2,2], [1,1,0,0,2,2]))
show("ari2", M.adjusted_rand_score([0,0,0,1,1,1,2,2,2,2], [0,0,1,1,2,2,2,2,0,1]))
show("ari3", M.adjusted_rand_score([0,0,1,1], [0,1,0,1]))
show("ari4", M.adjusted_rand_score([5,5,5,5], [1,2,3,4]))

print("# silhouette (Euclidean), cluster 2 is a singleton")
X = [[0,0],[0,1],[1,0],[5,5],[5,6],[6,5],[6,6],[10,0]]
lab = [0,0,0,1,1,1,1,2]
show("sil", M.silhouette_score(X, lab))
rng = np.random.default_rng(0)
X = rng.normal(size=(40, 3)); lab = rng.integers(0, 4, size=40)
np.savetxt("testdata/sil40.csv", np.column_stack([X, lab]), delimiter=",", fmt="%.17g")
show("sil40", M.silhouette_score(X, lab))

print("# leave-one-out 1-nearest-neighbour accuracy on the sil40 rows")
from sklearn.model_selection import LeaveOneOut, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
show("nn40", cross_val_score(KNeighborsClassifier(n_neighbors=1), X, lab, cv=LeaveOneOut()).mean())
