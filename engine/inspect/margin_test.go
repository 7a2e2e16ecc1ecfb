package inspect

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/internal/fakemodels/fakesvm"
)

// A two-class margin model's map carries its decision value f at every
// cell (the regions are f's signs, and no probabilities are asked for) and
// the points that are its support vectors; other models' maps carry
// neither.
func TestRegionsOfAMarginModel(t *testing.T) {
	d := openDataset(t, "circles", "")
	spec := &fakesvm.LinearSVM
	rm, err := Regions(context.Background(), d, spec, spec.Defaults(), 1, false, Plane{}, fixedGrid(20, 10))
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Margin) != 10 || len(rm.Margin[0]) != 20 || rm.Conf != nil {
		t.Fatalf("margin %dx?, confidence %v", len(rm.Margin), rm.Conf != nil)
	}
	// The same fit, asked directly at the cell centres.
	m, err := spec.New(spec.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	tr := engine.Train{X: mat.DenseCopyOf(d.X), Y: d.Y, Classes: d.Classes, Features: []string{"x0", "x1"}, Seed: 1}
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatal(err)
	}
	f, err := m.(engine.Marginer).Margin(rm.gridPoints())
	if err != nil {
		t.Fatal(err)
	}
	for r := range rm.Grid {
		for c, k := range rm.Grid[r] {
			want := 0
			if f[r*20+c] > 0 {
				want = 1
			}
			if rm.Margin[r][c] != f[r*20+c] || k != want {
				t.Fatalf("cell (%d,%d): f %v class %d, want f %v class %d", r, c, rm.Margin[r][c], k, f[r*20+c], want)
			}
		}
	}
	sv := m.(engine.SupportVectorer).SupportVectors()
	if len(sv.Rows) == 0 || !slices.Equal(rm.Support, sv.Rows) {
		t.Errorf("support points %v, want the model's %v", rm.Support, sv.Rows)
	}
	live, err := LiveRegions(rm, m, nil)
	if err != nil || live.Margin == nil || live.Conf != nil {
		t.Errorf("live map of a margin model: %v, margin %v", err, live != nil && live.Margin != nil)
	}

	lda, err := engine.Lookup("lda")
	if err != nil {
		t.Fatal(err)
	}
	rm, err = Regions(context.Background(), d, lda, lda.Defaults(), 1, false, Plane{}, fixedGrid(20, 10))
	if err != nil || rm.Margin != nil || rm.Support != nil || rm.Conf == nil {
		t.Errorf("lda's map: %v, margin %v, support %v, confidence %v", err, rm.Margin != nil, rm.Support, rm.Conf != nil)
	}
}

// Support vectors counted by class, in the classes' order, and at the
// bound; the heaviest first by their largest |y·α|.
func TestSupportCountsAndWeights(t *testing.T) {
	sv := &engine.SupportVectors{Rows: []int{4, 7, 9, 12}, Class: []string{"b", "a", "b", "c"},
		Coef: [][]float64{{0.5, -2}, {1, 0}, {-3, 0.1}, {0.2, 0.2}}, AtBound: []bool{false, true, true, false}}
	per, at := SupportCounts(sv, []string{"a", "b"})
	if want := []ClassCount{{"a", 1}, {"b", 2}, {"c", 1}}; !slices.Equal(per, want) || at != 2 {
		t.Errorf("counts %v, %d at the bound; want %v, 2", per, at, want)
	}
	if got := ByWeight(sv); !slices.Equal(got, []int{2, 0, 1, 3}) {
		t.Errorf("by weight %v, want [2 0 1 3]", got)
	}
	if per, _ := SupportCounts(&engine.SupportVectors{Rows: []int{1}}, nil); per != nil {
		t.Errorf("a regression's vectors counted by class: %v", per)
	}
}
