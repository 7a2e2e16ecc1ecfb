package models

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
)

// FuzzParseParam feeds any text to every parameter of every registered
// model. A value is either refused with one line that names the parameter,
// or accepted within its kind and range, and then written (engine.Format)
// it reads back to the same value; building the model from it never
// panics.
//
//	go test ./engine/models -run '^$' -fuzz FuzzParseParam -fuzztime 60s
func FuzzParseParam(f *testing.F) {
	for _, s := range []string{"1", "0", "-1", "1e-400", "1e400", "99999999999999999999", "2.5", "NaN", "inf",
		"true", "newton", " 3 ", "0x10", "1_000", "", "0,1;5,0", "é", "\x00"} {
		f.Add(s)
	}
	specs := engine.Specs()
	f.Fuzz(func(t *testing.T, text string) {
		for _, spec := range specs {
			for _, p := range spec.Params {
				x, err := p.ParseValue(text)
				if err != nil {
					msg := err.Error()
					if !strings.HasPrefix(msg, "parameter "+p.Name+": ") || strings.ContainsAny(msg, "\n\r") {
						t.Fatalf("%s.%s(%q): bad message %q", spec.Name, p.Name, text, msg)
					}
					continue
				}
				checkValue(t, spec.Name, p, text, x)
				back, err := p.ParseValue(engine.Format(x))
				if err != nil || engine.Format(back) != engine.Format(x) {
					t.Fatalf("%s.%s(%q) = %v, written %q, read back %v (%v)", spec.Name, p.Name, text, x, engine.Format(x), back, err)
				}
				v, err := spec.Parse(map[string]string{p.Name: text})
				if err != nil {
					t.Fatalf("%s: Parse refused what ParseValue took: %v", spec.Name, err)
				}
				_, _ = spec.New(v) // may refuse a combination; must not panic
			}
		}
	})
}

func checkValue(t *testing.T, model string, p engine.Param, text string, x any) {
	t.Helper()
	inRange := func(f float64) bool {
		return (math.IsNaN(p.Min) || f >= p.Min) && (math.IsNaN(p.Max) || f <= p.Max) && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	ok := false
	switch p.Kind {
	case engine.Int:
		i, isInt := x.(int)
		ok = isInt && inRange(float64(i))
	case engine.Float:
		f, isFloat := x.(float64)
		ok = isFloat && inRange(f)
	case engine.Bool:
		_, ok = x.(bool)
	case engine.Text:
		_, ok = x.(string)
	case engine.Ints:
		ns, isInts := x.([]int)
		ok = isInts && len(ns) > 0
		for _, n := range ns {
			ok = ok && inRange(float64(n))
		}
	default:
		s, isString := x.(string)
		ok = isString && slices.Contains(p.Choices, s)
	}
	if !ok {
		t.Fatalf("%s.%s(%q) = %#v: not a valid value (%s)", model, p.Name, text, x, p.Range())
	}
}
