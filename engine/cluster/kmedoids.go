package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

func init() {
	engine.Register(engine.Spec{
		Name:    "kmedoids",
		Title:   "k-medoids",
		Family:  family,
		Summary: "like k-means, but each centre is a training row (the medoid) and any distance works",
		Notes:   "Shewchuk, Concise Machine Learning, lecture 21 (k-medoids, any dissimilarity)",
		Tasks:   []engine.Task{datasets.Clustering},
		Unit:    "iteration",
		Loss:    "mean distance to the medoid",
		Params: []engine.Param{
			kParam(),
			{Name: "metric", Kind: engine.Choice, Default: "l2", Choices: []string{"l2", "l1", "linf"},
				Help: "distance: Euclidean, Manhattan, or the largest coordinate gap"},
			{Name: "restarts", Kind: engine.Int, Default: 5, Min: 1, Max: 1000, Help: "runs from different starts; the least total distance is kept"},
			{Name: "max_iter", Kind: engine.Int, Default: 100, Min: 1, Max: 1e5, Help: "most iterations of a run"},
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &KMedoids{K: v.Int("k"), Metric: v.String("metric"), Restarts: v.Int("restarts"), MaxIter: v.Int("max_iter")}, nil
		},
	})
}

// KMedoids alternates as Lloyd's algorithm does (Shewchuk, Concise Machine Learning, lecture 21): each row goes
// to its nearest medoid (a tie keeps its cluster), then each cluster's
// medoid becomes the member with the least total distance to the others;
// a run stops when no medoid changes. Starts are drawn as k-means++ draws
// them, with the chosen distance.
type KMedoids struct {
	K        int
	Metric   string
	Restarts int
	MaxIter  int

	X       *mat.Dense
	medoids []int
	labels  []int
	dist    func(a, b []float64) float64
	engine.FitState
}

func metricFunc(name string) (func(a, b []float64) float64, error) {
	switch name {
	case "l2":
		return func(a, b []float64) float64 { return math.Sqrt(kernel.SqDist(a, b)) }, nil
	case "l1":
		return func(a, b []float64) float64 { return floats.Distance(a, b, 1) }, nil
	case "linf":
		return func(a, b []float64) float64 { return floats.Distance(a, b, math.Inf(1)) }, nil
	}
	return nil, fmt.Errorf("parameter metric: %q is not one of l2, l1, linf", name)
}

// Fit implements engine.Model.
func (m *KMedoids) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	n, d := t.X.Dims()
	if err := engine.CheckFinite(t.X, t.Features); err != nil {
		return fmt.Errorf("k-medoids: %w", err)
	}
	k, err := clusters(m.K, t, n)
	if err != nil {
		return fmt.Errorf("k-medoids: %w", err)
	}
	dist, err := metricFunc(m.Metric)
	if err != nil {
		return err
	}
	m.X, m.dist = t.X, dist
	row := func(i int) []float64 { return t.X.RawRowView(i)[:d] }
	r := rand.New(rand.NewPCG(t.Seed, 0x1b873593cc9e2d51))
	maxIter := m.MaxIter
	best := math.Inf(1)
	step := 0
	for run := 0; run < m.Restarts; run++ {
		// k-means++ with the chosen distance.
		med := []int{r.IntN(n)}
		near := make([]float64, n)
		for i := range near {
			near[i] = dist(row(i), row(med[0]))
		}
		for len(med) < k {
			total := 0.0
			for _, v := range near {
				total += v * v
			}
			pick := r.IntN(n)
			if total > 0 {
				u := r.Float64() * total
				for i, v := range near {
					if u -= v * v; u < 0 {
						pick = i
						break
					}
				}
			}
			med = append(med, pick)
			for i := range near {
				near[i] = min(near[i], dist(row(i), row(pick)))
			}
		}
		labels := make([]int, n)
		for i := range labels {
			labels[i] = -1
		}
		// assign moves each row to its nearest medoid (a tie keeps it
		// where it was) and returns the summed distance.
		assign := func() float64 {
			cost := 0.0
			for i := range n {
				bc, bd := labels[i], math.Inf(1)
				if bc >= 0 {
					bd = dist(row(i), row(med[bc]))
				}
				for c, mi := range med {
					if v := dist(row(i), row(mi)); v < bd {
						bc, bd = c, v
					}
				}
				labels[i] = bc
				cost += bd
			}
			return cost
		}
		var cost float64
		converged := false
		for it := 1; it <= maxIter; it++ {
			cost = assign()
			changed := false
			members := make([][]int, k)
			for i, c := range labels {
				members[c] = append(members[c], i)
			}
			for c, ms := range members {
				bestM, bestS := med[c], math.Inf(1)
				for _, a := range ms {
					s := 0.0
					for _, b := range ms {
						s += dist(row(a), row(b))
						if s >= bestS {
							break
						}
					}
					if s < bestS || (s == bestS && a == med[c]) {
						bestM, bestS = a, s
					}
				}
				if bestM != med[c] {
					med[c], changed = bestM, true
				}
			}
			if run == 0 || cost < best {
				m.medoids, m.labels, m.Fitted = append([]int(nil), med...), append([]int(nil), labels...), true
			}
			step++
			if err := rec.Step(engine.Step{Step: step, TrainLoss: cost / float64(n),
				Detail: KMedoidsStep{Run: run + 1}}); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if !changed {
				converged = true
				break
			}
		}
		if !converged {
			cost = assign() // the labels of the medoids kept, as k-means does
		}
		if cost < best {
			best = cost
			m.medoids, m.labels = append([]int(nil), med...), append([]int(nil), labels...)
		}
	}
	return nil
}

// TrainingLabels implements engine.Labeler.
func (m *KMedoids) TrainingLabels() []int { return m.labels }

// Predict implements engine.Predictor: the nearest medoid.
func (m *KMedoids) Predict(X mat.Matrix) ([]float64, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, d := X.Dims()
	if _, fd := m.X.Dims(); fd != d {
		return nil, fmt.Errorf("k-medoids: got %d features, fitted on %d", d, fd)
	}
	out := make([]float64, n)
	x := make([]float64, d)
	for i := range n {
		mat.Row(x, i, X)
		bd := math.Inf(1)
		for c, mi := range m.medoids {
			if v := m.dist(x, m.X.RawRowView(mi)[:d]); v < bd {
				bd, out[i] = v, float64(c)
			}
		}
	}
	return out, nil
}
