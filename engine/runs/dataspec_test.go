package runs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What follows the last colon is settings only when it is a key=value
// list: drive letters, colons in paths and generators' knobs are sources.
func TestParseData(t *testing.T) {
	dir := t.TempDir()
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	odd := filepath.Join(dir, "a:target=b.csv") // a file named like settings
	if err := os.WriteFile(odd, []byte("x,y\n1,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec, source, target string
		drop                 []string
		rowNames             string
	}{
		{"iris", "iris", "", nil, ""},
		{`C:\data\x.csv`, `C:\data\x.csv`, "", nil, ""},
		{`C:\data\x.csv:target=Class`, `C:\data\x.csv`, "Class", nil, ""},
		{"runs:2024/x.csv", "runs:2024/x.csv", "", nil, ""},
		{"moons:n=500,noise=0.3", "moons:n=500,noise=0.3", "", nil, ""},
		{"moons:n=500:drop=x1", "moons:n=500", "", []string{"x1"}, ""},
		{"x.csv:drop=id,name,target=c,row-names=no", "x.csv", "c", []string{"id", "name"}, RowNamesNo},
		{odd, odd, "", nil, ""},
	} {
		d, err := ParseData(c.spec, exists)
		if err != nil || d.Source != c.source || d.Target != c.target || !slices.Equal(d.Drop, c.drop) || d.RowNames != c.rowNames {
			t.Errorf("%s: %+v, %v; want source %q, target %q, drop %q, row names %s", c.spec, d, err, c.source, c.target, c.drop, c.rowNames)
		}
	}
	// x.csv with settings, and a file named x.csv:target=y beside it.
	both := filepath.Join(dir, "a")
	if err := os.WriteFile(both, []byte("x,y\n1,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseData(odd, exists); err == nil || !strings.Contains(err.Error(), "names a file, and so does "+both+" with settings") {
		t.Errorf("ambiguous: %v", err)
	}
}

// Spec writes the data back as ParseData reads them.
func TestDataSpecRoundTrip(t *testing.T) {
	for _, spec := range []string{"iris", "moons:n=500", "moons:n=500:drop=x1", "x.csv:target=c,drop=id,name,task=regression,format=tsv,row-names=no"} {
		d, err := ParseData(spec, func(string) bool { return false })
		if err != nil || d.Spec() != spec {
			t.Errorf("%s: read back as %q (%v)", spec, d.Spec(), err)
		}
	}
}
