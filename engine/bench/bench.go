// Package bench runs the performance cases of bench/cases.tsv on the data
// sets bench/make_data.py writes, exactly as bench/sklearn_ref.py runs them
// on scikit-learn's side: the first 80% of rows train and the last 20% are
// scored, in file order; features are standardised only where a case says
// so (fitted on the training rows); only the fit is timed, the median of
// three; one thread. Each model lists the cases it answers in its spec
// (engine.Spec.Bench), so a new family adds its cases where it registers.
package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// Case is one performance case with the model that answers it.
type Case struct {
	engine.BenchCase
	Spec *engine.Spec
}

// Cases lists every registered case, sorted by name.
func Cases() []Case {
	var out []Case
	for _, s := range engine.Specs() {
		for _, c := range s.Bench {
			out = append(out, Case{BenchCase: c, Spec: s})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Select picks the named cases (all of them for none); an unknown name is
// an error listing the valid ones.
func Select(names []string) ([]Case, error) {
	all := Cases()
	if len(names) == 0 {
		return all, nil
	}
	var out []Case
	for _, n := range names {
		i := slices.IndexFunc(all, func(c Case) bool { return c.Name == n })
		if i < 0 {
			valid := make([]string, len(all))
			for j, c := range all {
				valid[j] = c.Name
			}
			return nil, fmt.Errorf("unknown case %q (valid: %s)", n, strings.Join(valid, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// Result is one case's line, in sklearn_ref.py's format.
type Result struct {
	Case     string  `json:"case"`
	FitSecs  float64 `json:"fit_s"`
	PredSecs float64 `json:"predict_s"`
	Metric   string  `json:"metric"`
	Score    float64 `json:"score"`
}

// Runs is how many times each case is fitted; the median time is kept.
const Runs = 3

// Run times one case on the data in dir. It runs on one thread
// (GOMAXPROCS 1 for its duration) as the reference does.
func Run(ctx context.Context, dir string, c Case) (Result, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	res := Result{Case: c.Name}
	tab, err := load(dir, c.Data)
	if err != nil {
		return res, err
	}
	target, task := "", c.Task
	if task == datasets.Reduction {
		target = datasets.NoTarget // the file's last column is a placeholder
		if last := len(tab.Columns) - 1; last > 0 {
			if tab, err = tab.Drop(tab.Columns[last].Name); err != nil {
				return res, err
			}
		}
	}
	d, err := tab.Dataset(target, task)
	if err != nil {
		return res, fmt.Errorf("%s: %w", c.Data, err)
	}
	v, err := c.Spec.Parse(c.Params)
	if err != nil {
		return res, fmt.Errorf("case %s: %w", c.Name, err)
	}
	switch task {
	case datasets.Classification, datasets.Regression:
		return supervised(ctx, res, d, c, v)
	default:
		return unsupervised(ctx, res, d, c, v)
	}
}

// load reads DIR/name.csv; digits falls back to the built-in copy, as
// sklearn_ref.py reads ../datasets/digits.csv.
func load(dir, name string) (*datasets.Table, error) {
	path := filepath.Join(dir, name+".csv")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if t, err := datasets.Open(name); err == nil {
			return t, nil
		}
		return nil, fmt.Errorf("%s: not found (write the data with bench/make_data.py %s)", path, dir)
	}
	return datasets.LoadFile(path)
}

// timeFit fits a fresh model Runs times and returns the last model and the
// median time.
func timeFit(ctx context.Context, c Case, v engine.Values, tr engine.Train) (engine.Model, float64, error) {
	times := make([]float64, 0, Runs)
	var m engine.Model
	for range Runs {
		var err error
		if m, err = c.Spec.New(v); err != nil {
			return nil, 0, err
		}
		runtime.GC() // not the previous fit's garbage
		t0 := time.Now()
		err = engine.Fit(ctx, m, tr, nil)
		times = append(times, time.Since(t0).Seconds())
		if err != nil {
			return nil, 0, fmt.Errorf("case %s: %w", c.Name, err)
		}
	}
	slices.Sort(times)
	return m, times[len(times)/2], nil
}

func supervised(ctx context.Context, res Result, d *datasets.Dataset, c Case, v engine.Values) (Result, error) {
	n := d.Rows()
	nTrain := int(float64(n) * 0.8)
	train, test := make([]int, nTrain), make([]int, n-nTrain)
	for i := range train {
		train[i] = i
	}
	for i := range test {
		test[i] = nTrain + i
	}
	tr, te := d.Subset(train), d.Subset(test)
	Xtr, Xte := tr.X, te.X
	if c.Scale {
		var s datasets.Standardizer
		if err := s.Fit(Xtr); err != nil {
			return res, err
		}
		var err error
		if Xtr, err = s.Apply(Xtr); err != nil {
			return res, err
		}
		if Xte, err = s.Apply(Xte); err != nil {
			return res, err
		}
	}
	t := engine.Train{X: Xtr, Y: tr.Y, Classes: d.Classes, Features: d.FeatureNames(), Columns: d.Features, Seed: 1}
	m, fit, err := timeFit(ctx, c, v, t)
	if err != nil {
		return res, err
	}
	p, ok := m.(engine.Predictor)
	if !ok {
		return res, fmt.Errorf("case %s: model %s does not predict", c.Name, c.Spec.Name)
	}
	t0 := time.Now()
	pred, err := p.Predict(Xte)
	res.PredSecs = time.Since(t0).Seconds()
	if err != nil {
		return res, err
	}
	res.FitSecs = fit
	res.Metric = Metric(c.Task)
	if c.Task == datasets.Regression {
		res.Score = metrics.R2(te.Y, pred)
	} else {
		res.Score = metrics.Accuracy(te.Y, pred)
	}
	return res, nil
}

// unsupervised fits all rows, as the reference does: a clustering is scored
// by its adjusted Rand index against the file's classes, a reduction by the
// share of variance its components explain.
func unsupervised(ctx context.Context, res Result, d *datasets.Dataset, c Case, v engine.Values) (Result, error) {
	t := engine.Train{X: d.X, Features: d.FeatureNames(), Columns: d.Features, Seed: 1}
	if d.Classes != nil {
		t.KnownClasses = len(d.Classes)
	}
	m, fit, err := timeFit(ctx, c, v, t)
	if err != nil {
		return res, err
	}
	res.FitSecs, res.Metric = fit, Metric(c.Task)
	if c.Task == datasets.Reduction {
		cm, ok := m.(engine.Componenter)
		if !ok || cm.Components() == nil {
			return res, fmt.Errorf("case %s: model %s shows no components", c.Name, c.Spec.Name)
		}
		sum := 0.0
		for _, r := range cm.Components().Ratio {
			sum += r
		}
		res.Score = sum
		return res, nil
	}
	labels, err := engine.ClusterLabels(m, d.X)
	if err != nil {
		return res, fmt.Errorf("case %s: %w", c.Name, err)
	}
	res.Score = metrics.AdjustedRand(d.Y, labels)
	return res, nil
}

// Metric names the score a case of the task reports, as cases.tsv and
// sklearn_ref.py name it.
func Metric(task datasets.Task) string {
	switch task {
	case datasets.Regression:
		return "R2"
	case datasets.Clustering:
		return "ARI"
	case datasets.Reduction:
		return "explained_variance"
	}
	return "accuracy"
}

// Round gives the numbers sklearn_ref.py prints: times to the microsecond,
// scores to four decimals.
func (r Result) Round() Result {
	r.FitSecs = math.Round(r.FitSecs*1e6) / 1e6
	r.PredSecs = math.Round(r.PredSecs*1e6) / 1e6
	r.Score = math.Round(r.Score*1e4) / 1e4
	return r
}
