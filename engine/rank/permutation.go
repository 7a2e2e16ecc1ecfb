package rank

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// DefaultRepeats is how many times permutation importance shuffles each
// feature, scikit-learn's default n_repeats.
const DefaultRepeats = 5

// heldOut is one fold's model, fitted on its training part by eval.Run,
// and the raw held-out rows it is scored on.
type heldOut struct {
	model engine.Predictor
	prep  *datasets.Prep
	X     *mat.Dense
	y     []float64
}

// permutation is the mean drop of the primary metric over Repeats
// shuffles of each feature on the held-out rows of each fold (eval.Plan's
// hold-out, k folds, or the supplied test set), each fold's model fitted
// on its training part only: scikit-learn's permutation_importance, the
// drops averaged over the folds within a repeat, the spread the
// population standard deviation over the repeats.
func permutation(ctx context.Context, d *datasets.Dataset, opt Options, tick func(done, total int) error) (mean, std []float64, desc, metric string, err error) {
	spec, v := opt.Model, opt.Values
	task := d.Task
	metric = metrics.Primary(task, nil)
	info := metrics.Lookup(metric)
	pos := -1
	if task == datasets.Classification {
		if pos, err = eval.PositiveClass(d, opt.Eval.Positive); err != nil {
			return nil, nil, "", "", err
		}
	}
	var parts []heldOut
	fit := func(o eval.Options, X *mat.Dense, y []float64) error {
		o.NoRefit, o.Consume = true, false
		res, err := eval.Run(ctx, d, spec, v, o, nil)
		if err != nil {
			return err
		}
		p, ok := res.Fitted.(engine.Predictor)
		if !ok || res.Prep == nil {
			return fmt.Errorf("permutation: model %s cannot predict new rows", spec.Name)
		}
		parts = append(parts, heldOut{p, res.Prep, X, y})
		return nil
	}
	repeats := opt.Repeats
	if repeats <= 0 {
		repeats = DefaultRepeats
	}
	p := len(d.Features)
	if opt.Eval.Test != nil {
		t := opt.Eval.Test
		desc = eval.TestSetDesc(t)
		if err := fit(opt.Eval, t.X, t.Y); err != nil {
			return nil, nil, "", "", err
		}
	} else {
		o := opt.Eval
		o.Costs = nil
		folds, plan, err := eval.Plan(d, o)
		if err != nil {
			return nil, nil, "", "", err
		}
		desc = plan
		for f, fold := range folds {
			o.Plan, o.PlanDesc = []eval.Fold{fold}, plan
			y := make([]float64, len(fold.Test))
			for r, i := range fold.Test {
				y[r] = d.Y[i]
			}
			if err := fit(o, datasets.GatherRows(d.X, fold.Test), y); err != nil {
				if len(folds) > 1 {
					return nil, nil, "", "", fmt.Errorf("fold %d: %w", f+1, err)
				}
				return nil, nil, "", "", err
			}
			if tick != nil {
				if err := tick(f+1, len(folds)+p); err != nil {
					return nil, nil, "", "", err
				}
			}
		}
	}
	score := func(h heldOut, X *mat.Dense) (float64, error) {
		P, err := h.prep.Apply(X)
		if err != nil {
			return 0, err
		}
		pred, err := h.model.Predict(P)
		if err != nil {
			return 0, fmt.Errorf("permutation: model %s: %v", spec.Name, err)
		}
		m := eval.Metrics(task, d.Classes, pos, h.y, pred, nil, false)
		s, ok := m[metric]
		if !ok || math.IsNaN(s) {
			return 0, fmt.Errorf("permutation: the held-out rows give no %s", info.Label)
		}
		return s, nil
	}
	base := make([]float64, len(parts))
	for f, h := range parts {
		if base[f], err = score(h, h.X); err != nil {
			return nil, nil, "", "", err
		}
	}
	mean, std = make([]float64, p), make([]float64, p)
	drops := make([]float64, repeats)
	for j := range p {
		if err := ctx.Err(); err != nil {
			return nil, nil, "", "", err
		}
		rng := rand.New(rand.NewPCG(opt.Eval.Seed, uint64(j)))
		for r := range repeats {
			drops[r] = 0
			for f, h := range parts {
				X := mat.DenseCopyOf(h.X)
				n, _ := X.Dims()
				perm := rng.Perm(n)
				for i, src := range perm {
					X.Set(i, j, h.X.At(src, j))
				}
				s, err := score(h, X)
				if err != nil {
					return nil, nil, "", "", err
				}
				drop := base[f] - s
				if !info.Higher {
					drop = -drop
				}
				drops[r] += drop / float64(len(parts))
			}
		}
		var m, ss float64
		for _, x := range drops {
			m += x
		}
		m /= float64(repeats)
		for _, x := range drops {
			ss += (x - m) * (x - m)
		}
		// Drops are differences of scores such as k/n: what is left of
		// them below 1e-12 is rounding, not importance.
		if math.Abs(m) < 1e-12 {
			m = 0
		}
		mean[j], std[j] = m, math.Sqrt(ss/float64(repeats))
		if tick != nil {
			if err := tick(len(parts)+j+1, len(parts)+p); err != nil {
				return nil, nil, "", "", err
			}
		}
	}
	return mean, std, desc + ", " + info.Label, metric, nil
}
