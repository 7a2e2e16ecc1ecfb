package metrics

import (
	"slices"
	"sort"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
)

// Info describes one metric: everything the CLI, the JSON, the TUI and the
// run comparison need to name it, format it and tell which way is better.
// The table below is the only place this is written down.
type Info struct {
	Name   string // key in a result's metrics and in --json, e.g. "macro_f1"
	Label  string // for people, e.g. "macro F1"
	Short  string // for narrow columns, e.g. "F1"
	Higher bool   // a higher value is better
	Count  bool   // a whole number (shown without decimals)
	Head   bool   // one of the few a result's headline shows
	Tasks  []datasets.Task
	Help   string // one line: what it measures
}

var (
	clf  = []datasets.Task{datasets.Classification}
	reg  = []datasets.Task{datasets.Regression}
	clu  = []datasets.Task{datasets.Clustering}
	red  = []datasets.Task{datasets.Reduction}
	none = []datasets.Task{}
)

// table lists the metrics in the order reports show them within a task; the
// first of a task is its primary score (ranked by in the runs table).
var table = []Info{
	{Name: "accuracy", Head: true, Label: "accuracy", Short: "acc", Higher: true, Tasks: clf, Help: "fraction of rows predicted right"},
	{Name: "error", Label: "error", Short: "err", Tasks: clf, Help: "fraction of rows predicted wrong (1 - accuracy)"},
	{Name: "macro_f1", Head: true, Label: "macro F1", Short: "F1", Higher: true, Tasks: clf, Help: "F1 averaged over classes, each class weighing the same"},
	{Name: "weighted_f1", Label: "weighted F1", Short: "wF1", Higher: true, Tasks: clf, Help: "F1 averaged over classes, weighted by their support"},
	{Name: "macro_precision", Label: "macro precision", Short: "prec", Higher: true, Tasks: clf, Help: "precision averaged over classes"},
	{Name: "macro_recall", Label: "macro recall", Short: "rec", Higher: true, Tasks: clf, Help: "recall averaged over classes (balanced accuracy)"},
	{Name: "precision", Label: "precision", Short: "P", Higher: true, Tasks: clf, Help: "two classes: share of the rows predicted positive that are (the positive class's precision)"},
	{Name: "recall", Label: "recall", Short: "R", Higher: true, Tasks: clf, Help: "two classes: share of the positive rows predicted positive (sensitivity)"},
	{Name: "f1", Label: "F1", Short: "F1+", Higher: true, Tasks: clf, Help: "two classes: the positive class's F1, the harmonic mean of its precision and recall"},
	{Name: "kappa", Label: "kappa", Short: "κ", Higher: true, Tasks: clf, Help: "Cohen's kappa: agreement beyond chance"},
	{Name: "mcc", Label: "MCC", Short: "MCC", Higher: true, Tasks: clf, Help: "Matthews correlation coefficient"},
	{Name: "log_loss", Label: "log-loss", Short: "logloss", Tasks: clf, Help: "mean negative log-probability of the true class"},
	{Name: "brier", Label: "Brier", Short: "Brier", Tasks: clf, Help: "mean squared error of the probabilities: of the positive class for two classes, summed over the one-hot classes above"},
	{Name: "auc", Head: true, Label: "AUC", Short: "AUC", Higher: true, Tasks: clf, Help: "area under the ROC curve (macro one-vs-rest above two classes)"},
	{Name: "average_precision", Label: "average precision", Short: "AP", Higher: true, Tasks: clf, Help: "area under the precision-recall curve, step-wise (macro one-vs-rest above two classes)"},
	{Name: "cost", Label: "cost", Short: "cost", Tasks: clf, Help: "with a cost matrix: mean cost per held-out row at the decision of least cost (the threshold, or the Bayes decision)"},
	{Name: "cost_default", Label: "cost at default", Short: "cost0", Tasks: clf, Help: "with a cost matrix: mean cost per held-out row at the model's own decision"},

	{Name: "r2", Head: true, Label: "R²", Short: "R²", Higher: true, Tasks: reg, Help: "share of the target's variance explained"},
	{Name: "rmse", Head: true, Label: "RMSE", Short: "RMSE", Tasks: reg, Help: "root mean squared error, in the target's units"},
	{Name: "mae", Head: true, Label: "MAE", Short: "MAE", Tasks: reg, Help: "mean absolute error, in the target's units"},
	{Name: "mse", Label: "MSE", Short: "MSE", Tasks: reg, Help: "mean squared error"},

	{Name: "ari", Head: true, Label: "ARI", Short: "ARI", Higher: true, Tasks: clu, Help: "adjusted Rand index against the known classes (1 identical, 0 chance)"},
	{Name: "nmi", Label: "NMI", Short: "NMI", Higher: true, Tasks: clu, Help: "normalised mutual information with the known classes"},
	{Name: "silhouette", Head: true, Label: "silhouette", Short: "sil", Higher: true, Tasks: clu, Help: "how much closer rows are to their own cluster than to the next (-1..1)"},
	{Name: "clusters", Head: true, Label: "clusters", Short: "k", Higher: true, Count: true, Tasks: clu, Help: "number of clusters found"},

	{Name: "explained_variance", Head: true, Label: "explained variance", Short: "var", Higher: true, Tasks: red, Help: "share of the total variance the kept directions hold"},
	{Name: "reconstruction_rmse", Label: "reconstruction RMSE", Short: "recon", Tasks: red, Help: "RMSE of the rows rebuilt from the kept directions, in the units the reduction saw (scaled when it scales)"},
	{Name: "distortion", Label: "max distortion", Short: "dist", Tasks: red, Help: "largest relative change of a squared distance between two rows, on up to 2,000 pairs (the Johnson–Lindenstrauss ε)"},
	{Name: "components", Head: true, Label: "components", Short: "k", Count: true, Higher: true, Tasks: red, Help: "number of dimensions kept"},
	{Name: "knn_accuracy", Head: true, Label: "1-NN accuracy", Short: "1nn", Higher: true, Tasks: red, Help: "leave-one-out 1-nearest-neighbour accuracy of the known classes in the reduced space (its baseline: the same before reducing)"},
}

// Headline lists the metrics of task t that a result's headline shows, in
// order.
func Headline(t datasets.Task) []Info {
	var out []Info
	for _, m := range ForTask(t) {
		if m.Head {
			out = append(out, m)
		}
	}
	return out
}

// Lookup returns the metric's description. An unknown name (a metric a
// model reports that the table does not list) gets a description made from
// its name: higher is better, formatted as a score.
func Lookup(name string) Info {
	for _, m := range table {
		if m.Name == name {
			return m
		}
	}
	return Info{Name: name, Label: strings.ReplaceAll(name, "_", " "), Short: name, Higher: true, Tasks: none}
}

// ForTask lists the metrics of task t, in report order.
func ForTask(t datasets.Task) []Info {
	var out []Info
	for _, m := range table {
		if slices.Contains(m.Tasks, t) {
			out = append(out, m)
		}
	}
	return out
}

// Primary names the score runs of task t are ranked by, among the metrics m
// has: accuracy, R², ARI (the silhouette when there are no known classes),
// or the explained variance.
func Primary(t datasets.Task, m map[string]float64) string {
	fallback := ""
	for _, info := range ForTask(t) {
		if info.Count {
			continue
		}
		if fallback == "" {
			fallback = info.Name
		}
		if _, ok := m[info.Name]; ok || m == nil {
			return info.Name
		}
	}
	return fallback
}

// Ordered lists the keys of m: task t's metrics in table order first, then
// any others sorted by name.
func Ordered(t datasets.Task, m map[string]float64) []string {
	var keys []string
	seen := map[string]bool{}
	for _, info := range ForTask(t) {
		if _, ok := m[info.Name]; ok {
			keys = append(keys, info.Name)
			seen[info.Name] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

// Format shows a value of this metric: counts as whole numbers, scores with
// three decimals (numfmt.Score).
func (m Info) Format(v float64) string {
	if m.Count {
		return numfmt.Value(v)
	}
	return numfmt.Score(v)
}

// Compare says whether a is better (+1), worse (-1) or no different (0)
// from b for this metric; NaN on either side compares as 0.
func (m Info) Compare(a, b float64) int {
	if a != a || b != b || a == b {
		return 0
	}
	if (a > b) == m.Higher {
		return 1
	}
	return -1
}
