package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// Ids are 128 random bits; an old history's 8-hex ids still load, and
// where two runs share one (as 32 random bits do in a long history) the
// second is addressed as ID-2: deleting it deletes that run alone. A
// prefix of several runs is refused, naming them.
func TestHistoryIDs(t *testing.T) {
	if id := newID(); len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
		t.Errorf("new id %q: want 32 hex digits", id)
	}
	h := tempHistory(t)
	r := finished(t, "iris", "lda")
	for _, id := range []string{"3fa2c1d0", "3fa2c1d0", "3fa2d9e1"} {
		e := NewEntry(r)
		e.ID = id
		if err := h.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	es, _ := readAll(t, h)
	if len(es) != 3 || es[0].ID != "3fa2c1d0" || es[1].ID != "3fa2c1d0-2" || es[2].ID != "3fa2d9e1" {
		t.Fatalf("ids read: %v", ids(es))
	}
	_, err := Find(es, "3fa2")
	if err == nil || !strings.Contains(err.Error(), "id 3fa2 matches 3 runs: 3fa2c1d0…, 3fa2c1d0…, 3fa2d9e1…; give more characters") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if e, err := Find(es, "3fa2d"); err != nil || e.ID != "3fa2d9e1" {
		t.Errorf("unique prefix: %v %v", e, err)
	}
	if err := h.Rename("3fa2c1d0-2", "second"); err != nil {
		t.Fatal(err)
	}
	if err := h.Delete("3fa2c1d0"); err != nil {
		t.Fatal(err)
	}
	es, _ = readAll(t, h)
	if len(es) != 2 || es[0].ID != "3fa2c1d0-2" || es[0].Name != "second" || es[1].ID != "3fa2d9e1" {
		t.Errorf("after renaming the second and deleting the first: %v", ids(es))
	}
	short := ShortIDs([]*Entry{{ID: "0123456789ab"}, {ID: "0123456789cd"}, {ID: "fedcba9876543210"}})
	if short["0123456789ab"] != "0123456789a" || short["fedcba9876543210"] != "fedcba98" {
		t.Errorf("short ids %v", short)
	}
}

func ids(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// A history that is a symbolic link or a named pipe is refused by reading
// and appending, which neither follow it nor wait on it.
func TestHistoryMustBeARegularFile(t *testing.T) {
	for name, make := range map[string]func(path string) error{
		"a symbolic link": func(path string) error { return os.Symlink("/dev/zero", path) },
		"a named pipe":    mkfifo,
	} {
		h := tempHistory(t)
		if err := os.MkdirAll(h.Dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := make(h.Path()); err != nil {
			t.Skip(err)
		}
		if _, _, err := h.Read(); err == nil || !strings.Contains(err.Error(), "is "+name) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: Read: %v", name, err)
		}
		if err := h.Append(NewEntry(finished(t, "iris", "lda"))); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: Append: %v", name, err)
		}
		if err := h.Delete("x"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: Delete: %v", name, err)
		}
	}
}

// Appending stops at MaxHistory with a message saying how to make room.
func TestHistoryCap(t *testing.T) {
	h := tempHistory(t)
	if err := os.MkdirAll(h.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(h.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxHistory - 10); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	err = h.Append(NewEntry(finished(t, "iris", "lda")))
	if !errors.Is(err, ErrHistoryFull) || !strings.Contains(err.Error(), "delete runs you no longer need") {
		t.Errorf("append past the cap: %v", err)
	}
	if fi, _ := os.Stat(h.Path()); fi.Size() != MaxHistory-10 {
		t.Errorf("the history grew to %d bytes", fi.Size())
	}
}

// A run's long curves are thinned in its history line (at most MaxCurve
// points, the ends and the lowest losses kept); the run itself is not.
func TestHistoryThinsCurves(t *testing.T) {
	r := finished(t, "iris", "lda")
	const n = 5000
	var hist []eval.Point
	for i := range n {
		hist = append(hist, eval.Point{Step: i + 1, TrainLoss: 1 / float64(i+1), ValLoss: math.Abs(float64(i-3333)) + 0.5})
	}
	roc := metrics.ROC{Class: "x", AUC: 0.7}
	for i := range n {
		roc.FPR = append(roc.FPR, float64(i)/(n-1))
		roc.TPR = append(roc.TPR, math.Sqrt(float64(i)/(n-1)))
	}
	r.Result.History, r.Result.FoldHistories, r.Result.ROC = hist, [][]eval.Point{hist, hist}, []metrics.ROC{roc}
	pr := metrics.PR{Class: "x", Recall: roc.FPR, Precision: roc.TPR, AP: 0.6}
	lift := metrics.Lift{Class: "x", Depth: roc.FPR, Gain: roc.TPR}
	r.Result.PR, r.Result.FoldCurves = []metrics.PR{pr}, []metrics.Curves{{ROC: []metrics.ROC{roc}, PR: []metrics.PR{pr}, Lift: []metrics.Lift{lift}}}
	e := NewEntry(r)
	line, err := e.Line()
	if err != nil {
		t.Fatal(err)
	}
	back := parseEntry(line, map[string]int{})
	if back == nil {
		t.Fatal("the line does not read back")
	}
	got := back.Run.Result
	for _, h := range append([][]eval.Point{got.History}, got.FoldHistories...) {
		if len(h) > MaxCurve || h[0].Step != 1 || h[len(h)-1].Step != n || !hasStep(h, 3334) {
			t.Errorf("history thinned to %d points, first %d, last %d, lowest validation loss kept %v", len(h), h[0].Step, h[len(h)-1].Step, hasStep(h, 3334))
		}
	}
	if c := got.ROC[0]; len(c.FPR) > MaxCurve || len(c.TPR) != len(c.FPR) || c.FPR[0] != 0 || c.FPR[len(c.FPR)-1] != 1 || c.AUC != 0.7 {
		t.Errorf("ROC thinned to %d points", len(c.FPR))
	}
	for _, c := range append(got.PR, got.FoldCurves[0].PR...) {
		if len(c.Recall) > MaxCurve || len(c.Precision) != len(c.Recall) || c.Recall[len(c.Recall)-1] != 1 || c.AP != 0.6 {
			t.Errorf("precision-recall curve thinned to %d points", len(c.Recall))
		}
	}
	if f := got.FoldCurves[0]; len(f.ROC[0].FPR) > MaxCurve || len(f.Lift[0].Depth) > MaxCurve || len(f.Lift[0].Gain) != len(f.Lift[0].Depth) {
		t.Errorf("a fold's curves thinned to %d and %d points", len(f.ROC[0].FPR), len(f.Lift[0].Depth))
	}
	if len(r.Result.History) != n || len(r.Result.ROC[0].FPR) != n || len(r.Result.FoldCurves[0].PR[0].Recall) != n {
		t.Error("thinning the line changed the run")
	}
	// 3 x 5000 points and 5000 ROC points: 1.3 MB unthinned; with a
	// precision-recall curve, and a fold's ROC, precision-recall and gains,
	// 2.2 MB
	if len(line) > 600<<10 {
		t.Errorf("the line holds %d bytes", len(line))
	}
	if !bytes.HasSuffix(line, []byte("\n")) {
		t.Error("no newline")
	}
	// A line written before curves were thinned is thinned as it is read.
	old, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if back := parseEntry(old, map[string]int{}); len(back.Run.Result.History) > MaxCurve || len(back.Run.Result.ROC[0].FPR) > MaxCurve {
		t.Errorf("an old line read back with %d points", len(back.Run.Result.History))
	}
}

func hasStep(h []eval.Point, step int) bool {
	for _, p := range h {
		if p.Step == step {
			return true
		}
	}
	return false
}

// An old history holding one id three times reads it as ID, ID-2, ID-3;
// starring the second then deleting it removes that run alone, and the
// other two keep the ids they had: an edit writes every repeat as its own
// id, and reading never hands out an id a line already holds literally.
func TestHistoryRepeatedIDsStayStable(t *testing.T) {
	h := tempHistory(t)
	r := finished(t, "iris", "lda")
	for range 3 {
		e := NewEntry(r)
		e.ID = "3fa2c1d0"
		if err := h.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"3fa2c1d0", "3fa2c1d0-2", "3fa2c1d0-3"}
	if es, _ := readAll(t, h); !slices.Equal(ids(es), want) {
		t.Fatalf("ids read: %v, want %v", ids(es), want)
	}
	if err := h.Star("3fa2c1d0-2", true); err != nil {
		t.Fatal(err)
	}
	es, _ := readAll(t, h)
	if !slices.Equal(ids(es), want) || !es[1].Star || es[0].Star || es[2].Star {
		t.Fatalf("after starring the second: %v", ids(es))
	}
	if err := h.Delete("3fa2c1d0-2"); err != nil {
		t.Fatal(err)
	}
	es, _ = readAll(t, h)
	if want := []string{"3fa2c1d0", "3fa2c1d0-3"}; !slices.Equal(ids(es), want) || es[0].Star || es[1].Star {
		t.Fatalf("after deleting the second: %v, want %v unstarred", ids(es), want)
	}

	// A line written literally as ID-2 before the second plain ID is read
	// keeps it; the plain repeat takes the next free number.
	taken := map[string]int{}
	var got []string
	for _, id := range []string{"ab", "ab-2", "ab", "ab-2"} {
		got = append(got, nthID(taken, id))
	}
	if want := []string{"ab", "ab-2", "ab-3", "ab-2-2"}; !slices.Equal(got, want) {
		t.Errorf("nthID: %v, want %v", got, want)
	}
}
