package modelfile_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/modelfile"
	_ "github.com/tealab/tealab/engine/models" // fills the registry
)

// fitIris evaluates logistic regression on iris as `tealab train` does:
// what Save takes.
func fitIris() (*eval.Result, *datasets.Dataset, *engine.Spec, engine.Values) {
	tab, err := datasets.Open("iris")
	if err != nil {
		log.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		log.Fatal(err)
	}
	spec, err := engine.Lookup("logistic")
	if err != nil {
		log.Fatal(err)
	}
	values, err := spec.Parse(map[string]string{"C": "10"})
	if err != nil {
		log.Fatal(err)
	}
	res, err := eval.Run(context.Background(), d, spec, values, eval.DefaultOptions(), nil)
	if err != nil {
		log.Fatal(err)
	}
	return res, d, spec, values
}

// Save writes the model a run shows (fitted on the training part of the
// hold-out here), with its preprocessing, columns, classes and held-out
// metrics; Load checks the file and rebuilds the model through its spec.
func ExampleSave() {
	res, d, spec, values := fitIris()
	var file bytes.Buffer // or WriteFile(path, ...)
	if err := modelfile.Save(&file, res, d, spec, values); err != nil {
		log.Fatal(err)
	}

	m, err := modelfile.Load(&file) // or Open(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Spec.Name, m.Spec.Describe(m.Values))
	fmt.Println("target:", m.File.Target, m.File.Classes)
	fmt.Printf("held-out accuracy: %.3f\n", m.File.Metrics["accuracy"])
	// Output:
	// logistic solver=auto C=10 multi=multinomial max_iter=100 tol=0.0001 lift=1
	// target: species [setosa versicolor virginica]
	// held-out accuracy: 0.933
}

// Predict applies a loaded model to new rows: columns are matched by name,
// in any order, and the target need not be there.
func ExampleModel_Predict() {
	res, d, spec, values := fitIris()
	var file bytes.Buffer
	if err := modelfile.Save(&file, res, d, spec, values); err != nil {
		log.Fatal(err)
	}
	m, err := modelfile.Load(&file)
	if err != nil {
		log.Fatal(err)
	}

	rows := `petal_width_cm,petal_length_cm,sepal_width_cm,sepal_length_cm
0.2,1.4,3.5,5.1
1.5,4.5,3.0,6.0
2.3,5.9,3.1,6.9
`
	tab, err := datasets.ReadFrom(strings.NewReader(rows), "new flowers", "csv")
	if err != nil {
		log.Fatal(err)
	}
	p, err := m.Predict(tab, true)
	if err != nil {
		log.Fatal(err)
	}
	for i, label := range p.Labels {
		fmt.Printf("%-10s P = %.2f\n", label, p.Proba.At(i, slices.Index(p.Classes, label)))
	}
	// Output:
	// setosa     P = 1.00
	// versicolor P = 0.91
	// virginica  P = 1.00
}
