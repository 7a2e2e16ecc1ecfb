package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// The reference values come from testdata/lift_ref.py (scikit-learn 1.2.1);
// re-run it from this directory to reproduce them.

// The monomials of a small matrix, in the order and with the values of
// scikit-learn's PolynomialFeatures(degree=3, include_bias=False); its
// names "a b" are spelt "a*b" here, as feature names may hold spaces.
func TestLiftMonomialsMatchScikitLearn(t *testing.T) {
	M := mat.NewDense(3, 3, []float64{1, 2, 3, -1, 0.5, 2, 0.3, -2, 1.5})
	d := engine.Train{X: M, Y: make([]float64, 3), Features: []string{"a", "b", "c"}}
	lifted, l, err := liftTrain(d, 3, false, "test")
	if err != nil {
		t.Fatal(err)
	}
	// PolynomialFeatures.get_feature_names_out(["a", "b", "c"]), spaces as *.
	skNames := "a b c a^2 a*b a*c b^2 b*c c^2 a^3 a^2*b a^2*c a*b^2 a*b*c a*c^2 b^3 b^2*c b*c^2 c^3"
	if got := strings.Join(lifted.Features, " "); got != skNames {
		t.Errorf("names\n%s\nwant\n%s", got, skNames)
	}
	liftM3 := []float64{1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 4.0, 6.0, 9.0, 1.0, 2.0, 3.0, 4.0, 6.0, 9.0, 8.0, 12.0, 18.0, 27.0, -1.0, 0.5, 2.0, 1.0, -0.5, -2.0, 0.25, 1.0, 4.0, -1.0, 0.5, 2.0, -0.25, -1.0, -4.0, 0.125, 0.5, 2.0, 8.0, 0.3, -2.0, 1.5, 0.09, -0.6, 0.44999999999999996, 4.0, -3.0, 2.25, 0.027, -0.18, 0.13499999999999998, 1.2, -0.8999999999999999, 0.6749999999999999, -8.0, 6.0, -4.5, 3.375}
	lsqClose(t, "lifted M", lifted.X.RawMatrix().Data, liftM3, 1e-15)
	// Predicting lifts new rows the same way.
	again, err := l.input(M, 19, lifted.Features, "test")
	if err != nil {
		t.Fatal(err)
	}
	lsqClose(t, "lifted M at prediction", again.RawMatrix().Data, liftM3, 1e-15)
}

// Ridge with lift=2 is scikit-learn's make_pipeline(PolynomialFeatures(2),
// StandardScaler(), Ridge(alpha=10)) on standardised diabetes: a lifted
// model standardises its monomials (see lifted), so the scaler belongs in
// the pipeline; without it the coefficients differ.
func TestRidgeLiftMatchesScikitLearn(t *testing.T) {
	d := lsqDiabetes(t)
	d.X = lsqStandardise(d.X, d.X)
	m := &Ridge{Alpha: 10, Lift: 2}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	ridgeLift2Coef := []float64{2.067650837618487, -5.792559496815935, 22.128888879994943, 15.737684965711537, -3.1319189098788778, -4.5190153906858495, -9.872828304403683, 6.188641776889219, 25.95569180959469, 3.4559887390835176, 3.6441208918015198, 7.600119891665243, -0.8308386004614153, 1.3050167979303984, -2.224154964972055, -5.676750170468328, 6.712031478694811, 5.42957846473601, 4.059849523796258, 2.2604811603902624, -5.7925594968160015, 3.586312542918183, 3.7822580190329296, 5.229184814575591, -5.6452040413725575, 2.034308371915158, -2.3796830150410835, -1.8656555457982147, 1.850851358007185, 2.5179151770620165, 7.547796330154697, -6.180413527175484, 3.5483119533053147, 2.2101080074532615, -0.9088585115054286, 1.2218538806961865, 1.3488991120349156, -0.8462331259922449, 1.3063160772318116, 2.697777342569837, 0.6716138800406235, -2.4206602692730876, 0.762840415626608, -6.062544881418908, 0.9095206273524392, 6.004292400874873, 2.333577500046752, -10.946907499013898, -12.082545125129485, -3.769854245804467, -1.446723854314127, -5.295232971981617, -2.253752498331552, 15.333182648023032, 1.6444819721880868, -1.9072770420828846, -0.9713032623743831, 1.8618598674777858, 6.669872857334328, 5.602891953477985, -6.325958809082763, 8.138079612215556, 5.644470343981941, 2.1437155499492437, 5.179944976758914}
	ridgeLift2Intercept := []float64{152.133484162896}
	ridgeLift2Pred := []float64{211.25298912874345, 72.0440409596996, 191.10760122268624, 196.96807048551585, 123.31143008713514}
	c := m.Coefficients()
	if len(c.Features) != 65 || c.Features[10] != "age^2" || c.Features[11] != "age*sex" {
		t.Errorf("features %q, want the 65 monomials of degree <= 2, age^2 and age*sex 11th and 12th", c.Features)
	}
	lsqClose(t, "coef", mat.Row(nil, 0, c.Weights), ridgeLift2Coef, 1e-6)
	lsqClose(t, "intercept", c.Intercept, ridgeLift2Intercept, 1e-6)
	pred, err := m.Predict(d.X.Slice(0, 5, 0, 10))
	if err != nil {
		t.Fatal(err)
	}
	lsqClose(t, "predictions", pred, ridgeLift2Pred, 1e-6)
}

// Least squares of degree 3 on the cubic data set (y = x³ − 3x plus noise
// of standard deviation 0.5, 100 rows on [−2, 2]) recovers the cubic's
// coefficients; ridge and lasso with lift=3 and almost no penalty fit the
// same polynomial through their standardised monomials.
func TestLiftRecoversCubic(t *testing.T) {
	d := persisttest.Builtin(t, "cubic", datasets.Regression)
	ls := &LeastSquares{Degree: 3, Solver: "normal"}
	if err := engine.Fit(context.Background(), ls, d, nil); err != nil {
		t.Fatal(err)
	}
	c := ls.Coefficients()
	got := append(mat.Row(nil, 0, c.Weights), c.Intercept[0])
	// x, x², x³, intercept; the noise moves each by about its standard error.
	want := []float64{-3, 0, 1, 0}
	for j := range want {
		if math.Abs(got[j]-want[j]) > 0.25 {
			t.Errorf("%s coefficient %.4f, want %g ± 0.25", append(c.Features, "intercept")[j], got[j], want[j])
		}
	}
	grid := mat.NewDense(41, 1, nil)
	for i := 0; i < 41; i++ {
		grid.Set(i, 0, -2+0.1*float64(i))
	}
	ref, err := ls.Predict(grid)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []engine.Predictor{&Ridge{Alpha: 1e-8, Lift: 3}, &Lasso{Alpha: 1e-8, Lift: 3, MaxIter: 100000, Tol: 1e-12}} {
		if err := engine.Fit(context.Background(), m, d, nil); err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(grid)
		if err != nil {
			t.Fatal(err)
		}
		lsqClose(t, fmtModel(m)+" on the grid", pred, ref, 1e-6)
	}
}

func fmtModel(m engine.Predictor) string { return strings.TrimPrefix(fmt.Sprintf("%T", m), "*linear.") }

// A lift wider than liftMaxWidth is refused by its width before anything
// is allocated, whatever the memory; a narrower one that the memory cannot
// hold is refused by the memory estimate, which names the lift.
func TestLiftRefusals(t *testing.T) {
	wide := engine.Train{X: mat.NewDense(4, 64, nil), Y: []float64{0, 1, 0, 1}, Classes: []string{"a", "b"}}
	for _, name := range []string{"perceptron", "logistic", "ridge", "lasso"} {
		spec, v, m, err := engine.New(name, map[string]string{"lift": "6"})
		if err != nil {
			t.Fatal(err)
		}
		err = engine.Fit(context.Background(), m, wide, nil)
		// C(64+6, 6) − 1 monomials.
		if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), "lift=6 on 64 features makes 131115984 columns") {
			t.Errorf("%s, lift=6 on 64 features: %v, want a refusal naming lift and the width", name, err)
		}
		if need := spec.Memory(engine.Shape{Rows: 4, Cols: 64, Classes: 2}, v); need.Bytes > 1e6 {
			t.Errorf("%s, lift=6 on 64 features: memory estimate %s; the width refusal should answer", name, need.What)
		}
		v["lift"] = 3
		need := spec.Memory(engine.Shape{Rows: 1_000_000, Cols: 30, Classes: 2}, v)
		if !strings.Contains(need.What, "a 1000000 x 5455 matrix of lifted features (lift=3)") || need.Bytes < 8*1e6*5455 {
			t.Errorf("%s, lift=3 on 1,000,000 x 30: memory estimate %q (%g bytes)", name, need.What, need.Bytes)
		}
	}
}
