package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"
)

// The platform's promise: a new family is its package, one registration and
// its own view files. Everything this test adds lives in this file: a
// capability ("tuitest_horoscope"), a model that offers it, and a view that
// needs it. The view must appear on the results screen of that model's runs,
// and on no other, without any edit elsewhere.

type horoscoper interface{ Horoscope() string }

var capHoroscope = engine.DefineCapability("tuitest_horoscope", "horoscope", 450, func(m engine.Model) (string, bool) {
	if h, ok := m.(horoscoper); ok {
		return h.Horoscope(), true
	}
	return "", false
})

type starModel struct{ slowModel }

func (*starModel) Horoscope() string { return "a tall dark tree awaits" }

func init() {
	engine.Register(engine.Spec{
		Name: "tuitest_stars", Title: "astrologer", Family: "test models",
		Summary: "predicts the first class and reads the stars", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification}, Unit: "step",
		New: func(engine.Values) (engine.Model, error) { return &starModel{slowModel{steps: 1}}, nil },
	})
	views.Register(views.Spec{Name: "Stars", Order: capHoroscope.Order, Needs: views.HasLearned(capHoroscope.Name),
		Make: func(env views.Env, r *kit.RunRecord) views.View {
			text, _ := eval.LearnedAs[string](r.Result, capHoroscope.Name)
			return &starsView{text: text}
		}})
}

type starsView struct{ text string }

func (v *starsView) Update(tea.Msg) tea.Cmd { return nil }
func (v *starsView) View() string           { return " the stars say: " + v.text }
func (v *starsView) SetSize(int, int)       {}
func (v *starsView) Keys() []key.Binding    { return nil }

func TestNewCapabilityGetsItsView(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_stars", Train: true}, 120, 40)
	names := hs.a.results.Tabs.Names()
	if !strings.Contains(strings.Join(names, "|"), "Stars") {
		t.Fatalf("tabs %v lack the new view", names)
	}
	hs.resultTab("Stars")
	mustContain(t, hs.View(), "the stars say: a tall dark tree awaits")
	// The order is stable: Summary first, the new view after Coefficients'
	// place and before the map.
	if names[0] != views.TabSummary || names[len(names)-1] != "Map" {
		t.Errorf("tabs %v", names)
	}
	// A model without the capability has no such view.
	hs = newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	if strings.Contains(strings.Join(hs.a.results.Tabs.Names(), "|"), "Stars") {
		t.Errorf("logistic got the stars view: %v", hs.a.results.Tabs.Names())
	}
	// The capability reaches the result as data too.
	if got := hs.a.history[0].Result.Learned[capHoroscope.Name]; got != nil {
		t.Errorf("logistic learned a horoscope: %v", got)
	}
}
