package metrics

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Every reference value below was computed with scikit-learn 1.2.1 (Debian) by
// testdata/refs.py (re-run it with /usr/bin/python3 from this directory).

const tol = 1e-12

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b || math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) // a == b: infinities
}

func nearAll(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if !near(got[i], want[i]) {
			t.Errorf("%s[%d] = %v, want %v (got %v)", what, i, got[i], want[i], got)
			return
		}
	}
}

func TestClassification(t *testing.T) {
	tests := []struct {
		name            string
		actual, pred    []float64
		k               int
		acc             float64
		conf            [][]int
		prec, rec, f1   []float64
		support         []int
		macro, weighted []float64 // precision, recall, F1
		kappa, mcc      float64
	}{
		{
			// class 2 is never predicted: its precision is 0/0 -> 0.
			name:   "absent_pred",
			actual: []float64{0, 0, 1, 1, 2, 2, 2, 0, 1, 2}, pred: []float64{0, 1, 1, 1, 0, 0, 1, 0, 1, 0}, k: 3,
			acc:      0.5,
			conf:     [][]int{{2, 1, 0}, {0, 3, 0}, {3, 1, 0}},
			prec:     []float64{0.4, 0.6, 0.0},
			rec:      []float64{0.6666666666666666, 1.0, 0.0},
			f1:       []float64{0.5, 0.7499999999999999, 0.0},
			support:  []int{3, 3, 4},
			macro:    []float64{0.3333333333333333, 0.5555555555555555, 0.4166666666666667},
			weighted: []float64{0.3, 0.5, 0.37499999999999994},
			kappa:    0.2857142857142857, mcc: 0.3481553119113957,
		},
		{
			name:   "binary",
			actual: []float64{0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0}, pred: []float64{0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1}, k: 2,
			acc:      0.6666666666666666,
			conf:     [][]int{{3, 2}, {2, 5}},
			prec:     []float64{0.6, 0.7142857142857143},
			rec:      []float64{0.6, 0.7142857142857143},
			f1:       []float64{0.6, 0.7142857142857143},
			support:  []int{5, 7},
			macro:    []float64{0.6571428571428571, 0.6571428571428571, 0.6571428571428571},
			weighted: []float64{0.6666666666666666, 0.6666666666666666, 0.6666666666666666},
			kappa:    0.3142857142857143, mcc: 0.3142857142857143,
		},
		{
			// label 3 occurs on neither side: sklearn leaves it out of the macro mean.
			name:   "unused_label",
			actual: []float64{0, 1, 2, 2, 1, 0, 0, 2}, pred: []float64{0, 2, 2, 2, 1, 1, 0, 0}, k: 4,
			acc:      0.625,
			conf:     [][]int{{2, 1, 0, 0}, {0, 1, 1, 0}, {1, 0, 2, 0}, {0, 0, 0, 0}},
			prec:     []float64{0.6666666666666666, 0.5, 0.6666666666666666, 0.0},
			rec:      []float64{0.6666666666666666, 0.5, 0.6666666666666666, 0.0},
			f1:       []float64{0.6666666666666666, 0.5, 0.6666666666666666, 0.0},
			support:  []int{3, 2, 3, 0},
			macro:    []float64{0.611111111111111, 0.611111111111111, 0.611111111111111},
			weighted: []float64{0.625, 0.625, 0.625},
			kappa:    0.4285714285714286, mcc: 0.42857142857142855,
		},
		{
			// constant predictions: kappa 0 and MCC 0 (sklearn).
			name:   "constant_pred",
			actual: []float64{0, 1, 1, 2}, pred: []float64{1, 1, 1, 1}, k: 3,
			acc:      0.5,
			conf:     [][]int{{0, 1, 0}, {0, 2, 0}, {0, 1, 0}},
			prec:     []float64{0, 0.5, 0},
			rec:      []float64{0, 1, 0},
			f1:       []float64{0, 2.0 / 3, 0},
			support:  []int{1, 2, 1},
			macro:    []float64{0.5 / 3, 1.0 / 3, 2.0 / 9},
			weighted: []float64{0.25, 0.5, 1.0 / 3},
			kappa:    0, mcc: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			labels := make([]string, tc.k)
			for i := range labels {
				labels[i] = strconv.Itoa(i)
			}
			if got := Accuracy(tc.actual, tc.pred); !near(got, tc.acc) {
				t.Errorf("Accuracy = %v, want %v", got, tc.acc)
			}
			c := ConfusionMatrix(tc.actual, tc.pred, labels)
			for i := range tc.conf {
				for j := range tc.conf[i] {
					if c.Matrix[i][j] != tc.conf[i][j] {
						t.Fatalf("confusion = %v, want %v", c.Matrix, tc.conf)
					}
				}
			}
			if c.Total() != len(tc.actual) {
				t.Errorf("Total = %d", c.Total())
			}
			rep := Report(c)
			var p, r, f []float64
			for i, cr := range rep {
				p, r, f = append(p, cr.Precision), append(r, cr.Recall), append(f, cr.F1)
				if cr.Support != tc.support[i] || cr.Class != labels[i] {
					t.Errorf("class %d: %+v, want support %d", i, cr, tc.support[i])
				}
			}
			nearAll(t, "precision", p, tc.prec)
			nearAll(t, "recall", r, tc.rec)
			nearAll(t, "f1", f, tc.f1)
			macro, weighted := Averages(c)
			nearAll(t, "macro", []float64{macro.Precision, macro.Recall, macro.F1}, tc.macro)
			nearAll(t, "weighted", []float64{weighted.Precision, weighted.Recall, weighted.F1}, tc.weighted)
			if got := CohenKappa(c); !near(got, tc.kappa) {
				t.Errorf("CohenKappa = %v, want %v", got, tc.kappa)
			}
			if got := MCC(c); !near(got, tc.mcc) {
				t.Errorf("MCC = %v, want %v", got, tc.mcc)
			}
		})
	}
}

func TestDegenerate(t *testing.T) {
	// One class on both sides: chance agreement is perfect, kappa is 0/0.
	c := ConfusionMatrix([]float64{1, 1}, []float64{1, 1}, []string{"a", "b"})
	if k := CohenKappa(c); !math.IsNaN(k) {
		t.Errorf("kappa = %v, want NaN", k)
	}
	if m := MCC(c); m != 0 {
		t.Errorf("MCC = %v, want 0", m)
	}
	if a := Accuracy(nil, nil); !math.IsNaN(a) {
		t.Errorf("Accuracy of nothing = %v, want NaN", a)
	}
	if err := CheckCodes([]float64{0, 1, 2}, 3); err != nil {
		t.Error(err)
	}
	for _, bad := range []float64{3, -1, 0.5, math.NaN(), math.Inf(1)} {
		err := CheckCodes([]float64{0, bad}, 3)
		if err == nil || !strings.Contains(err.Error(), "row 2") {
			t.Errorf("CheckCodes(%v) = %v, want an error naming row 2", bad, err)
		}
	}
}

func TestLogLoss(t *testing.T) {
	// Row 4 gives its true class probability 0: clipped to 1e-15.
	y := []float64{0, 2, 1, 1, 0}
	P := mat.NewDense(5, 3, []float64{0.7, 0.2, 0.1, 0.1, 0.1, 0.8, 0.3, 0.4, 0.3, 1.0, 0.0, 0.0, 0.5, 0.25, 0.25})
	if got, want := LogLoss(y, P), 7.345606560519546; !near(got, want) {
		t.Errorf("LogLoss = %v, want %v", got, want)
	}
}

func TestCurve(t *testing.T) {
	tests := []struct {
		name         string
		y            []bool
		s            []float64
		fpr, tpr, th []float64 // th without the leading +Inf
		auc          float64
	}{
		{
			name: "ties",
			y:    []bool{false, false, true, true, true, false, true, false, true, false},
			s:    []float64{0.1, 0.4, 0.35, 0.8, 0.4, 0.4, 0.9, 0.2, 0.1, 0.7},
			fpr:  []float64{0.0, 0.0, 0.0, 0.2, 0.6, 0.6, 0.8, 1.0},
			tpr:  []float64{0.0, 0.2, 0.4, 0.4, 0.6, 0.8, 0.8, 1.0},
			th:   []float64{0.9, 0.8, 0.7, 0.4, 0.35, 0.2, 0.1},
			auc:  0.62,
		},
		{
			name: "collinear points dropped",
			y:    []bool{false, false, false, true, true, true},
			s:    []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6},
			fpr:  []float64{0.0, 0.0, 0.0, 1.0},
			tpr:  []float64{0.0, 0.3333333333333333, 1.0, 1.0},
			th:   []float64{0.6, 0.4, 0.1},
			auc:  1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fpr, tpr, th := Curve(tc.y, tc.s)
			nearAll(t, "fpr", fpr, tc.fpr)
			nearAll(t, "tpr", tpr, tc.tpr)
			if !math.IsInf(th[0], 1) {
				t.Errorf("threshold[0] = %v, want +Inf", th[0])
			}
			nearAll(t, "thresholds", th[1:], tc.th)
			if got := AUC(fpr, tpr); !near(got, tc.auc) {
				t.Errorf("AUC = %v, want %v", got, tc.auc)
			}
		})
	}
	// No positives: TPR is undefined, and so is the AUC.
	fpr, tpr, _ := Curve([]bool{false, false}, []float64{0.2, 0.1})
	if !math.IsNaN(tpr[1]) || math.IsNaN(fpr[1]) || !math.IsNaN(AUC(fpr, tpr)) {
		t.Errorf("no positives: fpr %v tpr %v", fpr, tpr)
	}
	// NaN scores rank below every other score, -Inf included, and tie with
	// each other: they make the curve's last point, threshold NaN. (No
	// scikit-learn reference: roc_curve rejects NaN. Worked by hand: sorted
	// descending the rows are 0.3 (neg), -Inf (neg), NaN, NaN (pos, pos).)
	fpr, tpr, th := Curve([]bool{true, false, true, false}, []float64{math.NaN(), 0.3, math.NaN(), math.Inf(-1)})
	nearAll(t, "NaN scores: fpr", fpr, []float64{0, 0.5, 1, 1})
	nearAll(t, "NaN scores: tpr", tpr, []float64{0, 0, 0, 1})
	nearAll(t, "NaN scores: thresholds", th[1:], []float64{0.3, math.Inf(-1), math.NaN()})
	if got := AUC(fpr, tpr); got != 0 {
		t.Errorf("NaN scores: AUC = %v, want 0 (every positive ranked last)", got)
	}
	// The same in any input order, and like the lowest finite score.
	fpr2, tpr2, _ := Curve([]bool{false, true, false, true}, []float64{math.Inf(-1), math.NaN(), 0.3, math.NaN()})
	nearAll(t, "NaN scores reordered: fpr", fpr2, fpr)
	nearAll(t, "NaN scores reordered: tpr", tpr2, tpr)
	fpr3, tpr3, _ := Curve([]bool{true, false, true}, []float64{math.NaN(), 0.3, math.NaN()})
	fpr4, tpr4, _ := Curve([]bool{true, false, true}, []float64{-math.MaxFloat64, 0.3, -math.MaxFloat64})
	nearAll(t, "NaN as lowest: fpr", fpr3, fpr4)
	nearAll(t, "NaN as lowest: tpr", tpr3, tpr4)
}

func TestROCs(t *testing.T) {
	y := []float64{0, 1, 2, 2, 1, 0, 1, 2, 0, 1}
	P := mat.NewDense(10, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.3, 0.6, 0.3, 0.3, 0.4, 0.4, 0.4, 0.2,
		0.5, 0.2, 0.3, 0.3, 0.6, 0.1, 0.2, 0.2, 0.6, 0.3, 0.4, 0.3, 0.1, 0.8, 0.1})
	rocs := ROCs(y, P, []string{"a", "b", "c"}, 1)
	if len(rocs) != 3 {
		t.Fatalf("%d curves, want 3", len(rocs))
	}
	want := []float64{0.9047619047619047, 0.9791666666666666, 1.0}
	for i, r := range rocs {
		if !near(r.AUC, want[i]) || r.Class != []string{"a", "b", "c"}[i] {
			t.Errorf("curve %d: class %s AUC %v, want %v", i, r.Class, r.AUC, want[i])
		}
	}
	if got, want := MacroAUC(rocs), 0.9613095238095237; !near(got, want) {
		t.Errorf("MacroAUC = %v, want %v", got, want)
	}

	// Binary: one curve, of class 1, from column 1 or from a single column.
	yb := []float64{0, 0, 1, 1}
	two := mat.NewDense(4, 2, []float64{0.9, 0.1, 0.6, 0.4, 0.65, 0.35, 0.2, 0.8})
	one := mat.NewDense(4, 1, []float64{0.1, 0.4, 0.35, 0.8})
	for _, s := range []*mat.Dense{two, one} {
		r := ROCs(yb, s, []string{"neg", "pos"}, 1)
		if len(r) != 1 || r[0].Class != "pos" || !near(r[0].AUC, 0.75) {
			t.Errorf("binary ROCs = %+v, want one curve of pos with AUC 0.75", r)
		}
	}
	// A class absent from the rows has no curve area; the macro mean skips it.
	r := ROCs([]float64{0, 1, 0, 1}, mat.NewDense(4, 3, []float64{.8, .1, .1, .2, .7, .1, .6, .3, .1, .3, .6, .1}), []string{"a", "b", "c"}, 1)
	if !math.IsNaN(r[2].AUC) || !near(MacroAUC(r), 1) {
		t.Errorf("absent class: AUCs %v %v %v macro %v", r[0].AUC, r[1].AUC, r[2].AUC, MacroAUC(r))
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("marshalling NaN curves: %v", err)
	}
}

func TestRegression(t *testing.T) {
	a := []float64{3.0, -0.5, 2.0, 7.0, 4.2}
	p := []float64{2.5, 0.0, 2.0, 8.0, 3.9}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"MSE", MSE(a, p), 0.318},
		{"RMSE", RMSE(a, p), math.Sqrt(0.318)},
		{"MAE", MAE(a, p), 0.4600000000000001},
		{"R2", R2(a, p), 0.9480256276150627},
		{"R2 constant miss", R2([]float64{2, 2, 2}, []float64{2, 2, 3}), 0},
		{"R2 constant hit", R2([]float64{2, 2, 2}, []float64{2, 2, 2}), 1},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestAdjustedRand(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{0, 0, 1, 1, 2, 2}, []float64{1, 1, 0, 0, 2, 2}, 1},
		{[]float64{0, 0, 0, 1, 1, 1, 2, 2, 2, 2}, []float64{0, 0, 1, 1, 2, 2, 2, 2, 0, 1}, -0.022727272727272728},
		{[]float64{0, 0, 1, 1}, []float64{0, 1, 0, 1}, -0.5},
		{[]float64{5, 5, 5, 5}, []float64{1, 2, 3, 4}, 0},
	} {
		if got := AdjustedRand(c.a, c.b); !near(got, c.want) {
			t.Errorf("AdjustedRand(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := AdjustedRand(c.b, c.a); !near(got, c.want) {
			t.Errorf("AdjustedRand is not symmetric: %v", got)
		}
	}
}

func TestSilhouette(t *testing.T) {
	X := mat.NewDense(8, 2, []float64{0, 0, 0, 1, 1, 0, 5, 5, 5, 6, 6, 5, 6, 6, 10, 0})
	got, err := Silhouette(X, []float64{0, 0, 0, 1, 1, 1, 1, 2})
	if err != nil || !near(got, 0.7338680173886367) {
		t.Errorf("Silhouette = %v, %v; want 0.7338680173886367", got, err)
	}
	// 40 random rows, 4 random labels (testdata/sil40.csv, from refs.py).
	f, err := os.Open("testdata/sil40.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	X = mat.NewDense(len(recs), 3, nil)
	lab := make([]float64, len(recs))
	for i, rec := range recs {
		for j, s := range rec {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if j < 3 {
				X.Set(i, j, v)
			} else {
				lab[i] = v
			}
		}
	}
	got, err = Silhouette(X, lab)
	if err != nil || !near(got, -0.10222371410895548) {
		t.Errorf("Silhouette(sil40) = %v, %v; want -0.10222371410895548", got, err)
	}
	if _, err := Silhouette(X, make([]float64, 40)); err == nil {
		t.Error("one cluster: want an error")
	}
	if got := NeighbourAccuracy(X, lab); !near(got, 0.175) {
		t.Errorf("NeighbourAccuracy(sil40) = %v, want 0.175 (LeaveOneOut 1-NN)", got)
	}
}

// An unlabelled row is neither scored nor anyone's neighbour; the first of
// equally near rows is the neighbour.
func TestNeighbourAccuracyRules(t *testing.T) {
	X := mat.NewDense(5, 1, []float64{0, 1, 1.1, 5, 3})
	// Row 4 (at 3, unlabelled) would be row 3's nearest. Row 0's nearest
	// is row 1 (class 0: right); row 1's is row 2 (class 1: wrong), row
	// 2's is row 1 (wrong), row 3's is row 2 (right).
	if got := NeighbourAccuracy(X, []float64{0, 0, 1, 1, math.NaN()}); got != 0.5 {
		t.Errorf("got %v, want 0.5", got)
	}
	tie := mat.NewDense(3, 1, []float64{0, -1, 1})
	// Row 0 takes row 1 (right), the first of two at distance 1; row 1
	// takes row 0 (right); row 2 takes row 0 (wrong).
	if got := NeighbourAccuracy(tie, []float64{0, 0, 1}); !near(got, 2.0/3) {
		t.Errorf("tie: got %v, want 2/3", got)
	}
	if got := NeighbourAccuracy(X, []float64{0, math.NaN(), math.NaN(), math.NaN(), math.NaN()}); !math.IsNaN(got) {
		t.Errorf("one labelled row: got %v, want NaN", got)
	}
	// Squared distances of values near 1e160 overflow: every row is then
	// as far as any other, and the first other row is the neighbour: rows
	// 0 and 1 right, row 2 wrong (it panicked).
	huge := mat.NewDense(3, 1, []float64{0, 1e160, 3e160})
	if got := NeighbourAccuracy(huge, []float64{1, 1, 0}); !near(got, 2.0/3) {
		t.Errorf("overflowing distances: got %v, want 2/3", got)
	}
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal(ClassReport{Class: "x", Precision: math.NaN(), Recall: 0.5, F1: math.Inf(1), Support: 2})
	if err != nil || string(b) != `{"class":"x","precision":null,"recall":0.5,"f1":null,"support":2}` {
		t.Errorf("got %s, %v", b, err)
	}
}

// BenchmarkSilhouette measures the O(n²d) loop (eval samples 5000 rows).
func BenchmarkSilhouette(b *testing.B) {
	const n, d = 2000, 10
	X := mat.NewDense(n, d, nil)
	lab := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, math.Sin(float64(i*d+j)))
		}
		lab[i] = float64(i % 5)
	}
	for b.Loop() {
		if _, err := Silhouette(X, lab); err != nil {
			b.Fatal(err)
		}
	}
}

// Reference values from scikit-learn 1.2.1,
// sklearn.metrics.normalized_mutual_info_score(a, b).
func TestNMI(t *testing.T) {
	cases := []struct {
		a, b []float64
		want float64
	}{
		{[]float64{0, 0, 1, 1, 2, 2}, []float64{0, 0, 1, 1, 1, 1}, 0.7336804366512113},
		{[]float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 0, 0, 2, 2}, 0.5158037429793888},
		{[]float64{0, 1, 0, 1}, []float64{0, 0, 1, 1}, 0},
		{[]float64{0, 0, 0}, []float64{1, 1, 1}, 1},
		{[]float64{0, 0, 1}, []float64{0, 1, 2}, 0.7336804366512112},
		{[]float64{5, 5, 7, 7}, []float64{1, 1, 0, 0}, 1},
	}
	for _, c := range cases {
		if got := NMI(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("NMI(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
