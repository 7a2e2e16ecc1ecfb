package eval_test

import (
	"context"
	"fmt"
	"log"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models" // fills the registry
)

// Evaluating a model is what `tealab train` does: open the data, choose the
// target, look the model up, read its parameters as --param spells them,
// and Run: the folds, the preprocessing fitted inside each training part,
// the held-out scores and the baseline's on the same folds.
func ExampleRun() {
	tab, err := datasets.Open("wine")
	if err != nil {
		log.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto) // the last column, classes
	if err != nil {
		log.Fatal(err)
	}
	spec, err := engine.Lookup("logistic")
	if err != nil {
		log.Fatal(err)
	}
	values, err := spec.Parse(map[string]string{"C": "0.1"})
	if err != nil {
		log.Fatal(err)
	}
	opt := eval.DefaultOptions() // seed 1
	opt.Folds = 5
	res, err := eval.Run(context.Background(), d, spec, values, opt, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on %s, %s\n", res.Model, res.Dataset, res.Eval)
	fmt.Printf("accuracy %.3f ± %.3f (baseline %.3f)\n", res.Metrics["accuracy"], res.Std["accuracy"], res.Baseline["accuracy"])
	// Output:
	// logistic on wine, stratified 5-fold CV
	// accuracy 0.994 ± 0.012 (baseline 0.399)
}
