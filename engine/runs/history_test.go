package runs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// finished is a short run of model on data under 3-fold CV, with the
// data's fingerprint.
func finished(t testing.TB, source, model string) *Record {
	t.Helper()
	r, err := runOf(source, model)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func runOf(source, model string) (*Record, error) {
	data := Data{Source: source}
	d, err := data.Open()
	if err != nil {
		return nil, err
	}
	if data.Hash, err = HashData(data, d); err != nil {
		return nil, err
	}
	spec, err := engine.Lookup(model)
	if err != nil {
		return nil, err
	}
	v, err := spec.Parse(nil)
	if err != nil {
		return nil, err
	}
	r := New(1, data, d, spec, v, eval.Options{Folds: 3, Seed: 2})
	return r, r.Run(context.Background(), nil)
}

func tempHistory(t *testing.T) *History {
	t.Helper()
	return &History{Dir: filepath.Join(t.TempDir(), "tealab")}
}

func readAll(t *testing.T, h *History) ([]*Entry, int) {
	t.Helper()
	es, skipped, err := h.Read()
	if err != nil {
		t.Fatal(err)
	}
	return es, skipped
}

// Runs appended read back in order with their metrics, histories and
// fingerprints; the directory is made on the first append.
func TestHistoryAppendRead(t *testing.T) {
	h := tempHistory(t)
	if es, _ := readAll(t, h); len(es) != 0 {
		t.Fatalf("a history not written yet has %d runs", len(es))
	}
	a, b := finished(t, "iris", "lda"), finished(t, "wine", "logistic")
	ea, eb := NewEntry(a), NewEntry(b)
	for _, e := range []*Entry{ea, eb} {
		if err := h.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	es, skipped := readAll(t, h)
	if len(es) != 2 || skipped != 0 {
		t.Fatalf("read %d runs, skipped %d; want 2, 0", len(es), skipped)
	}
	for i, want := range []*Entry{ea, eb} {
		got := es[i]
		if got.ID != want.ID || got.Run.Model != want.Run.Model || got.Version != Version || got.Run.Data.Hash != want.Run.Data.Hash {
			t.Errorf("entry %d: %s %s %s %s, want %s %s", i, got.ID, got.Run.Model, got.Version, got.Run.Data.Hash, want.ID, want.Run.Model)
		}
		if !sameMetrics(got.Run.Result.Metrics, want.Run.Result.Metrics) || len(got.Run.Result.History) != len(want.Run.Result.History) {
			t.Errorf("entry %d: metrics or history differ", i)
		}
		if !got.Run.Started.Equal(want.Time) || got.Run.Wall <= 0 {
			t.Errorf("entry %d: started %v wall %v", i, got.Run.Started, got.Run.Wall)
		}
	}
	if es[0].Run.Data.Hash != "spec:iris" {
		t.Errorf("built-in's fingerprint %q, want spec:iris", es[0].Run.Data.Hash)
	}
}

// A torn last line (a process killed mid-write) is skipped and counted,
// and the next append starts a line of its own, so only the torn line is
// lost.
func TestHistoryTornLine(t *testing.T) {
	h := tempHistory(t)
	r := finished(t, "iris", "lda")
	if err := h.Append(NewEntry(r)); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(h.Path())
	if err != nil {
		t.Fatal(err)
	}
	torn := append(bytes.Clone(whole), whole[:len(whole)/2]...)
	if err := os.WriteFile(h.Path(), torn, 0o644); err != nil {
		t.Fatal(err)
	}
	if es, skipped := readAll(t, h); len(es) != 1 || skipped != 1 {
		t.Fatalf("with a torn last line: %d runs, %d skipped; want 1, 1", len(es), skipped)
	}
	if err := h.Append(NewEntry(r)); err != nil {
		t.Fatal(err)
	}
	if es, skipped := readAll(t, h); len(es) != 2 || skipped != 1 {
		t.Fatalf("after appending past a torn line: %d runs, %d skipped; want 2, 1", len(es), skipped)
	}
}

// A history that cannot be written (its directory a file, or read-only)
// is an error to warn about, not a panic, and leaves nothing behind.
func TestHistoryUnwritable(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := finished(t, "iris", "lda")
	err := (&History{Dir: filepath.Join(notDir, "tealab")}).Append(NewEntry(r))
	if err == nil || !strings.HasPrefix(err.Error(), "run history") {
		t.Errorf("appending under a file: %v, want a run history error", err)
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := (&History{Dir: ro}).Append(NewEntry(r)); err == nil {
			t.Error("appending in a read-only directory succeeded")
		}
	}
}

// Star, rename and delete change only their run, and survive a reread;
// Find takes a unique prefix of an id.
func TestHistoryEdit(t *testing.T) {
	h := tempHistory(t)
	r := finished(t, "iris", "lda")
	var ids []string
	for range 3 {
		e := NewEntry(r)
		ids = append(ids, e.ID)
		if err := h.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Star(ids[0], true); err != nil {
		t.Fatal(err)
	}
	if err := h.Rename(ids[1], "  baseline   lda "); err != nil {
		t.Fatal(err)
	}
	if err := h.Delete(ids[2]); err != nil {
		t.Fatal(err)
	}
	if err := h.Delete(ids[2]); !errors.Is(err, ErrNoRun) {
		t.Errorf("deleting twice: %v, want ErrNoRun", err)
	}
	es, skipped := readAll(t, h)
	if len(es) != 2 || skipped != 0 {
		t.Fatalf("%d runs, %d skipped after the edits; want 2, 0", len(es), skipped)
	}
	if !es[0].Star || es[0].Name != "" || es[1].Star || es[1].Name != "baseline lda" {
		t.Errorf("after the edits: %+v %+v", es[0], es[1])
	}
	if got := Filter(es, "BASELINE"); len(got) != 1 || got[0].ID != ids[1] {
		t.Errorf("filter by name found %d runs", len(got))
	}
	if got := Filter(es, "starred"); len(got) != 1 || got[0].ID != ids[0] {
		t.Errorf("filter by star found %d runs", len(got))
	}
	if e, err := Find(es, ids[1][:6]); err != nil || e.ID != ids[1] {
		t.Errorf("Find by prefix: %v %v", e, err)
	}
	if _, err := Find(es, "zz"); !errors.Is(err, ErrNoRun) {
		t.Errorf("Find of no run: %v", err)
	}
}

// A recipe replays its run to identical metrics on the same folds; a file
// whose bytes changed since is named in a warning.
func TestRecipeReplays(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "d.csv")
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d,%s\n", i%7, (i*5)%11, []string{"p", "q"}[(i%7+i%3)%2])
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := finished(t, csv, "logistic")
	if !strings.HasPrefix(r.Data.Hash, "sha256:") {
		t.Fatalf("a file's fingerprint is %q", r.Data.Hash)
	}
	path := filepath.Join(dir, "recipe.json")
	if err := SaveRecipe(path, r); err != nil {
		t.Fatal(err)
	}
	rc, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	again, changed, err := rc.Again(2)
	if err != nil || changed != "" {
		t.Fatalf("replay: %v %q", err, changed)
	}
	if err := again.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if !sameMetrics(again.Result.Metrics, r.Result.Metrics) || fmt.Sprint(again.Result.Folds) != fmt.Sprint(r.Result.Folds) {
		t.Errorf("replayed metrics %v, want %v", again.Result.Metrics, r.Result.Metrics)
	}
	if err := os.WriteFile(csv, []byte(b.String()+"3,3,p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := rc.Again(3); err != nil || !strings.Contains(changed, "data changed") || !strings.Contains(changed, csv) {
		t.Errorf("replay on changed data: %v, warning %q", err, changed)
	}
}
