package gda

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// The bench cases lda, qda and gnb (bench/cases.tsv) fit 40,000 rows x 20
// features with 5 classes and predict 10,000; these benchmarks use generated
// data of the same shape.
func benchData(b *testing.B) (train engine.Train, test *mat.Dense) {
	b.Helper()
	all := blobs(42, 5, 10_000, 20)
	train = all
	train.X = all.X.Slice(0, 40_000, 0, 20).(*mat.Dense)
	train.Y = all.Y[:40_000]
	return train, all.X.Slice(40_000, 50_000, 0, 20).(*mat.Dense)
}

func benchFit(b *testing.B, m engine.Predictor) {
	train, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		if err := engine.Fit(context.Background(), m, train, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func benchPredict(b *testing.B, m engine.Predictor) {
	train, test := benchData(b)
	if err := engine.Fit(context.Background(), m, train, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Predict(test); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFitLDA(b *testing.B) { benchFit(b, &LDA{}) }
func BenchmarkFitQDA(b *testing.B) { benchFit(b, &QDA{}) }
func BenchmarkFitGaussianNB(b *testing.B) {
	benchFit(b, &GaussianNB{VarSmoothing: DefaultVarSmoothing})
}
func BenchmarkPredictLDA(b *testing.B) { benchPredict(b, &LDA{}) }
func BenchmarkPredictQDA(b *testing.B) { benchPredict(b, &QDA{}) }
func BenchmarkPredictGaussianNB(b *testing.B) {
	benchPredict(b, &GaussianNB{VarSmoothing: DefaultVarSmoothing})
}
