package models_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/modelfile"
)

// resign recomputes a model file's checksum, as anyone can.
func resign(t *testing.T, f *modelfile.File) []byte {
	t.Helper()
	f.Checksum = ""
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	f.Checksum = hex.EncodeToString(sum[:])
	b, err = json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// intPaths lists the paths to the whole numbers of a decoded JSON value,
// looking only at the first element of each list.
func intPaths(v any, path []any, out *[][]any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			intPaths(x[k], append(slices.Clone(path), k), out)
		}
	case []any:
		if len(x) > 0 {
			intPaths(x[0], append(slices.Clone(path), 0), out)
		}
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			*out = append(*out, path)
		}
	}
}

func setPath(v any, path []any, n json.Number) {
	for i, p := range path {
		last := i == len(path)-1
		switch k := p.(type) {
		case string:
			m := v.(map[string]any)
			if last {
				m[k] = n
				return
			}
			v = m[k]
		case int:
			a := v.([]any)
			if last {
				a[k] = n
				return
			}
			v = a[k]
		}
	}
}

// savedFile fits s on the first built-in of its first task and returns its
// model file decoded, with the table; nil when the model cannot be saved.
func savedFile(t *testing.T, s *engine.Spec) (*modelfile.File, *datasets.Table) {
	t.Helper()
	m, err := s.New(s.Defaults())
	if _, ok := m.(engine.Persistent); err != nil || !ok {
		return nil, nil
	}
	tab := builtinTable(t, taskSets[s.Tasks[0]][0].name)
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Defaults()
	res, err := eval.Run(context.Background(), d, s, v, eval.DefaultOptions(), nil)
	if err != nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := modelfile.Save(&buf, res, d, s, v); err != nil {
		return nil, nil
	}
	var f modelfile.File
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	return &f, tab
}

// A model file's checksum is no signature: anyone can edit a file and
// re-sign it. Every whole number of every persistent model's state (the
// first entry of each list) set to 1e9 in a re-signed file is either
// refused or harmless: loading the file and predicting allocate at most
// 256 MB, never room for a billion inputs, classes or pixels.
func TestModelFilesDeclaringHugeSizes(t *testing.T) {
	for _, s := range engine.Specs() {
		f, tab := savedFile(t, s)
		if f == nil {
			continue
		}
		var paths [][]any
		intPaths(decodeState(t, f.State), nil, &paths)
		for _, p := range paths {
			st := decodeState(t, f.State)
			setPath(st, p, "1000000000")
			g := *f
			g.State, _ = json.Marshal(st)
			data := resign(t, &g)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if m, err := modelfile.Load(bytes.NewReader(data)); err == nil {
				_, _ = m.Predict(tab, false)
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
				t.Errorf("model %s, state %v set to 1e9: loading and predicting allocated %d MB", s.Name, p, grew>>20)
			}
		}
	}
}

func decodeState(t *testing.T, state []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(state))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Finite extremes in a re-signed file (a CNN's pixel scale of 5e-324)
// make scores NaN: predicting refuses, rather than give labels chosen from
// NaN scores.
func TestModelFilesPredictingNaN(t *testing.T) {
	s, err := engine.Lookup("cnn")
	if err != nil {
		t.Fatal(err)
	}
	f, tab := savedFile(t, s)
	if f == nil {
		t.Fatal("cnn: no model file")
	}
	st := decodeState(t, f.State)
	setPath(st, []any{"scale"}, "5e-324")
	f.State, _ = json.Marshal(st)
	m, err := modelfile.Load(bytes.NewReader(resign(t, f)))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if _, err := m.Predict(tab, false); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("predict: %v, want a refusal naming NaN", err)
	}
}
