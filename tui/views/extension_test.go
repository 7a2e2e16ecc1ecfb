package views_test

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"

	_ "github.com/tealab/tealab/engine/models" // the registry, for the views a real run calls for
)

// The platform's promise for the results screen: a new family shows what it
// learned with one file in this package. Everything this test adds lives
// here: a family (a capability, "viewstest_moon", a model that offers it,
// one registration) and a view that needs it. The view is listed for that
// model's runs, in its order, and for no other model's.

type moonTeller interface{ Moon() string }

var capMoon = engine.DefineCapability("viewstest_moon", "phase of the moon", 460, func(m engine.Model) (string, bool) {
	if t, ok := m.(moonTeller); ok {
		return t.Moon(), true
	}
	return "", false
})

// moonModel predicts the first class and knows the moon.
type moonModel struct {
	fitted bool
	class  float64
}

func (m *moonModel) Fit(_ context.Context, tr engine.Train, _ engine.Recorder) error {
	m.class, m.fitted = tr.Y[0], true
	return nil
}

func (m *moonModel) Predict(x mat.Matrix) ([]float64, error) {
	if !m.fitted {
		return nil, engine.ErrNotFitted
	}
	rows, _ := x.Dims()
	out := make([]float64, rows)
	for i := range out {
		out[i] = m.class
	}
	return out, nil
}

func (*moonModel) Moon() string { return "waxing gibbous" }

func init() {
	engine.Register(engine.Spec{
		Name: "viewstest_moon", Title: "moon reader", Family: "test models",
		Summary: "predicts the first class and reads the moon", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification}, Unit: "step",
		New: func(engine.Values) (engine.Model, error) { return &moonModel{}, nil },
	})
	views.Register(views.Spec{Name: "Moon", Order: capMoon.Order, Needs: views.HasLearned(capMoon.Name),
		Make: func(env views.Env, r *kit.RunRecord) views.View {
			phase, _ := eval.LearnedAs[string](r.Result, capMoon.Name)
			return &moonView{phase: phase}
		}})
}

type moonView struct{ phase string }

func (v *moonView) Update(tea.Msg) tea.Cmd { return nil }
func (v *moonView) View() string           { return " the moon is " + v.phase }
func (v *moonView) SetSize(int, int)       {}
func (v *moonView) Keys() []key.Binding    { return nil }

// trained is a run of model on iris, finished.
func trained(t *testing.T, model string) *kit.RunRecord { return trainedOn(t, "iris", model) }

// trainedOn is a run of model on data, finished.
func trainedOn(t *testing.T, data, model string) *kit.RunRecord {
	t.Helper()
	spec, err := engine.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := datasets.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	opt := eval.DefaultOptions()
	res, err := eval.Run(context.Background(), ds, spec, spec.Defaults(), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &kit.RunRecord{Record: runs.New(1, runs.Data{Source: data}, ds, spec, spec.Defaults(), opt)}
	r.Finish(res, nil)
	return r
}

func names(specs []views.Spec) string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return strings.Join(out, "|")
}

func TestANewFamilysViewIsOneFileHere(t *testing.T) {
	r := trained(t, "viewstest_moon")
	listed := views.For(r)
	i := strings.Index(names(listed), "Moon")
	if i < 0 {
		t.Fatalf("the moon reader's run lists %s, without Moon", names(listed))
	}
	for k, s := range listed {
		if k > 0 && listed[k-1].Order > s.Order {
			t.Errorf("views out of order: %s", names(listed))
		}
		if s.Name == "Moon" {
			c, err := kit.NewCommon("mono", colorprofile.NoTTY, false)
			if err != nil {
				t.Fatal(err)
			}
			v := s.Make(views.Env{C: c, Ctx: context.Background()}, r)
			v.SetSize(80, 20)
			if got := v.View(); !strings.Contains(got, "the moon is waxing gibbous") {
				t.Errorf("the view drew %q", got)
			}
		}
	}
	if other := names(views.For(trained(t, "lda"))); strings.Contains(other, "Moon") {
		t.Errorf("an lda run lists the moon: %s", other)
	}
}
