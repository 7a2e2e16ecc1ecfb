package svm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/kernel"
)

// Reference solutions printed by testdata/linear_ref.py (scikit-learn
// 1.2.1's LinearSVC, the hinge loss on the dual, its intercept a
// regularised constant feature as here, tol=1e-10) on standardised rows;
// the positive class is malignant, or 1.
var (
	linearSVCBreastCancerW                = []float64{0.3164669637, 0.0958439223, 0.2915911156, 0.2685117821, -0.01479761872, -0.6192426015, 0.7575790185, 0.9071456792, 0.07827968033, -0.3493966758, 0.8394283367, -0.3076663056, 0.2369156398, 0.8938297772, 0.3546701622, -0.3928790435, -0.3793506337, 0.4609132544, -0.09815776139, -0.8816036931, 0.5912268693, 0.9745062815, 0.335596297, 0.7168573435, 0.4260344202, -0.1722766678, 1.03912704, 0.09532614263, 0.4450224724, 0.8545190335}
	linearSVCBreastCancerB                = -0.04061238779
	linearSVCBreastCancerAccuracy         = 0.9876977153
	linearSVCBreastCancerPrimal           = 26.52635161
	linearSVCBreastCancerWeightedW        = []float64{-0.1225315271, -0.2604445207, -0.09671436161, -0.2321206285, 0.2057864219, -0.7758115318, 0.6743373206, 0.7893971141, 0.3297727296, -0.2001684457, 1.093430759, -0.64636715, -0.000616150535, 0.9419007442, 0.4339871043, -0.3464589511, -0.3096103952, 0.6274019712, -0.02433777931, -1.16853365, 1.231496382, 1.536005951, 0.9176901788, 1.192529518, 0.144166371, 0.03868277961, 0.8126941617, -0.06093946153, 0.1794450249, 0.9194830517}
	linearSVCBreastCancerWeightedB        = 0.40730394
	linearSVCBreastCancerWeightedAccuracy = 0.9876977153
	linearSVCBreastCancerWeightedPrimal   = 48.28817949
	linearSVCBenchClfW                    = []float64{0.02167455842, 0.06972700337, -0.2622423187, 0.04183618139, -0.004654961047, 0.9108081857, 0.2072590443, -0.03026226226, 0.02948481481, -0.3065270999, 0.520803841, 0.03728042003, 0.003924070044, 0.1119538849, -0.9150111175, 0.1952507984, 0.07326112403, -0.4974489253, -0.2903139079, -0.112424775}
	linearSVCBenchClfB                    = 0.03266714649
	linearSVCBenchClfAccuracy             = 0.844
	linearSVCBenchClfPrimal               = 783.6056239
)

// linearRef is one reference fit of LinearSVC.
type linearRef struct {
	source, positive string
	weight           float64 // C_i of the positive class (the others' is 1)
	w                []float64
	b, accuracy      float64
	primal           float64
}

var linearRefs = map[string]linearRef{
	"breast_cancer":          {"breast_cancer", "malignant", 1, linearSVCBreastCancerW, linearSVCBreastCancerB, linearSVCBreastCancerAccuracy, linearSVCBreastCancerPrimal},
	"breast_cancer weighted": {"breast_cancer", "malignant", 3, linearSVCBreastCancerWeightedW, linearSVCBreastCancerWeightedB, linearSVCBreastCancerWeightedAccuracy, linearSVCBreastCancerWeightedPrimal},
	"bench rows":             {"testdata/linear_clf.csv.gz", "1", 1, linearSVCBenchClfW, linearSVCBenchClfB, linearSVCBenchClfAccuracy, linearSVCBenchClfPrimal},
}

// linearProblemOf loads source, standardises its features (population
// standard deviation) and labels positive +1, the other class −1, with
// C_i = weight for the positive rows and 1 for the others.
func linearProblemOf(t testing.TB, source, positive string, weight float64) linearProblem {
	t.Helper()
	tb, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset(tb.Columns[len(tb.Columns)-1].Name, datasets.Classification)
	if err != nil {
		t.Fatal(err)
	}
	p := linearProblem{X: linearStandardised(d.X), Y: make([]float64, len(d.Y)), Upper: make([]float64, len(d.Y))}
	for i, c := range d.Y {
		p.Y[i], p.Upper[i] = -1, 1
		if d.Classes[int(c)] == positive {
			p.Y[i], p.Upper[i] = 1, weight
		}
	}
	return p
}

func linearStandardised(X *mat.Dense) *mat.Dense {
	n, d := X.Dims()
	out := mat.NewDense(n, d, nil)
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		mat.Col(col, j, X)
		m, s := datasets.MeanStd(col)
		for i := range col {
			out.Set(i, j, (col[i]-m)/s)
		}
	}
	return out
}

// linearAccuracy is the share of rows with y_i f(x_i) > 0.
func linearAccuracy(p linearProblem, s linearSolution) float64 {
	right := 0
	for i, y := range p.Y {
		if y*(kernel.Dot(s.W, p.X.RawRowView(i))+s.B) > 0 {
			right++
		}
	}
	return float64(right) / float64(len(p.Y))
}

// linearLast solves p and keeps the last progress reported.
func linearLast(t testing.TB, p linearProblem, o linearOptions) (linearSolution, Progress) {
	t.Helper()
	var last Progress
	sol, err := solveLinear(context.Background(), p, o, func(_ int, pr Progress) error { last = pr; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return sol, last
}

// Dual coordinate descent reaches LinearSVC's optimum: the same W and B,
// the same accuracy, and a duality gap of nothing; per-row bounds C_i act
// as LinearSVC's class weights.
func TestLinearDCDMatchesLinearSVC(t *testing.T) {
	for name, ref := range linearRefs {
		t.Run(name, func(t *testing.T) {
			p := linearProblemOf(t, ref.source, ref.positive, ref.weight)
			sol, last := linearLast(t, p, linearOptions{Solver: "dcd", Tol: 1e-6, MaxIter: 100000, Seed: 1})
			if !sol.Converged {
				t.Fatalf("not converged after %d passes", sol.Passes)
			}
			for j, w := range ref.w {
				if math.Abs(sol.W[j]-w) > 1e-3 {
					t.Errorf("W[%d] = %.6f, LinearSVC %.6f", j, sol.W[j], w)
				}
			}
			if math.Abs(sol.B-ref.b) > 1e-3 {
				t.Errorf("B = %.6f, LinearSVC %.6f", sol.B, ref.b)
			}
			if acc := linearAccuracy(p, sol); math.Abs(acc-ref.accuracy) > 1e-9 {
				t.Errorf("accuracy %.4f, LinearSVC %.4f", acc, ref.accuracy)
			}
			if math.Abs(last.Primal-ref.primal) > 1e-6*ref.primal {
				t.Errorf("primal %.8g, LinearSVC's %.8g", last.Primal, ref.primal)
			}
			if !(last.Gap >= 0 && last.Gap < 1e-6*last.Primal) {
				t.Errorf("duality gap %g at the end (primal %g, dual %g)", last.Gap, last.Primal, last.Dual)
			}
			linearCheckKKT(t, p, sol, 1e-3)
		})
	}
}

// linearCheckKKT checks the optimality conditions of the dual: α_i = 0
// where y_i f(x_i) > 1, α_i = C_i where it is < 1, and in between only on
// the margin; and w̃ = Σ α_i y_i x̃_i.
func linearCheckKKT(t *testing.T, p linearProblem, sol linearSolution, tol float64) {
	t.Helper()
	n, d := p.X.Dims()
	w, b := make([]float64, d), 0.0
	for i := 0; i < n; i++ {
		a := sol.Alpha[i]
		x := p.X.RawRowView(i)
		for j := range w {
			w[j] += a * p.Y[i] * x[j]
		}
		b += a * p.Y[i]
		margin := p.Y[i] * (kernel.Dot(sol.W, x) + sol.B)
		switch {
		case a < 0 || a > p.Upper[i]:
			t.Fatalf("α_%d = %g outside [0, %g]", i, a, p.Upper[i])
		case margin > 1+tol && a > 0, margin < 1-tol && a < p.Upper[i]:
			t.Fatalf("row %d: y f = %g with α = %g of %g", i, margin, a, p.Upper[i])
		}
	}
	for j := range w {
		if math.Abs(w[j]-sol.W[j]) > 1e-9*(1+math.Abs(w[j])) {
			t.Fatalf("W[%d] = %g, but Σ α_i y_i x_ij = %g", j, sol.W[j], w[j])
		}
	}
	if math.Abs(b-sol.B) > 1e-9*(1+math.Abs(b)) {
		t.Fatalf("B = %g, but Σ α_i y_i = %g", sol.B, b)
	}
}

// The subgradient solver minimises the same primal: near dual coordinate
// descent's optimum, with the same accuracy within noise.
func TestLinearSGDNearDCD(t *testing.T) {
	for _, name := range []string{"breast_cancer", "breast_cancer weighted", "bench rows"} {
		ref := linearRefs[name]
		t.Run(name, func(t *testing.T) {
			p := linearProblemOf(t, ref.source, ref.positive, ref.weight)
			sol, last := linearLast(t, p, linearOptions{Solver: "sgd", Tol: 1e-4, MaxIter: 500, Seed: 1})
			if sol.Alpha != nil || !math.IsNaN(last.Dual) || !math.IsNaN(last.Gap) {
				t.Errorf("sgd has no dual, yet α %v, dual %g, gap %g", sol.Alpha != nil, last.Dual, last.Gap)
			}
			if last.Primal < ref.primal*(1-1e-9) || last.Primal > ref.primal*1.03 {
				t.Errorf("primal %.6g after %d passes, optimum %.6g", last.Primal, sol.Passes, ref.primal)
			}
			if acc := linearAccuracy(p, sol); math.Abs(acc-ref.accuracy) > 0.01 {
				t.Errorf("accuracy %.4f, LinearSVC %.4f", acc, ref.accuracy)
			}
		})
	}
}

// Each pass reports its progress: the dual rises (coordinate ascent never
// lowers it), never exceeds a primal, and the primal is evaluated on the
// first pass and the last; a solver's result depends on its seed only.
func TestLinearProgress(t *testing.T) {
	p := linearProblemOf(t, "breast_cancer", "malignant", 1)
	for _, solver := range []string{"dcd", "sgd"} {
		var reports []Progress
		sol, err := solveLinear(context.Background(), p, linearOptions{Solver: solver, MaxIter: 300, Seed: 7},
			func(pass int, pr Progress) error {
				if pass != len(reports)+1 {
					t.Fatalf("%s: pass %d after %d reports", solver, pass, len(reports))
				}
				reports = append(reports, pr)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if len(reports) != sol.Passes || math.IsNaN(reports[0].Primal) || math.IsNaN(reports[len(reports)-1].Primal) {
			t.Fatalf("%s: %d reports for %d passes, primal first %g last %g", solver, len(reports), sol.Passes,
				reports[0].Primal, reports[len(reports)-1].Primal)
		}
		evaluated := 0
		for k, pr := range reports {
			if !math.IsNaN(pr.Primal) {
				evaluated++
			}
			if solver == "dcd" && k > 0 && pr.Dual < reports[k-1].Dual-1e-9 {
				t.Errorf("dcd: the dual fell from %g to %g on pass %d", reports[k-1].Dual, pr.Dual, k+1)
			}
			if pr.Gap < -1e-9 {
				t.Errorf("%s: negative gap %g on pass %d", solver, pr.Gap, k+1)
			}
		}
		if sol.Passes > 40 && evaluated*10 > sol.Passes {
			t.Errorf("%s: the primal was evaluated on %d of %d passes", solver, evaluated, sol.Passes)
		}
		if solver == "dcd" {
			sv := 0
			for _, a := range sol.Alpha {
				if a > 0 {
					sv++
				}
			}
			if got := reports[len(reports)-1].SupportVectors; got != sv {
				t.Errorf("dcd: %d support vectors reported, %d α > 0", got, sv)
			}
		}
		again, _ := linearLast(t, p, linearOptions{Solver: solver, MaxIter: 300, Seed: 7})
		if fmt.Sprint(again.W, again.B) != fmt.Sprint(sol.W, sol.B) {
			t.Errorf("%s: the same seed gave another solution", solver)
		}
	}
}

// On separable rows of the margin generator, whose classes lie at least
// margin from a hyperplane through the origin on either side, the hard
// margin's width 2/‖w‖ is that 2·margin or a little more (the nearest
// points lie a little beyond it), every row is outside the margin, and the
// support vectors lie on it.
func TestLinearHardMarginRecoversMargin(t *testing.T) {
	for _, tc := range []struct {
		dims   int
		margin float64
	}{{2, 0.1}, {5, 0.3}, {3, 0.05}} {
		src := fmt.Sprintf("margin:n=1000,dims=%d,margin=%g,noise=0,seed=3", tc.dims, tc.margin)
		p := linearProblemOf(t, src, "1", 1)
		p.X = linearUnstandardised(t, src)
		for i := range p.Upper {
			p.Upper[i] = math.Inf(1)
		}
		sol, last := linearLast(t, p, linearOptions{Solver: "dcd", MaxIter: 100000, Seed: 1})
		width := 2 / math.Sqrt(kernel.Dot(sol.W, sol.W))
		t.Logf("%s: 2/‖w‖ = %.5f after %d passes, b = %.4f", src, width, sol.Passes, sol.B)
		if !sol.Converged || width < 2*tc.margin*(1-1e-3) || width > 2*tc.margin+0.02 {
			t.Errorf("%s: 2/‖w‖ = %.5f, converged %v; the generator's margin is %g on either side", src, width, sol.Converged, tc.margin)
		}
		if math.IsInf(last.Primal, 0) || last.Gap > 1e-3*last.Primal {
			t.Errorf("%s: primal %g, gap %g", src, last.Primal, last.Gap)
		}
		linearCheckKKT(t, p, sol, 1e-3)
	}
}

// linearUnstandardised is the generator's rows as drawn: the margin is in
// their units.
func linearUnstandardised(t *testing.T, src string) *mat.Dense {
	tb, err := datasets.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("class", datasets.Classification)
	if err != nil {
		t.Fatal(err)
	}
	return mat.DenseCopyOf(d.X)
}

// Flipped labels make the classes inseparable: a hard margin says so at
// once instead of running its passes out; the subgradient solver has no
// hard margin at all.
func TestLinearHardMarginInseparable(t *testing.T) {
	for _, noise := range []float64{0.001, 0.01, 0.2} {
		src := fmt.Sprintf("margin:n=1000,dims=2,margin=0.1,noise=%g,seed=3", noise)
		p := linearProblemOf(t, src, "1", 1)
		for i := range p.Upper {
			p.Upper[i] = math.Inf(1)
		}
		passes := 0
		_, err := solveLinear(context.Background(), p, linearOptions{Solver: "dcd", MaxIter: 100000, Seed: 1},
			func(pass int, _ Progress) error { passes = pass; return nil })
		if !errors.Is(err, errNotSeparable) || !strings.Contains(err.Error(), "not linearly separable") || passes > 5000 {
			t.Errorf("noise %g: %v after %d passes", noise, err, passes)
		}
		if _, err := solveLinear(context.Background(), p, linearOptions{Solver: "sgd"}, nil); !errors.Is(err, errSGDHardMargin) {
			t.Errorf("sgd on a hard margin: %v", err)
		}
	}
}

// A hard margin out of passes on rows it has not separated says how narrow
// any margin would be rather than guessing.
func TestLinearHardMarginOutOfPasses(t *testing.T) {
	p := linearProblemOf(t, "margin:n=1000,dims=2,margin=0,noise=0,seed=5", "1", 1)
	for i := range p.Upper {
		p.Upper[i] = math.Inf(1)
	}
	_, err := solveLinear(context.Background(), p, linearOptions{Solver: "dcd", MaxIter: 20, Seed: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "after 20 passes") || !strings.Contains(err.Error(), "more passes") {
		t.Errorf("got %v", err)
	}
}

func TestLinearBadInput(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{1, 2})
	for _, tc := range []struct {
		p    linearProblem
		o    linearOptions
		want string
	}{
		{linearProblem{X, []float64{1}, []float64{1, 1}}, linearOptions{}, "2 rows but 1 labels"},
		{linearProblem{X, []float64{1, 0}, []float64{1, 1}}, linearOptions{}, "row 1 has label 0"},
		{linearProblem{X, []float64{1, -1}, []float64{1, 0}}, linearOptions{}, "row 1 has bound C_i = 0"},
		{linearProblem{mat.NewDense(2, 1, []float64{1, math.NaN()}), []float64{1, -1}, []float64{1, 1}}, linearOptions{}, "row 1 has a missing"},
		{linearProblem{X, []float64{1, -1}, []float64{1, 1}}, linearOptions{Solver: "smo"}, `solver "smo"`},
		{linearProblem{}, linearOptions{}, "no rows"},
	} {
		if _, err := solveLinear(context.Background(), tc.p, tc.o, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want %q, got %v", tc.want, err)
		}
	}
}

// A step's error and a cancelled context stop either solver.
func TestLinearStops(t *testing.T) {
	p := linearProblemOf(t, "breast_cancer", "malignant", 1)
	stop := errors.New("stop")
	for _, solver := range []string{"dcd", "sgd"} {
		passes := 0
		_, err := solveLinear(context.Background(), p, linearOptions{Solver: solver, Tol: 1e-12, MaxIter: 1000},
			func(pass int, _ Progress) error {
				passes = pass
				if pass == 3 {
					return stop
				}
				return nil
			})
		if !errors.Is(err, stop) || passes != 3 {
			t.Errorf("%s: %v after %d passes", solver, err, passes)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := solveLinear(ctx, p, linearOptions{Solver: solver}, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s cancelled: %v", solver, err)
		}
	}
}

// BenchmarkSolveLinear solves the svm_linear bench case's training rows
// (the first 16,000 of clf_20k_20, standardised; C=1, LinearSVC's
// tol 1e-4 and at most 5,000 passes as bench/sklearn_ref.py sets it): the
// file named by TEALAB_SVM_BENCH_DATA (bench/make_data.py writes it), or
// else rows of the same shape drawn here.
func BenchmarkSolveLinear(b *testing.B) {
	for _, solver := range []string{"dcd", "sgd"} {
		b.Run(solver, func(b *testing.B) {
			p := linearBenchProblem(b)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := solveLinear(context.Background(), p, linearOptions{Solver: solver, Tol: 1e-4, MaxIter: 5000}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func linearBenchProblem(b testing.TB) linearProblem {
	const n, d = 16000, 20
	if path := os.Getenv("TEALAB_SVM_BENCH_DATA"); path != "" {
		p := linearProblemOf(b, path, "1", 1)
		p.X = linearStandardised(mat.DenseCopyOf(p.X.Slice(0, n, 0, d)))
		p.Y, p.Upper = p.Y[:n], p.Upper[:n]
		return p
	}
	// Two classes on a random direction through 10 informative features,
	// with 2% of labels flipped, as make_classification's flip_y.
	r := rand.New(rand.NewPCG(1, 2))
	p := linearProblem{X: mat.NewDense(n, d, nil), Y: make([]float64, n), Upper: make([]float64, n)}
	for i := range n {
		var s float64
		for j := range d {
			x := r.NormFloat64()
			p.X.Set(i, j, x)
			if j < 10 {
				s += x * float64(j%3-1)
			}
		}
		p.Y[i], p.Upper[i] = cmp.Or(math.Copysign(1, s+r.NormFloat64()), 1), 1
		if r.Float64() < 0.02 {
			p.Y[i] = -p.Y[i]
		}
	}
	return p
}
