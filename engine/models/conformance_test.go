package models_test

// The conformance suite: one set of checks run over every registered model
// (the rules in engine/model.go's package comment). It ranges over
// engine.Specs(), so a family added to models.go is checked with no change
// here. Each check recovers panics and fails naming the model.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	_ "github.com/tealab/tealab/engine/models"
	"github.com/tealab/tealab/internal/sweep"
)

// builtin loads a built-in set once: target "" is the last column,
// datasets.NoTarget gives a clustering set.
var builtinCache sync.Map

func builtin(t *testing.T, name, target string) *datasets.Dataset {
	t.Helper()
	key := name + "|" + target
	if d, ok := builtinCache.Load(key); ok {
		return d.(*datasets.Dataset)
	}
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset(target, datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	builtinCache.Store(key, d)
	return d
}

// guard runs f and turns a panic into a test failure naming the model.
func guard(t *testing.T, model, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("model %s panicked in %s: %v\n%s", model, what, p, debug.Stack())
		}
	}()
	f()
}

// The built-ins too slow for every run (digits), for every model: the
// "builtins" check of TestConformance.
func TestConformanceSlowSetsLong(t *testing.T) {
	sweep.Skip(t, "every model on digits")
	for _, s := range engine.Specs() {
		t.Run(s.Name, func(t *testing.T) { checkBuiltins(t, s, true) })
	}
}

func TestConformance(t *testing.T) {
	t.Parallel()
	specs := engine.Specs()
	if len(specs) == 0 {
		t.Fatal("no models registered")
	}
	for _, s := range specs {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel() // a model's checks share nothing with another's
			t.Run("spec", func(t *testing.T) { checkSpec(t, s) })
			t.Run("bad_params", func(t *testing.T) { checkBadParams(t, s) })
			t.Run("builtins", func(t *testing.T) { checkBuiltins(t, s, false) })
			t.Run("deterministic", func(t *testing.T) { checkDeterministic(t, s) })
			t.Run("leaves_data", func(t *testing.T) { checkLeavesData(t, s) })
			t.Run("not_fitted", func(t *testing.T) { checkNotFitted(t, s) })
			t.Run("failed_unfits", func(t *testing.T) { checkFailedUnfits(t, s) })
			t.Run("nan_input", func(t *testing.T) { checkNaN(t, s) })
			t.Run("degenerate", func(t *testing.T) { checkDegenerate(t, s) })
			t.Run("cancel", func(t *testing.T) { checkCancel(t, s) })
			t.Run("predict_in_step", func(t *testing.T) { checkPredictInStep(t, s) })
			t.Run("stopped_early", func(t *testing.T) { checkStoppedEarly(t, s) })
			t.Run("concurrent", func(t *testing.T) { checkConcurrent(t, s) })
		})
	}
}

// maxHelp is the longest one-line help of a parameter.
const maxHelp = 110

// checkSpec: the registry entry is complete and every default round-trips
// through ParseValue with the type its kind says.
func checkSpec(t *testing.T, s *engine.Spec) {
	for what, v := range map[string]string{"Title": s.Title, "Family": s.Family, "Summary": s.Summary, "Notes": s.Notes} {
		if v == "" {
			t.Errorf("model %s: empty %s", s.Name, what)
		}
	}
	seen := map[string]bool{}
	for _, p := range s.Params {
		if seen[p.Name] {
			t.Errorf("model %s: parameter %s twice", s.Name, p.Name)
		}
		seen[p.Name] = true
		if p.Help == "" {
			t.Errorf("model %s: parameter %s has no help", s.Name, p.Name)
		}
		// One line beside the value in a form or a table; the rest, if
		// any, in sentences in Detail.
		if n := utf8.RuneCountInString(p.Help); n > maxHelp || strings.ContainsAny(p.Help, "\n\t") {
			t.Errorf("model %s: parameter %s: help of %d characters or on several lines; keep %d on one line and put the rest in Detail: %q",
				s.Name, p.Name, n, maxHelp, p.Help)
		}
		if p.Detail != "" && (!strings.HasSuffix(p.Detail, ".") || strings.Contains(p.Detail, "\n")) {
			t.Errorf("model %s: parameter %s: detail %q is not sentences on one line, ending with a full stop", s.Name, p.Name, p.Detail)
		}
		var want reflect.Kind
		switch p.Kind {
		case engine.Int:
			want = reflect.Int
		case engine.Float:
			want = reflect.Float64
		case engine.Bool:
			want = reflect.Bool
		case engine.Ints:
			want = reflect.Slice
		default:
			want = reflect.String
		}
		if k := reflect.ValueOf(p.Default).Kind(); k != want {
			t.Errorf("model %s: parameter %s (%s) has a %s default %v", s.Name, p.Name, p.Kind, k, p.Default)
			continue
		}
		got, err := p.ParseValue(engine.Format(p.Default))
		if err != nil || !reflect.DeepEqual(got, p.Default) {
			t.Errorf("model %s: parameter %s: default %v parses back as %v, %v", s.Name, p.Name, p.Default, got, err)
		}
		if p.Kind == engine.Choice && !slices.Contains(p.Choices, p.Default.(string)) {
			t.Errorf("model %s: parameter %s: default %q is not a choice", s.Name, p.Name, p.Default)
		}
	}
	guard(t, s.Name, "New", func() {
		m, err := s.New(s.Defaults())
		if err != nil {
			t.Errorf("model %s: New(defaults): %v", s.Name, err)
			return
		}
		// What each task needs of a fitted model (engine/model.go).
		for _, task := range s.Tasks {
			_, pred := m.(engine.Predictor)
			_, lab := m.(engine.Labeler)
			_, tf := m.(engine.Transformer)
			switch {
			case task.Supervised() && !pred:
				t.Errorf("model %s does %s but is not an engine.Predictor", s.Name, task)
			case task == datasets.Clustering && !pred && !lab:
				t.Errorf("model %s clusters but is neither an engine.Labeler nor an engine.Predictor", s.Name)
			case task == datasets.Reduction && !tf:
				t.Errorf("model %s reduces but is not an engine.Transformer", s.Name)
			}
		}
	})
}

// task sets: the built-ins a model of each task is fitted on.
type taskSet struct {
	name, target string
	slow         bool // a long sweep (package sweep): TestConformanceSlowSetsLong
}

var taskSets = map[engine.Task][]taskSet{
	datasets.Classification: {{"iris", "", false}, {"wine", "", false}, {"breast_cancer", "", false}, {"digits", "", true}},
	datasets.Regression:     {{"diabetes", "", false}},
	datasets.Clustering:     {{"iris", "", false}, {"wine", "", false}},
	datasets.Reduction:      {{"iris", "", false}, {"wine", "", false}},
}

// settings overrides a model's defaults on one built-in where the defaults
// cannot work by design, with the reason. The check still has to beat the
// baseline with them.
var settings = map[string]map[string]string{
	// Pixels that are constant within a class make every class covariance
	// singular; plain QDA (reg=0, as Shewchuk's lecture 7 fits it)
	// cannot invert it. Shrinkage can.
	"qda/digits": {"reg": "0.1"},
	// A regression tree grown until every leaf holds one row memorises
	// diabetes' noise (scikit-learn's default tree scores R2 below 0 on it
	// too); a stopping rule (Shewchuk, Concise Machine Learning,
	// lectures 14-15) is what the model is for.
	"tree/diabetes": {"min_samples_leaf": "20"},
	// A convolutional network learns from images: it infers a square one
	// from the columns' count, and wine's 13 and breast_cancer's 30 are not
	// square, so their rows are laid out as strips and rectangles.
	"cnn/wine":          {"shape": "1x13"},
	"cnn/breast_cancer": {"shape": "5x6"},
}

// checkBadParams: the registry refuses a value beyond each end of a
// parameter's range, or not among its choices, naming the parameter. Fit
// takes the values as valid, so this is their only check.
func checkBadParams(t *testing.T, s *engine.Spec) {
	for _, p := range s.Params {
		var bad []string
		switch p.Kind {
		case engine.Int, engine.Float:
			for _, b := range []struct{ bound, dir float64 }{{p.Min, -1}, {p.Max, 1}} {
				if !math.IsNaN(b.bound) {
					bad = append(bad, engine.Format(b.bound+b.dir*max(1, math.Abs(b.bound))))
				}
			}
		case engine.Choice:
			bad = append(bad, "no-such-choice")
		case engine.Ints:
			bad = append(bad, "", "1,,2")
		}
		for _, text := range bad {
			_, _, _, err := engine.New(s.Name, map[string]string{p.Name: text})
			if err == nil || !strings.Contains(err.Error(), "parameter "+p.Name+":") {
				t.Errorf("model %s: %s=%s gave %v, want an error naming the parameter", s.Name, p.Name, text, err)
			}
		}
	}
}

// runEval evaluates s on a built-in with a stratified hold-out (clustering
// and reduction: all rows, scored against the classes).
func runEval(t *testing.T, s *engine.Spec, task engine.Task, ts taskSet, seed uint64) (res *eval.Result, err error) {
	d := builtin(t, ts.name, ts.target)
	opt := eval.DefaultOptions()
	opt.Seed = seed
	v, err := s.Parse(settings[s.Name+"/"+ts.name])
	if err != nil {
		t.Fatal(err)
	}
	guard(t, s.Name, "eval.Run on "+ts.name, func() {
		res, err = eval.Run(context.Background(), d, s, v, opt, nil)
	})
	if errors.Is(err, eval.ErrPanic) {
		var pe *eval.PanicError
		errors.As(err, &pe)
		t.Errorf("model %s panicked on %s: %v\n%s", s.Name, ts.name, err, pe.Stack)
	}
	return res, err
}

// checkBuiltins: on every built-in of its tasks the model beats the baseline
// on held-out rows (accuracy; R2; adjusted Rand index); the slow ones or the
// others.
func checkBuiltins(t *testing.T, s *engine.Spec, slow bool) {
	for _, task := range s.Tasks {
		for _, ts := range taskSets[task] {
			if ts.slow != slow {
				continue
			}
			res, err := runEval(t, s, task, ts, 1)
			if err != nil {
				t.Errorf("model %s on %s: %v", s.Name, ts.name, err)
				continue
			}
			if res.Task != task.String() {
				t.Errorf("model %s on %s ran %s, want %s", s.Name, ts.name, res.Task, task)
			}
			if task == datasets.Reduction {
				if r, _ := res.Embedding.Dims(); res.Embedding == nil || r != res.Rows || !(res.Metrics["components"] >= 1) {
					t.Errorf("model %s on %s: no embedding of the %d rows", s.Name, ts.name, res.Rows)
				}
				continue
			}
			key := map[engine.Task]string{datasets.Classification: "accuracy", datasets.Regression: "r2", datasets.Clustering: "ari"}[task]
			got, base := res.Metrics[key], res.Baseline[key]
			if !(got > base) {
				t.Errorf("model %s on %s: %s %.4f does not beat the baseline's %.4f", s.Name, ts.name, key, got, base)
			}
			if len(res.History) == 0 {
				t.Errorf("model %s on %s: no history", s.Name, ts.name)
			}
			if task.Supervised() && ts == taskSets[task][0] && !liveValidation(res.History) {
				t.Errorf("model %s on %s: reports %d steps but no step before the last has a validation error: "+
					"Predict called from inside Recorder.Step fails, so the live validation curve stays empty "+
					"(engine/model.go: a Recorder may predict with the model mid-fit); make Predict and PredictProba use the current state during Fit",
					s.Name, ts.name, len(res.History))
			}
			t.Logf("%s on %s: %s %.4f (baseline %.4f), %d steps, %.3fs", s.Name, ts.name, key, got, base, len(res.History), res.FitSecs)
		}
	}
}

// liveValidation reports whether eval could validate the model mid-fit: a
// history of two or more steps has a validation error before its last step
// (which eval fills in after Fit returns).
func liveValidation(h []eval.Point) bool {
	if len(h) < 2 {
		return true
	}
	for _, p := range h[:len(h)-1] {
		if !math.IsNaN(p.ValError) {
			return true
		}
	}
	return false
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// checkDeterministic: two runs with the same seed give the same predictions
// and the same history, bit for bit.
func checkDeterministic(t *testing.T, s *engine.Spec) {
	task := s.Tasks[0]
	ts := taskSets[task][0]
	a, errA := runEval(t, s, task, ts, 42)
	b, errB := runEval(t, s, task, ts, 42)
	if errA != nil || errB != nil {
		t.Fatalf("model %s: %v / %v", s.Name, errA, errB)
	}
	if !sameFloats(a.Predicted, b.Predicted) {
		t.Errorf("model %s: same seed, different predictions", s.Name)
	}
	if a.Embedding != nil && !sameFloats(a.Embedding.RawMatrix().Data, b.Embedding.RawMatrix().Data) {
		t.Errorf("model %s: same seed, different embeddings", s.Name)
	}
	if len(a.History) != len(b.History) {
		t.Fatalf("model %s: same seed, %d and %d steps", s.Name, len(a.History), len(b.History))
	}
	for i := range a.History {
		pa, pb := a.History[i], b.History[i]
		if !sameFloats([]float64{pa.TrainLoss, pa.ValLoss, pa.ValError}, []float64{pb.TrainLoss, pb.ValLoss, pb.ValError}) || pa.Step != pb.Step {
			t.Errorf("model %s: same seed, history differs at point %d: %+v vs %+v", s.Name, i, pa, pb)
			break
		}
	}
}

// checkLeavesData: a run leaves the data's rows as they were. Preprocessing
// that changes nothing hands a model the dataset's own rows, not a copy (a
// clustering's, or the refit on every row after cross-validation), so a
// model must only read Train.X.
func checkLeavesData(t *testing.T, s *engine.Spec) {
	ts := taskSets[s.Tasks[0]][0]
	tab, err := datasets.Open(ts.name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset(ts.target, datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	before := mat.DenseCopyOf(d.X)
	v, err := s.Parse(settings[s.Name+"/"+ts.name])
	if err != nil {
		t.Fatal(err)
	}
	opt := eval.DefaultOptions()
	opt.Folds = 3
	guard(t, s.Name, "eval.Run on "+ts.name, func() {
		_, err = eval.Run(context.Background(), d, s, v, opt, nil)
	})
	if err != nil {
		t.Fatalf("model %s on %s: %v", s.Name, ts.name, err)
	}
	if !mat.Equal(d.X, before) {
		t.Errorf("model %s changed the rows of %s it was given", s.Name, ts.name)
	}
}

// train builds a Train from the first rows of a built-in, features as loaded.
func train(t *testing.T, task engine.Task, rows int) engine.Train {
	var d *datasets.Dataset
	switch task {
	case datasets.Classification:
		d = builtin(t, "iris", "")
	case datasets.Regression:
		d = builtin(t, "diabetes", "")
	default:
		d = builtin(t, "iris", datasets.NoTarget) // no labels: nothing to learn from
	}
	if rows <= 0 || rows > d.Rows() {
		rows = d.Rows()
	}
	// Spread the rows over the classes: iris is sorted by class.
	idx := make([]int, rows)
	for i := range idx {
		idx[i] = (i * d.Rows() / rows) % d.Rows()
	}
	sub := d.Subset(idx)
	return engine.Train{X: mat.DenseCopyOf(sub.X), Y: sub.Y, Classes: d.Classes, Features: d.FeatureNames(), Seed: 1}
}

func newModel(t *testing.T, s *engine.Spec) engine.Model {
	m, err := s.New(s.Defaults())
	if err != nil {
		t.Fatalf("model %s: New: %v", s.Name, err)
	}
	return m
}

// checkNotFitted: Predict (and PredictProba, DecisionFunction) before Fit
// return engine.ErrNotFitted.
func checkNotFitted(t *testing.T, s *engine.Spec) {
	m := newModel(t, s)
	X := mat.NewDense(2, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	guard(t, s.Name, "Predict before Fit", func() {
		if p, ok := m.(engine.Predictor); ok {
			if _, err := p.Predict(X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("model %s: Predict before Fit: %v, want ErrNotFitted", s.Name, err)
			}
		}
		if p, ok := m.(engine.Transformer); ok {
			if _, err := p.Transform(X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("model %s: Transform before Fit: %v, want ErrNotFitted", s.Name, err)
			}
		}
		if p, ok := m.(engine.Prober); ok {
			if _, err := p.PredictProba(X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("model %s: PredictProba before Fit: %v, want ErrNotFitted", s.Name, err)
			}
		}
		if p, ok := m.(engine.Scorer); ok {
			if _, err := p.DecisionFunction(X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("model %s: DecisionFunction before Fit: %v, want ErrNotFitted", s.Name, err)
			}
		}
	})
}

// failRecorder fails the fit at step at, with its own error or a panic.
type failRecorder struct {
	at, steps int
	panic     bool
}

var errRecorder = errors.New("the recorder's own error")

func (r *failRecorder) Step(engine.Step) error {
	if r.steps++; r.steps == r.at {
		if r.panic {
			panic(errRecorder)
		}
		return errRecorder
	}
	return nil
}

// unfitted reports the first of Predict, Transform, PredictProba,
// DecisionFunction and MarshalState that does not refuse with
// engine.ErrNotFitted, as a model neither fitted nor loaded does.
func unfitted(m engine.Model, X mat.Matrix) error {
	var err error
	check := func(what string, e error) {
		if err == nil && !errors.Is(e, engine.ErrNotFitted) {
			err = fmt.Errorf("%s gives %v, want ErrNotFitted", what, e)
		}
	}
	if p, ok := m.(engine.Predictor); ok {
		_, e := p.Predict(X)
		check("Predict", e)
	}
	if p, ok := m.(engine.Transformer); ok {
		_, e := p.Transform(X)
		check("Transform", e)
	}
	if p, ok := m.(engine.Prober); ok {
		_, e := p.PredictProba(X)
		check("PredictProba", e)
	}
	if p, ok := m.(engine.Scorer); ok {
		_, e := p.DecisionFunction(X)
		check("DecisionFunction", e)
	}
	if p, ok := m.(engine.Persistent); ok {
		_, e := p.MarshalState()
		check("MarshalState", e)
	}
	return err
}

// checkFailedUnfits: a fit through engine.Fit that fails leaves the model
// unfitted, though an earlier fit succeeded and this one published a state
// before its recorder failed it (with an error, or a panic), or was
// refused its rows.
func checkFailedUnfits(t *testing.T, s *engine.Spec) {
	for _, task := range s.Tasks {
		tr := train(t, task, 0)
		X := tr.X.Slice(0, 5, 0, tr.Cols())
		m := newModel(t, s)
		for _, c := range []struct {
			name string
			fail func() error
		}{
			{"its recorder failed it at the first step", func() error {
				return engine.Fit(context.Background(), m, tr, &failRecorder{at: 1})
			}},
			{"its recorder panicked at the first step", func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return engine.Fit(context.Background(), m, tr, &failRecorder{at: 1, panic: true})
			}},
			{"its rows were refused", func() error {
				return engine.Fit(context.Background(), m, engine.Train{Classes: tr.Classes, Seed: tr.Seed}, nil)
			}},
		} {
			guard(t, s.Name, "Fit", func() {
				if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
					t.Fatalf("model %s (%s): Fit: %v", s.Name, task, err)
				}
				if err := c.fail(); err == nil {
					t.Fatalf("model %s (%s): the fit did not fail though %s", s.Name, task, c.name)
				}
				if err := unfitted(m, X); err != nil {
					t.Errorf("model %s (%s): a fit failed (%s), yet %v", s.Name, task, c.name, err)
				}
			})
		}
	}
}

// checkNaN: NaN in X passed straight to Fit is an error, not a panic and not
// a fit, unless the model takes missing values (Spec.Input.Missing): then it
// fits, and its predictions are sane for rows with missing values too.
func checkNaN(t *testing.T, s *engine.Spec) {
	for _, task := range s.Tasks {
		tr := train(t, task, 0)
		tr.X.Set(7, 2, math.NaN())
		m := newModel(t, s)
		guard(t, s.Name, "Fit with NaN", func() {
			err := engine.Fit(context.Background(), m, tr, engine.NopRecorder{})
			switch {
			case !s.Input.Missing && err == nil:
				t.Errorf("model %s (%s): Fit accepted NaN in X (its spec does not take missing values)", s.Name, task)
			case s.Input.Missing && err != nil:
				t.Errorf("model %s (%s): takes missing values, but Fit refused one: %v", s.Name, task, err)
			case s.Input.Missing:
				checkSane(t, s, task, m, tr, "a missing value")
			}
		})
	}
}

// checkDegenerate: awkward data gives an error or a sane fit (predictions
// of the right length, valid class codes, finite values), never a panic.
func checkDegenerate(t *testing.T, s *engine.Spec) {
	type tcase struct {
		name string
		tr   engine.Train
	}
	for _, task := range s.Tasks {
		var cases []tcase
		full := train(t, task, 0)
		_, p := full.X.Dims()

		constCol := train(t, task, 0)
		for i := range constCol.Rows() {
			constCol.X.Set(i, 1, 3.5)
		}
		cases = append(cases, tcase{"constant column", constCol})

		few := train(t, task, p-1) // fewer rows than features
		cases = append(cases, tcase{"fewer rows than features", few})

		same := train(t, task, 10) // every row the same
		for i := range 10 {
			copy(same.X.RawRowView(i), full.X.RawRowView(0))
		}
		cases = append(cases, tcase{"identical rows", same})

		switch task {
		case datasets.Classification:
			one := train(t, task, 20)
			for i := range one.Y {
				one.Y[i] = 0
			}
			cases = append(cases, tcase{"one class present", one})
			oneName := one
			oneName.Classes = one.Classes[:1]
			cases = append(cases, tcase{"one class declared", oneName})
			two := train(t, task, 0)
			two.X, two.Y = mat.DenseCopyOf(two.X.Slice(0, 2, 0, p)), []float64{0, 1}
			cases = append(cases, tcase{"fewer rows than classes", two})
		case datasets.Regression:
			flat := train(t, task, 30)
			for i := range flat.Y {
				flat.Y[i] = 5
			}
			cases = append(cases, tcase{"constant target", flat})
		case datasets.Clustering:
			two := train(t, task, 2)
			cases = append(cases, tcase{"two rows", two})
		}
		for _, c := range cases {
			m := newModel(t, s)
			guard(t, s.Name, c.name, func() {
				err := engine.Fit(context.Background(), m, c.tr, engine.NopRecorder{})
				if err != nil {
					t.Logf("model %s (%s), %s: %v", s.Name, task, c.name, err)
					return
				}
				checkSane(t, s, task, m, c.tr, c.name)
			})
		}
	}
}

func checkSane(t *testing.T, s *engine.Spec, task engine.Task, m engine.Model, tr engine.Train, what string) {
	n := tr.Rows()
	if task == datasets.Reduction {
		Z, err := m.(engine.Transformer).Transform(tr.X)
		if err != nil {
			t.Errorf("model %s, %s: fitted, but Transform: %v", s.Name, what, err)
			return
		}
		if r, _ := Z.Dims(); r != n {
			t.Errorf("model %s, %s: %d rows transformed into %d", s.Name, what, n, r)
		}
		for _, v := range Z.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("model %s, %s: transformed value %v", s.Name, what, v)
				return
			}
		}
		return
	}
	if l, ok := m.(engine.Labeler); ok && task == datasets.Clustering {
		labels := l.TrainingLabels()
		if len(labels) != n {
			t.Errorf("model %s, %s: %d labels for %d rows", s.Name, what, len(labels), n)
		}
		for i, c := range labels {
			if c < 0 || c >= n {
				t.Errorf("model %s, %s: row %d in cluster %d", s.Name, what, i, c)
				return
			}
		}
		if _, ok := m.(engine.Predictor); !ok {
			return
		}
	}
	pred, err := m.(engine.Predictor).Predict(tr.X)
	if err != nil {
		t.Errorf("model %s, %s: fitted, but Predict: %v", s.Name, what, err)
		return
	}
	if len(pred) != n {
		t.Errorf("model %s, %s: %d predictions for %d rows", s.Name, what, len(pred), n)
		return
	}
	switch task {
	case datasets.Classification:
		if err := metrics.CheckCodes(pred, len(tr.Classes)); err != nil {
			t.Errorf("model %s, %s: %v", s.Name, what, err)
		}
		if p, ok := m.(engine.Prober); ok {
			P, err := p.PredictProba(tr.X)
			if err != nil {
				t.Errorf("model %s, %s: PredictProba: %v", s.Name, what, err)
				return
			}
			for i := range n {
				sum := 0.0
				for _, v := range P.RawRowView(i) {
					if !(v >= 0 && v <= 1) {
						t.Errorf("model %s, %s: probability %v in row %d", s.Name, what, v, i)
						return
					}
					sum += v
				}
				if math.Abs(sum-1) > 1e-6 {
					t.Errorf("model %s, %s: probabilities of row %d sum to %v", s.Name, what, i, sum)
					return
				}
			}
		}
	default:
		for i, v := range pred {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("model %s, %s: prediction %v for row %d", s.Name, what, v, i)
				return
			}
		}
	}
}
