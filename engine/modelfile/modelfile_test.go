package modelfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	_ "github.com/tealab/tealab/internal/fakemodels" // fake-centroid, fake-cluster...
	"gonum.org/v1/gonum/mat"
)

// fit runs model on the table t (target "" the last column) as the CLI
// does and returns what Save needs.
func fit(t *testing.T, tab *datasets.Table, target, model string, params map[string]string, opt eval.Options) (*eval.Result, *datasets.Dataset, *engine.Spec, engine.Values) {
	t.Helper()
	spec, err := engine.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Parse(params)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset(target, datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Run(context.Background(), d, spec, v, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, d, spec, v
}

func open(t *testing.T, source string) *datasets.Table {
	t.Helper()
	tab, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func readCSV(t *testing.T, name, text string) *datasets.Table {
	t.Helper()
	tab, err := datasets.ReadDelimited(strings.NewReader(text), name, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// saveLoad writes the result's model file and reads it back.
func saveLoad(t *testing.T, res *eval.Result, d *datasets.Dataset, spec *engine.Spec, v engine.Values) (*Model, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Save(&buf, res, d, spec, v); err != nil {
		t.Fatal(err)
	}
	m, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	return m, buf.Bytes()
}

// shownPredictions is what the run's own shown model predicts for the rows
// of d: the reference a loaded model must reproduce.
func shownPredictions(t *testing.T, res *eval.Result, d *datasets.Dataset) []float64 {
	t.Helper()
	Z, err := res.Prep.Apply(d.X)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := res.Fitted.(engine.Predictor).Predict(Z)
	if err != nil {
		t.Fatal(err)
	}
	return pred
}

// reordered is tab with its columns in reverse order and a column the
// model never saw in front.
func reordered(tab *datasets.Table) *datasets.Table {
	n, p := tab.Data.Dims()
	out := &datasets.Table{Name: tab.Name, RowNames: tab.RowNames, Data: mat.NewDense(n, p+1, nil)}
	out.Columns = append(out.Columns, datasets.Column{Name: "unused"})
	for j := p - 1; j >= 0; j-- {
		out.Columns = append(out.Columns, tab.Columns[j])
	}
	for i := range n {
		out.Data.Set(i, 0, float64(i))
		for j := range p {
			out.Data.Set(i, p-j, tab.Data.At(i, j))
		}
	}
	return out
}

func TestRoundTripClassification(t *testing.T) {
	tab := open(t, "iris")
	res, d, spec, v := fit(t, tab, "", "fake-centroid", map[string]string{"shrink": "0.25"}, eval.Options{Folds: 3, Seed: 1})
	m, data := saveLoad(t, res, d, spec, v)
	if m.Values.Float("shrink") != 0.25 {
		t.Errorf("shrink %v after loading, want 0.25", m.Values["shrink"])
	}
	want := shownPredictions(t, res, d)
	got, err := m.Predict(reordered(tab), true)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range want {
		if got.Labels[i] != d.Classes[int(c)] {
			t.Fatalf("row %d: %s after loading, %s in the run", i+1, got.Labels[i], d.Classes[int(c)])
		}
	}
	if r, c := got.Proba.Dims(); r != len(want) || c != 3 || !slices.Equal(got.Classes, d.Classes) {
		t.Errorf("probabilities %dx%d for %v", r, c, got.Classes)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"format", "version", "tealab", "model", "params", "task", "target", "features", "classes", "preprocessing", "state", "metrics", "trained_on", "created", "checksum"} {
		if _, ok := f[key]; !ok {
			t.Errorf("the file has no %q", key)
		}
	}
	if f["target"] != "species" || !strings.Contains(m.File.TrainedOn.FittedOn, "all 150 rows") {
		t.Errorf("target %v, fitted on %q", f["target"], m.File.TrainedOn.FittedOn)
	}
}

func TestRoundTripRegressionStandardised(t *testing.T) {
	tab := open(t, "diabetes")
	yes := true
	res, d, spec, v := fit(t, tab, "", "fake-centroid", nil, eval.Options{Split: 0.2, Seed: 3, Standardize: &yes})
	m, _ := saveLoad(t, res, d, spec, v)
	got, err := m.Predict(reordered(tab), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := shownPredictions(t, res, d); !slices.Equal(got.Values, want) {
		t.Errorf("predictions differ after loading")
	}
	if _, err := m.Predict(tab, true); !errors.Is(err, ErrNoProba) {
		t.Errorf("--proba of a regression: %v", err)
	}
}

// Nominal columns reach the model one-hot encoded (fake-centroid) or as
// codes (fake-codes); the data to predict may list their levels in another
// order, or hold numbers where training held levels.
const pets = `size,colour,legs,kind
1.0,red,4,cat
1.2,red,4,cat
0.9,blue,4,cat
3.0,green,4,dog
2.8,green,4,dog
3.1,blue,4,dog
0.2,red,2,bird
0.3,blue,2,bird
0.25,green,2,bird
`

func TestNominalColumns(t *testing.T) {
	for _, model := range []string{"fake-centroid", "fake-codes"} {
		t.Run(model, func(t *testing.T) {
			res, d, spec, v := fit(t, readCSV(t, "pets.csv", pets), "", model, nil, eval.Options{Folds: 3, Seed: 1})
			m, _ := saveLoad(t, res, d, spec, v)
			// Levels in another order (blue first), a missing colour.
			fresh := readCSV(t, "new.csv", "kind,colour,size,legs\n?,blue,3.0,4\n?,green,0.2,2\n?,,1.1,4\n")
			got, err := m.Predict(fresh, false)
			if err != nil {
				t.Fatal(err)
			}
			tr := readCSV(t, "same.csv", "size,colour,legs\n3.0,blue,4\n0.2,green,2\n1.1,red,4\n")
			dd, err := tr.Dataset(datasets.NoTarget, datasets.Auto)
			if err != nil {
				t.Fatal(err)
			}
			Z, err := res.Prep.Apply(recodeAs(dd.X, tr, d.Features))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := res.Fitted.(engine.Predictor).Predict(Z)
			for i := range 2 {
				if got.Labels[i] != d.Classes[int(want[i])] {
					t.Errorf("row %d: %s, want %s", i+1, got.Labels[i], d.Classes[int(want[i])])
				}
			}
			// A level never seen is taken as a level a training part never
			// saw (no one-hot column set; a code past the levels), a missing
			// value as in training; each row says so.
			odd, err := m.Predict(readCSV(t, "odd.csv", "size,colour,legs\n1,purple,4\n1,,4\n3,blue,\n1,green,4\n"), false)
			if err != nil {
				t.Fatal(err)
			}
			if w := odd.Warnings; len(w) != 4 || w[0] != `unseen level "purple" in colour` || w[1] != "missing colour" || w[2] != "missing legs" || w[3] != "" {
				t.Errorf("warnings %q", w)
			}
			if odd.Unseen != 1 || odd.Missing != 2 || odd.Warned != 3 {
				t.Errorf("counts: %d unseen, %d missing, %d rows; want 1, 2, 3", odd.Unseen, odd.Missing, odd.Warned)
			}
			X := mat.NewDense(4, 3, []float64{1, 3, 4, 1, math.NaN(), 4, 3, 1, math.NaN(), 1, 2, 4}) // size, colour (a code past red, blue, green: 3), legs
			Z, err = res.Prep.Apply(X)
			if err != nil {
				t.Fatal(err)
			}
			want, _ = res.Fitted.(engine.Predictor).Predict(Z)
			for i := range want {
				if odd.Labels[i] != d.Classes[int(want[i])] {
					t.Errorf("row %d: %s, the run's model says %s", i+1, odd.Labels[i], d.Classes[int(want[i])])
				}
			}
			if clean, _ := m.Predict(fresh, false); clean.Warnings != nil && clean.Warnings[0] != "" {
				t.Errorf("a row with every value known warns: %q", clean.Warnings)
			}
			_, err = m.Predict(readCSV(t, "short.csv", "size,legs\n1,4\n"), false)
			if err == nil || !strings.Contains(err.Error(), `no column "colour", which the training data have`) {
				t.Errorf("missing column: %v", err)
			}
			_, err = m.Predict(readCSV(t, "text.csv", "size,colour,legs\n2,red,4\nbig,red,4\n"), false)
			if err == nil || !strings.Contains(err.Error(), `row 2, column "size": "big" is not a number, and the model learnt numbers there`) {
				t.Errorf("text for a number: %v", err)
			}
		})
	}
}

// A column constant in training is not used: the data to predict may
// leave it out, and the model predicts as it does with it.
func TestUnusedColumnMayBeAbsent(t *testing.T) {
	withPlanet := strings.Replace(pets, "size,", "planet,size,", 1)
	withPlanet = strings.ReplaceAll(withPlanet, "\n", "\nearth,")
	withPlanet = strings.TrimSuffix(withPlanet, "earth,")
	res, d, spec, v := fit(t, readCSV(t, "planets.csv", withPlanet), "", "fake-centroid", nil, eval.DefaultOptions())
	m, _ := saveLoad(t, res, d, spec, v)
	if f := m.File.Features; f[0].Name != "planet" || !f[0].Unused || f[1].Unused {
		t.Fatalf("features %+v: planet should be the one unused", f)
	}
	with, err := m.Predict(readCSV(t, "with.csv", "planet,size,colour,legs\nmars,3,blue,4\nearth,0.2,red,2\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	without, err := m.Predict(readCSV(t, "without.csv", "size,colour,legs\n3,blue,4\n0.2,red,2\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(with.Labels, without.Labels) || !slices.Equal(with.Labels, []string{"dog", "bird"}) {
		t.Errorf("with planet %v, without %v; want [dog bird]", with.Labels, without.Labels)
	}
}

// recodeAs recodes the nominal columns of X (tab's) to the levels of cols.
func recodeAs(X *mat.Dense, tab *datasets.Table, cols []datasets.Column) *mat.Dense {
	Z := mat.DenseCopyOf(X)
	n, _ := Z.Dims()
	for j, c := range cols {
		if c.Kind != datasets.Nominal {
			continue
		}
		for i := range n {
			if v := Z.At(i, j); !math.IsNaN(v) {
				Z.Set(i, j, float64(slices.Index(c.Levels, tab.Columns[j].Levels[int(v)])))
			}
		}
	}
	return Z
}

func TestRoundTripClusteringAndReduction(t *testing.T) {
	tab := open(t, "wine")
	res, d, spec, v := fit(t, tab, datasets.NoTarget, "fake-cluster", map[string]string{"k": "4"}, eval.DefaultOptions())
	m, _ := saveLoad(t, res, d, spec, v)
	got, err := m.Predict(reordered(tab), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := shownPredictions(t, res, d); !slices.Equal(got.Values, want) {
		t.Error("cluster indices differ after loading")
	}

	res, d, spec, v = fit(t, tab, datasets.NoTarget, "fake-project", nil, eval.Options{Seed: 1, Reduce: 3})
	m, _ = saveLoad(t, res, d, spec, v)
	got, err = m.Predict(reordered(tab), false)
	if err != nil {
		t.Fatal(err)
	}
	Z, _ := res.Prep.Apply(d.X)
	want, _ := res.Fitted.(engine.Transformer).Transform(Z)
	if !mat.Equal(got.Components, want) || !slices.Equal(got.Names, []string{"dim1", "dim2"}) {
		t.Errorf("components differ after loading (%v)", got.Names)
	}
}

func TestSaveRefusesWhatCannotBeApplied(t *testing.T) {
	res, d, spec, v := fit(t, open(t, "iris"), "", "fake-volatile", nil, eval.DefaultOptions())
	err := Save(&bytes.Buffer{}, res, d, spec, v)
	if !errors.Is(err, ErrNotSavable) || !strings.Contains(err.Error(), "model fake-volatile cannot be saved") {
		t.Errorf("saving a model with no state: %v", err)
	}
}

// goodFile is a valid model file to spoil.
func goodFile(t *testing.T) []byte {
	t.Helper()
	res, d, spec, v := fit(t, readCSV(t, "pets.csv", pets), "", "fake-centroid", nil, eval.DefaultOptions())
	_, data := saveLoad(t, res, d, spec, v)
	return data
}

// resum rewrites the checksum of an edited file, as someone who knows the
// format could: the content must still be checked.
func resum(t *testing.T, data []byte) []byte {
	t.Helper()
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.Checksum, err = checksum(&f); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(&f)
	return out
}

func TestLoadRefusesBadFiles(t *testing.T) {
	good := string(goodFile(t))
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("%q is not in the file", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for _, c := range []struct {
		name, file, want string
		resum            bool
	}{
		{"empty", "", "empty: not a model file", false},
		{"truncated", good[:len(good)/2], "truncated", false},
		{"not JSON", "model,params\n", "not valid JSON", false},
		{"another JSON", `{"data": "iris", "model": "lda"}`, `not a model file (it has no "format": "tealab-model"`, false},
		{"a JSON array", `[1, 2]`, "not a model file: a JSON array, not an object", false},
		{"future version", edit(`"version": 2`, `"version": 3`), "version 3 was written by a newer tealab; this one reads version 2", false},
		{"version zero", edit(`"version": 2`, `"version": 0`), "version 0 is not one tealab wrote", false},
		{"version text", edit(`"version": 2`, `"version": "2"`), `no valid "version"`, false},
		{"edited by hand", edit(`"kind": "numeric"`, `"kind": "nominal"`), "changed after tealab wrote it", false},
		{"no checksum", edit(`"checksum"`, `"checksun"`), `unknown field "checksun"`, false},
		{"unknown model", edit(`"model": "fake-centroid"`, `"model": "nosuch"`), `unknown model "nosuch"`, true},
		{"bad parameter", edit(`"shrink": "0"`, `"shrink": "7"`), "shrink", true},
		{"bad task", edit(`"task": "classification"`, `"task": "reduction"`), "fake-centroid does not do reduction", true},
		{"bad kind", edit(`"kind": "numeric"`, `"kind": "text"`), `kind "text" is not numeric or nominal`, true},
		{"state edited", edit(`"centres":`, `"centres":[],"x":`), "model fake-centroid: state:", true},
		{"no state", edit(`"state": {`, `"state": null, "s": {`), "model fake-centroid has no state", true},
		{"one class", edit(`"classes": [`, `"classes": ["only"], "c": [`), "at least 2 classes, the file lists 1", true},
		{"prep edited", edit(`"inputs": 3`, `"inputs": 2`), "preprocessing", true},
		{"baseline short", edit(`"prior": [`, `"prior": [1], "p": [`), "baseline: 1 class shares for 3 classes", true},
		{"baseline not shares", edit(`"prior": [`, `"prior": [0.5, -0.5, 1], "p": [`), "baseline: class share -0.5 is not between 0 and 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.file)
			if c.resum {
				data = resum(t, data)
			}
			_, err := Load(bytes.NewReader(data))
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line saying %q", err, c.want)
			}
		})
	}
}

// FuzzLoad: no input makes Load panic, and whatever it accepts predicts
// without panicking.
func FuzzLoad(f *testing.F) {
	res, d, spec, v := fitQuiet(f)
	var buf bytes.Buffer
	if err := Save(&buf, res, d, spec, v); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"tealab-model","version":1}`))
	f.Add([]byte(`{"format":"tealab-model","version":99}`))
	f.Add(buf.Bytes()[:buf.Len()/3])
	tab, _ := datasets.ReadDelimited(strings.NewReader(pets), "pets.csv", 0)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		_, _ = m.Predict(tab, true)
		// A file resummed after fuzzing reaches the checks behind the sum.
		var g File
		if json.Unmarshal(data, &g) == nil {
			if g.Checksum, err = checksum(&g); err == nil {
				out, _ := json.Marshal(&g)
				if m, err := Load(bytes.NewReader(out)); err == nil {
					_, _ = m.Predict(tab, true)
				}
			}
		}
	})
}

func fitQuiet(f *testing.F) (*eval.Result, *datasets.Dataset, *engine.Spec, engine.Values) {
	tab, err := datasets.ReadDelimited(strings.NewReader(pets), "pets.csv", 0)
	if err != nil {
		f.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		f.Fatal(err)
	}
	spec, _ := engine.Lookup("fake-centroid")
	v := spec.Defaults()
	res, err := eval.Run(context.Background(), d, spec, v, eval.DefaultOptions(), nil)
	if err != nil {
		f.Fatal(err)
	}
	return res, d, spec, v
}

// The baseline a file keeps is learnt from the rows the saved model was
// fitted on: a hold-out's training part, even when the run moved the rows
// in place (Consume); every row after cross-validation; the mean target
// for a regressor.
func TestBaselineOfTheFittedRows(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  eval.Options
	}{
		{"hold-out", eval.Options{Split: 0.3, Seed: 4}},
		{"hold-out in place", eval.Options{Split: 0.3, Seed: 4, Consume: true}},
		{"cv", eval.Options{Folds: 3, Seed: 4}},
		{"cv, fold 1 shown", eval.Options{Folds: 3, Seed: 4, NoRefit: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab := open(t, "wine")
			d0, _ := tab.Dataset("", datasets.Auto)
			y := slices.Clone(d0.Y) // the targets before the run moves them
			res, d, spec, v := fit(t, tab, "", "fake-centroid", nil, c.opt)
			m, _ := saveLoad(t, res, d, spec, v)
			rows := res.FittedRows
			if rows == nil {
				rows = make([]int, len(y))
				for i := range rows {
					rows[i] = i
				}
			}
			want := make([]float64, len(d.Classes))
			for _, i := range rows {
				want[int(y[i])]++
			}
			for k := range want {
				want[k] /= float64(len(rows))
			}
			if m.File.Baseline == nil || !slices.Equal(m.File.Baseline.Prior, want) {
				t.Errorf("baseline %+v, want the shares %v of the %d rows the model was fitted on", m.File.Baseline, want, len(rows))
			}
		})
	}
	res, d, spec, v := fit(t, open(t, "diabetes"), "", "fake-centroid", nil, eval.Options{Folds: 3, Seed: 1})
	m, _ := saveLoad(t, res, d, spec, v)
	var sum float64
	for _, y := range d.Y {
		sum += y
	}
	if b := m.File.Baseline; b == nil || b.Mean == nil || *b.Mean != sum/float64(len(d.Y)) || b.Prior != nil {
		t.Errorf("regression baseline %+v, want the mean %v", b, sum/float64(len(d.Y)))
	}
}

// Score gives the metrics eval gives a supplied test set, and the
// baseline's; a version 1 file, which keeps no baseline, still loads and
// scores without one.
func TestScoreAsATestSet(t *testing.T) {
	tab := open(t, "iris")
	d, _ := tab.Dataset("", datasets.Auto)
	var train, test []int
	for i := range d.Rows() {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	spec, _ := engine.Lookup("fake-centroid")
	v := spec.Defaults()
	dtr, dte := d.Subset(train), d.Subset(test)
	res, err := eval.Run(context.Background(), dtr, spec, v, eval.Options{Test: dte, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, data := saveLoad(t, res, dtr, spec, v)
	testTab := &datasets.Table{Name: "test", Columns: append(slices.Clone(d.Features), *d.Target), Data: mat.NewDense(len(test), len(d.Features)+1, nil)}
	for r, i := range test {
		row := testTab.Data.RawRowView(r)
		copy(row, d.X.RawRowView(i))
		row[len(row)-1] = d.Y[i]
	}
	testTab.Columns[len(d.Features)].Levels = d.Classes
	p, err := m.Predict(testTab, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Score(testTab, p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rows != len(test) || len(s.Metrics) != len(res.Metrics) || len(s.Baseline) != len(res.Baseline) {
		t.Fatalf("scored %d rows, metrics %v, baseline %v; want %d rows, %v and %v", s.Rows, s.Metrics, s.Baseline, len(test), res.Metrics, res.Baseline)
	}
	for k, want := range res.Metrics {
		if got := s.Metrics[k]; got != want {
			t.Errorf("%s: %v, eval gives %v", k, got, want)
		}
		if got := s.Baseline[k]; got != res.Baseline[k] {
			t.Errorf("baseline %s: %v, eval gives %v", k, got, res.Baseline[k])
		}
	}
	if !slices.EqualFunc(s.Confusion.Matrix, res.Confusion.Matrix, slices.Equal) {
		t.Errorf("confusion %v, eval's %v", s.Confusion.Matrix, res.Confusion.Matrix)
	}

	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f.Version, f.Baseline = 1, nil
	old, _ := json.Marshal(&f)
	m1, err := Load(bytes.NewReader(resum(t, old)))
	if err != nil {
		t.Fatalf("a version 1 file: %v", err)
	}
	if s, err := m1.Score(testTab, p); err != nil || s.Baseline != nil || s.Metrics["accuracy"] != res.Metrics["accuracy"] {
		t.Errorf("a version 1 file scores %+v, %v; want the metrics and no baseline", s, err)
	}
	if _, err := m.Score(tab, p); err == nil {
		t.Error("Score took predictions of another table")
	}
	noTarget := &datasets.Table{Name: "x", Columns: d.Features, Data: d.X}
	if _, err := m.Score(noTarget, p); !errors.Is(err, ErrNoTarget) {
		t.Errorf("no target column: %v", err)
	}
}

// A kept threshold is refused in one line unless it is a finite number on
// the positive class of a two-class classifier that gives scores.
func TestLoadRefusesBadThresholds(t *testing.T) {
	d, err := open(t, "breast_cancer").Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	costs, err := metrics.ReadCosts(strings.NewReader("actual,malignant,benign\nmalignant,0,10\nbenign,1,0\n"), d.Classes)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := engine.Lookup("fake-centroid")
	v := spec.Defaults()
	res, err := eval.Run(context.Background(), d, spec, v, eval.Options{Folds: 3, Seed: 1, Costs: costs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, data := saveLoad(t, res, d, spec, v)
	good := string(data)
	if !strings.Contains(good, `"threshold":`) {
		t.Fatalf("no threshold kept:\n%s", good)
	}
	edit := func(re, new string) string { return regexp.MustCompile(re).ReplaceAllString(good, new) }
	three := string(goodFile(t))
	for _, c := range []struct {
		name, file, want string
		resum            bool
	}{
		{"positive not a class", edit(`"positive": "malignant"`, `"positive": "grey"`), `positive "grey" is not one of the classes`, true},
		{"no positive", edit(`"positive": "malignant",?`, ``), `positive "" is not one of the classes`, true},
		{"text", edit(`"threshold": [^,}]+`, `"threshold": "low"`), `"threshold"`, false},
		{"three classes", strings.Replace(three, `"classes": [`, `"threshold": 0.3, "classes": [`, 1), "two classes only", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.file == good || c.file == three {
				t.Fatal("the edit changed nothing")
			}
			data := []byte(c.file)
			if c.resum {
				data = resum(t, data)
			}
			_, err := Load(bytes.NewReader(data))
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line saying %q", err, c.want)
			}
		})
	}
}
