package cli

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/engine"
)

// The command line says each remedy the engine advises as the flags that
// apply it.
func TestRemedyTextNamesFlags(t *testing.T) {
	for _, c := range []struct {
		r    advice.Remedy
		want string
	}{
		{advice.Remedy{Kind: advice.HoldOutLess}, "hold out less (--split)"},
		{advice.Remedy{Kind: advice.HoldOutMore}, "hold out more (--split)"},
		{advice.Remedy{Kind: advice.CrossValidate}, "use --cv"},
		{advice.Remedy{Kind: advice.CrossValidate, K: 10}, "use --cv 10"},
		{advice.Remedy{Kind: advice.LeaveOneOut}, "use --loo"},
		{advice.Remedy{Kind: advice.Drop}, "drop columns (--drop)"},
		{advice.Remedy{Kind: advice.Drop, Columns: []string{"id"}}, "drop it with --drop id"},
		{advice.Remedy{Kind: advice.Drop, Columns: []string{"a", "b"}}, "drop them with --drop a,b"},
		{advice.Remedy{Kind: advice.Reduce}, "reduce them first (--reduce K)"},
		{advice.Remedy{Kind: advice.Model, Model: "cnb"}, "use --model cnb"},
		{advice.Remedy{Kind: advice.Model}, "choose another model"},
		{advice.Remedy{Kind: advice.Sample}, "sample the rows"},
	} {
		if got := remedyText(c.r); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// A hold-out that leaves too few rows warns with --split and --cv, in the
// report and in --json alike; an error's remedies are flags too.
func TestWarningsSayFlags(t *testing.T) {
	want := "the test part has 5 rows: its scores move in steps of 0.2 and mean little; hold out more (--split) or use --cv"
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--split", "0.03")
	if status != 0 || !strings.Contains(out, "warning: "+want) {
		t.Errorf("status %d, want %q in:\n%s%s", status, want, out, errOut)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "lda", "--split", "0.03", "--json")
	if !strings.Contains(out, `"`+want+`"`) {
		t.Errorf("--json lacks %q:\n%s", want, out)
	}
	t.Setenv(engine.MemoryEnv, "1MB")
	_, errOut, status = run(t, "train", "--data", "digits", "--model", "lda")
	if status != exitUsage || !strings.Contains(errOut, "(drop columns (--drop), reduce them first (--reduce K), sample the rows, or choose another model)") {
		t.Errorf("status %d: %s", status, errOut)
	}
}
