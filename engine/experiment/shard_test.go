package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// sameCells says how two outcomes' cells differ: their folds' scores bit
// for bit, and their errors' text; "" when they agree.
func sameCells(a, b *Outcome) string {
	if len(a.Cells) != len(b.Cells) {
		return "a different number of cells"
	}
	for i := range a.Cells {
		x, y := a.Cells[i], b.Cells[i]
		if x.Dataset != y.Dataset || x.Model != y.Model || x.Repeat != y.Repeat || len(x.Folds) != len(y.Folds) ||
			errText(x.Err) != errText(y.Err) {
			return fmt.Sprintf("cell %d: %d folds, error %s; %d folds, error %s", i, len(x.Folds), errText(x.Err), len(y.Folds), errText(y.Err))
		}
		for f := range x.Folds {
			if len(x.Folds[f]) != len(y.Folds[f]) {
				return "fold metrics differ"
			}
			for k, v := range x.Folds[f] {
				w, ok := y.Folds[f][k]
				if !ok || math.Float64bits(v) != math.Float64bits(w) {
					return "score " + k + " differs"
				}
			}
		}
	}
	return ""
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Shards run apart, written, read back and merged give the outcome Run
// gives: every fold's score bit for bit, every failure's text (k-NN with
// k = 120 has too few training rows on iris's folds, not on diabetes').
func TestShardsMergeAsRun(t *testing.T) {
	t.Parallel()
	p := Plan{Datasets: []*datasets.Dataset{open(t, "iris"), open(t, "diabetes")},
		Models: models(t, "tree", "knn:k=3", "knn:k=120"), Folds: 3, Repeats: 2, Seed: 7, Baseline: 1, Jobs: 2}
	whole, err := Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := whole.Failures(); len(f) != 1 || !strings.Contains(f[0], "knn:k=120 on iris: fold 1 of 3: ") {
		t.Fatalf("failures %q, want k-NN's on iris, in fold 1", f)
	}
	cols := whole.Columns(nil)
	var want bytes.Buffer
	_ = whole.Table(cols).WriteText(&want)
	for _, n := range []int{1, 4, 100} { // 100: more shards than the 36 folds
		var parts []*Part
		var names []string
		for i := 1; i <= n; i++ {
			part, err := RunShard(context.Background(), p, Shard{i, n}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WritePart(&b, part); err != nil {
				t.Fatal(err)
			}
			back, err := ReadPart(&b)
			if err != nil {
				t.Fatal(err)
			}
			parts = append([]*Part{back}, parts...) // any order
			names = append([]string{Shard{i, n}.String()}, names...)
		}
		merged, err := Merge(parts, names)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if d := sameCells(whole, merged); d != "" {
			t.Errorf("%d shards: %s", n, d)
		}
		var got bytes.Buffer
		_ = merged.Table(merged.Columns(nil)).WriteText(&got)
		if got.String() != want.String() {
			t.Errorf("%d shards: table\n%s\nwant\n%s", n, &got, &want)
		}
		a, _ := json.Marshal(whole.Summarise(cols))
		b, _ := json.Marshal(merged.Summarise(merged.Columns(nil)))
		if !bytes.Equal(a, b) {
			t.Errorf("%d shards: summary\n%s\nwant\n%s", n, b, a)
		}
	}
}

// Every unit belongs to one shard, and the shards take turns.
func TestUnitsPartitionTheGrid(t *testing.T) {
	p := Plan{Datasets: make([]*datasets.Dataset, 2), Models: make([]Model, 3), Folds: 5, Repeats: 2}
	seen := map[Unit]int{}
	for i := 1; i <= 7; i++ {
		for _, u := range p.Units(Shard{i, 7}) {
			seen[u]++
		}
		if n := len(p.Units(Shard{i, 7})); n != 60/7 && n != 60/7+1 {
			t.Errorf("shard %d/7: %d units", i, n)
		}
	}
	if len(seen) != 60 {
		t.Errorf("%d units covered, want 60", len(seen))
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%+v in %d shards", u, n)
		}
	}
	if u := p.Units(Shard{2, 7}); u[0] != (Unit{0, 0, 0, 1}) || u[1] != (Unit{0, 0, 1, 3}) {
		t.Errorf("shard 2/7 starts %+v", u[:2])
	}
}

func TestParseShard(t *testing.T) {
	for s, want := range map[string]Shard{"1/3": {1, 3}, " 3 / 3 ": {3, 3}, "1/1": {1, 1}} {
		if got, err := ParseShard(s); err != nil || got != want {
			t.Errorf("%q: %v, %v", s, got, err)
		}
	}
	for s, want := range map[string]string{"0/3": "out of range", "4/3": "out of range", "x/3": "not I/N", "3": "not I/N",
		"1/0": "out of range", "-1/3": "out of range", "1/x": "not I/N"} {
		if _, err := ParseShard(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", s, err, want)
		}
	}
}

// A score keeps its bits through JSON, NaN and infinities too.
func TestScoreJSON(t *testing.T) {
	for _, v := range []float64{0.1, 1.0 / 3, math.Copysign(0, -1), 1e-300, math.NaN(), math.Inf(1), math.Inf(-1), 0.9666666666666667} {
		b, err := json.Marshal(Score(v))
		if err != nil {
			t.Fatal(err)
		}
		var back Score
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(float64(back)) != math.Float64bits(v) && !(math.IsNaN(v) && math.IsNaN(float64(back))) {
			t.Errorf("%v: %s read back as %v", v, b, back)
		}
	}
}

// A fold run alone, as a shard runs it, scores as it does among its
// cell's folds: for every registered classifier and regressor.
func TestUnitScoresAsItsCell(t *testing.T) {
	t.Parallel()
	for _, task := range []datasets.Task{datasets.Classification, datasets.Regression} {
		source := map[datasets.Task]string{datasets.Classification: "iris", datasets.Regression: "diabetes"}[task]
		p := Plan{Datasets: []*datasets.Dataset{open(t, source)}, Folds: 3, Repeats: 1, Seed: 3, Jobs: 2}
		for _, spec := range engine.Specs() {
			if spec.Supports(task) && !strings.HasPrefix(spec.Name, "fake") {
				p.Models = append(p.Models, Model{Label: spec.Name, Spec: spec, Values: spec.Defaults()})
			}
		}
		whole, err := Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		part, err := RunShard(context.Background(), p, Shard{1, 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		merged, err := Merge([]*Part{part}, []string{"part"})
		if err != nil {
			t.Fatal(err)
		}
		if f := whole.Failures(); len(p.Models) < 8 || len(f) > 0 {
			t.Errorf("%d models on %s; failed: %q", len(p.Models), source, f)
		}
		for m, model := range p.Models {
			if d := sameCells(&Outcome{Plan: p, Cells: whole.Cells[m : m+1]}, &Outcome{Plan: p, Cells: merged.Cells[m : m+1]}); d != "" {
				t.Errorf("%s on %s: %s", model.Label, source, d)
			}
		}
	}
}
