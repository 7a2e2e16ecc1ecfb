package eval

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Fakes for the platform: a model that keeps the Train it was given (raw
// nominal codes and missing values, or the defaults), one that warns, a
// clustering that labels its own rows without predicting, and a reduction.
// What a fake was given is kept in the fake itself (the model a Result
// shows), never in a package variable, so that tests may run in parallel.

func init() {
	engine.Register(engine.Spec{
		Name: "evalraw", Title: "raw input", Family: "test",
		Tasks: []engine.Task{datasets.Classification},
		Input: engine.Input{Nominal: true, Missing: true},
		New:   func(engine.Values) (engine.Model, error) { return &rawModel{}, nil },
	})
	engine.Register(engine.Spec{
		Name: "evalwarn", Title: "warner", Family: "test",
		Tasks: []engine.Task{datasets.Classification},
		New:   func(engine.Values) (engine.Model, error) { return &warnModel{fakeModel: &fakeModel{steps: 2}}, nil },
		Advise: func(cols []datasets.Column) []advice.Warning {
			return []advice.Warning{{Text: "advice about " + cols[0].Name}}
		},
	})
	engine.Register(engine.Spec{
		Name: "evallabeler", Title: "labeler", Family: "test",
		Tasks: []engine.Task{datasets.Clustering},
		New:   func(engine.Values) (engine.Model, error) { return &labelModel{}, nil },
	})
	engine.Register(engine.Spec{
		Name: "evalreduce", Title: "reduction", Family: "test",
		Tasks: []engine.Task{datasets.Reduction},
		New:   func(engine.Values) (engine.Model, error) { return &reduceModel{}, nil },
	})
}

// rawModel predicts the majority class and keeps what it was given.
type rawModel struct {
	fitted bool
	seen   engine.Train
}

func (m *rawModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.seen = d
	m.fitted = true
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (m *rawModel) Predict(X mat.Matrix) ([]float64, error) {
	n, _ := X.Dims()
	return make([]float64, n), nil
}

// warnModel is the fake classifier with a warning after every fit, naming
// the rows it was fitted on.
type warnModel struct{ *fakeModel }

func (m *warnModel) Warnings() []string {
	n, _ := m.trainX.Dims()
	return []string{fmt.Sprintf("the fit on %d rows was shaky", n)}
}

// labelModel labels its training rows by the sign of the first feature and
// cannot predict new ones; it keeps what it was given.
type labelModel struct {
	labels []int
	seen   engine.Train
}

func (m *labelModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.seen = d
	n := d.Rows()
	m.labels = make([]int, n)
	for i := range n {
		if d.X.At(i, 0) > 0 {
			m.labels[i] = 1
		}
	}
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (m *labelModel) TrainingLabels() []int { return m.labels }

// reduceModel keeps the first column, explaining half the variance.
type reduceModel struct{ fitted bool }

func (m *reduceModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.fitted = true
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (m *reduceModel) Transform(X mat.Matrix) (*mat.Dense, error) {
	n, _ := X.Dims()
	Z := mat.NewDense(n, 1, nil)
	for i := range n {
		Z.Set(i, 0, X.At(i, 0))
	}
	return Z, nil
}

func (m *reduceModel) Components() *engine.Components {
	return &engine.Components{Names: []string{"c1"}, Vectors: mat.NewDense(1, 1, []float64{1}), Variance: []float64{2}, Ratio: []float64{0.5}}
}

// nominalData has a numeric column with a missing value, a nominal column
// with a missing value and a class.
func nominalData() *datasets.Dataset {
	n := 40
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		X.Set(i, 0, float64(i))
		X.Set(i, 1, float64(i%3))
		y[i] = float64(i % 2)
	}
	X.Set(5, 0, math.NaN())
	X.Set(6, 1, math.NaN())
	return &datasets.Dataset{Name: "nominal", X: X, Y: y, Classes: []string{"no", "yes"}, Task: datasets.Classification,
		Features: []datasets.Column{{Name: "num", Missing: 1}, {Name: "colour", Kind: datasets.Nominal, Levels: []string{"red", "green", "blue"}, Missing: 1}}}
}

// A model that asks for raw input gets level codes, NaN and the columns'
// kinds; by default nominal columns are one-hot encoded and missing values
// imputed.
func TestInputReachesTheModel(t *testing.T) {
	d := nominalData()
	res := run(t, d, "evalraw", nil, Options{Seed: 1, Split: 0.25})
	raw, ok := res.Fitted.(*rawModel)
	if !ok {
		t.Fatalf("the model shown is a %T", res.Fitted)
	}
	tr := raw.seen
	if tr.Rows() != 30 {
		t.Errorf("fitted on %d rows, want the training part's 30", tr.Rows())
	}
	want := []datasets.Column{{Name: "num", Missing: 1}, {Name: "colour", Kind: datasets.Nominal, Levels: []string{"red", "green", "blue"}, Missing: 1}}
	if !reflect.DeepEqual(tr.Columns, want) {
		t.Errorf("columns %+v, want %+v", tr.Columns, want)
	}
	nan := 0
	for i := range tr.Rows() {
		for j, v := range tr.X.RawRowView(i) {
			switch {
			case math.IsNaN(v):
				nan++
			case j == 1 && (v != math.Trunc(v) || v < 0 || v > 2):
				t.Errorf("row %d: colour %v is not a level code", i, v)
			}
		}
	}
	if nan != 2 {
		t.Errorf("%d missing values reached the model, want 2", nan)
	}
	if res.Rows != 40 {
		t.Errorf("rows %d", res.Rows)
	}
	// The fake classifier does not take raw input: it sees one-hot columns.
	res = run(t, d, "evalfake", nil, Options{Seed: 1, Split: 0.25})
	if f := res.PreparedFeatures(); !reflect.DeepEqual(f, []string{"num", "colour=red", "colour=green", "colour=blue"}) {
		t.Errorf("prepared features %v", f)
	}
}

// Under cross-validation every fold's history is kept, and the model shown
// is refit on all rows (or, with NoRefit, fold 1's).
func TestFoldHistoriesAndRefit(t *testing.T) {
	d := blobs(60, 2, 1)
	var finals int
	res, err := Run(context.Background(), d, spec(t, "evalfake"), nil, Options{Folds: 3, Seed: 1}, func(p Progress) {
		if p.Final {
			finals++
			if p.Fold != 4 || p.Folds != 3 {
				t.Errorf("final progress %+v, want fold 4 of 3", p)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.FoldHistories) != 3 || len(res.FoldHistories[1]) != 5 || &res.FoldHistories[0][0] != &res.History[0] {
		t.Errorf("fold histories %d, want 3 of 5 steps, the first being History", len(res.FoldHistories))
	}
	if r, _ := res.Fitted.(*fakeModel).trainX.Dims(); r != 60 || !strings.HasPrefix(res.FittedOn, "all 60 rows") || finals != 5 {
		t.Errorf("shown model fitted on %d rows (%q), %d final steps; want all 60 and 5", r, res.FittedOn, finals)
	}
	if res.Learned["coefficients"] == nil {
		t.Error("the refit model's coefficients are not kept")
	}
	res = run(t, d, "evalfake", nil, Options{Folds: 3, Seed: 1, NoRefit: true})
	if r, _ := res.Fitted.(*fakeModel).trainX.Dims(); r != 40 || !strings.Contains(res.FittedOn, "fold 1") {
		t.Errorf("NoRefit: shown model fitted on %d rows (%q), want fold 1's 40", r, res.FittedOn)
	}
	// A hold-out shows the model it scored, with one history.
	res = run(t, d, "evalfake", nil, Options{Seed: 1})
	if res.FoldHistories != nil || !strings.Contains(res.FittedOn, "48 training rows") {
		t.Errorf("hold-out: %d fold histories, shown %q", len(res.FoldHistories), res.FittedOn)
	}
}

// Cancelling part-way through cross-validation keeps the scores of the
// folds that finished, and says so.
func TestCancelKeepsFinishedFolds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Run(ctx, blobs(100, 2, 1), spec(t, "evalfake"), nil, Options{Folds: 5, Seed: 1}, func(p Progress) {
		if p.Fold == 3 && p.Point.Step == 2 {
			cancel()
		}
	})
	if err != context.Canceled || !res.Cancelled {
		t.Fatalf("err %v cancelled %v", err, res.Cancelled)
	}
	if len(res.Folds) != 2 || math.IsNaN(res.Metrics["accuracy"]) || res.Confusion.Total() != 40 {
		t.Errorf("%d folds scored, accuracy %v, %d rows in the confusion; want 2, a number, 40", len(res.Folds), res.Metrics["accuracy"], res.Confusion.Total())
	}
	if !strings.Contains(res.Eval, "cancelled: scores of the 2 folds of 5 that finished") {
		t.Errorf("eval %q does not say what the scores are", res.Eval)
	}
	if len(res.FoldHistories) != 3 {
		t.Errorf("%d fold histories, want the 3 begun", len(res.FoldHistories))
	}
}

// Warnings reach the result once each: the model's after every fold, once
// with the number of folds that raised it and the range of its numbers,
// its spec's advice on the columns, free-text columns, long
// leave-one-out.
func TestWarnings(t *testing.T) {
	res := run(t, blobs(60, 2, 1), "evalwarn", nil, Options{Folds: 3, Seed: 1})
	// Three folds fit 40 rows each, the final fit all 60.
	want := []string{"advice about x", "in 3 of 3 folds and the final fit on all rows: the fit on 40–60 rows was shaky"}
	if !reflect.DeepEqual(texts(res.Warnings), want) || !reflect.DeepEqual(res.WarningFolds, []int{0, 3}) {
		t.Errorf("warnings %q in %v folds, want %q in [0 3]", res.Warnings, res.WarningFolds, want)
	}
	d := blobs(600, 2, 1)
	ids := make([]string, 300)
	for i := range ids {
		ids[i] = "id" + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	d.Features[2] = datasets.Column{Name: "name", Kind: datasets.Nominal, Levels: ids}
	for i := range 600 {
		d.X.Set(i, 2, float64(i%300)) // two rows a name: free text, not an identifier
	}
	res, err := Run(context.Background(), d, spec(t, "evalraw"), nil, Options{LOO: true, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var loo, free bool
	for _, w := range texts(res.Warnings) {
		loo = loo || strings.Contains(w, "leave-one-out on 600 rows means 600 fits")
		free = free || strings.Contains(w, `column "name" has 300 distinct values`) && strings.HasSuffix(w, "; drop it")
	}
	if !loo || !free {
		t.Errorf("warnings %q: want the leave-one-out and free-text ones", res.Warnings)
	}
}

// A clustering runs on labelled data without learning the labels: it gets
// no target, only the number of known classes, and is scored against them.
func TestClusteringLabelledData(t *testing.T) {
	res := run(t, blobs(60, 2, 1), "evallabeler", nil, Options{Seed: 1})
	lab, ok := res.Fitted.(*labelModel)
	if !ok {
		t.Fatalf("the model shown is a %T", res.Fitted)
	}
	if got := lab.seen; got.Rows() != 60 || got.Y != nil || got.Classes != nil || got.KnownClasses != 2 {
		t.Fatalf("the clustering was given %+v", got)
	}
	if res.Task != "clustering" || !strings.Contains(res.Eval, "scored against the known classes") {
		t.Errorf("task %q eval %q", res.Task, res.Eval)
	}
	if !(res.Metrics["ari"] > 0.9) || !(res.Metrics["nmi"] > 0.9) || res.Baseline["nmi"] != 0 {
		t.Errorf("metrics %v baseline %v", res.Metrics, res.Baseline)
	}
	if l, ok := res.Learned["labels"].([]int); !ok || len(l) != 60 {
		t.Errorf("labels not kept: %T", res.Learned["labels"])
	}
}

// A reduction transforms every row and reports what it keeps.
func TestReduction(t *testing.T) {
	res := run(t, blobs(30, 3, 1), "evalreduce", nil, Options{Seed: 1})
	if res.Task != "reduction" || res.Embedding == nil || res.Metrics["components"] != 1 || res.Metrics["explained_variance"] != 0.5 {
		t.Errorf("task %q metrics %v", res.Task, res.Metrics)
	}
	if r, c := res.Embedding.Dims(); r != 30 || c != 1 {
		t.Errorf("embedding %dx%d", r, c)
	}
	if res.Learned["components"] == nil {
		t.Error("components not kept")
	}
}

// Plan is exported: the same options give the same folds, and given folds
// are used as they are.
func TestPlanReuse(t *testing.T) {
	d := blobs(50, 2, 1)
	a, desc, err := Plan(d, Options{Folds: 5, Seed: 3})
	if err != nil || desc != "stratified 5-fold CV" {
		t.Fatal(err, desc)
	}
	b, _, _ := Plan(d, Options{Folds: 5, Seed: 3})
	if !reflect.DeepEqual(a, b) {
		t.Error("same options, different folds")
	}
	res := run(t, d, "evalfake", nil, Options{Plan: a[:2], PlanDesc: "two folds of five"})
	if len(res.Folds) != 2 || res.Eval != "two folds of five" {
		t.Errorf("given plan: %d folds, eval %q", len(res.Folds), res.Eval)
	}
	if _, _, err := Plan(d, Options{Plan: []Fold{{Train: []int{0}, Test: []int{99}}}}); err == nil {
		t.Error("a plan naming a row that does not exist was accepted")
	}
}

// A nominal column with a distinct level in every row is warned about once,
// as a row identifier, not a second time as free text.
func TestIdentifierNotAlsoFreeText(t *testing.T) {
	d := blobs(600, 2, 1)
	ids := make([]string, 600)
	for i := range ids {
		ids[i] = "row" + strconv.Itoa(i)
		d.X.Set(i, 2, float64(i))
	}
	d.Features[2] = datasets.Column{Name: "name", Kind: datasets.Nominal, Levels: ids}
	res, err := Run(context.Background(), d, spec(t, "evalraw"), nil, Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var about []string
	for _, w := range texts(res.Warnings) {
		if strings.Contains(w, `column "name"`) {
			about = append(about, w)
		}
	}
	if len(about) != 1 || !strings.Contains(about[0], "looks like a row identifier (600 distinct values, one per row)") {
		t.Errorf("warnings about the column %q, want the identifier one alone", about)
	}
}
