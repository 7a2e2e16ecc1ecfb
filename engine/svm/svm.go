package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// SVC is the kernel support vector machine classifier of LIBSVM and
// scikit-learn's SVC (Shewchuk, lectures 4 and 16; Verma, Kernelization
// and SVMs): for each pair of classes it solves the soft-margin dual
//
//	max Σα_i − ½ Σ_ij α_i α_j y_i y_j k(x_i, x_j)   s.t.  Σ α_i y_i = 0,  0 ≤ α_i ≤ C_i
//
// by SMO (smo.go), with C_i = C × class weight × sample weight, and
// predicts by one-vs-one voting (ties to the lower class, as LIBSVM). A
// hard margin drops the upper bound. With the linear kernel the dcd and
// sgd solvers fit w directly (linear.go).
type SVC struct {
	values      engine.Values
	C           float64 // +Inf: a hard margin
	Solver      string  // with kernel=linear: dcd, sgd or smo
	ClassWeight string  // none or balanced
	Probability bool
	CacheMB     float64
	Shrinking   bool
	Tol         float64
	MaxIter     int // ≤ 0: no limit of ours

	engine.FitState
	fit      *svcFit
	warnings []string
}

// svcProba is an SVC fitted with probability=true: only it is an
// engine.Prober, so that a model without Platt's sigmoids never claims
// probabilities.
type svcProba struct{ *SVC }

const svcName = "svm"

func init() {
	params := append(KernelParams(RBF, Linear, Poly, Sigmoid),
		engine.Param{Name: "C", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Log: true, Simpler: engine.SimplerLower,
			Help: "upper bound of each α: the price of a margin error (larger C, narrower margin)"},
		engine.Param{Name: "margin", Kind: engine.Choice, Default: "soft", Choices: []string{"soft", "hard"},
			Help: "soft: 0 ≤ α ≤ C; hard: no upper bound (the data must be separable in the kernel's space)"},
		engine.Param{Name: "solver", Kind: engine.Choice, Default: "dcd", Choices: []string{"dcd", "sgd", "smo"},
			When: &engine.Applies{Param: "kernel", In: []string{Linear}},
			Help: "linear kernel: dual coordinate descent (as LIBLINEAR), SGD on the hinge loss, or SMO (as LIBSVM)"},
		engine.Param{Name: "class_weight", Kind: engine.Choice, Default: "none", Choices: []string{"none", "balanced"},
			Help: "balanced: C of class c times n / (classes × n_c), for imbalanced data"},
		engine.Param{Name: "probability", Kind: engine.Bool, Default: false,
			Help: "Platt-scaled probabilities, fitted by 5-fold CV inside the training rows (five times the fits)"},
	)
	params = append(params, smoParams(1e-3, true)...)
	engine.Register(engine.Spec{
		Weighted:    true,
		Name:        svcName,
		Title:       "support vector machine",
		Family:      "support vector machines",
		Summary:     "kernel SVM by SMO (LIBSVM's WSS2, shrinking, kernel cache); one-vs-one; Platt probabilities",
		Notes:       "Shewchuk, Concise Machine Learning, lectures 3, 4 and 16; Verma, COMS 4771 notes, Kernelization and SVMs; Fan, Chen & Lin, JMLR 6 (2005); Platt (1999)",
		Tasks:       []engine.Task{datasets.Classification},
		Unit:        "round", // smoStepIters iterations of SMO, or one pass of dcd or sgd
		Loss:        "dual objective ½αᵀQα − Σα",
		Standardize: true,
		Params:      params,
		Memory:      svcMemory,
		Bench: []engine.BenchCase{{Name: "svm_rbf", Data: "clf_5k_20", Scale: true, Task: datasets.Classification,
			Params: map[string]string{"kernel": RBF, "C": "1"}},
			// LinearSVC's tolerance and the pass limit the reference script gives it.
			{Name: "svm_linear", Data: "clf_20k_20", Scale: true, Task: datasets.Classification,
				Params: map[string]string{"kernel": Linear, "C": "1", "solver": "dcd", "tol": "1e-4", "max_iter": "5000"}}},
		New: func(v engine.Values) (engine.Model, error) {
			m := &SVC{values: v, C: v.Float("C"), ClassWeight: v.String("class_weight"),
				Probability: v.Bool("probability"), Solver: "smo"}
			if v.String("margin") == "hard" {
				m.C = math.Inf(1)
			}
			if v.String("kernel") == Linear {
				m.Solver = v.String("solver")
			}
			m.CacheMB, m.Shrinking, m.Tol, m.MaxIter = v.Float("cache_mb"), v.Bool("shrinking"), v.Float("tol"), v.Int("max_iter")
			if m.Probability {
				return &svcProba{m}, nil
			}
			return m, nil
		},
	})
}

// smoHardNarrowest is the narrowest hard margin believed, as a share of
// the rows' scale in the kernel's space (the root of the largest k(x, x)):
// on classes that overlap, the margin SMO's iterates span keeps shrinking
// towards 0, and a fit would otherwise run to max_iter.
const smoHardNarrowest = 1e-4

// smoParams are the SMO solver's settings, as scikit-learn names them;
// linear adds what tol and max_iter mean to the linear kernel's solvers.
func smoParams(tol float64, linear bool) []engine.Param {
	tolHelp := "stop when the maximal violating pair violates the KKT conditions by less"
	iterHelp := "most SMO iterations per problem; -1: no limit but LIBSVM's max(10⁷, 100n)"
	var tolDetail, iterDetail string
	if linear {
		tolDetail = "With the linear kernel's other solvers: dcd stops on the projected gradient's spread, sgd on the primal's gain."
		iterDetail = "With the linear kernel's dcd and sgd solvers: passes over the rows, 1000 at -1."
	}
	return []engine.Param{
		{Name: "cache_mb", Kind: engine.Float, Default: 200.0, Min: 0.001, Max: 1e6, Log: true,
			Help: "MB of kernel rows the solver keeps (as scikit-learn's cache_size)"},
		{Name: "shrinking", Kind: engine.Bool, Default: true,
			Help: "set aside the α that sit at a bound while SMO works on the others"},
		{Name: "tol", Kind: engine.Float, Default: tol, Min: 1e-12, Max: 1, Log: true,
			Help: tolHelp, Detail: tolDetail},
		{Name: "max_iter", Kind: engine.Int, Default: -1, Min: -1, Max: 1e9,
			Help: iterHelp, Detail: iterDetail},
	}
}

// svcFit is what a fit learned: the support vectors, shared by the pairs
// of classes, and one decision function per pair.
type svcFit struct {
	features []string
	classes  int      // len(Train.Classes)
	names    []string // the class names, for the support-vector table; nil when a model file has none
	present  []int    // class codes seen in training, increasing
	kernel   Kernel
	sv       *smoRows
	svRow    []int // training row of each support vector
	svClass  []int
	pairs    []svcPair
	iters    int
}

// svcPair is the decision function of classes Pos (+1) against Neg (−1):
// f(x) = Σ Coef_s k(x_SV[s], x) − Rho, or W·x − Rho when W is set (the
// linear solvers).
type svcPair struct {
	Pos, Neg int
	SV       []int // indices into svcFit's support vectors
	Coef     []float64
	AtBound  []bool
	Rho      float64
	W        []float64
	ProbA    float64 // Platt's sigmoid 1/(1 + exp(A f + B)), when fitted
	ProbB    float64
}

// svcPairSolution is one solved pair, by training rows, before the support
// vectors of every pair are pooled.
type svcPairSolution struct {
	pos, neg     int
	rows         []int
	coef         []float64
	atBound      []bool
	rho          float64
	w            []float64
	probA, probB float64
	iters        int
}

// Fit implements engine.Model.
func (m *SVC) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.fit, m.warnings = nil, nil
	present, err := svcCheck(d)
	if err != nil {
		return err
	}
	kern := KernelOf(m.values, d.X)
	upper := m.rowBounds(d, present)
	if err := m.checkCache(d, present); err != nil {
		return err
	}
	f := &svcFitter{m: m, d: d, kern: kern, present: present, rec: rec, ctx: ctx}
	for a := 0; a < len(present); a++ {
		for b := a + 1; b < len(present); b++ {
			sol, err := f.solvePair(present[a], present[b], upper)
			if err != nil {
				return err
			}
			if m.Probability {
				if sol.probA, sol.probB, err = f.platt(present[a], present[b], upper); err != nil {
					return err
				}
			}
			f.done = append(f.done, sol)
		}
	}
	m.fit, m.Fitted = f.assemble(f.done), true
	return nil
}

// svcCheck validates a classifier's training rows and returns the class
// codes present with a positive weight, at least two.
func svcCheck(d engine.Train) ([]int, error) {
	if err := engine.CheckTrain(d, svcName, true); err != nil {
		return nil, err
	}
	return engine.PresentClasses(d, svcName)
}

// rowBounds is C_i = C × class weight × sample weight of every row.
func (m *SVC) rowBounds(d engine.Train, present []int) []float64 {
	n := d.Rows()
	cw := make([]float64, len(d.Classes))
	for c := range cw {
		cw[c] = 1
	}
	if m.ClassWeight == "balanced" {
		count := make([]float64, len(d.Classes))
		for _, y := range d.Y {
			count[int(y)]++
		}
		for _, c := range present {
			cw[c] = float64(n) / (float64(len(present)) * count[c])
		}
	}
	upper := make([]float64, n)
	for i, y := range d.Y {
		upper[i] = m.C * cw[int(y)]
		if d.Weights != nil {
			upper[i] *= d.Weights[i]
			if d.Weights[i] == 0 {
				upper[i] = 0
			}
		}
	}
	return upper
}

// checkCache refuses a cache that cannot hold two kernel rows of the
// largest pair of classes, which SMO needs at every iteration.
func (m *SVC) checkCache(d engine.Train, present []int) error {
	if m.Solver != "smo" {
		return nil
	}
	count := make([]int, len(d.Classes))
	for _, y := range d.Y {
		count[int(y)]++
	}
	largest := 0
	for a := range present {
		for b := a + 1; b < len(present); b++ {
			largest = max(largest, count[present[a]]+count[present[b]])
		}
	}
	return smoCheckCache(svcName, m.CacheMB, largest)
}

// smoCheckCache refuses a cache of cacheMB that cannot hold two kernel
// rows of length n.
func smoCheckCache(model string, cacheMB float64, n int) error {
	if 2*8*float64(n) > cacheMB*(1<<20) {
		return engine.Limitf("%s: cache_mb=%s cannot hold two kernel rows of %d values (%s); raise cache_mb to at least %s",
			model, engine.Format(cacheMB), n, engine.Bytes(16*float64(n)), engine.Format(math.Ceil(16*float64(n)/(1<<20)*100)/100))
	}
	return nil
}

// smoBudget is the values a cache of cacheMB holds.
func smoBudget(cacheMB float64) int { return int(cacheMB * (1 << 20) / 8) }

// svcFitter carries one fit's pairs as they are solved.
type svcFitter struct {
	m       *SVC
	d       engine.Train
	kern    Kernel
	present []int
	rec     engine.Recorder
	ctx     context.Context
	done    []svcPairSolution
	steps   int
}

// svcPairRows are the rows of classes a and b with a positive bound, their
// labels (+1 for a) and bounds.
func svcPairRows(d engine.Train, a, b int, upper []float64, only []int) (rows []int, y, c []float64) {
	add := func(i int) {
		k := int(d.Y[i])
		if (k != a && k != b) || upper[i] == 0 {
			return
		}
		rows = append(rows, i)
		c = append(c, upper[i])
		if k == a {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	if only == nil {
		for i := range d.Y {
			add(i)
		}
	} else {
		for _, i := range only {
			add(i)
		}
	}
	return rows, y, c
}

// solvePair solves classes a (+1) against b (−1) on every training row.
func (f *svcFitter) solvePair(a, b int, upper []float64) (svcPairSolution, error) {
	rows, y, c := svcPairRows(f.d, a, b, upper, nil)
	return f.solve(a, b, rows, y, c, true)
}

// solve solves one two-class problem on the training rows given; report
// says whether its steps go to the recorder (the Platt folds' do not).
func (f *svcFitter) solve(a, b int, rows []int, y, c []float64, report bool) (svcPairSolution, error) {
	if f.m.Solver != "smo" {
		return f.solveLinear(a, b, rows, y, c, report)
	}
	q := newSVCQ(newSMORows(f.d.X, rows, f.kern), y, smoBudget(f.m.CacheMB))
	p := make([]float64, len(rows))
	for i := range p {
		p[i] = -1
	}
	hard := math.IsInf(f.m.C, 1)
	o := smoOptions{Tol: f.m.Tol, Shrinking: f.m.Shrinking, MaxIter: f.m.MaxIter, Step: func(s *smoSolver) error {
		if hard && s.hardMarginWidth() < smoHardNarrowest*math.Sqrt(floats.Max(q.qd)) {
			return engine.Limitf("%s: margin=hard, but classes %s and %s are not separable with kernel=%s (the widest margin the solver finds shrinks towards 0); use margin=soft",
				svcName, f.d.Classes[a], f.d.Classes[b], f.kern.Kind)
		}
		if !report {
			return nil
		}
		f.publish(svcPairFromDual(a, b, rows, y, s.alphas(), c, s.rho()))
		f.steps++
		return f.rec.Step(engine.Step{Step: f.steps, TrainLoss: s.objective(), Detail: s.progress()})
	}}
	res, err := solveSMO(f.ctx, smoProblem{Q: q, P: p, Y: y, Upper: c}, o)
	if err != nil {
		return svcPairSolution{}, err
	}
	if report && !res.Converged {
		f.m.warnings = append(f.m.warnings, fmt.Sprintf("%s: SMO stopped at max_iter=%d iterations before the KKT conditions held within tol (classes %s and %s); raise max_iter or tol",
			svcName, res.Iters, f.d.Classes[a], f.d.Classes[b]))
	}
	sol := svcPairFromDual(a, b, rows, y, res.Alpha, c, res.Rho)
	sol.iters = res.Iters
	return sol, nil
}

// solveLinear fits one pair with the linear SVM's own solvers.
func (f *svcFitter) solveLinear(a, b int, rows []int, y, c []float64, report bool) (svcPairSolution, error) {
	X := mat.NewDense(len(rows), f.d.Cols(), nil)
	for r, i := range rows {
		mat.Row(X.RawRowView(r), i, f.d.X)
	}
	step := func(pass int, pr Progress) error { return nil }
	if report {
		step = func(pass int, pr Progress) error {
			loss := -pr.Dual // the spec's loss, ½αᵀQα − Σα, as SMO reports it
			if math.IsNaN(loss) {
				loss = pr.Primal // SGD has no dual
			}
			if math.IsNaN(loss) {
				return nil // a pass on which SGD left its primal unevaluated (it costs a pass)
			}
			f.steps++
			return f.rec.Step(engine.Step{Step: f.steps, TrainLoss: loss, Detail: pr})
		}
	}
	sol, err := solveLinear(f.ctx, linearProblem{X: X, Y: y, Upper: c},
		linearOptions{Solver: f.m.Solver, Tol: f.m.Tol, MaxIter: f.m.MaxIter, Seed: f.d.Seed}, step)
	if err != nil {
		return svcPairSolution{}, err
	}
	out := svcPairSolution{pos: a, neg: b, w: sol.W, rho: -sol.B, iters: sol.Passes}
	if sol.Alpha != nil {
		kept := svcPairFromDual(a, b, rows, y, sol.Alpha, c, 0)
		out.rows, out.coef, out.atBound = kept.rows, kept.coef, kept.atBound
	}
	if report && !sol.Converged {
		f.m.warnings = append(f.m.warnings, fmt.Sprintf("%s: the %s solver stopped at max_iter before converging (classes %s and %s); raise max_iter or tol",
			svcName, f.m.Solver, f.d.Classes[a], f.d.Classes[b]))
	}
	return out, nil
}

// svcPairFromDual keeps the rows with α > 0: the support vectors.
func svcPairFromDual(a, b int, rows []int, y, alpha, upper []float64, rho float64) svcPairSolution {
	s := svcPairSolution{pos: a, neg: b, rho: rho}
	for i, al := range alpha {
		if al > 0 {
			s.rows = append(s.rows, rows[i])
			s.coef = append(s.coef, y[i]*al)
			s.atBound = append(s.atBound, al >= upper[i])
		}
	}
	return s
}

// publish makes the model predict with the pairs solved so far and the
// one being solved, as a Recorder may ask from inside Step.
func (f *svcFitter) publish(current svcPairSolution) {
	f.m.fit, f.m.Fitted = f.assemble(append(f.done[:len(f.done):len(f.done)], current)), true
}

// assemble pools the pairs' support vectors, ordered by class and row as
// LIBSVM orders them.
func (f *svcFitter) assemble(sols []svcPairSolution) *svcFit {
	fit := &svcFit{features: f.d.Features, classes: len(f.d.Classes), names: f.d.Classes, present: f.present, kernel: f.kern, svRow: []int{}, svClass: []int{}}
	used := make(map[int]bool)
	for _, s := range sols {
		for _, r := range s.rows {
			used[r] = true
		}
	}
	index := make(map[int]int, len(used))
	for _, c := range f.present {
		for i, y := range f.d.Y {
			if int(y) == c && used[i] {
				index[i] = len(fit.svRow)
				fit.svRow = append(fit.svRow, i)
				fit.svClass = append(fit.svClass, c)
			}
		}
	}
	fit.sv = newSMORows(f.d.X, fit.svRow, f.kern)
	for _, s := range sols {
		p := svcPair{Pos: s.pos, Neg: s.neg, Coef: s.coef, AtBound: s.atBound, Rho: s.rho, W: s.w, ProbA: s.probA, ProbB: s.probB}
		for _, r := range s.rows {
			p.SV = append(p.SV, index[r])
		}
		fit.pairs = append(fit.pairs, p)
		fit.iters += s.iters
	}
	return fit
}

// platt fits the sigmoid of classes a and b on decision values of 5-fold
// CV inside the training rows, as LIBSVM's svm_binary_svc_probability.
func (f *svcFitter) platt(a, b int, upper []float64) (float64, float64, error) {
	rows, y, _ := svcPairRows(f.d, a, b, upper, nil)
	rng := rand.New(rand.NewPCG(f.d.Seed, uint64(a*1000+b)))
	perm := rng.Perm(len(rows))
	dec := make([]float64, len(rows))
	const folds = 5
	for k := 0; k < folds; k++ {
		lo, hi := k*len(rows)/folds, (k+1)*len(rows)/folds
		var train []int
		for _, t := range append(perm[:lo:lo], perm[hi:]...) {
			train = append(train, rows[t])
		}
		tr, ty, tc := svcPairRows(f.d, a, b, upper, train)
		pos, neg := 0, 0
		for _, v := range ty {
			if v > 0 {
				pos++
			} else {
				neg++
			}
		}
		held := perm[lo:hi]
		switch {
		case pos == 0 && neg == 0:
			continue
		case neg == 0:
			for _, t := range held {
				dec[t] = 1
			}
			continue
		case pos == 0:
			for _, t := range held {
				dec[t] = -1
			}
			continue
		}
		sol, err := f.solve(a, b, tr, ty, tc, false)
		if err != nil {
			return 0, 0, err
		}
		one := f.assemble([]svcPairSolution{sol})
		x := make([]float64, f.d.Cols())
		kv := make([]float64, len(one.svRow))
		for _, t := range held {
			mat.Row(x, rows[t], f.d.X)
			dec[t] = one.pairValue(&one.pairs[0], x, one.kernelValues(kv, x))
		}
	}
	A, B := plattTrain(dec, y)
	return A, B, nil
}

// Warnings implements engine.Warner.
func (m *SVC) Warnings() []string { return m.warnings }
