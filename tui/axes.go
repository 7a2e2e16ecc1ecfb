package tui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
)

// axisPicker chooses the plane a 2-D picture of a dataset is drawn in: two
// of its numeric features, or (x = y = -1) the plane inspect.PlaneOf
// chooses by itself (the features of 2-D data, else the first two
// principal directions). x and y cycle through the numeric features; p
// goes back to the automatic plane.
type axisPicker struct {
	numeric []int // indices of the numeric features
	x, y    int   // feature indices, or -1 for the automatic plane
	keys    axisKeys
}

type axisKeys struct{ X, Y, Auto key.Binding }

func newAxisPicker(d *datasets.Dataset) axisPicker {
	a := axisPicker{x: -1, y: -1, keys: axisKeys{
		X:    bind("x", "x axis", "x"),
		Y:    bind("y", "y axis", "y"),
		Auto: bind("p", "principal plane", "p"),
	}}
	a.numeric = numericFeatures(d)
	return a
}

// numericFeatures are the indices of d's numeric features (none for nil).
func numericFeatures(d *datasets.Dataset) []int {
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
func (a axisPicker) Keys() []key.Binding {
	if len(a.numeric) < 2 {
		return nil
	}
	ks := []key.Binding{a.keys.X, a.keys.Y}
	if len(a.numeric) > 2 || a.x >= 0 {
		ks = append(ks, a.keys.Auto)
	}
	return ks
}

// Update moves an axis on x, y or p; it reports whether the plane changed.
func (a *axisPicker) Update(msg tea.Msg) bool {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || len(a.numeric) < 2 {
		return false
	}
	switch {
	case key.Matches(km, a.keys.X):
		a.start()
		a.x = a.next(a.x, a.y)
	case key.Matches(km, a.keys.Y):
		a.start()
		a.y = a.next(a.y, a.x)
	case key.Matches(km, a.keys.Auto):
		if a.x < 0 {
			return false
		}
		a.x, a.y = -1, -1
	default:
		return false
	}
	return true
}

// start leaves the automatic plane for the first two features.
func (a *axisPicker) start() {
	if a.x < 0 || a.y < 0 {
		a.x, a.y = a.numeric[0], a.numeric[1]
	}
}

// next is the numeric feature after cur that is not other.
func (a *axisPicker) next(cur, other int) int {
	i := 0
	for k, j := range a.numeric {
		if j == cur {
			i = k
		}
	}
	for range a.numeric {
		i = (i + 1) % len(a.numeric)
		if a.numeric[i] != other {
			return a.numeric[i]
		}
	}
	return cur
}

// key names the plane, for caches.
func (a axisPicker) key() string { return strconv.Itoa(a.x) + "," + strconv.Itoa(a.y) }
