package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// Options chooses how a search runs.
type Options struct {
	// Eval is the evaluation of every point (k-fold CV or a hold-out);
	// its folds are drawn once and shared by every point.
	Eval eval.Options
	// Metric is the score compared; "" is the task's primary score.
	Metric string
	// Random, when above 0, draws that many settings from the axes'
	// ranges (seeded by Eval.Seed) instead of walking the grid.
	Random int
	// Jobs is how many points are evaluated at once (at least 1). The
	// result does not depend on it.
	Jobs int
	// Pick is the rule that picks the point (Picks): PickBest ("" too),
	// the best mean validation score, or PickOneSE, the simplest point
	// within one standard error of it.
	Pick string
}

// The rules that pick a search's point (Options.Pick).
const (
	PickBest  = "best"
	PickOneSE = "1se"
)

// Picks lists the rules, as a flag's help names them.
var Picks = []string{PickBest, PickOneSE}

// Point is one setting and its scores.
type Point struct {
	Values []any         // one per axis (a learning curve: the fraction of training rows)
	Params engine.Values // the whole setting evaluated
	Rows   int           // training rows of the largest fold
	Train  []float64     // the metric on each fold's training rows
	Val    []float64     // the metric on each fold's held-out rows
	// Means and sample standard deviations over folds (0 with one fold).
	TrainMean, TrainStd, ValMean, ValStd float64
	Done                                 bool  // evaluated (perhaps with Err)
	Err                                  error // the evaluation failed: this setting does not suit these data
}

// OK says whether the point was evaluated and scored.
func (p Point) OK() bool { return p.Done && p.Err == nil }

// Result is a search or a learning curve as far as it went.
type Result struct {
	Model, Dataset string
	Task           datasets.Task
	Eval           string // e.g. "stratified 5-fold CV"
	// Prep says how the features were prepared when a person chose it
	// (eval.PrepNote: ", numeric features robustly scaled..."); "" the
	// models' habits.
	Prep   string
	Metric metrics.Info
	Axes   []Axis
	Base   engine.Values // the settings of parameters not swept
	Random bool
	Points []Point // in grid (or draw) order; those not reached have Done false
	// Best is the index of the point picked (by Pick's rule: the best
	// score, or the simplest within one standard error of it); -1 before
	// one is scored.
	Best int
	// Pick is the rule that picked Best (PickBest or PickOneSE); Top the
	// point of the best mean score, Best too under PickBest; Why says how
	// the rule picked Best ("" under PickBest).
	Pick      string
	Top       int
	Why       string
	Cancelled bool
	// Nested is the nested cross-validation of the same search, when one
	// was asked for (Nested): the outer score beside this search's best.
	Nested *NestedResult
}

// Finished counts the points evaluated.
func (r *Result) Finished() int {
	n := 0
	for _, p := range r.Points {
		if p.Done {
			n++
		}
	}
	return n
}

// BestPoint is the best point, and false before any point is scored.
func (r *Result) BestPoint() (Point, bool) {
	if r.Best < 0 {
		return Point{}, false
	}
	return r.Points[r.Best], true
}

// Standing places point i among the scored points: 0 the worst mean
// validation score, 1 the best (1 when all score alike); NaN when i has no
// score. Heat tables shade by it.
func (r *Result) Standing(i int) float64 {
	if !r.Points[i].OK() {
		return math.NaN()
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range r.Points {
		if p.OK() {
			lo, hi = math.Min(lo, p.ValMean), math.Max(hi, p.ValMean)
		}
	}
	if hi == lo {
		return 1
	}
	t := (r.Points[i].ValMean - lo) / (hi - lo)
	if !r.Metric.Higher {
		t = 1 - t
	}
	return t
}

// tieTolerance treats mean scores this close as equal, so that the order
// in which folds are summed cannot change which point is best.
const tieTolerance = 1e-12

// better says whether score a beats b.
func (r *Result) better(a, b float64) bool {
	if r.Metric.Higher {
		return a > b+tieTolerance
	}
	return a < b-tieTolerance
}

// UpdateBest picks the point by the result's rule: the best mean
// validation score, the first in grid order among equals (as
// scikit-learn's GridSearchCV); or, under PickOneSE, the simplest point
// scoring within one standard error of that best (oneSE). A front end that
// fills Points as they arrive calls it after each.
func (r *Result) UpdateBest() {
	r.Best, r.Top, r.Why = -1, -1, ""
	for i, p := range r.Points {
		if p.OK() && (r.Best < 0 || r.better(p.ValMean, r.Points[r.Best].ValMean)) {
			r.Best = i
		}
	}
	r.Top = r.Best
	if r.Pick == PickOneSE && r.Best >= 0 {
		r.oneSE()
	}
}

// CheckPick refuses a rule it does not know, and the one-standard-error
// rule over parameters none of which has a simpler direction declared in
// its spec (engine.Param.Simpler).
func CheckPick(axes []Axis, pick string) error {
	switch pick {
	case "", PickBest:
		return nil
	case PickOneSE:
		for _, a := range axes {
			if a.Param.Simpler != "" {
				return nil
			}
		}
		return fmt.Errorf("1se picks the simplest point, but the model's spec says of none of %s in which direction it is simpler; pick best", strings.Join(names(axes), ", "))
	}
	return fmt.Errorf("%q is not a rule (valid: %s)", pick, strings.Join(Picks, ", "))
}

// oneSE applies the one-standard-error rule (Breiman et al. 1984, CART
// §3.4.3; Hastie, Tibshirani & Friedman, The Elements of Statistical
// Learning, §7.10): the standard error of the best mean is its folds'
// standard deviation over √folds; of the points whose mean lies within
// it, the simplest along the swept parameters whose simpler direction the
// spec declares, the first such parameter first (simpler), then the better
// score, then the first in grid order.
func (r *Result) oneSE() {
	top := r.Points[r.Top]
	se := top.ValStd / math.Sqrt(float64(max(len(top.Val), 1)))
	bound := top.ValMean - se
	if !r.Metric.Higher {
		bound = top.ValMean + se
	}
	for i, p := range r.Points {
		if !p.OK() || r.better(bound, p.ValMean) {
			continue
		}
		if c := r.simpler(p, r.Points[r.Best]); c < 0 || c == 0 && r.better(p.ValMean, r.Points[r.Best].ValMean) {
			r.Best = i
		}
	}
	var dirs []string
	for _, a := range r.Axes {
		switch a.Param.Simpler {
		case engine.SimplerLower:
			dirs = append(dirs, "lower "+a.Param.Name)
		case engine.SimplerHigher:
			dirs = append(dirs, "higher "+a.Param.Name)
		}
	}
	f := r.Metric.Format
	r.Why = fmt.Sprintf("one-standard-error rule: the best mean is %s's %s ± %s over %d folds, standard error %s; of the points scoring %s %s, %s is the simplest (%s is simpler)",
		r.Label(top), f(top.ValMean), f(top.ValStd), len(top.Val), f(se), map[bool]string{true: "at least", false: "at most"}[r.Metric.Higher], f(bound),
		r.Label(r.Points[r.Best]), strings.Join(dirs, ", then "))
}

// simpler compares points p and q along the axes whose simpler direction
// is declared: -1 when p is the simpler, 1 when q is, 0 when alike.
func (r *Result) simpler(p, q Point) int {
	for k, a := range r.Axes {
		if a.Param.Simpler == "" {
			continue
		}
		x, okx := a.Number(p.Values[k])
		y, oky := a.Number(q.Values[k])
		if !okx || !oky {
			continue
		}
		if a.Param.ZeroIsNoLimit {
			x, y = noLimit(x), noLimit(y)
		}
		if a.Param.Simpler == engine.SimplerHigher {
			x, y = -x, -y
		}
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	}
	return 0
}

// noLimit is x, or +Inf for 0 when 0 means no limit.
func noLimit(x float64) float64 {
	if x == 0 {
		return math.Inf(1)
	}
	return x
}

// job is one point to evaluate: its setting and the folds it is scored on.
type job struct {
	values []any
	params engine.Values
	plan   []eval.Fold
}

// Search evaluates spec over the grid of axes (the product of their
// values, the first axis outermost), or over opt.Random settings drawn from
// their ranges (any number of axes; CheckAxes), with the other parameters at base (nil: the defaults).
// Every point is cross-validated on the same folds. progress, which may be
// nil, is called once per finished point, one call at a time.
//
// Cancelling ctx keeps the points that finished: Search returns the partial
// Result, Cancelled set, with ctx.Err().
func Search(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, base engine.Values, axes []Axis, opt Options, progress func(i int, p Point)) (*Result, error) {
	if err := CheckAxes(axes, opt.Random); err != nil {
		return nil, err
	}
	if err := CheckPick(axes, opt.Pick); err != nil {
		return nil, err
	}
	res, folds, err := start(d, spec, base, opt)
	if err != nil {
		return nil, err
	}
	res.Axes, res.Random = axes, opt.Random > 0
	if opt.Pick == PickOneSE {
		res.Pick = PickOneSE
	}
	return res, run(ctx, d, spec, res, searchJobs(res, axes, folds, opt), opt, &engine.Accountant{}, engine.Need{}, progress)
}

// searchJobs are the points of a search: its settings over the base, each
// scored on folds.
func searchJobs(res *Result, axes []Axis, folds []eval.Fold, opt Options) []job {
	settings := Settings(axes, opt)
	jobs := make([]job, len(settings))
	for i, vals := range settings {
		params := clone(res.Base)
		for a, v := range vals {
			params[axes[a].Param.Name] = v
		}
		jobs[i] = job{values: vals, params: params, plan: folds}
	}
	return jobs
}

// MaxGrid bounds the points of a grid (the product of its axes' values): a
// larger search is a random one (Options.Random).
const MaxGrid = 10000

// CheckAxes refuses a search of no parameter, of one parameter twice, or a
// grid (random 0) of more than MaxGrid points.
func CheckAxes(axes []Axis, random int) error {
	if len(axes) == 0 {
		return errors.New("sweep at least one parameter")
	}
	seen := map[string]bool{}
	points := 1
	for _, a := range axes {
		if seen[a.Param.Name] {
			return fmt.Errorf("parameter %s is swept twice; sweep each parameter once", a.Param.Name)
		}
		seen[a.Param.Name] = true
		points = min(points*max(len(a.Values), 1), MaxGrid+1)
	}
	if random == 0 && points > MaxGrid {
		return fmt.Errorf("the grid of %s has more than %d points; draw settings from it at random instead", strings.Join(names(axes), ", "), MaxGrid)
	}
	return nil
}

func names(axes []Axis) []string {
	out := make([]string, len(axes))
	for i, a := range axes {
		out[i] = a.Param.Name
	}
	return out
}

// start checks what a search needs and draws the folds every point shares.
func start(d *datasets.Dataset, spec *engine.Spec, base engine.Values, opt Options) (*Result, []eval.Fold, error) {
	task, ok := spec.RunsOn(d.Task)
	if !ok || !task.Supervised() {
		return nil, nil, fmt.Errorf("model %s on %s: a sweep scores held-out rows, so it needs a classifier or a regressor on data with a target", spec.Name, d.Name)
	}
	if opt.Eval.LOO {
		return nil, nil, errors.New("a sweep scores each fold; use k-fold cross-validation rather than leave-one-out")
	}
	info, err := MetricFor(task, opt.Metric)
	if err != nil {
		return nil, nil, err
	}
	if base == nil {
		base = spec.Defaults()
	}
	folds, desc, err := eval.Plan(d, opt.Eval)
	if err != nil {
		return nil, nil, err
	}
	res := &Result{Model: spec.Name, Dataset: d.Name, Task: task, Eval: desc, Prep: eval.PrepNote(opt.Eval), Metric: info, Base: base, Best: -1, Top: -1, Pick: PickBest}
	return res, folds, nil
}

// MetricFor finds the metric to compare, the task's primary one by default.
func MetricFor(task datasets.Task, name string) (metrics.Info, error) {
	if name == "" {
		name = metrics.Primary(task, nil)
	}
	var names []string
	for _, m := range metrics.ForTask(task) {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return metrics.Info{}, fmt.Errorf("metric %q is not a %s metric (valid: %s)", name, task, strings.Join(names, ", "))
}

// run evaluates the jobs on opt.Jobs workers into res.Points, each point's
// memory reserved in acc while it runs; held is what the caller holds in
// acc meanwhile (a nested search's copy of the outer training part), which
// a point must fit beside.
func run(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, res *Result, jobs []job, opt Options, acc *engine.Accountant, held engine.Need, progress func(int, Point)) error {
	res.Points = make([]Point, len(jobs))
	for i, j := range jobs {
		res.Points[i] = Point{Values: j.values, Params: j.params, Rows: maxTrain(j.plan)}
	}
	// The points evaluated at once share the memory: each reserves its
	// estimate (eval.MemoryNeed) before it is fitted, waiting while the
	// points in progress hold what it needs.
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(opt.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p, ok := evaluate(ctx, d, spec, res, jobs[i], opt.Eval, acc, held)
				if !ok { // cancelled part-way: not a point
					continue
				}
				mu.Lock()
				res.Points[i] = p
				if progress != nil {
					progress(i, p)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	res.UpdateBest()
	if err := ctx.Err(); err != nil {
		res.Cancelled = true
		return err
	}
	if res.Best < 0 {
		for _, p := range res.Points {
			if p.Err != nil {
				return p.Err
			}
		}
	}
	return nil
}

// evaluate cross-validates one job, its memory reserved in acc while it
// runs. ok is false when ctx stopped it.
func evaluate(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, res *Result, j job, base eval.Options, acc *engine.Accountant, held engine.Need) (Point, bool) {
	p := Point{Values: j.values, Params: j.params, Rows: maxTrain(j.plan), Done: true}
	if ctx.Err() != nil {
		return p, false
	}
	opt := base
	opt.Plan, opt.PlanDesc, opt.NoRefit, opt.TrainScores, opt.Consume = j.plan, res.Eval, true, true, false
	label := strings.Join(describe(res.Axes, j.values), " ")
	need := eval.MemoryNeed(d, spec, j.params, opt)
	if held.Bytes > 0 { // never fits beside what is held: refused, not waited for
		if err := engine.CheckNeed(spec.Name+" on "+d.Name, need.Plus(held)); err != nil {
			p.Err = fmt.Errorf("%s: %w", label, err)
			return p, true
		}
	}
	release, err := acc.ReserveWait(ctx, spec.Name+" on "+d.Name, need)
	if ctx.Err() != nil {
		return p, false
	}
	if err != nil {
		p.Err = fmt.Errorf("%s: %w", label, err)
		return p, true
	}
	defer release()
	r, err := eval.Run(ctx, d, spec, j.params, opt, nil)
	if ctx.Err() != nil {
		return p, false
	}
	if err != nil {
		p.Err = fmt.Errorf("%s: %w", label, err)
		return p, true
	}
	val := r.Folds
	if len(j.plan) == 1 {
		val = []map[string]float64{r.Metrics}
	}
	key := res.Metric.Name
	for f := range val {
		v, ok := val[f][key]
		if !ok {
			p.Err = fmt.Errorf("model %s gives no %s on these data (it has no scores); choose another metric", spec.Name, res.Metric.Label)
			return p, true
		}
		p.Val = append(p.Val, v)
		p.Train = append(p.Train, r.TrainFolds[f][key])
	}
	p.TrainMean, p.TrainStd = meanStd(p.Train)
	p.ValMean, p.ValStd = meanStd(p.Val)
	return p, true
}

// describe is "k=5 weights=distance" for a point's values.
func describe(axes []Axis, values []any) []string {
	parts := make([]string, len(values))
	for a, v := range values {
		name := "train_size"
		if a < len(axes) {
			name = axes[a].Param.Name
		}
		parts[a] = name + "=" + engine.Format(v)
	}
	return parts
}

// Label is a point's setting as "k=5 weights=distance".
func (r *Result) Label(p Point) string { return strings.Join(describe(r.Axes, p.Values), " ") }

func meanStd(xs []float64) (mean, std float64) {
	if len(xs) < 2 {
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

func maxTrain(plan []eval.Fold) int {
	n := 0
	for _, f := range plan {
		n = max(n, len(f.Train))
	}
	return n
}

func clone(v engine.Values) engine.Values {
	out := make(engine.Values, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// Grid is the product of the axes' values, the first axis outermost: the
// order of a search's points.
func Grid(axes []Axis) [][]any {
	out := [][]any{nil}
	for _, a := range axes {
		var next [][]any
		for _, prefix := range out {
			for _, v := range a.Values {
				next = append(next, append(slices.Clone(prefix), v))
			}
		}
		out = next
	}
	return out
}

// Settings are the values of a search's points in the order Search
// numbers them: the grid, or opt.Random settings drawn with opt.Eval.Seed.
func Settings(axes []Axis, opt Options) [][]any {
	if opt.Random > 0 {
		return draw(axes, opt.Random, opt.Eval.Seed)
	}
	return Grid(axes)
}

// drawStream keeps a random search's draws apart from the folds' and the
// models' streams of the same seed.
const drawStream = 0x7475_6e65 // "tune"

// draw picks n distinct settings from the axes' ranges: a listed axis by
// its values, a numeric range uniformly (log-uniformly on a log scale),
// rounded for an int. Fewer come back when the ranges hold fewer. They
// come back in order along the axes (the first, then the second), as a
// grid's do, so that a table reads down the range and equal scores go to
// the first as in a grid.
func draw(axes []Axis, n int, seed uint64) [][]any {
	r := rand.New(rand.NewPCG(seed, drawStream))
	var out [][]any
	seen := map[string]bool{}
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		vals := make([]any, len(axes))
		for a, ax := range axes {
			vals[a] = ax.drawOne(r)
		}
		key := fmt.Sprint(describe(axes, vals))
		if !seen[key] {
			seen[key] = true
			out = append(out, vals)
		}
	}
	slices.SortStableFunc(out, func(v, w []any) int {
		for a, ax := range axes {
			if c := cmp.Compare(ax.Position(v[a]), ax.Position(w[a])); c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}

func (a Axis) drawOne(r *rand.Rand) any {
	if len(a.spans) == 1 && !a.list && a.lo < a.hi { // one range: drawn over it
		return a.within(r, a.spans[0], a.Values[0])
	}
	// Listed values and ranges together: a grid value at random, and
	// within its range when it belongs to one, so that each part is drawn
	// as often as it has grid values.
	i := r.IntN(len(a.Values))
	for _, sp := range a.spans {
		if i >= sp.first && i < sp.first+sp.n && sp.lo < sp.hi {
			return a.within(r, sp, a.Values[i])
		}
	}
	return a.Values[i]
}

// within draws a value of range sp: uniformly, or log-uniformly on a log
// scale; rounded for an int, a text's number as text (else, should the
// parameter refuse it, fallback).
func (a Axis) within(r *rand.Rand, sp span, fallback any) any {
	u := r.Float64()
	x := sp.lo + u*(sp.hi-sp.lo)
	if a.log {
		x = math.Exp(math.Log(sp.lo) + u*(math.Log(sp.hi)-math.Log(sp.lo)))
	}
	switch a.Param.Kind {
	case engine.Int:
		return int(math.Min(math.Max(math.Round(x), sp.lo), sp.hi))
	case engine.Text:
		v, err := a.Param.ParseValue(engine.Format(engine.Tidy(x)))
		if err != nil {
			return fallback
		}
		return v
	}
	return engine.Tidy(x)
}
