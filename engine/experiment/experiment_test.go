package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
)

func open(t *testing.T, source string) *datasets.Dataset {
	t.Helper()
	tab, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func models(t *testing.T, names ...string) []Model {
	t.Helper()
	var out []Model
	for _, n := range names {
		m, err := ParseModel(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// fake builds an outcome from given fold scores of accuracy, one slice per
// model, k folds by r repeats, on one classification dataset.
func fake(k, r int, scores ...[]float64) *Outcome {
	p := Plan{Datasets: []*datasets.Dataset{{Name: "toy", Task: datasets.Classification}}, Folds: k, Repeats: r}
	for i := range scores {
		p.Models = append(p.Models, Model{Label: string(rune('a' + i))})
	}
	o := &Outcome{Plan: p, Cells: make([]Cell, len(scores)*r)}
	for m, s := range scores {
		for rep := range r {
			c := o.Cell(0, m, rep)
			c.Model, c.Repeat = m, rep
			for f := range k {
				c.Folds = append(c.Folds, map[string]float64{"accuracy": s[rep*k+f]})
			}
		}
	}
	return o
}

// The corrected resampled t-test against a worked example computed with
// numpy and scipy by testdata/ttest.py (2 repeats of 5-fold CV).
func TestCorrectedTTestWorkedExample(t *testing.T) {
	a := []float64{0.95, 0.93, 0.96, 0.94, 0.97, 0.92, 0.95, 0.96, 0.94, 0.95}
	b := []float64{0.91, 0.92, 0.93, 0.90, 0.94, 0.91, 0.93, 0.92, 0.90, 0.93}
	c := make([]float64, len(b))
	for i, x := range []float64{0.02, -0.01, 0.03, 0.01, 0.0, 0.02, 0.01, -0.01, 0.02, 0.01} {
		c[i] = b[i] + x
	}
	o := fake(5, 2, b, a, c) // b is the baseline
	s := o.Stat(0, 1, "accuracy")
	if !near(s.Test.Mean, 0.028, 1e-12) || !near(s.Test.T, 3.8501336875184875, 1e-9) || s.Test.DF != 9 ||
		!near(s.Test.P, 0.0039055167093185513, 1e-9) || s.Mark != Better {
		t.Errorf("a vs b: %+v, want mean 0.028, t 3.8501336875, df 9, p 0.0039055167, v", s)
	}
	s = o.Stat(0, 2, "accuracy")
	if !near(s.Test.T, 1.2677313820927747, 1e-9) || !near(s.Test.P, 0.23670839873793673, 1e-9) || s.Mark != Tie {
		t.Errorf("c vs b: %+v, want t 1.2677313821, p 0.2367083987, a tie (the uncorrected test says p 0.042)", s)
	}
	if s := o.Stat(0, 0, "accuracy"); s.Mark != Baseline || !near(s.Mean, 0.919, 1e-12) {
		t.Errorf("baseline: %+v", s)
	}
	// b is worse than a: with a as the baseline, b is marked *.
	o.Plan.Baseline = 1
	if s := o.Stat(0, 0, "accuracy"); s.Mark != Worse {
		t.Errorf("b vs a: %v, want * (worse)", s.Mark)
	}
	// error: lower is better, so a lower error is a win.
	for _, c := range o.Cells {
		for _, f := range c.Folds {
			f["error"] = 1 - f["accuracy"]
		}
	}
	o.Plan.Baseline = 0
	if s := o.Stat(0, 1, "error"); s.Mark != Better {
		t.Errorf("a's lower error vs b: %v, want v (better)", s.Mark)
	}
	w, ti, l := o.WTL(1, []Column{{0, "accuracy"}, {0, "error"}})
	if w != 2 || ti != 0 || l != 0 {
		t.Errorf("a's W/T/L = %d/%d/%d, want 2/0/0", w, ti, l)
	}
	if w, ti, l := o.WTL(2, []Column{{0, "accuracy"}, {0, "error"}}); w != 0 || ti != 2 || l != 0 {
		t.Errorf("c's W/T/L = %d/%d/%d, want 0/2/0", w, ti, l)
	}
	var buf bytes.Buffer
	_ = o.Table([]Column{{0, "accuracy"}}).WriteText(&buf)
	for _, want := range []string{"0.919 ± 0.014", "0.947 ± 0.015 v", "(1/0/0)", "(0/1/0)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
}

// Demšar (2006), section 3.2.2: four variants of C4.5 over 14 datasets with
// average ranks 3.143, 2.000, 2.893 and 1.964 give χ²_F = 9.28 and
// F_F = 3.69; the Nemenyi critical difference for 4 models and 14
// datasets at α = 0.05 is 2.569·√(4·5/(6·14)) = 1.25.
func TestFriedmanNemenyiDemsar(t *testing.T) {
	chi, ff, p := Friedman([]float64{3.143, 2.000, 2.893, 1.964}, 14)
	if !near(chi, 9.28, 0.01) || !near(ff, 3.69, 0.01) || p >= 0.05 {
		t.Errorf("Friedman = %.3f, F = %.3f, p = %.4f; want 9.28, 3.69, p < 0.05", chi, ff, p)
	}
	if cd := CriticalDifference(4, 14); !near(cd, 1.25, 0.005) {
		t.Errorf("CD = %.4f, want 1.25", cd)
	}
	rk := Ranking{Ranks: []float64{3.143, 2.000, 2.893, 1.964}, CD: CriticalDifference(4, 14)}
	// As Demšar says, even the extremes (3.143 − 1.964 = 1.179) stay within
	// the CD at α = 0.05: one group of all four.
	if g := rk.Groups(); !reflect.DeepEqual(g, [][]int{{3, 1, 2, 0}}) {
		t.Errorf("groups = %v, want [[3 1 2 0]]", g)
	}
	rk.CD = 1.0 // a smaller CD splits them
	if g := rk.Groups(); !reflect.DeepEqual(g, [][]int{{3, 1, 2}, {2, 0}}) {
		t.Errorf("groups at CD 1 = %v, want [[3 1 2] [2 0]]", g)
	}
	rk.CD = CriticalDifference(4, 14)
	d := rk.Diagram([]string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}, 60)
	for _, want := range []string{"CD 1.25", "C4.5+m+cf", "no difference: C4.5+m+cf, C4.5+m, C4.5+cf, C4.5"} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
}

// When every dataset ranks the models alike, F_F is unbounded: the p-value
// is χ²_F's (2 models, 2 datasets: χ² = 2 on 1 df, p = 0.1573, from
// scipy.stats.chi2.sf(2, 1)), not a certain difference.
func TestFriedmanUnanimous(t *testing.T) {
	chi, ff, p := Friedman([]float64{1, 2}, 2)
	if chi != 2 || !math.IsNaN(ff) || !near(p, 0.15729920705028105, 1e-12) {
		t.Errorf("Friedman = %g, F = %g, p = %g; want 2, NaN, 0.1573", chi, ff, p)
	}
}

func TestRankRowTies(t *testing.T) {
	if got := rankRow("accuracy", []float64{0.9, 0.8, 0.9, 0.7}); !reflect.DeepEqual(got, []float64{1.5, 3, 1.5, 4}) {
		t.Errorf("accuracy ranks = %v", got)
	}
	if got := rankRow("error", []float64{0.1, 0.3, 0.2}); !reflect.DeepEqual(got, []float64{1, 3, 2}) {
		t.Errorf("error ranks = %v", got)
	}
}

// Every model of a dataset and repeat is scored on the same folds, other
// repeats draw other folds, and the results do not depend on the jobs.
func TestIdenticalFoldsAndJobs(t *testing.T) {
	iris := open(t, "iris")
	plan := Plan{Datasets: []*datasets.Dataset{iris}, Models: models(t, "lda", "knn:k=5", "tree"), Folds: 3, Repeats: 2, Seed: 7, Jobs: 1}
	one, err := Run(context.Background(), plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := drawFolds(plan)
	for r := range 2 {
		want, _, _ := eval.Plan(iris, eval.Options{Folds: 3, Seed: 7 + uint64(r)})
		if !reflect.DeepEqual(folds[0][r], want) {
			t.Errorf("repeat %d: folds are not those of seed %d", r+1, 7+r)
		}
	}
	if reflect.DeepEqual(folds[0][0], folds[0][1]) {
		t.Error("both repeats drew the same folds")
	}
	plan.Jobs = 2
	two, err := Run(context.Background(), plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Cells {
		a, b := one.Cells[i], two.Cells[i]
		if a.Err != nil || len(a.Folds) != 3 || !reflect.DeepEqual(a.Folds, b.Folds) {
			t.Fatalf("cell %d: 1 job %v %v, 2 jobs %v", i, a.Err, a.Folds, b.Folds)
		}
	}
	var csv bytes.Buffer
	if err := one.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if lines[0] != "dataset,model,repeat,fold,metric,value" || !strings.HasPrefix(lines[1], "iris,lda,1,1,") {
		t.Errorf("CSV starts %q", lines[:2])
	}
}

func TestCancelKeepsFinished(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	plan := Plan{Datasets: []*datasets.Dataset{open(t, "iris")}, Models: models(t, "lda", "knn"), Folds: 3, Repeats: 3, Jobs: 1}
	o, err := Run(ctx, plan, func(p Progress) {
		if p.Done == 2 {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// Cells run repeat by repeat: both models finished the first repeat,
	// so they can still be compared.
	if !o.Cancelled || o.Cell(0, 0, 0).Err != nil || o.Cell(0, 1, 0).Err != nil || o.Cell(0, 0, 2).Err == nil {
		t.Errorf("cancelled %v, lda/knn in repeat 1: %v/%v, lda in repeat 3: %v", o.Cancelled, o.Cell(0, 0, 0).Err, o.Cell(0, 1, 0).Err, o.Cell(0, 0, 2).Err)
	}
	if s := o.Stat(0, 1, "accuracy"); s.N != 3 || s.Mark == NoTest {
		t.Errorf("knn after the cancel: %+v, want 3 folds tested against lda", s)
	}
	if f := o.Failures(); len(f) != 0 {
		t.Errorf("interrupted runs listed as failures: %v", f)
	}
}

func TestParseModel(t *testing.T) {
	m, err := ParseModel(" knn:k=5, metric=l1 ")
	if err != nil || m.Spec.Name != "knn" || m.Values.Int("k") != 5 || m.Values.String("metric") != "l1" {
		t.Fatalf("got %+v, %v", m, err)
	}
	// A list parameter's values continue after its =, up to the next name.
	m, err = ParseModel("mlp:hidden=8,4,epochs=20")
	if err != nil || fmt.Sprint(m.Values.Ints("hidden")) != "[8 4]" || m.Values.Int("epochs") != 20 {
		t.Fatalf("a list parameter: got %+v, %v", m.Values, err)
	}
	for in, want := range map[string]string{
		"knn:k=5,6":   `"5,6" is not a whole number`,
		"nope":        `unknown model "nope"`,
		"knn:k":       `"k" is not param=value`,
		"knn:k=0":     "k",
		"knn:q=1":     `no parameter "q"`,
		"knn:k=3,k=4": "given twice",
	} {
		if _, err := ParseModel(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseModel(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

func TestCheck(t *testing.T) {
	iris := open(t, "iris")
	for _, p := range []Plan{
		{Datasets: []*datasets.Dataset{iris}, Models: models(t, "lda"), Folds: 1, Repeats: 1},
		{Datasets: []*datasets.Dataset{iris}, Models: models(t, "lda"), Folds: 3, Repeats: 0},
		{Datasets: []*datasets.Dataset{iris}, Models: models(t, "lda"), Folds: 3, Repeats: 1, Baseline: 1},
		{Datasets: []*datasets.Dataset{iris}, Models: models(t, "linear"), Folds: 3, Repeats: 1},
	} {
		if _, err := Run(context.Background(), p, nil); err == nil {
			t.Errorf("plan %+v ran", p)
		}
	}
}

// Friedman's test over 2-3 datasets printed its p-value as if the χ²
// approximation held: with fewer than FewDatasets datasets the text, the
// Markdown and the JSON say it is a rough guide; with five they do not.
func TestFriedmanFewDatasetsCaveat(t *testing.T) {
	run := func(sources ...string) *Outcome {
		p := Plan{Models: models(t, "gnb", "centroid"), Folds: 2, Repeats: 1, Seed: 1, Jobs: 1}
		for _, s := range sources {
			p.Datasets = append(p.Datasets, open(t, s))
		}
		o, err := Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	few := run("iris", "wine", "moons:n=60")
	cols := few.Columns(nil)
	var text, md bytes.Buffer
	if err := few.WriteRanking(&text, RankMetric(cols), 72); err != nil {
		t.Fatal(err)
	}
	if err := few.WriteMarkdown(&md, cols); err != nil {
		t.Fatal(err)
	}
	const caveat = "with 3 datasets (fewer than 5) the χ² and F approximations behind p are poor"
	for name, out := range map[string]string{"text": text.String(), "Markdown": md.String(), "JSON": few.Summarise(cols).Ranking.Caveat} {
		if !strings.Contains(out, caveat) {
			t.Errorf("%s lacks the small-sample caveat:\n%s", name, out)
		}
	}
	enough := run("iris", "wine", "moons:n=60", "blobs:n=60", "circles:n=60")
	if c := enough.Rank(RankMetric(enough.Columns(nil))).SmallSample(); c != "" {
		t.Errorf("five datasets: %q", c)
	}
}
