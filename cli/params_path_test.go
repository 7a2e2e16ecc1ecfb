package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
)

// A parameter written once, in a spec defined in this file, reaches
// `tealab models`, the flags, --json and a saved run with no edit elsewhere.

// thermometer predicts class 0 and reports the temperature it was built
// with as its training loss, so that a run shows what Fit was handed.
type thermometer struct{ temperature float64 }

func (m *thermometer) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	return rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: m.temperature})
}

func (m *thermometer) Predict(X mat.Matrix) ([]float64, error) {
	n, _ := X.Dims()
	return make([]float64, n), nil
}

func init() {
	engine.Register(engine.Spec{
		Name: "clitest_thermometer", Title: "thermometer", Family: "test models",
		Summary: "predicts the first class at a temperature", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification},
		Params: []engine.Param{{Name: "temperature", Kind: engine.Float, Default: 0.7, Min: 0, Max: 2,
			Help: "how warm the predictions run"}},
		New: func(v engine.Values) (engine.Model, error) {
			return &thermometer{temperature: v.Float("temperature")}, nil
		},
	})
}

func TestNewParameterReachesModelsListing(t *testing.T) {
	out, errOut, status := run(t, "models")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "temperature=0.7") || !strings.Contains(out, "float in [0, 2]") ||
		!strings.Contains(out, "how warm the predictions run") {
		t.Errorf("`tealab models` lacks temperature=0.7, its range or its help:\n%s", out)
	}
	out, _, _ = run(t, "models", "--json")
	var list []struct {
		Name   string
		Params []paramJSON
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	for _, m := range list {
		if m.Name != "clitest_thermometer" {
			continue
		}
		if len(m.Params) != 1 || m.Params[0].Default != 0.7 || *m.Params[0].Min != 0 || *m.Params[0].Max != 2 {
			t.Errorf("`tealab models --json` gives %+v", m.Params)
		}
		return
	}
	t.Error("`tealab models --json` lacks the model")
}

func TestNewParameterRefusedOutOfRange(t *testing.T) {
	_, errOut, status := run(t, "train", "--data", "iris", "--model", "clitest_thermometer", "--param", "temperature=3")
	if status != 2 || !strings.Contains(errOut, `parameter temperature: "3" is out of range (float in [0, 2])`) {
		t.Errorf("status %d, stderr %q: want 2 and the spec's range", status, errOut)
	}
}

func TestNewParameterReachesJSONAndSavedRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "clitest_thermometer",
		"--param", "temperature=1.5", "--json", "--save", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var r struct {
		Params  map[string]any `json:"params"`
		History []struct {
			TrainLoss float64 `json:"train_loss"`
		} `json:"history"`
		Recipe struct {
			Params  map[string]string `json:"params"`
			Command string            `json:"command"`
		} `json:"recipe"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Params["temperature"] != 1.5 || r.Recipe.Params["temperature"] != "1.5" ||
		!strings.Contains(r.Recipe.Command, "--param temperature=1.5") {
		t.Errorf("--json params %v, recipe %+v: want temperature 1.5", r.Params, r.Recipe)
	}
	if len(r.History) != 1 || r.History[0].TrainLoss != 1.5 {
		t.Errorf("history %+v: Fit was not handed temperature 1.5", r.History)
	}
	back, err := runs.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if x, ok := back.Params["temperature"].(float64); !ok || x != 1.5 {
		t.Errorf("saved run reads back temperature %#v, want the float 1.5", back.Params["temperature"])
	}
}
