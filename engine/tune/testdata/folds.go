// Command folds writes folds.json for engine/tune's reference test: for each
// built-in set the test compares (refSets in reference_test.go), the fold of
// each row among the test rows of tealab's stratified 5-fold CV with seed 1
// (refEval), as scikit-learn's PredefinedSplit takes it; gridsearch.py reads
// it. `go generate ./engine/tune` runs it from engine/tune.
package main

import (
	"encoding/json"
	"log"
	"os"
	"path/filepath"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

func main() {
	out := map[string][]int{}
	for _, name := range []string{"breast_cancer", "iris", "wine"} {
		tab, err := datasets.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		d, err := tab.Dataset("", datasets.Auto)
		if err != nil {
			log.Fatal(err)
		}
		folds, _, err := eval.Plan(d, eval.Options{Folds: 5, Seed: 1})
		if err != nil {
			log.Fatal(err)
		}
		of := make([]int, d.Rows())
		for f, p := range folds {
			for _, i := range p.Test {
				of[i] = f
			}
		}
		out[name] = of
	}
	b, err := json.Marshal(out)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "folds.json"), append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}
