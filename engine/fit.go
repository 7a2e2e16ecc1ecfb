package engine

import (
	"context"
	"errors"
	"fmt"
)

// FitState is the fitted flag every model embeds. A family sets Fitted
// when it publishes a state Predict can use (before each Recorder.Step,
// and when UnmarshalState loads one) and answers ErrNotFitted while it is
// false; Fit clears it before a fit and after one that fails, so that a
// family's Fit holds only its mathematics.
type FitState struct {
	// Fitted says the model predicts from the state it holds.
	Fitted bool
	// kept says the fit that failed was stopped by its context and keeps
	// the state of the last step it reported (StoppedEarly).
	kept bool
}

// StoppedEarly returns err, the error that stops a fit, and says that the
// model keeps the state of the last step it reported: a model stopped
// early, which a run then scores as it stands. Fit keeps that state when
// the fit was stopped by its context (the context is done, or err is its
// error), and unfits the model after any other error (a divergence, a
// recorder's own error). A family calls it where its state is whole (a
// forest's trees so far, a network's last good weights).
func (s *FitState) StoppedEarly(err error) error {
	s.kept = true
	return err
}

func (s *FitState) fitState() *FitState { return s }

// fitStater is a model that embeds FitState.
type fitStater interface{ fitState() *FitState }

// Fit fits m on the training rows d: the one way evaluation, the bench,
// the geometry of the lab and the tests fit a model, whose Fit method is
// called by nothing else (but a model that wraps it). It
//   - supplies the context (context.Background when ctx is nil) and the
//     recorder (one that only stops the fit when ctx is done, when rec is
//     nil), so that a model's Fit has both;
//   - checks the shape of the rows every model needs (CheckRows), and the
//     context, before the model sees them;
//   - leaves a model whose fit failed unfitted: after an error or a panic
//     (raised again), FitState.Fitted is false, so that Predict returns
//     ErrNotFitted; only a fit stopped by its context whose model said
//     StoppedEarly keeps its last step.
//
// A model that does not embed FitState (a test's fake) keeps what its own
// Fit leaves.
func Fit(ctx context.Context, m Model, d Train, rec Recorder) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if rec == nil {
		rec = ContextRecorder{Ctx: ctx}
	}
	var st *FitState
	if s, ok := m.(fitStater); ok {
		st = s.fitState()
		*st = FitState{}
	}
	if err := CheckRows(d); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if st == nil {
		return m.Fit(ctx, d, rec)
	}
	done := false
	defer func() {
		if !done || err != nil && !(st.kept && stopped(ctx, err)) {
			st.Fitted = false
		}
		st.kept = false
	}()
	err = m.Fit(ctx, d, rec)
	done = true
	return err
}

// stopped says whether a fit that returned err was stopped by its context:
// the context is done, or a recorder returned its error for it.
func stopped(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// CheckRows checks the shape of the training rows that every model needs
// and Fit checks first: a matrix of at least one row and one feature, and
// one target and one sample weight a row when there are any. What depends
// on the model (finite values, class codes, enough rows for its
// parameters) its Fit checks (CheckTrain, PresentClasses).
func CheckRows(d Train) error {
	if d.X == nil {
		return errors.New("no training data")
	}
	n, p := d.X.Dims()
	switch {
	case n == 0:
		return errors.New("no training rows")
	case p == 0:
		return errors.New("no features")
	case d.Y != nil && len(d.Y) != n:
		return fmt.Errorf("%d targets for %d rows", len(d.Y), n)
	case d.Weights != nil && len(d.Weights) != n:
		return fmt.Errorf("%d sample weights for %d rows", len(d.Weights), n)
	}
	return nil
}
