package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestOpenGenerator(t *testing.T) {
	want, err := Generate("moons", map[string]float64{"n": 500, "noise": 0.3, "seed": 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"moons:n=500,noise=0.3,seed=7",
		" Moons:seed=7, n=500 ,noise=.3",
		"moons(n=500, noise=0.3, seed=7)",
		want.Source, // a recorded Source reopens the same data
	} {
		got, err := Open(src)
		if err != nil {
			t.Fatalf("Open(%q): %v", src, err)
		}
		if got.Source != "moons(n=500, noise=0.3, seed=7)" || !reflect.DeepEqual(got.Data.RawMatrix().Data, want.Data.RawMatrix().Data) {
			t.Errorf("Open(%q) gave %s, other data", src, got.Source)
		}
	}
	for _, src := range []string{"moons", "moons:", "moons()"} {
		got, err := Open(src)
		if err != nil || got.Source != "moons(n=200, noise=0.1, seed=1)" {
			t.Errorf("Open(%q) = %v, %v", src, got, err)
		}
	}
}

func TestOpenBuiltinAndFile(t *testing.T) {
	for _, src := range []string{"iris", "IRIS", "iris:", " wine "} {
		if _, err := Open(src); err != nil {
			t.Errorf("Open(%q): %v", src, err)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.csv")
	if err := os.WriteFile(path, []byte("a,b\n1,x\n2,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	if tb.Rows() != 2 || len(tb.Columns) != 2 {
		t.Errorf("file: %d rows %d columns", tb.Rows(), len(tb.Columns))
	}
}

func TestOpenErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"nosuch", []string{`"nosuch"`, "no such file", "iris", "breast_cancer", "moons", "spirals"}},
		{"", []string{"no data source", "iris", "moons"}},
		{"nosuch/dir/x.csv", []string{"no such file"}},
		{"iris:n=3", []string{"built-in iris takes no knobs"}},
		{"moons:nois=0.3", []string{`unknown knob "nois"`, "noise"}},
		{"moons:noise=abc", []string{"noise", `"abc"`, "not a number"}},
		{"moons:noise", []string{`"noise"`, "name=value"}},
		{"moons:n=5,n=6", []string{"given twice"}},
		{"spirals:k=30", []string{"k=30 is out of range [2, 20]"}},
	} {
		_, err := Open(tc.src)
		if err == nil {
			t.Errorf("Open(%q): no error", tc.src)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Open(%q): %q lacks %q", tc.src, err, w)
			}
		}
	}
}

func TestCatalog(t *testing.T) {
	cat := Catalog()
	var names []string
	for _, e := range cat {
		names = append(names, e.Kind+":"+e.Name)
	}
	want := []string{"builtin:iris", "builtin:wine", "builtin:breast_cancer", "builtin:digits", "builtin:diabetes",
		"generator:xor", "generator:moons", "generator:circles", "generator:spirals", "generator:blobs",
		"generator:margin", "generator:cubic", "generator:sine"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("catalogue %q\nwant %q", names, want)
	}
	for _, e := range cat {
		if e.Summary == "" {
			t.Errorf("%s: no summary", e.Name)
		}
		if e.Kind != "generator" {
			if e.Knobs != nil {
				t.Errorf("%s: a built-in with knobs", e.Name)
			}
			continue
		}
		// A generator's entry describes what its defaults give.
		tb, err := Generate(e.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Rows() != e.Rows || len(tb.Columns)-1 != e.Cols {
			t.Errorf("%s: entry says %dx%d, defaults give %dx%d", e.Name, e.Rows, e.Cols, tb.Rows(), len(tb.Columns)-1)
		}
		ds, err := tb.Dataset("", Auto)
		if err != nil || ds.Task != e.Task {
			t.Errorf("%s: task %v, entry says %v (%v)", e.Name, ds.Task, e.Task, err)
		}
		seen := map[string]bool{}
		for _, k := range e.Knobs {
			seen[k.Name] = true
			if k.Default < k.Min || k.Default > k.Max || k.Help == "" {
				t.Errorf("%s: knob %+v", e.Name, k)
			}
		}
		if !seen["n"] || !seen["noise"] || !seen["seed"] {
			t.Errorf("%s: knobs %v lack n, noise or seed", e.Name, seen)
		}
	}
	// Entries are copies: changing one does not change the next call.
	cat[5].Knobs[0].Default = -1
	if Catalog()[5].Knobs[0].Default == -1 {
		t.Error("Catalog shares its knobs")
	}
}

func TestIsName(t *testing.T) {
	for source, want := range map[string]bool{
		"iris": true, " IRIS ": true, "moons": true, "moons:n=50": true, "moons(n=5, noise=0.1)": true, "iris()": true,
		"iris.csv": false, "./iris": false, "data/moons.csv": false, "foo:bar": false, "/etc/passwd": false, "": false,
	} {
		if got := IsName(source); got != want {
			t.Errorf("IsName(%q) = %v, want %v", source, got, want)
		}
	}
}

// Provenance names a source as its opened table does, however it is
// spelled, without opening it; a file has none.
func TestProvenance(t *testing.T) {
	for _, src := range []string{"iris", " IRIS ", "iris()", "moons", "moons:n=50,seed=3", "moons:seed=3 n=50", "Moons(n=50, noise=0.2)"} {
		tab, err := Open(src)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := Provenance(src); !ok || got != tab.Source {
			t.Errorf("Provenance(%q) = %q, %v; the opened table says %q", src, got, ok, tab.Source)
		}
		if again, ok := Provenance(tab.Source); tab.Source != "builtin:iris" && (!ok || again != tab.Source) { // a generator's, as Open reads it too
			t.Errorf("Provenance(%q) = %q, %v: not a fixed point", tab.Source, again, ok)
		}
	}
	for _, src := range []string{"iris.csv", "./iris", "foo:bar", "moons:n=abc", "iris:n=3", ""} {
		if got, ok := Provenance(src); ok {
			t.Errorf("Provenance(%q) = %q, want none", src, got)
		}
	}
}
