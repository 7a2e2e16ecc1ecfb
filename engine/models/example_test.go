package models_test

import (
	"context"
	"fmt"
	"log"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	_ "github.com/tealab/tealab/engine/models" // fills the registry: every family's specs
)

// Importing engine/models for its side effects registers every model;
// engine.Specs lists them by family and engine.Lookup finds one by name,
// with its parameters, their defaults and ranges.
func Example() {
	for _, s := range engine.Specs() {
		if s.Family == "linear models" {
			fmt.Printf("%-10s %s\n", s.Name, s.Title)
		}
	}

	spec, err := engine.Lookup("ridge")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	fmt.Println(spec.Name, "is taught in", spec.Notes)
	for _, p := range spec.Params {
		fmt.Printf("  %-15s %-21s %s\n", p.Name+"="+engine.Format(p.Default), p.Range(), p.Help)
	}
	// Output:
	// centroid   centroid method (nearest mean)
	// lasso      lasso
	// linear     least squares
	// logistic   logistic regression
	// perceptron perceptron
	// ridge      ridge regression
	// stepwise   forward stepwise selection
	//
	// ridge is taught in Shewchuk, Concise Machine Learning, lectures 13 (ridge regression) and 16 (dual form)
	//   alpha=1         float in [1e-8, 1e8]  penalty λ on ‖w‖² (larger: smaller weights, more bias, less variance)
	//   intercept=true  true or false         fit an unpenalised intercept (centre the data)
	//   lift=1          int in [1, 6]         fit on every monomial of the features of degree 1..lift (1: no lift)
}

// A model is built from a spec and typed values (Spec.Parse reads them as
// --param spells them, checked against their ranges) and fitted on training
// rows through engine.Fit, which supplies the recorder and leaves a model
// whose fit failed unfitted. Fit takes the columns as they are: the
// evaluation (engine/eval.Run) is what splits the rows, standardises and
// scores.
func Example_fit() {
	tab, err := datasets.Open("iris")
	if err != nil {
		log.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto) // the target is the last column
	if err != nil {
		log.Fatal(err)
	}

	spec, err := engine.Lookup("tree")
	if err != nil {
		log.Fatal(err)
	}
	values, err := spec.Parse(map[string]string{"max_depth": "2"})
	if err != nil {
		log.Fatal(err)
	}
	model, err := spec.New(values)
	if err != nil {
		log.Fatal(err)
	}
	train := engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: d.FeatureNames(), Seed: 1}
	if err := engine.Fit(context.Background(), model, train, nil); err != nil {
		log.Fatal(err)
	}

	// What a fitted model can do is told by the interfaces it implements.
	pred, err := model.(engine.Predictor).Predict(d.X)
	if err != nil {
		log.Fatal(err)
	}
	right := 0
	for i, p := range pred {
		if p == d.Y[i] {
			right++
		}
	}
	fmt.Printf("%s of depth %d: %d of %d training rows right\n", spec.Title, values.Int("max_depth"), right, d.Rows())
	fmt.Println("the first row is", d.Classes[int(pred[0])])
	// Output:
	// decision tree of depth 2: 144 of 150 training rows right
	// the first row is setosa
}
