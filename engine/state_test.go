package engine

import (
	"strings"
	"testing"
)

// DecodeState reads a whole state of the expected shape and refuses a
// truncated one, one with more after it, or one with fields of another
// model's state, each with what is wrong.
func TestDecodeState(t *testing.T) {
	type state struct {
		Weights []float64 `json:"weights"`
	}
	var s state
	if err := DecodeState([]byte(` {"weights": [1, 2.5]} `), &s); err != nil || len(s.Weights) != 2 || s.Weights[1] != 2.5 {
		t.Fatalf("got %v, %v", s, err)
	}
	for in, want := range map[string]string{
		``:                            "truncated",
		`{"weights": [1,`:             "truncated",
		`{"weights": [1]} {}`:         "after its end",
		`{"weights": [1], "tree": 1}`: `unknown field "tree"`,
		`{"weights": "heavy"}`:        "cannot unmarshal",
	} {
		if err := DecodeState([]byte(in), &s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %q", in, err, want)
		}
	}
}
