// Package lecture holds the lecture notes' experiments: the pictures the
// notes teach with (gradient descent on a cost surface, the bias-variance
// decomposition, regularisation paths, double descent, Hoeffding's bound
// and dichotomies, the kernel trick), each computed from a seed and its
// knobs, step by step, so that a front end can draw it as it grows.
//
// An experiment is one Experiment registered in its file's init, as a
// model is one engine.Spec: its name, title, sources, knobs (engine.Param,
// so that forms, flags and errors read as a model's do) and Run. Front
// ends draw its result (package report); a run of one is a Record, which
// the run history keeps beside the runs.
package lecture
