package tui

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/tui/views"
)

// setValue clears the focused input and types text.
func (hs *harness) setValue(text string) {
	hs.t.Helper()
	for range 12 {
		hs.press("backspace")
	}
	hs.typeText(text)
}

// A tree: the row typed goes down the tree, its prediction and path follow
// each key; letters are typed into the field, not taken as the screen's keys.
func TestTryARowOfATree(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tree", Train: true}, 120, 40)
	hs.resultTab("Try")
	v := hs.View()
	mustContain(t, v, "filled from row 1 of 150", "predicted setosa · the row's actual setosa", "class probabilities",
		"path through the tree", "└ petal_length_cm <= 2.45", "→ setosa (a leaf of")
	hs.press("down", "down") // petal length
	hs.setValue("5")
	hs.press("down") // petal width
	hs.setValue("1.7")
	v = hs.View()
	mustContain(t, v, "edited", "predicted virginica", "petal_length_cm > 2.45", "petal_width_cm > 1.65", "→ virginica")
	if strings.Contains(v, "the row's actual") {
		t.Errorf("an edited row is not the data's row:\n%s", v)
	}
	hs.typeText("eq") // not edit & retrain, not quit: typed, and refused as a number
	if hs.a.cur != screenResults || hs.a.results.Tabs.ActiveName() != "Try" {
		t.Fatalf("typing e and q left the Try tab: screen %v", hs.a.cur)
	}
	mustContain(t, hs.View(), `petal_width_cm: "1.7eq" is not a number`)
	hs.press("]")
	mustContain(t, hs.View(), "filled from row 2 of 150", "[4.9")
	hs.press("tab")
	if hs.a.results.Tabs.ActiveName() == "Try" {
		t.Errorf("tab did not leave the Try tab")
	}
}

// A nominal feature is chosen with ←/→; the model sees the level as its
// training rows coded it.
func TestTryARowNominal(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("size,colour,kind\n")
	for i := range 60 {
		colour, kind := []string{"red", "green", "blue"}[i%3], "no"
		if colour == "green" {
			kind = "yes"
		}
		b.WriteString(strings.Join([]string{[]string{"1", "2", "3", "4"}[i%4], colour, kind}, ",") + "\n")
	}
	p := writeFile(t, "nominal.csv", b.String())
	hs := newHarness(t, Options{Data: p, Model: "tree", Train: true}, 120, 40)
	hs.resultTab("Try")
	mustContain(t, hs.View(), "  red ", "predicted no")
	hs.press("down")
	mustContain(t, hs.View(), "‹ red ›", "←/→ change level")
	hs.press("right")
	mustContain(t, hs.View(), "‹ green ›", "predicted yes")
	hs.press("right", "right")
	mustContain(t, hs.View(), "‹ ? (missing) ›")
	hs.press("left", "left", "left")
	mustContain(t, hs.View(), "‹ red ›", "predicted no")
}

// What the Try tab shows is the run's model on the row prepared with the
// run's preprocessing: logistic regression standardises, and the typed
// rows of a supplied test set get the predictions the run scored.
func TestTryARowIsPrepared(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.csv", irisTest)
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Test: good, Train: true}, 120, 40)
	res := hs.a.history[0].Result
	hs.resultTab("Try")
	tv := hs.a.results.Active().(*views.TryView)
	test := hs.a.history[0].Options.Test
	for i := range test.Rows() {
		for j := range 4 {
			tv.In[j].Text.SetValue(strconv.FormatFloat(test.X.At(i, j), 'g', -1, 64))
		}
		tv.Predict()
		if want := hs.a.ds.Classes[int(res.Predicted[i])]; tv.Out.Pred != want {
			t.Errorf("test row %d: predicted %q, the run scored %q", i+1, tv.Out.Pred, want)
		}
		X, _ := res.Prep.Apply(mat.NewDense(1, 4, append([]float64(nil), test.X.RawRowView(i)...)))
		P, _ := res.Fitted.(engine.Prober).PredictProba(X)
		for c, p := range tv.Out.Proba {
			if math.Abs(p-P.At(0, c)) > 1e-12 {
				t.Errorf("test row %d: probabilities %v, want %v", i+1, tv.Out.Proba, mat.Row(nil, 0, P))
				break
			}
		}
	}
}

// A row with a missing value goes down the tree the way the model sends
// it, and the Try tab says how: the path ends at the leaf whose outcome is
// the prediction, for every row of weather.nominal (unpruned) and iris
// with each feature missing in turn; weather's outlook missing says it
// took the heavier branch.
func TestTryATreePathWithMissingValues(t *testing.T) {
	t.Parallel()
	for _, opts := range []Options{
		{Data: "../datasets/testdata/weather.nominal.arff", Model: "tree", Params: paramsOf("tree", map[string]string{"prune": "none"}), Train: true},
		{Data: "iris", Model: "tree", Train: true},
	} {
		hs := newHarness(t, opts, 120, 40)
		hs.resultTab("Try")
		tv := hs.a.results.Active().(*views.TryView)
		d := tv.R.Dataset
		for i := range d.Rows() {
			for _, in := range tv.In {
				tv.Fill(i)
				if in.Col.Kind == datasets.Nominal {
					in.Level = len(in.Col.Levels)
				} else {
					in.Text.SetValue("")
				}
				tv.Predict()
				o := tv.Out
				if o.Err != nil || len(o.Path) == 0 {
					t.Fatalf("%s row %d, %s missing: %v, path %v", opts.Data, i+1, in.Col.Name, o.Err, o.Path)
				}
				if leaf := o.Path[len(o.Path)-1]; !tv.Tree.Nodes[leaf].Leaf() || tv.Tree.Outcome(leaf) != o.Pred {
					t.Fatalf("%s row %d, %s missing: predicted %s, the path %v ends at %s", opts.Data, i+1, in.Col.Name, o.Pred, o.Path, tv.Tree.Outcome(leaf))
				}
			}
		}
		if strings.HasSuffix(opts.Data, "weather.nominal.arff") {
			tv.Fill(0)
			tv.In[0].Level = len(tv.In[0].Col.Levels) // outlook ?
			tv.Predict()
			v := hs.View()
			mustContain(t, v, "predicted "+tv.Out.Pred, "→ "+tv.Out.Pred+" (a leaf of", "└ outlook in {overcast, rainy}", "missing: sent with most training weight (6 of 11 rows)")
		}
	}
}
