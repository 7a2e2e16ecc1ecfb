package engine

// Persistent is a fitted model that a model file can hold (tealab train
// --save-model, tealab predict): its fitted state (weights, trees, centres,
// the training rows a k-NN keeps...) as JSON, and back. Parameters are not
// part of the state: the file keeps them, and loading builds the model
// with Spec.New from them before UnmarshalState.
//
// State is data only: loading never runs anything the file names. A state
// that is malformed, truncated or inconsistent with the model's parameters
// (a weight matrix of the wrong shape, a tree whose child index points
// outside it) is an error that says what is wrong, never a panic.
type Persistent interface {
	// MarshalState encodes the fit; ErrNotFitted before Fit.
	MarshalState() ([]byte, error)
	// UnmarshalState restores a fit MarshalState encoded, on a model built
	// with the same parameters; afterwards Predict (and the model's other
	// capabilities) answer as the fitted model did.
	UnmarshalState(data []byte) error
}
