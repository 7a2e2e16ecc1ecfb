// Package params is the lab's hyperparameter screen: a form of the model's
// parameters and the evaluation settings, each field checked as it is
// typed against its declaration, that starts a run, a sweep or a
// learning curve.
package params
