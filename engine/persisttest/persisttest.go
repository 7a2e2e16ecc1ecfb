// Package persisttest checks engine.Persistent models for the families'
// tests: a saved and reloaded model answers exactly as the fitted one did,
// and an edited state is an error, never a panic.
package persisttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Builtin is a built-in data set as training rows for task (seed 1).
func Builtin(t testing.TB, name string, task datasets.Task) engine.Train {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", task)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: d.FeatureNames(), Columns: d.Features, Seed: 1}
}

// Case is one model to check: built by name with settings, fitted on Train,
// its answers compared on X; Edits are edits of its state that loading
// must refuse.
type Case struct {
	Name     string
	Settings map[string]string
	Train    engine.Train
	X        mat.Matrix
	Edits    []Mutation
	// Extra, when set, reads what else the model offers (accessors that
	// are no capability); it must be the same after loading.
	Extra func(engine.Model) any
}

// Check runs RoundTrip, then Corrupt with the case's edits, for every case.
func Check(t *testing.T, cases []Case) {
	for _, c := range cases {
		name := c.Name
		for _, k := range slices.Sorted(maps.Keys(c.Settings)) {
			name += fmt.Sprintf(",%s=%s", k, c.Settings[k])
		}
		t.Run(name, func(t *testing.T) {
			Corrupt(t, c, RoundTrip(t, c), c.Edits...)
		})
	}
}

// State fits the case's model and returns its state.
func State(t testing.TB, c Case) []byte {
	t.Helper()
	m := c.build(t)
	if err := engine.Fit(t.Context(), m.(engine.Model), c.Train, nil); err != nil {
		t.Fatalf("%s: Fit: %v", c.Name, err)
	}
	state, err := m.MarshalState()
	if err != nil {
		t.Fatalf("%s: MarshalState: %v", c.Name, err)
	}
	return state
}

func (c Case) build(t testing.TB) engine.Persistent {
	t.Helper()
	m, ok := engine.MustBuild(c.Name, c.Settings).(engine.Persistent)
	if !ok {
		t.Fatalf("%s is not engine.Persistent", c.Name)
	}
	return m
}

// Persisted checks that MarshalState before Fit is ErrNotFitted, fits the
// case's model, saves its state and loads it into a model built afresh.
func Persisted(t testing.TB, c Case) (fitted, loaded engine.Model, state []byte) {
	t.Helper()
	f := c.build(t)
	if _, err := f.MarshalState(); !errors.Is(err, engine.ErrNotFitted) {
		t.Fatalf("%s: MarshalState before Fit: %v, want ErrNotFitted", c.Name, err)
	}
	if err := engine.Fit(t.Context(), f.(engine.Model), c.Train, nil); err != nil {
		t.Fatalf("%s: Fit: %v", c.Name, err)
	}
	state, err := f.MarshalState()
	if err != nil {
		t.Fatalf("%s: MarshalState: %v", c.Name, err)
	}
	l := c.build(t)
	if err := l.UnmarshalState(state); err != nil {
		t.Fatalf("%s: UnmarshalState of its own state: %v", c.Name, err)
	}
	return f.(engine.Model), l.(engine.Model), state
}

// RoundTrip checks that MarshalState before Fit is ErrNotFitted, fits the
// model, saves its state, loads it into a model built afresh, and checks
// that every answer (Predict, PredictProba, DecisionFunction, Transform,
// the capabilities, warnings and measures) is the same, bit for bit, and
// that the loaded model saves the same state. It returns the state.
func RoundTrip(t *testing.T, c Case) []byte {
	t.Helper()
	fitted, loaded, state := Persisted(t, c)
	Same(t, c.Name, fitted, loaded, c.X)
	if c.Extra != nil {
		if want, got := c.Extra(fitted), c.Extra(loaded); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: after loading %+v, want %+v", c.Name, got, want)
		}
	}
	again, err := loaded.(engine.Persistent).MarshalState()
	if err != nil {
		t.Fatalf("%s: MarshalState after UnmarshalState: %v", c.Name, err)
	}
	if string(again) != string(state) {
		t.Errorf("%s: the loaded model saves a different state:\n%s\nwant\n%s", c.Name, again, state)
	}
	return state
}

// Same checks that b answers on X exactly as a does.
func Same(t *testing.T, name string, a, b engine.Model, X mat.Matrix) {
	t.Helper()
	if p, ok := a.(engine.Predictor); ok {
		want, err := p.Predict(X)
		got, err2 := b.(engine.Predictor).Predict(X)
		sameSlices(t, name+" Predict", got, want, err2, err)
	}
	if p, ok := a.(engine.Prober); ok {
		want, err := p.PredictProba(X)
		got, err2 := b.(engine.Prober).PredictProba(X)
		sameDense(t, name+" PredictProba", got, want, err2, err)
	}
	if p, ok := a.(engine.Scorer); ok {
		want, err := p.DecisionFunction(X)
		got, err2 := b.(engine.Scorer).DecisionFunction(X)
		sameDense(t, name+" DecisionFunction", got, want, err2, err)
	}
	if p, ok := a.(engine.Transformer); ok {
		want, err := p.Transform(X)
		got, err2 := b.(engine.Transformer).Transform(X)
		sameDense(t, name+" Transform", got, want, err2, err)
	}
	want, err := engine.Learned(a)
	if err != nil {
		t.Fatalf("%s: Learned: %v", name, err)
	}
	got, err := engine.Learned(b)
	if err != nil {
		t.Fatalf("%s: Learned after loading: %v", name, err)
	}
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(gj) != string(wj) {
		t.Errorf("%s: capabilities after loading\n%s\nwant\n%s", name, gj, wj)
	}
	if w, ok := a.(engine.Warner); ok {
		if g := b.(engine.Warner).Warnings(); !reflect.DeepEqual(g, w.Warnings()) {
			t.Errorf("%s: warnings after loading %q, want %q", name, g, w.Warnings())
		}
	}
	if w, ok := a.(engine.Measurer); ok {
		if g := b.(engine.Measurer).Measures(); !reflect.DeepEqual(g, w.Measures()) {
			t.Errorf("%s: measures after loading %v, want %v", name, g, w.Measures())
		}
	}
}

func sameSlices(t *testing.T, what string, got, want []float64, err, wantErr error) {
	t.Helper()
	if !sameErrors(t, what, err, wantErr) {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s: row %d is %v, want %v", what, i+1, got[i], want[i])
		}
	}
}

func sameDense(t *testing.T, what string, got, want *mat.Dense, err, wantErr error) {
	t.Helper()
	if !sameErrors(t, what, err, wantErr) {
		return
	}
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: %d × %d, want %d × %d", what, gr, gc, r, c)
	}
	for i := range r {
		sameSlices(t, fmt.Sprintf("%s row %d:", what, i+1), got.RawRowView(i), want.RawRowView(i), nil, nil)
	}
}

// sameErrors checks that the loaded model fails where the fitted one
// does, with the same message, and reports whether both succeeded.
func sameErrors(t *testing.T, what string, err, wantErr error) bool {
	t.Helper()
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%s: %v (fitted model: %v)", what, err, wantErr)
	}
	return err == nil
}

// A Mutation edits a state's JSON object (decoded into maps and slices).
type Mutation struct {
	Name string
	Edit func(state map[string]any)
}

// refusalBytes bounds what refusing an edited state may allocate: a size
// the state declares (1e9 classes, a 4096x4096 image) must be checked
// against the arrays it holds before anything is made at that size.
const refusalBytes = 256 << 20

// Corrupt checks that a model built as c refuses every edited state with an
// error that names the model, without a panic and without allocating more
// than refusalBytes, and stays unfitted. Besides the mutations given, it
// tries truncations, non-objects and an unknown field.
func Corrupt(t *testing.T, c Case, state []byte, mutations ...Mutation) {
	t.Helper()
	edited := map[string][]byte{
		"empty":         nil,
		"null":          []byte("null"),
		"array":         []byte("[]"),
		"empty object":  []byte("{}"),
		"trailing data": append(append([]byte(nil), state...), "{}"...),
	}
	for _, cut := range []int{1, len(state) / 3, len(state) / 2, len(state) - 1} {
		edited[fmt.Sprintf("truncated at %d of %d bytes", cut, len(state))] = state[:cut]
	}
	mutations = append(mutations, Mutation{"unknown field", func(s map[string]any) { s["surprise"] = 1.0 }})
	for _, mu := range mutations {
		var s map[string]any
		if err := json.Unmarshal(state, &s); err != nil {
			t.Fatal(err)
		}
		mu.Edit(s)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		edited[mu.Name] = b
	}
	for what, data := range edited {
		m := c.build(t)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := unmarshalNoPanic(m, data)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > refusalBytes {
			t.Errorf("%s: state edited (%s): loading allocated %d MB before it was refused", c.Name, what, grew>>20)
		}
		if err == nil {
			t.Errorf("%s: state edited (%s) was accepted:\n%s", c.Name, what, data)
			continue
		}
		if strings.Contains(err.Error(), "panic") || !strings.Contains(err.Error(), "state") {
			t.Errorf("%s: state edited (%s): %v", c.Name, what, err)
		}
		t.Logf("%s: %v", what, err)
		if _, err := m.MarshalState(); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: after refusing a state edited (%s), MarshalState says %v, want ErrNotFitted", c.Name, what, err)
		}
	}
}

func unmarshalNoPanic(m engine.Persistent, data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("UnmarshalState panicked: %v", r)
		}
	}()
	return m.UnmarshalState(data)
}

// Fuzz checks, for any data, that UnmarshalState either refuses it or leaves
// a model whose answers on X come without a panic; seeds are the state and
// its truncations.
func Fuzz(f *testing.F, c Case, state []byte) {
	f.Add(state)
	for _, cut := range []int{len(state) / 4, len(state) / 2, len(state) - 2} {
		f.Add(state[:cut])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := c.build(t)
		if err := unmarshalNoPanic(m, data); err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatal(err)
			}
			return
		}
		answer(t, m.(engine.Model), c.X)
	})
}

// answer calls every method that answers on X, failing on a panic.
func answer(t *testing.T, m engine.Model, X mat.Matrix) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("a loaded model panicked: %v", r)
		}
	}()
	if p, ok := m.(engine.Predictor); ok {
		p.Predict(X)
	}
	if p, ok := m.(engine.Prober); ok {
		p.PredictProba(X)
	}
	if p, ok := m.(engine.Scorer); ok {
		p.DecisionFunction(X)
	}
	if p, ok := m.(engine.Transformer); ok {
		p.Transform(X)
	}
	engine.Learned(m)
}

// At navigates a decoded state by a dotted path ("coef", "means.0") and
// returns the parent container and the last key; it panics (a test's
// mistake) when the path does not exist.
func at(state map[string]any, path string) (parent any, key string) {
	keys := strings.Split(path, ".")
	var cur any = state
	for _, k := range keys[:len(keys)-1] {
		cur = child(cur, k)
	}
	return cur, keys[len(keys)-1]
}

func child(cur any, k string) any {
	switch c := cur.(type) {
	case map[string]any:
		v, ok := c[k]
		if !ok {
			panic("persisttest: no field " + k)
		}
		return v
	case []any:
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(c) {
			panic("persisttest: no entry " + k)
		}
		return c[i]
	}
	panic("persisttest: cannot go into " + k)
}

func set(parent any, key string, v any) {
	switch p := parent.(type) {
	case map[string]any:
		p[key] = v
	case []any:
		i, _ := strconv.Atoi(key)
		p[i] = v
	}
}

// Drop removes the field at path.
func Drop(path string) Mutation {
	return Mutation{"drop " + path, func(s map[string]any) {
		parent, key := at(s, path)
		delete(parent.(map[string]any), key)
	}}
}

// Set replaces the value at path.
func Set(path string, v any) Mutation {
	return Mutation{fmt.Sprintf("set %s to %v", path, v), func(s map[string]any) {
		parent, key := at(s, path)
		set(parent, key, v)
	}}
}

// Shorten drops the last entry of the array at path.
func Shorten(path string) Mutation {
	return Mutation{"shorten " + path, func(s map[string]any) {
		parent, key := at(s, path)
		a := child(parent, key).([]any)
		set(parent, key, a[:len(a)-1])
	}}
}

// Lengthen repeats the last entry of the array at path.
func Lengthen(path string) Mutation {
	return Mutation{"lengthen " + path, func(s map[string]any) {
		parent, key := at(s, path)
		a := child(parent, key).([]any)
		set(parent, key, append(a, a[len(a)-1]))
	}}
}
