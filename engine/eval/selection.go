package eval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// Feature selection inside each training part: a filter keeps the top k
// features of a ranking of the part (engine/rank's filters, registered
// here by RegisterRanker, since that package sits above this one), a
// wrapper adds (forward) or removes (backward) one feature at a time,
// each step scored by an inner cross-validation of the model on the
// training part alone. The held-out rows never take part.

// The wrappers, and how many folds their inner cross-validation has.
const (
	SelectForward  = "forward"
	SelectBackward = "backward"
	InnerFolds     = 3
)

// Ranker is a filter ranking for selection: Rank scores the features of a
// training part (higher: more telling) and lists them best first.
type Ranker struct {
	Name  string
	Tasks []datasets.Task
	Rank  func(ctx context.Context, d *datasets.Dataset, seed uint64) (order []int, err error)
}

var (
	rankersMu sync.RWMutex
	rankers   []Ranker
)

// RegisterRanker makes a ranking a filter selection can name (engine/rank
// registers its filters in init). A duplicate name panics.
func RegisterRanker(r Ranker) {
	rankersMu.Lock()
	defer rankersMu.Unlock()
	if slices.ContainsFunc(rankers, func(h Ranker) bool { return h.Name == r.Name }) || r.Rank == nil {
		panic("eval: ranker " + r.Name + " registered twice or without Rank")
	}
	rankers = append(rankers, r)
}

func lookupRanker(name string) (Ranker, bool) {
	rankersMu.RLock()
	defer rankersMu.RUnlock()
	for _, r := range rankers {
		if r.Name == name {
			return r, true
		}
	}
	return Ranker{}, false
}

// rankerNames are the filters registered, then the wrappers.
func selectMethods() []string {
	rankersMu.RLock()
	defer rankersMu.RUnlock()
	var out []string
	for _, r := range rankers {
		out = append(out, r.Name)
	}
	return append(out, SelectForward, SelectBackward)
}

// Selection is a parsed --select: a method and k (0: a wrapper stops when
// no step improves its score).
type Selection struct {
	Method string
	K      int
}

// ParseSelection reads "info_gain:10", "forward", "backward:3"; "" none.
func ParseSelection(text string) (Selection, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Selection{}, nil
	}
	name, count, hasK := strings.Cut(text, ":")
	s := Selection{Method: strings.TrimSpace(name)}
	if !slices.Contains(selectMethods(), s.Method) {
		return s, fmt.Errorf("%q names no selection (one of %s, as method:k)", text, strings.Join(selectMethods(), ", "))
	}
	if hasK {
		k, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil || k < 1 {
			return s, fmt.Errorf("%q: k must be a whole number of features, at least 1", text)
		}
		s.K = k
	} else if s.Method != SelectForward && s.Method != SelectBackward {
		return s, fmt.Errorf("%q: a filter keeps the top k features: write %s:k", text, s.Method)
	}
	return s, nil
}

func checkSelection(text string) error {
	_, err := ParseSelection(text)
	return err
}

// selectFeatures chooses the input columns the model learns from, on the
// training rows idx alone.
func (rn *runner) selectFeatures(idx []int) ([]int, error) {
	sel, err := ParseSelection(rn.opt.Pipeline.Select)
	if err != nil || sel.Method == "" {
		return nil, err
	}
	part := rn.d.Subset(idx)
	p := len(part.Features)
	if sel.Method != SelectForward && sel.Method != SelectBackward {
		r, _ := lookupRanker(sel.Method)
		if !slices.Contains(r.Tasks, part.Task) {
			return nil, engine.Limitf("select: %s does not rank features against a %s target", sel.Method, part.Task)
		}
		order, err := r.Rank(rn.ctx, part, rn.opt.Seed)
		if err != nil {
			return nil, fmt.Errorf("select %s: %w", sel.Method, err)
		}
		keep := slices.Clone(order[:min(sel.K, len(order))])
		slices.Sort(keep)
		return keep, nil
	}
	return rn.wrapper(part, sel, p)
}

// wrapper is forward or backward selection on the training part, each
// candidate scored by the primary metric of an inner InnerFolds-fold
// cross-validation of the model with the run's pipeline.
func (rn *runner) wrapper(part *datasets.Dataset, sel Selection, p int) ([]int, error) {
	primary := metrics.Primary(part.Task, nil)
	higher := metrics.Lookup(primary).Higher
	score := func(cols []int) (float64, error) {
		if err := rn.ctx.Err(); err != nil {
			return 0, err
		}
		d := columnsOf(part, cols)
		opt := Options{Folds: min(InnerFolds, part.Rows()), Seed: rn.opt.Seed, Standardize: rn.opt.Standardize,
			Pipeline: rn.opt.Pipeline, NoRefit: true, Reduce: min(rn.opt.Reduce, len(cols))}
		opt.Pipeline.Select = ""
		res, err := Run(rn.ctx, d, rn.spec, rn.v, opt, nil)
		if err != nil {
			return 0, err
		}
		v := res.Metrics[primary]
		if math.IsNaN(v) {
			return math.Inf(-1), nil
		}
		if !higher {
			v = -v
		}
		return v, nil
	}
	var kept []int
	if sel.Method == SelectBackward {
		for j := range p {
			kept = append(kept, j)
		}
	}
	best := math.Inf(-1)
	if len(kept) > 0 {
		var err error
		if best, err = score(kept); err != nil {
			return nil, fmt.Errorf("select backward: %w", err)
		}
	}
	for {
		if sel.Method == SelectForward && (len(kept) == p || sel.K > 0 && len(kept) >= sel.K) ||
			sel.Method == SelectBackward && (len(kept) == 1 || sel.K > 0 && len(kept) <= sel.K) {
			break
		}
		stepBest, stepCols := math.Inf(-1), []int(nil)
		for j := range p {
			var cols []int
			if sel.Method == SelectForward {
				if slices.Contains(kept, j) {
					continue
				}
				cols = append(slices.Clone(kept), j)
				slices.Sort(cols)
			} else {
				if !slices.Contains(kept, j) {
					continue
				}
				cols = slices.DeleteFunc(slices.Clone(kept), func(c int) bool { return c == j })
			}
			s, err := score(cols)
			if err != nil && rn.ctx.Err() == nil {
				continue // a subset the model cannot learn from (constant columns...) is no candidate
			}
			if err != nil {
				return nil, err
			}
			if s > stepBest {
				stepBest, stepCols = s, cols
			}
		}
		// Forward stops when no feature helps, unless k asks for more;
		// backward when every removal hurts, unless k asks for fewer.
		if stepCols == nil || sel.K == 0 && (stepBest < best || stepBest == best && sel.Method == SelectForward) {
			break
		}
		kept, best = stepCols, stepBest
	}
	if len(kept) == 0 {
		return nil, engine.Limitf("select %s: no feature could be scored on a training part", sel.Method)
	}
	return kept, nil
}

// columnsOf is d with only the feature columns cols.
func columnsOf(d *datasets.Dataset, cols []int) *datasets.Dataset {
	out := *d
	out.Features = make([]datasets.Column, len(cols))
	for k, j := range cols {
		out.Features[k] = d.Features[j]
	}
	n := d.Rows()
	out.X = mat.NewDense(n, len(cols), nil)
	for i := range n {
		src, dst := d.X.RawRowView(i), out.X.RawRowView(i)
		for k, j := range cols {
			dst[k] = src[j]
		}
	}
	return &out
}
