package widgets

import (
	"strings"
	"testing"
)

func TestROCCycle(t *testing.T) {
	r := NewROC(irisROC(), asciiStyles())
	r.SetSize(60, 20)
	all := r.View()
	want := []int{0, 1, 2, -1}
	for _, w := range want {
		r, _ = r.Update(keyMsg("c"))
		if r.Selected() != w {
			t.Fatalf("cycle: selected %d, want %d", r.Selected(), w)
		}
	}
	r, _ = r.Update(keyMsg("c"))
	if r.View() == all {
		t.Error("one curve looks like all curves")
	}
	one := NewROC(irisROC()[:1], asciiStyles())
	if one.KeyMap.Cycle.Enabled() {
		t.Error("cycling enabled for a single curve")
	}
}

// Other curves of the unit square: no diagonal unless the axes ask for
// one, their own axis names and value, and a marked point drawn apart.
func TestCurvesOnOtherAxes(t *testing.T) {
	pr := Curve{Name: "malignant", X: []float64{0, 0.5, 1}, Y: []float64{1, 0.9, 0.4}, Value: 0.93, Mark: 1}
	c := NewCurves(Axes{X: "recall", Y: "pre", Value: "AP"}, []Curve{pr}, asciiStyles())
	c.SetSize(60, 20)
	v := c.View()
	for _, want := range []string{"recall", "pre", "malignant AP 0.930", "◆"} {
		if !strings.Contains(v, want) {
			t.Errorf("the plot lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "FPR") || strings.Contains(v, "AUC") {
		t.Errorf("a precision-recall plot says ROC's names:\n%s", v)
	}
	diag := NewCurves(Axes{X: "recall", Y: "pre", Value: "AP", Diagonal: true}, []Curve{pr}, asciiStyles())
	diag.SetSize(60, 20)
	if diag.View() == v {
		t.Error("the diagonal asked for is not drawn")
	}
	pr.Mark = -1
	c.SetCurves([]Curve{pr})
	if strings.Contains(c.View(), "◆") {
		t.Error("no point marked, yet one is drawn")
	}
}
