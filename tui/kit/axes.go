package kit

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
)

// AxisPicker chooses the plane a 2-D picture of a dataset is drawn in: two
// of its numeric features, or (x = y = -1) the plane inspect.PlaneOf
// chooses by itself (the features of 2-D data, else the first two
// principal directions). x and y cycle through the numeric features; p
// goes back to the automatic plane.
type AxisPicker struct {
	Numeric []int // indices of the numeric features
	X, Y    int   // feature indices, or -1 for the automatic plane
	keys    axisKeys
}

type axisKeys struct{ x, y, auto key.Binding }

// NewAxisPicker is the picker of d's plane, on the automatic plane until x
// or y picks a feature.
func NewAxisPicker(d *datasets.Dataset) AxisPicker {
	a := AxisPicker{X: -1, Y: -1, keys: axisKeys{
		x:    Bind("x", "x axis", "x"),
		y:    Bind("y", "y axis", "y"),
		auto: Bind("p", "principal plane", "p"),
	}}
	a.Numeric = NumericFeatures(d)
	return a
}

// NumericFeatures are the indices of d's numeric features (none for nil).
func NumericFeatures(d *datasets.Dataset) []int {
	if d == nil {
		return nil
	}
	var out []int
	for j, c := range d.Features {
		if c.Kind == datasets.Numeric {
			out = append(out, j)
		}
	}
	return out
}

// Keys are the picker's keys, when there are features to choose from.
func (a AxisPicker) Keys() []key.Binding {
	if len(a.Numeric) < 2 {
		return nil
	}
	ks := []key.Binding{a.keys.x, a.keys.y}
	if len(a.Numeric) > 2 || a.X >= 0 {
		ks = append(ks, a.keys.auto)
	}
	return ks
}

// Update moves an axis on x, y or p; it reports whether the plane changed.
func (a *AxisPicker) Update(msg tea.Msg) bool {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || len(a.Numeric) < 2 {
		return false
	}
	switch {
	case key.Matches(km, a.keys.x):
		a.start()
		a.X = a.next(a.X, a.Y)
	case key.Matches(km, a.keys.y):
		a.start()
		a.Y = a.next(a.Y, a.X)
	case key.Matches(km, a.keys.auto):
		if a.X < 0 {
			return false
		}
		a.X, a.Y = -1, -1
	default:
		return false
	}
	return true
}

// start leaves the automatic plane for the first two features.
func (a *AxisPicker) start() {
	if a.X < 0 || a.Y < 0 {
		a.X, a.Y = a.Numeric[0], a.Numeric[1]
	}
}

// next is the numeric feature after cur that is not other.
func (a *AxisPicker) next(cur, other int) int {
	i := 0
	for k, j := range a.Numeric {
		if j == cur {
			i = k
		}
	}
	for range a.Numeric {
		i = (i + 1) % len(a.Numeric)
		if a.Numeric[i] != other {
			return a.Numeric[i]
		}
	}
	return cur
}

// Key names the plane, for caches.
func (a AxisPicker) Key() string { return strconv.Itoa(a.X) + "," + strconv.Itoa(a.Y) }

// ClassCodes is the class code of each row as the scatter takes it.
func ClassCodes(y []float64) []int {
	c := make([]int, len(y))
	for i, v := range y {
		c[i] = int(v)
	}
	return c
}
