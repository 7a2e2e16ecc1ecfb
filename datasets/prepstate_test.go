package datasets

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Every stage a Prep can run, saved and restored, transforms new rows
// exactly as the fitted Prep does.
func TestPrepStateRoundTrip(t *testing.T) {
	cols := []Column{{Name: "a"}, {Name: "b", Kind: Nominal, Levels: []string{"x", "y", "z"}}, {Name: "c"}, {Name: "k"}}
	X := mkDense([][]float64{{1, 0, 5, 3}, {miss, 2, 6, 3}, {3, 2, 4, 3}, {4, miss, 7, 3}, {2, 0, 1, 3}})
	fresh := mkDense([][]float64{{2.5, 2, miss, 1}, {miss, 1, 3, 3}, {0, miss, 9, 8}})
	for _, opt := range []PrepOptions{
		{}, {Standardize: true}, {Impute: "median"}, {KeepNominal: true, KeepMissing: true},
		{Standardize: true, KeepNominal: true}, {Degree: 2, Standardize: true}, {Reduce: 2, Standardize: true},
		{Impute: ImputeConstant, ImputeValue: -3, Indicator: true, Scale: ScaleMinMax},
		{Impute: ImputeMostFrequent, Indicator: true, Scale: ScaleRobust, Ordinal: true},
		{Discretize: BinWidth, Bins: 3, Indicator: true}, {Discretize: BinFrequency, Bins: 2, KeepNominal: true, KeepMissing: true},
		{Discretize: BinMDL, Y: []float64{0, 0, 1, 1, 0}, Classes: 2, Ordinal: true, Scale: ScaleStandard},
		{Indicator: true, KeepMissing: true, KeepNominal: true}, {Indicator: true, Degree: 2},
		{Select: []int{1, 2}, Indicator: true, Standardize: true}, {Select: []int{0}, Impute: ImputeMedian, Indicator: true},
	} {
		p, _, err := fitApply(X, cols, opt)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		var q Prep
		if err := json.Unmarshal(data, &q); err != nil {
			t.Fatalf("%+v: %v\n%s", opt, err, data)
		}
		want, err := p.Apply(fresh)
		if err != nil {
			t.Fatal(err)
		}
		got, err := q.Apply(fresh)
		if err != nil {
			t.Fatal(err)
		}
		if !sameMatrix(got, want) {
			t.Errorf("%+v: restored gave\n%v\nfitted gave\n%v", opt, mat.Formatted(got), mat.Formatted(want))
		}
		if !reflect.DeepEqual(q.Columns(), p.Columns()) || !reflect.DeepEqual(q.Features(), p.Features()) {
			t.Errorf("%+v: columns %v, want %v", opt, q.Columns(), p.Columns())
		}
	}
}

func sameMatrix(a, b *mat.Dense) bool {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ra != rb || ca != cb {
		return false
	}
	for i := range ra {
		for j := range ca {
			if x, y := a.At(i, j), b.At(i, j); x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		}
	}
	return true
}

// A state edited by hand is an error naming what is wrong, never a Prep
// that panics in Apply.
func TestPrepStateRejectsEdits(t *testing.T) {
	cols := []Column{{Name: "a"}, {Name: "b", Kind: Nominal, Levels: []string{"x", "y"}}, {Name: "c"}}
	X := mkDense([][]float64{{1, 0, 5}, {2, 1, 6}, {3, 1, 4}, {4, 0, 7}})
	p, _, err := fitApply(X, cols, PrepOptions{Standardize: true, Reduce: 2})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(p)
	for _, c := range []struct{ old, new, want string }{
		{`"inputs":3`, `"inputs":0`, "inputs 0"},
		{`"inputs":3`, `"inputs":4`, "impute fill: 3 values for 4 columns"},
		{`"strategy":"mean"`, `"strategy":"mode"`, `impute strategy "mode"`},
		{`"one_hot":[null,[0,1],null]`, `"one_hot":[null,[1,0],null]`, "level codes must be increasing"},
		{`"one_hot":[null,[0,1],null]`, `"one_hot":[null,[0,1]]`, "one_hot: 2 columns described for 3 inputs"},
		{`"keep":[0,1,2,3]`, `"keep":[0,1,2,9]`, "keep: column indices"},
		{`"keep":[0,1,2,3]`, `"keep":[]`, "keep: no column kept"},
		{`"keep":[0,1,2,3]`, `"keep":[0,1,2],"degree":11`, "polynomial degree 11"},
		{`"scale":[`, `"scale":[-`, "every scale must be above 0"},
		{`"components":[[`, `"components":[[1e999,`, "preprocessing"},
		{`"components":[[`, `"components":[[1,2,3,4],[`, "the stages make 3"},
		{`{"name":"PC2"}`, ``, "columns: 1 described, the stages make 2"},
		{`"inputs":3`, `"inputs":"3"`, "preprocessing"},
	} {
		edited := strings.Replace(string(good), c.old, c.new, 1)
		if edited == string(good) {
			t.Fatalf("%q is not in %s", c.old, good)
		}
		edited = strings.Replace(edited, `},]`, `}]`, 1)
		var q Prep
		err := json.Unmarshal([]byte(edited), &q)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: error %v, want one saying %q", c.old, c.new, err, c.want)
		}
	}
	for n := range len(good) {
		var q Prep
		if err := json.Unmarshal(good[:n], &q); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
}

// The stages a person chooses are refused alike when their state is
// edited.
func TestPrepStateRejectsPipelineEdits(t *testing.T) {
	cols := []Column{{Name: "a"}, {Name: "b", Kind: Nominal, Levels: []string{"x", "y"}}, {Name: "c"}}
	X := mkDense([][]float64{{1, 0, 5}, {miss, 1, 6}, {3, 1, 4}, {4, 0, 7}, {5, 0, 8}})
	p, _, err := fitApply(X, cols, PrepOptions{Indicator: true, Discretize: BinWidth, Bins: 2, Scale: ScaleRobust})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(p)
	for _, c := range []struct{ old, new, want string }{
		{`"indicators":[0]`, `"indicators":[3]`, "indicators: column indices"},
		{`"indicators":[0]`, `"indicators":[0,0]`, "indicators: column indices"},
		{`"method":"equal_width"`, `"method":"kmeans"`, `discretize method "kmeans"`},
		{`"cuts":[[`, `"cuts":[[1e999,`, "preprocessing"},
		{`"cuts":[[`, `"cuts":[[9,`, "edges must be finite and increasing"},
		{`"cuts":[`, `"cuts":[null,`, "discretize: 4 columns described for 3"},
		{`"method":"robust"`, `"method":"max_abs"`, `standardize method "max_abs"`},
		{`"inputs":3,`, `"inputs":3,"select":[2,1],`, "select: column indices"},
		{`"inputs":3,`, `"inputs":3,"select":[],`, "preprocessing"},
	} {
		edited := strings.Replace(string(good), c.old, c.new, 1)
		if edited == string(good) {
			t.Fatalf("%q is not in %s", c.old, good)
		}
		var q Prep
		err := json.Unmarshal([]byte(edited), &q)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s -> %s: error %v, want one line saying %q", c.old, c.new, err, c.want)
		}
	}
}

// An input column is unused when the constant filter dropped all it
// became; every stage after the filter uses all it keeps.
func TestPrepUsed(t *testing.T) {
	cols := []Column{{Name: "a"}, {Name: "k"}, {Name: "colour", Kind: Nominal, Levels: []string{"red", "green"}},
		{Name: "shape", Kind: Nominal, Levels: []string{"round", "square"}}}
	X := mkDense([][]float64{{1, 7, 0, 0}, {2, 7, 1, 0}, {3, 7, 1, 0}, {miss, 7, 0, 0}})
	want := []bool{true, false, true, false}
	for _, opt := range []PrepOptions{{}, {KeepNominal: true, KeepMissing: true}, {Standardize: true, Reduce: 1}, {Indicator: true}, {Indicator: true, Ordinal: true, Discretize: BinWidth, Bins: 2}, {Select: []int{0, 1, 2}}} {
		p, _, err := fitApply(X, cols, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Used(); !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: used %v, want %v", opt, got, want)
		}
	}
}
