package tui

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/eval"
)

// irisTest is ten rows of iris with the columns in another order and one
// the data lack.
const irisTest = `species,petal_width_cm,note,sepal_length_cm,petal_length_cm,sepal_width_cm
setosa,0.2,a,5.1,1.4,3.5
setosa,0.4,b,5.4,1.7,3.9
setosa,0.2,c,4.8,1.6,3.4
versicolor,1.4,d,7.0,4.7,3.2
versicolor,1.5,e,6.4,4.5,3.2
versicolor,1.3,f,5.5,4.0,2.3
virginica,2.5,g,6.3,6.0,3.3
virginica,1.9,h,5.8,5.1,2.7
virginica,2.1,i,7.1,5.9,3.0
virginica,1.8,j,6.3,5.6,2.9
`

// Choosing "test set" in the form, a file lacking a column is refused
// beside the field as it is typed; the right file trains and the summary
// says the scores are on its rows.
func TestSuppliedTestSetInTheForm(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.csv", irisTest)
	bad := writeFile(t, "bad.csv", strings.ReplaceAll(irisTest, "sepal_width_cm", "width"))
	hs := newHarness(t, Options{Data: "iris", Model: "lda"}, 120, 40)
	hs.focusParam("evaluation")
	for range 3 {
		hs.press("right")
	}
	if got := hs.a.params.Current().Raw(); got != eval.SchemeTestSet {
		t.Fatalf("evaluation %q, want %q", got, eval.SchemeTestSet)
	}
	hs.focusParam("test file")
	hs.typeText(bad)
	mustContain(t, hs.View(), `no column "sepal_width_cm"`)
	hs.press("enter")
	if hs.a.cur != screenParams {
		t.Fatalf("a test set without a column trained (screen %v)", hs.a.cur)
	}
	for range len(bad) {
		hs.press("backspace")
	}
	hs.typeText(good)
	hs.press("enter")
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v after enter:\n%s", hs.a.cur, hs.View())
	}
	mustContain(t, hs.View(), "10 rows of the supplied test set", "supplied test set "+good+" (10 rows)", "all 150 rows of the data")
	if r := hs.a.history[0]; r.Data.Test != good || len(r.Result.Actual) != 10 {
		t.Errorf("run's data %+v, %d rows scored", r.Data, len(r.Result.Actual))
	}
}

// tealab --data iris --test FILE opens the form with the test set chosen.
func TestStartupWithTestSet(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.csv", irisTest)
	hs := newHarness(t, Options{Data: "iris", Model: "lda", Test: good}, 120, 40)
	o, err := hs.a.params.Options()
	if err != nil || o.Test == nil || o.Test.Rows() != 10 {
		t.Fatalf("options %+v, %v", o, err)
	}
	mustContain(t, hs.View(), "test set good.csv · seed 1")
}

// e on the results of a run scored on a test set goes back to the form
// with that test set, even when another was typed since.
func TestRetrainKeepsTheTestSet(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.csv", irisTest)
	other := writeFile(t, "other.csv", irisTest)
	hs := newHarness(t, Options{Data: "iris", Model: "lda", Test: good, Train: true}, 120, 40)
	hs.a.params.CheckTest(other) // typed in the form since
	hs.press("e")
	hs.focusParam("test file")
	if got := hs.a.params.Current().Raw(); got != good {
		t.Errorf("test file %q, want %q", got, good)
	}
	if o, err := hs.a.params.Options(); err != nil || o.Test == nil {
		t.Errorf("options %+v, %v", o, err)
	}
}

// r on the runs screen replayed a run scored on a supplied test set as a
// stratified hold-out, and after a restart the table listed such a run as
// a "100/0 split": the replay is scored on the test set, and the table
// names it, in this session and the next.
func TestReplayKeepsTheTestSet(t *testing.T) {
	withHistory(t)
	good := writeFile(t, "good.csv", irisTest)
	first := newHarness(t, Options{Data: "iris", Model: "lda", Test: good, Train: true}, 120, 40)
	first.runUntil(func() bool { return first.a.cur == screenResults })
	first.settle()
	first.press("R")
	mustContain(t, first.View(), "test set")
	first.press("r")
	first.runUntil(func() bool { return len(first.a.history) == 2 && first.a.history[1].Done() })
	first.settle()
	if r := first.a.history[1]; r.Data.Test != good || r.Options.Test == nil || len(r.Result.Actual) != 10 {
		t.Errorf("the replay: test %q, eval %q, %d rows scored; want scored on the 10 rows of %s", r.Data.Test, r.EvalDesc(), len(r.Result.Actual), good)
	}
	first.press("q")

	hs := newHarness(t, Options{}, 120, 40)
	hs.press("R")
	v := hs.View()
	if strings.Contains(v, "100/0") || strings.Count(v, "test set") < 3 { // two rows and the detail
		t.Errorf("the runs on a test set, read from the history:\n%s", v)
	}
	hs.press("r")
	hs.runUntil(func() bool { return len(hs.a.history) == 3 && hs.a.history[2].Done() })
	if r := hs.a.history[2]; r.Options.Test == nil || len(r.Result.Actual) != 10 {
		t.Errorf("replayed from the history: eval %q, %d rows scored", r.EvalDesc(), len(r.Result.Actual))
	}
}
