// Command folds writes the folds of engine/tune's reference tests, as
// scikit-learn's PredefinedSplit takes them (each row's fold among the
// test rows): folds.json, for each built-in set the test compares (refSets
// in reference_test.go), tealab's stratified 5-fold CV with seed 1
// (refEval), which gridsearch.py reads; and nested_folds.json, for the sets
// of nested.py, the outer folds of a nested cross-validation (5 folds,
// seed 1) and, for each, the inner folds tealab draws from the outer
// training part alone (5 folds, seed 1, in the order of the training
// rows), as tune.Nested draws them. `go generate ./engine/tune` runs it
// from engine/tune.
package main

import (
	"encoding/json"
	"log"
	"os"
	"path/filepath"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

var plan = eval.Options{Folds: 5, Seed: 1}

// foldOf gives each row of d the fold that holds it among its test rows.
func foldOf(d *datasets.Dataset) ([]eval.Fold, []int) {
	folds, _, err := eval.Plan(d, plan)
	if err != nil {
		log.Fatal(err)
	}
	of := make([]int, d.Rows())
	for f, p := range folds {
		for _, i := range p.Test {
			of[i] = f
		}
	}
	return folds, of
}

type nestedFold struct {
	Train []int `json:"train"` // the outer training rows, in order
	Test  []int `json:"test"`
	Inner []int `json:"inner"` // each training row's inner fold
}

func main() {
	out := map[string][]int{}
	nested := map[string][]nestedFold{}
	for _, name := range []string{"breast_cancer", "iris", "wine"} {
		tab, err := datasets.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		d, err := tab.Dataset("", datasets.Auto)
		if err != nil {
			log.Fatal(err)
		}
		folds, of := foldOf(d)
		out[name] = of
		if name == "iris" {
			continue
		}
		for _, f := range folds {
			_, inner := foldOf(d.Subset(f.Train))
			nested[name] = append(nested[name], nestedFold{Train: f.Train, Test: f.Test, Inner: inner})
		}
	}
	write("folds.json", out)
	write("nested_folds.json", nested)
}

func write(file string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", file), append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}
