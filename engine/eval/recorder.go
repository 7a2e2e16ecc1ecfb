package eval

import (
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// recorder is the Recorder Run passes to Fit: it stops the fit on
// cancellation or divergence, scores the model on the fold's held-out rows
// after each step (the live validation curve) and reports progress.
type recorder struct {
	rn          *runner
	model       engine.Model
	xval        *mat.Dense // nil: no held-out rows (unsupervised, the final refit)
	yval        []float64
	fold, folds int
	final       bool
	prep        *datasets.Prep // the fit's preprocessing, for Options.Snapshot

	// snapAt is when Options.Snapshot was last called.
	snapAt time.Time

	history []Point
	last    Point
	steps   int
	total   int  // the steps the fit expected, as its last step said (0: unknown)
	lastVal bool // validation was computed on the last step
	stopped bool // the fit was cancelled after its last recorded step

	// stage scores a Staged model by adding its new members only; nil
	// until first needed, or when the model is not Staged.
	stage     engine.StageScorer
	stageFail bool // Stages failed: score through Predict
	// pred and proba are the last scoring of the held-out rows (proba nil
	// without probabilities); after finish, the fitted model's.
	pred  []float64
	proba *mat.Dense
	// scoreTime is the time spent scoring the held-out rows.
	scoreTime time.Duration
	// every is how many steps pass between two validations (engine.Paced);
	// 0 until the first step asks the model.
	every int
}

// validateAt says whether step is on the validation schedule: every step to
// 100, every 10th to 1000, every 100th to 10000, and so on.
func validateAt(step int) bool {
	if step <= 100 {
		return true
	}
	stride := 10
	for limit := 1000; step > limit && limit < math.MaxInt/10; limit *= 10 {
		stride *= 10
	}
	return step%stride == 0
}

func (rc *recorder) Step(s engine.Step) error {
	if math.IsNaN(s.TrainLoss) || math.IsInf(s.TrainLoss, 0) {
		if err := rc.rn.ctx.Err(); err != nil {
			return err
		}
		unit := rc.rn.spec.Unit
		if unit == "" {
			unit = "step"
		}
		return &DivergedError{Model: rc.rn.spec.Name, Unit: unit, Step: s.Step, Loss: s.TrainLoss, Param: lrParam(rc.rn.spec)}
	}
	p := Point{Step: s.Step, TrainLoss: s.TrainLoss, ValLoss: math.NaN(), ValError: math.NaN(), Detail: s.Detail}
	rc.steps++
	rc.total = s.Total
	rc.last = p
	rc.lastVal = false
	if err := rc.rn.ctx.Err(); err != nil {
		// The step happened: it is the state a model stopped early keeps,
		// scored by finish if the model can still predict.
		rc.stopped = true
		rc.history = append(rc.history, p)
		return err
	}
	if rc.xval != nil && rc.due(s.Step) {
		p.ValLoss, p.ValError = rc.validate()
		// A model that cannot predict yet (one-step models report before
		// they publish their state) is validated again by finish.
		rc.lastVal = !math.IsNaN(p.ValError)
		rc.last = p
	}
	rc.history = append(rc.history, p)
	rc.snapshot()
	if rc.rn.progress != nil {
		rc.rn.progress(Progress{Fold: rc.fold, Folds: rc.folds, Final: rc.final, Point: p, Total: s.Total, Elapsed: time.Since(rc.rn.start)})
	}
	return nil
}

// due says whether step is validated: the first, and those of the
// schedule validateAt keeps in steps of the model's pace (engine.Paced).
func (rc *recorder) due(step int) bool {
	if rc.every == 0 {
		rc.every = 1
		if p, ok := rc.model.(engine.Paced); ok {
			rows, _ := rc.xval.Dims()
			rc.every = max(p.ValidateEvery(rows), 1)
		}
	}
	return step == 1 || step%rc.every == 0 && validateAt(step/rc.every)
}

// Tick implements engine.Ticker: it stops the fit on cancellation and
// hands how far the step has got to Options.Tick, and the model to
// Options.Snapshot, so that a long epoch's picture moves too.
func (rc *recorder) Tick(step, total int, done float64) error {
	if err := rc.rn.ctx.Err(); err != nil {
		return err
	}
	if tick := rc.rn.opt.Tick; tick != nil {
		last := rc.last
		if rc.steps == 0 {
			last = Point{TrainLoss: math.NaN(), ValLoss: math.NaN(), ValError: math.NaN()}
		}
		last.Step = step - 1
		tick(Progress{Fold: rc.fold, Folds: rc.folds, Final: rc.final, Point: last, Total: total,
			Elapsed: time.Since(rc.rn.start), Within: done})
	}
	rc.snapshot()
	return nil
}

// snapshot hands the model to Options.Snapshot when SnapshotEvery has
// passed since it last did, and on a fit's first step.
func (rc *recorder) snapshot() {
	snap := rc.rn.opt.Snapshot
	if snap == nil || rc.model == nil || time.Since(rc.snapAt) < SnapshotEvery {
		return
	}
	defer func() { _ = recover() }() // a model that cannot predict mid-fit has no picture
	snap(rc.model, rc.prep)
	rc.snapAt = time.Now()
}

// finish completes the history once Fit has returned: a model that
// reported no step gets one, and the held-out rows are scored by the model
// as it ended (for the last step's validation and the fold's predictions,
// which reuse that scoring).
func (rc *recorder) finish() {
	if rc.steps == 0 {
		rc.last = Point{Step: 1, TrainLoss: math.NaN(), ValLoss: math.NaN(), ValError: math.NaN()}
		rc.steps = 1
		rc.history = append(rc.history, rc.last)
	}
	if rc.xval == nil {
		return
	}
	rc.last.ValLoss, rc.last.ValError = rc.validate()
	rc.lastVal = true
	rc.history[len(rc.history)-1] = rc.last
}

// stoppedEarly describes how far a cancelled fit got, as "37 of 300
// trees" (the spec's unit), or "" when it recorded no step.
func (rc *recorder) stoppedEarly() string {
	if rc.steps == 0 {
		return ""
	}
	unit := rc.rn.spec.Unit
	if unit == "" {
		unit = "step"
	}
	if rc.total > 0 {
		return fmt.Sprintf("%d of %d %ss", rc.last.Step, rc.total, unit)
	}
	return fmt.Sprintf("%d %ss", rc.last.Step, unit)
}

// validate scores the model as it stands on the held-out rows: log-loss (if
// the model gives probabilities) and error rate for classification, MSE and
// RMSE for regression. A model that cannot predict mid-fit gives NaN.
func (rc *recorder) validate() (loss, rate float64) {
	loss, rate = math.NaN(), math.NaN()
	pred, proba := rc.score()
	if pred == nil {
		return loss, rate
	}
	if rc.rn.task != datasets.Classification {
		mse := metrics.MSE(rc.yval, pred)
		return mse, math.Sqrt(mse)
	}
	rate = 1 - metrics.Accuracy(rc.yval, pred)
	if proba != nil {
		loss = metrics.LogLoss(rc.yval, proba)
	}
	return loss, rate
}

// score predicts the held-out rows with the model as it stands, keeping
// the predictions and probabilities in rc.pred and rc.proba: through the
// model's StageScorer when it is Staged, else Predict and PredictProba.
// Predictions that are not one valid value a row are nil; probabilities
// that are not rows × classes are nil.
func (rc *recorder) score() (pred []float64, proba *mat.Dense) {
	t0 := time.Now()
	defer func() {
		if recover() != nil {
			pred, proba = nil, nil
		}
		rc.pred, rc.proba = pred, proba
		rc.scoreTime += time.Since(t0)
	}()
	if st, ok := rc.model.(engine.Staged); ok && rc.stage == nil && !rc.stageFail {
		s, err := st.Stages(rc.xval)
		rc.stage, rc.stageFail = s, err != nil
	}
	if rc.stage != nil {
		var err error
		if pred, proba, err = rc.stage.Scores(); err != nil {
			return nil, nil
		}
	} else {
		p, ok := rc.model.(engine.Predictor)
		if !ok {
			return nil, nil
		}
		var err error
		if pred, err = p.Predict(rc.xval); err != nil {
			return nil, nil
		}
		if pr, ok := rc.model.(engine.Prober); ok && rc.rn.task == datasets.Classification {
			if proba, err = pr.PredictProba(rc.xval); err != nil {
				proba = nil
			}
		}
	}
	if len(pred) != len(rc.yval) {
		return nil, nil
	}
	k := len(rc.rn.d.Classes)
	if rc.rn.task == datasets.Classification && metrics.CheckCodes(pred, k) != nil {
		return nil, nil
	}
	if proba != nil {
		if r, c := proba.Dims(); r != len(rc.yval) || c != k {
			proba = nil
		}
	}
	return pred, proba
}
