package svm

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// kmBenchRows is n × d standard normal rows and two classes, seeded.
func kmBenchRows(n, d int) engine.Train {
	r := rand.New(rand.NewPCG(1, 2))
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, r.NormFloat64())
		}
		if X.At(i, 0)*X.At(i, 1) > 0 {
			y[i] = 1
		}
	}
	return engine.Train{X: X, Y: y, Classes: []string{"a", "b"}, Seed: 1}
}

// The RBF kernel matrix of 2,000 × 20 rows, from one syrk of the rows.
func BenchmarkKernelMatrix(b *testing.B) {
	tr := kmBenchRows(2000, 20)
	k := Kernel{Kind: RBF, Gamma: 0.05}
	for b.Loop() {
		kmGram(k, tr.X, nil)
	}
}

// The same matrix entry by entry with Kernel.Eval, for comparison.
func BenchmarkKernelMatrixByPairs(b *testing.B) {
	tr := kmBenchRows(2000, 20)
	k := Kernel{Kind: RBF, Gamma: 0.05}
	K := mat.NewDense(2000, 2000, nil)
	for b.Loop() {
		for i := range 2000 {
			for j := range 2000 {
				K.Set(i, j, k.Eval(tr.X.RawRowView(i), tr.X.RawRowView(j)))
			}
		}
	}
}

// Fits of each kernel method with its defaults on 2,000 × 20 rows.
func BenchmarkKernelMethods(b *testing.B) {
	tr := kmBenchRows(2000, 20)
	reg := tr
	reg.Classes = nil
	for _, c := range []struct {
		model string
		tr    engine.Train
	}{{"kperceptron", tr}, {"kridge", reg}, {"klogistic", tr}} {
		b.Run(c.model, func(b *testing.B) {
			_, _, m, err := engine.New(c.model, nil)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := engine.Fit(context.Background(), m, c.tr, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
