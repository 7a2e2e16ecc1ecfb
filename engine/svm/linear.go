package svm

import (
	"context"
	"fmt"
	"math"

	"github.com/tealab/tealab/engine/kernel"
	"gonum.org/v1/gonum/mat"
)

// linearProblem is one two-class problem for the linear SVM's solvers.
type linearProblem struct {
	X     *mat.Dense // n × d rows, as the model receives them
	Y     []float64  // +1 or −1 per row
	Upper []float64  // box bound C_i of each row's dual variable; +Inf: a hard margin
}

// linearOptions say how to solve a linearProblem.
type linearOptions struct {
	Solver  string  // "dcd" (dual coordinate descent) or "sgd"
	Tol     float64 // stopping tolerance
	MaxIter int     // most passes over the rows
	Seed    uint64  // order of the coordinates or samples
}

// linearSolution is a solved linearProblem: f(x) = W·x + B.
type linearSolution struct {
	W         []float64
	B         float64
	Alpha     []float64 // dual variable of each row (dcd); nil when the solver has none
	Passes    int
	Converged bool
}

// Defaults for a zero Tol or MaxIter: scikit-learn's LinearSVC's.
const (
	linearDefaultTol     = 1e-4
	linearDefaultMaxIter = 1000
)

// solveLinear solves p; step is called after each pass with its progress,
// and a non-nil error from step stops the solver and is returned.
//
// Both solvers fit the intercept as LIBLINEAR and scikit-learn's LinearSVC
// do: a constant feature of value 1 is appended to every row and B is its
// weight, so the intercept is regularised with W. The primal objective is
// ½(‖W‖² + B²) + Σ C_i max(0, 1 − y_i f(x_i)).
func solveLinear(ctx context.Context, p linearProblem, o linearOptions, step func(pass int, pr Progress) error) (linearSolution, error) {
	rows, err := linearRowsOf(p)
	if err != nil {
		return linearSolution{}, err
	}
	if o.Tol <= 0 {
		o.Tol = linearDefaultTol
	}
	if o.MaxIter <= 0 {
		o.MaxIter = linearDefaultMaxIter
	}
	if step == nil {
		step = func(int, Progress) error { return nil }
	}
	switch o.Solver {
	case "dcd", "":
		return solveLinearDCD(ctx, rows, o, step)
	case "sgd":
		return solveLinearSGD(ctx, rows, o, step)
	}
	return linearSolution{}, fmt.Errorf("svm: solver %q: want dcd or sgd", o.Solver)
}

// linearRows are a linearProblem's rows read in place, each with the
// constant feature 1 that carries the intercept.
type linearRows struct {
	data      []float64
	stride    int
	n, d      int
	y, upper  []float64
	someHard  bool // some C_i is +Inf: those rows must lie outside the margin
	hard      bool // every C_i is +Inf: a hard margin
	xx        []float64
	maxRadius float64 // largest ‖(x_i, 1)‖
}

// linearRowsOf checks p and precomputes x̃_i·x̃_i.
func linearRowsOf(p linearProblem) (*linearRows, error) {
	if p.X == nil || p.X.IsEmpty() {
		return nil, fmt.Errorf("svm: the linear solver was given no rows")
	}
	n, d := p.X.Dims()
	if len(p.Y) != n || len(p.Upper) != n {
		return nil, fmt.Errorf("svm: %d rows but %d labels and %d bounds", n, len(p.Y), len(p.Upper))
	}
	raw := p.X.RawMatrix()
	r := &linearRows{data: raw.Data, stride: raw.Stride, n: n, d: d, y: p.Y, upper: p.Upper, xx: make([]float64, n), hard: true}
	for i := 0; i < n; i++ {
		if p.Y[i] != 1 && p.Y[i] != -1 {
			return nil, fmt.Errorf("svm: row %d has label %v: want +1 or -1", i, p.Y[i])
		}
		if !(p.Upper[i] > 0) {
			return nil, fmt.Errorf("svm: row %d has bound C_i = %v: want a number above 0 (+Inf for a hard margin)", i, p.Upper[i])
		}
		inf := math.IsInf(p.Upper[i], 1)
		r.someHard, r.hard = r.someHard || inf, r.hard && inf
		x := r.row(i)
		r.xx[i] = kernel.Dot(x, x) + 1
		if math.IsNaN(r.xx[i]) || math.IsInf(r.xx[i], 0) {
			return nil, fmt.Errorf("svm: row %d has a missing or infinite feature: impute or drop it first", i)
		}
		r.maxRadius = math.Max(r.maxRadius, math.Sqrt(r.xx[i]))
	}
	return r, nil
}

// row is x_i without its constant feature.
func (r *linearRows) row(i int) []float64 {
	return r.data[i*r.stride : i*r.stride+r.d]
}

// linearModel is (W, B) while a solver works.
type linearModel struct {
	w []float64
	b float64
}

// decision is f(x_i) = w·x_i + b.
func (m *linearModel) decision(r *linearRows, i int) float64 {
	return kernel.Dot(m.w, r.row(i)) + m.b
}

// addRow is w̃ += a x̃_i.
func (m *linearModel) addRow(r *linearRows, i int, a float64) {
	w := m.w
	for j, v := range r.row(i)[:len(w)] {
		w[j] += a * v
	}
	m.b += a
}

// halfNormSq is ½‖w̃‖² = ½(‖w‖² + b²).
func (m *linearModel) halfNormSq() float64 {
	return 0.5 * (kernel.Dot(m.w, m.w) + m.b*m.b)
}

// linearPrimal is the primal objective ½‖w̃‖² + Σ C_i max(0, 1 − y_i f(x_i))
// and how many rows lie on or inside the margin (y_i f(x_i) ≤ 1): one
// pass over the rows. Hard-margin rows (C_i = +Inf) must have
// y_i f(x_i) ≥ 1: w̃ is first scaled up by 1/min_i y_i f(x_i) over them so
// that they do, which gives an upper bound of the optimum all the same
// (+Inf when some hard-margin row is on the wrong side).
func linearPrimal(r *linearRows, m *linearModel) (primal float64, inside int) {
	k := 1.0
	if r.someHard {
		least := linearSmallestMargin(r, m, true)
		if least <= 0 {
			return math.Inf(1), r.n
		}
		k = 1 / math.Min(least, 1)
	}
	var loss float64
	for i := 0; i < r.n; i++ {
		if h := 1 - k*r.y[i]*m.decision(r, i); h >= 0 {
			inside++
			if h > 0 && !math.IsInf(r.upper[i], 1) {
				loss += r.upper[i] * h
			}
		}
	}
	return k*k*m.halfNormSq() + loss, inside
}

// linearPrimalBudget decides when a solver evaluates its primal objective:
// a pass over every row, so it is spent only while the evaluations so far
// cost at most a twentieth of the rows the solver has visited (and always
// on the first pass and the last).
type linearPrimalBudget struct {
	visited, spent int
}

func (b *linearPrimalBudget) due() bool {
	return b.spent == 0 || 20*b.spent <= b.visited
}

func (b *linearPrimalBudget) charge(n int) { b.spent += n }
