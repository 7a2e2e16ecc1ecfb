package lecture

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// The path's solvers: the λ grid, and the fits along it with warm starts
// (coordinate descent for the lasso, the SVD for ridge, proximal Newton for
// penalised logistic regression), each stopping on its optimality
// condition; path.go sets up the problem and cross-validates it.

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func dot(a, b []float64) float64 {
	t := 0.0
	for i := range a {
		t += a[i] * b[i]
	}
	return t
}

// gram is ZᵀZ/n.
func (s *stdData) gram() [][]float64 {
	p := len(s.z)
	g := make([][]float64, p)
	for j := range g {
		g[j] = make([]float64, p)
	}
	for j := range p {
		for k := j; k < p; k++ {
			v := dot(s.z[j], s.z[k]) / float64(s.n)
			g[j][k], g[k][j] = v, v
		}
	}
	return g
}

// topEigen is the largest eigenvalue of the symmetric matrix g.
func topEigen(g [][]float64) float64 {
	p := len(g)
	a := mat.NewSymDense(p, nil)
	for j := range p {
		for k := j; k < p; k++ {
			a.SetSym(j, k, g[j][k])
		}
	}
	var e mat.EigenSym
	if !e.Factorize(a, false) {
		return 1
	}
	vals := e.Values(nil)
	return vals[len(vals)-1]
}

// pathGrid is the λ grid, descending (see the ratio knob).
func pathGrid(prob *pathProblem, s *stdData, L int, ratio float64) []float64 {
	var hi, lo float64
	if prob.l1 {
		// At w = 0 the loss's gradient is −Zᵀ(y − ȳ)/n for both losses
		// (the intercept fitted: ȳ, or logit ȳ); λ_max is its largest entry.
		yc := make([]float64, s.n)
		for i := range yc {
			yc[i] = s.y[i]
			if prob.logistic {
				yc[i] -= s.yMean
			}
		}
		for _, z := range s.z {
			hi = math.Max(hi, math.Abs(dot(z, yc))/float64(s.n))
		}
		lo = hi * ratio
	} else {
		h := topEigen(s.gram())
		if prob.logistic {
			h *= s.yMean * (1 - s.yMean)
		}
		hi = 100 * h // every weight within 1% of zero
		lo = hi * ratio * ratio
	}
	if !(hi > 0) { // no feature moves with the target: a token grid
		hi, lo = 1, ratio
	}
	out := make([]float64, L)
	for i := range out {
		t := float64(i) / float64(L-1)
		out[i] = math.Exp(math.Log(hi) + t*(math.Log(lo)-math.Log(hi)))
	}
	out[0], out[L-1] = hi, lo
	return out
}

// fitPath fits the model at every λ in turn, warm-starting each from the
// last, and hands each fit to got (w on the standardised scale, b the
// intercept).
func fitPath(ctx context.Context, prob *pathProblem, s *stdData, lambdas []float64, got func(i int, w []float64, b float64)) error {
	switch {
	case prob.logistic:
		return logisticPath(ctx, s, lambdas, prob.l1, got)
	case prob.l1:
		return lassoPath(ctx, s, lambdas, got)
	default:
		return ridgePath(ctx, s, lambdas, got)
	}
}

// lassoPath is cyclic coordinate descent on the Gram matrix (Friedman,
// Hastie & Tibshirani 2010): with q = Zᵀy/n − Gw, coordinate j's exact
// minimiser is soft(q_j + G_jj w_j, λ)/G_jj. It stops when a sweep moves
// no weight by more than 1e-13 of the largest, so the path matches
// scikit-learn's lasso_path run to a tiny tolerance.
func lassoPath(ctx context.Context, s *stdData, lambdas []float64, got func(int, []float64, float64)) error {
	p := len(s.z)
	g := s.gram()
	c := make([]float64, p)
	for j := range p {
		c[j] = dot(s.z[j], s.y) / float64(s.n)
	}
	w := make([]float64, p)
	q := make([]float64, p)
	for i, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		for j := range p { // afresh at each λ, so that rounding does not pile up
			q[j] = c[j] - dot(g[j], w)
		}
		for sweep := 0; sweep < 100000; sweep++ {
			moved, top := 0.0, 0.0
			for j := range p {
				if g[j][j] == 0 {
					continue
				}
				nw := soft(q[j]+g[j][j]*w[j], lam) / g[j][j]
				if d := nw - w[j]; d != 0 {
					for k := range p {
						q[k] -= d * g[k][j]
					}
					w[j] = nw
					moved = math.Max(moved, math.Abs(d))
				}
				top = math.Max(top, math.Abs(w[j]))
			}
			if moved <= 1e-13*top {
				break
			}
		}
		got(i, append([]float64(nil), w...), s.yMean)
	}
	return nil
}

func soft(z, t float64) float64 {
	switch {
	case z > t:
		return z - t
	case z < -t:
		return z + t
	}
	return 0
}

// ridgePath is the closed form through the SVD Z = U diag(s) Vᵀ:
// w(λ) = V diag(s/(s² + nλ)) Uᵀy.
func ridgePath(ctx context.Context, s *stdData, lambdas []float64, got func(int, []float64, float64)) error {
	p := len(s.z)
	z := mat.NewDense(s.n, p, nil)
	for j := range p {
		for i := range s.n {
			z.Set(i, j, s.z[j][i])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(z, mat.SVDThin) {
		return fmt.Errorf("path: the SVD of the features did not converge")
	}
	sv := svd.Values(nil)
	var u, vt mat.Dense
	svd.UTo(&u)
	svd.VTo(&vt) // V, p×k
	k := len(sv)
	uty := make([]float64, k)
	for c := range k {
		for i := range s.n {
			uty[c] += u.At(i, c) * s.y[i]
		}
	}
	n := float64(s.n)
	for i, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		w := make([]float64, p)
		for c := range k {
			f := sv[c] / (sv[c]*sv[c] + n*lam) * uty[c]
			for j := range p {
				w[j] += vt.At(j, c) * f
			}
		}
		got(i, w, s.yMean)
	}
	return nil
}

// logisticPath is a proximal Newton method (glmnet's, with a line search
// as Lee, Sun & Saunders 2014 give it): at each step the log-loss is
// replaced by its quadratic model, which coordinate descent minimises
// with the L1 penalty (or a linear solve with the L2 one), and a
// backtracking search along the step keeps the objective going down. It
// stops when the optimality condition 0 ∈ ∂C(w) holds to 1e-11: for an
// L1 weight, |g_j + λ sign w_j| when w_j ≠ 0 and (|g_j| − λ)₊ when w_j = 0
// (Hocking's sub-optimality, with the sign corrected), g the gradient of
// the mean log-loss.
func logisticPath(ctx context.Context, s *stdData, lambdas []float64, l1 bool, got func(int, []float64, float64)) error {
	p, n := len(s.z), s.n
	m := p + 1 // coordinate 0 is the intercept
	v := make([]float64, m)
	v[0] = math.Log(s.yMean / (1 - s.yMean))
	prob := make([]float64, n)
	wt := make([]float64, n)
	grad := make([]float64, m)
	hess := make([][]float64, m)
	for j := range hess {
		hess[j] = make([]float64, m)
	}
	// The rows with a leading 1 for the intercept, row major, so that the
	// Hessian's n·m²/2 products run down contiguous memory.
	aug := make([]float64, n*m)
	for i := range n {
		aug[i*m] = 1
		for j := 1; j < m; j++ {
			aug[i*m+j] = s.z[j-1][i]
		}
	}
	penalty := func(u []float64) float64 {
		t := 0.0
		for _, x := range u[1:] {
			if l1 {
				t += math.Abs(x)
			} else {
				t += x * x / 2
			}
		}
		return t
	}
	loss := func(u []float64) float64 {
		t := 0.0
		for i := range n {
			e := dot(aug[i*m:(i+1)*m], u)
			t += softplus(e) - s.yBinom[i]*e
		}
		return t / float64(n)
	}
	u := make([]float64, m)
	r := make([]float64, m)
	for li, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		for outer := 0; outer < 200; outer++ {
			if err := ctx.Err(); err != nil { // near separation one λ can take a while
				return err
			}
			clear(grad)
			for i := range n {
				row := aug[i*m : (i+1)*m]
				prob[i] = sigmoid(dot(row, v))
				wt[i] = prob[i] * (1 - prob[i])
				d := (prob[i] - s.yBinom[i]) / float64(n)
				for j, a := range row {
					grad[j] += a * d
				}
			}
			viol := optimality(grad, v, lam, l1)
			if viol < 1e-11 {
				break
			}
			for j := range m {
				clear(hess[j])
			}
			for i := range n {
				row := aug[i*m : (i+1)*m]
				wi := wt[i] / float64(n)
				for j, a := range row {
					f, h := wi*a, hess[j][j:]
					for k, b := range row[j:] {
						h[k] += f * b
					}
				}
			}
			for j := range m {
				for k := j + 1; k < m; k++ {
					hess[k][j] = hess[j][k]
				}
			}
			// The step: u minimises gᵀ(u−v) + ½(u−v)ᵀH(u−v) + λP(u).
			copy(u, v)
			if l1 {
				copy(r, grad) // r = g + H(u − v)
				// Solved as exactly as the outer step needs: to a small
				// share of the current violation, ever finer as it falls.
				inner := 1e-3 * viol
				for sweep := 0; sweep < 10000; sweep++ {
					moved, top := 0.0, 0.0
					for j := range m {
						a := hess[j][j]
						if a <= 0 {
							continue
						}
						var nu float64
						if j == 0 {
							nu = u[j] - r[j]/a
						} else {
							nu = soft(a*u[j]-r[j], lam) / a
						}
						if d := nu - u[j]; d != 0 {
							for k, h := range hess[j] { // H is symmetric: row j is column j
								r[k] += h * d
							}
							u[j] = nu
							if d < 0 {
								d = -d
							}
							if d > moved {
								moved = d
							}
						}
						if a := math.Abs(u[j]); a > top {
							top = a
						}
					}
					if moved <= math.Max(1e-15, inner)*math.Max(top, 1) {
						break
					}
				}
			} else {
				a := mat.NewSymDense(m, nil)
				rhs := mat.NewVecDense(m, nil)
				for j := range m {
					for k := j; k < m; k++ {
						a.SetSym(j, k, hess[j][k])
					}
					rhs.SetVec(j, -grad[j])
					if j > 0 {
						a.SetSym(j, j, hess[j][j]+lam)
						rhs.SetVec(j, -grad[j]-lam*v[j])
					}
				}
				var ch mat.Cholesky
				var d mat.VecDense
				if !ch.Factorize(a) || ch.SolveVecTo(&d, rhs) != nil {
					return fmt.Errorf("path: the Newton step at λ=%g is singular", lam)
				}
				for j := range m {
					u[j] = v[j] + d.AtVec(j)
				}
			}
			// Backtracking along d = u − v (Armijo, with the directional
			// derivative of the penalised objective).
			d := make([]float64, m)
			delta := 0.0
			for j := range m {
				d[j] = u[j] - v[j]
				delta += grad[j] * d[j]
			}
			if l1 {
				delta += lam * (penalty(u) - penalty(v))
			} else {
				for j := 1; j < m; j++ {
					delta += lam * v[j] * d[j]
				}
			}
			if delta >= 0 { // no descent left at rounding level
				break
			}
			f0 := loss(v) + lam*penalty(v)
			if -delta < 1e-13*(1+math.Abs(f0)) {
				// The decrease is below the objective's rounding, where a
				// line search cannot tell better from worse: near the
				// optimum the Newton step is taken whole.
				copy(v, u)
				continue
			}
			t := 1.0
			trial := make([]float64, m)
			for ; t > 1e-12; t /= 2 {
				for j := range m {
					trial[j] = v[j] + t*d[j]
				}
				if loss(trial)+lam*penalty(trial) <= f0+1e-4*t*delta {
					break
				}
			}
			if t <= 1e-12 {
				break
			}
			copy(v, trial)
		}
		got(li, append([]float64(nil), v[1:]...), v[0])
	}
	return nil
}

// optimality is the largest violation of 0 ∈ ∂C at v (v[0] the intercept).
func optimality(g, v []float64, lam float64, l1 bool) float64 {
	worst := math.Abs(g[0])
	for j := 1; j < len(v); j++ {
		var c float64
		switch {
		case !l1:
			c = math.Abs(g[j] + lam*v[j])
		case v[j] > 0:
			c = math.Abs(g[j] + lam)
		case v[j] < 0:
			c = math.Abs(g[j] - lam)
		default:
			c = math.Max(math.Abs(g[j])-lam, 0)
		}
		worst = math.Max(worst, c)
	}
	return worst
}

func sigmoid(e float64) float64 {
	if e >= 0 {
		return 1 / (1 + math.Exp(-e))
	}
	x := math.Exp(e)
	return x / (1 + x)
}

// softplus is log(1 + eᵉ) without overflow.
func softplus(e float64) float64 {
	if e > 0 {
		return e + math.Log1p(math.Exp(-e))
	}
	return math.Log1p(math.Exp(e))
}
