// Logistic's solver steps: a damped Newton (IRLS) step and a gradient-descent
// step on one logitRun, and L-BFGS through gonum/optimize. Logistic.Fit
// drives them (and sgd) in logistic.go.

package linear

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// logitRun is one objective being minimised.
type logitRun struct {
	obj                        logitObjective
	theta, grad, trial, gtrial []float64
	J                          float64
	done                       bool

	// Newton only.
	H    *mat.SymDense
	e    []float64
	chol mat.Cholesky
}

func newLogitRun(obj logitObjective, newton bool) *logitRun {
	k := obj.dim()
	r := &logitRun{obj: obj, theta: make([]float64, k), grad: make([]float64, k),
		trial: make([]float64, k), gtrial: make([]float64, k)}
	if newton {
		r.H = mat.NewSymDense(k, nil)
		r.e = make([]float64, k)
	}
	r.J = obj.eval(r.theta, r.grad)
	return r
}

// newton does one damped Newton step using a Hessian on rows rows.
func (r *logitRun) newton(rows int) error {
	k := r.obj.dim()
	raw := r.H.RawSymmetric().Data
	r.obj.hessian(raw, rows)
	if !r.chol.Factorize(r.H) {
		// Only rounding can make J's Hessian indefinite (the penalty makes it
		// definite): add a growing multiple of the identity.
		maxd := 0.0
		for j := 0; j < k; j++ {
			maxd = math.Max(maxd, raw[j*k+j])
		}
		ok := false
		for lam := 1e-10 * math.Max(maxd, 1); lam < 1e6*math.Max(maxd, 1) && !ok; lam *= 100 {
			for j := 0; j < k; j++ {
				raw[j*k+j] += lam
			}
			ok = r.chol.Factorize(r.H)
		}
		if !ok {
			return fmt.Errorf("logistic regression: the Hessian is not positive definite (are there NaN or huge feature values?)")
		}
	}
	ev := mat.NewVecDense(k, r.e)
	if err := r.chol.SolveVecTo(ev, mat.NewVecDense(k, r.grad)); err != nil {
		// A near-singular factor still gives a usable direction; only a
		// failed solve is fatal.
		if _, ok := err.(mat.Condition); !ok {
			return fmt.Errorf("logistic regression: Newton step: %v", err)
		}
	}
	floats.Scale(-1, r.e)
	slope := floats.Dot(r.grad, r.e) // < 0: a descent direction
	// Near the optimum the decrease Newton predicts is below the rounding of
	// J: then J cannot judge a step, the gradient can.
	flat := -slope <= 1e-10*math.Abs(r.J)
	gnorm := floats.Norm(r.grad, math.Inf(1))
	alpha := 1.0
	for try := 0; try < 40; try++ {
		floats.AddScaledTo(r.trial, r.theta, alpha, r.e)
		Jt := r.obj.eval(r.trial, r.gtrial)
		if Jt <= r.J+1e-4*alpha*slope || (flat && floats.Norm(r.gtrial, math.Inf(1)) < gnorm) {
			r.accept(Jt)
			return nil
		}
		if flat {
			break
		}
		alpha /= 2
	}
	// No decrease at all: θ is as good as rounding allows. Restore the cache.
	r.J = r.obj.eval(r.theta, r.grad)
	r.done = true
	return nil
}

func (r *logitRun) accept(J float64) {
	r.theta, r.trial = r.trial, r.theta
	r.grad, r.gtrial = r.gtrial, r.grad
	r.J = J
}

// gd does one gradient-descent step.
func (r *logitRun) gd(step float64) {
	floats.AddScaledTo(r.trial, r.theta, -step, r.grad)
	r.accept(r.obj.eval(r.trial, r.gtrial))
}

// logitLBFGS minimises each run with L-BFGS in turn, reporting every major
// iteration to step (numbered across the runs).
func logitLBFGS(runs []*logitRun, maxIter int, gradTol float64, step func(it int) error) error {
	it := 0
	for _, r := range runs {
		if floats.Norm(r.grad, math.Inf(1)) <= gradTol {
			r.done = true
			continue
		}
		// Func and Grad come at the same point: one evaluation serves both.
		var lastX []float64
		lastG := make([]float64, len(r.theta))
		lastJ := 0.0
		at := func(x []float64) {
			if lastX != nil && floats.Equal(x, lastX) {
				return
			}
			lastX = append(lastX[:0], x...)
			lastJ = r.obj.eval(x, lastG)
		}
		prob := optimize.Problem{
			Func: func(x []float64) float64 { at(x); return lastJ },
			Grad: func(g, x []float64) { at(x); copy(g, lastG) },
		}
		took := func(x []float64, J float64, g []float64) error {
			copy(r.theta, x)
			copy(r.grad, g)
			r.J = J
			it++
			return step(it)
		}
		settings := &optimize.Settings{
			GradientThreshold: gradTol,
			MajorIterations:   maxIter,
			Converger:         &optimize.FunctionConverge{Relative: 64 * 0x1p-52, Iterations: 1},
			Recorder:          lbfgsRecorder(took),
		}
		res, err := optimize.Minimize(prob, append([]float64(nil), r.theta...), settings, &optimize.LBFGS{Store: 10})
		if err != nil {
			return err
		}
		// The last iteration is not recorded when it converges.
		J := r.obj.eval(res.X, r.gtrial)
		if err := took(res.X, J, r.gtrial); err != nil {
			return err
		}
		r.done = true
		if floats.Norm(r.grad, math.Inf(1)) > gradTol && res.Status == optimize.IterationLimit {
			r.done = false
		}
	}
	return nil
}

// lbfgsRecorder passes gonum's major iterations to took.
type lbfgsRecorder func(x []float64, J float64, g []float64) error

func (lbfgsRecorder) Init() error { return nil }

func (f lbfgsRecorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op != optimize.MajorIteration {
		return nil
	}
	return f(loc.X, loc.F, loc.Gradient)
}
