package runs

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
)

func sameMetrics(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || (v != w && !(math.IsNaN(v) && math.IsNaN(w))) {
			return false
		}
	}
	return true
}

// A saved run loads back with identical typed parameters, metrics,
// histories and what the model learned.
func TestSaveLoadRoundTrip(t *testing.T) {
	data := Data{Source: "iris", Drop: []string{"sepal_width_cm"}}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := engine.Lookup("logistic")
	if err != nil {
		t.Fatal(err)
	}
	off := false
	v, err := spec.Parse(map[string]string{"C": "0.5", "max_iter": " 50"})
	if err != nil {
		t.Fatal(err)
	}
	r := New(7, data, d, spec, v, eval.Options{Folds: 3, Seed: 4, Split: eval.DefaultOptions().Split, Reduce: 2, Standardize: &off})
	if err := r.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := Save(path, r); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Params, r.Params) || !reflect.DeepEqual(back.Result.Params, r.Result.Params) {
		t.Errorf("params %v, want %v", back.Params, r.Params)
	}
	if back.Params.Int("max_iter") != 50 || back.Params.Float("C") != 0.5 {
		t.Errorf("max_iter read back as %T, C as %v", back.Params["max_iter"], back.Params["C"])
	}
	if !sameMetrics(back.Result.Metrics, r.Result.Metrics) || !sameMetrics(back.Result.Std, r.Result.Std) || !sameMetrics(back.Result.Baseline, r.Result.Baseline) {
		t.Errorf("metrics\n%v\nwant\n%v", back.Result.Metrics, r.Result.Metrics)
	}
	if back.Data.Source != "iris" || !reflect.DeepEqual(back.Data.Drop, data.Drop) || back.Options.Folds != 3 || back.Options.Seed != 4 || back.Status != Done ||
		back.Options.Reduce != 2 || back.Options.Standardize == nil || *back.Options.Standardize {
		t.Errorf("recipe %+v %+v %s", back.Data, back.Options, back.Status)
	}
	a, _ := json.Marshal(r.Result.Learned["coefficients"])
	b, _ := json.Marshal(back.Result.Learned["coefficients"])
	if string(a) != string(b) || len(back.Result.FoldHistories) != 3 {
		t.Errorf("learned or histories lost: %s vs %s", a, b)
	}
	// The same record opens its data again and reruns to the same scores.
	d2, err := back.Data.Open()
	if err != nil {
		t.Fatal(err)
	}
	back.Dataset = d2
	if err := back.Run(context.Background(), nil); err != nil || !sameMetrics(back.Result.Metrics, r.Result.Metrics) {
		t.Errorf("rerun: %v, metrics %v", err, back.Result.Metrics)
	}
	want := "tealab train --data iris --drop sepal_width_cm --model logistic --param C=0.5 --param max_iter=50 --cv 3 --seed 4 --scale none --reduce 2"
	if got := r.Command(); got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
	// Row names read as a feature are asked for again.
	r.Data.RowNames = RowNamesNo
	if got := r.Command(); !strings.Contains(got, " --row-names no ") {
		t.Errorf("command %s: lost --row-names no", got)
	}
}

// A file that cannot be written leaves the old one as it was.
func TestWriteFileKeepsOldOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// The target is a directory now: the rename fails after the write.
	bad := filepath.Join(dir, "sub")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(bad, []byte("new")); err == nil {
		t.Error("renaming over a non-empty directory succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("old file now %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file now %q, want new", b)
	}
}

// A cancelled run's result is labelled with the folds it scored, in its
// JSON too; a finished run has no label.
func TestPartialLabel(t *testing.T) {
	spec, err := engine.Lookup("lda")
	if err != nil {
		t.Fatal(err)
	}
	four := make([]map[string]float64, 4)
	scored := map[string]float64{"accuracy": 0.9}
	cases := []struct {
		opt  eval.Options
		res  *eval.Result
		want string
	}{
		{eval.Options{Folds: 10}, &eval.Result{Task: "classification", Folds: four, Metrics: scored}, "interrupted after 4 of 10 folds"},
		{eval.Options{Folds: 10}, &eval.Result{Task: "classification", Metrics: map[string]float64{}}, "interrupted before any of the 10 folds finished: no scores"},
		{eval.Options{LOO: true}, &eval.Result{Task: "classification", Rows: 150, Actual: make([]float64, 37), Metrics: scored}, "interrupted after 37 of 150 folds"},
		{eval.DefaultOptions(), &eval.Result{Task: "classification", Metrics: map[string]float64{}}, "interrupted before the fit finished: no scores"},
		{eval.Options{Folds: 10}, nil, "interrupted before any of the 10 folds finished: no scores"},
		{eval.DefaultOptions(), &eval.Result{Task: "classification", Metrics: scored, StoppedEarly: "37 of 300 trees"},
			"interrupted during the fit: stopped early after 37 of 300 trees, scored as the model it had"},
		{eval.Options{Folds: 10}, &eval.Result{Task: "classification", Folds: four[:1], Metrics: scored, StoppedEarly: "37 of 300 trees"},
			"interrupted in fold 1 of 10: stopped early after 37 of 300 trees, scored as the model it had"},
	}
	for _, c := range cases {
		r := &Record{Model: "lda", Spec: spec, Options: c.opt, Status: Cancelled, Result: c.res}
		if got := r.Partial(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.opt, got, c.want)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back struct{ Status, Partial string }
		if err := json.Unmarshal(b, &back); err != nil || back.Status != "cancelled" || back.Partial != c.want {
			t.Errorf("%+v: JSON status %q, partial %q (%v)", c.opt, back.Status, back.Partial, err)
		}
	}
	done := &Record{Model: "lda", Spec: spec, Options: eval.Options{Folds: 10}, Status: Done,
		Result: &eval.Result{Task: "classification", Folds: four, Metrics: scored}}
	if got := done.Partial(); got != "" {
		t.Errorf("a finished run is labelled %q", got)
	}
}

// A run's pipeline is in its recipe and its command, and replays to the
// same scores.
func TestRecipeKeepsThePipeline(t *testing.T) {
	data := Data{Source: "iris"}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := engine.Lookup("knn")
	pl := eval.Pipeline{Impute: eval.ImputeConstant, Fill: -2, Indicator: true, Scale: eval.ScaleRobust,
		Discretize: eval.DiscretizeMDL, Encode: eval.EncodeOrdinal, Lift: 2}
	r := New(1, data, d, spec, spec.Defaults(), eval.Options{Folds: 3, Seed: 2, Split: eval.DefaultOptions().Split, Pipeline: pl})
	if err := r.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Options.Pipeline != pl {
		t.Errorf("pipeline read back %+v, want %+v", back.Options.Pipeline, pl)
	}
	want := "--cv 3 --seed 2 --impute constant --impute-value -2 --missing-indicator yes --scale robust --discretize mdl --encode ordinal --lift 2"
	if got := r.Command(); !strings.HasSuffix(got, want) {
		t.Errorf("command %s, want it to end %s", got, want)
	}
	again, _, err := back.Again(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Run(context.Background(), nil); err != nil || !sameMetrics(again.Result.Metrics, r.Result.Metrics) {
		t.Errorf("replay: %v, metrics %v, want %v", err, again.Result.Metrics, r.Result.Metrics)
	}
	if !strings.Contains(r.Result.Eval, "cut by MDL") || !strings.Contains(r.Result.Eval, "robustly scaled") {
		t.Errorf("evaluation %q does not say the pipeline", r.Result.Eval)
	}
}
