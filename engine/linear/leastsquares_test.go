package linear

import (
	"context"
	"encoding/csv"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Reference values in the tests of leastsquares.go, ridge.go, lasso.go and
// stepwise.go come from testdata/leastsquares_ref.py (scikit-learn 1.2.1);
// re-run it from this directory to reproduce them.

// lsqDiabetes loads testdata/leastsquares_diabetes.csv, a copy of the built-in
// diabetes set (442 x 10, sklearn's load_diabetes(scaled=False)).
func lsqDiabetes(t testing.TB) engine.Train {
	t.Helper()
	f, err := os.Open("testdata/leastsquares_diabetes.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, rows := recs[0], recs[1:]
	p := len(head) - 1
	X := mat.NewDense(len(rows), p, nil)
	y := make([]float64, len(rows))
	for i, r := range rows {
		for j, s := range r {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if j == p {
				y[i] = v
			} else {
				X.Set(i, j, v)
			}
		}
	}
	return engine.Train{X: X, Y: y, Features: head[:p], Seed: 1}
}

// lsqStandardise returns X standardised with the means and population
// standard deviations of the rows of fit, as scikit-learn's StandardScaler.
func lsqStandardise(fit, X *mat.Dense) *mat.Dense {
	n, p := fit.Dims()
	r, _ := X.Dims()
	out := mat.NewDense(r, p, nil)
	for j := 0; j < p; j++ {
		mean, ss := 0.0, 0.0
		for i := 0; i < n; i++ {
			mean += fit.At(i, j)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := fit.At(i, j) - mean
			ss += d * d
		}
		sd := math.Sqrt(ss / float64(n))
		for i := 0; i < r; i++ {
			out.Set(i, j, (X.At(i, j)-mean)/sd)
		}
	}
	return out
}

// lsqWeights are the tests' sample weights, 1 + (i mod 5), as in the script.
func lsqWeights(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1 + float64(i%5)
	}
	return w
}

func lsqRows(d engine.Train, idx []int) engine.Train {
	_, p := d.X.Dims()
	out := d
	out.X = mat.NewDense(len(idx), p, nil)
	out.Y = make([]float64, len(idx))
	for r, i := range idx {
		out.X.SetRow(r, d.X.RawRowView(i))
		out.Y[r] = d.Y[i]
	}
	out.Weights = nil
	return out
}

func lsqR2(y, pred []float64) float64 {
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	ss, sr := 0.0, 0.0
	for i, v := range y {
		ss += (v - mean) * (v - mean)
		sr += (v - pred[i]) * (v - pred[i])
	}
	return 1 - sr/ss
}

// lsqCV is the R² of each fold of scikit-learn's KFold(k) without shuffling
// (the first n mod k folds have one row more), standardising inside each
// fold when std is set, as make_pipeline(StandardScaler(), model).
func lsqCV(t *testing.T, d engine.Train, k int, std bool, newModel func() engine.Predictor) []float64 {
	t.Helper()
	n := d.Rows()
	out := make([]float64, k)
	start := 0
	for f := 0; f < k; f++ {
		size := n / k
		if f < n%k {
			size++
		}
		var tr, te []int
		for i := 0; i < n; i++ {
			if i >= start && i < start+size {
				te = append(te, i)
			} else {
				tr = append(tr, i)
			}
		}
		start += size
		train, test := lsqRows(d, tr), lsqRows(d, te)
		if std {
			train.X, test.X = lsqStandardise(train.X, train.X), lsqStandardise(train.X, test.X)
		}
		m := newModel()
		if err := engine.Fit(context.Background(), m, train, nil); err != nil {
			t.Fatalf("fold %d: %v", f+1, err)
		}
		pred, err := m.Predict(test.X)
		if err != nil {
			t.Fatalf("fold %d: %v", f+1, err)
		}
		out[f] = lsqR2(test.Y, pred)
	}
	return out
}

// lsqClose reports whether got matches want to rel relative to the largest
// |want| (so that near-zero entries are judged on the vector's scale).
func lsqClose(t *testing.T, what string, got, want []float64, rel float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	scale = max(scale, 1e-300)
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > rel*scale || math.IsNaN(got[i]) {
			t.Errorf("%s[%d] = %.15g, want %.15g (off by %.3g of the scale %.3g)", what, i, got[i], want[i], d/scale, scale)
		}
	}
}

func lsqCoefOf(t *testing.T, m engine.Predictor) ([]float64, float64) {
	t.Helper()
	c := m.(engine.Coefficienter).Coefficients()
	if c.Weights == nil {
		t.Fatal("no coefficients")
	}
	return mat.Row(nil, 0, c.Weights), c.Intercept[0]
}

// lsqSteps records the steps of a fit.
type lsqSteps struct {
	steps []engine.Step
	stop  int   // return err at this step (1-based); 0 never
	err   error // returned at step stop
}

func (r *lsqSteps) Step(s engine.Step) error {
	r.steps = append(r.steps, s)
	if r.stop > 0 && len(r.steps) == r.stop {
		return r.err
	}
	return nil
}

func TestLeastSquaresDiabetes(t *testing.T) {
	d := lsqDiabetes(t)
	weighted := d
	weighted.Weights = lsqWeights(d.Rows())
	for _, tc := range []struct {
		name   string
		m      *LeastSquares
		d      engine.Train
		coef   []float64
		icept  float64
		solver string
	}{
		// LinearRegression().fit(X, y)
		{"ols", &LeastSquares{Solver: "normal", Degree: 1}, d,
			[]float64{-0.036361224223623534, -22.859648090498354, 5.602962091923719, 1.1168079933181838, -1.0899963340632226, 0.7464504555142124, 0.3720047150891379, 6.53383193599034, 68.48312496478829, 0.2801169893214981},
			-334.5671385187875, "normal"},
		{"ols pinv", &LeastSquares{Solver: "pinv", Degree: 1}, d,
			[]float64{-0.036361224223623534, -22.859648090498354, 5.602962091923719, 1.1168079933181838, -1.0899963340632226, 0.7464504555142124, 0.3720047150891379, 6.53383193599034, 68.48312496478829, 0.2801169893214981},
			-334.5671385187875, "pinv"},
		// LinearRegression().fit(X, y, sample_weight=1 + arange(n) % 5)
		{"weighted", &LeastSquares{Solver: "normal", Degree: 1}, weighted,
			[]float64{-0.08940772964857024, -19.79141429563096, 5.616336732995184, 1.0785281386365035, -1.3187199198760826, 0.9758475773686754, 0.5912317170302548, 4.850872741023209, 78.82199810303126, 0.342797659798598},
			-373.94459043750066, "normal"},
		{"weighted pinv", &LeastSquares{Solver: "pinv", Degree: 1}, weighted,
			[]float64{-0.08940772964857024, -19.79141429563096, 5.616336732995184, 1.0785281386365035, -1.3187199198760826, 0.9758475773686754, 0.5912317170302548, 4.850872741023209, 78.82199810303126, 0.342797659798598},
			-373.94459043750066, "pinv"},
		// LinearRegression(fit_intercept=False).fit(X, y)
		{"no intercept", &LeastSquares{NoIntercept: true, Solver: "normal", Degree: 1}, d,
			[]float64{0.022296429852856677, -26.072788584495825, 5.353725917566881, 1.0177970496721453, 1.2635859063792694, -1.284936211353502, -3.068278166118933, -5.508041676893496, 5.503381462857545, 0.12338517956510309},
			0, "normal"},
		// LinearRegression().fit(X[:4, :6], y[:4]): 4 rows, 6 features,
		// the minimum-norm solution.
		{"wide", &LeastSquares{Solver: "normal", Degree: 1}, lsqRows(engine.Train{X: mat.DenseCopyOf(d.X.Slice(0, 4, 0, 6)), Y: d.Y[:4]}, []int{0, 1, 2, 3}),
			[]float64{-0.25144996481591303, 0.2917735457906373, 3.716884046353705, 0.8016862518251333, -3.312885036064051, 5.791172488274665},
			-54.64461373487751, "pinv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &lsqSteps{}
			if err := engine.Fit(context.Background(), tc.m, tc.d, rec); err != nil {
				t.Fatal(err)
			}
			coef, icept := lsqCoefOf(t, tc.m)
			lsqClose(t, "coef", coef, tc.coef, 1e-8)
			lsqClose(t, "intercept", []float64{icept}, []float64{tc.icept}, 1e-8)
			if got := tc.m.SolverUsed(); got != tc.solver {
				t.Errorf("solver %s, want %s (warnings %q)", got, tc.solver, tc.m.Warnings())
			}
			if len(rec.steps) != 1 || rec.steps[0].Step != 1 || rec.steps[0].Total != 1 {
				t.Fatalf("steps %+v, want one", rec.steps)
			}
			pred, err := tc.m.Predict(tc.d.X)
			if err != nil {
				t.Fatal(err)
			}
			mse := 0.0
			sw := 0.0
			for i, v := range tc.d.Y {
				wi := 1.0
				if tc.d.Weights != nil {
					wi = tc.d.Weights[i]
				}
				mse += wi * (v - pred[i]) * (v - pred[i])
				sw += wi
			}
			mse /= sw
			if got := rec.steps[0].TrainLoss; math.Abs(got-mse) > 1e-9*max(mse, 1) {
				t.Errorf("TrainLoss %v, want the training MSE %v", got, mse)
			}
		})
	}
	// R² on the training rows: LinearRegression().fit(X, y).score(X, y).
	m := &LeastSquares{Solver: "normal", Degree: 1}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	pred, _ := m.Predict(d.X)
	if r2 := lsqR2(d.Y, pred); math.Abs(r2-0.5177484222203498) > 1e-10 {
		t.Errorf("R² %v, want 0.5177484222203498", r2)
	}
}

func TestLeastSquaresPolynomial(t *testing.T) {
	d := lsqDiabetes(t)
	// PolynomialFeatures(2, include_bias=False) + LinearRegression() on the
	// raw diabetes features.
	m := &LeastSquares{Degree: 2, Solver: "normal"}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	c := m.Coefficients()
	// sklearn's get_feature_names_out order, with "a b" written "a*b".
	skNames := "age sex bmi bp s1 s2 s3 s4 s5 s6 age^2 age*sex age*bmi age*bp age*s1 age*s2 age*s3 age*s4 age*s5 age*s6 sex^2 sex*bmi sex*bp sex*s1 sex*s2 sex*s3 sex*s4 sex*s5 sex*s6 bmi^2 bmi*bp bmi*s1 bmi*s2 bmi*s3 bmi*s4 bmi*s5 bmi*s6 bp^2 bp*s1 bp*s2 bp*s3 bp*s4 bp*s5 bp*s6 s1^2 s1*s2 s1*s3 s1*s4 s1*s5 s1*s6 s2^2 s2*s3 s2*s4 s2*s5 s2*s6 s3^2 s3*s4 s3*s5 s3*s6 s4^2 s4*s5 s4*s6 s5^2 s5*s6 s6^2"
	if got := strings.Join(c.Features, " "); got != skNames {
		t.Errorf("names\n%s\nwant\n%s", got, skNames)
	}
	poly2Coef := []float64{-10.497535687122772, -11.458216246723364, -20.870644943334046, 4.176237473760357, 34.86619709250115, -27.089733470292032, -49.59819094952151, -193.8235416651412, -1368.3996897203199, -9.951497746027448, 0.016329124994058336, 1.1010792483680634, -0.014847499671814743, 0.005202310946698263, -0.016260282219444144, -0.008040944007627837, 0.06512964555058404, 0.5362458479762964, 0.869993252653084, 0.021039876002172886, -34.37464561902233, 1.408563855568512, 0.633140516047624, 1.189521634201022, -1.1126427582512117, -1.004070550754602, -10.218256990879407, -21.946298608217656, 0.38898377583027344, 0.07761359728765606, 0.11361438056695966, -0.09759572557009419, 0.08980989741890891, 0.10835675633319397, -0.2917267643298871, 2.4864778366518703, 0.02174663877212879, -0.001749042998881123, 0.048889625430199146, -0.03836180610494466, -0.04881933805393146, -0.1601946749722174, -1.0883826710896187, -0.03865306618922659, 0.177960276278327, -0.2813771986835434, -0.43937546315440734, -1.9437161173823938, -9.91770889936987, -0.02226719711217129, 0.11463941812985468, 0.32928801632658633, 1.0953449887544195, 8.642700633646228, 0.011905652740040296, 0.28667677927671775, 3.0315863019162066, 11.05620357951993, 0.07461848693334616, 14.211508227027492, 25.498500509389444, 0.708357538543197, 186.72910108675833, 0.6248385242816425, 0.027629955524560046}
	lsqClose(t, "poly2 coef", mat.Row(nil, 0, c.Weights), poly2Coef, 1e-6)
	lsqClose(t, "poly2 intercept", c.Intercept, []float64{3572.3174263563615}, 1e-6)
	pred, err := m.Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	if r2 := lsqR2(d.Y, pred); math.Abs(r2-0.5924402750960348) > 1e-9 {
		t.Errorf("poly2 R² %v, want 0.5924402750960348", r2)
	}

	// PolynomialFeatures(3) on the first 4 standardised features.
	std := engine.Train{X: mat.DenseCopyOf(lsqStandardise(d.X, d.X).Slice(0, d.Rows(), 0, 4)), Y: d.Y}
	m3 := &LeastSquares{Degree: 3, Solver: "normal"}
	if err := engine.Fit(context.Background(), m3, std, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(m3.Coefficients().Features); n != 34 {
		t.Errorf("degree 3 on 4 features: %d terms, want 34", n)
	}
	pred, _ = m3.Predict(std.X)
	if r2 := lsqR2(d.Y, pred); math.Abs(r2-0.4465291497040167) > 1e-9 {
		t.Errorf("poly3 R² %v, want 0.4465291497040167", r2)
	}
	lsqClose(t, "poly3 predictions", pred[:5], []float64{226.13034940391577, 101.74097238927524, 198.74984250542678, 150.79693591662073, 121.03521132179566}, 1e-9)
}

// The notes' examples, solved exactly.
func TestLeastSquaresNotes(t *testing.T) {
	// Shewchuk, Concise Machine Learning, lecture 13, the ridge toy: (0,0) → 0, (1,1) → 0, (0.51,0.49) → 1. Least squares
	// fits the three points exactly with 50x₁ − 50x₂ and bias 0.
	toy := engine.Train{X: mat.NewDense(3, 2, []float64{0, 0, 1, 1, 0.51, 0.49}), Y: []float64{0, 0, 1}}
	m := &LeastSquares{Solver: "normal", Degree: 1}
	if err := engine.Fit(context.Background(), m, toy, nil); err != nil {
		t.Fatal(err)
	}
	coef, icept := lsqCoefOf(t, m)
	lsqClose(t, "ridge toy", append(coef, icept), []float64{50, -50, 0}, 1e-9)

	// Shewchuk, lecture 22: D = [[2,0,0],[0,0,0],[0,0,1/3],[0,0,0]] has D⁺ = [[1/2,0,0,0],
	// [0,0,0,0],[0,0,3,0]], so the minimum-norm solution for y = (1,2,3,4)
	// without an intercept is D⁺y = (1/2, 0, 9).
	D := engine.Train{X: mat.NewDense(4, 3, []float64{2, 0, 0, 0, 0, 0, 0, 0, 1.0 / 3, 0, 0, 0}), Y: []float64{1, 2, 3, 4}}
	rec := &lsqSteps{}
	m = &LeastSquares{NoIntercept: true, Solver: "normal", Degree: 1}
	if err := engine.Fit(context.Background(), m, D, rec); err != nil {
		t.Fatal(err)
	}
	coef, _ = lsqCoefOf(t, m)
	lsqClose(t, "pseudoinverse", coef, []float64{0.5, 0, 9}, 1e-12)
	if m.SolverUsed() != "pinv" || m.Rank() != 2 || rec.steps[0].Detail != (LeastSquaresFit{Pinv: true, Rank: 2}) {
		t.Errorf("solver %s rank %d step %v, want pinv, rank 2", m.SolverUsed(), m.Rank(), rec.steps[0].Detail)
	}
	if w := m.Warnings(); len(w) == 0 || !strings.Contains(w[0], `"x2" is constant`) {
		t.Errorf("warnings %q, want one naming the constant feature x2", w)
	}
}

// A duplicated column makes XᵀX singular: the fit falls back to the
// pseudo-inverse, whose minimum-norm solution splits the weight equally.
func TestLeastSquaresCollinear(t *testing.T) {
	d := lsqDiabetes(t)
	n := d.Rows()
	X := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, d.X.At(i, 2))
		X.Set(i, 1, d.X.At(i, 8))
		X.Set(i, 2, d.X.At(i, 2))
	}
	m := &LeastSquares{Solver: "normal", Degree: 1}
	if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: d.Y}, nil); err != nil {
		t.Fatal(err)
	}
	if m.SolverUsed() != "pinv" || len(m.Warnings()) == 0 {
		t.Fatalf("solver %s warnings %q: want a fall-back to pinv", m.SolverUsed(), m.Warnings())
	}
	coef, _ := lsqCoefOf(t, m)
	ref := &LeastSquares{Solver: "normal", Degree: 1}
	if err := engine.Fit(context.Background(), ref, engine.Train{X: mat.DenseCopyOf(X.Slice(0, n, 0, 2)), Y: d.Y}, nil); err != nil {
		t.Fatal(err)
	}
	rc, _ := lsqCoefOf(t, ref)
	lsqClose(t, "split weights", coef, []float64{rc[0] / 2, rc[1], rc[0] / 2}, 1e-9)
}

// 10-fold CV R² matches scikit-learn's cross_val_score(LinearRegression(), X,
// y, cv=KFold(10)) fold by fold (mean 0.46196024204506053).
func TestLeastSquaresCV(t *testing.T) {
	got := lsqCV(t, lsqDiabetes(t), 10, false, func() engine.Predictor { return &LeastSquares{Solver: "normal", Degree: 1} })
	lsqClose(t, "CV R²", got, []float64{0.5561455010393453, 0.23055827319913313, 0.3535767319519424, 0.6219075223926618, 0.2658726963952671, 0.6181979848524272, 0.4181514243412915, 0.4351374658018554, 0.4343622931454618, 0.6856925273312198}, 1e-9)
}

// lsqBadInputs runs the input checks every model of these files shares.
func lsqBadInputs(t *testing.T, newModel func() engine.Predictor) {
	d := lsqDiabetes(t)
	nanX := mat.DenseCopyOf(d.X)
	nanX.Set(12, 2, math.NaN())
	infY := append([]float64(nil), d.Y...)
	infY[4] = math.Inf(1)
	infX := mat.DenseCopyOf(d.X)
	infX.Set(40, 0, math.Inf(-1))
	hugeX := mat.DenseCopyOf(d.X)
	for i := 0; i < d.Rows(); i++ {
		hugeX.Set(i, 1, hugeX.At(i, 1)*1e200)
	}
	negW := lsqWeights(d.Rows())
	negW[7] = -1
	for _, tc := range []struct {
		name string
		d    engine.Train
		want string
	}{
		{"nan", engine.Train{X: nanX, Y: d.Y, Features: d.Features}, `row 13, feature "bmi" is NaN`},
		{"inf", engine.Train{X: infX, Y: d.Y}, "row 41, feature 1 is -Inf"},
		{"overflow", engine.Train{X: hugeX, Y: d.Y}, "overflow"},
		{"inf target", engine.Train{X: d.X, Y: infY}, "row 5"},
		{"no rows", engine.Train{X: &mat.Dense{}, Y: nil}, "no training rows"},
		{"nil X", engine.Train{}, "no training data"},
		{"short y", engine.Train{X: d.X, Y: d.Y[:10]}, "10 targets for 442 rows"},
		{"weights", engine.Train{X: d.X, Y: d.Y, Weights: []float64{1}}, "1 sample weights for 442 rows"},
		{"negative weight", engine.Train{X: d.X, Y: d.Y, Weights: negW}, "row 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := engine.Fit(context.Background(), newModel(), tc.d, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	m := newModel()
	if _, err := m.Predict(d.X); !errors.Is(err, engine.ErrNotFitted) {
		t.Errorf("Predict before Fit: %v, want ErrNotFitted", err)
	}
	if c := m.(engine.Coefficienter).Coefficients(); c.Weights != nil {
		t.Errorf("Coefficients before Fit: %+v, want none", c)
	}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(mat.NewDense(2, 3, nil)); err == nil || !strings.Contains(err.Error(), "3 features") {
		t.Errorf("Predict with 3 columns: %v, want an error", err)
	}
	bad := mat.DenseCopyOf(d.X.Slice(0, 3, 0, 10))
	bad.Set(1, 0, math.NaN())
	if _, err := m.Predict(bad); err == nil || !strings.Contains(err.Error(), "row 2") {
		t.Errorf("Predict with NaN: %v, want an error naming row 2", err)
	}
	if p, err := m.Predict(mat.NewDense(1, 10, nil)); err != nil || len(p) != 1 {
		t.Errorf("Predict one row: %v %v", p, err)
	}

	// A cancelled context, and a recorder error, end the fit with that error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := engine.Fit(ctx, newModel(), d, engine.ContextRecorder{Ctx: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	stop := errors.New("stop")
	m = newModel()
	if err := engine.Fit(context.Background(), m, d, &lsqSteps{stop: 1, err: stop}); !errors.Is(err, stop) {
		t.Errorf("recorder error: %v, want it returned", err)
	}
	if _, err := m.Predict(d.X); !errors.Is(err, engine.ErrNotFitted) {
		t.Errorf("Predict after a stopped fit: %v, want ErrNotFitted", err)
	}
}

func TestLeastSquaresBadInput(t *testing.T) {
	lsqBadInputs(t, func() engine.Predictor { return &LeastSquares{Solver: "normal", Degree: 1} })
	wide := engine.Train{X: mat.NewDense(10, 1000, nil), Y: make([]float64, 10)}
	if err := engine.Fit(context.Background(), (&LeastSquares{Degree: 3, Solver: "normal"}), wide, nil); err == nil || !strings.Contains(err.Error(), "terms") {
		t.Errorf("degree 3 on 1000 features: %v, want an error about the number of terms", err)
	}
}

func TestLeastSquaresRegistry(t *testing.T) {
	spec, v, m, err := engine.New("linear", map[string]string{"degree": "2", "intercept": "false", "solver": "pinv"})
	if err != nil {
		t.Fatal(err)
	}
	ls := m.(*LeastSquares)
	if ls.Degree != 2 || !ls.NoIntercept || ls.Solver != "pinv" || spec.Standardize || v.Int("degree") != 2 {
		t.Errorf("spec %+v values %v model %+v", spec, v, ls)
	}
	if _, _, _, err := engine.New("linear", map[string]string{"degree": "7"}); err == nil {
		t.Error("degree 7 accepted")
	}
}

// lsqBenchData mimics make_regression: standard normal features, 30 (or k)
// informative weights in [0, 100), noise 5.
func lsqBenchData(n, p, informative int, seed uint64) engine.Train {
	r := rand.New(rand.NewPCG(seed, 99))
	X := mat.NewDense(n, p, nil)
	raw := X.RawMatrix().Data
	for i := range raw {
		raw[i] = r.NormFloat64()
	}
	w := make([]float64, p)
	for j := 0; j < informative; j++ {
		w[j] = 100 * r.Float64()
	}
	y := make([]float64, n)
	for i := range y {
		row := X.RawRowView(i)
		for j, v := range w {
			y[i] += v * row[j]
		}
		y[i] += 5 * r.NormFloat64()
	}
	return engine.Train{X: X, Y: y}
}

// BenchmarkLinear100kx50 is the bench case linreg (scikit-learn's
// LinearRegression: 0.31 s on 80k x 50 on this machine).
func BenchmarkLinear100kx50(b *testing.B) {
	d := lsqBenchData(100_000, 50, 30, 5)
	for b.Loop() {
		if err := engine.Fit(context.Background(), (&LeastSquares{Solver: "normal", Degree: 1}), d, nil); err != nil {
			b.Fatal(err)
		}
	}
}
