// Package fakemodels registers small persistent models, one per task
// (names starting "fake-"), for tests of model files that must not depend
// on a family's state: import it for its side effect, in tests only.
package fakemodels

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"gonum.org/v1/gonum/mat"
)

func init() {
	shrink := engine.Param{Name: "shrink", Kind: engine.Float, Default: 0.0, Min: 0, Max: 1, Help: "pull the centroids towards their mean"}
	engine.Register(engine.Spec{Name: "fake-centroid", Title: "nearest centroid (test)", Family: "test",
		Tasks: []engine.Task{datasets.Classification, datasets.Regression}, Unit: "pass", Params: []engine.Param{shrink},
		New: func(v engine.Values) (engine.Model, error) { return &centroid{Shrink: v.Float("shrink")}, nil }})
	engine.Register(engine.Spec{Name: "fake-codes", Title: "nearest centroid on level codes (test)", Family: "test",
		Tasks: []engine.Task{datasets.Classification}, Unit: "pass", Input: engine.Input{Nominal: true},
		New: func(engine.Values) (engine.Model, error) { return &centroid{}, nil }})
	engine.Register(engine.Spec{Name: "fake-cluster", Title: "first rows as centres (test)", Family: "test",
		Tasks: []engine.Task{datasets.Clustering}, Unit: "pass",
		Params: []engine.Param{{Name: "k", Kind: engine.Int, Default: 3, Min: 1, Max: 10, Help: "clusters"}},
		New:    func(v engine.Values) (engine.Model, error) { return &centroid{K: v.Int("k")}, nil }})
	engine.Register(engine.Spec{Name: "fake-project", Title: "first columns, doubled (test)", Family: "test",
		Tasks: []engine.Task{datasets.Reduction}, Unit: "pass",
		New: func(engine.Values) (engine.Model, error) { return &doubler{}, nil }})
	engine.Register(engine.Spec{Name: "fake-volatile", Title: "cannot be saved (test)", Family: "test",
		Tasks: []engine.Task{datasets.Classification}, Unit: "pass",
		New: func(engine.Values) (engine.Model, error) { return &volatile{}, nil }})
}

// centroid predicts the class (or cluster) of the nearest centre;
// regression predicts the target of the nearest centre too.
type centroid struct {
	Shrink float64 `json:"-"`
	K      int     `json:"-"` // clustering: the first K rows are the centres

	Centres [][]float64 `json:"centres"`
	Targets []float64   `json:"targets"` // what each centre predicts
}

func (c *centroid) Fit(_ context.Context, tr engine.Train, rec engine.Recorder) error {
	c.Centres, c.Targets = nil, nil
	n, p := tr.X.Dims()
	switch {
	case c.K > 0:
		for i := range min(c.K, n) {
			c.Centres = append(c.Centres, mat.Row(nil, i, tr.X))
			c.Targets = append(c.Targets, float64(i))
		}
	case tr.Classes != nil:
		sums := make([][]float64, len(tr.Classes))
		counts := make([]float64, len(tr.Classes))
		for i := range n {
			k := int(tr.Y[i])
			if sums[k] == nil {
				sums[k] = make([]float64, p)
			}
			for j, v := range tr.X.RawRowView(i) {
				sums[k][j] += v
			}
			counts[k]++
		}
		for k := range sums {
			if counts[k] > 0 {
				for j := range sums[k] {
					sums[k][j] = sums[k][j]/counts[k]*(1-c.Shrink) + c.Shrink
				}
				c.Centres = append(c.Centres, sums[k])
				c.Targets = append(c.Targets, float64(k))
			}
		}
	default:
		for i := range n {
			c.Centres = append(c.Centres, mat.Row(nil, i, tr.X))
			c.Targets = append(c.Targets, tr.Y[i])
		}
	}
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (c *centroid) distances(X mat.Matrix) ([][]float64, error) {
	if c.Centres == nil {
		return nil, engine.ErrNotFitted
	}
	n, p := X.Dims()
	if p != len(c.Centres[0]) {
		return nil, fmt.Errorf("%d columns, fitted on %d", p, len(c.Centres[0]))
	}
	out := make([][]float64, n)
	for i := range n {
		for _, ctr := range c.Centres {
			d := 0.0
			for j, v := range ctr {
				d += (X.At(i, j) - v) * (X.At(i, j) - v)
			}
			out[i] = append(out[i], d)
		}
	}
	return out, nil
}

func (c *centroid) Predict(X mat.Matrix) ([]float64, error) {
	dist, err := c.distances(X)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(dist))
	for i, ds := range dist {
		best := 0
		for k, d := range ds {
			if d < ds[best] {
				best = k
			}
		}
		out[i] = c.Targets[best]
	}
	return out, nil
}

// PredictProba is a softmax of minus the squared distances.
func (c *centroid) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	dist, err := c.distances(X)
	if err != nil {
		return nil, err
	}
	classes := 0
	for _, t := range c.Targets {
		classes = max(classes, int(t)+1)
	}
	P := mat.NewDense(len(dist), classes, nil)
	for i, ds := range dist {
		sum := 0.0
		for k, d := range ds {
			e := math.Exp(-(d - ds[0]))
			P.Set(i, int(c.Targets[k]), e)
			sum += e
		}
		for k := range classes {
			P.Set(i, k, P.At(i, k)/sum)
		}
	}
	return P, nil
}

func (c *centroid) MarshalState() ([]byte, error) {
	if c.Centres == nil {
		return nil, engine.ErrNotFitted
	}
	return json.Marshal(c)
}

func (c *centroid) UnmarshalState(data []byte) error {
	var s centroid
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if len(s.Centres) == 0 || len(s.Centres) != len(s.Targets) {
		return errors.New("centres and targets must be as many, at least 1")
	}
	for _, ctr := range s.Centres {
		if len(ctr) == 0 || len(ctr) != len(s.Centres[0]) {
			return errors.New("centres of different widths")
		}
	}
	c.Centres, c.Targets = s.Centres, s.Targets
	return nil
}

// doubler keeps the first two columns, doubled.
type doubler struct{ Width int }

func (d *doubler) Fit(_ context.Context, tr engine.Train, rec engine.Recorder) error {
	_, d.Width = tr.X.Dims()
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (d *doubler) Transform(X mat.Matrix) (*mat.Dense, error) {
	if d.Width == 0 {
		return nil, engine.ErrNotFitted
	}
	n, p := X.Dims()
	if p != d.Width {
		return nil, fmt.Errorf("%d columns, fitted on %d", p, d.Width)
	}
	k := min(2, p)
	out := mat.NewDense(n, k, nil)
	for i := range n {
		for j := range k {
			out.Set(i, j, 2*X.At(i, j))
		}
	}
	return out, nil
}

func (d *doubler) MarshalState() ([]byte, error) {
	if d.Width == 0 {
		return nil, engine.ErrNotFitted
	}
	return json.Marshal(d)
}

func (d *doubler) UnmarshalState(data []byte) error {
	var s doubler
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if s.Width < 1 {
		return errors.New("width must be at least 1")
	}
	*d = s
	return nil
}

// volatile predicts but has no state to save.
type volatile struct{ c centroid }

func (v *volatile) Fit(ctx context.Context, tr engine.Train, rec engine.Recorder) error {
	return v.c.Fit(ctx, tr, rec)
}

func (v *volatile) Predict(X mat.Matrix) ([]float64, error) { return v.c.Predict(X) }
