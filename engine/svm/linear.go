package svm

import (
	"context"
	"errors"

	"gonum.org/v1/gonum/mat"
)

// linearProblem is one two-class problem for the linear SVM's solvers.
type linearProblem struct {
	X     *mat.Dense // n × d rows, as the model receives them
	Y     []float64  // +1 or −1 per row
	Upper []float64  // box bound C_i of each row's dual variable; +Inf: a hard margin
}

// linearOptions say how to solve a linearProblem.
type linearOptions struct {
	Solver  string  // "dcd" (dual coordinate descent) or "sgd"
	Tol     float64 // stopping tolerance
	MaxIter int     // most passes over the rows
	Seed    uint64  // order of the coordinates or samples
}

// linearSolution is a solved linearProblem: f(x) = W·x + B.
type linearSolution struct {
	W         []float64
	B         float64
	Alpha     []float64 // dual variable of each row (dcd); nil when the solver has none
	Passes    int
	Converged bool
}

// solveLinear solves p; step is called after each pass with its progress,
// and a non-nil error from step stops the solver and is returned.
func solveLinear(ctx context.Context, p linearProblem, o linearOptions, step func(pass int, pr Progress) error) (linearSolution, error) {
	return linearSolution{}, errors.New("svm: the linear solvers are being written on their own branch")
}
