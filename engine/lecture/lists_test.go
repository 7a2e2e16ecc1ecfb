package lecture

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
)

func TestListKnobReadsListsRangesAndSpacedPoints(t *testing.T) {
	lin := ListKnob("lr", "0.1", "step sizes", 0, 10, false, false)
	logk := ListKnob("lambda", "1", "penalties", 1e-9, 1e9, false, true)
	whole := ListKnob("degree", "0..9", "degrees", 0, 20, true, false)
	for _, c := range []struct {
		p    engine.Param
		text string
		want []float64
	}{
		{lin, "0.105, 0.055", []float64{0.105, 0.055}},
		{whole, "0..4", []float64{0, 1, 2, 3, 4}},
		{whole, "1,3..5,9", []float64{1, 3, 4, 5, 9}},
		{lin, "0..1:5", []float64{0, 0.25, 0.5, 0.75, 1}},
		{logk, "1e-3..1e3:7", []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3}},
	} {
		v, err := (&Experiment{Name: "x", Knobs: []engine.Param{c.p}}).Parse(map[string]string{c.p.Name: c.text})
		if err != nil {
			t.Fatalf("%s=%q: %v", c.p.Name, c.text, err)
		}
		got := List(v, c.p)
		if len(got) != len(c.want) {
			t.Fatalf("%s=%q: %v, want %v", c.p.Name, c.text, got, c.want)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12*math.Max(1, math.Abs(c.want[i])) {
				t.Errorf("%s=%q: %v, want %v", c.p.Name, c.text, got, c.want)
				break
			}
		}
	}
	v, _ := (&Experiment{Name: "x", Knobs: []engine.Param{whole}}).Parse(nil)
	if got := Ints(v, whole); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("the default 0..9 reads %v", got)
	}
}

func TestListKnobRefusesInOneLineNamingTheKnob(t *testing.T) {
	whole := ListKnob("degree", "0..9", "degrees", 0, 20, true, false)
	logk := ListKnob("lambda", "1", "penalties", 1e-9, 1e9, false, true)
	e := &Experiment{Name: "bv", Knobs: []engine.Param{whole, logk}}
	for _, c := range []struct{ knob, text, want string }{
		{"degree", "", "empty"},
		{"degree", "a", `"a" is not a number`},
		{"degree", "9..1", "runs backwards"},
		{"degree", "0..30", "out of range"},
		{"degree", "1.5", "not a whole number"},
		{"degree", "0..1e9", "more than 1000"},
		{"degree", "0..5:1", "count after :"},
		{"lambda", "0..1:5", "starts above 0"},
		{"lambda", "NaN", "not a number"},
		{"seed", "1", `no knob "seed" (valid: degree, lambda)`},
	} {
		_, err := e.Parse(map[string]string{c.knob: c.text})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%q: %v, want one line saying %q", c.knob, c.text, err, c.want)
		}
		if err != nil && c.knob != "seed" && !strings.Contains(err.Error(), c.knob) {
			t.Errorf("%s=%q: %v does not name the knob", c.knob, c.text, err)
		}
	}
}
