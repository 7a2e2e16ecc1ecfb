package datasets

import (
	"encoding/json"
	"reflect"
	"testing"
)

// KeepConstant keeps every column in its place, constant or not (an
// image's border pixels), and a saved pipeline keeps them too.
func TestPrepKeepConstant(t *testing.T) {
	X := mkDense([][]float64{{0, 1, 0}, {0, 2, 0}, {0, 3, 0}})
	p, Z, err := fitApply(X, nil, PrepOptions{KeepConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Features(), []string{"x0", "x1", "x2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("features %q, want %q", got, want)
	}
	closeRows(t, "kept", Z, [][]float64{{0, 1, 0}, {0, 2, 0}, {0, 3, 0}}, 0)
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Prep
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	W, err := back.Apply(mkDense([][]float64{{7, 8, 9}}))
	if err != nil {
		t.Fatal(err)
	}
	closeRows(t, "loaded", W, [][]float64{{7, 8, 9}}, 0)
}
