// Package ensemble combines any registered classifiers or regressors:
// voting (their votes, probabilities or values averaged, as
// scikit-learn's VotingClassifier and VotingRegressor) and stacking (their
// out-of-fold predictions fed to a meta-model, as StackingClassifier and
// StackingRegressor).
//
// The family imports no other family: members are built through the
// registry (engine.Lookup, Spec.Parse, Spec.New) and fitted through
// engine.Fit, so that any model registered now or later can be one. An
// ensemble receives one engine.Train, prepared as its own spec asks: the
// strictest input (nominal columns one-hot encoded, missing values
// imputed, features standardised by default), which every member can take.
package ensemble

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// family sorts after the other families, so that a menu opens on a single
// model rather than on an ensemble of them.
const family = "voting and stacking"

// The members an empty models parameter stands for: a linear model, a
// local one and a tree, which err differently (the usual reason to
// combine models). Logistic regression only classifies, so regression
// takes ridge in its place.
const (
	defaultClassifiers = "logistic+knn+tree"
	defaultRegressors  = "ridge+knn+tree"
)

func defaultMembers(task engine.Task) string {
	if task == datasets.Classification {
		return defaultClassifiers
	}
	return defaultRegressors
}

// membersParam is the models parameter of both ensembles.
func membersParam() engine.Param {
	return engine.Param{Name: "models", Kind: engine.Text, Default: "",
		Help: "members joined by +, each name[p=v;p=v] (empty: logistic+knn+tree; ridge, knn and tree for regression)",
		Detail: "Each member is a registered classifier or regressor, optionally with its own parameters in brackets separated by semicolons: " +
			"logistic+knn[k=15;metric=l1]+tree[max_depth=4]. A member may appear twice with other parameters; an ensemble cannot be a member. " +
			"Members receive the ensemble's rows: nominal columns one-hot encoded, missing values imputed, features standardised unless asked otherwise. " +
			"The same text works in tealab compare, whose commas separate the ensemble's own parameters: voting:models=logistic+knn[k=5;metric=l1],voting=soft.",
		Check: checkList}
}

// memberSeed is member i's seed: members of one kind (two forests) then
// differ, and the ensemble depends on Train.Seed alone.
func memberSeed(seed uint64, i int) uint64 {
	return rand.New(rand.NewPCG(seed, 0x656e73656d626c65+uint64(i))).Uint64()
}

// memberRecorder is what a member's fit reports to: it stops the member
// when the context is done and passes how far the member has got to the
// ensemble's recorder as ticks of the ensemble's step, so that a front
// end's progress moves within a long member; the member's own steps are
// not the ensemble's and stay out of its history.
type memberRecorder struct {
	ctx         context.Context
	outer       engine.Ticker // nil when the ensemble's recorder hears no ticks
	step, total int           // the ensemble's step this member fit belongs to
	base, share float64       // the part of that step this fit covers
}

func (r memberRecorder) Step(s engine.Step) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if r.outer != nil && s.Total > 0 {
		return r.outer.Tick(r.step, r.total, r.base+r.share*min(1, float64(s.Step)/float64(s.Total)))
	}
	return nil
}

func (r memberRecorder) Tick(_, total int, done float64) error {
	if r.outer != nil && total > 0 {
		return r.outer.Tick(r.step, r.total, r.base+r.share*min(1, done))
	}
	return r.ctx.Err()
}

// fitMember fits a fresh model of member r on t: a panic in the member is
// an error naming it, as is any other failure.
func fitMember(ctx context.Context, r resolved, t engine.Train, rec engine.Recorder) (m engine.Model, err error) {
	m, err = r.build()
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			m, err = nil, fmt.Errorf("%s panicked: %v (a bug in the model)", r.label(), p)
		}
	}()
	if err := engine.Fit(ctx, m, t, rec); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w", r.label(), err)
	}
	return m, nil
}

// safely runs a member's prediction, turning a panic into an error naming
// it.
func safely(name string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked: %v (a bug in the model)", name, p)
		}
	}()
	if err := f(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// predictCodes is a member's class codes for X, checked to be codes of k
// classes.
func predictCodes(name string, m engine.Model, X mat.Matrix, k int) ([]float64, error) {
	p, ok := m.(engine.Predictor)
	if !ok {
		return nil, fmt.Errorf("%s does not predict", name)
	}
	var out []float64
	err := safely(name, func() (err error) { out, err = p.Predict(X); return err })
	if err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	if len(out) != n {
		return nil, fmt.Errorf("%s: %d predictions for %d rows (a bug in the model)", name, len(out), n)
	}
	for i, v := range out {
		if k > 0 && !(v >= 0 && v < float64(k) && v == math.Trunc(v)) {
			return nil, fmt.Errorf("%s: row %d: %v is not a class code (a bug in the model)", name, i+1, v)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: row %d: prediction %v", name, i+1, v)
		}
	}
	return out, nil
}

// predictProba is a member's class probabilities for X (n × k).
func predictProba(name string, m engine.Model, X mat.Matrix, k int) (*mat.Dense, error) {
	p, ok := m.(engine.Prober)
	if !ok {
		return nil, fmt.Errorf("%s gives no probabilities", name)
	}
	var P *mat.Dense
	if err := safely(name, func() (err error) { P, err = p.PredictProba(X); return err }); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	if r, c := P.Dims(); r != n || c != k {
		return nil, fmt.Errorf("%s: %dx%d probabilities for %d rows and %d classes (a bug in the model)", name, r, c, n, k)
	}
	return P, nil
}

// predictScores is a member's decision scores: one column for two classes
// (class 1's score less class 0's, as evaluation reads them), else k.
func predictScores(name string, m engine.Model, X mat.Matrix, k int) (*mat.Dense, error) {
	s, ok := m.(engine.Scorer)
	if !ok {
		return nil, fmt.Errorf("%s gives no scores", name)
	}
	var S *mat.Dense
	if err := safely(name, func() (err error) { S, err = s.DecisionFunction(X); return err }); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	r, c := S.Dims()
	if r != n || (c != k && !(k == 2 && c == 1)) {
		return nil, fmt.Errorf("%s: %dx%d scores for %d rows and %d classes (a bug in the model)", name, r, c, n, k)
	}
	if k == 2 && c == 2 {
		d := mat.NewDense(n, 1, nil)
		for i := range n {
			d.Set(i, 0, S.At(i, 1)-S.At(i, 0))
		}
		S = d
	}
	return S, nil
}

// subset is the training rows idx of t, copied.
func subset(t engine.Train, idx []int) engine.Train {
	_, p := t.X.Dims()
	X := mat.NewDense(len(idx), p, nil)
	y := make([]float64, len(idx))
	var w []float64
	if t.Weights != nil {
		w = make([]float64, len(idx))
	}
	for i, r := range idx {
		X.SetRow(i, t.X.RawRowView(r))
		y[i] = t.Y[r]
		if w != nil {
			w[i] = t.Weights[r]
		}
	}
	s := t
	s.X, s.Y, s.Weights = X, y, w
	return s
}

// checkCols refuses rows of another width than the fit's.
func checkCols(model string, X mat.Matrix, p int) error {
	if _, c := X.Dims(); c != p {
		return fmt.Errorf("%s: %d features; the model was fitted on %d", model, c, p)
	}
	return nil
}

// joinTexts names the members of a list.
func joinTexts(rs []resolved) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.Text
	}
	return strings.Join(names, ", ")
}

// rowMatrix is one row.
func rowMatrix(x []float64) *mat.Dense { return mat.NewDense(1, len(x), x) }
