package ensemble_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/ensemble"
	"github.com/tealab/tealab/engine/eval"
)

// sentinel is a member that writes down the rows every fit of it sees: the
// first feature of each row is the row's number in the data, which
// nothing else reads. It predicts by the nearest class mean of the second
// feature.
type sentinel struct {
	tag   int
	means []float64
	engine.FitState
}

var (
	sentinelMu   sync.Mutex
	sentinelFits = map[int][][]int{} // tag → the rows of each fit
)

func init() {
	engine.Register(engine.Spec{Name: "test-sentinel", Title: "row recorder (test)", Family: "test",
		Tasks: []engine.Task{datasets.Classification}, Unit: "pass",
		Params: []engine.Param{{Name: "tag", Kind: engine.Int, Default: 0, Min: 0, Max: 100, Help: "which list of fits it writes to"}},
		New:    func(v engine.Values) (engine.Model, error) { return &sentinel{tag: v.Int("tag")}, nil }})
	engine.Register(engine.Spec{Name: "test-panic", Title: "panics when fitted (test)", Family: "test",
		Tasks: []engine.Task{datasets.Classification}, Unit: "pass",
		New: func(engine.Values) (engine.Model, error) { return &panicker{}, nil }})
}

func (s *sentinel) Fit(_ context.Context, t engine.Train, rec engine.Recorder) error {
	rows := make([]int, t.Rows())
	sums, counts := make([]float64, len(t.Classes)), make([]float64, len(t.Classes))
	for i := range rows {
		rows[i] = int(t.X.At(i, 0))
		sums[int(t.Y[i])] += t.X.At(i, 1)
		counts[int(t.Y[i])]++
	}
	sentinelMu.Lock()
	sentinelFits[s.tag] = append(sentinelFits[s.tag], rows)
	sentinelMu.Unlock()
	s.means = make([]float64, len(sums))
	for c := range sums {
		s.means[c] = sums[c] / max(counts[c], 1)
	}
	s.Fitted = true
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (s *sentinel) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if !s.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, _ := X.Dims()
	P := mat.NewDense(n, len(s.means), nil)
	for i := range n {
		sum := 0.0
		for c, m := range s.means {
			d := X.At(i, 1) - m
			P.Set(i, c, math.Exp(-d*d))
			sum += P.At(i, c)
		}
		for c := range s.means {
			P.Set(i, c, P.At(i, c)/sum)
		}
	}
	return P, nil
}

func (s *sentinel) Predict(X mat.Matrix) ([]float64, error) {
	P, err := s.PredictProba(X)
	if err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(slices.Index(P.RawRowView(i), slices.Max(P.RawRowView(i))))
	}
	return out, nil
}

type panicker struct{ engine.FitState }

func (*panicker) Fit(context.Context, engine.Train, engine.Recorder) error { panic("boom") }
func (*panicker) Predict(mat.Matrix) ([]float64, error)                    { return nil, engine.ErrNotFitted }

// sentinelData is rows whose first feature is their number and second a
// noisy class signal.
func sentinelData(t *testing.T, n int) *datasets.Dataset {
	var b strings.Builder
	b.WriteString("row,x,class\n")
	for i := range n {
		c := i % 2
		fmt.Fprintf(&b, "%d,%g,c%d\n", i, float64(c)+0.3*math.Sin(float64(7*i)), c)
	}
	tab, err := datasets.ReadFrom(strings.NewReader(b.String()), "sentinel", "csv")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Classification)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestStackingNeverSeesHeldOutRows: under k-fold evaluation, no fit of any
// member, inner or outer, sees a row of the fold being held out; each
// member is fitted once on the whole training part and cv times on inner
// folds that partition that part (each row left out of exactly one inner
// fit). Voting's members see exactly the training part.
func TestStackingNeverSeesHeldOutRows(t *testing.T) {
	const n, folds, cv = 90, 3, 4
	d := sentinelData(t, n)
	off := false
	opt := eval.Options{Folds: folds, Seed: 7, NoRefit: true, Standardize: &off}
	for _, c := range []struct {
		model    string
		settings map[string]string
		inner    int
	}{
		{"stacking", map[string]string{"models": "test-sentinel[tag=1]+test-sentinel[tag=2]", "cv": fmt.Sprint(cv)}, cv},
		{"stacking", map[string]string{"models": "test-sentinel[tag=1]+test-sentinel[tag=2]", "cv": fmt.Sprint(cv), "shuffle": "false", "passthrough": "true"}, cv},
		{"voting", map[string]string{"models": "test-sentinel[tag=1]+test-sentinel[tag=2]", "voting": "soft"}, 0},
	} {
		t.Run(fmt.Sprint(c.model, c.settings), func(t *testing.T) {
			sentinelMu.Lock()
			clear(sentinelFits)
			sentinelMu.Unlock()
			spec, err := engine.Lookup(c.model)
			if err != nil {
				t.Fatal(err)
			}
			v, err := spec.Parse(c.settings)
			if err != nil {
				t.Fatal(err)
			}
			res, err := eval.Run(t.Context(), d, spec, v, opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The training part of each outer fold.
			heldOut := make([]map[int]bool, folds)
			for i := range heldOut {
				heldOut[i] = map[int]bool{}
			}
			for i, r := range res.TestRows {
				heldOut[res.TestFolds[i]-1][int(d.X.At(r, 0))] = true
			}
			for tag := 1; tag <= 2; tag++ {
				fits := sentinelFits[tag]
				if len(fits) != folds*(c.inner+1) {
					t.Fatalf("member %d: %d fits, want %d", tag, len(fits), folds*(c.inner+1))
				}
				byFold := make([][][]int, folds)
				for _, rows := range fits {
					f := -1
					for g := range folds {
						if !slices.ContainsFunc(rows, func(r int) bool { return heldOut[g][r] }) {
							f = g
						}
					}
					if f < 0 {
						t.Fatalf("member %d: a fit of %d rows saw a held-out row of every fold", tag, len(rows))
					}
					byFold[f] = append(byFold[f], rows)
				}
				for f, fs := range byFold {
					part := n - len(heldOut[f])
					if len(fs) != c.inner+1 {
						t.Fatalf("member %d, fold %d: %d fits, want %d", tag, f+1, len(fs), c.inner+1)
					}
					left := map[int]int{} // training row → inner fits that left it out
					whole := 0
					for _, rows := range fs {
						if len(rows) == part {
							whole++
							continue
						}
						seen := map[int]bool{}
						for _, r := range rows {
							seen[r] = true
						}
						for r := range n {
							if !heldOut[f][r] && !seen[r] {
								left[r]++
							}
						}
					}
					if whole != 1 {
						t.Errorf("member %d, fold %d: %d fits on the whole training part, want 1", tag, f+1, whole)
					}
					if c.inner > 0 && len(left) != part {
						t.Errorf("member %d, fold %d: the inner folds leave out %d of the %d training rows", tag, f+1, len(left), part)
					}
					for r, k := range left {
						if k != 1 {
							t.Errorf("member %d, fold %d: row %d left out of %d inner fits, want 1", tag, f+1, r, k)
						}
					}
				}
			}
		})
	}
}

// fitErr fits model with settings on iris (or diabetes) and returns the
// error of building or fitting it.
func fitErr(t *testing.T, model string, settings map[string]string, data string) error {
	t.Helper()
	_, _, m, err := engine.New(model, settings)
	if err != nil {
		return err
	}
	task := datasets.Classification
	if data == "diabetes" {
		task = datasets.Regression
	}
	tab, err := datasets.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", task)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Fit(t.Context(), m, engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: d.FeatureNames(), Seed: 1}, nil)
}

// TestErrorsNameTheCulprit: each mistake in a list is one line naming the
// member (and the member's parameter, in its spec's own words).
func TestErrorsNameTheCulprit(t *testing.T) {
	for _, c := range []struct {
		model    string
		settings map[string]string
		data     string
		want     string
	}{
		{"voting", map[string]string{"models": "logistic+nosuch"}, "iris", `member nosuch: unknown model "nosuch" (valid: `},
		{"voting", map[string]string{"models": "logistic+knn[k=0]"}, "iris", `parameter models: member knn[k=0]: parameter k: "0" is out of range (int in [1, 1e6])`},
		{"voting", map[string]string{"models": "logistic+knn[kk=3]"}, "iris", `member knn[kk=3]: model knn has no parameter "kk" (valid: `},
		{"voting", map[string]string{"models": "logistic+kmeans"}, "iris", "member kmeans: kmeans neither classifies nor regresses"},
		{"voting", map[string]string{"models": "logistic++tree"}, "iris", "member 2: empty"},
		{"voting", map[string]string{"models": " + "}, "iris", "member 1: empty"},
		{"voting", map[string]string{"models": "knn[k=5"}, "iris", `member 1: "knn[k=5": its [ is never closed`},
		{"voting", map[string]string{"models": "knn,k=5"}, "iris", `"knn,k=5": a member's parameters go in brackets`},
		{"voting", map[string]string{"models": "knn[k=5]x"}, "iris", "nothing may follow a member's closing ]"},
		{"voting", map[string]string{"models": "knn[k]"}, "iris", `knn: "k" is not param=value`},
		{"voting", map[string]string{"models": "logistic+stacking"}, "iris", "member stacking: an ensemble cannot be a member of another ensemble"},
		{"stacking", map[string]string{"models": "voting[voting=soft]"}, "iris", "member voting[voting=soft]: an ensemble cannot be a member"},
		{"voting", map[string]string{"models": "logistic+perceptron", "voting": "soft"}, "iris", "soft needs probabilities, and member perceptron gives none"},
		{"voting", map[string]string{"models": "logistic+knn", "weights": "1,2,3"}, "iris", "parameter weights: 3 weights for 2 members"},
		{"voting", map[string]string{"weights": "1,x"}, "iris", `parameter weights: weight 2: "x" is not a number`},
		{"voting", map[string]string{"weights": "0,0,0"}, "iris", "parameter weights: the weights are all zero"},
		{"voting", map[string]string{"models": "lda+knn"}, "diabetes", "member lda does not do regression (it does classification)"},
		{"stacking", map[string]string{"final": "perceptron"}, "iris", "parameter final: perceptron gives no probabilities"},
		{"stacking", map[string]string{"final": "logistic+knn"}, "iris", "parameter final: 2 models; name one"},
		{"stacking", map[string]string{"final": "ridge"}, "iris", "final: member ridge does not do classification"},
		{"stacking", map[string]string{"models": "logistic+test-panic"}, "iris", "member test-panic panicked: boom"},
		{"voting", map[string]string{"models": "test-panic"}, "iris", "member test-panic panicked: boom"},
	} {
		err := fitErr(t, c.model, c.settings, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v on %s: %v, want one line with %q", c.model, c.settings, c.data, err, c.want)
		}
	}
}

// TestSameSeedSamePredictions: members and inner folds come from
// Train.Seed alone; another seed draws other inner folds.
func TestSameSeedSamePredictions(t *testing.T) {
	tr, X, _ := split(t, "wine")
	fit := func(seed uint64) []float64 {
		m := engine.MustBuild("stacking", map[string]string{"models": "forest[trees=10]+knn+tree"})
		tr.Seed = seed
		if err := engine.Fit(t.Context(), m, tr, nil); err != nil {
			t.Fatal(err)
		}
		P, err := m.(engine.Prober).PredictProba(X)
		if err != nil {
			t.Fatal(err)
		}
		return P.RawMatrix().Data
	}
	a, b, c := fit(3), fit(3), fit(4)
	if !slices.Equal(a, b) {
		t.Error("same seed, different probabilities")
	}
	if slices.Equal(a, c) {
		t.Error("another seed, the same probabilities: the seed reaches nothing")
	}
}

// stepRecorder cancels at a step and keeps the steps.
type stepRecorder struct {
	cancel func()
	at     int
	steps  []engine.Step
}

func (r *stepRecorder) Step(s engine.Step) error {
	r.steps = append(r.steps, s)
	if len(r.steps) == r.at {
		r.cancel()
		return context.Canceled
	}
	return nil
}

// TestStepsAndCancel: a step per member, named in its detail; cancelled
// at a member, the fit fails (an ensemble of fewer members is not the one
// asked for) and leaves the model unfitted.
func TestStepsAndCancel(t *testing.T) {
	tr, X, _ := split(t, "iris")
	for _, model := range []string{"voting", "stacking"} {
		m := engine.MustBuild(model, map[string]string{"models": "gnb+knn[k=3]+tree"})
		rec := &stepRecorder{cancel: func() {}}
		if err := engine.Fit(t.Context(), m, tr, rec); err != nil {
			t.Fatal(err)
		}
		if len(rec.steps) != 3 {
			t.Fatalf("%s: %d steps, want 3", model, len(rec.steps))
		}
		for i, s := range rec.steps {
			d, ok := s.Detail.(ensemble.Member)
			if !ok || d.Index != i || d.Name != []string{"gnb", "knn[k=3]", "tree"}[i] || s.Total != 3 || !(s.TrainLoss >= 0 && s.TrainLoss < 0.5) {
				t.Errorf("%s: step %d: %+v", model, i+1, s)
			}
		}
		learned, err := engine.Learned(m)
		if err != nil {
			t.Fatal(err)
		}
		if info, ok := learned[ensemble.CapMembers.Name].(*ensemble.Members); !ok || len(info.Members) != 3 {
			t.Errorf("%s: members capability %+v", model, learned[ensemble.CapMembers.Name])
		}

		ctx, cancel := context.WithCancel(t.Context())
		rec = &stepRecorder{cancel: cancel, at: 2}
		err = engine.Fit(ctx, m, tr, rec)
		cancel()
		if !errors.Is(err, context.Canceled) || len(rec.steps) != 2 {
			t.Errorf("%s: cancelled at step 2: %v after %d steps", model, err, len(rec.steps))
		}
		if _, err := m.(engine.Predictor).Predict(X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: after a cancelled fit Predict says %v, want ErrNotFitted", model, err)
		}
	}
}

// TestMemoryIsTheMembers: an ensemble's estimate holds each member's.
func TestMemoryIsTheMembers(t *testing.T) {
	shape := engine.Shape{Rows: 20000, Cols: 10, Classes: 2}
	knn, _ := engine.Lookup("knn")
	one := knn.Memory(shape, knn.Defaults()).Bytes
	for _, model := range []string{"voting", "stacking"} {
		s, _ := engine.Lookup(model)
		v1, _ := s.Parse(map[string]string{"models": "knn"})
		v3, _ := s.Parse(map[string]string{"models": "knn+knn[k=3]+knn[k=9]"})
		a, b := s.Memory(shape, v1).Bytes, s.Memory(shape, v3).Bytes
		if !(a >= one && b >= a+2*one) {
			t.Errorf("%s: one k-NN member needs %g bytes, three %g; a k-NN alone %g", model, a, b, one)
		}
	}
}

// TestVotingKinds: hard voting offers its vote shares as scores, not as
// probabilities (a share of 0 is no probability for a log-loss); soft
// voting's mean probabilities are probabilities. Ties of votes go to the
// lowest class, as numpy's argmax breaks them.
func TestVotingKinds(t *testing.T) {
	tr, X, _ := split(t, "iris")
	hard := engine.MustBuild("voting", map[string]string{"models": "gnb+knn"})
	soft := engine.MustBuild("voting", map[string]string{"models": "gnb+knn", "voting": "soft"})
	if _, ok := hard.(engine.Prober); ok {
		t.Error("hard voting claims probabilities")
	}
	if _, ok := soft.(engine.Prober); !ok {
		t.Error("soft voting gives no probabilities")
	}
	for _, m := range []engine.Model{hard, soft} {
		if err := engine.Fit(t.Context(), m, tr, nil); err != nil {
			t.Fatal(err)
		}
	}
	S, err := hard.(engine.Scorer).DecisionFunction(X)
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := hard.(engine.Predictor).Predict(X)
	for i := range pred {
		row := S.RawRowView(i)
		first := slices.Index(row, slices.Max(row))
		if pred[i] != float64(first) {
			t.Errorf("row %d: shares %v, predicted %v", i, row, pred[i])
		}
		for _, x := range row {
			if x != 0 && x != 0.5 && x != 1 {
				t.Errorf("row %d: %v is not a share of two votes", i, row)
			}
		}
	}
}

// TestMembersWarnings: a member's warnings reach the ensemble's, naming
// the member.
func TestMembersWarnings(t *testing.T) {
	tr, _, _ := split(t, "wine")
	for _, model := range []string{"voting", "stacking"} {
		m := engine.MustBuild(model, map[string]string{"models": "logistic[solver=gd;max_iter=1]+knn"})
		if err := engine.Fit(t.Context(), m, tr, nil); err != nil {
			t.Fatal(err)
		}
		w := m.(engine.Warner).Warnings()
		if len(w) == 0 || !strings.HasPrefix(w[0], "member logistic[solver=gd;max_iter=1]: ") {
			t.Errorf("%s: warnings %q", model, w)
		}
	}
}
