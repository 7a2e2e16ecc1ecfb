// Package linear holds tealab's linear models: least squares (optionally
// polynomial and weighted), ridge regression, the lasso and forward
// stepwise selection for regression; the centroid method, the perceptron
// and logistic (softmax) regression for classification (Shewchuk, Concise
// Machine Learning, lectures 2-4 and 10-13; Hocking, CS499 Optimization
// Algorithms for ML; Verma, COMS 4771 notes, Perceptron and Kernelization). Importing the
// package registers its specs (engine.Register in init); engine/models
// imports every family at once.
//
// The one thing to know: every model here is linear in the columns it is
// given, w·x + b. A curved boundary comes from lifting the columns first,
// not from the model: least squares' degree and the lift parameter of
// ridge, the lasso, the perceptron and logistic regression fit on every
// monomial of the features of degree 1..p (lift.go). The models whose
// penalty or step size depends on a feature's scale say so in their spec
// (engine.Spec.Standardize) and the evaluation standardises their columns
// on each training part; called directly, they take the columns as given.
package linear
