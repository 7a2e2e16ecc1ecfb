package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/modelfile"
)

// tuitest_slow is persistent (its state: fitted or not), so that a model
// file of it can be saved and loaded.
func (m *slowModel) MarshalState() ([]byte, error) {
	if !m.fitted {
		return nil, engine.ErrNotFitted
	}
	return []byte(`{"fitted":true}`), nil
}

func (m *slowModel) UnmarshalState(data []byte) error {
	var s struct{ Fitted bool }
	if err := json.Unmarshal(data, &s); err != nil || !s.Fitted {
		return errors.New("the state of a fitted tuitest_slow is {\"fitted\":true}")
	}
	m.fitted = true
	return nil
}

// trainedHarness is the lab on the results of model on iris.
func trainedHarness(t *testing.T, model string, params engine.Values) *harness {
	t.Helper()
	hs := newHarness(t, Options{Data: "iris", Model: model, Params: params, Train: true}, 120, 40)
	if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
		t.Fatalf("training did not reach the results: screen %v", hs.a.cur)
	}
	return hs
}

// S on the results saves the shown model under a default name in the
// current directory, asks before replacing a file, and says where it went.
func TestSaveModelKey(t *testing.T) {
	t.Chdir(t.TempDir())
	hs := trainedHarness(t, "tuitest_slow", paramsOf("tuitest_slow", map[string]string{"steps": "2", "sleep_us": "0"}))
	hs.press("S")
	const name = "iris-tuitest_slow-run1.tealab.json"
	if v := hs.View(); !strings.Contains(v, "Save model") || !strings.Contains(v, "file: "+name) {
		t.Fatalf("S shows no save panel with the default name:\n%s", v)
	}
	if !hs.a.results.Typing() {
		t.Error("the file field should take letter keys")
	}
	hs.press("enter")
	saved, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("enter saved nothing: %v", err)
	}
	if _, err := modelfile.Load(bytes.NewReader(saved)); err != nil {
		t.Fatalf("the saved file does not load: %v", err)
	}
	if v := hs.View(); !strings.Contains(v, "✓ model saved to "+name+": fitted on the 120 training rows of the hold-out") {
		t.Errorf("the results do not say where the model went:\n%s", v)
	}

	if err := os.WriteFile(name, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	hs.press("S", "enter")
	if v := hs.View(); !strings.Contains(v, name+" exists: replace it?") {
		t.Fatalf("no question before replacing a file:\n%s", v)
	}
	hs.press("n", "esc")
	if got, _ := os.ReadFile(name); string(got) != "keep me" || hs.a.results.Save.Open {
		t.Fatalf("n then esc: file %q, panel open %v", got, hs.a.results.Save.Open)
	}
	hs.press("S", "enter", "y")
	if got, _ := os.ReadFile(name); string(got) == "keep me" {
		t.Error("y did not replace the file")
	}
}

// A model with no state says so instead of offering a file name.
func TestSaveModelKeyRefuses(t *testing.T) {
	t.Chdir(t.TempDir())
	hs := trainedHarness(t, "tuitest_thermometer", nil)
	hs.press("S")
	if v := hs.View(); !strings.Contains(v, "model tuitest_thermometer cannot be saved to a model file yet") {
		t.Fatalf("no refusal:\n%s", v)
	}
	hs.press("x")
	if hs.a.results.Save.Open {
		t.Error("a key should close the refusal")
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("a refused save wrote %d files", len(entries))
	}
}
