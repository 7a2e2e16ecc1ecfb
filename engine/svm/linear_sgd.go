package svm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
)

// errSGDHardMargin: the subgradient solver minimises a penalised hinge loss,
// which a hard margin (C = +Inf) does not have.
var errSGDHardMargin = errors.New("svm: solver sgd needs a soft margin (a finite C): use margin=soft or solver=dcd")

// linearSGD is stochastic subgradient descent on the primal
// λ/2 ‖w̃‖² + (1/n) Σ s_i max(0, 1 − y_i f(x_i)) (Recht, Malik & Tu, CS 189,
// section 3), with Pegasos's step 1/(λt) (Shalev-Shwartz, Singer, Srebro &
// Cotter 2011). With λ = 1/Σ C_i and weights s_i = n C_i / Σ C_i it is the
// primal ½‖w̃‖² + Σ C_i max(0, 1 − y_i f(x_i)) divided by Σ C_i: the same
// minimiser, and λ = 1/(C n) when every C_i is C. w̃ is kept as scale · v
// so that the shrinking (1 − 1/t) w̃ of every step costs one multiplication.
// A pass's result is the mean of its iterates (suffix averaging: Rakhlin,
// Shamir & Sridharan 2012), steadier than the last iterate: kept lazily as sum · v − lag, where sum is Σ scale
// over the pass's steps and lag collects each change of v times the sum
// before it, so that averaging costs nothing on steps that change nothing.
type linearSGD struct {
	r      *linearRows
	v      linearModel
	scale  float64
	lambda float64
	weight []float64 // s_i
	t      float64   // steps taken
	sum    float64
	lag    linearModel
	steps  float64 // steps taken this pass
}

// linearSGDPatience: the subgradient solver stops once this many primal
// evaluations in a row have not lowered the best by o.Tol of itself, as
// scikit-learn's SGDClassifier does with n_iter_no_change.
const linearSGDPatience = 5

// solveLinearSGD takes seeded random passes over the rows until the primal
// objective stops falling, and returns the evaluated model with the lowest:
// the iterates wander about the optimum, so one evaluation to the next says
// little.
func solveLinearSGD(ctx context.Context, r *linearRows, o linearOptions, step func(int, Progress) error) (linearSolution, error) {
	if r.someHard {
		return linearSolution{}, errSGDHardMargin
	}
	s := newLinearSGD(r)
	rng := rand.New(rand.NewPCG(o.Seed, 0xda3e39cb94b95bdb))
	order := make([]int, r.n)
	for i := range order {
		order[i] = i
	}
	var budget linearPrimalBudget
	var sol linearSolution
	best, stale := math.Inf(1), 0
	for sol.Passes < o.MaxIter && !sol.Converged {
		if err := ctx.Err(); err != nil {
			return linearSolution{}, err
		}
		sol.Passes++
		budget.visited += r.n
		rng.Shuffle(r.n, func(a, b int) { order[a], order[b] = order[b], order[a] })
		s.restartMean()
		for _, i := range order {
			s.update(i)
		}
		pr := Progress{Primal: math.NaN(), Dual: math.NaN(), Gap: math.NaN()}
		if sol.Passes == o.MaxIter || budget.due() {
			budget.charge(r.n)
			m := s.model()
			pr.Primal, pr.SupportVectors = linearPrimal(r, &m)
			if pr.Primal < best*(1-o.Tol) {
				stale = 0
			} else {
				stale++
			}
			if pr.Primal < best {
				best, sol.W, sol.B = pr.Primal, m.w, m.b
			}
			sol.Converged = stale >= linearSGDPatience
		}
		if err := step(sol.Passes, pr); err != nil {
			return linearSolution{}, err
		}
	}
	return sol, nil
}

// newLinearSGD starts at w̃ = 0 with λ and the weights s_i of r's bounds.
func newLinearSGD(r *linearRows) *linearSGD {
	var sumC float64
	for _, c := range r.upper {
		sumC += c
	}
	s := &linearSGD{r: r, v: linearModel{w: make([]float64, r.d)}, scale: 1, lambda: 1 / sumC,
		weight: make([]float64, r.n), lag: linearModel{w: make([]float64, r.d)}}
	for i, c := range r.upper {
		s.weight[i] = float64(r.n) * c / sumC
	}
	return s
}

// update is one Pegasos step on row i: w̃ ← (1 − 1/t) w̃ + (s_i/(λt)) y_i x̃_i
// when row i is inside its margin, else only the shrinking.
func (s *linearSGD) update(i int) {
	s.t++
	eta := 1 / (s.lambda * s.t)
	inside := s.r.y[i]*s.scale*s.v.decision(s.r, i) < 1
	if s.t == 1 {
		s.scale = 1 // (1 − 1/t) is 0: w̃ starts afresh
		s.v.w, s.v.b = make([]float64, len(s.v.w)), 0
	} else {
		s.scale *= 1 - 1/s.t
	}
	if inside {
		a := eta * s.weight[i] * s.r.y[i] / s.scale
		s.v.addRow(s.r, i, a)
		s.lag.addRow(s.r, i, a*s.sum)
	}
	s.sum += s.scale
	s.steps++
	if s.scale < 1e-9 {
		s.rescale()
	}
}

// restartMean starts the mean of the iterates afresh.
func (s *linearSGD) restartMean() {
	s.sum, s.steps = 0, 0
	clear(s.lag.w)
	s.lag.b = 0
}

// rescale folds the scale into v before it underflows; the mean's sum is
// kept in the new units.
func (s *linearSGD) rescale() {
	for j := range s.v.w {
		s.v.w[j] *= s.scale
	}
	s.v.b *= s.scale
	s.sum /= s.scale
	s.scale = 1
}

// model is the mean of this pass's iterates, (sum · v − lag)/steps.
func (s *linearSGD) model() linearModel {
	m := linearModel{w: make([]float64, len(s.v.w)), b: (s.sum*s.v.b - s.lag.b) / s.steps}
	for j, v := range s.v.w {
		m.w[j] = (s.sum*v - s.lag.w[j]) / s.steps
	}
	return m
}
