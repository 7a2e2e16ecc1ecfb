package engine

import (
	"fmt"

	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
)

// Spec describes a registered model. Menus, forms, --param parsing and
// `tealab models` are all generated from it.
type Spec struct {
	Name    string // CLI name, e.g. "logistic"
	Title   string // human name, e.g. "logistic regression"
	Family  string // menu group, e.g. "linear models"
	Summary string // one line: what it does
	Notes   string // where it is taught: the lecture notes or paper a user can look up, e.g. "Shewchuk, Concise Machine Learning, lectures 10-11"
	Tasks   []Task
	Unit    string // what one progress step is: "epoch", "iteration", "sweep", ...
	// Loss names what Step.TrainLoss measures for this model, for chart
	// titles and reports ("out-of-bag error", "exponential loss"); empty
	// means "training loss".
	Loss string
	// ErrorLoss says TrainLoss is an error rate (the share misclassified;
	// the MSE for regression): reports chart it beside the validation
	// error rather than the validation log-loss.
	ErrorLoss bool
	// Standardize says whether the evaluation standardises features for this
	// model by default (scale-sensitive learners such as gradient descent).
	Standardize bool
	// Weighted says that Fit honours Train.Weights, the rows' weights (an
	// evaluation's balanced class weights reach only such a model).
	Weighted bool
	// Input says how nominal columns and missing values reach the model;
	// the zero value one-hot encodes and imputes.
	Input  Input
	Params []Param
	// New builds an unfitted model from validated values. Params is the
	// one place a default or a range is written: Fit takes the fields as
	// valid and checks only what depends on the data.
	New func(v Values) (Model, error)
	// Advise, when set, returns warnings about using this model on data
	// with these columns (e.g. Gaussian naive Bayes on nominal columns).
	Advise func(cols []datasets.Column) []advice.Warning
	// Bench lists the cases of bench/cases.tsv this model answers.
	Bench []BenchCase
	// Memory, when set, estimates what a fit on data of this shape
	// allocates beyond its training rows (covariances, kernels, distance
	// matrices, per-class tables, copies), so that a fit the machine
	// cannot hold is refused before it starts (eval.CheckMemory). Leave it
	// nil when that is small next to the rows.
	Memory func(s Shape, v Values) Need
}

// BenchCase is one performance case of bench/cases.tsv: the model fitted
// on a data set's first 80% of rows with these parameters, scored on the
// rest, exactly as bench/sklearn_ref.py does on scikit-learn's side.
type BenchCase struct {
	Name   string            // the case's name in cases.tsv, e.g. "logistic"
	Data   string            // the data set's file name without .csv
	Params map[string]string // as --param takes them
	Scale  bool              // standardise the features (fitted on the training part)
	Task   Task              // the task the case runs (its metric follows)
}

// LossName is what the model's TrainLoss measures on a task, for people.
func (s *Spec) LossName(task Task) string {
	switch {
	case s.Loss == "":
		return "training loss"
	case s.ErrorLoss && task == datasets.Regression:
		return s.Loss + " (MSE)"
	}
	return s.Loss
}

// Supports reports whether the model can learn task t.
func (s *Spec) Supports(t Task) bool { return slices.Contains(s.Tasks, t) }

// RunsOn says which task the model performs on data whose target makes
// task t: t itself when the model supports it; otherwise clustering or
// reduction, which any data allow (a target is then not learned, and its
// classes, when it has them, score the result).
func (s *Spec) RunsOn(t Task) (Task, bool) {
	if s.Supports(t) {
		return t, true
	}
	for _, u := range []Task{datasets.Clustering, datasets.Reduction} {
		if s.Supports(u) {
			return u, true
		}
	}
	return t, false
}

var (
	regMu    sync.RWMutex
	registry = map[string]*Spec{}
)

// Register adds a model spec. It panics on a duplicate or malformed spec: that
// is a programmer error caught by the first test run.
func Register(s Spec) {
	regMu.Lock()
	defer regMu.Unlock()
	if s.Name == "" || s.New == nil || len(s.Tasks) == 0 {
		panic("engine: incomplete spec " + s.Name)
	}
	if _, dup := registry[s.Name]; dup {
		panic("engine: model registered twice: " + s.Name)
	}
	for _, p := range s.Params {
		if _, err := p.ParseValue(Format(p.Default)); err != nil {
			panic(fmt.Sprintf("engine: model %s: bad default: %v", s.Name, err))
		}
		if p.Simpler != "" && (p.Simpler != SimplerLower && p.Simpler != SimplerHigher || p.Kind != Int && p.Kind != Float) {
			panic(fmt.Sprintf("engine: model %s: parameter %s: Simpler %q wants an int or a float and %q or %q", s.Name, p.Name, p.Simpler, SimplerLower, SimplerHigher))
		}
		if p.Number && p.Kind != Text {
			panic(fmt.Sprintf("engine: model %s: parameter %s: Number is for a text parameter", s.Name, p.Name))
		}
		if p.When != nil && !s.canMeet(p.When) {
			panic(fmt.Sprintf("engine: model %s: parameter %s applies only when %s, which that parameter cannot both meet and fail",
				s.Name, p.Name, p.When))
		}
	}
	registry[s.Name] = &s
}

// Lookup finds a model by name; the error lists the valid names.
func Lookup(name string) (*Spec, error) {
	regMu.RLock()
	s, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown model %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	return s, nil
}

// Specs lists every registered model, sorted by family and then name.
func Specs() []*Spec {
	regMu.RLock()
	out := make([]*Spec, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	regMu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Names lists every registered model name, sorted.
func Names() []string {
	specs := Specs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	sort.Strings(names)
	return names
}

// New builds a model by name with name=value settings over its defaults.
func New(name string, settings map[string]string) (*Spec, Values, Model, error) {
	s, err := Lookup(name)
	if err != nil {
		return nil, nil, nil, err
	}
	v, err := s.Parse(settings)
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := s.New(v)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, v, m, nil
}

// MustBuild is New for tests and examples, whose settings are known good:
// it returns the model alone and panics on an error (a programmer's).
func MustBuild(name string, settings map[string]string) Model {
	_, _, m, err := New(name, settings)
	if err != nil {
		panic("engine: " + err.Error())
	}
	return m
}

// canMeet reports whether c names a parameter of s that can both meet
// and fail it: a Choice or a Bool and only values it can take, or an Int or
// a Float whose range has values on both sides of c.Above.
func (s *Spec) canMeet(c *Applies) bool {
	for _, q := range s.Params {
		if q.Name != c.Param {
			continue
		}
		if len(c.In) == 0 {
			return (q.Kind == Int || q.Kind == Float) && !(q.Min > c.Above) && !(q.Max <= c.Above)
		}
		for _, v := range c.In {
			if _, err := q.ParseValue(v); err != nil || (q.Kind != Choice && q.Kind != Bool) {
				return false
			}
		}
		return true
	}
	return false
}
