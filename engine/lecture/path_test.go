package lecture

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"gonum.org/v1/gonum/mat"
)

// pathRef is testdata/path_lasso_path.json, written by
// testdata/path_lasso_path.py with scikit-learn 1.2.1 from the
// repository's own diabetes and breast_cancer CSVs.
type pathRef struct {
	Features     []string    `json:"features"`
	Alphas       []float64   `json:"alphas"`
	Coefs        [][]float64 `json:"coefs"`
	Correlations []float64   `json:"correlations"`
	LassoCheck   pathFit     `json:"lasso_check"`
	Ridge        []pathFit   `json:"ridge"`
	Logistic     struct {
		LambdaMaxL1 float64   `json:"lambda_max_l1"`
		L1          []pathFit `json:"l1"`
		L2          []pathFit `json:"l2"`
	} `json:"logistic"`
}

type pathFit struct {
	Lambda    float64   `json:"lambda"`
	Alpha     float64   `json:"alpha"`
	Coef      []float64 `json:"coef"`
	Intercept float64   `json:"intercept"`
}

func readPathRef(t *testing.T) *pathRef {
	t.Helper()
	b, err := os.ReadFile("testdata/path_lasso_path.json")
	if err != nil {
		t.Fatal(err)
	}
	ref := new(pathRef)
	if err := json.Unmarshal(b, ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

func pathData(t *testing.T, name string) *datasets.Dataset {
	t.Helper()
	tb, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func runPathWith(t *testing.T, data string, settings map[string]string, show func(Frame)) (*PathResult, error) {
	t.Helper()
	e, err := Lookup("path")
	if err != nil {
		t.Fatal(err)
	}
	if settings == nil {
		settings = map[string]string{}
	}
	settings["data"] = data
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), In{Values: v, Data: pathData(t, data)}, show)
	r, _ := res.(*PathResult)
	return r, err
}

// The lasso path on diabetes is scikit-learn's lasso_path (same grid, same
// coefficients to 1e-6 at every α).
func TestPathLassoMatchesLassoPath(t *testing.T) {
	ref := readPathRef(t)
	r, err := runPathWith(t, "diabetes", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lambdas) != len(ref.Alphas) || len(r.Coefs) != len(ref.Coefs) {
		t.Fatalf("%d lambdas, %d fits; lasso_path has %d", len(r.Lambdas), len(r.Coefs), len(ref.Alphas))
	}
	if strings.Join(r.Features, ",") != strings.Join(ref.Features, ",") {
		t.Fatalf("features %v, want %v", r.Features, ref.Features)
	}
	worst := 0.0
	for i, a := range ref.Alphas {
		if math.Abs(r.Lambdas[i]-a) > 1e-12*a {
			t.Fatalf("λ[%d] = %.17g, lasso_path's α = %.17g", i, r.Lambdas[i], a)
		}
		for j, c := range ref.Coefs[i] {
			worst = math.Max(worst, math.Abs(r.Coefs[i][j]-c))
		}
	}
	if worst > 1e-6 {
		t.Errorf("coefficients differ from lasso_path by up to %g (want ≤ 1e-6)", worst)
	}
	t.Logf("largest difference from lasso_path: %.2g", worst)
	// With an intercept fitted by scikit-learn's Lasso: the same weights,
	// and the intercept is the target's mean (the features are centred).
	i := 50
	for j, c := range ref.LassoCheck.Coef {
		if math.Abs(r.Coefs[i][j]-c) > 1e-6 {
			t.Errorf("Lasso(alpha=%g) weight %d = %g, path has %g", ref.LassoCheck.Alpha, j, c, r.Coefs[i][j])
		}
	}
	if math.Abs(r.Intercepts[i]-ref.LassoCheck.Intercept) > 1e-9 {
		t.Errorf("intercept %g, Lasso's %g", r.Intercepts[i], ref.LassoCheck.Intercept)
	}
	// At λ_max every weight is zero; below it the first one is not.
	for _, w := range r.Coefs[0] {
		if w != 0 {
			t.Fatalf("weights at λ_max %v, want all 0", r.Coefs[0])
		}
	}
	if r.Nonzero[1] == 0 {
		t.Error("no weight has left zero at the second λ")
	}
}

// Going down from λ_max, the first weight to leave zero is the feature
// most correlated with the target: on standardised features the gradient at
// w = 0 is corr(x_j, y)·sd(y). On diabetes that is bmi (0.586, s5 0.566).
func TestPathLassoFirstEntryIsMostCorrelated(t *testing.T) {
	ref := readPathRef(t)
	r, err := runPathWith(t, "diabetes", map[string]string{"lambdas": "30"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := 0
	for j, c := range ref.Correlations {
		if math.Abs(c) > math.Abs(ref.Correlations[best]) {
			best = j
		}
	}
	if ref.Features[best] != "bmi" {
		t.Fatalf("reference: most correlated is %s", ref.Features[best])
	}
	if len(r.EntryOrder) == 0 || r.EntryOrder[0] != ref.Features[best] {
		t.Fatalf("entry order %v, want %s first", r.EntryOrder, ref.Features[best])
	}
	if len(r.EntryOrder) != len(r.Features) || r.EntryLambda[0] != r.Lambdas[1] {
		t.Errorf("entry order %v at %v: want all 10, bmi at the second λ %g", r.EntryOrder, r.EntryLambda, r.Lambdas[1])
	}
	// On a fine grid bmi is alone at the second λ (0.07% below λ_max).
	fine, err := runPathWith(t, "diabetes", map[string]string{"lambdas": "1000", "ratio": "0.5", "folds": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, w := range fine.Coefs[1] {
		if (w != 0) != (fine.Features[j] == "bmi") {
			t.Errorf("at λ %g: weights %v, want bmi's alone", fine.Lambdas[1], fine.Coefs[1])
			break
		}
	}
	for k := 1; k < len(r.EntryLambda); k++ {
		if r.EntryLambda[k] > r.EntryLambda[k-1] {
			t.Errorf("entry λs not descending: %v", r.EntryLambda)
		}
	}
}

// Ridge through the SVD is scikit-learn's Ridge(alpha=nλ) to 1e-8.
func TestPathRidgeMatchesRidge(t *testing.T) {
	ref := readPathRef(t)
	d := pathData(t, "diabetes")
	prob, _, err := preparePath(d, "diabetes", "ridge", 5)
	if err != nil {
		t.Fatal(err)
	}
	s := standardise(prob, nil)
	var lams []float64
	for _, f := range ref.Ridge {
		lams = append(lams, f.Lambda)
	}
	n := 0
	err = fitPath(context.Background(), prob, s, lams, func(i int, w []float64, b float64) {
		n++
		f := ref.Ridge[i]
		if f.Alpha != float64(d.Rows())*f.Lambda {
			t.Errorf("reference alpha %g is not n·λ", f.Alpha)
		}
		for j, c := range f.Coef {
			if math.Abs(w[j]-c) > 1e-8*math.Max(1, math.Abs(c)) {
				t.Errorf("λ=%g: weight %d = %.12g, Ridge's %.12g", f.Lambda, j, w[j], c)
			}
		}
		if math.Abs(b-f.Intercept) > 1e-8 {
			t.Errorf("λ=%g: intercept %g, Ridge's %g", f.Lambda, b, f.Intercept)
		}
	})
	if err != nil || n != len(lams) {
		t.Fatalf("%d fits, err %v", n, err)
	}
}

// Penalised logistic regression on standardised breast_cancer matches
// scikit-learn's LogisticRegression(C=1/(nλ)) (saga for L1, newton-cg for
// L2, each optimal to about 1e-12 by its own check) to 1e-8.
func TestPathLogisticMatchesSklearn(t *testing.T) {
	ref := readPathRef(t)
	d := pathData(t, "breast_cancer")
	for _, tc := range []struct {
		model string
		fits  []pathFit
	}{{"logistic-l1", ref.Logistic.L1}, {"logistic-l2", ref.Logistic.L2}} {
		prob, res, err := preparePath(d, "breast_cancer", tc.model, 5)
		if err != nil {
			t.Fatal(err)
		}
		if res.Positive != "benign" {
			t.Fatalf("positive class %q; the reference takes benign", res.Positive)
		}
		s := standardise(prob, nil)
		if tc.model == "logistic-l1" {
			if g := pathGrid(prob, s, 2, 0.1); math.Abs(g[0]-ref.Logistic.LambdaMaxL1) > 1e-12 {
				t.Errorf("λ_max %g, reference %g", g[0], ref.Logistic.LambdaMaxL1)
			}
		}
		var lams []float64
		for _, f := range tc.fits {
			lams = append(lams, f.Lambda)
		}
		worst := 0.0
		err = fitPath(context.Background(), prob, s, lams, func(i int, w []float64, b float64) {
			f := tc.fits[i]
			for j, c := range f.Coef {
				worst = math.Max(worst, math.Abs(w[j]-c))
				if (c == 0) != (w[j] == 0) && tc.model == "logistic-l1" && math.Abs(w[j]-c) > 1e-9 {
					t.Errorf("%s λ=%g: weight %d is %g, sklearn's %g (zero on one side only)", tc.model, f.Lambda, j, w[j], c)
				}
			}
			worst = math.Max(worst, math.Abs(b-f.Intercept))
		})
		if err != nil {
			t.Fatal(err)
		}
		if worst > 1e-8 {
			t.Errorf("%s: weights differ from scikit-learn by up to %g", tc.model, worst)
		}
		t.Logf("%s: largest difference from scikit-learn %.2g", tc.model, worst)
	}
}

// The cross-validated error: one row of errors per fold, the mean and
// standard error per λ, the best λ at the minimum and the 1-SE λ the
// largest within one SE of it; the same seed gives the same folds.
func TestPathCrossValidation(t *testing.T) {
	set := map[string]string{"lambdas": "40", "folds": "4", "seed": "7"}
	r, err := runPathWith(t, "diabetes", set, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.FoldErrors) != 4 || r.FoldsDone != 4 || len(r.CVError) != 40 || r.BestIndex == nil || r.Index1SE == nil {
		t.Fatalf("folds %d (done %d), cv %d, best %v, 1se %v", len(r.FoldErrors), r.FoldsDone, len(r.CVError), r.BestIndex, r.Index1SE)
	}
	b, o := *r.BestIndex, *r.Index1SE
	for i, e := range r.CVError {
		if e < r.CVError[b] {
			t.Errorf("cv error %g at λ %d is below the best's %g", e, i, r.CVError[b])
		}
		m, ss := 0.0, 0.0
		for f := range 4 {
			m += r.FoldErrors[f][i] / 4
		}
		for f := range 4 {
			ss += (r.FoldErrors[f][i] - m) * (r.FoldErrors[f][i] - m)
		}
		if math.Abs(e-m) > 1e-9*m || math.Abs(r.CVSE[i]-math.Sqrt(ss/3)/2) > 1e-9*m {
			t.Errorf("λ %d: cv %g ± %g, folds give %g ± %g", i, e, r.CVSE[i], m, math.Sqrt(ss/3)/2)
		}
	}
	if o > b || r.CVError[o] > r.CVError[b]+r.CVSE[b] || (o > 0 && r.CVError[o-1] <= r.CVError[b]+r.CVSE[b]) {
		t.Errorf("1-SE index %d (cv %g) for best %d (cv %g ± %g)", o, r.CVError[o], b, r.CVError[b], r.CVSE[b])
	}
	if *r.BestLambda != r.Lambdas[b] || *r.Lambda1SE != r.Lambdas[o] {
		t.Error("best λs do not match their indices")
	}
	// The error at λ_max is the variance of the target around the training
	// mean: about 5930 on diabetes; the best lasso is near 3000.
	if r.CVError[0] < 5000 || r.CVError[b] > 3200 {
		t.Errorf("cv error %g at λ_max, %g at best", r.CVError[0], r.CVError[b])
	}
	again, _ := runPathWith(t, "diabetes", set, nil)
	if again.CVError[b] != r.CVError[b] {
		t.Error("the same seed gave another cv error")
	}
	set["seed"] = "8"
	other, _ := runPathWith(t, "diabetes", set, nil)
	if other.CVError[b] == r.CVError[b] {
		t.Error("another seed gave the same folds")
	}
}

// Logistic cross-validation scores log-loss and error rate; at λ_max the
// log-loss is about the class entropy (0.66 nats for 212/357).
func TestPathLogisticCrossValidation(t *testing.T) {
	r, err := runPathWith(t, "breast_cancer", map[string]string{"model": "logistic-l1", "lambdas": "12", "folds": "3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Metric != "log-loss" || len(r.CVErrorRate) != 12 || r.BestIndex == nil {
		t.Fatalf("metric %s, rates %v, best %v", r.Metric, r.CVErrorRate, r.BestIndex)
	}
	if math.Abs(r.CVError[0]-0.66) > 0.01 || r.CVErrorRate[0] < 0.3 {
		t.Errorf("at λ_max log-loss %g, error rate %g", r.CVError[0], r.CVErrorRate[0])
	}
	if b := *r.BestIndex; r.CVErrorRate[b] > 0.06 {
		t.Errorf("best error rate %g", r.CVErrorRate[b])
	}
}

// A shown frame is never changed afterwards, the path comes first λ by λ,
// and the result survives JSON.
func TestPathFramesAndJSON(t *testing.T) {
	type seen struct {
		json  string
		frame *PathResult
	}
	var frames []seen
	r, err := runPathWith(t, "diabetes", map[string]string{"lambdas": "10", "folds": "3"}, func(f Frame) {
		b, _ := json.Marshal(f.Result)
		frames = append(frames, seen{string(b), f.Result.(*PathResult)})
		if f.Total != 13 {
			t.Errorf("total %d, want 10 λs + 3 folds", f.Total)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 13 || len(frames[0].frame.Coefs) != 1 || frames[9].frame.FoldsDone != 0 || frames[10].frame.FoldsDone != 1 {
		t.Fatalf("%d frames", len(frames))
	}
	for i, f := range frames {
		b, _ := json.Marshal(f.frame)
		if string(b) != f.json {
			t.Fatalf("frame %d changed after it was shown", i)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeAs[PathResult](b)
	if err != nil || *back.(*PathResult).BestLambda != *r.BestLambda {
		t.Fatalf("round trip: %v", err)
	}
}

func TestPathCancelled(t *testing.T) {
	e, _ := Lookup("path")
	v, _ := e.Parse(map[string]string{"lambdas": "50"})
	ctx, cancel := context.WithCancel(context.Background())
	res, err := e.Run(ctx, In{Values: v, Data: pathData(t, "diabetes")}, func(f Frame) {
		if f.Done == 5 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if r := res.(*PathResult); len(r.Coefs) != 5 {
		t.Errorf("partial result has %d fits, want 5", len(r.Coefs))
	}
}

// Data the model cannot take are refused in a line naming the remedy.
func TestPathRefusals(t *testing.T) {
	e, _ := Lookup("path")
	run := func(d *datasets.Dataset, set map[string]string) error {
		v, err := e.Parse(set)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Run(context.Background(), In{Values: v, Data: d}, nil)
		return err
	}
	diabetes, cancer := pathData(t, "diabetes"), pathData(t, "breast_cancer")
	small := &datasets.Dataset{Name: "tiny", X: mat.NewDense(3, 1, []float64{1, 2, 4}), Y: []float64{1, 2, 3},
		Features: []datasets.Column{{Name: "a"}}, Task: datasets.Regression}
	nominal := &datasets.Dataset{Name: "nom", X: mat.NewDense(20, 1, make([]float64, 20)), Y: make([]float64, 20),
		Features: []datasets.Column{{Name: "colour", Kind: datasets.Nominal, Levels: []string{"r", "g"}}}, Task: datasets.Regression}
	holey := mat.NewDense(20, 1, make([]float64, 20))
	holey.Set(3, 0, math.NaN())
	missing := &datasets.Dataset{Name: "holes", X: holey, Y: make([]float64, 20), Features: []datasets.Column{{Name: "h", Missing: 1}}, Task: datasets.Regression}
	for _, tc := range []struct {
		d    *datasets.Dataset
		set  map[string]string
		want string
	}{
		{diabetes, map[string]string{"model": "logistic-l1"}, "data breast_cancer"},
		{cancer, map[string]string{"model": "lasso", "data": "breast_cancer"}, "model logistic-l1 or logistic-l2"},
		{pathData(t, "iris"), map[string]string{"model": "logistic-l2", "data": "iris"}, "has 3"},
		{small, map[string]string{}, "folds 2 or fewer"},
		{nominal, map[string]string{}, "drop=colour"},
		{missing, map[string]string{}, "drop=h"},
	} {
		err := run(tc.d, tc.set)
		if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v: %v, want a one-line limit naming %q", tc.d.Name, tc.set, err, tc.want)
		}
	}
}

// Ridge and L2 weights shrink towards 0 as λ grows but never reach it;
// at the smallest λ ridge is near least squares.
func TestPathRidgeShrinks(t *testing.T) {
	r, err := runPathWith(t, "diabetes", map[string]string{"model": "ridge", "lambdas": "20", "folds": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	norm := func(w []float64) float64 { return math.Sqrt(dot(w, w)) }
	for i := 1; i < len(r.Coefs); i++ {
		if norm(r.Coefs[i]) < norm(r.Coefs[i-1]) {
			t.Errorf("‖w‖ fell from %g to %g as λ fell", norm(r.Coefs[i-1]), norm(r.Coefs[i]))
		}
	}
	// λ_max = 100·h, h the top eigenvalue of ZᵀZ/n, shrinks every
	// eigen-direction of least squares by e/(e+λ) ≤ 1/101.
	d := pathData(t, "diabetes")
	prob, _, _ := preparePath(d, "diabetes", "ridge", 2)
	s := standardise(prob, nil)
	var ols []float64
	if err := fitPath(context.Background(), prob, s, []float64{0}, func(_ int, w []float64, _ float64) { ols = w }); err != nil {
		t.Fatal(err)
	}
	if r.Nonzero[0] != 10 || norm(r.Coefs[0]) > norm(ols)/101 || norm(r.Coefs[0]) < norm(ols)/1e4 || len(r.EntryOrder) != 0 {
		t.Errorf("at λ_max: %d nonzero, ‖w‖ %g (least squares %g); entry order %v", r.Nonzero[0], norm(r.Coefs[0]), norm(ols), r.EntryOrder)
	}
	if h := topEigen(s.gram()); math.Abs(r.Lambdas[0]-100*h) > 1e-9*h || math.Abs(r.Lambdas[19]-100*h*1e-6) > 1e-15*h {
		t.Errorf("grid %g..%g, want 100h..100h·ratio² with h = %g", r.Lambdas[0], r.Lambdas[19], h)
	}
}

// Every fit of an L1 path meets the optimality condition 0 ∈ ∂C(w) (with
// the sign the catalogue's errata correct in Hocking's eq. 49): the loss
// gradient g_j = −λ sign(w_j) where w_j ≠ 0, |g_j| ≤ λ where w_j = 0.
func TestPathL1Optimality(t *testing.T) {
	for _, tc := range []struct{ data, model string }{{"diabetes", "lasso"}, {"breast_cancer", "logistic-l1"}} {
		d := pathData(t, tc.data)
		prob, _, err := preparePath(d, tc.data, tc.model, 5)
		if err != nil {
			t.Fatal(err)
		}
		s := standardise(prob, nil)
		lams := pathGrid(prob, s, 15, 1e-3)
		worst := 0.0
		err = fitPath(context.Background(), prob, s, lams, func(i int, w []float64, b float64) {
			g := lossGradient(prob, s, w, b)
			for j := range w {
				switch {
				case w[j] > 0:
					worst = math.Max(worst, math.Abs(g[j]+lams[i])/lams[i])
				case w[j] < 0:
					worst = math.Max(worst, math.Abs(g[j]-lams[i])/lams[i])
				default:
					worst = math.Max(worst, (math.Abs(g[j])-lams[i])/lams[i])
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if worst > 1e-8 {
			t.Errorf("%s: optimality violated by %g of λ", tc.model, worst)
		}
	}
}

// Degenerate data draw a path all the same, with nothing that JSON cannot
// hold: a constant feature keeps a zero weight, a constant target gives a
// flat path.
func TestPathDegenerateData(t *testing.T) {
	e, _ := Lookup("path")
	n := 24
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	cls := make([]float64, n)
	for i := range n {
		x.Set(i, 0, 5)
		x.Set(i, 1, float64(i%7))
		y[i] = 3
		cls[i] = float64(i % 2)
	}
	cols := []datasets.Column{{Name: "flat"}, {Name: "x"}}
	flatY := &datasets.Dataset{Name: "flat", X: x, Y: y, Features: cols, Task: datasets.Regression}
	twoClass := &datasets.Dataset{Name: "two", X: x, Y: cls, Features: cols, Task: datasets.Classification, Classes: []string{"no", "yes"}}
	for _, tc := range []struct {
		d     *datasets.Dataset
		model string
	}{{flatY, "lasso"}, {flatY, "ridge"}, {twoClass, "logistic-l1"}, {twoClass, "logistic-l2"}} {
		v, err := e.Parse(map[string]string{"model": tc.model, "lambdas": "5", "folds": "3", "data": tc.d.Name})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(context.Background(), In{Values: v, Data: tc.d}, nil)
		if err != nil {
			t.Fatalf("%s on %s: %v", tc.model, tc.d.Name, err)
		}
		r := res.(*PathResult)
		if _, err := json.Marshal(r); err != nil {
			t.Errorf("%s: %v", tc.model, err)
		}
		for _, w := range r.Coefs {
			if w[0] != 0 {
				t.Errorf("%s: the constant feature has weight %g", tc.model, w[0])
			}
		}
	}
}
