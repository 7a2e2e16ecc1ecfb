package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeCSV writes text to a file in a temporary directory.
func writeCSV(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Values near 1e308: describe shows their mean, logistic regression (which
// standardises) trains, and a model whose arithmetic overflows says which
// feature is too large instead of "diverged" or "is +Inf".
func TestHugeFiniteValues(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 60 {
		sign := 1 - 2*(i%2)
		fmt.Fprintf(&b, "%de306,%d,%d\n", sign*(i+1), i%7, (i/2)%2)
	}
	path := writeCSV(t, "huge.csv", b.String())
	out, errOut, status := run(t, "describe", "--data", path)
	if status != 0 || strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
		t.Errorf("describe: status %d\n%s%s", status, out, errOut)
	}
	if _, errOut, status = run(t, "train", "--data", path, "--model", "logistic"); status != 0 {
		t.Errorf("logistic: status %d: %s", status, errOut)
	}
	_, errOut, status = run(t, "train", "--data", path, "--model", "gnb")
	if status != 1 || !strings.Contains(errOut, `feature "a"`) || !strings.Contains(errOut, "too large") {
		t.Errorf("gnb: status %d: %s", status, errOut)
	}
}

// A constant target is named as such whatever the model (not "classification
// needs two classes" to a regression); forcing classification on a measured
// target is refused; describing one class is allowed.
func TestTargetMessages(t *testing.T) {
	var constant, measured, oneClass strings.Builder
	constant.WriteString("a,y\n")
	measured.WriteString("a,y\n")
	oneClass.WriteString("a,y\n")
	for i := range 40 {
		fmt.Fprintf(&constant, "%d,3\n", i)
		fmt.Fprintf(&measured, "%d,%d.%d\n", i, i*7%13, i%10)
		fmt.Fprintf(&oneClass, "%d,yes\n", i)
	}
	_, errOut, status := run(t, "train", "--data", writeCSV(t, "c.csv", constant.String()), "--model", "ridge")
	if status != 1 || !strings.Contains(errOut, `target "y" is 3 in every row`) || strings.Contains(errOut, "does not do") {
		t.Errorf("constant target: status %d: %s", status, errOut)
	}
	_, errOut, status = run(t, "train", "--data", writeCSV(t, "m.csv", measured.String()), "--model", "lda", "--task", "classification")
	if status != 1 || !strings.Contains(errOut, "classification would make a class of each") {
		t.Errorf("forced classification: status %d: %s", status, errOut)
	}
	path := writeCSV(t, "one.csv", oneClass.String())
	out, errOut, status := run(t, "describe", "--data", path)
	if status != 0 || !strings.Contains(out, "yes") {
		t.Errorf("describe one class: status %d: %s%s", status, out, errOut)
	}
	_, errOut, status = run(t, "train", "--data", path, "--model", "lda")
	if status != 1 || !strings.Contains(errOut, `is "yes" in every row`) {
		t.Errorf("train one class: status %d: %s", status, errOut)
	}
}

// Messages quote what was typed and use the usage status for bad flags.
func TestParamMessagesQuoteWhatWasTyped(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--param", "max_iter=99999999999999999999"}, 2, `max_iter: "99999999999999999999" is out of range`},
		{[]string{"--param", "tol=1e-400"}, 2, `tol: "1e-400" is out of range`},
		{[]string{"--param", "tol=1e400"}, 2, `tol: "1e400" is out of range`},
		{[]string{"--split", "NaN"}, 2, `train: --split "NaN" is not a number (float in [0.001, 0.999])`},
		{[]string{"--split", "1.5"}, 2, `train: --split "1.5" is out of range (float in [0.001, 0.999])`},
		{[]string{"--split", "1e-400"}, 2, `train: --split "1e-400" is out of range (float in [0.001, 0.999])`},
	} {
		args := append([]string{"train", "--data", "iris", "--model", "logistic"}, c.args...)
		_, errOut, status := run(t, args...)
		if status != c.status || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d: %s", c.args, status, errOut)
		}
	}
}
