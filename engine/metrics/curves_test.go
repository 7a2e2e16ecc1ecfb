package metrics

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bcLogistic reads the held-out rows of tealab train --data breast_cancer
// --model logistic --positive malignant (testdata/curves.py): the classes
// (malignant 0, benign 1) and the probabilities of both.
func bcLogistic(t *testing.T) ([]float64, *mat.Dense) {
	t.Helper()
	f, err := os.Open("testdata/breast_cancer_logistic.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := rows[0]; h[2] != "actual" || h[4] != "p(malignant)" || h[5] != "p(benign)" {
		t.Fatalf("header %q", h)
	}
	rows = rows[1:]
	y := make([]float64, len(rows))
	P := mat.NewDense(len(rows), 2, nil)
	for i, r := range rows {
		if r[2] == "benign" {
			y[i] = 1
		}
		for j := range 2 {
			v, err := strconv.ParseFloat(r[4+j], 64)
			if err != nil {
				t.Fatal(err)
			}
			P.Set(i, j, v)
		}
	}
	return y, P
}

// TestCurvesAgainstScikitLearn: average precision, the precision-recall
// curve, Brier, calibration in quantile bins, log-loss and ROC on
// tealab's own held-out probabilities, as scikit-learn 1.2.1 computes
// them (testdata/curves.py), to 1e-9.
func TestCurvesAgainstScikitLearn(t *testing.T) {
	y, P := bcLogistic(t)
	var ref struct {
		Rows          int
		AUC           float64   `json:"auc"`
		AP            float64   `json:"average_precision"`
		Brier         float64   `json:"brier"`
		LogLoss       float64   `json:"log_loss"`
		Recall        []float64 `json:"pr_recall"`
		Precision     []float64 `json:"pr_precision"`
		Edges         []float64 `json:"calibration_edges"`
		Counts        []int     `json:"calibration_counts"`
		Observed      []float64 `json:"calibration_observed"`
		MeanPredicted []float64 `json:"calibration_mean_predicted"`
		FPR           []float64 `json:"roc_fpr"`
		TPR           []float64 `json:"roc_tpr"`
	}
	b, err := os.ReadFile("testdata/curves_sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.Rows != len(y) {
		t.Fatalf("%d rows, the reference %d: rerun go generate", len(y), ref.Rows)
	}
	const tol = 1e-9
	worst := 0.0
	defer func() { t.Logf("largest difference from scikit-learn: %.3g", worst) }()
	near := func(what string, got, want float64) {
		t.Helper()
		worst = max(worst, math.Abs(got-want))
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.17g, scikit-learn %.17g", what, got, want)
		}
	}
	nearAll := func(what string, got, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %d points, scikit-learn %d", what, len(got), len(want))
			return
		}
		for i := range got {
			near(what+"["+strconv.Itoa(i)+"]", got[i], want[i])
		}
	}
	labels := []string{"malignant", "benign"}
	const malignant = 0
	c := CurvesOf(y, P, true, labels, malignant)
	if len(c.PR) != 1 || c.PR[0].Class != "malignant" || len(c.Calibration) != 1 || len(c.ROC) != 1 || len(c.Lift) != 1 {
		t.Fatalf("curves %+v", c)
	}
	near("average precision", c.PR[0].AP, ref.AP)
	near("AveragePrecision", AveragePrecision(c.PR), ref.AP)
	nearAll("recall", c.PR[0].Recall, ref.Recall)
	nearAll("precision", c.PR[0].Precision, ref.Precision)
	near("Brier", Brier(y, P, malignant), ref.Brier)
	near("log-loss", LogLoss(y, P), ref.LogLoss)
	near("AUC", c.ROC[0].AUC, ref.AUC)
	nearAll("ROC FPR", c.ROC[0].FPR[1:], ref.FPR[1:]) // scikit-learn 1.2 starts at threshold max+1
	nearAll("ROC TPR", c.ROC[0].TPR, ref.TPR)
	bins := c.Calibration[0].Bins
	var lo, hi, mean, obs []float64
	var counts []int
	for _, b := range bins {
		lo, hi = append(lo, b.Lo), append(hi, b.Hi)
		mean, obs = append(mean, b.MeanPredicted), append(obs, b.Observed)
		counts = append(counts, b.Count)
	}
	nearAll("calibration mean predicted", mean, ref.MeanPredicted)
	nearAll("calibration observed", obs, ref.Observed)
	if len(bins) != 10 || !equalInts(counts, ref.Counts) {
		t.Errorf("calibration counts %v, scikit-learn %v", counts, ref.Counts)
	}
	nearAll("calibration low edges", lo, ref.Edges[:len(ref.Edges)-1])
	nearAll("calibration high edges", hi, ref.Edges[1:])
	// The same curve from the other class's column, as two-class scores
	// of one column (class 1's minus class 0's) give it.
	diff := mat.NewDense(len(y), 1, nil)
	for i := range y {
		diff.Set(i, 0, P.At(i, 1)-P.At(i, 0))
	}
	if d := PRs(y, diff, labels, malignant); math.Abs(d[0].AP-ref.AP) > tol {
		t.Errorf("average precision from decision values %v, want %v", d[0].AP, ref.AP)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGainsAndMulticlassBrier: worked by hand. Four rows ranked
// positive, negative, positive, negative: a quarter of the rows finds
// half the positives, three quarters all of them; the deciles between
// are read off the straight segments. Brier over three classes is the
// squared distance to the one-hot row.
func TestGainsAndMulticlassBrier(t *testing.T) {
	l := Gains([]bool{true, false, true, false}, []float64{0.9, 0.8, 0.7, 0.1})
	want := []float64{0.2, 0.4, 0.5, 0.5, 0.5, 0.7, 0.9, 1, 1, 1}
	for i, w := range want {
		if math.Abs(l.Deciles[i]-w) > 1e-12 {
			t.Errorf("decile %d gain %v, want %v (curve %v, %v)", i+1, l.Deciles[i], w, l.Depth, l.Gain)
		}
	}
	if got := LiftAt(l.Deciles[1], 0.2); math.Abs(got-2) > 1e-12 {
		t.Errorf("lift at 20%% = %v, want 2", got)
	}
	P := mat.NewDense(2, 3, []float64{0.7, 0.2, 0.1, 0.2, 0.2, 0.6})
	if got := Brier([]float64{0, 1}, P, -1); math.Abs(got-(0.14+0.64+0.04+0.36)/2) > 1e-12 {
		t.Errorf("multiclass Brier %v", got)
	}
	// Ties: three rows on the median, the inner edge, which
	// belongs to the bin below.
	c := Calibrate([]bool{false, false, true, true}, []float64{0.2, 0.2, 0.2, 0.9}, 2)
	if len(c.Bins) != 2 || c.Bins[0].Count != 3 || math.Abs(c.Bins[0].Observed-1.0/3) > 1e-12 || c.Bins[1].Count != 1 {
		t.Errorf("calibration %+v", c.Bins)
	}
}

// The operating points are the precision-recall curve's, counted: at each
// point its precision and recall are TP/(TP+FP) and TP/(TP+FN).
func TestOperatingPointsCountThePRCurve(t *testing.T) {
	actual := []float64{1, 0, 1, 1, 0, 0, 1, 0}
	scores := mat.NewDense(8, 2, nil)
	for i, s := range []float64{0.9, 0.8, 0.7, 0.6, 0.55, 0.3, 0.2, 0.1} {
		scores.Set(i, 0, 1-s)
		scores.Set(i, 1, s)
	}
	pr := PRs(actual, scores, []string{"no", "yes"}, 1)[0]
	ops := OperatingPoints(actual, scores, 2, 1)
	if len(ops) != len(pr.Recall) {
		t.Fatalf("%d operating points for %d curve points", len(ops), len(pr.Recall))
	}
	for i, o := range ops {
		if o.TP+o.FN != 4 || o.FP+o.TN != 4 {
			t.Errorf("point %d: %+v does not count 4 positives and 4 negatives", i, o)
		}
		if i == 0 {
			continue
		}
		if r := float64(o.TP) / 4; r != pr.Recall[i] {
			t.Errorf("point %d: recall %v, the curve's %v", i, r, pr.Recall[i])
		}
		if p := float64(o.TP) / float64(o.TP+o.FP); p != pr.Precision[i] {
			t.Errorf("point %d: precision %v, the curve's %v", i, p, pr.Precision[i])
		}
	}
	if o := ops[3]; o.Threshold != 0.7 || o.TP != 2 || o.FP != 1 {
		t.Errorf("at 0.7: %+v, want 2 true and 1 false positives", o)
	}
	if OperatingPoints(actual, scores, 3, 1) != nil {
		t.Error("operating points for three classes")
	}
}

// The gains read off the ROC curves (CurvesOf, Lifts) are those Gains
// finds sorting each class's scores itself.
func TestGainsOffTheROCAreGains(t *testing.T) {
	actual := []float64{0, 2, 1, 1, 0, 2, 2, 1, 0, 0}
	scores := mat.NewDense(10, 3, nil)
	for i := range 10 {
		for c := range 3 {
			scores.Set(i, c, float64((i*7+c*3)%10)/10)
		}
	}
	labels := []string{"a", "b", "c"}
	got := CurvesOf(actual, scores, true, labels, 1).Lift
	if len(got) != 3 {
		t.Fatalf("%d gains curves for 3 classes", len(got))
	}
	for c, l := range got {
		pos, s := make([]bool, 10), make([]float64, 10)
		for i, a := range actual {
			pos[i], s[i] = int(a) == c, scores.At(i, c)
		}
		want := Gains(pos, s)
		want.Class = labels[c]
		if !reflect.DeepEqual(l, want) {
			t.Errorf("class %s: off the ROC %+v, Gains %+v", labels[c], l, want)
		}
	}
}
