package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tealab/tealab/tui/views"
)

// A tree's results have Tree, Rules and Importance tabs. The tree folds
// and unfolds with enter, and a data row sent down it (p, then [ ]) says
// which leaf it reaches, its path opened.
func TestTreeViews(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tree", Params: paramsOf("tree", map[string]string{"max_depth": "3"}), Train: true}, 120, 40)
	hs.resultTab("Tree")
	v := hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "gini tree · depth 3", "▾ all training rows", "petal_length_cm <= 2.45", "40 rows · gini 0.000", "→ setosa")
	hs.press("down", "down", "enter") // fold the second child
	if strings.Contains(hs.View(), "petal_width_cm <= 1.65") {
		t.Errorf("folded node still shows its children:\n%s", hs.View())
	}
	hs.press("enter")
	mustContain(t, hs.View(), "petal_width_cm <= 1.65")
	hs.press("p")
	mustContain(t, hs.View(), "row 1 of 150 (a setosa) reaches a leaf that predicts setosa")
	for range 60 {
		hs.press("]")
	}
	mustContain(t, hs.View(), "row 61 of 150 (a versicolor) reaches a leaf that predicts versicolor")
	checkFrame(t, hs.View(), 120, 40)

	hs.resultTab("Rules")
	mustContain(t, hs.View(), "rules, one per leaf", "THEN setosa · 40 rows · 100%", "IF  petal_length_cm <= 2.45")
	hs.press("s")
	mustContain(t, hs.View(), "most rows first")
	hs.resultTab("Importance")
	mustContain(t, hs.View(), "mean decrease in impurity", "petal_length_cm")
	checkFrame(t, hs.View(), 120, 40)
}

// At 80x24 the tree view stays inside the window and scrolls with the
// cursor.
func TestTreeViewSmall(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "digits", Model: "tree", Train: true}, 80, 24)
	hs.resultTab("Tree")
	hs.press("a") // unfold everything: far more lines than the window
	for range 40 {
		hs.press("down")
	}
	v := hs.View()
	checkFrame(t, v, 80, 24)
	if !strings.Contains(v, "rows · gini") {
		t.Errorf("no node lines:\n%s", v)
	}
}

// Forests and boosting report their own losses: the out-of-bag error and
// the exponential loss name the charts, and the live figures show what
// each step reports besides.
func TestEnsembleLossNames(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "wine", Model: "forest", Params: paramsOf("forest", map[string]string{"trees": "20"}), Train: true}, 120, 40)
	hs.resultTab("History")
	mustContain(t, hs.View(), "out-of-bag error")
	hs = newHarness(t, Options{Data: "breast_cancer", Model: "adaboost", Params: paramsOf("adaboost", map[string]string{"rounds": "20"}), Train: true}, 120, 40)
	hs.resultTab("History")
	mustContain(t, hs.View(), "exp. loss (SAMME)")
	hs = newHarness(t, Options{Data: "iris", Model: "knn", Params: paramsOf("knn", map[string]string{"choose_k": "loo", "k_max": "15"}), Train: true}, 120, 40)
	hs.resultTab("History")
	mustContain(t, hs.View(), "leave-one-out error", "k value")
}

// k-NN shows the k it used; choosing k draws the error against k.
func TestNeighboursView(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "knn", Params: paramsOf("knn", map[string]string{"choose_k": "loo", "k_max": "15"}), Train: true}, 120, 40)
	hs.resultTab("Neighbours")
	mustContain(t, hs.View(), "l2 distance · k-d tree search", "chosen: the least leave-one-out error", "leave-one-out (training rows)", "validation (held-out rows)")
	checkFrame(t, hs.View(), 120, 40)
	hs = newHarness(t, Options{Data: "iris", Model: "knn", Train: true}, 80, 24)
	hs.resultTab("Neighbours")
	mustContain(t, hs.View(), "k = 5", "k as set")
}

// The chosen k is marked on the error-against-k curve: a vertical line in
// its column, labelled, at 80x24 and 120x40.
func TestNeighboursMarksChosenK(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		hs := newHarness(t, Options{Data: "iris", Model: "knn", Params: paramsOf("knn", map[string]string{"choose_k": "loo", "k_max": "15"}), Train: true}, size[0], size[1])
		hs.resultTab("Neighbours")
		v := ansi.Strip(hs.View())
		k := hs.a.results.Active().(*views.NeighboursView).Ch.K
		label := fmt.Sprintf("┊k=%d", k)
		if !strings.Contains(v, label) && !strings.Contains(v, fmt.Sprintf("k=%d┊", k)) {
			t.Errorf("%dx%d: no %s on the curve:\n%s", size[0], size[1], label, v)
		}
		if strings.Count(v, "┊") < 3 {
			t.Errorf("%dx%d: no vertical mark:\n%s", size[0], size[1], v)
		}
		checkFrame(t, hs.View(), size[0], size[1])
	}
}

// The dendrogram's cut moves with the arrow keys and the clusters and
// their agreement with the classes follow it.
func TestDendrogramCutMoves(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Task: "clustering", Model: "hclust", Params: paramsOf("hclust", map[string]string{"k": "3"}), Train: true}, 120, 40)
	hs.resultTab("Dendrogram")
	v := hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "average linkage · cut at height", "3 clusters · ARI 0.759 against species", "row 42 setosa", "┊")
	hs.press("up")
	mustContain(t, hs.View(), "2 clusters · ARI 0.568")
	hs.press("down", "down", "down")
	mustContain(t, hs.View(), "5 clusters")
	hs.press("pgdown")
	checkFrame(t, hs.View(), 120, 40)
}

// A reduction shows its scree and loadings; a clustering its clusters
// against the known classes.
func TestUnsupervisedViews(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Task: "reduction", Model: "pca", Train: true}, 120, 40)
	hs.resultTab("Components")
	mustContain(t, hs.View(), "scree", "PC1", "0.925", "loadings", "petal_length_cm")
	checkFrame(t, hs.View(), 120, 40)
	hs = newHarness(t, Options{Data: "iris", Task: "clustering", Model: "kmeans", Train: true}, 80, 24)
	hs.resultTab("Clusters")
	mustContain(t, hs.View(), "3 clusters of 150 rows", "setosa", "cluster 1")
	checkFrame(t, hs.View(), 80, 24)
}

// A clustering's map colours the rows by cluster and calls nothing
// misclassified: a cluster's number is no class.
func TestClusterMapNamesClusters(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Task: "clustering", Model: "kmeans", Train: true}, 120, 40)
	hs.resultTab("Map")
	hs.runUntil(func() bool { return strings.Contains(hs.View(), "cluster 1") })
	v := hs.View()
	mustContain(t, v, "cluster 1", "cluster 3")
	if strings.Contains(v, "misclassified") || strings.Contains(v, "setosa") {
		t.Errorf("clusters read as classes:\n%s", v)
	}
}

// k-means runs get an elbow plot of the objective against k, computed off
// the UI goroutine.
func TestElbowView(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Task: "clustering", Model: "kmeans", Train: true}, 120, 40)
	hs.resultTab("Elbow")
	hs.runUntil(func() bool { return strings.Contains(hs.View(), "the run's k = 3") })
	mustContain(t, hs.View(), "the run's k = 3 (objective", "k-means objective")
	checkFrame(t, hs.View(), 120, 40)
}

// Four blobs' elbow at 80x24: k = 1 is drawn, not clipped as a spike, on a
// linear axis, so that the fall from k = 1 to the knee fills the plot, and
// the knee is marked at k = 4.
func TestElbowShowsTheKnee(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "blobs:centers=4,seed=3", Task: "clustering", Model: "kmeans", Params: paramsOf("kmeans", map[string]string{"k": "4"}), Train: true}, 80, 24)
	hs.resultTab("Elbow")
	hs.runUntil(func() bool { return strings.Contains(hs.View(), "the run's k = 4") })
	v := ansi.Strip(hs.View())
	checkFrame(t, hs.View(), 80, 24)
	if strings.Contains(v, "clipped") || strings.Contains(v, "log y ─") {
		t.Fatalf("the curve is clipped or on a log axis:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	top, axis := -1, -1 // the plot's first row, the x axis
	for i, l := range lines {
		if top < 0 && strings.Contains(l, "knee k=4") {
			top = i
		}
		if top >= 0 && strings.Contains(l, "└") {
			axis = i
			break
		}
	}
	if top < 0 || axis < 0 {
		t.Fatalf("no knee marked at k=4:\n%s", v)
	}
	row := func(l string) []rune { return []rune(l) }
	markCol := slices.Index(row(lines[top]), '┊')
	axisCol := slices.Index(row(lines[axis]), '└')
	if row(lines[axis])[markCol] != '┼' {
		t.Errorf("the mark's column %d does not cross the x axis:\n%s", markCol, v)
	}
	// The curve's row at k = 1 (on the y axis, ┼) and at the knee's column.
	k1, k4 := -1, -1
	for i := top; i < axis; i++ {
		r := row(lines[i])
		if r[axisCol] == '┼' {
			k1 = i
		}
		if c := r[markCol]; c != '┊' && c != ' ' && k4 < 0 {
			k4 = i
		}
	}
	if rows := axis - top; k1 != top || k4 < 0 || float64(k4-k1) < 0.8*float64(rows-1) {
		t.Errorf("k = 1 drawn on row %d and the knee on row %d of rows %d..%d: the fall does not fill the plot\n%s", k1, k4, top, axis-1, v)
	}
}

// A clustering's scatter: rows by cluster with the centres marked, beside
// the known classes; one at a time (c) on a narrow screen.
func TestClusterScatter(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Task: "clustering", Model: "kmeans", Train: true}, 130, 40)
	hs.resultTab("Scatter")
	mustContain(t, hs.View(), "first two principal directions", "clusters found, centres marked", "known classes (not learned from)", "▲ centre", "setosa")
	checkFrame(t, hs.View(), 130, 40)
	hs = newHarness(t, Options{Data: "iris", Task: "clustering", Model: "kmeans", Train: true}, 80, 24)
	hs.resultTab("Scatter")
	mustContain(t, hs.View(), "c: known classes")
	hs.press("c")
	mustContain(t, hs.View(), "known classes (not learned from) · c: clusters")
	checkFrame(t, hs.View(), 80, 24)
}

// The dendrogram of 3,000 rows draws its top and follows the cut: each key
// recolours and rescoring is a linear pass (BenchmarkDendrogramCut times
// it).
func TestDendrogramLargeTree(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "blobs:n=3000,seed=4", Task: "clustering", Model: "hclust", Params: paramsOf("hclust", map[string]string{"k": "3"}), Train: true}, 120, 40)
	hs.resultTab("Dendrogram")
	mustContain(t, hs.View(), "top of 3000 rows", "rows)")
	for range 10 {
		hs.press("down")
	}
	mustContain(t, hs.View(), "13 clusters")
	checkFrame(t, hs.View(), 120, 40)
}

// A clustering or a reduction picked on labelled data (the model list
// offers them under every task) opens its form without a split, and trains
// on every row, scored against the classes: nothing asks to choose the task
// first.
func TestUnsupervisedModelOnLabelledData(t *testing.T) {
	t.Parallel()
	for _, model := range []string{"kmeans", "pca"} {
		hs := newHarness(t, Options{Data: "iris", Model: model}, 120, 40)
		v := hs.View()
		mustContain(t, v, "all rows (no split)", "reduce first")
		for _, absent := range []string{"does not do", "test fraction", "hold-out"} {
			if strings.Contains(v, absent) {
				t.Errorf("%s: form shows %q:\n%s", model, absent, v)
			}
		}
		hs = newHarness(t, Options{Data: "iris", Model: model, Train: true}, 120, 40)
		mustContain(t, hs.View(), "all 150 rows")
	}
	hs := newHarness(t, Options{Data: "iris", Model: "kmeans", Train: true}, 120, 40)
	mustContain(t, hs.View(), "ARI 0.730", "not learned")
}

// The clusters' scatter shows the principal plane or any two features
// chosen with x and y, as the Map does; p goes back.
func TestClusterScatterAxes(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Task: "clustering", Model: "kmeans", Train: true}, 120, 40)
	hs.resultTab("Scatter")
	mustContain(t, hs.View(), "first two principal directions", "x x axis", "y y axis")
	hs.press("x")
	v := hs.View()
	mustContain(t, v, "the rows, sepal_width_cm against petal_length_cm · p: principal plane", "petal_length_cm", "▲ centre")
	checkFrame(t, v, 120, 40)
	hs.press("p")
	mustContain(t, hs.View(), "first two principal directions")
}

// The form's scaling field overrides the model's habit (its help says
// what auto means for this model); the run says so.
func TestStandardizeField(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "wine", Model: "kmeans"}, 120, 40)
	hs.focusParam("scaling")
	mustContain(t, hs.View(), "▸ scaling", "does what kmeans expects: no")
	hs.press("right", "enter")
	hs.runUntil(func() bool { return strings.Contains(hs.View(), "ARI") })
	mustContain(t, hs.View(), "ARI 0.897", "numeric features", "standardised")
	on := true
	hs = newHarness(t, Options{Data: "wine", Model: "kmeans", Eval: standardized(on), Train: true}, 120, 40)
	mustContain(t, hs.View(), "ARI 0.897")
}

// Boosting's Tree and Rules tabs show any round's tree: > and < page
// through them, each named with its round and vote.
func TestBoostedTreesPage(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "adaboost", Params: paramsOf("adaboost", map[string]string{"rounds": "5", "max_depth": "2"}), Train: true}, 120, 40)
	defer closeHarness(hs)
	hs.resultTab("Tree")
	mustContain(t, hs.View(), "round 1 of 5, vote β")
	hs.press(">", ">")
	mustContain(t, hs.View(), "round 3 of 5, vote β")
	hs.press("<")
	mustContain(t, hs.View(), "round 2 of 5, vote β")
	hs.press("<", "<", "<")
	mustContain(t, hs.View(), "round 1 of 5, vote β")
	hs.resultTab("Rules")
	mustContain(t, hs.View(), "round 1 of 5, vote β", "one per leaf")
	hs.press(">")
	mustContain(t, hs.View(), "round 2 of 5, vote β")
}

// The form offers the pipeline's steps as the command line does: a
// resampling chosen there is what the run does, and the run says so.
func TestPipelineFields(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "breast_cancer", Model: "logistic"}, 120, 40)
	hs.focusParam("resample")
	mustContain(t, hs.View(), "▸ resample", "rebalance each")
	hs.press("right", "right", "right") // none → over → under → smote
	hs.focusParam("scaling")
	hs.press("right", "right", "right") // auto → standardize → min-max → robust
	hs.press("enter")
	hs.runUntil(func() bool { return strings.Contains(hs.View(), "accuracy") })
	mustContain(t, hs.View(), "robustly scaled", "by SMOTE (k=5)", "trained on   rows per class 285/285 (was 170/285)")
	res := hs.a.history[len(hs.a.history)-1].Result
	if !strings.Contains(res.Eval, "over-sampled by SMOTE") || len(res.Parts) != 1 || res.Parts[0].Rows[0] != res.Parts[0].Rows[1] {
		t.Errorf("the run: %q, parts %+v", res.Eval, res.Parts)
	}
}
