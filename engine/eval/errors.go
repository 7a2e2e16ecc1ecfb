package eval

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/tealab/tealab/engine"
)

// The errors a run ends with besides the model's own.

// ErrPanic is wrapped by the error Run returns when a model panicked. That is
// a bug in the model; Run turns it into an error so that a run in the TUI
// never takes the program down, and the conformance suite can tell it apart.
var ErrPanic = errors.New("panicked")

// DivergedError says that a fit's training loss became NaN or infinite. It
// wraps engine.ErrDiverged.
type DivergedError struct {
	Model string  // spec name
	Unit  string  // what a step is: "epoch", "iteration", ...
	Step  int     // the step whose loss was not finite
	Loss  float64 // that loss
	Param string  // the learning-rate parameter to lower, if the model has one
}

func (e *DivergedError) Error() string {
	hint := "try a smaller learning rate or standardised features"
	if e.Param != "" {
		hint = "try a smaller learning rate (" + e.Param + ")"
	}
	return fmt.Sprintf("%s diverged at %s %d (training loss is %s); %s",
		e.Model, e.Unit, e.Step, strconv.FormatFloat(e.Loss, 'g', -1, 64), hint)
}

// Unwrap makes errors.Is(err, engine.ErrDiverged) true.
func (e *DivergedError) Unwrap() error { return engine.ErrDiverged }

// PanicError is the error of a model that panicked; it wraps ErrPanic and
// keeps the stack for a bug report (Error is one line without it).
type PanicError struct {
	Model, Where string
	Value        any
	Stack        []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("model %s panicked in %s: %v (a bug in the model)", e.Model, e.Where, e.Value)
}

// Unwrap makes errors.Is(err, ErrPanic) true.
func (e *PanicError) Unwrap() error { return ErrPanic }

// safely calls f, turning a panic into a *PanicError.
func safely(model, where string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Model: model, Where: where, Value: p, Stack: debug.Stack()}
		}
	}()
	return f()
}

// lrParam names the model's learning-rate parameter, if it has one.
func lrParam(s *engine.Spec) string {
	for _, name := range []string{"lr", "learning_rate", "eta", "step_size", "step"} {
		if _, ok := s.Param(name); ok {
			return name
		}
	}
	return ""
}
