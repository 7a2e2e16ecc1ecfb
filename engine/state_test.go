package engine

import (
	"math"
	"strings"
	"testing"
)

type testState struct {
	Coef  []float64 `json:"coef"`
	Rank  int       `json:"rank"`
	Notes []string  `json:"notes,omitempty"`
}

func TestEncodeStateRefusesNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := EncodeState("ridge", testState{Coef: []float64{1, v}})
		if err == nil || !strings.HasPrefix(err.Error(), "ridge: the fitted state holds") {
			t.Errorf("coef %v: %v, want a refusal naming the model", v, err)
		}
	}
	if b, err := EncodeState("ridge", testState{Coef: []float64{0.1, math.Copysign(0, -1), 1e-310}}); err != nil || string(b) != `{"coef":[0.1,-0,1e-310],"rank":0}` {
		t.Errorf("%s, %v", b, err)
	}
}

func TestDecodeStateIsStrict(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"coef":[1,2],"rank":1}`, ""},
		{`{"coef":[1,2],"rank":1,"notes":["a"]}`, ""},
		{`{"coef":[1,2],"rank":1`, "truncated"},
		{``, "truncated"},
		{`{"coef":[1,2]}`, `field "rank" is missing`},
		{`{"coef":[1,null],"rank":1}`, "null"},
		{`{"coef":null,"rank":1}`, "null"},
		{`{"coef":[1,2],"rank":1.5}`, `field "rank" holds a JSON number 1.5; want a whole number`},
		{`{"coef":[1,"2"],"rank":1}`, `field "coef" holds a JSON string; want a number`},
		{`{"coef":[1,2],"rank":1,"extra":0}`, `unknown field "extra"`},
		{`{"coef":[1,2],"rank":1} {}`, "after the state"},
		{`[1]`, "ridge state"},
	} {
		var s testState
		err := DecodeState("ridge", []byte(c.json), &s)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.json, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "ridge state: ") {
			t.Errorf("%s: %v, want an error saying %q", c.json, err, c.want)
		}
	}
}

func TestStateCheckKeepsFirstProblem(t *testing.T) {
	c := NewStateCheck("lda")
	if m := c.Matrix("means", [][]float64{{1, 2}, {3}}, 2, 2); m != nil {
		t.Error("a ragged matrix was accepted")
	}
	c.Len("priors", 1, 2)
	if err := c.Err(); err == nil || err.Error() != "lda state: means row 2 has 1 entries; want 2" {
		t.Errorf("%v", err)
	}
	c = NewStateCheck("lda")
	if m := c.Matrix("means", [][]float64{{1, 2}, {3, math.Inf(1)}}, 2, 2); m != nil || c.OK() {
		t.Errorf("an infinite entry was accepted: %v", c.Err())
	}
}
