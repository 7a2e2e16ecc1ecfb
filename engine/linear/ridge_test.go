package linear

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// References: scikit-learn Ridge, from testdata/leastsquares_ref.py.
func TestRidgeDiabetes(t *testing.T) {
	d := lsqDiabetes(t)
	std := d
	std.X = lsqStandardise(d.X, d.X)
	weighted := d
	weighted.Weights = lsqWeights(d.Rows())
	wide := lsqRows(d, []int{0, 1, 2, 3, 4, 5, 6, 7})
	for _, tc := range []struct {
		name  string
		m     *Ridge
		d     engine.Train
		coef  []float64
		icept float64
	}{
		// Ridge(alpha=1.0).fit(X, y) on the raw features
		{"raw alpha 1", &Ridge{Alpha: 1}, d,
			[]float64{-0.03285239685543118, -22.607045432279946, 5.640405234365652, 1.11899757004851, -0.9146734842698867, 0.5849098252881729, 0.17788523837880826, 6.250441778661576, 63.179080873617295, 0.28776690289978546},
			-316.07711860428856},
		{"default alpha is 1", engine.MustBuild("ridge", nil).(*Ridge), d,
			[]float64{-0.03285239685543118, -22.607045432279946, 5.640405234365652, 1.11899757004851, -0.9146734842698867, 0.5849098252881729, 0.17788523837880826, 6.250441778661576, 63.179080873617295, 0.28776690289978546},
			-316.07711860428856},
		// Ridge(alpha=0.1).fit(X, y)
		{"raw alpha 0.1", &Ridge{Alpha: 0.1}, d,
			[]float64{-0.03597760441025299, -22.834210651093574, 5.606965740618109, 1.117056117914716, -1.0711627040084113, 0.7290916240629356, 0.35114509648612247, 6.503749429168079, 67.91288502858336, 0.28094385616211254},
			-332.57822502812985},
		// Ridge(alpha=1.0).fit(StandardScaler().fit_transform(X), y)
		{"standardised", &Ridge{Alpha: 1}, std,
			[]float64{-0.43117265822491657, -11.33365493187758, 24.77124180947335, 15.373472852971991, -30.08840059259471, 16.653152303353508, 1.4621070111049679, 7.521110929123213, 32.84375085651544, 3.26638486937155},
			152.133484162896},
		// Ridge(alpha=1.0).fit(X, y, sample_weight=1 + arange(n) % 5)
		{"weighted", &Ridge{Alpha: 1}, weighted,
			[]float64{-0.0872415909750117, -19.707884815299163, 5.631923827047516, 1.0799986144460516, -1.2514631646310221, 0.9135033980692636, 0.518476447630915, 4.7612527445630635, 76.68275254592363, 0.3462098114470036},
			-366.6415265162643},
		// Ridge(alpha=1.0, fit_intercept=False).fit(X, y)
		{"no intercept", &Ridge{Alpha: 1, NoIntercept: true}, d,
			[]float64{0.02146006534436592, -25.77335985516524, 5.361632305397321, 1.0164972599550144, 1.2708613229777102, -1.2931827696562372, -3.0674916795214413, -5.4503161410615295, 5.250924240449296, 0.12325165667067761},
			0},
		// Ridge(alpha=0.5).fit(X[:8], y[:8]): more features than rows, the
		// dual form (Shewchuk, Concise Machine Learning, lecture 16).
		{"dual", &Ridge{Alpha: 0.5}, wide,
			[]float64{0.04057804491132799, -0.9354840872292556, -5.845148943150921, -1.1734204540188244, 1.781344862166378, -1.4786808180532205, -7.12635584140321, 4.78630318945389, -1.1748195343416068, -2.644344586672233},
			796.5290368329705},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &lsqSteps{}
			if err := engine.Fit(context.Background(), tc.m, tc.d, rec); err != nil {
				t.Fatal(err)
			}
			coef, icept := lsqCoefOf(t, tc.m)
			lsqClose(t, "coef", coef, tc.coef, 1e-8)
			lsqClose(t, "intercept", []float64{icept}, []float64{tc.icept}, 1e-8)
			if len(rec.steps) != 1 {
				t.Fatalf("%d steps, want 1", len(rec.steps))
			}
			pred, err := tc.m.Predict(tc.d.X)
			if err != nil {
				t.Fatal(err)
			}
			rss, sw := 0.0, 0.0
			for i, v := range tc.d.Y {
				wi := 1.0
				if tc.d.Weights != nil {
					wi = tc.d.Weights[i]
				}
				rss += wi * (v - pred[i]) * (v - pred[i])
				sw += wi
			}
			alpha := tc.m.Alpha
			if alpha == 0 {
				alpha = 1
			}
			obj := rss
			for _, c := range coef {
				obj += alpha * c * c
			}
			s := rec.steps[0]
			if math.Abs(s.TrainLoss-rss/sw) > 1e-9*rss/sw || math.Abs(s.Detail.(RidgeFit).Objective-obj) > 1e-9*obj {
				t.Errorf("TrainLoss %v objective %v, want %v and %v", s.TrainLoss, s.Detail.(RidgeFit).Objective, rss/sw, obj)
			}
		})
	}
}

// Two copies of one feature x with a tiny α: Cholesky gives up on XᵀX + αI
// and the SVD solves it. Minimising ‖y − x(w₁+w₂)‖² + α(w₁²+w₂²) gives
// w₁ = w₂ = v/2 with v = xᵀy / (xᵀx + α/2) on centred x and y.
func TestRidgeSVDFallback(t *testing.T) {
	d := lsqDiabetes(t)
	n := d.Rows()
	X := mat.NewDense(n, 2, nil)
	mean, ymean := 0.0, 0.0
	for i := 0; i < n; i++ {
		X.Set(i, 0, d.X.At(i, 2))
		X.Set(i, 1, d.X.At(i, 2))
		mean += d.X.At(i, 2)
		ymean += d.Y[i]
	}
	mean /= float64(n)
	ymean /= float64(n)
	xx, xy := 0.0, 0.0
	for i := 0; i < n; i++ {
		xc := d.X.At(i, 2) - mean
		xx += xc * xc
		xy += xc * (d.Y[i] - ymean)
	}
	const alpha = 1e-9
	v := xy / (xx + alpha/2)
	m := &Ridge{Alpha: alpha}
	if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: d.Y}, nil); err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings()) == 0 {
		t.Error("no warning about the SVD fall-back")
	}
	coef, icept := lsqCoefOf(t, m)
	lsqClose(t, "coef", coef, []float64{v / 2, v / 2}, 1e-9)
	lsqClose(t, "intercept", []float64{icept}, []float64{ymean - v*mean}, 1e-9)
}

// 10-fold CV R² matches cross_val_score(make_pipeline(StandardScaler(),
// Ridge(alpha=1.0)), X, y, cv=KFold(10)) fold by fold (mean 0.4625434465905266).
func TestRidgeCV(t *testing.T) {
	got := lsqCV(t, lsqDiabetes(t), 10, true, func() engine.Predictor { return &Ridge{Alpha: 1} })
	lsqClose(t, "CV R²", got, []float64{0.5526024931845714, 0.2366061306483075, 0.3599234249051959, 0.6186341089655132, 0.2681594586420456, 0.6204858847331569, 0.42149774575749865, 0.4308706211461589, 0.4324465744699063, 0.6842080234529114}, 1e-9)
}

func TestRidgeBadInput(t *testing.T) {
	lsqBadInputs(t, func() engine.Predictor { return &Ridge{Alpha: 1} })
	spec, _, m, err := engine.New("ridge", map[string]string{"alpha": "0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if r := m.(*Ridge); r.Alpha != 0.5 || !spec.Standardize {
		t.Errorf("spec %+v model %+v", spec, r)
	}
}

// BenchmarkRidge100kx50 is the bench case ridge, alpha = 1 (scikit-learn's
// Ridge: 38 ms on 80k x 50 on this machine).
func BenchmarkRidge100kx50(b *testing.B) {
	d := lsqBenchData(100_000, 50, 30, 5)
	for b.Loop() {
		if err := engine.Fit(context.Background(), (&Ridge{Alpha: 1}), d, nil); err != nil {
			b.Fatal(err)
		}
	}
}
