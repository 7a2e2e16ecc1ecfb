package svm

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/tealab/tealab/engine"
)

// The SMO solver of LIBSVM (Chang & Lin, LIBSVM: a library for support
// vector machines, 2011, section 4.1), for the dual
//
//	min_α ½ αᵀQα + pᵀα   subject to yᵀα = 0,  0 ≤ α_i ≤ C_i,
//
// with y_i = ±1 and a box bound C_i per variable (C × class weight ×
// sample weight, as scikit-learn passes them). Each iteration picks the
// pair (i, j) by second-order working-set selection (Fan, Chen & Lin,
// JMLR 6, 2005, WSS 2) and solves the two-variable problem exactly;
// shrinking sets aside the variables that sit at a bound and seem bound to
// stay there, and an LRU cache keeps the rows of Q it computed.

// smoMatrix is the Q of a dual: its row i over the first length
// variables (valid until the second next call), its diagonal, and the
// exchange of two variables' places (shrinking moves inactive variables
// to the end).
type smoMatrix interface {
	row(i, length int) []float64
	diag() []float64
	swap(i, j int)
}

// smoProblem is a dual for the solver.
type smoProblem struct {
	Q     smoMatrix
	P     []float64 // linear term
	Y     []float64 // +1 or −1 per variable
	Upper []float64 // C_i; +Inf for no bound (a hard margin)
}

// smoOptions say how to solve.
type smoOptions struct {
	Tol       float64 // stop when the maximal violating pair violates by less
	Shrinking bool
	MaxIter   int // most iterations; ≤ 0: LIBSVM's max(10⁷, 100·l)
	// Step, when set, is called every smoStepIters iterations and once at
	// the end with the solver as it stands; an error stops the solver.
	Step func(s *smoSolver) error
}

// smoStepIters is how many SMO iterations one reported step (an "SMO
// round") spans.
const smoStepIters = 200

// smoTau stands for a non-positive curvature (LIBSVM's TAU).
const smoTau = 1e-12

// smoResult is the solved dual.
type smoResult struct {
	Alpha     []float64 // in the problem's order
	Rho       float64   // the decision is Σ y_i α_i K(x_i, x) − Rho
	Obj       float64   // ½ αᵀQα + pᵀα
	Iters     int
	Converged bool
}

const (
	smoLower int8 = iota
	smoUpper
	smoFree
)

type smoSolver struct {
	q                   smoMatrix
	l, active           int
	y, p, alpha, upper  []float64
	grad, gradBar, qd   []float64
	upOff, lowOff       []float64 // 0 for the members of I_up and I_low, −∞ for the others
	status              []int8
	place               []int // original index of the variable at each place
	tol                 float64
	shrinking, unshrunk bool
	iters               int
	// obj is the objective ½αᵀQα + pᵀα, kept up to date by each update
	// from the two variables it moves, whose gradients are exact even
	// while others are shrunk (the gradients of those are stale).
	obj float64
	// work counts the gradient entries the iterations updated, spent the
	// products that rebuilding shrunk variables' gradients for the steps'
	// primal took: the primal's budget (smoPrimalShare).
	work, spent int
}

// smoPrimalShare: a step evaluates the primal objective while the
// solver has shrunk variables only while the gradients rebuilt for it
// have cost at most this share of the iterations' own work (every step
// when nothing is shrunk, as the gradients are then exact and free).
const smoPrimalShare = 20

// solveSMO solves pr from α = 0.
func solveSMO(ctx context.Context, pr smoProblem, o smoOptions) (smoResult, error) {
	l := len(pr.P)
	s := &smoSolver{q: pr.Q, l: l, active: l, tol: o.Tol, shrinking: o.Shrinking,
		y: append([]float64(nil), pr.Y...), p: append([]float64(nil), pr.P...),
		upper: append([]float64(nil), pr.Upper...), alpha: make([]float64, l),
		grad: append([]float64(nil), pr.P...), gradBar: make([]float64, l),
		qd: append([]float64(nil), pr.Q.diag()...), status: make([]int8, l), place: make([]int, l),
		upOff: make([]float64, l), lowOff: make([]float64, l)}
	for i := range s.place {
		s.place[i] = i
		s.setStatus(i)
	}
	maxIter := o.MaxIter
	if maxIter <= 0 {
		maxIter = max(10_000_000, 100*l)
	}
	counter := min(l, 1000) + 1
	converged := false
	done := ctx.Done()
	for s.iters < maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if s.shrinking {
				s.shrink()
			}
		}
		i, j, optimal := s.workingSet()
		if optimal {
			s.reconstructGradient()
			s.active = l
			if i, j, optimal = s.workingSet(); optimal {
				converged = true
				break
			}
			counter = 1
		}
		s.iters++
		s.update(i, j)
		if s.iters%smoStepIters == 0 {
			if engine.Stopped(done) {
				return smoResult{}, ctx.Err()
			}
			if o.Step != nil {
				if err := o.Step(s); err != nil {
					return smoResult{}, err
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return smoResult{}, err
	}
	if s.active < l {
		s.reconstructGradient()
		s.active = l
	}
	if o.Step != nil && s.iters%smoStepIters != 0 {
		if err := o.Step(s); err != nil {
			return smoResult{}, err
		}
	}
	return smoResult{Alpha: s.alphas(), Rho: s.rho(), Obj: s.objective(), Iters: s.iters, Converged: converged}, nil
}

func (s *smoSolver) setStatus(i int) {
	switch {
	case s.alpha[i] >= s.upper[i]:
		s.status[i] = smoUpper
	case s.alpha[i] <= 0:
		s.status[i] = smoLower
	default:
		s.status[i] = smoFree
	}
	// I_up: α_i may rise if y_i = 1, fall if y_i = −1; I_low the reverse.
	rise, fall := s.status[i] != smoUpper, s.status[i] != smoLower
	if s.y[i] < 0 {
		rise, fall = fall, rise
	}
	s.upOff[i], s.lowOff[i] = smoOffset(rise), smoOffset(fall)
}

// smoOffset is 0 for a member of a set, −∞ for a stranger.
func smoOffset(member bool) float64 {
	if member {
		return 0
	}
	return math.Inf(-1)
}

// workingSet is WSS 2: i maximises the violation −y_i∇_i over I_up, j the
// second-order decrease of the objective over I_low; optimal when the
// maximal violation is below tol. Membership of I_up and I_low is read
// as a 0 or −∞ added to each candidate (upOff, lowOff), so that the loops
// do not branch on it.
func (s *smoSolver) workingSet() (int, int, bool) {
	n := s.active
	y, grad, up, low := s.y[:n], s.grad[:n], s.upOff[:n], s.lowOff[:n]
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gi, gj := -1, -1
	for t := range y {
		if v := up[t] - y[t]*grad[t]; v >= gmax {
			gmax, gi = v, t
		}
	}
	if math.IsInf(gmax, -1) {
		return -1, -1, true
	}
	qi := s.q.row(gi, n)[:n]
	qd := s.qd[:n]
	yi, qdi := s.y[gi], s.qd[gi]
	// The decrease −diff²/quad is compared as diff²·quad' ≥ diff'²·quad
	// with the best so far (quad > 0): no division in the loop.
	bestNum, bestDen := 0.0, 1.0
	for t := range y {
		u := low[t] + y[t]*grad[t]
		if u >= gmax2 {
			gmax2 = u
		}
		if diff := gmax + u; diff > 0 {
			quad := qdi + qd[t] - 2*yi*y[t]*qi[t]
			if quad <= 0 {
				quad = smoTau
			}
			if num := diff * diff; gj < 0 || num*bestDen >= bestNum*quad {
				gj, bestNum, bestDen = t, num, quad
			}
		}
	}
	if gmax+gmax2 < s.tol || gj < 0 {
		return -1, -1, true
	}
	return gi, gj, false
}

// update solves the two-variable problem in (i, j) and updates the
// gradient (and its part due to variables at their upper bound).
func (s *smoSolver) update(i, j int) {
	qi := s.q.row(i, s.active)
	qj := s.q.row(j, s.active)
	ci, cj := s.upper[i], s.upper[j]
	ai, aj := s.alpha[i], s.alpha[j]
	a := s.alpha
	if s.y[i] != s.y[j] {
		quad := s.qd[i] + s.qd[j] + 2*qi[j]
		if quad <= 0 {
			quad = smoTau
		}
		delta := (-s.grad[i] - s.grad[j]) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j], a[i] = 0, diff
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, -diff
		}
		if diff > ci-cj {
			if a[i] > ci {
				a[i], a[j] = ci, ci-diff
			}
		} else if a[j] > cj {
			a[j], a[i] = cj, cj+diff
		}
	} else {
		quad := s.qd[i] + s.qd[j] - 2*qi[j]
		if quad <= 0 {
			quad = smoTau
		}
		delta := (s.grad[i] - s.grad[j]) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		if sum > ci {
			if a[i] > ci {
				a[i], a[j] = ci, sum-ci
			}
		} else if a[j] < 0 {
			a[j], a[i] = 0, sum
		}
		if sum > cj {
			if a[j] > cj {
				a[j], a[i] = cj, sum-cj
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, sum
		}
	}
	di, dj := a[i]-ai, a[j]-aj
	g := s.grad[:s.active]
	qi, qj = qi[:len(g)], qj[:len(g)]
	s.obj += s.grad[i]*di + s.grad[j]*dj + 0.5*(s.qd[i]*di*di+s.qd[j]*dj*dj) + qi[j]*di*dj
	s.work += 2 * len(g)
	for k := range g {
		g[k] += qi[k]*di + qj[k]*dj
	}
	s.moveBound(i)
	s.moveBound(j)
}

// moveBound updates variable i's status and, when it reached or left its
// upper bound, gradBar = Σ_{α_j = C_j} C_j Q_j.
func (s *smoSolver) moveBound(i int) {
	was := s.status[i] == smoUpper
	s.setStatus(i)
	now := s.status[i] == smoUpper
	if was == now {
		return
	}
	c := s.upper[i]
	if was {
		c = -c
	}
	qi := s.q.row(i, s.l)
	for k := range s.gradBar {
		s.gradBar[k] += c * qi[k]
	}
}

// reconstructGradient recomputes the gradient of the inactive variables
// and says how many products of a Q entry and an α it took.
func (s *smoSolver) reconstructGradient() int {
	if s.active == s.l {
		return 0
	}
	for j := s.active; j < s.l; j++ {
		s.grad[j] = s.gradBar[j] + s.p[j]
	}
	free := 0
	for j := 0; j < s.active; j++ {
		if s.status[j] == smoFree {
			free++
		}
	}
	if free*s.l > 2*s.active*(s.l-s.active) {
		for i := s.active; i < s.l; i++ {
			qi := s.q.row(i, s.active)
			for j := 0; j < s.active; j++ {
				if s.status[j] == smoFree {
					s.grad[i] += s.alpha[j] * qi[j]
				}
			}
		}
		return (s.l - s.active) * s.active
	}
	for i := 0; i < s.active; i++ {
		if s.status[i] != smoFree {
			continue
		}
		floats.AddScaled(s.grad[s.active:], s.alpha[i], s.q.row(i, s.l)[s.active:])
	}
	return free * (s.l - s.active)
}

// shrink sets aside the variables at a bound whose gradient says they
// will stay there, unshrinking once when the solution is near.
func (s *smoSolver) shrink() {
	g1, g2 := math.Inf(-1), math.Inf(-1)
	for i := 0; i < s.active; i++ {
		g := s.grad[i]
		if s.y[i] > 0 {
			if s.status[i] != smoUpper && -g >= g1 {
				g1 = -g
			}
			if s.status[i] != smoLower && g >= g2 {
				g2 = g
			}
		} else {
			if s.status[i] != smoUpper && -g >= g2 {
				g2 = -g
			}
			if s.status[i] != smoLower && g >= g1 {
				g1 = g
			}
		}
	}
	if !s.unshrunk && g1+g2 <= s.tol*10 {
		s.unshrunk = true
		s.reconstructGradient()
		s.active = s.l
	}
	for i := 0; i < s.active; i++ {
		if !s.shrinkable(i, g1, g2) {
			continue
		}
		for s.active--; s.active > i; s.active-- {
			if !s.shrinkable(s.active, g1, g2) {
				s.swap(i, s.active)
				break
			}
		}
	}
}

func (s *smoSolver) shrinkable(i int, g1, g2 float64) bool {
	switch s.status[i] {
	case smoUpper:
		if s.y[i] > 0 {
			return -s.grad[i] > g1
		}
		return -s.grad[i] > g2
	case smoLower:
		if s.y[i] > 0 {
			return s.grad[i] > g2
		}
		return s.grad[i] > g1
	}
	return false
}

func (s *smoSolver) swap(i, j int) {
	s.q.swap(i, j)
	for _, v := range [][]float64{s.y, s.p, s.alpha, s.upper, s.grad, s.gradBar, s.qd, s.upOff, s.lowOff} {
		v[i], v[j] = v[j], v[i]
	}
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.place[i], s.place[j] = s.place[j], s.place[i]
}

// rho is the bias: the mean of y_i∇_i over the free variables, else the
// middle of the interval the bounded ones allow.
func (s *smoSolver) rho() float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	free, sum := 0, 0.0
	for i := 0; i < s.active; i++ {
		yg := s.y[i] * s.grad[i]
		switch {
		case s.status[i] == smoFree:
			free++
			sum += yg
		case (s.status[i] == smoUpper) == (s.y[i] < 0):
			ub = math.Min(ub, yg)
		default:
			lb = math.Max(lb, yg)
		}
	}
	if free > 0 {
		return sum / float64(free)
	}
	if math.IsInf(ub, 0) || math.IsInf(lb, 0) {
		if math.IsInf(ub, 0) && math.IsInf(lb, 0) {
			return 0
		}
		if math.IsInf(ub, 0) {
			return lb
		}
		return ub
	}
	return (ub + lb) / 2
}

// objective is ½αᵀQα + pᵀα, as the updates kept it.
func (s *smoSolver) objective() float64 { return s.obj }

// quadratic is αᵀQα = 2(objective − pᵀα).
func (s *smoSolver) quadratic() float64 {
	var pa float64
	for i, a := range s.alpha {
		pa += a * s.p[i]
	}
	return 2 * (s.obj - pa)
}

// alphas is α in the problem's order.
func (s *smoSolver) alphas() []float64 {
	out := make([]float64, s.l)
	for i, a := range s.alpha {
		out[s.place[i]] = a
	}
	return out
}

// progress is the dual objective as a maximum (−objective), exact at
// every step; the primal ½‖w‖² + Σ C_i ξ_i with ξ_i = max(0, y_iρ − ∇_i)
// and their gap when the gradients of all variables are exact or the
// budget allows rebuilding those of the shrunk ones (NaN otherwise: a
// primal from stale gradients could fall below the dual); and the
// support vectors so far.
func (s *smoSolver) progress() Progress {
	svs := 0
	for _, a := range s.alpha {
		if a > 0 {
			svs++
		}
	}
	pr := Progress{Primal: math.NaN(), Dual: -s.obj, Gap: math.NaN(), SupportVectors: svs}
	if s.active < s.l {
		if smoPrimalShare*s.spent > s.work {
			return pr
		}
		s.spent += s.reconstructGradient()
	}
	rho := s.rho()
	var slack float64
	for i := range s.alpha {
		if xi := s.y[i]*rho - s.grad[i]; xi > 0 {
			slack += s.upper[i] * xi
		}
	}
	if primal := s.quadratic()/2 + slack; !math.IsInf(primal, 0) && !math.IsNaN(primal) {
		pr.Primal, pr.Gap = primal, primal-pr.Dual
	}
	return pr
}

// hardMarginWidth is 2√(αᵀQα) / Σα: for any α with Σ y_i α_i = 0 it is at
// least the distance between the classes' convex hulls in the kernel's
// space (Σ α_i y_i φ(x_i) is Σα/2 times the difference of two of their
// points), and equal to the hard margin's width 2/‖w‖ at the optimum; on
// classes that overlap it falls towards 0 as α grows without bound.
func (s *smoSolver) hardMarginWidth() float64 {
	var sum float64
	for _, a := range s.alpha {
		sum += a
	}
	if sum == 0 {
		return math.Inf(1)
	}
	return 2 * math.Sqrt(math.Max(s.quadratic(), 0)) / sum
}
