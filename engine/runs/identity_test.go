package runs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// session trains gnb on data with 5-fold CV as a session records it: the
// data's fingerprint taken (HashData) and the record made by New.
func session(t *testing.T, data Data) *Record {
	t.Helper()
	spec, err := engine.Lookup("gnb")
	if err != nil {
		t.Fatal(err)
	}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	if data.Hash, err = HashData(data, d); err != nil {
		t.Fatal(err)
	}
	r := New(1, data, d, spec, spec.Defaults(), eval.Options{Folds: 5, Seed: 1})
	if err := r.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// reread is the record as a later session reads it from the history: its
// JSON, without its dataset.
func reread(t *testing.T, r *Record) *Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// The same run trained in two sessions was refused as "runs on different
// data: builtin:iris vs iris": the earlier one, read from the history,
// named its data by the recipe's spelling and its target "the last
// column", the new one by its dataset. Data are known by their
// fingerprint and resolved target, however they were spelled or opened.
func TestComparedAcrossSessions(t *testing.T) {
	old := reread(t, session(t, Data{Source: "iris"}))
	now := session(t, Data{Source: "iris"})
	if old.Target() != "species" {
		t.Errorf("the earlier run's target reads %q, want species", old.Target())
	}
	if why := Incomparable(old, now); why != "" {
		t.Fatalf("the same run in two sessions: %q, want comparable", why)
	}
	if v := Versus("accuracy", old, now); v != Tie {
		t.Errorf("identical folds: %v, want within noise", v)
	}
	// An earlier run opened (its dataset loaded) against one not opened.
	opened := reread(t, session(t, Data{Source: "iris"}))
	if opened.Dataset, _ = opened.Data.Open(); opened.Dataset == nil {
		t.Fatal("iris did not open")
	}
	if why := Incomparable(opened, old); why != "" {
		t.Errorf("an opened earlier run against another: %q", why)
	}
	// Other spellings of the same data.
	for _, src := range []string{" IRIS", "iris()"} {
		if why := Incomparable(session(t, Data{Source: src}), old); why != "" {
			t.Errorf("%q against iris: %q", src, why)
		}
	}
	if why := Incomparable(session(t, Data{Source: "moons:n=60,seed=2"}), reread(t, session(t, Data{Source: "moons(seed=2, n=60)"}))); why != "" {
		t.Errorf("one generator spelled two ways: %q", why)
	}
	// The target named or left to the last column is one target.
	if why := Incomparable(session(t, Data{Source: "iris", Target: "species"}), old); why != "" {
		t.Errorf("--target species against the last column: %q", why)
	}
	// One file's bytes under two names are the same data; changed bytes
	// are not, though the name is the same.
	dir := t.TempDir()
	csv := []byte("a,b,y\n1,2,x\n2,1,z\n1,1,x\n3,2,z\n2,2,x\n3,3,z\n1,3,x\n4,2,z\n2,4,x\n4,4,z\n")
	p1, p2 := filepath.Join(dir, "one.csv"), filepath.Join(dir, "two.csv")
	for _, p := range []string{p1, p2} {
		if err := os.WriteFile(p, csv, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := reread(t, session(t, Data{Source: p1}))
	if why := Incomparable(first, session(t, Data{Source: p2})); why != "" {
		t.Errorf("one file's bytes under two names: %q", why)
	}
	csv[6] = '9'
	if err := os.WriteFile(p1, csv, 0o644); err != nil {
		t.Fatal(err)
	}
	if why := Incomparable(first, session(t, Data{Source: p1})); why == "" {
		t.Error("a file changed between the sessions: compared as the same data")
	}
}

// A history line written before runs kept their resolved target and
// fingerprint falls back to the recipe: the source as a name is known
// however it was spelled, and the last column matches the target that
// names it.
func TestComparedWithOldHistoryLines(t *testing.T) {
	old := reread(t, session(t, Data{Source: "iris"}))
	old.Data.Hash, old.Data.TargetName = "", ""
	if why := Incomparable(old, session(t, Data{Source: "IRIS"})); why != "" {
		t.Errorf("an old line against a new run: %q", why)
	}
	spec := reread(t, session(t, Data{Source: "iris"}))
	spec.Data.TargetName = "" // a line from before, fingerprinted by its spelling
	if why := Incomparable(spec, session(t, Data{Source: " Iris"})); why != "" {
		t.Errorf("an old fingerprint spelled otherwise: %q", why)
	}
	if why := Incomparable(old, session(t, Data{Source: "wine"})); why == "" {
		t.Error("an old line on iris against wine: compared")
	}
}

// A served lab shows a file by another name than it was opened by (its
// Dataset.Source rewritten to "latest.csv"): the file is still known by the
// hash of its bytes, not by that name, so a changed file is noticed and two
// files of different contents never pass for the same data. Built-ins and
// generators, which have no bytes hashed, are known by their spelling.
func TestHashDataIsOfTheBytesWhateverTheShownName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "latest.csv")
	if err := os.WriteFile(path, []byte("x,y\n1,a\n2,b\n3,a\n4,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := Data{Source: path}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	d.Source = "latest.csv" // as the lab shows it
	if data.Hash, err = HashData(data, d); err != nil || data.Hash != "sha256:"+d.SHA256 || d.SHA256 == "" {
		t.Fatalf("fingerprint of a file shown as latest.csv: %q %v", data.Hash, err)
	}
	changed := *d
	changed.SHA256 = "0123456789abcdef0123456789abcdef"
	if msg := DataChanged(data, &changed); msg == "" {
		t.Errorf("a file with other bytes, shown by the same name, is not noticed")
	}
	iris, err := Data{Source: "iris"}.Open()
	if err != nil {
		t.Fatal(err)
	}
	if h, err := HashData(Data{Source: "iris"}, iris); err != nil || h != "spec:iris" {
		t.Errorf("built-in iris: %q %v, want spec:iris", h, err)
	}
}
