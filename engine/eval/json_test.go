package eval

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

func TestJSON(t *testing.T) {
	res := run(t, blobs(60, 3, 1), "evalfake", map[string]string{"steps": "150"}, Options{Folds: 3, Seed: 1})
	res.Metrics["kappa"] = math.NaN()
	res.Std["mcc"] = math.Inf(1)
	res.Folds[0]["auc"] = math.NaN()
	res.ROC[0].AUC = math.NaN()
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"task", "model", "params", "evaluation", "metrics", "std", "folds", "baseline", "confusion", "per_class", "roc", "pr_curve", "calibration", "lift", "fold_curves", "history", "fit_seconds", "seed", "rows", "features", "dataset"} {
		if _, ok := out[key]; !ok {
			t.Errorf("no %q in %s", key, b[:200])
		}
	}
	m := out["metrics"].(map[string]any)
	if m["kappa"] != nil || m["accuracy"] == nil {
		t.Errorf("metrics %v", m)
	}
	h := out["history"].([]any)
	if p := h[120].(map[string]any); p["val_loss"] != nil || p["step"].(float64) != 121 || p["train_loss"] == nil {
		t.Errorf("history[120] = %v, want val_loss null", p)
	}
	if p := out["params"].(map[string]any); p["steps"].(float64) != 150 {
		t.Errorf("params %v", p)
	}
	// A result that never got going still marshals.
	if _, err := json.Marshal(&Result{}); err != nil {
		t.Error(err)
	}
}

// TestJSONFields: Result.MarshalJSON writes every field of its head and
// tail under its JSON name, and what the model learned under each
// capability's name, and nothing else.
func TestJSONFields(t *testing.T) {
	r := Result{
		Std: map[string]float64{"a": 1}, Folds: []map[string]float64{{"a": 1}}, FoldHistories: [][]Point{{}},
		Confusion: &metrics.Confusion{}, Classes: []metrics.ClassReport{{}}, ROC: []metrics.ROC{{}},
		Positive: "yes", Threshold: new(0.25), Costs: &metrics.Costs{Classes: []string{"no", "yes"}, Cost: [][]float64{{0, 1}, {10, 0}}}, PR: []metrics.PR{{}}, Calibration: []metrics.Calibration{{}}, Lift: []metrics.Lift{{}}, FoldCurves: []metrics.Curves{{}}, Cancelled: true, StoppedEarly: "3 of 5 epochs",
		Parts: []Part{{Fold: 1, Rows: []int{3, 3}}}, FittedOn: "all rows", Warnings: []advice.Warning{{Text: "w"}}, WarningFolds: []int{2}, Learned: map[string]any{"coefficients": &engine.Coefficients{Weights: mat.NewDense(1, 1, []float64{2})}},
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[resultHead](), reflect.TypeFor[resultTail]()} {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if _, ok := out[name]; !ok {
				t.Errorf("field %s (%q) is not written by MarshalJSON: %s", typ.Field(i).Name, name, b)
			}
			delete(out, name)
		}
	}
	if _, ok := out["coefficients"]; !ok {
		t.Errorf("what the model learned is not written: %s", b)
	}
	delete(out, "coefficients")
	if len(out) > 0 {
		t.Errorf("MarshalJSON writes keys it does not declare: %v", out)
	}
}

// TestJSONRoundTrip: a result read back from its JSON writes the same JSON:
// NaN stays NaN, parameters keep their types, what the model learned is
// decoded by its capability.
func TestJSONRoundTrip(t *testing.T) {
	res := run(t, blobs(60, 3, 1), "evalfake", map[string]string{"steps": "12"}, Options{Folds: 3, Seed: 1})
	res.Metrics["kappa"] = math.NaN()
	res.Warnings = append(res.Warnings, advice.Warning{Text: "a warning"})
	res.Learned["linkage"] = &engine.Linkage{Merges: []engine.Merge{{A: 0, B: 1, Height: 0.5, Size: 2}, {A: 2, B: 3, Height: 1.25, Size: 3}}, Leaves: 3}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", b, b2)
	}
	if !math.IsNaN(back.Metrics["kappa"]) || back.Metrics["accuracy"] != res.Metrics["accuracy"] {
		t.Errorf("metrics %v, want kappa NaN and accuracy %v", back.Metrics, res.Metrics["accuracy"])
	}
	if got := back.Params.Ints("layers"); len(got) != 2 || got[0] != 4 || got[1] != 2 {
		t.Errorf("params %v: layers is not the list [4 2]", back.Params)
	}
	if back.Params.Int("steps") != 12 {
		t.Errorf("params %v: steps is not the int 12", back.Params)
	}
	if l, ok := back.Learned["linkage"].(*engine.Linkage); !ok || len(l.Merges) != 2 || l.Merges[1].Height != 1.25 {
		t.Errorf("linkage read back as %#v", back.Learned["linkage"])
	}
	if back.ScoredRows() != 60 || len(back.Actual) != 0 { // every row held out once over the folds
		t.Errorf("read back: %d rows scored, %d actual values; want 60 and none", back.ScoredRows(), len(back.Actual))
	}
	if len(back.FoldHistories) != 3 || len(back.FoldHistories[2]) != 12 {
		t.Errorf("fold histories %d", len(back.FoldHistories))
	}
}
