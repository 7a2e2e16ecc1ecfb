package widgets

import (
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
