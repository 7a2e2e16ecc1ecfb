package models_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// tiny reads a small CSV as data.
func tiny(t *testing.T, text string) *datasets.Dataset {
	t.Helper()
	tab, err := datasets.ReadFrom(strings.NewReader(text), "tiny", "csv")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// specWith looks a model up and parses its parameters.
func specWith(t *testing.T, model string, params map[string]string) (*engine.Spec, engine.Values) {
	t.Helper()
	spec, err := engine.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Parse(params)
	if err != nil {
		t.Fatalf("%s %v: %v", model, params, err)
	}
	return spec, v
}

// A parameter beyond what the data allow is an engine.ErrLimit (the CLI
// exits 2 for it) whose one line states the limit that applies to these
// data: under a hold-out or cross-validation, the training part's.
func TestLimitsOfTheData(t *testing.T) {
	oneClass := tiny(t, "a,b,c\n1,2,x\n2,3,x\n3,1,x\n4,4,x\n5,2,x\n")
	var rows strings.Builder
	rows.WriteString("a,b,y\n")
	for i := range 30 {
		fmt.Fprintf(&rows, "%d,%d,%g\n", i, i*i%7, float64(i*3%11)+0.5)
	}
	thirty := tiny(t, rows.String())
	ten := tiny(t, strings.Join(strings.SplitAfter(rows.String(), "\n")[:11], ""))
	cases := []struct {
		data   *datasets.Dataset
		model  string
		params map[string]string
		opt    eval.Options
		want   string
	}{
		{builtin(t, "iris", ""), "knn", map[string]string{"k": "200"}, eval.Options{},
			"k nearest neighbours: k=200 but the training part has 120 rows; use k at most 120"},
		{builtin(t, "iris", ""), "knn", map[string]string{"k": "200"}, eval.Options{Folds: 5},
			"fold 1 of 5: k nearest neighbours: k=200 but the training part has 120 rows"},
		{builtin(t, "iris", ""), "knn", map[string]string{"choose_k": "loo", "k_max": "500"}, eval.Options{},
			"k_max=500 but the training part has 120 rows; use k_max at most 120"},
		{builtin(t, "iris", ""), "tree", map[string]string{"min_samples_leaf": "200"}, eval.Options{},
			"decision tree: min_samples_leaf=200 but the training part has 120 rows, and a split needs 400; use min_samples_leaf at most 60"},
		{builtin(t, "iris", ""), "tree", map[string]string{"min_samples_leaf": "61"}, eval.Options{},
			"min_samples_leaf=61 but the training part has 120 rows, and a split needs 122"},
		{builtin(t, "iris", ""), "forest", map[string]string{"min_samples_split": "500"}, eval.Options{Folds: 3},
			"random forest: min_samples_split=500 but the training part has 100 rows, so no node can split; use min_samples_split at most 100"},
		{builtin(t, "iris", ""), "adaboost", map[string]string{"min_samples_leaf": "100"}, eval.Options{},
			"AdaBoost: min_samples_leaf=100 but the training part has 120 rows"},
		{ten, "tree", map[string]string{"prune": "reduced-error", "prune_fraction": "0.05"}, eval.Options{Split: 0.2},
			"decision tree: 8 training rows are too few to hold some out for pruning; use prune=cost-complexity"},
		{builtin(t, "iris", ""), "kmeans", map[string]string{"k": "200"}, eval.Options{},
			"k-means: k=200 clusters but the data have 150 rows; use k at most 150"},
		{builtin(t, "iris", ""), "kmedoids", map[string]string{"k": "151"}, eval.Options{},
			"k=151 clusters but the data have 150 rows"},
		{builtin(t, "iris", ""), "gmm", map[string]string{"k": "151"}, eval.Options{},
			"k=151 clusters but the data have 150 rows"},
		{oneClass, "kmeans", nil, eval.Options{},
			"k=0 asks for as many clusters as known classes, but the data have one class; set k to the clusters wanted"},
		{builtin(t, "iris", ""), "spectral", map[string]string{"neighbors": "150"}, eval.Options{},
			"spectral clustering: neighbors=150 but the data have 150 rows, so a row has at most 149 neighbours; use neighbors at most 149"},
		{builtin(t, "iris", ""), "pca", map[string]string{"k": "5"}, eval.Options{},
			"parameter k: 5 components but the data have 4 features; use k at most 4"},
		{builtin(t, "iris", ""), "svd", map[string]string{"k": "5"}, eval.Options{},
			"parameter k: 5 components but the data have 4 features"},
		{builtin(t, "iris", ""), "randproj", map[string]string{"k": "5"}, eval.Options{},
			"parameter k: 5 directions but the data have 4 features"},
		{builtin(t, "iris", ""), "lda", nil, eval.Options{Folds: 151},
			"k-fold cross-validation: 151 folds but the data have 150 rows; use at most 150 folds"},
		{builtin(t, "iris", ""), "lda", nil, eval.Options{Reduce: 5},
			"reduce first: 5 principal components but there are 4 features to reduce; use at most 4"},
		{builtin(t, "diabetes", ""), "linear", map[string]string{"degree": "6"}, eval.Options{},
			"degree 6 on 10 features makes more than 3000 terms"},
		{thirty, "stepwise", map[string]string{"criterion": "cv", "folds": "20"}, eval.Options{Split: 0.2},
			"stepwise: folds=20 needs at least 40 rows but the training part has 24; use folds at most 12 or criterion=rss"},
		{builtin(t, "iris", ""), "qda", map[string]string{"decision": "risk", "loss": "0,1;1,0"}, eval.Options{},
			"parameter loss: the loss matrix is 2x2 but the data has 3 classes"},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s %v %+v", c.model, c.params, c.opt)
		spec, v := specWith(t, c.model, c.params)
		if c.opt.Split == 0 {
			c.opt.Split = 0.2
		}
		_, err := eval.Run(context.Background(), c.data, spec, v, c.opt, nil)
		if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v\nwant an ErrLimit with %q", name, err, c.want)
		}
	}
}

// Limits on memory that no built-in reaches: the Newton solver's systems
// and the polynomial design's cells.
func TestLimitsOfMemory(t *testing.T) {
	fit := func(model string, params map[string]string, tr engine.Train) error {
		spec, v := specWith(t, model, params)
		m, err := spec.New(v)
		if err != nil {
			t.Fatal(err)
		}
		return engine.Fit(context.Background(), m, tr, nil)
	}
	wide := mat.NewDense(20, 400, nil)
	y := make([]float64, 20)
	for i := range 20 {
		y[i] = float64(i % 10)
		for j := range 400 {
			wide.Set(i, j, float64((i*j)%13))
		}
	}
	classes := strings.Split("a b c d e f g h i j", " ")
	err := fit("logistic", map[string]string{"solver": "newton"}, engine.Train{X: wide, Y: y, Classes: classes})
	if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), "the newton solver would solve 4010×4010 systems") {
		t.Errorf("newton on 400 features, 10 classes: %v", err)
	}
	long := mat.NewDense(140_400, 10, nil)
	for i := range 140_400 {
		for j := range 10 {
			long.Set(i, j, float64((i+j)%17))
		}
	}
	err = fit("linear", map[string]string{"degree": "3"}, engine.Train{X: long, Y: make([]float64, 140_400)})
	if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), "degree 3 on 140400 rows makes a 140400 x 285 matrix, too large") {
		t.Errorf("degree 3 on 140,400 x 10: %v", err)
	}
}

// A model whose estimate exceeds the memory there is (here as
// $TEALAB_MEMORY says) is refused before anything is fitted, with one line
// that gives the estimate, the reason and what to do: covariances of
// 200,000 columns, one-hot encoding a column of 50,000 levels, n x n
// distances and graphs.
func TestRefusedBeforeRunningOutOfMemory(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "2GB")
	wide := wideData(3, 200_000)
	levels := manyLevels(50_000)
	cases := []struct {
		data  *datasets.Dataset
		model string
		want  string
	}{
		{wide, "lda", "lda on wide: a 200000 x 200000 covariance needs 960 GB, more than the 2 GB $TEALAB_MEMORY allows (drop columns"},
		{wide, "qda", "qda on wide: 2 200000 x 200000 class covariances needs"},
		{wide, "pca", "pca on wide: a 200000 x 200000 covariance needs"},
		{wide, "gmm", "gmm on wide: 2 200000 x 200000 component covariances needs"},
		{levels, "logistic", "logistic on levels: a 50000 x 50001 matrix of prepared rows (nominal columns one-hot encoded) needs 20 GB, more than the 2 GB $TEALAB_MEMORY allows (drop the columns with many levels"},
		{levels, "knn", "knn on levels: a 50000 x 50001 matrix of prepared rows"},
		{levels, "lda", "lda on levels: a 50001 x 50001 covariance needs"},
		{levels, "gnb", "gnb on levels: a 50000 x 50001 matrix of prepared rows"},
		{builtin(t, "moons:n=20000", ""), "hclust", "hclust on moons: a 20000 x 20000 matrix of pairwise distances needs 3.2 GB, more than the 2 GB $TEALAB_MEMORY allows (sample the rows, or use linkage=divisive or k-means)"},
		{builtin(t, "moons:n=20000", ""), "spectral", "spectral on moons: a 20000 x 20000 affinity graph needs 9.6 GB"},
		{builtin(t, "sine:n=200000", ""), "kridge", "kridge on sine: a 200000 x 200000 kernel matrix needs 320 GB, more than the 2 GB $TEALAB_MEMORY allows (sample the rows, or use kperceptron"},
		{builtin(t, "moons:n=200000", ""), "klogistic", "klogistic on moons: a 200000 x 200000 kernel matrix needs 320 GB"},
	}
	for _, c := range cases {
		spec, v := specWith(t, c.model, nil)
		_, err := eval.Run(context.Background(), c.data, spec, v, eval.Options{Split: 0.2, Seed: 1}, nil)
		if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s on %s: %v\nwant an ErrLimit with %q", c.model, c.data.Name, err, c.want)
		}
	}
	// What fits is not refused: the tree takes the nominal column as it is.
	spec, v := specWith(t, "tree", map[string]string{"max_depth": "2"})
	if _, err := eval.Run(context.Background(), levels, spec, v, eval.Options{Split: 0.2, Seed: 1}, nil); err != nil {
		t.Errorf("tree on 50,000 levels: %v", err)
	}
}

// wideData is rows x cols Gaussian features and two classes.
func wideData(rows, cols int) *datasets.Dataset {
	r := rand.New(rand.NewPCG(1, 2))
	X := mat.NewDense(rows, cols, nil)
	for i := range rows {
		for j := range cols {
			X.Set(i, j, r.NormFloat64())
		}
	}
	feats := make([]datasets.Column, cols)
	for j := range feats {
		feats[j] = datasets.Column{Name: fmt.Sprintf("x%d", j)}
	}
	y := make([]float64, rows)
	for i := range y {
		y[i] = float64(i % 2)
	}
	return &datasets.Dataset{Name: "wide", X: X, Y: y, Classes: []string{"a", "b"}, Task: datasets.Classification, Features: feats}
}

// manyLevels is n rows whose one nominal column has a level each, and a
// numeric one; two classes.
func manyLevels(n int) *datasets.Dataset {
	X := mat.NewDense(n, 2, nil)
	levels := make([]string, n)
	y := make([]float64, n)
	for i := range n {
		X.Set(i, 0, float64(i))
		X.Set(i, 1, float64(i%7))
		levels[i] = fmt.Sprintf("id%d", i)
		y[i] = float64(i % 2)
	}
	return &datasets.Dataset{Name: "levels", X: X, Y: y, Classes: []string{"a", "b"}, Task: datasets.Classification,
		Features: []datasets.Column{{Name: "id", Kind: datasets.Nominal, Levels: levels}, {Name: "x"}}}
}

// Divisive clustering keeps no n x n distances, so the agglomerative
// memory does not bind it.
func TestDivisiveBeyondTheAgglomerativeLimit(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "500MB") // 11,586 x 11,586 distances would need 1.07 GB
	if testing.Short() {
		t.Skip("clusters 11,586 rows")
	}
	spec, v := specWith(t, "hclust", map[string]string{"linkage": "divisive", "k": "2"})
	res, err := eval.Run(context.Background(), builtin(t, "moons:n=11586", ""), spec, v, eval.Options{Seed: 1}, nil)
	if err != nil || res.Metrics["clusters"] != 2 {
		t.Fatalf("divisive on 11,586 rows: %v", err)
	}
}

// A hold-out that consumes its data (reordered and prepared in place, as
// tealab train runs it) scores exactly as one that copies its parts, for
// models that standardise, encode nominal columns, or take them raw.
func TestConsumedHoldoutScoresAsCopied(t *testing.T) {
	for _, c := range []struct{ data, model string }{
		{"iris", "logistic"}, {"wine", "knn"}, {"breast_cancer", "tree"}, {"diabetes", "ridge"}, {"iris", "forest"},
	} {
		spec, v := specWith(t, c.model, nil)
		want, err := eval.Run(context.Background(), builtin(t, c.data, ""), spec, v, eval.DefaultOptions(), nil)
		if err != nil {
			t.Fatal(err)
		}
		opt := eval.DefaultOptions()
		opt.Consume = true
		d := *builtin(t, c.data, "") // shared by the tests: consume a copy
		d.X, d.Y = mat.DenseCopyOf(d.X), slices.Clone(d.Y)
		got, err := eval.Run(context.Background(), &d, spec, v, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Metrics) != fmt.Sprint(want.Metrics) || fmt.Sprint(got.Predicted) != fmt.Sprint(want.Predicted) {
			t.Errorf("%s on %s: consumed %v, copied %v", c.model, c.data, got.Metrics, want.Metrics)
		}
	}
}
