package datasets

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkColumnWarnings is the check every training run and describe
// makes before anything else, on a 100,000 x 50 generated table: an index
// written with the data (1..n, shuffled) and 49 measurements:
// go test ./datasets -run '^$' -bench ColumnWarnings -benchmem.
func BenchmarkColumnWarnings(b *testing.B) {
	const n, p = 100_000, 50
	r := rand.New(rand.NewPCG(1, 2))
	d := &Dataset{Features: make([]Column, p), X: mat.NewDense(n, p, nil)}
	for j := range p {
		d.Features[j].Name = "c" + integerText(float64(j))
	}
	for i, k := range r.Perm(n) {
		d.X.Set(i, 0, float64(k+1))
		for j := 1; j < p; j++ {
			d.X.Set(i, j, r.NormFloat64())
		}
	}
	for b.Loop() {
		if w := d.ColumnWarnings(); len(w) != 1 {
			b.Fatalf("warnings %q, want one for c0", w)
		}
	}
}
