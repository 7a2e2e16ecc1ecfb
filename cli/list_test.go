package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// One number formatter: parameter ranges read alike (1e5 beside
// 1e6, never 1e+06 or 1e-08).
func TestModelsRangesReadAlike(t *testing.T) {
	out, _, status := run(t, "models")
	if status != exitOK {
		t.Fatal(status)
	}
	for _, bad := range []string{"e+", "e-0"} {
		if strings.Contains(out, bad) {
			i := strings.Index(out, bad)
			t.Errorf("models prints %q: …%s…", bad, out[max(i-40, 0):min(i+20, len(out))])
		}
	}
}

// `models --json` says when a parameter applies: a choice's values
// ("when") or a number's bound ("when_above": validation_fraction only when
// patience > 0), never a bound as an empty list of values.
func TestModelsJSONSaysWhenAParameterApplies(t *testing.T) {
	out, _, status := run(t, "models", "--json")
	if status != 0 {
		t.Fatal(status)
	}
	var list []struct {
		Name   string
		Params []paramJSON
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, m := range list {
		for _, p := range m.Params {
			switch {
			case m.Name == "mlp" && p.Name == "validation_fraction":
				found++
				if p.When != nil || len(p.WhenAbove) != 1 || p.WhenAbove["patience"] != 0 {
					t.Errorf("mlp's validation_fraction: when %v, when_above %v; want when_above patience 0", p.When, p.WhenAbove)
				}
			case m.Name == "logistic" && p.Name == "lr":
				found++
				if len(p.When["solver"]) != 2 || p.WhenAbove != nil {
					t.Errorf("logistic's lr: when %v, when_above %v; want when solver gd, sgd", p.When, p.WhenAbove)
				}
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d of the two parameters", found)
	}
}
