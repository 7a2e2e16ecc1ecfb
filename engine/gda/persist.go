package gda

// engine.Persistent for the package's models. A state keeps the class
// statistics and the covariances or variances a fit estimated; everything
// Fit derives from them (priors, factored covariances, discriminants,
// constants) is derived again on loading by the same code, so it comes out
// bit for bit the same, and a covariance that is not positive definite is
// refused as Fit would refuse it. A class without training rows has a
// weight of 0 and zeros in the state (its log prior, -Inf, is no JSON
// number); the decision rule is rebuilt from the model's parameters.

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Every model of the package can be saved.
var (
	_ engine.Persistent = (*LDA)(nil)
	_ engine.Persistent = (*QDA)(nil)
	_ engine.Persistent = (*GaussianNB)(nil)
	_ engine.Persistent = (*CategoricalNB)(nil)
)

// classState is the class statistics every Gaussian model keeps.
type classState struct {
	Classes  []string    `json:"classes"`
	Features []string    `json:"features"`
	Weights  []float64   `json:"class_weights"` // total weight of each class's rows; 0 for a class without rows
	Means    [][]float64 `json:"means"`         // classes x features
}

func (s *classStats) state() classState {
	return classState{Classes: s.classes, Features: s.features, Weights: s.counts, Means: engine.StateRows(s.means)}
}

// stats validates the class statistics of a state and rebuilds them with
// the model's priors.
func (cs *classState) stats(c *engine.StateCheck, priors string) *classStats {
	k, d := len(cs.Classes), len(cs.Features)
	means := c.Matrix("means", cs.Means, k, d)
	c.Vector("class_weights", cs.Weights, k)
	for i, w := range cs.Weights {
		if !c.That(w >= 0, "class_weights entry %d is %v; want a weight >= 0", i+1, w) {
			break
		}
	}
	if !c.OK() {
		return nil
	}
	s := &classStats{d: d, k: k, classes: cs.Classes, features: cs.Features, counts: cs.Weights, means: means,
		present: make([]bool, k), priors: make([]float64, k), logPrior: make([]float64, k)}
	if err := s.tally(priors); err != nil {
		c.Failf("class_weights: %v", err)
		return nil
	}
	return s
}

// fittedFrom is the fitted state of a model with these statistics and the
// model's decision rule.
func fittedFrom(c *engine.StateCheck, s *classStats, decision, loss string) fitted {
	if s == nil {
		return fitted{}
	}
	dec, err := newDecider(decision, loss, s.classes)
	if err != nil {
		c.Failf("%v", err)
	}
	return fitted{FitState: engine.FitState{Fitted: true}, stats: s, decision: dec}
}

// symRows is a symmetric matrix as rows.
func symRows(m *mat.SymDense) [][]float64 {
	if m == nil {
		return [][]float64{}
	}
	return engine.StateRows(mat.DenseCopyOf(m))
}

// symmetric validates rows as a d x d symmetric matrix.
func symmetric(c *engine.StateCheck, field string, rows [][]float64, d int) *mat.SymDense {
	m := c.Matrix(field, rows, d, d)
	if m == nil {
		return nil
	}
	for i := range d {
		if !c.That(m.At(i, i) >= 0, "%s row %d has the variance %v on the diagonal; want a variance >= 0", field, i+1, m.At(i, i)) {
			return nil
		}
		for j := range i {
			if !c.That(m.At(i, j) == m.At(j, i), "%s is not symmetric (row %d, column %d)", field, i+1, j+1) {
				return nil
			}
		}
	}
	sym := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			sym.SetSym(i, j, m.At(i, j))
		}
	}
	return sym
}

// ldaState is LDA's state: the class statistics and the shared covariance.
type ldaState struct {
	classState
	Covariance [][]float64 `json:"covariance"`
}

// MarshalState implements engine.Persistent.
func (m *LDA) MarshalState() ([]byte, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	return engine.EncodeState("lda", ldaState{m.fitted.stats.state(), symRows(m.cov)})
}

// UnmarshalState implements engine.Persistent.
func (m *LDA) UnmarshalState(data []byte) error {
	var st ldaState
	if err := engine.DecodeState("lda", data, &st); err != nil {
		return err
	}
	c := engine.NewStateCheck("lda")
	s := st.stats(c, m.Priors)
	f := fittedFrom(c, s, m.Decision, m.Loss)
	if !c.OK() {
		return c.Err()
	}
	cov := symmetric(c, "covariance", st.Covariance, s.d)
	if !c.OK() {
		return c.Err()
	}
	_, coef, intercept, err := m.discriminants(s, cov)
	if err != nil {
		return fmt.Errorf("lda state: %v", err)
	}
	m.fitted, m.cov, m.coef, m.intercept = f, cov, coef, intercept
	return nil
}

// qdaState is QDA's state: the class statistics and each class's
// covariance (an empty list for a class without rows).
type qdaState struct {
	classState
	Covariances [][][]float64 `json:"covariances"`
}

// MarshalState implements engine.Persistent.
func (m *QDA) MarshalState() ([]byte, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	covs := make([][][]float64, len(m.covs))
	for c, cov := range m.covs {
		covs[c] = symRows(cov)
	}
	return engine.EncodeState("qda", qdaState{m.fitted.stats.state(), covs})
}

// UnmarshalState implements engine.Persistent.
func (m *QDA) UnmarshalState(data []byte) error {
	var st qdaState
	if err := engine.DecodeState("qda", data, &st); err != nil {
		return err
	}
	c := engine.NewStateCheck("qda")
	s := st.stats(c, m.Priors)
	f := fittedFrom(c, s, m.Decision, m.Loss)
	if !c.OK() {
		return c.Err()
	}
	d, k := s.d, s.k
	c.Len("covariances", len(st.Covariances), k)
	covs := make([]*mat.SymDense, k)
	for cl := 0; cl < k && c.OK(); cl++ {
		field := "covariances entry " + strconv.Itoa(cl+1)
		if !s.present[cl] {
			c.That(len(st.Covariances[cl]) == 0, "%s is given for a class without rows", field)
			continue
		}
		covs[cl] = symmetric(c, field, st.Covariances[cl], d)
	}
	if !c.OK() {
		return c.Err()
	}
	loaded := QDA{Priors: m.Priors, Estimator: m.Estimator, Reg: m.Reg, Decision: m.Decision, Loss: m.Loss,
		fitted: f, covs: covs, slot: make([]int, k), consts: make([]float64, k),
		w: mat.NewDense(d, s.nPresent*d, nil), off: mat.NewDense(s.nPresent, d, nil)}
	p := 0
	for cl := range k {
		loaded.slot[cl], loaded.consts[cl] = -1, math.Inf(-1)
		if !s.present[cl] {
			continue
		}
		if _, err := loaded.place(s, cl, p, covs[cl], loaded.w, loaded.off, loaded.consts); err != nil {
			return fmt.Errorf("qda state: %v", err)
		}
		loaded.slot[cl] = p
		p++
	}
	*m = loaded
	return nil
}

// gnbState is Gaussian naive Bayes' state: the class statistics, the
// smoothed variances and the variance added to each.
type gnbState struct {
	classState
	Variances [][]float64 `json:"variances"` // classes x features, smoothed; zeros for a class without rows
	Epsilon   float64     `json:"epsilon"`
}

// MarshalState implements engine.Persistent.
func (m *GaussianNB) MarshalState() ([]byte, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	return engine.EncodeState("gnb", gnbState{m.fitted.stats.state(), engine.StateRows(m.vars), m.eps})
}

// UnmarshalState implements engine.Persistent.
func (m *GaussianNB) UnmarshalState(data []byte) error {
	var st gnbState
	if err := engine.DecodeState("gnb", data, &st); err != nil {
		return err
	}
	c := engine.NewStateCheck("gnb")
	s := st.stats(c, m.Priors)
	f := fittedFrom(c, s, m.Decision, m.Loss)
	if !c.OK() {
		return c.Err()
	}
	vars := c.Matrix("variances", st.Variances, s.k, s.d)
	c.That(st.Epsilon > 0 && !math.IsInf(st.Epsilon, 0), "epsilon is %v; want a finite number > 0", st.Epsilon)
	for cl := 0; cl < s.k && c.OK(); cl++ {
		if s.present[cl] {
			positive(c, "variances row "+strconv.Itoa(cl+1), vars.RawRowView(cl))
		}
	}
	if !c.OK() {
		return c.Err()
	}
	inv, consts, _ := gaussianTerms(s, vars)
	m.fitted, m.vars, m.inv, m.consts, m.eps = f, vars, inv, consts, st.Epsilon
	return nil
}

// positive checks that every variance is > 0.
func positive(c *engine.StateCheck, field string, v []float64) {
	for j, x := range v {
		if !c.That(x > 0, "%s entry %d is %v; want a variance > 0", field, j+1, x) {
			return
		}
	}
}

// cnbState is categorical naive Bayes' state: per class, its training
// rows; per nominal feature, ln P(level | class); per numeric feature, each
// class's mean and smoothed variance.
type cnbState struct {
	Classes   []string      `json:"classes"`
	Features  []string      `json:"features"`
	Rows      []float64     `json:"class_rows"`
	Nominal   []bool        `json:"nominal"`
	Levels    []int         `json:"levels"`   // per feature; 0 for a numeric one
	LogProb   [][][]float64 `json:"log_prob"` // [feature][class][level]; empty for a numeric feature
	Means     [][]float64   `json:"means"`    // classes x features; 0 for a nominal feature
	Variances [][]float64   `json:"variances"`
}

// MarshalState implements engine.Persistent.
func (m *CategoricalNB) MarshalState() ([]byte, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	logProb := make([][][]float64, m.d)
	for j := range logProb {
		if logProb[j] = m.logProb[j]; logProb[j] == nil {
			logProb[j] = [][]float64{}
		}
	}
	return engine.EncodeState("cnb", cnbState{Classes: m.classes, Features: m.features, Rows: m.rows,
		Nominal: m.nominal, Levels: m.levels, LogProb: logProb,
		Means: engine.StateRows(m.mean), Variances: engine.StateRows(m.vars)})
}

// UnmarshalState implements engine.Persistent.
func (m *CategoricalNB) UnmarshalState(data []byte) error {
	var st cnbState
	if err := engine.DecodeState("cnb", data, &st); err != nil {
		return err
	}
	c := engine.NewStateCheck("cnb")
	k, d := len(st.Classes), len(st.Features)
	mean := c.Matrix("means", st.Means, k, d)
	vars := c.Matrix("variances", st.Variances, k, d)
	c.Vector("class_rows", st.Rows, k)
	present := 0
	for i, r := range st.Rows {
		if !c.That(r >= 0 && r == math.Trunc(r), "class_rows entry %d is %v; want a count of rows", i+1, r) {
			break
		}
		if r > 0 {
			present++
		}
	}
	c.That(present >= 2, "class_rows has %d classes with rows; a classifier is fitted on at least two", present)
	c.Len("nominal", len(st.Nominal), d)
	c.Len("levels", len(st.Levels), d)
	c.Len("log_prob", len(st.LogProb), d)
	logProb := make([][][]float64, d)
	for j := 0; j < d && c.OK(); j++ {
		field := "log_prob entry " + strconv.Itoa(j+1)
		if !st.Nominal[j] {
			c.That(st.Levels[j] == 0 && len(st.LogProb[j]) == 0, "feature %d is numeric but has levels", j+1)
			positive(c, "variances column "+strconv.Itoa(j+1), mat.Col(nil, j, vars))
			continue
		}
		if !c.Range("levels entry "+strconv.Itoa(j+1), st.Levels[j], 0, 1<<20) {
			break
		}
		if st.Levels[j] > 0 {
			c.Matrix(field, st.LogProb[j], k, st.Levels[j])
		} else if c.Len(field, len(st.LogProb[j]), k) {
			for _, row := range st.LogProb[j] {
				c.Len(field+" row", len(row), 0)
			}
		}
		logProb[j] = st.LogProb[j]
	}
	var dec decider
	if c.OK() {
		var err error
		if dec, err = newDecider(m.Decision, m.Loss, st.Classes); err != nil {
			c.Failf("%v", err)
		}
	}
	if !c.OK() {
		return c.Err()
	}
	inv, logNorm := cnbGaussians(st.Nominal, vars)
	m.classes, m.features, m.k, m.d = st.Classes, st.Features, k, d
	m.nominal, m.levels, m.logProb, m.mean, m.inv, m.logNorm = st.Nominal, st.Levels, logProb, mean, inv, logNorm
	m.logPrior, m.dec, m.vars, m.rows = cnbLogPriors(st.Rows, m.Priors), dec, vars, st.Rows
	m.Fitted = true
	return nil
}
