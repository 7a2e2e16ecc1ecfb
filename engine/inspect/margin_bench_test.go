package inspect

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/internal/fakemodels/fakesvm"
)

// What one live map of a margin model costs on a 40 x 20 grid: its
// decision values (band and regions from one decision per cell) against
// the predictions alone of the same model.
//
//	go test ./engine/inspect -run '^$' -bench LiveMargin
func BenchmarkLiveMargin(b *testing.B) {
	d := openDataset(b, "moons:n=2000", "")
	frame, err := Frame(d, fixedGrid(40, 20))
	if err != nil {
		b.Fatal(err)
	}
	spec := &fakesvm.LinearSVM
	m, err := spec.New(spec.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	tr := engine.Train{X: mat.DenseCopyOf(d.X), Y: d.Y, Classes: d.Classes, Features: []string{"x0", "x1"}}
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model engine.Model
	}{{"margin", m}, {"predictions only", predictorOnly{m.(engine.Predictor)}}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, err := LiveRegions(frame, c.model, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// predictorOnly hides every method of a model but Predict.
type predictorOnly struct{ engine.Predictor }

func (predictorOnly) Fit(context.Context, engine.Train, engine.Recorder) error { return nil }
