package datasets

import (
	"reflect"
	"testing"
)

func TestBuiltinShapes(t *testing.T) {
	// Shapes and class balance as scikit-learn's load_* functions give them.
	for _, tc := range []struct {
		name     string
		rows     int
		features int
		target   string
		task     Task
		classes  map[string]int
	}{
		{"iris", 150, 4, "species", Classification, map[string]int{"setosa": 50, "versicolor": 50, "virginica": 50}},
		{"wine", 178, 13, "cultivar", Classification, map[string]int{"class_0": 59, "class_1": 71, "class_2": 48}},
		{"breast_cancer", 569, 30, "diagnosis", Classification, map[string]int{"malignant": 212, "benign": 357}},
		{"digits", 1797, 64, "digit", Classification, map[string]int{"0": 178, "1": 182, "2": 177, "3": 183, "4": 181,
			"5": 182, "6": 181, "7": 179, "8": 174, "9": 180}},
		{"diabetes", 442, 10, "progression", Regression, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := Open(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if tb.Name != tc.name || tb.Source != "builtin:"+tc.name {
				t.Errorf("name %q source %q", tb.Name, tb.Source)
			}
			ds, err := tb.Dataset("", Auto)
			if err != nil {
				t.Fatal(err)
			}
			if r, c := ds.X.Dims(); r != tc.rows || c != tc.features {
				t.Errorf("X is %dx%d, want %dx%d", r, c, tc.rows, tc.features)
			}
			if ds.Target.Name != tc.target || ds.Task != tc.task {
				t.Errorf("target %q task %v, want %q %v", ds.Target.Name, ds.Task, tc.target, tc.task)
			}
			for _, f := range ds.Features {
				if f.Kind != Numeric || f.Missing != 0 {
					t.Errorf("feature %+v: want numeric with nothing missing", f)
				}
			}
			if tc.classes != nil {
				got := map[string]int{}
				for c, n := range ds.ClassCounts() {
					got[ds.Classes[c]] = n
				}
				if !reflect.DeepEqual(got, tc.classes) {
					t.Errorf("classes %v, want %v", got, tc.classes)
				}
			}
			// The catalogue's numbers, written down to spare parsing, agree.
			for _, e := range Catalog() {
				if e.Name == tc.name && (e.Rows != tc.rows || e.Cols != tc.features || e.Task != tc.task || e.Kind != "builtin") {
					t.Errorf("catalogue entry %+v disagrees", e)
				}
			}
		})
	}
}

func TestBuiltinCopies(t *testing.T) {
	a, err := Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	a.Data.Set(0, 0, -1)
	a.Columns[4].Levels[0] = "changed"
	b, err := Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	if b.Data.At(0, 0) != 5.1 || b.Columns[4].Levels[0] != "setosa" {
		t.Error("a change to one loaded table shows in the next")
	}
}

func BenchmarkOpenDigits(b *testing.B) {
	for range b.N {
		if _, err := Open("digits"); err != nil {
			b.Fatal(err)
		}
	}
}
