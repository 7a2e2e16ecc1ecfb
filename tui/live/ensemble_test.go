package live_test

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models" // the registry
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/live"
)

// An ensemble's steps bring the view of each member's own error, drawn
// from the first member's step; a single model's do not.
func TestEnsembleLiveView(t *testing.T) {
	c, err := kit.NewCommon("mono", colorprofile.NoTTY, false)
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]bool{"stacking": true, "voting": true, "lda": false} {
		spec, err := engine.Lookup(model)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := datasets.Open("iris")
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
		r := &kit.RunRecord{Record: runs.New(1, runs.Data{Source: "iris"}, ds, spec, spec.Defaults(), opt)}
		r.Finish(res, nil)
		set := live.NewSet(c, r)
		for _, p := range res.History {
			set.Observe(p)
		}
		set.Show([][]eval.Point{res.History}, 0, "")
		drawn := ""
		for _, v := range set.Views {
			v.SetSize(100, 12)
			drawn += v.View()
		}
		if got := strings.Contains(drawn, "each member alone"); got != want {
			t.Errorf("%s: the members' view drawn %v, want %v:\n%s", model, got, want, drawn)
		}
	}
}
