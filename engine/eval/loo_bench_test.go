package eval_test

import (
	"context"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
)

// BenchmarkLOODigitsGNB times leave-one-out on digits (1797 fits of a
// cheap model), where preparing each fold's data is most of the work.
func BenchmarkLOODigitsGNB(b *testing.B) {
	tab, _ := datasets.Open("digits")
	d, _ := tab.Dataset("", datasets.Auto)
	spec, _ := engine.Lookup("gnb")
	for b.Loop() {
		if _, err := eval.Run(context.Background(), d, spec, nil, eval.Options{LOO: true, Seed: 1}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
