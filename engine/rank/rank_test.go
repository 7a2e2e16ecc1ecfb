package rank

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Each method refuses what it cannot rank in one line naming the culprit.
func TestRefusals(t *testing.T) {
	diabetes := builtin(t, "diabetes")
	iris := builtin(t, "iris")
	one := iris.Subset([]int{0})
	svm, err := engine.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d       *datasets.Dataset
		methods []string
		opt     Options
		want    []string
	}{
		{diabetes, []string{"chi2"}, Options{}, []string{"chi2", "target", "regression", "relieff"}},
		{diabetes, []string{"info_gain"}, Options{}, []string{"info_gain", "regression"}},
		{diabetes, []string{"mutual_info"}, Options{}, []string{"mutual_info", "regression"}},
		{one, []string{"relieff"}, Options{}, []string{"relieff", "2 rows", "has 1"}},
		{iris, []string{"permutation"}, Options{}, []string{"permutation", "needs a model"}},
		{diabetes, []string{"permutation"}, Options{Model: svm}, []string{"svm", "regression"}},
		{iris, []string{"gini"}, Options{}, []string{"gini", "info_gain"}},
		{iris, []string{"chi2", "chi2"}, Options{}, []string{"chi2", "twice"}},
		{iris, nil, Options{}, []string{"no method"}},
	} {
		_, err := Rank(context.Background(), c.d, c.methods, c.opt)
		if err == nil {
			t.Errorf("%v on %s: no error", c.methods, c.d.Name)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("%v: more than one line: %q", c.methods, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v on %s: %q does not say %q", c.methods, c.d.Name, msg, w)
			}
		}
	}
}

// A constant column and an all-missing one rank last with a note under
// every method, never NaN; the others keep their order.
func TestDeadColumnsRankLast(t *testing.T) {
	iris := builtin(t, "iris")
	n, p := iris.X.Dims()
	X := mat.NewDense(n, p+2, nil)
	for i := range n {
		row := append(append([]float64{math.NaN()}, iris.X.RawRowView(i)...), 7)
		X.SetRow(i, row)
	}
	d := *iris
	d.X = X
	d.Features = append(append([]datasets.Column{{Name: "gone", Missing: n}}, iris.Features...), datasets.Column{Name: "seven"})
	svm, _ := engine.Lookup("svm")
	rs, err := Rank(context.Background(), &d, Names(), Options{Model: svm})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for j, s := range r.Scores {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				t.Errorf("%s %s: %v", r.Method, r.Features[j], s)
			}
		}
		if r.Ranks[0] < p+1 || r.Ranks[p+1] < p+1 || !strings.Contains(r.Notes[0], "missing") || !strings.Contains(r.Notes[p+1], "constant") {
			t.Errorf("%s: the dead columns rank %d and %d, notes %q %q", r.Method, r.Ranks[0], r.Ranks[p+1], r.Notes[0], r.Notes[p+1])
		}
	}
}

// ReliefF and permutation importance stop when their context is
// cancelled, and tell their progress on the way.
func TestSlowMethodsCancel(t *testing.T) {
	d := builtin(t, "breast_cancer")
	svm, _ := engine.Lookup("svm")
	for _, m := range []string{"relieff", "permutation"} {
		ctx, cancel := context.WithCancel(context.Background())
		ticks := 0
		_, err := Rank(ctx, d, []string{m}, Options{Model: svm, Progress: func(p Progress) {
			ticks++
			if p.Method != m || p.Done > p.Total {
				t.Errorf("%s: progress %+v", m, p)
			}
			if ticks == 3 {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want cancelled", m, err)
		}
		if ticks != 3 {
			t.Errorf("%s: %d ticks after cancelling at 3", m, ticks)
		}
	}
}

// Permutation importance under k-fold CV fits each fold's model on its
// training part and scores the drop on its held-out rows; the seed
// repeats it exactly.
func TestPermutationCV(t *testing.T) {
	d := builtin(t, "iris")
	lda, err := engine.Lookup("lda")
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Model: lda, Repeats: 3}
	opt.Eval.Folds = 3
	a, err := Rank(context.Background(), d, []string{"permutation"}, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Rank(context.Background(), d, []string{"permutation"}, opt)
	r := a[0]
	if !strings.Contains(r.Eval, "3-fold") || r.Metric != "accuracy" {
		t.Errorf("eval %q metric %q", r.Eval, r.Metric)
	}
	for j := range r.Scores {
		if r.Scores[j] != b[0].Scores[j] {
			t.Errorf("%s: %v then %v under one seed", r.Features[j], r.Scores[j], b[0].Scores[j])
		}
	}
	if top := r.Features[r.Order()[0]]; !strings.HasPrefix(top, "petal") {
		t.Errorf("top feature %s", top)
	}
}

// Values near the largest float64 rank without NaN or a panic.
func TestHugeValues(t *testing.T) {
	n := 40
	d := &datasets.Dataset{Name: "huge", X: mat.NewDense(n, 2, nil), Y: make([]float64, n),
		Classes: []string{"a", "b"}, Task: datasets.Classification,
		Features: []datasets.Column{{Name: "big"}, {Name: "small"}}}
	for i := range n {
		d.Y[i] = float64(i % 2)
		d.X.Set(i, 0, (2*d.Y[i]-1)*1.7e308)
		d.X.Set(i, 1, float64(i)*1e-300)
	}
	rs, err := Rank(context.Background(), d, []string{"info_gain", "gain_ratio", "chi2", "mutual_info", "relieff"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for j, s := range r.Scores {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				t.Errorf("%s %s: %v", r.Method, r.Features[j], s)
			}
		}
		if r.Order()[0] != 0 {
			t.Errorf("%s: %s first, %v", r.Method, r.Features[r.Order()[0]], r.Scores)
		}
	}
}
