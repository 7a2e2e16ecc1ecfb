package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
)

// The text report is built from sections that ask for what a run has, like
// the lab's views: a capability, a model offering it and a section needing
// it, all defined in this file, reach the report and --json with no edit
// elsewhere.

type fortuneTeller interface{ Fortune() []string }

var capFortune = engine.DefineCapability("clitest_fortune", "fortune", 450, func(m engine.Model) ([]string, bool) {
	if f, ok := m.(fortuneTeller); ok {
		return f.Fortune(), true
	}
	return nil, false
})

// fortuneModel predicts class 0 and tells two fortunes.
type fortuneModel struct{ fitted bool }

func (m *fortuneModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.fitted = true
	return rec.Step(engine.Step{Step: 1, Total: 1})
}

func (m *fortuneModel) Predict(X mat.Matrix) ([]float64, error) {
	n, _ := X.Dims()
	return make([]float64, n), nil
}

func (m *fortuneModel) Fortune() []string { return []string{"wealth", "a long journey"} }

func init() {
	engine.Register(engine.Spec{
		Name: "clitest_fortune", Title: "fortune teller", Family: "test models",
		Summary: "predicts the first class, tells fortunes", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification},
		New:   func(engine.Values) (engine.Model, error) { return &fortuneModel{}, nil },
	})
	addSection(section{name: "fortunes", order: capFortune.Order, needs: hasLearned(capFortune.Name),
		write: func(out io.Writer, r *runs.Record) {
			f, _ := eval.LearnedAs[[]string](r.Result, capFortune.Name)
			fmt.Fprintf(out, "\nfortunes: %s\n", strings.Join(f, "; "))
		}})
}

func TestNewCapabilityGetsItsSection(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "clitest_fortune")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "fortunes: wealth; a long journey") {
		t.Errorf("report lacks the new section:\n%s", out)
	}
	if i, j := strings.Index(out, "confusion matrix"), strings.Index(out, "fortunes:"); i < 0 || j < i {
		t.Errorf("the section is not in its place (after the confusion matrix):\n%s", out)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "clitest_fortune", "--json")
	var r struct {
		Fortune []string `json:"clitest_fortune"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Fortune) != 2 {
		t.Errorf("--json lacks the capability (%v): %s", err, out[:200])
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "lda")
	if strings.Contains(out, "fortunes:") {
		t.Error("a model without the capability got its section")
	}
}
