package runs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// A run scored on a supplied test set records it: the recipe's "test",
// the command's --test, and it reads back; OpenTest matches its columns.
func TestTestSetIsRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test set.csv")
	if err := os.WriteFile(path, []byte("species,petal_width_cm,sepal_length_cm,petal_length_cm,sepal_width_cm\nsetosa,0.2,5.1,1.4,3.5\nvirginica,2.5,6.3,6.0,3.3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := Data{Source: "iris", Test: path}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	test, err := data.OpenTest(d)
	if err != nil || test.Rows() != 2 || test.X.At(1, 0) != 6.3 || test.Y[1] != 2 {
		t.Fatalf("OpenTest: %v, %+v", err, test)
	}
	spec, _ := engine.Lookup("lda")
	// The lab's form keeps a hold-out fraction beside the test set: the
	// command that repeats the run must not say --split as well.
	rec := New(1, data, d, spec, spec.Defaults(), eval.Options{Seed: 1, Split: 0.3, Test: test})
	if err := rec.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"test":"`+path+`"`) || !strings.Contains(rec.Command(), "--test '"+path+"'") ||
		!strings.Contains(string(b), `"evaluation":"supplied test set `+path+` (2 rows)"`) ||
		strings.Contains(rec.Command(), "--split") || strings.Contains(string(b), `"split"`) {
		t.Errorf("saved %s\ncommand %s", b, rec.Command())
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil || back.Data.Test != path {
		t.Errorf("read back %+v, %v", back.Data, err)
	}
	if in := rec.Inputs(); len(in) != 1 || in[0] != path {
		t.Errorf("inputs %v, want the test file", in)
	}
}
